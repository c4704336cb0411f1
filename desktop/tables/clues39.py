"""The 39 Clues: Double-Cross table: each player's four table stacks, two-sided deck and missions.

Everything is drawn from the engine's shared view (every card on this table is face up, so
all of it is public; hands are only counted). Clicks on highlighted stacks, decks and
missions go to the shell's action flow (``desktop/table_base.py``); the hand is offered as a
button ("your hand"), like every place that is not drawn here.
"""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path
from typing import Any, Iterable

from PySide6.QtCore import QRect, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPen
from PySide6.QtWidgets import (QComboBox, QDialog, QFileDialog, QGridLayout, QHBoxLayout, QLineEdit, QListWidget,
                               QListWidgetItem, QSizePolicy, QSpinBox, QVBoxLayout, QWidget)

from engine.game import Journal, Option
from engine.games.clues39 import library as cards_lib
from engine.session import PlayerView

from .. import style
from ..drawn import DrawnCard, player_colours
from ..drawn import paint as pt
from ..drawn.items import paint_cached, paint_player_disc
from ..drawn.moves import TableMotion
from ..drawn.paint import CardLook, Row, fit_rows
from ..drawn.palette import named_colour
from ..drawn.text import KEY_PX, LEAST_PX, DrawnText, draw_lines, font, line_height, narrow_family
from ..private import journal_table
from ..table_base import GameTable, NewGameChoices, ShelfScreen, TableShell
from ..widgets import button, label, plain_tip
from .clues39_stickers import StickerPanel
from .name_room import fit_name

SPOTS = ("1", "2", "3", "4")
DISC = 28                   # a player's disc on their plate: its initial is 15 px
PLATE_WIDTH = 150           # a player's name, score and counts, at the left of their row
CURRENT_STRETCH = 3         # the player whose turn it is gets a taller row than the others (2)


def sync_tags(game_cards: Iterable[tuple[str, str]] = ()) -> str | None:
    """Give the family's library cards (or the example collection's) and a game's cards their tag
    numbers (vision's per-family file in the user folder); the problem in words, or None."""
    from vision.registry import RegistryError, sync_family_cards
    try:
        try:
            sync_family_cards(cards_lib.GAME_ID, cards_lib.tag_cards(), listed=True)
        except cards_lib.LibraryError:
            pass            # a broken library is reported by its own screen; the game's cards still get tags
        cards = list(game_cards)
        if cards:
            sync_family_cards(cards_lib.GAME_ID, cards, listed=False)
    except (RegistryError, OSError) as exc:
        return f"Your cards' tag numbers could not be saved ({exc}); pick the cards on the screen."
    return None


