"""The 39 Clues: Double-Cross table: each player's four table stacks, two-sided deck and missions.

Everything is drawn from the engine's shared view (every card on this table is face up, so
all of it is public; hands are only counted). Clicks on highlighted stacks, decks and
missions go to the shell's action flow (``desktop/table_base.py``); the hand is offered as a
button ("your hand"), like every place that is not drawn here.
"""

from __future__ import annotations

from PySide6.QtWidgets import QGridLayout, QHBoxLayout, QVBoxLayout, QWidget

from engine.game import Journal, Option
from engine.games.clues39 import library as cards_lib
from engine.session import PlayerView

from ... import style
from ...drawn import DrawnCard, player_colours
from ...drawn.moves import TableMotion
from ...drawn.paint import CardLook
from ...drawn.palette import named_colour
from ...private import journal_table
from ...table_base import GameTable, NewGameChoices, ShelfScreen, TableShell
from ...widgets import label, plain_tip
from .board import CardRow, FaceCard, MissionCard, PlayerPlate
from .decks import DeckChoices
from .library import LibraryEditor
from .tags import sync_tags

SPOTS = ("1", "2", "3", "4")
NO_COLOUR = "#C9C4B8"        # the band and symbol of a card printed without a colour (Money, Prestige...)
CURRENT_STRETCH = 3         # the player whose turn it is gets a taller row than the others (2)


