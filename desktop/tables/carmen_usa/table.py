"""Where in the USA is Carmen Sandiego: the 24 Landmark Boxes on a drawn map of the USA, the
agents' pieces on it, the question card, and the Catch Carmen finale with its countdown ring.

Drawn from the engine's shared view (and the public facts of the game: the question being read,
where the pieces stand). The map is our own drawing: a grid of tiles over the outline of the
country, each landmark on the tile nearest to where it lies (``assets/boards/carmen-usa-map.toml``).
Clicks on highlighted landmarks and states go to the shell's action flow
(``desktop/table_base.py``). The table takes over reading a question (the next card is drawn at
random from those not read yet) and shows it as a large card whose choices an agent may tap. A
piece that moves is seen moving from one landmark to the other. In the finale it runs the big
countdown; when it reaches zero it sends "time ran out".
"""


from __future__ import annotations

import random

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtWidgets import QStackedWidget, QVBoxLayout, QWidget

from engine.game import Journal, Option
from engine.session import PlayerView

from ... import style
from ...drawn import MotionQueue, Step, player_colours
from ...drawn import paint as pt
from ...drawn.palette import named_colour
from ...private import journal_table
from ...table_base import GameTable, TableShell
from ...widgets import label
from .board import BACK, LandmarkTile, UsaMap
from .finale import TOKEN, FinalePage
from .mapfile import load_map

KIND_INDEX = {"warrant": 0, "loot": 1, "crook": 2}