class PlayerPlate(QWidget):
    """A player's name by a disc in their colour, their score, what they hold (counted) and the
    card they attack with, fitted to the room the row gives."""

    def __init__(self, name: str, colour: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName(f"plate:{name}")
        self.name, self.colour = name, colour
        self.score, self.counts, self.note, self.current = 0, "", "", False
        self.setMinimumWidth(PLATE_WIDTH)
        self.setMaximumWidth(int(PLATE_WIDTH * 1.4))       # a wide screen: the counts on fewer lines
        self.setSizePolicy(QSizePolicy.Preferred, QSizePolicy.Ignored)
        self.setMinimumHeight(60)

    def set_state(self, *, score: int, counts: str, note: str, current: bool) -> None:
        if (score, counts, note, current) != (self.score, self.counts, self.note, self.current):
            self.score, self.counts, self.note, self.current = score, counts, note, current
            self.setAccessibleName(self.text())
            self.setToolTip(plain_tip(self.text()))
            self.update()

    def text(self) -> str:
        return (f"{self.name}: {self.score} points \u2014 {self.counts}" + (f" \u2014 {self.note}" if self.note else "")
                + ("   \u25C0 playing now" if self.current else ""))

    def _layout(self) -> list[tuple[DrawnText, bool]]:
        disc = DISC
        # Short of room (another player's row), the counts give way: they are in the tooltip.
        rows = [Row(self.name, 20, bold=True, max_lines=2), Row(f"{self.score} points", 20, bold=True),
                Row(self.counts, 16, optional=True, max_lines=5, drop=2),
                Row(self.note, 16, optional=True, max_lines=3)]
        rows = [r for r in rows if r.text]
        room = QRect(disc + 8, 4, self.width() - disc - 12, self.height() - 8)
        kept, placed, total, fitted = fit_rows(rows, room.width(), room.height())
        out, y = [], room.top()
        if not fitted:
            # A name too long for the room: the score keeps its line, the name has the rest,
            # shortened with "\u2026" if need be (whole in the tooltip).
            score_px = LEAST_PX
            score_h = line_height(score_px, True)
            px, lines, family, fits = fit_name(self.name, room.width(), room.height() - score_h - 2, 20)
            h = len(lines) * line_height(px, True, family)
            out.append((DrawnText("\n".join(lines), px, QRect(room.left(), y, room.width(), h), fits,
                                  family=family), True))
            out.append((DrawnText(f"{self.score} points", score_px, QRect(room.left(), y + h + 2, room.width(), score_h),
                                  fits), True))
            return out
        for r, (px, lines, _) in zip(kept, placed):
            h = len(lines) * line_height(px, r.bold)
            out.append((DrawnText("\n".join(lines), px, QRect(room.left(), y, room.width(), h), fitted), r.bold))
            y += h + 2
        return out

    def drawn_texts(self) -> list[DrawnText]:
        return [d for d, _ in self._layout()]

    def paintEvent(self, event) -> None:
        p = QPainter(self)
        paint_cached(self, p, (self.name, self.colour, self.score, self.counts, self.note, self.current), self._draw)
        p.end()

    def _draw(self, p: QPainter) -> None:
        back = QColor(self.colour)
        back.setAlpha(70 if self.current else 28)
        p.setPen(QPen(QColor(style.GREEN), 4) if self.current else QPen(QColor("#9A9A9A"), 1.5))
        p.setBrush(back)
        p.drawRoundedRect(QRectF(self.rect()).adjusted(2, 2, -2, -2), 10, 10)
        paint_player_disc(p, QRectF(6, 6, DISC, DISC), self.colour, self.name)
        p.setPen(QColor(style.INK))
        for drawn, bold in self._layout():
            draw_lines(p, drawn.rect, tuple(drawn.text.split("\n")), drawn.px, bold=bold, align=Qt.AlignLeft,
                       family=drawn.family)


STRIP_PAD = 4               # room between a fanned mission's edge and its points
STRIP_NUMBER_PX = 22        # a strip's points at least this large, or without "pts" under them
SPREAD_WIDTH = 96           # cards at least this wide lie side by side; narrower, the missions fan out


def _advance(text: str, px: int, family: str = "") -> int:
    return QFontMetrics(font(px, True, QFont(family) if family else None)).horizontalAdvance(text)


def strip_layout(rect: QRect, look: CardLook, strip: float, *, name: bool = False,
                 legal: bool = False) -> pt.CardLayout:
    """A mission covered by the next one but for ``strip`` pixels at its left: its band (colour and
    symbol) and, under it, its points as large as the strip allows ("pts" under the number when
    there is room; with ``name``, its Location's name under them when there is room). A strip too
    narrow even for the number at the least size shows no words (the points are in its tooltip
    and its screen-reader name), never cut ones."""
    card = pt.card_rect(rect, look)
    out = pt.CardLayout(card)
    if not look.present or not look.badge:
        return out
    band = pt.band_height(card, look)
    # The next card's edge (its border) lies at the strip's right: the words keep clear of it. The
    # room is as high as on the deepest stack's card (its edges lift it most), so every strip of a
    # row says its points at the same size.
    lowest = pt.card_rect(rect, replace(look, layers=("",) * 4))
    # A legal one's arrow (paint_glow's, at its left edge) keeps its own room.
    arrow = int(min(14.0, card.height() / 4) * 0.6) + 1 if legal else 0
    width = int(strip - (card.left() - rect.left()) - 2 * STRIP_PAD - 2 - arrow)
    room = QRectF(card.left() + STRIP_PAD + arrow, card.top() + band + STRIP_PAD, width,
                  lowest.height() - band - 2 * STRIP_PAD)
    number, _, unit = look.badge.partition(" ")
    # Sized as two digits would be, so every strip as wide says its points at the same size; in the
    # narrow face, for more of the number's size in a narrow strip.
    rows = [Row(number.rjust(2, "0") if number.isdigit() else number, 30, bold=True, max_lines=1, narrow=True),
            *([Row(unit, 18, bold=True, optional=True, max_lines=1, narrow=True)] if unit else []),
            *([Row(look.name, 18, bold=True, optional=True, max_lines=2, drop=4, narrow=True)]
              if name and look.name else [])]
    kept, placed, _, fitted = fit_rows(rows, width, int(room.height()))
    if placed and placed[0][0] < STRIP_NUMBER_PX:
        # The number large rather than "pts" under it (the top card says "pts").
        kept, placed, _, fitted = fit_rows(rows[:1], width, int(room.height()))
    rows = kept
    if not fitted or width < 1:
        return out
    placed[0] = (placed[0][0], (number,), True)
    y = room.top()
    for r, (px, lines, _) in zip(rows, placed):
        h = len(lines) * line_height(px, r.bold, r.family)
        out.texts.append((DrawnText("\n".join(lines), px, QRect(int(room.left()), int(y), width, h), True,
                                    family=r.family), r.bold, "#111111"))
        y += h + pt.GAP
    return out


class MissionCard(DrawnCard):
    """A mission stack in a player's row. Fanned out, it is covered by the next one but for a strip
    at its left (its colour, symbol and points); the top one, or one the keyboard reaches, is whole."""

    def __init__(self, place: str, parent: QWidget | None = None) -> None:
        super().__init__(place, parent)
        #: how many pixels from its left are seen (None: the whole card)
        self.strip: float | None = None

    def set_strip(self, strip: float | None) -> None:
        if strip != self.strip:
            self.strip = strip
            self._layout = None
            self._picture_key = None          # painted again: what it shows changed, not its size
            self.update()

    def layout(self) -> pt.CardLayout:
        if self._layout is None:
            whole = super().layout() if self.strip is None else None
            if whole is not None and all(drawn.fits and (drawn.px >= KEY_PX or not (drawn.key and self.legal))
                                         for drawn, _, _ in whole.texts):
                return whole
            # A strip; or a whole card too small for its words (a legal one's place under the
            # choice's size): what picking a mission needs, its points large and its Location.
            self._layout = strip_layout(self.rect(), self.look, self.strip or self.width(), name=whole is not None,
                                        legal=self.legal)
        return self._layout

    def focusInEvent(self, event) -> None:
        super().focusInEvent(event)
        row = self.parentWidget()
        if event.reason() != Qt.MouseFocusReason and isinstance(row, CardRow):
            row.lift(self)              # reached by Tab or an arrow: shown whole, over its neighbours

    def focusOutEvent(self, event) -> None:
        super().focusOutEvent(event)
        row = self.parentWidget()
        if isinstance(row, CardRow) and row.lifted is self:
            row.lift(None)


class CardRow(QWidget):
    """A player's cards left to right: Table 1-4 and the two-sided deck, then the missions in order.

    With room, every card lies side by side at the same width. A row too short for that fans its
    missions: each covered by the next but for a strip showing its colour and points, the last one
    whole; the five other cards keep the width their words need at the least size (a legal one the
    width for its words at the choice's size, when the strips keep room for their points)."""

    def __init__(self, fixed: list[DrawnCard], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.fixed = fixed
        self.missions: list[MissionCard] = []
        self.lifted: MissionCard | None = None
        self._wanted: dict[tuple, int] = {}
        for card in fixed:
            card.setParent(self)
        self.setSizePolicy(QSizePolicy.Expanding, QSizePolicy.Ignored)
        self.setMinimumSize(6 * 60, 56)

    def set_missions(self, cards: list[MissionCard]) -> None:
        for card in cards:
            if card.parentWidget() is not self:
                card.setParent(self)
        self.missions = list(cards)
        if self.lifted not in self.missions:
            self.lifted = None
        self.arrange()
        for card in cards:
            card.show()

    def lift(self, card: MissionCard | None) -> None:
        self.lifted = card
        self.arrange()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self.arrange()

    @staticmethod
    def least_width(words: Iterable[str], px: int, family: str = "") -> int:
        """A card wide enough for each of ``words`` on one line at ``px`` (its glow's room and padding around)."""
        return max(_advance(w, px, family) for w in words) + 2 * (pt.GLOW + 5) + 4

    def wanted_width(self, slot: DrawnCard, least: int) -> int:
        """The narrowest width (from ``least``) at which ``slot`` shows every word it shows side by side,
        each at its size there (a legal place's words at the choice's size)."""
        height = self.height()
        key = (slot.look, slot.legal, slot.chosen, height, least)
        if key not in self._wanted:
            def words(w: int) -> set[tuple[str, bool]]:
                drawn = pt.layout_card(QRect(0, 0, w, height), slot.look, legal=slot.legal, chosen=slot.chosen)
                return {(" ".join(d.text.split()), d.px >= KEY_PX or not d.key) for d, _, _ in drawn.texts if d.fits}
            full = words(SPREAD_WIDTH)
            good, bad = SPREAD_WIDTH, least - 1
            while good - bad > 1:
                mid = (good + bad) // 2
                if words(mid) >= full:
                    good = mid
                else:
                    bad = mid
            if len(self._wanted) > 256:
                self._wanted.clear()
            self._wanted[key] = good
        return self._wanted[key]

    def plan(self) -> tuple[list[float], float, float]:
        """The five cards' widths, a mission's width and the step from one mission to the next.

        Fanned, the room goes first to what must be read: each card's words at the least size (two
        lines if need be: "Table" over "4"), a mission's points on one line, each strip's number;
        then each of the five cards' whole words (a name, a legal place's words at the choice's
        size); then "pts" under the strips' numbers; what is left widens every card alike."""
        width, n = float(self.width()), len(self.missions)
        count = len(self.fixed)
        equal = width / (count + n)
        if n <= 1 or equal >= SPREAD_WIDTH:
            return [equal] * count, equal, equal
        narrow = narrow_family()
        least = min(self.least_width(("Table", "Deck", "pts"), LEAST_PX), int(width / (count + 1)))
        mission = float(min(max(least, self.least_width(("39 pts",), LEAST_PX)), int(width / (count + 1))))
        arrow = 9.0 if any(card.legal for card in self.missions) else 0.0        # a legal strip's arrow
        strip_least = float(_advance("39", 20, narrow) + 2 * STRIP_PAD + pt.GLOW + 4) + arrow
        strip_want = float(_advance("pts", 24, narrow) + 2 * STRIP_PAD + pt.GLOW + 4) + arrow

        def strip(cards: list[float], top: float) -> float:
            return (width - sum(cards) - top) / (n - 1)

        # The five cards share the room the strips leave alike: each up to the same width, or less
        # when it needs less (found by halving: the least width at which it all fits).
        wants = [float(max(self.wanted_width(slot, least), least)) for slot in self.fixed]

        def widths(level: float) -> list[float]:
            return [max(float(least), min(want, level)) for want in wants]

        fixed = widths(least)
        if strip(widths(max(wants)), mission) >= strip_least:
            fixed = widths(max(wants))
        elif strip(fixed, mission) >= strip_least:
            low, high = float(least), max(wants)
            while high - low > 0.5:
                mid = (low + high) / 2
                low, high = (mid, high) if strip(widths(mid), mission) >= strip_least else (low, mid)
            fixed = widths(low)
        spare = width - sum(fixed) - mission - (n - 1) * strip_want
        if spare > 0:                    # every card a little wider, up to the side-by-side width
            grow = spare / (count + 1)
            fixed = [max(w, min(w + grow, SPREAD_WIDTH)) for w in fixed]
            mission = max(mission, min(mission + grow, SPREAD_WIDTH))
        return fixed, mission, min(strip(fixed, mission), mission)

    def arrange(self) -> None:
        fixed, card, step = self.plan()
        height = self.height()
        x = 0.0
        for slot, w in zip(self.fixed, fixed):
            slot.setGeometry(int(x), 0, int(x + w) - int(x), height)
            x += w
        fanned = step < card - 0.5
        for i, mission in enumerate(self.missions):
            left = int(x + i * step)
            mission.setGeometry(left, 0, int(x + i * step + card) - left, height)
            whole = not fanned or i == len(self.missions) - 1 or mission is self.lifted
            mission.set_strip(None if whole else int(step))       # (the same for each: words the same size)
            mission.raise_()
        if self.lifted is not None:
            self.lifted.raise_()


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
            line.addWidget(self.plates[player], 1)          # a tenth of the row, 150 px at least
            cards = CardRow([self._slot(f"{player}/table/{spot}") for spot in SPOTS]
                            + [self._slot(f"{player}/deck/two")])
            cards.setObjectName(f"cards:{player}")
            line.addWidget(cards, 9)
            self.rows[player], self.card_rows[player], self.missions[player] = row, cards, []
            self.outer.addWidget(row, 2)
        self.motion = TableMotion(self, self._anchor, words=self._move_words)
        self.vocabulary = cards_lib.vocabulary()

    def _slot(self, place: str) -> DrawnCard:
        slot = MissionCard(place) if "/mission/" in place else DrawnCard(place)
        slot.setMinimumSize(1, 1)                  # its row gives each card its room
        slot.picked.connect(self.place_clicked)
        slot.refused.connect(self.place_refused)
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
                            counts=f"hand {count['hand']}, one-sided deck {count['deck/one']}, "
                                   f"discard {count['discard']}",
                            note=f"attacking with {attacking[0]}" if attacking else "")
            self.outer.setStretch(self.outer.indexOf(self.rows[player]), CURRENT_STRETCH if playing else 2)
        for place, slot in self.slots.items():
            look, words = self._look(place, by_place.get(place, []))
            slot.set_look(look, legal=place in legal, chosen=place in chosen)
            slot.setToolTip(plain_tip(" \u2014 ".join(words)) if words else "")
            if words:
                slot.setAccessibleName(" \u2014 ".join(words) + (", can be chosen" if slot.legal else ""))
        for cards in self.card_rows.values():
            cards.arrange()                  # a legal table card may take more room from the missions
        self.motion.follow(state)

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
        band = named_colour(colour, style.kind_colour(index))
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
            base_colour = self._colour_of(base)
            # The stack: the cards under the top one show their edges in their colours.
            layers = tuple(named_colour(self._colour_of(c), "#CCCCCC") for c in cards[:-1])
            look = CardLook(caption=caption, kind=f"{base_colour.capitalize()} mission" if base_colour else "Mission",
                            symbol=style.kind_symbol(index), colour=style.kind_colour(index),
                            name=base.name or where, face_up=True,
                            notes=tuple(x for x in ((agent.name if agent and location else ""),
                                                    f"{len(cards)} cards", ", ".join(status)) if x),
                            layers=layers, band=named_colour(base_colour, band), badge=f"{points} pts")
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
                        colour=style.kind_colour(index), name=top.name, face_up=True, notes=notes, band=band)
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