class CluesTable(GameTable):
    """A row per player: their plate, Table 1-4, the two-sided deck, then their missions as stacks."""

    def __init__(self, shell: TableShell) -> None:
        super().__init__(shell)
        # The game's cards get their tag numbers before the camera starts, so it can read them.
        self.tag_problem = sync_tags((c.id, c.name) for c in self.controller.deck.cards.values())
        self.slots: dict[str, DrawnCard] = {}
        self.rows: dict[str, QWidget] = {}
        self.plates: dict[str, PlayerPlate] = {}
        self.card_rows: dict[str, CardRow] = {}
        self.missions: dict[str, list[str]] = {}
        colours = player_colours(self.controller.session.players)
        self.outer = QVBoxLayout(self)
        self.outer.setContentsMargins(0, 0, 0, 0)
        self.outer.setSpacing(4)
        for player in self.controller.session.players:
            row = QWidget()
            row.setObjectName(f"board:{player}")
            line = QHBoxLayout(row)
            line.setContentsMargins(0, 0, 0, 0)
            line.setSpacing(2)
            self.plates[player] = PlayerPlate(player, colours[player])
            # An eighth of the row (its counts at 17 px on a wide screen), 150 px at least.
            line.addWidget(self.plates[player], 2)
            cards = CardRow([self._slot(f"{player}/table/{spot}") for spot in SPOTS]
                            + [self._slot(f"{player}/deck/two")])
            cards.setObjectName(f"cards:{player}")
            line.addWidget(cards, 14)
            self.rows[player], self.card_rows[player], self.missions[player] = row, cards, []
            self.outer.addWidget(row, 2)
        self.motion = TableMotion(self, self._anchor, words=self._move_words)
        self.vocabulary = cards_lib.vocabulary()

    def _slot(self, place: str) -> DrawnCard:
        slot = MissionCard(place) if "/mission/" in place else FaceCard(place)
        slot.setMinimumSize(1, 1)                  # its row gives each card its room
        slot.picked.connect(self.place_clicked)
        slot.refused.connect(self._refused)
        self.slots[place] = slot
        return slot

    def _sync_missions(self, player: str, places: list[str]) -> None:
        """Mission stacks come and go: one card per open mission, in mission order, after the deck."""
        if places == self.missions[player]:
            return
        for place in self.missions[player]:
            if place not in places:
                slot = self.slots.pop(place)
                slot.hide()
                slot.deleteLater()
        for place in places:
            if place not in self.slots:
                self._slot(place)
        self.card_rows[player].set_missions([self.slots[place] for place in places])
        self.missions[player] = list(places)

    # --- movements ----------------------------------------------------------------------
    def _anchor(self, place: str) -> QWidget | None:
        if place in self.slots:
            return self.slots[place]
        owner = place.split("/", 1)[0]
        return self.plates.get(owner)         # a hand, a one-sided deck, a discard pile: by the name

    @staticmethod
    def _move_words(src: str, dst: str) -> str:
        if "/mission/" in dst and "/mission/" in src:
            return "steal"
        if "/mission/" in src:
            return "retrieve" if src.split("/")[0] == dst.split("/")[0] else "sabotage"
        if "/mission/" in dst:
            return "mission"
        return "deal" if "/table/" in dst else "move"

    # --- the contract ------------------------------------------------------------------
    @classmethod
    def shelf_screens(cls) -> list[ShelfScreen]:
        return [ShelfScreen("library", "Your card library\u2026", LibraryEditor)]

    @classmethod
    def new_game_choices(cls) -> NewGameChoices:
        return DeckChoices()

    @classmethod
    def before_tag_sheets(cls) -> str | None:
        # A library edited outside the app (or restored from a backup) gets its numbers here.
        return sync_tags()

    def shows(self, place: str) -> bool:
        return place in self.slots or "/mission/" in place

    def field_words(self, option: Option, field: str) -> str:
        words = {"agent_source": "where the Agent comes from", "location_source": "where the Location comes from",
                 "source": "where the card comes from", "mission": "the mission stack",
                 "agent_colour": "the Replicator Agent's colour", "location_colour": "the Replicator Location's colour",
                 "place": "the card to read"}
        return words.get(field, super().field_words(option, field))

    def refresh(self, view: PlayerView, legal: set[str], chosen: set[str]) -> None:
        if self.tag_problem:            # said once: the camera cannot read these cards, picking works
            problem, self.tag_problem = self.tag_problem, None
            self.shell.say([problem])
        self.motion.remember()
        by_place: dict[str, list] = {}
        for card in view.cards:
            by_place.setdefault(card.place, []).append(card)
        over = view.outcome is not None
        state = self.controller.session.state
        for player, plate in self.plates.items():
            missions = sorted((p for p in by_place if p.startswith(f"{player}/mission/")),
                              key=lambda p: int(p.rsplit("/", 1)[1]))
            self._sync_missions(player, missions)
            count = {what: len(by_place.get(f"{player}/{what}", ())) for what in ("hand", "deck/one", "discard")}
            score = state.scores.get(player, 0) if hasattr(state, "scores") else 0
            playing = player == view.current and not over
            attacking = [c.name for c in by_place.get(f"{player}/play", ()) if c.name]
            plate.set_state(score=score, current=playing,
                            counts=(f"Hand {count['hand']}", f"1-sided deck {count['deck/one']}",
                                    f"Discard {count['discard']}"),
                            note=f"attacking with {attacking[0]}" if attacking else "")
            self.outer.setStretch(self.outer.indexOf(self.rows[player]), CURRENT_STRETCH if playing else 2)
        legal = self._playable(legal)
        for place, slot in self.slots.items():
            look, words = self._look(place, by_place.get(place, []))
            slot.set_look(look, legal=place in legal, chosen=place in chosen)
            slot.setToolTip(plain_tip(" \u2014 ".join(words)) if words else "")
            if words:
                slot.setAccessibleName(" \u2014 ".join(words) + (", can be chosen" if slot.legal else ""))
        for cards in self.card_rows.values():
            cards.arrange()                  # a legal table card may take more room from the missions
        self.motion.follow(state)

    # --- only the cards that can be played glow ---------------------------------------------
    def _reading(self) -> tuple[dict, str] | None:
        """The action being put together and the card field read at the place to pick next (the card
        added to a mission, the Agent starting one...), or None when no card is picked now."""
        flow = getattr(self.shell, "flow", None)
        if flow is None or flow.next_field is None:
            return None
        card_field = next((c for c, p in flow.option.reads.items() if p == flow.next_field), None)
        if card_field is None:
            return None
        return {"type": flow.option.action, "player": flow.player, **flow.chosen}, card_field

    def _playable(self, legal: set[str]) -> set[str]:
        """Of the places the action offers, those where a card it can take may lie, as everyone knows
        the table (Creating a Mission Stack: only a Secret or Founder of the Location's colour, or
        black, is added; a face-up table card that cannot be is not offered). A place whose card is
        unknown (the two-sided deck's top) stays offered while a card that fits may lie there."""
        reading = self._reading()
        if reading is None:
            return legal
        action, card_field = reading
        return {place for place in legal
                if self.controller.candidates(place, None, action, card_field)}

    def _refused(self, place: str) -> None:
        """A card that does not glow was clicked: a face-up card everyone knows is refused in the
        engine's own words ("Demo Secret 2 is blue: this mission's Location is red..."); any other
        click is the shell's to answer."""
        reading = self._reading()
        card = self.controller.face_up_card(place) if reading is not None and place in self.slots else None
        if reading is not None and card is not None:
            action, card_field = reading
            flow = self.shell.flow
            trial = {**action, flow.next_field: place, card_field: card}
            for name, values in flow.option.targets.items():
                trial.setdefault(name, values[0] if values else None)
            refusal = self.controller.refusal(trial)
            if refusal is not None:
                self.shell.complain(refusal)
                return
        self.place_refused.emit(place)

    def _where(self, place: str) -> str:
        parts = place.split("/")
        if parts[1] == "table":
            return f"Table {parts[2]}"
        if parts[1] == "mission":
            return f"Mission {parts[2]}"
        return "Two-sided deck"

    def _colour_of(self, card) -> str | None:
        """The colour printed on a card ("red"), when it has one."""
        if card is None or not card.card:
            return None
        return self.controller.deck.card(card.card).attrs.get("colour")

    def _look(self, place: str, cards: list) -> tuple[CardLook, list[str]]:
        """How a place is drawn, and its whole words (its tooltip and screen-reader name)."""
        where = self._where(place)
        caption = "Deck" if "/deck/" in place else where
        if not cards:
            return CardLook(caption=caption, present=False), []
        deck = self.controller.deck
        top = cards[-1]
        # A card's type (Agent, Location...) by the family's own vocabulary; its symbol by the type.
        types = self.vocabulary.type_names
        type_id = deck.card(top.card).attrs.get("type") if top.card else None
        index = list(types).index(type_id) if type_id in types else 0
        kind_name = types.get(type_id, "Card")
        colour = self._colour_of(top)
        # One card, one colour: its band and its symbol are the colour printed on it, said in words
        # too ("Yellow Location"); a card without one (Money, Prestige, a Replicator) is neutral
        # grey, never one of the colours a card can have.
        band = named_colour(colour, NO_COLOUR)
        type_words = f"{colour.capitalize()} {kind_name}" if colour else kind_name
        if "/mission/" in place:
            named = [c for c in cards if c.card]
            points = sum(deck.card(c.card).attrs.get("points", 0) for c in named)
            session = self.controller.session
            mission = getattr(session.state, "missions", {}).get(place)
            immune = mission is not None and session.rules.immune(session.state, mission)
            new = mission is not None and mission.touched == session.state.turn
            status = [*(["immune"] if immune else []),
                      *((["new this turn"] if new else ["retrievable"]) if mission is not None else [])]
            agent, location = (named[0], named[1]) if len(named) > 1 else (named[0] if named else None, None)
            head = f"{agent.name} at {location.name}" if agent and location else where
            full = [where, head, ", ".join([f"{len(cards)} cards, {points} points", *status])]
            base = location or agent or top
            # The mission's colour is its Location's: the colour said for a Replicator Location.
            base_colour = (mission.location_colour if mission is not None and mission.location_colour
                           else self._colour_of(base))
            # The stack: the cards under the top one show their edges in their colours.
            layers = tuple(named_colour(self._colour_of(c), "#CCCCCC") for c in cards[:-1])
            if base_colour:
                full.insert(2, f"{base_colour.capitalize()} mission")      # its colour in words too
            base_band = named_colour(base_colour, band)
            look = CardLook(caption=caption, kind=f"{base_colour.capitalize()} mission" if base_colour else "Mission",
                            symbol=style.kind_symbol(index), colour=base_band,
                            name=base.name or where, face_up=True,
                            notes=tuple(x for x in ((agent.name if agent and location else ""),
                                                    f"{len(cards)} cards", ", ".join(status)) if x),
                            layers=layers, band=base_band, badge=f"{points} pts")
            return look, full
        count = f"{len(cards)} card{'s' if len(cards) != 1 else ''}"
        if top.name is None:
            # A stack's top card is read when it is played (a deck is only counted).
            notes = (count, "not read yet") if "/table/" in place else ("two-sided", count)
            return CardLook(caption=caption, kind="", symbol="", colour="#B9B4AA", notes=notes), [where, *notes]
        under = len(cards) - 1
        notes = (f"+{under} under it",) if under and "/table/" in place else ("two-sided", count) if "/deck/" in place \
            else ()
        look = CardLook(caption=caption, kind=type_words, symbol=style.kind_symbol(index),
                        colour=band, name=top.name, face_up=True, notes=notes, band=band)
        return look, [top.name, type_words, where, *notes]

    def setup_widget(self) -> QWidget:
        """How each player lays out their cards, left to right (the rulebook's Set Up)."""
        body = QWidget()
        grid = QGridLayout(body)
        tiles = ["One-sided deck\n(face down, left)", "Table 1", "Table 2", "Table 3", "Table 4",
                 "Two-sided deck\n(face up, right)"]
        for col, text in enumerate(tiles):
            tile = label(text, "heading")
            tile.setObjectName(f"setup:tile{col}")
            tile.setStyleSheet("border: 2px solid #6B6B6B; border-radius: 10px; padding: 8px;")
            grid.addWidget(tile, 0, col)
        words = label("Your opponent shuffles both of your decks. Deal four two-sided cards face up onto "
                      "Table 1 to Table 4, left to right, and draw four one-sided cards into your hand "
                      "(nobody scans a hand). Then show the four table cards to the camera, or pick them.")
        grid.addWidget(words, 1, 0, 1, len(tiles))
        return body

    def journal_widget(self, journal: Journal) -> QWidget:
        """Every card of the game and where it is (the deductions follow in the shell's frame)."""
        rows = [[e.name, e.where] for e in journal.entries]
        table = journal_table(["Card", "Where"], rows)
        table.setObjectName("journal:cards")
        return table