# --- the table ------------------------------------------------------------------------------
class CarmenUsaTable(GameTable):
    """The map with the 24 landmarks and the question card; the finale's map, countdown and tokens."""

    def __init__(self, shell: TableShell, rng: random.Random | None = None) -> None:
        super().__init__(shell)
        self.rng = rng or random.SystemRandom()
        session = self.controller.session
        rules = session.rules
        self.rules = rules
        layout = session.layout()
        self.colours = player_colours(session.players)
        self.layout_map = load_map(rules.board.ids, colours=rules.colours)
        self.tiles: dict[str, LandmarkTile] = {}
        for lm in rules.board.ids:
            name = rules.landmark_name[lm]
            tile = LandmarkTile(lm, name, self.layout_map.label(lm, name))
            tile.picked.connect(self.place_clicked)
            tile.refused.connect(self.place_refused)
            self.tiles[lm] = tile
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        self.pages = QStackedWidget()
        outer.addWidget(self.pages)
        self.map = UsaMap(self.layout_map, self.tiles)
        self.card_box = self.map.card
        self.choice_buttons = self.map.card.choices
        for button in self.choice_buttons:
            button.clicked.connect(lambda _=False, n=button.index: self.choice_tapped(n))
        self.pages.addWidget(self.map)
        tiles = {}
        for item in layout["tiles"]:
            st, r, c = item.split(":")
            tiles[st] = (int(r), int(c))
        self.finale = FinalePage(tiles, rules.state_names, list(session.players), self.colours,
                                 rules.board.tokens_per_agent, self.place_clicked,
                                 self.place_refused)
        self.state_tiles = self.finale.state_tiles
        self.token_slots = self.finale.tokens
        self.countdown = self.finale.countdown
        self.countdown.expired.connect(self.time_ran_out)
        self.finale.all_placed.clicked.connect(self.all_placed_pressed)
        self.finale.time_up_yes.clicked.connect(self.time_ran_out)
        self.pages.addWidget(self.finale)
        self.motion = MotionQueue(self)
        self._pieces_seen: dict[str, str | None] | None = None
        #: movements made while the table was hidden (behind the privacy gate): played when it shows
        self._deferred: list[Step] = []
        self._spoken_question: str | None = None

    # --- the contract ----------------------------------------------------------------
    def shows(self, place: str) -> bool:
        if place.startswith("box/"):
            return place[4:] in self.tiles
        return place in self.tiles or place in self.state_tiles or place in self.token_slots

    def handles(self, option: Option) -> bool:
        return option.action == "ask"

    def start(self, option: Option, player: str) -> None:
        """Read the next question: the top card of the pile is any one not read yet (chance)."""
        questions = option.targets["question"]
        if self.shell.send({"type": "ask", "player": player, "question": self.rng.choice(list(questions))}):
            # The question is on the card over the map: the message says who reads it to whom,
            # it does not repeat it (the full log keeps the engine's words, question and all).
            state = self.controller.session.state
            self.shell.say([f"{player} reads {state.answerer} a {state.colour} question."])

    def field_words(self, option: Option, field: str) -> str:
        # Without the family's board graph every landmark glows (the app does not count the spaces):
        # the words never say the glowing ones are in reach.
        reached = ("the landmark you reached (highlighted)" if self.rules.graph is not None
                   else "the landmark you reached (they all glow: the app does not count spaces)")
        words = {"landmark": f"{reached}, or No landmark",
                 "box": "the landmark (highlighted)", "token": "your Capital Token (highlighted)",
                 "state": "its state on the map"}
        return words.get(field, super().field_words(option, field))

    def refresh(self, view: PlayerView, legal: set[str], chosen: set[str]) -> None:
        state = self.controller.session.state
        finale = state.phase.startswith("finale") or (view.outcome is not None and state.winner is not None)
        self.pages.setCurrentIndex(1 if finale else 0)
        by_place = {card.place: card for card in view.cards}
        pieces: dict[str, list[tuple[str, str]]] = {}
        for player in self.controller.session.players:
            lm = state.pieces.get(player)
            if lm:
                pieces.setdefault(lm, []).append((player, self.colours[player]))
        for lm, tile in self.tiles.items():
            box = f"box/{lm}"
            card = by_place.get(box)
            legal_place = box if box in legal else lm if lm in legal else None
            named = card.name if card else None
            kind = self.rules.kind_of(card.card) if card and card.card else (card.kind if card else None)
            index = KIND_INDEX.get(kind or "", 0)
            # A card everyone has seen is drawn in its own colour, the colour and type in words too (the
            # deck's colour word, not the card's name, which a family may have renamed).
            word = self.rules.colour_of.get(card.card, "") if card and card.card else ""
            colour = self.layout_map.colours.get(word, BACK) if named else BACK
            seen = f"{word.capitalize()} {(kind or '').capitalize()}".strip() if word else None
            tile.show_box(card=named, face_up=bool(card and card.face_up), present=card is not None, colour=colour,
                          symbol=style.kind_symbol(index) if named else "", pieces=pieces.get(lm, []),
                          legal_place=legal_place, chosen=box in chosen or lm in chosen, words=seen)
        self.map.update()                 # the halos of the legal tiles
        self._refresh_question(state)
        self._refresh_finale(state, view, by_place, legal, chosen, finale)
        self._follow_pieces(dict(state.pieces))

    def _refresh_question(self, state) -> None:
        bank = self.rules.bank
        asking = state.phase in ("answering", "backup") and state.question
        q = bank.question(state.question) if state.question else None
        colour = named_colour(state.colour, "#D0D0D0")
        if asking and q is not None:
            listener = state.backup if state.phase == "backup" else state.answerer
            heard = bool(state.choices or (state.phase == "backup" and state.first_choices))
            tappable = heard and self.controller.session.prompt().option("answer") is not None
            self.map.card.show_question(f"{state.colour.capitalize()} question: {state.reader} reads to {listener}",
                                        q.text, colour, list(q.options) if heard else None, tappable,
                                        reader=state.reader, answer=q.answer,
                                        on_phone=self._on_phone(state.reader))
            self.map.card.show()
            self.map.card.raise_()
            if state.question != self._spoken_question:
                # Read aloud once, when it is drawn (the prompt no longer carries it).
                self._spoken_question = state.question
                self.shell.speak(q.text)
        else:
            self.map.card.hide()
            self._spoken_question = None
        left = len(self.rules.sets[state.colour]) - len(state.asked)
        out = ", ".join(state.warrants_out) if state.warrants_out else "none"
        # (words, bold, kept: the lower, the sooner it is left out when the pile has no room)
        lines = [(f"{state.colour.capitalize()} questions", True, 3), (f"{left} left", False, 0)]
        if q is not None and not asking:
            lines.append((f"The last answer: {q.answer}", False, 1))
        lines.append((f"Warrants out of play: {out}", False, 4))
        if state.variant == "bigger":
            lines.append(("A bigger challenge: Loot goes back face down.", False, 2))
        self.map.pile.set_lines(colour, lines)

    def _on_phone(self, player: str) -> bool:
        """Whether ``player``'s phone page is open (their private words go there, not the laptop)."""
        phones = getattr(self.window(), "phones", None)
        return bool(phones is not None and phones.on and phones.on_phone(player))

    def _refresh_finale(self, state, view: PlayerView, by_place, legal: set[str], chosen: set[str],
                        finale: bool) -> None:
        """Catch Carmen. While the clock runs (Catching Carmen: the agents place their real tokens on the
        printed map) the page shows the countdown and the big "All placed!", nothing to fill in; then each
        token is checked at the family's own pace: turned over (its capital shown), its state tapped."""
        placed = {card.place[4:]: card.name for card in view.cards if card.place.startswith("map/")}
        wrong = {st for _, st in state.misplaced}
        for st, tile in self.state_tiles.items():
            tile.show_state(placed.get(st), st in legal, st in chosen, wrong=st in wrong)
        seconds = self.rules.board.timer_seconds[len(state.players)]
        self.countdown.set_total(seconds)
        placing = state.phase == "finale_place" and view.outcome is None
        if placing and not self.countdown.running:
            self.countdown.start(seconds)
        elif not placing and self.countdown.running:
            self.countdown.stop()
        self.finale.all_placed.setVisible(placing)
        if not placing:
            self.finale.confirm.hide()
        self.finale.time_up.setVisible(placing and not self.finale.confirm.isVisible())
        self.finale.all_placed.setEnabled(placing and self.controller.session.prompt().option("all_placed") is not None)
        # The tokens of the agent taking or checking them are on the rack; while the clock runs the real
        # tokens are on the table, and on the simulated table their capitals are written out instead.
        prompt = self.controller.session.prompt()
        holder = None if placing or view.outcome is not None else prompt.player
        for place, slot in self.token_slots.items():
            owner, _, n = place.split("/")
            card = by_place.get(place)
            words = f"Token {n}" if card is None or not (card.face_up and card.name) else card.name
            # At the check a token already checked lies on the drawn map: its place on the rack goes.
            slot.setVisible(owner == holder and finale and (card is not None or state.phase != "finale_check"))
            slot.show_card("Capital", f"Token {n}", TOKEN, name=card.name if card and card.face_up else None,
                           present=card is not None, legal=place in legal, chosen=place in chosen,
                           face_up=bool(card and card.face_up))
            slot.setAccessibleName(f"{owner}'s {words}" if card else f"{owner}'s token {n}: checked")
        for player, name in self.finale.names.items():
            name.setVisible(player == holder and finale)
            name.set_state(note="\u25C0 playing now", current=player == holder)
        left = {p: sum(1 for place in self.token_slots if place.startswith(f"{p}/") and place in by_place)
                for p in state.players}
        drawn = state.phase in ("finale_check",)
        others = sum(n for p, n in left.items() if p != holder)
        self.finale.others.setText(f"Then {others} more tokens to check" if others and drawn else "")
        self.finale.others.setVisible(bool(self.finale.others.text()))
        words = self._simulated_tokens(state) if placing else ""
        self.finale.simulated.setText(words)
        self.finale.simulated.setVisible(bool(words) and not self.finale.confirm.isVisible())
        self.finale.rack_room.setStretchFactor(self.finale.rack, 1 if holder is not None else 0)
        if finale and self.finale.layout() is not None:
            self.finale.layout().activate()      # tokens just shown get their room now, not at the next paint
        if view.outcome is not None:
            self.finale.status.setText(view.outcome.reason)
        elif placing:
            self.finale.status.setText("Nothing to type now: place your real tokens.")
        elif state.phase == "finale_check":
            left = self.countdown.stopped_at
            when = f"with {left} seconds left" if left is not None else "in time"
            self.finale.status.setText(f"All placed {when}! Now check each token at your own pace.")
        elif state.phase == "finale_clock":
            self.finale.status.setText(f"Everyone has three tokens, face down. {state.order[-1]} starts the "
                                       f"{seconds}-second timer.")
        elif finale:
            self.finale.status.setText(f"Everyone takes three tokens without looking; then {state.order[-1]} "
                                       f"starts the {seconds}-second timer.")

    def _simulated_tokens(self, state) -> str:
        """On a demo's simulated table there are no real tokens to flip: each agent's capitals in words."""
        if self.controller.simulator is None:
            return ""
        rows = []
        for player in state.order:
            names = [self.rules.card_name(card) for n in range(1, self.rules.board.tokens_per_agent + 1)
                     if (card := self.controller.true_card_at(f"{player}/capital/{n}"))]
            if names:
                rows.append(f"{player}: {', '.join(names)}")
        return "\n".join(["The simulated tokens:", *rows]) if rows else ""

    def holds_the_screen(self) -> str | None:
        """While the Catch Carmen clock runs nothing opens over the table."""
        if self.countdown.running:
            return "Not while the timer runs: press All placed! first."
        return None

    def turn_words(self, view: PlayerView) -> str | None:
        """Catching Carmen: every agent places tokens while the clock runs, and the check is everyone's
        too (each agent's tokens in turn): not "Ann's turn"."""
        state = self.controller.session.state
        if view.outcome is not None:
            return None
        if state.phase == "finale_place":
            return "Everyone: place your tokens"
        if state.phase == "finale_check" and view.prompt.player:
            return f"Everyone checks the tokens: {view.prompt.player}'s now"
        return None

    def all_placed_pressed(self) -> None:
        option = self.controller.session.prompt().option("all_placed")
        player = self.controller.session.prompt().player
        if option is not None and player is not None:
            self.shell.send({"type": "all_placed", "player": player})

    # --- movements ----------------------------------------------------------------------
    def _follow_pieces(self, now: dict[str, str | None]) -> None:
        """Each piece that moved is seen going from its old landmark to its new one (one at a time)."""
        before, self._pieces_seen = self._pieces_seen, now
        if before is None:
            return
        steps = []
        for player in self.controller.session.players:
            src, dst = before.get(player), now.get(player)
            if dst and src != dst and dst in self.tiles:
                steps.append(self._piece_step(player, src, dst))
        if steps and self.map.isVisible():
            self.motion.play(steps)
        elif steps:
            for step in steps:
                step.hold()
            self._deferred += steps

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if self._deferred and self.map.isVisible():
            steps, self._deferred = self._deferred, []
            self.motion.play(steps)

    def _piece_step(self, player: str, src: str | None, dst: str) -> Step:
        target = self.tiles[dst]
        colour = self.colours[player]
        flight: list[int] = []

        def rect_on_map(tile: LandmarkTile) -> QRectF:
            return tile.pawn_rect(player).translated(QPointF(tile.pos()))

        def progress(t: float) -> None:
            end = rect_on_map(target)
            # A piece put down for the first time comes down from above its landmark.
            start = rect_on_map(self.tiles[src]) if src in self.tiles else end.translated(0, -end.height() * 2.5)
            where = pt.lerp_rect(start, end, t, lift=end.height() * 1.2)
            if not flight and t < 1.0:
                flight.append(self.map.flights.add(lambda p, r: pt.paint_piece(p, r, colour, player), where))
            elif flight:
                self.map.flights.move(flight[0], where)

        def land() -> None:
            for f in flight:
                self.map.flights.remove(f)
            flight.clear()
            target.land_piece(player)

        return Step(progress=progress, hold=lambda: target.hold_piece(player), land=land, what="piece")

    # --- the table's own actions ------------------------------------------------------
    def choice_tapped(self, n: int) -> None:
        """The answering agent taps a choice: the app marks it right or wrong."""
        session = self.controller.session
        state = session.state
        player = session.prompt().player
        if state.question is None or player is None or session.prompt().option("answer") is None:
            return
        q = self.rules.bank.question(state.question)
        self.shell.send({"type": "answer", "player": player, "correct": q.options[n] == q.answer})

    def time_ran_out(self) -> None:
        """The app's clock reached zero, or the family confirmed their own timer ran out: Carmen escapes.
        Not an offered action (a main button beside "All placed!" ended games by mistake)."""
        session = self.controller.session
        self.finale.confirm.hide()
        if session.state.phase == "finale_place" and session.outcome is None and session.prompt().player:
            self.shell.send({"type": "time_up", "player": session.prompt().player})

    def setup_widget(self) -> QWidget:
        """How to lay out the game before the first move (in our own words)."""
        state = self.controller.session.state
        extra = " A bigger challenge: Loot cards go back face down too." if state.variant == "bigger" else ""
        text = label("Shuffle the 24 Clue Cards and put one face down (the Carmen logo up) on each Landmark "
                     "Box along the top and bottom of the board. Set the 50 Capital Tokens aside for the end. "
                     f"This game uses the {state.colour} questions: the app reads them. From youngest to oldest "
                     f"({', '.join(state.order)}), each agent puts a piece on a vacant landmark." + extra, "prompt")
        text.setObjectName("usa:setup")
        return text

    def journal_widget(self, journal: Journal) -> QWidget:
        """Every Landmark Box and what this agent knows of it."""
        line = next((d for d in journal.deductions if d.kind == "boxes"), None)
        rows = []
        how_words = self.rules._HOW
        for box in (line.data["boxes"] if line else []):
            card = self.rules.card_name(box["card"]) if box["card"] else ""
            rows.append([self.rules.landmark_name[box["landmark"]], card or "Unknown",
                         how_words[box["how"]] if box["how"] != "unknown" else ""])
        table = journal_table(["Landmark", "Card", "How you know"], rows)
        table.setObjectName("journal:boxes")
        return table