class LibraryEditor(QWidget):
    """The family registers their cards once: type the number, pick from short lists, Register.

    Every check is the library's own (``engine.games.clues39.library``): a refused card is
    explained in words and nothing is saved. Each accepted change is written to the family's
    library file at once (``<Gumshoe folder>/39-clues/library.toml``), or to ``path``, and every
    card gets its tag number (stickers: "Make the tag sheets" on the start screen). A library
    file is imported (added to the cards, or replacing a broken file) and exported as a file.
    """

    def __init__(self, path: Path | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.path = path or cards_lib.user_library_path()
        self.library = cards_lib.Library("Our cards")
        self.broken: str | None = None
        if self.path.exists():
            try:
                self.library = cards_lib.load_library(self.path)
            except cards_lib.LibraryError as exc:
                self.broken = exc.message
        vocab = cards_lib.vocabulary()
        layout = QVBoxLayout(self)
        layout.addWidget(label("Type each card's number and name, pick the rest, then Register.", "heading"))
        form = QGridLayout()
        self.number = QSpinBox()
        self.number.setObjectName("library:number")
        self.number.setRange(0, cards_lib.MAX_NUMBER)
        self.name = QLineEdit()
        self.name.setObjectName("library:name")
        self.name.setMaxLength(cards_lib.MAX_NAME)
        self.name.returnPressed.connect(self.register_card)
        self.type = QComboBox()
        self.type.setObjectName("library:type")
        for kind in cards_lib.TYPES:
            self.type.addItem(vocab.type_names[kind], kind)
        self.colour = QComboBox()
        self.colour.setObjectName("library:colour")
        self.colour.addItem("(no colour)", None)
        for colour, name in vocab.colours.items():
            self.colour.addItem(name, colour)
        self.points = QSpinBox()
        self.points.setObjectName("library:points")
        self.points.setRange(0, 39)
        self.sides = QComboBox()
        self.sides.setObjectName("library:sides")
        self.sides.addItem("One-sided (the common back)", 1)
        self.sides.addItem("Two-sided (any other back)", 2)
        self.copies = QSpinBox()
        self.copies.setObjectName("library:copies")
        self.copies.setRange(1, cards_lib.MAX_COPIES)
        self.owners = QLineEdit()
        self.owners.setObjectName("library:owners")
        self.owners.setPlaceholderText("Ann, Bob (one per copy)")
        fields = [("Number", self.number), ("Name", self.name), ("Type", self.type), ("Colour", self.colour),
                  ("Points (Secrets, Founders)", self.points), ("Sides", self.sides), ("Copies", self.copies),
                  ("Whose (optional)", self.owners)]
        for i, (text, widget) in enumerate(fields):
            form.addWidget(label(text, wrap=False), i // 4 * 2, i % 4)
            form.addWidget(widget, i // 4 * 2 + 1, i % 4)
        layout.addLayout(form)
        row = QHBoxLayout()
        self.register_button = button("Register this card", "primary", name="library:register")
        self.register_button.clicked.connect(self.register_card)
        self.change_button = button("Save changes to this card", name="library:change")
        self.change_button.clicked.connect(self.change_selected)
        self.remove_button = button("Remove this card", name="library:remove")
        self.remove_button.clicked.connect(self.remove_selected)
        self.import_button = button("Import a file\u2026", name="library:import")
        self.import_button.clicked.connect(self._ask_import)
        self.export_button = button("Export to a file\u2026", name="library:export")
        self.export_button.clicked.connect(self._ask_export)
        for b in (self.register_button, self.change_button, self.remove_button):
            row.addWidget(b)
        row.addStretch(1)
        row.addWidget(self.import_button)
        row.addWidget(self.export_button)
        layout.addLayout(row)
        self.stickers = StickerPanel(cards_lib.GAME_ID)
        self.stickers.number_read.connect(self.attach_sticker)
        self.stickers.card_read.connect(self._card_read)
        self.stickers.print_requested.connect(self.print_spares)
        self.stickers.new_button.clicked.connect(self._target_new)
        self.stickers.copy.valueChanged.connect(lambda _v: self._show_target())
        layout.addWidget(self.stickers)
        self.error = label("", "error")
        self.error.setObjectName("library:error")
        self.error.hide()
        layout.addWidget(self.error)
        self.summary = label("")
        self.summary.setObjectName("library:summary")
        layout.addWidget(self.summary)
        self.list = QListWidget()
        self.list.setObjectName("library:list")
        self.list.currentRowChanged.connect(self._selected)
        layout.addWidget(self.list, 1)
        self._fill()
        self._show_target()
        if self.broken:
            self._complain(f"Your library file cannot be used: {self.broken} Fix it in a text editor, or "
                           f"import a good file (the broken one is then kept beside it as library-broken.toml).")
        self._enable()

    # --- showing ---------------------------------------------------------------------
    def _enable(self) -> None:
        for b in (self.register_button, self.change_button, self.remove_button, self.export_button,
                  self.stickers.attach_button, self.stickers.new_button):
            b.setEnabled(self.broken is None)

    def _complain(self, text: str) -> None:
        self.error.setText(text)
        self.error.show()

    def _words(self, e: "cards_lib.Entry", stickers: dict[str, int] | None = None) -> str:
        colour = f"{e.colour} " if e.colour else ""
        points = f", {e.points} points" if e.points else ""
        copies = f", {e.copies} copies" if e.copies > 1 else ""
        owners = f", {' and '.join(o or 'nobody' for o in e.owners)}'s" if e.owners else ""
        numbers = [str(stickers[cards_lib.full_id(k)]) for k in e.physical_ids() if cards_lib.full_id(k) in
                   (stickers or {})]
        tags = f"; sticker{'s' if len(numbers) > 1 else ''} {', '.join(numbers)}" if numbers else ""
        return (f"{e.number}: {e.name} ({colour}{e.type}{points}, {'one' if e.sides == 1 else 'two'}-sided"
                f"{copies}{owners}{tags})")

    @staticmethod
    def _sticker_numbers() -> dict[str, int]:
        """card id -> the tag number on its sticker (none known when the tag file is broken: the
        table says so when a game opens)."""
        from vision.registry import RegistryError, family_file
        try:
            return {t.card_id: t.tag_id for t in family_file(cards_lib.GAME_ID).tags}
        except (RegistryError, OSError):
            return {}

    def _fill(self) -> None:
        self.list.blockSignals(True)
        self.list.clear()
        stickers = self._sticker_numbers()
        for e in sorted(self.library.entries, key=lambda e: e.number):
            item = QListWidgetItem(self._words(e, stickers))
            item.setData(Qt.UserRole, e.id)
            self.list.addItem(item)
        self.list.blockSignals(False)
        if hasattr(self, "stickers"):
            self._show_target()
        physical = self.library.physical()
        ones = sum(1 for _, e, _ in physical if e.sides == 1)
        self.summary.setText(f"{len(self.library.entries)} printed cards, {len(physical)} cards with the copies "
                             f"({ones} one-sided, {len(physical) - ones} two-sided). Stickers: \u201cMake the tag sheets\u201d on "
                             f"the start screen, or attach the ones printed below."
                             if self.library.entries else "No card registered yet.")

    def _selected(self, row: int) -> None:
        """A picked card fills the form, to correct it (its id, and so its sticker, stays)."""
        self._show_target()
        if row < 0:
            return
        e = self.library.entry(self.list.item(row).data(Qt.UserRole))
        self.number.setValue(e.number)
        self.name.setText(e.name)
        self.type.setCurrentIndex(self.type.findData(e.type))
        self.colour.setCurrentIndex(self.colour.findData(e.colour))
        self.points.setValue(e.points)
        self.sides.setCurrentIndex(self.sides.findData(e.sides))
        self.copies.setValue(e.copies)
        self.owners.setText(", ".join(e.owners))

    def _save(self, library: "cards_lib.Library") -> bool:
        try:
            cards_lib.save_library(library, self.path)
        except OSError as exc:
            self._complain(f"The library file could not be written ({exc.strerror or exc}); nothing changed.")
            return False
        self.library = library
        self.broken = None
        self.error.hide()
        problem = sync_tags()
        if problem:
            self._complain(problem)
        self._fill()
        self._enable()
        return True

    def _form_owners(self) -> list[str]:
        return [o.strip() for o in self.owners.text().split(",") if o.strip()]

    def _refused(self, exc: "cards_lib.LibraryError") -> None:
        where = self.library.where
        self._complain(exc.message.split(": ", 1)[-1] if exc.message.startswith(where) else exc.message)

    # --- changing --------------------------------------------------------------------
    def register_card(self) -> None:
        """Register the card in the form (refused in words when the library's checks fail)."""
        if self.broken:
            return
        try:
            new = cards_lib.register(self.library, self.number.value(), self.name.text(), self.type.currentData(),
                                     self.colour.currentData(), points=self.points.value(),
                                     sides=self.sides.currentData(), copies=self.copies.value(),
                                     owners=self._form_owners())
        except cards_lib.LibraryError as exc:
            self._refused(exc)
            return
        if self._save(new):
            self.number.setValue(self.number.value() + 1)      # the next card of a pack, usually
            self.name.clear()
            self.name.setFocus()

    def change_selected(self) -> None:
        """Save the form over the selected card (its id stays: a printed sticker keeps working)."""
        items = self.list.selectedItems()
        if not items or self.broken:
            self._complain("Pick a card in the list first.")
            return
        try:
            new = cards_lib.edit(self.library, items[0].data(Qt.UserRole), number=self.number.value(),
                                 name=self.name.text(), type=self.type.currentData(),
                                 colour=self.colour.currentData(), points=self.points.value(),
                                 sides=self.sides.currentData(), copies=self.copies.value(),
                                 owners=self._form_owners())
        except cards_lib.LibraryError as exc:
            self._refused(exc)
            return
        self._save(new)

    def remove_selected(self) -> None:
        items = self.list.selectedItems()
        if items and not self.broken:
            self._save(cards_lib.remove(self.library, items[0].data(Qt.UserRole)))

    def import_from(self, path: str | Path) -> bool:
        """Add a library file's cards to ours (or replace a broken library file); refused in words."""
        try:
            new = cards_lib.import_library(path, None if self.broken else self.library)
        except cards_lib.LibraryError as exc:
            self._complain(f"That file was not imported: {exc.message}")
            return False
        if self.broken and self.path.exists():
            shutil.copyfile(self.path, self.path.with_name("library-broken.toml"))
        return self._save(new)

    # --- stickers: printed to attach later, attached by showing the card -------------------
    def _selected_entry(self) -> "cards_lib.Entry | None":
        items = self.list.selectedItems()
        return self.library.entry(items[0].data(Qt.UserRole)) if items else None

    def _target_new(self) -> None:
        """The next sticker read goes on a new card: the one filled in on the form."""
        self.list.clearSelection()
        self.list.setCurrentRow(-1)
        self._show_target()

    def _show_target(self) -> None:
        e = self._selected_entry()
        copy = self.stickers.copy
        copy.setVisible(e is not None and e.copies > 1)
        if e is None:
            self.stickers.target.setText("A sticker read now goes on a new card: the one in the form above "
                                         "(or pick a card in the list).")
            return
        copy.blockSignals(True)
        copy.setRange(1, e.copies)
        copy.blockSignals(False)
        which = f", copy {copy.value()}" if e.copies > 1 else ""
        self.stickers.target.setText(f"A sticker read now goes on card {e.number}{which}: {e.name}.")

    def _card_words(self, card_id: str, fallback: str) -> str:
        """"card 8: Old Secret" (with the copy when there are several) for a card id of the library."""
        key = card_id.rsplit(".", 1)[-1]
        for k, e, n in self.library.physical():
            if k == key:
                return f"card {e.number}{f' (copy {n})' if e.copies > 1 else ''}: {e.name}"
        return fallback

    def _card_read(self, card_id: str) -> None:
        """The camera read a card of this game: its sticker is one attached already."""
        from vision.registry import RegistryError, family_file
        try:
            tag = family_file(cards_lib.GAME_ID).tag_of_card(card_id)
        except (RegistryError, OSError) as exc:
            self._sticker_says(f"Your cards' tag file cannot be read ({exc}); nothing changed.")
            return
        if tag is not None:
            self.attach_sticker(tag.tag_id)

    def _sticker_says(self, text: str) -> None:
        self.stickers.message.setText(text)

    def attach_sticker(self, number: int) -> bool:
        """Put sticker ``number`` on the selected card (or on the new card of the form); the card's
        previous number is retired. A refusal is said in words and changes nothing."""
        from vision.registry import AttachRefused, RegistryError, attach_tag
        if self.broken:
            self._sticker_says("Your library file cannot be used, so no sticker can be attached yet.")
            return False
        entry, new = self._selected_entry(), None
        if entry is None:
            if not self.name.text().strip():
                self._sticker_says(f"Sticker {number} was read. Pick its card in the list, or fill in the form "
                                   f"for a new card, then show it again.")
                return False
            try:
                new = cards_lib.register(self.library, self.number.value(), self.name.text(),
                                         self.type.currentData(), self.colour.currentData(),
                                         points=self.points.value(), sides=self.sides.currentData(),
                                         copies=self.copies.value(), owners=self._form_owners())
            except cards_lib.LibraryError as exc:
                where = self.library.where
                why = exc.message.split(": ", 1)[-1] if exc.message.startswith(where) else exc.message
                self._sticker_says(f"Sticker {number} was read, but the card in the form cannot be registered: "
                                   f"{why} Nothing changed.")
                return False
            entry = next(e for e in new.entries if e.number == self.number.value())
            copy = 1
        else:
            copy = min(self.stickers.copy.value(), entry.copies)
        library = new or self.library
        key = entry.physical_ids()[copy - 1]
        card_id = cards_lib.full_id(key)
        name = dict(cards_lib.card_ids(library))[card_id]
        words = f"card {entry.number}{f' (copy {copy})' if entry.copies > 1 else ''}: {entry.name}"
        try:
            done = attach_tag(cards_lib.GAME_ID, number, card_id, name)
        except AttachRefused as exc:
            if exc.reason == "attached":
                text = f"Sticker {number} is already on {self._card_words(exc.card_id, exc.name)}. Nothing changed."
            elif exc.reason == "retired":
                text = (f"Sticker {number} was on {self._card_words(exc.card_id, exc.name)} before it got a new "
                        f"sticker; an old number is never used again. Nothing changed.")
            elif exc.reason == "other-game":
                text = (f"That sticker is on a card of another game ({exc.name}), not one of your 39 Clues "
                        f"stickers. Nothing changed.")
            elif exc.reason == "outside":
                text = (f"Sticker number {number} is not one of your 39 Clues stickers (they are numbered "
                        f"1500 to 3114). Nothing changed.")
            else:
                text = str(exc)
            self._sticker_says(text)
            return False
        except (RegistryError, OSError) as exc:
            self._sticker_says(f"The sticker could not be attached: your cards' tag file could not be used "
                               f"({exc}). Nothing changed.")
            return False
        if not done.changed:
            self._sticker_says(f"Sticker {number} is already on {words}.")
            return True
        if new is not None and not self._save(new):
            return False
        if new is not None:                          # ready for the next card, as after Register
            self.number.setValue(self.number.value() + 1)
            self.name.clear()
        old = f" Its old sticker number {done.previous} no longer counts." if done.previous is not None else ""
        self._sticker_says(f"\u2714 Sticker {number} is now on {words}.{old}")
        self.stickers.restart()                      # the camera reads the card by its new number
        return True

    def print_spares(self, count: int) -> Path | None:
        """Take ``count`` numbers from the family's block (recorded first) and save their sheet in the user folder."""
        from PySide6.QtWidgets import QApplication

        from vision.registry import RegistryError, issue_spare_tags, user_folder
        from vision.sheets import SheetError, print_spare_tags
        try:
            numbers = issue_spare_tags(cards_lib.GAME_ID, count)
        except (RegistryError, OSError) as exc:
            self._sticker_says(f"No sticker numbers could be taken ({exc}); nothing was printed.")
            return None
        out = user_folder() / cards_lib.GAME_ID / f"stickers-{numbers[0]}-{numbers[-1]}.pdf"
        QApplication.setOverrideCursor(Qt.WaitCursor)
        try:
            print_spare_tags(cards_lib.GAME_ID, numbers, out)
        except (SheetError, OSError) as exc:
            self._sticker_says(f"Sticker numbers {numbers[0]} to {numbers[-1]} are kept for you, but the sheet "
                               f"could not be written ({exc}).")
            return None
        finally:
            QApplication.restoreOverrideCursor()
        self._sticker_says(f"{len(numbers)} stickers ({numbers[0]} to {numbers[-1]}) to print and stick on any "
                           f"cards: {out}")
        self.stickers.restart()                      # the camera knows the new numbers' tag family
        return out

    def export_to(self, path: str | Path) -> bool:
        try:
            cards_lib.export_library(self.library, path)
        except OSError as exc:
            self._complain(f"The file could not be written ({exc.strerror or exc}).")
            return False
        self.error.hide()
        return True

    def _ask_import(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Import a card library", str(Path.home()),
                                              "Card library (*.toml);;Every file (*)")
        if path:
            self.import_from(path)

    def _ask_export(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Export your card library", str(Path.home() / "39-clues-cards.toml"),
                                              "Card library (*.toml)")
        if path:
            self.export_to(path)


# --- the new-game form: a deck for each player ----------------------------------------------
OWNERS, PICK, EXAMPLE = "owners", "pick", "example"


class DeckChoices(NewGameChoices):
    """Each player's two decks: the family's cards split by owner, picked per player, or the example.

    ``options()`` gives ``{"decks": {player: [card, ...]}}`` (plain JSON: the saved game keeps its
    cards even if the library changes later); ``problem()`` is the library's check in words
    (a deck without four one-sided or four two-sided cards), ``warning()`` a deck under 44 cards.
    """

    def __init__(self, library: "cards_lib.Library | None" = None) -> None:
        super().__init__()
        self.broken: str | None = None
        self.library: cards_lib.Library | None = library
        if library is None:
            try:
                self.library = cards_lib.user_library()
            except cards_lib.LibraryError as exc:
                self.broken = exc.message
        self.example = cards_lib.sample_library()
        self.players: list[str] = []
        self.picks: dict[int, list[str]] = {}          # seat -> short ids, kept when a name changes
        self.picker: DeckPicker | None = None
        self._check: cards_lib.DeckCheck | None = None
        self._problem: str | None = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        row = QHBoxLayout()
        row.addWidget(label("Decks:", wrap=False))
        self.source = QComboBox()
        self.source.setObjectName("clues:source")
        if self.broken or (self.library is not None and self.library.entries):
            self.source.addItem("Our cards, each copy to its owner", OWNERS)
            self.source.addItem("Our cards, each player picks theirs", PICK)
        self.source.addItem("The example collection (made-up cards, to try the app)", EXAMPLE)
        self.source.currentIndexChanged.connect(self._update)
        row.addWidget(self.source, 1)
        layout.addLayout(row)
        self.pick_row = QHBoxLayout()
        layout.addLayout(self.pick_row)
        self.pick_buttons: list = []
        self.summary = label("")
        self.summary.setObjectName("clues:summary")
        layout.addWidget(self.summary)
        self._update()

    def mode(self) -> str:
        return self.source.currentData()

    def set_players(self, names: list[str]) -> None:
        self.players = list(names)
        self._update()

    def _names(self) -> list[str]:
        return [n or f"Player {i + 1}" for i, n in enumerate(self.players)]

    def _update(self) -> None:
        names = self._names()
        while len(self.pick_buttons) < len(names):
            i = len(self.pick_buttons)
            b = button("", name=f"clues:pick:{i}")
            b.clicked.connect(lambda _=False, seat=i: self.open_picker(seat))
            self.pick_row.addWidget(b)
            self.pick_buttons.append(b)
        for i, b in enumerate(self.pick_buttons):
            b.setText(f"{names[i]}'s cards\u2026" if i < len(names) else "")
            b.setVisible(self.mode() == PICK and i < len(names))
        self._check, self._problem = None, None
        if not names:
            self.summary.setText("")
        elif self.broken and self.mode() != EXAMPLE:
            self._problem = (f"Your card library file cannot be used: {self.broken} Fix it on the library screen, "
                             f"or play with the example collection.")
        else:
            try:
                self._check = self._build(names)
            except cards_lib.LibraryError as exc:
                self._problem = exc.message
        decks: dict[str, list[int]] = {}
        if self._check is not None:
            decks = {name: [c["sides"] for c in cards] for name, cards in self._check.decks.items()}
        elif self.mode() == PICK and self.library is not None:
            sides = {key: e.sides for key, e, _ in self.library.physical()}
            decks = {name: [sides[k] for k in self.picks.get(i, []) if k in sides] for i, name in enumerate(names)}
        parts = [f"{name} {cards.count(1)} + {cards.count(2)}" for name, cards in decks.items()]
        # The counts; the problem itself when there are none to show (the form shows it again at Start).
        self.summary.setText("Cards (one-sided + two-sided): " + "  \u00b7  ".join(parts) if parts
                             else self._problem or "")
        self.changed.emit()

    def _build(self, names: list[str]) -> "cards_lib.DeckCheck":
        if len(set(names)) != len(names):
            raise cards_lib.LibraryError("Two players have the same name; add an initial to tell them apart.")
        if self.mode() == EXAMPLE:
            return cards_lib.split_by_owner(self.example, names)
        assert self.library is not None
        if self.mode() == OWNERS:
            return cards_lib.split_by_owner(self.library, names)
        return cards_lib.build_decks(self.library, {name: self.picks.get(i, []) for i, name in enumerate(names)})

    def options(self) -> dict[str, Any]:
        return self._check.options() if self._check is not None else {}

    def problem(self) -> str | None:
        return self._problem

    def warning(self) -> str | None:
        return " ".join(self._check.warnings) if self._check is not None and self._check.warnings else None

    # --- picking a player's cards --------------------------------------------------------
    def open_picker(self, seat: int) -> "DeckPicker":
        assert self.library is not None
        taken = {key: self._names()[s] for s, keys in self.picks.items() if s != seat and s < len(self.players)
                 for key in keys}
        self.picker = DeckPicker(self.library, self._names()[seat], self.picks.get(seat, []), taken, self)
        self.picker.accepted.connect(lambda: self._picked(seat))
        self.picker.open()
        return self.picker

    def _picked(self, seat: int) -> None:
        assert self.picker is not None
        self.picks[seat] = self.picker.chosen()
        self._update()


class DeckPicker(QDialog):
    """One player's cards, ticked in a list of the library (cards in another player's deck are greyed)."""

    def __init__(self, library: "cards_lib.Library", player: str, chosen: list[str], taken: dict[str, str],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("clues:picker")
        self.setWindowTitle("The 39 Clues: a player's cards")    # never a player's name in a window title
        self.player = player
        layout = QVBoxLayout(self)
        layout.addWidget(label(f"Tick {player}'s cards: both the one-sided and the two-sided ones.", "heading"))
        self.list = QListWidget()
        self.list.setObjectName("clues:picker:list")
        for key, e, k in sorted(library.physical(), key=lambda x: (x[1].number, x[2])):
            copy = f" (copy {k})" if e.copies > 1 else ""
            owner = e.owner_of(k)
            whose = f", {owner}'s" if owner else ""
            text = f"{e.number}: {e.name}{copy} ({'one' if e.sides == 1 else 'two'}-sided{whose})"
            if key in taken:
                text += f" \u2014 in {taken[key]}'s deck"
            item = QListWidgetItem(text)
            item.setData(Qt.UserRole, key)
            item.setData(Qt.UserRole + 1, owner)
            flags = Qt.ItemIsUserCheckable | Qt.ItemIsSelectable
            item.setFlags(flags if key in taken else flags | Qt.ItemIsEnabled)
            item.setCheckState(Qt.Checked if key in chosen else Qt.Unchecked)
            self.list.addItem(item)
        layout.addWidget(self.list, 1)
        row = QHBoxLayout()
        own = button(f"Tick {player}'s own cards", name="clues:picker:own")
        own.clicked.connect(self.tick_own)
        free = button("Tick every card nobody has", name="clues:picker:free")
        free.clicked.connect(self.tick_free)
        clear = button("Untick all", name="clues:picker:none")
        clear.clicked.connect(lambda: self._tick(lambda item: False))
        done = button("Done", "primary", name="clues:picker:done")
        done.clicked.connect(self.accept)
        for b in (own, free, clear):
            row.addWidget(b)
        row.addStretch(1)
        row.addWidget(done)
        layout.addLayout(row)
        if parent is not None:
            self.resize(parent.window().size())

    def _tick(self, rule) -> None:
        """``rule(item)``: True ticks, False unticks, None leaves the card as it is."""
        for i in range(self.list.count()):
            item = self.list.item(i)
            verdict = rule(item)
            if item.flags() & Qt.ItemIsEnabled and verdict is not None:
                item.setCheckState(Qt.Checked if verdict else Qt.Unchecked)

    def tick_own(self) -> None:
        self._tick(lambda item: True if item.data(Qt.UserRole + 1) == self.player else None)

    def tick_free(self) -> None:
        self._tick(lambda item: True if not item.data(Qt.UserRole + 1) else None)

    def chosen(self) -> list[str]:
        return [self.list.item(i).data(Qt.UserRole) for i in range(self.list.count())
                if self.list.item(i).checkState() == Qt.Checked and self.list.item(i).flags() & Qt.ItemIsEnabled]
