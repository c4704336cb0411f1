"""The Sudds & Malone table: the dice pool, the city, the Conspiracy, the Case display and each
player's board, drawn from the engine's public table (``SuddsRules.public_table``: never a face-down
suspect or a hunch card) with the shared toolkit (``desktop.drawn``, pieces in :mod:`.board`).

The dice are drawn with their pips in their colours (white, black, grey, each player's own in the
player's colour); a die taken this round leaves the pool and lies on its taker's board by the column
it was used for, moving there one die at a time. The city is a map of the locations (where they lie:
``assets/boards/sudds-malone-city.toml``; the roads: the box's map) with the snitches and the badges;
the Conspiracy is four face-down cards. The shown player's board is full size, with a tab per player
above it (the one playing now by default; a click on a tab shows another's).

Most of the game's actions need a choice the shell's generic flow cannot make well (a path through
the city, several columns to improve, a payment), so the table takes them over (``handles``) with a
panel; each panel offers only what the engine accepts (every choice is tried on a copy of the game
first) and says what each choice costs and gives. Private looks (a peek, the suspect taken, hunch
cards) go through the shell's privacy gate. Dice values are tapped in, or read by the camera
(vision's dice-pool reader); in a demo the simulated table rolls.
"""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from itertools import product
from typing import Any, Callable

from PySide6.QtCore import QPoint, QRectF, Qt
from PySide6.QtGui import QFont, QFontMetrics, QPainter
from PySide6.QtWidgets import (QApplication, QFrame, QGridLayout, QHBoxLayout, QLabel, QScrollArea,
                               QVBoxLayout, QWidget)

from engine.errors import RuleViolation
from engine.game import Journal, Option, action_from_json
from engine.games.sudds_malone.box import EVIDENCE, TRACKS
from engine.games.sudds_malone.rules import DAY_NAME, TRACK_NAME
from engine.games.sudds_malone.scoring import hunch_points
from engine.games.sudds_malone.state import HUNCH_PILE, city_place, found_place
from engine.session import PlayerView

from ... import style
from ...drawn import MotionQueue, Step, flight_step, player_colours
from ...drawn import paint as pt
from ...drawn.items import paint_player_disc
from ...drawn.palette import named_colour
from ...private import journal_table
from ...table_base import GameTable, ShelfScreen, TableShell
from ...widgets import WrappingButton, clear_layout, label, natural_key, plain_tip
from . import dice as pool_dice
from .board import (SUSPECT_BACK as SUSPECT_COLOUR, BoardArea, CardChoice, CaseCard, CityMap, ColumnChoice, ColumnLook, ConspiracyCard, DicePool, DistrictLook,
                    PaintedChoice, PlayerSheet, PlayerTab, PoolDie, SheetData, SnitchChoice, Words, paint_pool_die)
from .box_form import BoxForm, BoxReview, reward_words
from .dice_colours import SCREEN as DICE_COLOURS
from .city import load_city

HANDLED = {"deal", "roll", "take_die", "improve", "investigate", "take_flimflam", "take_cases", "take_case", "reroll",
           "peek", "use_stoolie", "close_case", "hunch", "keep_hunch", "buy_hunch", "discard", "reveal"}
LEGEND = "A die's value is its action: 1 The Office, 2 Calendar, 3 Investigate, 4 Flimflam, 5 Take Cases, 6 Moxie."
# End of Game 1 counts cash by its value (docs/rules/sudds-malone.md): the sheet's cash row says so.
CASH_ROW = "Cash ($1 = 1 token)"
AUTO = {"improve", "investigate", "take_flimflam", "take_cases", "take_case", "reroll", "discard"}
#: where each panel goes on the table (``BoardArea``): beside the map while a path is chosen, in the
#: Case display's place while a suspect of the Conspiracy is clicked, beside the map and the
#: Conspiracy for the deal and the reveal (their places are touched), on the left (beside the board
#: being changed) otherwise, or under the dice when its choices would not all be in sight there at
#: their full size (``_fit_or_widen``)
PANEL_AT = {"investigate": "right", "peek": "strip", "deal": "side", "reveal": "side"}
# Words on the table read from across it: the panels' words and choices (issue 23).
TABLE_STYLE = ('QLabel[role="sm"] { font-size: 17px; } QLabel[role="smhead"] { font-size: 18px; font-weight: bold; }'
               ' QScrollArea#sm\\:scroll, QWidget#sm\\:panel, QWidget#sm\\:final { background: transparent; }')
#: a column's name on a narrow board
SHORT_NAME = {"office": "Office", "cases": "Cases", "news": "News"}
CHOICE_POINT_SIZE = 18          # a panel's choices: 24 px where they fit ...
LEAST_POINT_SIZE = 12           # ... and never below 16 px
#: a column of the board offered by The Office is at least this wide: three to a line on a laptop
COLUMN_LEAST = 290


class ChoiceButton(WrappingButton):
    """A panel's choice: at least ``least_height`` high, so its words keep their full size on as
    many lines as they take (the app's style sheet would set every button's least height back to
    one line's each time the words are fitted again)."""

    least_height = 48

    def keep_height(self, height: int) -> None:
        self.least_height = height
        self.setMinimumHeight(height)

    def _fit_text(self) -> None:
        super()._fit_text()
        if self.minimumHeight() < self.least_height:
            self.setMinimumHeight(self.least_height)


def txt_line(point_size: int) -> int:
    """The height of a line of a choice's words at ``point_size``."""
    font = QFont()
    font.setPointSize(point_size)
    return QFontMetrics(font).height()


def points(n: int) -> str:
    """ "1 point", "2 points", "-1 point" """
    return f"{n} point{'' if abs(n) == 1 else 's'}"


def short(card: str) -> str:
    return card.rsplit(".", 1)[-1]


def scrolled(widget: QWidget, name: str) -> QScrollArea:
    """``widget`` in a frameless scroll area: a panel longer than the room there is scrolls."""
    area = QScrollArea()
    area.setObjectName(name)
    area.setFrameShape(QFrame.NoFrame)
    area.setWidgetResizable(True)
    area.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
    area.setWidget(widget)
    return area


def titled_column(name: str, title_name: str, *, margins: tuple[int, int, int, int], spacing: int
                  ) -> tuple[QWidget, QVBoxLayout, QLabel]:
    """A widget named ``name`` whose pieces stand in a column under a heading named ``title_name``
    (the table's panel of choices, the final scoring): the widget, its column and the heading."""
    widget = QWidget()
    widget.setObjectName(name)
    column = QVBoxLayout(widget)
    column.setContentsMargins(*margins)
    column.setSpacing(spacing)
    title = label("", "smhead")
    title.setObjectName(title_name)
    column.addWidget(title)
    return widget, column, title


class SuddsTable(GameTable):
    """The dice pool on top; the city and the Conspiracy; the Case display and the players' boards
    (or a panel)."""

    def __init__(self, shell: TableShell) -> None:
        super().__init__(shell)
        self.session = self.controller.session
        self.rules = self.session.rules
        self.players = self.session.players
        self.setStyleSheet(TABLE_STYLE)
        self.colours = player_colours(self.players)
        self.slots: dict[str, QWidget] = {}
        self.mode: str | None = None          # the panel open now (an option's action), or None
        self.player: str | None = None
        self.sel: dict[str, Any] = {}
        self.skipped: set[str] = set()        # box values the family said "later" to in this game
        self._last: tuple[PlayerView, set, set] | None = None
        self.rng = random.Random()
        #: the player whose board the sheet shows (None: the one playing now)
        self.shown_player: str | None = None
        self._shown_for: str | None = None
        #: what the table last drew of the dice (None: nothing yet): for the movements
        self._seen_taken: dict[str, tuple[str, str]] | None = None
        self._seen_values: dict[str, int | None] | None = None
        self._seen_badges: dict[str, str] | None = None
        self._row_buttons: list[WrappingButton] = []
        self._widened = False                 # the open panel moved under the dice for room
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(0)
        # The pieces.
        self.dice: dict[str, PoolDie] = {}
        groups: dict[str, list[PoolDie]] = {}
        for die in self.session.state.dice:
            die_widget = self._die(die)
            owner = die[len(pool_dice.PERSONAL):] if die.startswith(pool_dice.PERSONAL) else None
            groups.setdefault(owner or die.split("-")[0], []).append(die_widget)
        self.pool = DicePool(list(groups.items()))
        self.pool.setToolTip(plain_tip(LEGEND))
        self.box_button = WrappingButton("")
        self.box_button.setObjectName("sm:box")
        self.box_button.POINT_SIZE = 13
        self.box_button.LEAST_POINT_SIZE = 12
        self.box_button.set_compact()
        self.box_button.clicked.connect(self.open_box_form)
        self.status = Words("sm:status", largest=18, max_lines=1, lead=2)
        city = load_city()
        city.check(self.rules.box.locations)
        self.city = CityMap(city, dict(self.rules.box.locations), lambda: self.rules.box.neighbours)
        for loc, district in self.city.districts.items():
            district.picked.connect(self._clicked)
            district.refused.connect(self.place_refused)
            self.slots[loc] = district
        conspiracy = [ConspiracyCard(f"conspiracy/{pos}", pos) for pos in (1, 2, 3, 4)]
        for card in conspiracy:
            card.picked.connect(self._clicked)
            card.refused.connect(self.place_refused)
            self.slots[card.place] = card
        # The display's cards are never clicked (Take Cases lists them with what they need and give).
        display = [CaseCard(f"display/{i}", style.kind_colour(2), style.kind_symbol(2)) for i in range(4)]
        for card in display:
            self.slots[card.place] = card
        self.tabs: dict[str, PlayerTab] = {}
        for p in self.players:
            tab = PlayerTab(p, self.colours[p])
            tab.chosen_player.connect(self.show_sheet_of)
            self.tabs[p] = tab
        self.sheet = PlayerSheet()
        # A panel: the table's own choices (a title, the choices, a note; its row of buttons stays
        # in sight under them when the choices scroll).
        self.panel, pl, self.panel_title = titled_column("sm:panel", "sm:panel-title", margins=(4, 2, 8, 2),
                                                         spacing=6)
        self.panel_body = QGridLayout()
        self.panel_body.setSpacing(6)
        pl.addLayout(self.panel_body)
        self.panel_note = label("", "sm")
        self.panel_note.setObjectName("sm:note")
        pl.addWidget(self.panel_note)
        pl.addStretch(1)
        self.panel_box = QWidget()
        self.panel_box.setObjectName("sm:panel-box")
        box = QVBoxLayout(self.panel_box)
        box.setContentsMargins(0, 0, 0, 0)
        box.setSpacing(4)
        box.addWidget(scrolled(self.panel, "sm:scroll"), 1)
        self.panel_buttons = QGridLayout()
        self.panel_buttons.setContentsMargins(4, 0, 8, 0)
        self.panel_buttons.setSpacing(6)
        box.addLayout(self.panel_buttons)
        # After the reveal: the final scoring, one line per player (End of Game).
        self.final, fl, self.final_head = titled_column("sm:final", "sm:final:head", margins=(4, 0, 8, 0),
                                                        spacing=8)
        self.final_lines: dict[str, Any] = {}
        for p in self.players:
            line = label("", "sm")
            line.setObjectName(f"sm:final:{p}")
            self.final_lines[p] = line
            fl.addWidget(line)
        self.final_verdict = label("", "smhead")
        self.final_verdict.setObjectName("sm:final:verdict")
        fl.addWidget(self.final_verdict)
        fl.addStretch(1)
        self.board = BoardArea(pool=self.pool, box_button=self.box_button, status=self.status, city=self.city,
                               conspiracy=conspiracy, display=display, tabs=list(self.tabs.values()), sheet=self.sheet,
                               panel=self.panel_box, final=scrolled(self.final, "sm:scroll"))
        self.motion = MotionQueue(self)
        outer.addWidget(self.board, 1)
        self.box_page = QWidget()
        QVBoxLayout(self.box_page).setContentsMargins(0, 0, 0, 0)
        self.box_page.hide()
        outer.addWidget(self.box_page, 1)

    # --- building blocks -----------------------------------------------------------------
    def _die(self, die: str) -> PoolDie:
        colour = pool_dice.die_colour(die, self.players)
        if die.startswith(pool_dice.PERSONAL):
            owner = die[len(pool_dice.PERSONAL):]
            widget = PoolDie(die, self.colours[owner], f"{owner}'s own die (the {colour} one)")
        else:
            widget = PoolDie(die, named_colour(colour), f"{colour} die")
        widget.picked.connect(self._clicked)
        widget.refused.connect(self.place_refused)
        self.slots[die] = self.dice[die] = widget
        return widget

    def _button(self, text: str, name: str, slot: Callable, *, enabled: bool = True, role: str | None = None,
                checked: bool = False) -> WrappingButton:
        b = ChoiceButton(text)
        b.setObjectName(name)
        b.keep_height(48)
        b.POINT_SIZE = CHOICE_POINT_SIZE
        b.LEAST_POINT_SIZE = LEAST_POINT_SIZE
        if role:
            b.setProperty("role", role)
        if checked:
            b.setProperty("role", "primary")
            b.set_lines(["\u2714 " + text])
        b.setEnabled(enabled)
        b.clicked.connect(lambda _=False: slot())
        return b

    def _row(self, b: WrappingButton) -> None:
        """A button of the panel's bottom row (laid out by :meth:`_lay_row`)."""
        self._row_buttons.append(b)

    def _lay_row(self) -> None:
        """The bottom row's buttons on one line (their words wrap or shrink when the panel is narrow):
        the main one widest, Cancel last."""
        width = self.board.panel_width() - 12 - 6 * max(len(self._row_buttons) - 1, 0)
        stretch = sum(3 if b.property("role") == "primary" else 2 for b in self._row_buttons) or 1
        for col, b in enumerate(self._row_buttons):
            b.setMinimumWidth(60)
            share = width * (3 if b.property("role") == "primary" else 2) / stretch
            b.keep_height(max(48, b.height_for(int(share), False)))
            self.panel_buttons.addWidget(b, 0, col)
            self.panel_buttons.setColumnStretch(col, 3 if b.property("role") == "primary" else 2)
        for col in range(len(self._row_buttons), max(self.panel_buttons.columnCount(), 6)):
            self.panel_buttons.setColumnStretch(col, 0)
        self._row_buttons = []

    # --- the contract ------------------------------------------------------------------------
    def shows(self, place: str) -> bool:
        return place in self.slots

    def handles(self, option: Option) -> bool:
        return option.action in HANDLED

    def field_words(self, option: Option, field: str) -> str:
        words = {"location": "the location for your snitch", "evidence": "the evidence",
                 "choice": "$1 or 2 points", "action": "the bonus action"}
        return words.get(field, super().field_words(option, field))

    @classmethod
    def shelf_screens(cls) -> list[ShelfScreen]:
        return [ShelfScreen("box", "Your box: check its printed values\u2026", BoxReview), DICE_COLOURS]

    def setup_widget(self) -> QWidget:
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.addWidget(label(
            "Lay out the board: a suspect or stoolie face down on each location, 4 suspects face down in the "
            "Conspiracy, a Flimflam card face down on each location and one face up on the Conspiracy, 4 Case cards "
            "face up. On the first screen tell the app which Flimflam card lies where (by its back) and which Case "
            "cards are in the display. Personal dice: " + ", ".join(
                f"{p} {pool_dice.personal_colour(self.players, p)}" for p in self.players) + ".", "heading"))
        return body

    def journal_widget(self, journal: Journal) -> QWidget:
        """The player's Conspiracy journal: what they saw (peeks, with covered or not; suspects and stoolies
        taken), the exact odds of the Conspiracy's make-up and of each position, and each hunch card's
        expected points (all computed by the engine: ``engine/games/sudds_malone/odds.py``)."""
        body = QWidget()
        row = QHBoxLayout(body)
        row.setContentsMargins(0, 0, 0, 0)
        seen = [[e.name, e.where] for e in journal.entries if e.kind == "suspect" and e.where != "Unknown"]
        saw = self._journal_table("journal:seen", ["Suspect or stoolie", "Where you saw it"],
                                  seen or [["(nothing seen yet)", ""]])
        d = {x.kind: x for x in journal.deductions}
        hunch = [x.data for x in journal.deductions if x.kind == "hunch_ev"]
        where = {e.card: e.where for e in journal.entries}
        hunch_rows = [[self.name(h["card"]), where.get(h["card"], ""), f"{float(Fraction(h['expected'])):+.2f}"]
                      for h in hunch]
        if not hunch_rows:
            hunch_rows = [[self.name(e.card), e.where, ""] for e in journal.entries
                          if e.kind == "hunch" and e.where in ("Your hunches", "Just drawn")]
        left = QVBoxLayout()
        left.addWidget(saw, 3)
        left.addWidget(self._journal_table("journal:hunches", ["Hunch card", "Where", "Expected points"],
                                           hunch_rows or [["(no hunch cards)", "", ""]]), 2)
        row.addLayout(left, 5)
        right = QVBoxLayout()
        if "makeup" in d:
            ranked = sorted(d["makeup"].data["makeup"].items(), key=lambda kv: -Fraction(kv[1]))
            rows = []
            for key, p in ranked:
                m, r, f = key.split(",")
                rows.append([m, r, f, f"{p} ({float(Fraction(p)):.0%})"])
            right.addWidget(self._journal_table("journal:makeup", ["Moles", "Rats", "Frogs", "Chance"], rows), 3)
        if "positions" in d:
            pos = d["positions"].data["positions"]
            rows = [[str(i)] + [f"{float(Fraction(pos[str(i)].get(k, '0'))):.0%}" for k in ("mole", "rat", "frog")]
                    for i in (1, 2, 3, 4)]
            right.addWidget(self._journal_table("journal:positions", ["Suspect", "Mole", "Rat", "Frog"], rows), 2)
        if right.count():
            row.addLayout(right, 4)
        return body

    @staticmethod
    def _journal_table(name: str, headers: list[str], rows: list[list[str]]):
        table = journal_table(headers, rows)
        table.setObjectName(name)
        table.setStyleSheet("font-size: 17px;")
        table.resizeColumnsToContents()
        return table

    # --- state helpers ---------------------------------------------------------------------------
    @property
    def state(self):
        return self.session.state

    def name(self, card: str) -> str:
        return self.rules.deck.name_of(card)

    def refusal(self, action: dict) -> str | None:
        """Why the engine would refuse ``action`` now (tried on a copy of the game), or None."""
        try:
            self.rules.apply(self.state.clone(), action_from_json(action, self.rules.actions))
        except RuleViolation as exc:
            return exc.message
        return None

    def option(self, action: str) -> Option | None:
        return self.session.prompt().option(action)

    @property
    def simulator(self):
        return self.controller.simulator

    def taken_columns(self) -> dict[str, tuple[str, str]]:
        """Each die taken this round: (who took it, the column it went to, or "news"), as the public
        log said when it was taken (a die changed with bullets goes to its new value's column)."""
        taken = dict(self.state.taken)
        out: dict[str, tuple[str, str]] = {}
        for event in reversed(self.session.log):
            if len(out) == len(taken):
                break
            die = event.data.get("die") if event.type == "take_die" else None
            if die in taken and die not in out and event.visibility.scope == "public":
                out[die] = (taken[die], str(event.data.get("action", "news")))
        for die, who in taken.items():          # (every take is logged; this only keeps the table whole)
            value = self.state.dice.get(die)
            out.setdefault(die, (who, TRACKS[value - 1] if value else "news"))
        return out

    def die_fill(self, die: str) -> str:
        return self.dice[die].fill

    # --- drawing -----------------------------------------------------------------------------------
    def refresh(self, view: PlayerView, legal: set[str], chosen: set[str]) -> None:
        self._last = (view, legal, chosen)
        if self.simulator is not None:
            self.simulator.align_drawn(self.state)        # the simulated table: drawn cards as they were shown
        prompt = self.session.prompt()
        if self.mode is not None and (self.option(self.mode) is None or prompt.player != self.player):
            self.close_panel(redraw=False)
        if self.mode is None and len(prompt.options) == 1 and prompt.options[0].action in AUTO:
            # The die decided the action: its panel opens by itself.
            self.start(prompt.options[0], prompt.player)
            return
        t = self.rules.public_table(self.state)
        legal = set(legal) | self._mode_legal()
        picked = set(chosen) | self._mode_chosen()
        phase = t["phase"]
        week = next((p["calendar"][0] for p in t["players"].values() if p["calendar"]), 4)
        self.status.set_parts([f"Round {t['round']} of 4 (week {week})", f"badge: {t['badge']}",
                               f"on the board: {t['board_bullets']} bullet{'' if t['board_bullets'] == 1 else 's'}",
                               f"decks: Flimflam {t['ff_deck']}, Case {t['case_deck']}, hunch {t['hunch_deck']}"])
        self._arrange(t, legal)
        # The dice pool: a die taken this round has left it (it lies on its taker's board).
        for d in t["dice"]:
            die = d["die"]
            shown = self.sel.get("values", {}).get(die) if self.mode == "roll" else d["value"]
            self.dice[die].show_die(shown, legal=die in legal, chosen=die in picked, present=d["taken_by"] is None)
        self._draw_city(t, legal, picked)
        self._draw_conspiracy(t, legal, picked)
        self._draw_display(t)
        taken = self.taken_columns()
        self._draw_players(t, taken, phase)
        self._refresh_final(t)
        self._refresh_box_button()
        self._follow(t, taken)

    def _arrange(self, t: dict, legal: set[str]) -> None:
        """Where the pieces go: a panel's place, a larger map while locations are chosen on it."""
        over = bool(t["final"])
        panel_at = None
        if self.mode is not None and not (self.mode == "take_die" and not self.sel.get("die")):
            panel_at = "wide" if self._widened else PANEL_AT.get(self.mode, "left")
        if (self.mode == "deal" and self.sel.get("at")) or (self.mode == "investigate"
                                                             and self.sel.get("page") == "draw"):
            panel_at = "wide"           # a card's back: every back in sight across the table
        big_map = panel_at == "right" or (panel_at is None and bool(legal & set(self.city.districts)))
        self.board.arrange(panel_at=panel_at, big_map=big_map, over=over, box_wanted=bool(self._needed()))

    def _draw_city(self, t: dict, legal: set[str], picked: set[str]) -> None:
        path = self.sel.get("path", []) if self.mode == "investigate" else []
        for loc, c in t["city"].items():
            back = ""
            if c["back"]:
                back = ("2 bullets" if c["back"] == "bullets" else c["back"]) + f" \u2192 {c['cover']}"
            elif self.mode == "deal" and loc in self.sel.get("city", {}):      # the back said at the deal
                said = self.sel["city"][loc]
                back = ("2 bullets" if said[0] == "bullets" else said[0]) + f" \u2192 {said[1]}"
            snitch = None
            if c["snitch"]:
                owner, ev, used = c["snitch"]
                snitch = (owner, ev, self.colours[owner], bool(used))
            step = path.index(loc) + 1 if loc in path else (0 if loc in picked else None)
            self.city.districts[loc].set_look(DistrictLook(
                c["name"], back, bool(c["card_under"]), snitch, [(p, self.colours[p]) for p in c["badges"]],
                legal=loc in legal, step=step))
        self.city.update()

    def _draw_conspiracy(self, t: dict, legal: set[str], picked: set[str]) -> None:
        """Four face-down suspects; a face-up Flimflam card lies on some (its name and cost)."""
        revealed = t["conspiracy"]
        for pos in (1, 2, 3, 4):
            place = f"conspiracy/{pos}"
            cover = t["covers"].get(str(pos))
            said = self.sel.get("conspiracy") if self.mode == "deal" else None
            if said and self.rules.ff(said).cover == pos:        # the face-up card said at the deal
                cover = said
            name = self.name(revealed[pos - 1]) if revealed else None
            if self.mode == "reveal" and self.sel.get("cards", [""] * 4)[pos - 1]:     # turned up, said
                name = self.name(self.sel["cards"][pos - 1])
            on_it = None
            if cover and name is None and self.mode != "reveal":     # (lifted as the suspects are turned up)
                ff = self.rules.ff(cover)
                cost = ("$1" if ff.cost == "cash" else "1 bullet") + (" \u00B7 a cat" if ff.cat else "")
                on_it = (self.name(cover), cost)
            self.slots[place].show_card(name=name, cover=on_it, legal=place in legal, chosen=place in picked)

    def _draw_display(self, t: dict) -> None:
        for i in range(4):
            card = t["display"][i] if i < len(t["display"]) else None
            if card is None:
                self.slots[f"display/{i}"].set_card(None)
                continue
            c = self.rules.case(card)
            extra = " \u00B7 ".join(x for x in (f"${c.cash}" if c.cash else "", f"tabs {c.tabs}" if c.tabs else "")
                                    if x)
            self.slots[f"display/{i}"].set_card((self.name(card), ", ".join(c.cost), points(c.points), extra))

    def show_sheet_of(self, player: str) -> None:
        """The sheet shows ``player``'s board (the tab row's switch) until the turn passes."""
        self.shown_player = player
        self._redraw()

    def sheet_player(self, current: str | None) -> str:
        if current != self._shown_for:          # the turn passed: the new player's board
            self._shown_for, self.shown_player = current, None
        return self.shown_player or current or self.players[0]

    def _draw_players(self, t: dict, taken: dict[str, tuple[str, str]], phase: str) -> None:
        current = t["current"] if phase != "over" else None
        shown = self.sheet_player(current)
        values = {d["die"]: d["value"] for d in t["dice"]}
        for p, b in t["players"].items():
            dice = [(die, self.die_fill(die), values[die]) for die, (who, _c) in taken.items() if who == p]
            self.tabs[p].set_tab([p, points(b["score"]), f"${b['cash']}"], dice, open_=p == shown,
                                 current=p == current)
        b = t["players"][shown]
        ev = b["evidence"]
        cal = b["calendar"]
        day = (f"{DAY_NAME[cal[1]]}, week {cal[0]}" if cal else "off the calendar") + (
            " \u2714" if b["calendar_done"] else "")
        above = ", ".join(self.name(c) for c in b["above"]) or "nothing"
        entries = [("points", "Points", str(b["score"]), False), ("cash", CASH_ROW, f"${b['cash']}", False),
                   ("bullets", "Bullets", str(b["bullets"]), False),
                   *[(e, e.capitalize(), str(ev[e]), False) for e in EVIDENCE],
                   ("hand", "In hand", str(b["hand"]), False), ("filed", "Below the file cabinet (filed):", str(len(b["filed"])), True),
                   ("hunches", "Hunches", str(b["hunches"]), True),
                   ("day", "Calendar", day, True), ("badge", "Badge at", self.rules.loc_name(b["location"]), True),
                   ("suspects", "Suspects", str(b["suspects"]), True),
                   ("snitches", "Snitches left", str(len(b["snitches"])), True),
                   ("above", "Above the file cabinet:", above, True)]
        columns = [(tr, TRACK_NAME[tr], SHORT_NAME.get(tr, TRACK_NAME[tr])) for tr in (*TRACKS, "news")]
        dice = [(die, column, self.die_fill(die), values[die]) for die, (who, column) in taken.items() if who == shown]
        self.sheet.set_sheet(SheetData(shown, self.colours[shown], dict(b["levels"]), columns, dice, entries,
                                       b["score"]))
        self.sheet.setAccessibleName(f"{shown}'s board")

    # --- movements ----------------------------------------------------------------------------------
    def _follow(self, t: dict, taken: dict[str, tuple[str, str]]) -> None:
        """What moved since the last drawing, shown moving in order: a new roll tumbles the dice, a die
        taken goes from the pool to its taker's board (by its column), a badge goes along its path."""
        values = {d["die"]: d["value"] for d in t["dice"]}
        badges = {p: b["location"] for p, b in t["players"].items()}
        before = (self._seen_taken, self._seen_values, self._seen_badges)
        self._seen_taken, self._seen_values, self._seen_badges = dict(taken), values, badges
        if before[0] is None or not self.isVisible() or self.board.over:
            return
        steps: list[Step] = []
        rolled = [d for d, v in values.items() if v is not None and before[1].get(d) != v and d not in taken]
        if len(rolled) > 1:
            steps.append(self._roll_step([self.dice[d] for d in rolled]))
        for die in taken:
            if die not in before[0]:
                step = self._take_step(die, taken[die][0], values[die])
                if step is not None:
                    steps.append(step)
        for p, loc in badges.items():
            if before[2].get(p) not in (None, loc):
                step = self._badge_step(p, before[2][p], loc)
                if step is not None:
                    steps.append(step)
        if steps:
            self.motion.play(steps)

    def _in_board(self, widget: QWidget, rect: QRectF) -> QRectF:
        origin = widget.mapTo(self.board, QPoint(0, 0))
        return QRectF(rect).translated(origin.x(), origin.y())

    def _take_step(self, die: str, who: str, value: int | None) -> Step | None:
        """The die from its place in the pool to its taker's board (the column it was used for), or to
        their tab when their board is not the one shown."""
        source = self.dice[die]
        if self.sheet.isVisible() and self.sheet.data is not None and self.sheet.data.name == who:
            target = self.sheet
        elif self.tabs[who].isVisible():
            target = self.tabs[who]
        else:
            return None
        end = target.die_rect(die)
        if end is None or not source.isVisible():
            return None
        start = self._in_board(source, source.die_rect())
        end = self._in_board(target, end)
        fill = self.die_fill(die)

        def paint(p: QPainter, rect: QRectF, fill=fill, value=value) -> None:
            paint_pool_die(p, rect, die, value, fill)

        return flight_step(self.board.layer, [(paint, start, end)], what="take die",
                           hold=lambda: target.hold(die), land=lambda: target.release(die))

    def _roll_step(self, dice: list[PoolDie]) -> Step:
        """The dice tumble (turning, showing other faces) and land on the values rolled."""
        spins = {d: self.rng.choice((-1, 1)) * 360 for d in dice}
        finals = {d: d.value for d in dice}

        def progress(t: float) -> None:
            for d in dice:
                if t < 1.0:
                    d.angle = spins[d] * pt.ease(t)
                    d.value = (finals[d] + int(t * 9) + spins[d] // 360) % 6 + 1 if finals[d] else None
                d.update()

        def land() -> None:
            for d in dice:
                d.angle = 0.0
                d.value = finals[d]
                d.update()

        return Step(progress=progress, land=land, what="roll")

    def _badge_step(self, player: str, src: str, dst: str) -> Step | None:
        """A badge from one location to another: the disc in the player's colour crosses the map."""
        a, b = self.city.districts.get(src), self.city.districts.get(dst)
        if a is None or b is None or not self.city.isVisible():
            return None
        side = 28.0

        def middle(d) -> QRectF:
            c = d.tile().center()
            return self._in_board(d, QRectF(c.x() - side / 2, c.y() - side / 2, side, side))

        start, end = middle(a), middle(b)
        colour = self.colours[player]

        def paint(p: QPainter, rect: QRectF) -> None:
            paint_player_disc(p, rect, colour, player)

        return flight_step(self.board.layer, [(paint, start, end)], what="badge", hold=lambda: None, land=lambda: None)

    def final_scoring(self) -> dict[str, str]:
        """The final scoring line of each player, from the engine's figures (End of Game)."""
        t = self.rules.public_table(self.state)
        if not t["final"]:
            return {}
        makeup = Counter(self.rules.role[c] for c in t["conspiracy"])
        out = {}
        for p in self.players:
            b, f = self.state.boards[p], t["final"][p]
            before = b.score - f["tokens"] - f["matchbooks"] - f["hunches"]
            n_tokens = b.cash + b.bullets + b.evidence_total
            books = Counter(self.rules.case(c).bottom.split(":", 1)[1] for c in b.filed
                            if self.rules.case(c).bottom.startswith("matchbook:"))
            hunches = "; ".join(f"{self.name(h)} {hunch_points(self.rules.hunch(h).points, makeup):+d}"
                                for h in b.hunches) or "no hunch cards"
            out[p] = (f"{p}: {points(before)} before the end, + {f['tokens']} for {n_tokens} tokens "
                      f"(${b.cash} cash at one token per dollar, {b.bullets} bullets, {b.evidence_total} evidence), "
                      f"+ {f['matchbooks']} for {sum(books.values())} matchbooks ({len(books)} kinds), "
                      f"+ {f['hunches']} for hunches ({hunches}) = {points(b.score)}.")
        return out

    def _refresh_final(self, t: dict) -> None:
        lines = self.final_scoring()
        if lines:
            self.final_head.setText("Final scoring. The Conspiracy: " + ", ".join(
                f"{i}: {self.name(c)}" for i, c in enumerate(t["conspiracy"], 1)) + ".")
            for p, text in lines.items():
                self.final_lines[p].setText(text)
            outcome = self.session.outcome
            self.final_verdict.setText(outcome.reason if outcome is not None else "")

    def _redraw(self) -> None:
        if self._last is not None:
            self.refresh(*self._last)

    def _clicked(self, place: str) -> None:
        if self.mode is None and place in self.state.dice and self.option("take_die") is not None:
            self.mode, self.player, self.sel = "take_die", self.session.prompt().player, {"die": place}
            self._draw_panel()
            return
        handler = getattr(self, f"_click_{self.mode}", None) if self.mode else None
        if handler is not None:
            handler(place)
        else:
            self.place_clicked.emit(place)

    def _mode_legal(self) -> set[str]:
        m, s = self.mode, self.sel
        if m == "roll":
            return set(self.state.dice)
        if m == "take_die" or (m is None and self.option("take_die") is not None):
            return set() if s.get("die") else {str(d) for d in self.option("take_die").targets["die"]}
        if m == "investigate":
            return set(self._next_locations())
        if m == "peek":
            return {f"conspiracy/{p}" for p in self.option(m).targets["position"]}
        if m == "deal":         # (the Conspiracy's card said lies on one: the others are touched to change it)
            con = s.get("conspiracy")
            return set(self.city.districts) | {f"conspiracy/{pos}" for pos in (1, 2, 3, 4)
                                               if not con or self.rules.ff(con).cover != pos}
        if m == "reveal":
            return {f"conspiracy/{pos}" for pos in (1, 2, 3, 4)}
        return set()

    def _mode_chosen(self) -> set[str]:
        m, s = self.mode, self.sel
        if m == "roll" and s.get("die"):
            return {s["die"]}
        if m == "take_die" and s.get("die"):
            return {s["die"]}
        if m == "investigate":
            return set(s.get("path", []))
        if m == "deal":
            con = s.get("conspiracy")
            return set(s.get("city", {})) | ({f"conspiracy/{self.rules.ff(con).cover}"} if con else set())
        if m == "reveal":
            return {f"conspiracy/{i}" for i, c in enumerate(s.get("cards", []), 1) if c}
        return set()

    # --- panels ---------------------------------------------------------------------------------
    def start(self, option: Option, player: str) -> None:
        # One way to take a die (issue 29): a die clicked, then "Take this die", keeps that die.
        keep = self.sel if option.action == "take_die" and self.mode == "take_die" else {}
        self.mode, self.player, self.sel = option.action, player, keep
        self._widened = False
        getattr(self, f"_start_{option.action}", lambda: None)()
        self._draw_panel()

    def close_panel(self, redraw: bool = True) -> None:
        self.mode = self.player = None
        self._widened = False
        self.sel = {}
        if redraw:
            self._redraw()

    def _draw_panel(self) -> None:
        if self.mode is None:
            return
        if self._last is not None:        # the panel's place first: its choices are laid out for its width
            self._arrange(self.rules.public_table(self.state), self._mode_legal())
        # The keyboard's place in the panel: a choice taken by Enter is drawn again, and the focus
        # stays on it (or, now refused, on the panel's main button) instead of leaving the panel.
        focus = QApplication.focusWidget()
        focused = focus.objectName() if focus is not None and self.panel_box.isAncestorOf(focus) else None
        clear_layout(self.panel_body)
        clear_layout(self.panel_buttons)
        self._row_buttons = []
        self.panel_note.setText("")
        getattr(self, f"_panel_{self.mode}")()
        self._row(self._button("Cancel", "sm:cancel", self.close_panel))
        self._lay_row()
        for layout in (self.panel_body, self.panel_buttons):
            for i in range(layout.count()):
                w = layout.itemAt(i).widget()
                if w is not None:
                    w.show()        # now: a layout shows new children only on the next event-loop pass
        self._redraw()
        for name in (focused, "sm:send") if focused else ():
            shown = [w for w in self.panel_box.findChildren(QWidget, name) if w.isVisible() and w.isEnabled()]
            if shown:           # the one drawn now (the one taken away is hidden until it is deleted)
                shown[0].setFocus()
                break

    def _fit_or_widen(self, widgets: list[QWidget], per_row: int, least: int = 340) -> None:
        """Lay the choices out on the left; when they would not all be in sight there at their full
        size (a short screen), under the dice across the table instead."""
        if not self._widened and self.board.panel_at == "left":
            width = self.board.panel_width()
            per = max(1, min(per_row, max(1 if width < 400 else 2, int(width // least))))
            cell = (width - 12 - self.panel_body.spacing() * (per - 1)) / per
            heights = [max(48, w.height_for(int(cell), False)) if isinstance(w, (ChoiceButton, PaintedChoice))
                       else w.sizeHint().height() for w in widgets]
            rows = [max(heights[i:i + per]) for i in range(0, len(heights), per)]
            need = (self.panel_title.heightForWidth(width - 12) + sum(rows) + 6 * (len(rows) + 2)
                    + 2 * txt_line(CHOICE_POINT_SIZE) + 24)
            if need > self.board.panel.height():
                self._widened = True
                self._arrange(self.rules.public_table(self.state), self._mode_legal())
        self._grid(widgets, per_row, least=least)

    def _grid(self, widgets: list[QWidget], per_row: int = 4, *, least: int = 340) -> None:
        """The panel's choices in a grid: at most ``per_row`` to a line, fewer when the panel is narrow
        (each at least ``least`` pixels wide, or two to a line)."""
        width = self.board.panel_width()
        fit = max(1 if width < 400 else 2, int(width // least))
        per_row = max(1, min(per_row, fit))
        cell = (width - 12 - self.panel_body.spacing() * (per_row - 1)) / per_row
        # Each choice as high as its words take at their full size (never shrunk to a fixed height),
        # and as high as the others on its line.
        heights = [max(48, w.height_for(int(cell), False)) if isinstance(w, (ChoiceButton, PaintedChoice)) else 0
                   for w in widgets]
        for i, w in enumerate(widgets):
            if isinstance(w, (ChoiceButton, PaintedChoice)):
                line = i - i % per_row
                w.keep_height(max(heights[line:line + per_row]))
            self.panel_body.addWidget(w, i // per_row, i % per_row)
        for c in range(max(self.panel_body.columnCount(), 8)):
            self.panel_body.setColumnStretch(c, 1 if c < per_row else 0)

    def _send(self, action: dict) -> None:
        action = {"player": self.player, **action}
        if self.shell.send(action):
            self.close_panel()

    def _read(self, action: dict, reads: list[tuple[str, str]], heading: str) -> None:
        action = {"player": self.player, **action}
        self.close_panel()
        self.shell.read_cards(action, reads, private=True, heading=heading)

    # deal --------------------------------------------------------------------------------------
    # Game Setup 4-5 and 8, on the drawn table (issue 29): a location touched on the map asks for the
    # back of the Flimflam card lying there (the family reads the back; the cards with one back are alike
    # until turned up), the Conspiracy touched asks for its face-up Flimflam card and a display card for
    # its Case card (the camera reads them, or the player picks them from the card list).
    def _groups(self) -> dict[tuple[str, int], list[str]]:
        """The Flimflam cards by their back (the evidence or bullets shown, and the suspect it covers)."""
        out: dict[tuple[str, int], list[str]] = {}
        for c in sorted(self.state.ff_deck, key=lambda c: natural_key(self.name(c))):
            f = self.rules.ff(c)
            out.setdefault((f.back, f.cover), []).append(c)
        return out

    def _start_deal(self) -> None:
        self.sel = {"city": {}, "conspiracy": "", "display": ["", "", "", ""], "at": None}
        if self.simulator is not None:
            # One simulated deal for the whole panel: the card its camera is shown at a place is
            # the card "Deal on the simulated table" fills in there.
            self.sel["sim"] = self.simulator._candidate(self.state, self.player)

    def _sim_deal(self) -> dict | None:
        return self.sel.get("sim") if self.simulator is not None else None

    def _deal_on_sim(self) -> None:
        """The simulated table's deal, as its camera would read it."""
        wanted = self._sim_deal() or self.simulator._candidate(self.state, self.player)
        self.sel["city"] = {loc: self._back_of(c) for loc, c in wanted["city"].items()}
        self.sel["conspiracy"] = wanted["conspiracy"]
        self.sel["display"] = list(wanted["display"])
        self.sel["at"] = None
        self._draw_panel()

    def _back_of(self, card: str) -> tuple[str, int]:
        f = self.rules.ff(card)
        return f.back, f.cover

    @staticmethod
    def _back_words(back: tuple[str, int]) -> str:
        return ("2 bullets" if back[0] == "bullets" else back[0].capitalize()) + " back"

    def _group_left(self, back: tuple[str, int], loc: str | None) -> int:
        """How many cards with this back are not yet placed (the one at ``loc`` counted as free)."""
        used = sum(1 for place, b in self.sel["city"].items() if b == back and place != loc)
        con = self.sel.get("conspiracy")
        used += 1 if con and self._back_of(con) == back else 0
        return len(self._groups().get(back, [])) - used

    def _deal_cards(self) -> dict[str, str]:
        """A card id for each location: one with the back named there, none used twice."""
        free = {k: [c for c in v if c != self.sel.get("conspiracy")] for k, v in self._groups().items()}
        return {loc: free[back].pop(0) for loc, back in self.sel["city"].items() if free.get(back)}

    def _click_deal(self, place: str) -> None:
        if place in self.city.districts:
            self.sel["at"] = place
            self._draw_panel()
        elif place.startswith("conspiracy/"):
            cards = [c for cards in self._groups().values() for c in cards]
            sim = self._sim_deal()
            self.shell.identify_card(f"{self.player}, the Flimflam card face up on the Conspiracy: which is it?",
                                     sorted(cards, key=lambda c: natural_key(self.name(c))), self._set_conspiracy,
                                     shown=sim["conspiracy"] if sim else None)

    def _set_conspiracy(self, card: str) -> None:
        self.sel["conspiracy"] = card
        for loc, back in list(self.sel["city"].items()):      # a back now short of cards: asked again
            if self._group_left(back, loc) < 0:
                del self.sel["city"][loc]
        self._draw_panel()

    def _set_back(self, loc: str, back: tuple[str, int]) -> None:
        self.sel["city"][loc] = back          # said: back to the map, where it is drawn
        self.sel["at"] = None
        self._draw_panel()

    def _read_display(self, i: int) -> None:
        display = self.sel["display"]
        cases = sorted((c for c in self.state.cases_in_play if c not in display or c == display[i]),
                       key=lambda c: natural_key(self.name(c)))
        sim = self._sim_deal()
        self.shell.identify_card(f"{self.player}, Case card {i + 1} of the display: which is it?", cases,
                                 lambda card, i=i: self._set_display(i, card),
                                 shown=sim["display"][i] if sim and sim["display"][i] in cases else None)

    def _set_display(self, i: int, card: str) -> None:
        self.sel["display"][i] = card
        self._draw_panel()

    def _case_detail(self, card: str) -> str:
        c = self.rules.case(card)
        return f"{', '.join(c.cost)}: {points(c.points)}" + (f", ${c.cash}" if c.cash else "") + (
            f"; tabs {c.tabs}" if c.tabs else "")

    def _panel_deal(self) -> None:
        city, display, at = self.sel["city"], self.sel["display"], self.sel.get("at")
        con = self.sel.get("conspiracy")
        done = len(city) == len(self.rules.box.locations) and bool(con) and all(display)
        widgets: list[QWidget] = []
        if at is not None:
            self.panel_title.setText(f"{self.player}, the deal. The Flimflam card face down at "
                                     f"{self.rules.loc_name(at)}: which back does it show (and which suspect "
                                     f"does it name)?")
            for back in self._groups():
                left = self._group_left(back, at)
                choice = self._back_choice(f"sm:deal:back:{back[0]}-{back[1]}", back, "",
                                           legal=left > 0, chosen=city.get(at) == back)
                choice.clicked.connect(lambda _=False, back=back, at=at: self._set_back(at, back))
                widgets.append(choice)
            self._grid(widgets, 4, least=280)
        else:
            self.panel_title.setText(f"{self.player}, the deal: touch each location and the Conspiracy to say its "
                                     f"Flimflam card, and each Case card of the display.")
            for i in range(4):
                card = display[i]
                choice = CardChoice(f"sm:deal:display{i}", self.name(card) if card else f"Display {i + 1}", "",
                                    style.kind_colour(2), "C", chosen=bool(card))
                choice.clicked.connect(lambda _=False, i=i: self._read_display(i))
                widgets.append(choice)
            self._grid(widgets, 2, least=250)
        missing = [f"{len(self.rules.box.locations) - len(city)} location{'s' if len(city) != 7 else ''}"
                   if len(city) < len(self.rules.box.locations) else "",
                   "the Conspiracy's card" if not con else "",
                   f"{4 - sum(1 for c in display if c)} Case card{'s' if sum(1 for c in display if c) != 3 else ''}"
                   if not all(display) else ""]
        missing = [m for m in missing if m]
        if at is None:
            self.panel_note.setText(("Still to say: " + ", ".join(missing) + ".") if missing else
                                    "Every card is said.")
        if at is not None:
            self._row(self._button("Back to the map", "sm:deal:map", self._deal_display))
        if self.simulator is not None:
            self._row(self._button("Deal on the simulated table", "sm:deal:sim", self._deal_on_sim))
        self._row(self._button("These are the cards", "sm:send", self._send_deal, enabled=done, role="primary"))

    def _deal_display(self) -> None:
        self.sel["at"] = None
        self._draw_panel()

    def _send_deal(self) -> None:
        self._send({"type": "deal", "city": self._deal_cards(), "conspiracy": self.sel.get("conspiracy", ""),
                    "display": list(self.sel["display"])})

    def _choice_block(self, text: str, choices: list[QWidget], per_row: int) -> QWidget:
        """Drawn choices under their words, ``per_row`` to a line (fewer when the panel is narrow): one
        cell of the panel's grid."""
        cell = QWidget()
        lay = QGridLayout(cell)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(6)
        lay.addWidget(label(text, "sm"), 0, 0, 1, per_row)
        width = self.board.panel_width() - 12
        per_row = max(1, min(per_row, len(choices), int(width // 170)))
        cell_w = (width - 6 * (per_row - 1)) / per_row
        height = max((c.height_for(int(cell_w), False) for c in choices if isinstance(c, PaintedChoice)), default=48)
        for i, c in enumerate(choices):
            if isinstance(c, PaintedChoice):
                c.keep_height(height)
            lay.addWidget(c, 1 + i // per_row, i % per_row)
        for col in range(per_row):
            lay.setColumnStretch(col, 1)
        return cell

    # roll ------------------------------------------------------------------------------------------
    def _start_roll(self) -> None:
        self.sel = {"values": {}, "die": next(iter(self.state.dice))}

    def _click_roll(self, die: str) -> None:
        if die in self.state.dice:
            self.sel["die"] = die
            self._draw_panel()

    def _panel_roll(self) -> None:
        values = self.sel["values"]
        left = [d for d in self.state.dice if d not in values]
        die = self.sel.get("die")
        self.panel_title.setText(f"{self.player}, roll every die. Tap a die above, then the value it shows "
                                 f"({len(values)} of {len(self.state.dice)} entered).")
        keys = [self._button(str(v), f"sm:value:{v}", lambda v=v: self._set_die(v), enabled=die is not None)
                for v in range(1, 7)]
        self._grid(keys, 6, least=70)
        if self.simulator is not None:
            self._row(self._button("Roll on the simulated table (its camera reads the dice)",
                                                      "sm:dice:camera", self._camera_dice))
        else:
            self._row(self._button("Read the dice with the camera", "sm:dice:camera",
                                                      self._camera_dice))
        self._row(self._button("These are the dice", "sm:send", self._send_roll,
                                                  enabled=not left, role="primary"))

    def _set_die(self, value: int) -> None:
        die = self.sel.get("die")
        if die is None:
            return
        self.sel["values"][die] = value
        order = list(self.state.dice)
        after = order[order.index(die) + 1:] + order[:order.index(die)]
        self.sel["die"] = next((d for d in after if d not in self.sel["values"]), None)
        self._draw_panel()

    def _camera_dice(self) -> None:
        """The dice read from the camera's newest frame (in a demo: the simulated table's roll)."""
        dice = list(self.state.dice)
        if self.simulator is not None:
            truth = {d: self.simulator.rng.randint(1, 6) for d in dice}
            frame = pool_dice.simulated_frame(truth, self.players, seed=self.rng.randrange(1 << 20))
        else:
            frame = self.shell.camera_frame()
            if frame is None:
                self.panel_note.setText("The camera is off: start it under Camera, or tap the values in.")
                return
        values, problems = pool_dice.read_frame(frame, dice, self.players)
        self.sel["values"].update(values)
        self.sel["die"] = next((d for d in dice if d not in self.sel["values"]), None)
        self._draw_panel()
        self.panel_note.setText(f"The camera read {len(values)} of {len(dice)} dice"
                                + (f" ({'; '.join(problems)}): tap in the rest." if problems else "."))

    def _send_roll(self) -> None:
        self._send({"type": "roll", "dice": dict(self.sel["values"])})

    # take a die ------------------------------------------------------------------------------------
    def _click_take_die(self, die: str) -> None:
        if die in self._mode_legal():
            self.sel["die"] = die
            self._draw_panel()

    def _panel_take_die(self) -> None:
        die = self.sel.get("die")
        if die is None:
            self.panel_title.setText(f"{self.player}, click the die you take (\u25B6).")
            return
        value = self.state.dice[die]
        bullets = self.state.boards[self.player].bullets
        self.panel_title.setText(f"{self.player}: the {die} die shows {value}. What do you do with it?")
        choices = []
        for shift in sorted(range(-min(3, bullets), min(3, bullets) + 1), key=lambda s: (abs(s), -s)):
            new = (value - 1 + shift) % 6 + 1
            if any(c[1] == new for c in choices):
                continue
            action = {"type": "take_die", "player": self.player, "die": die, "shift": shift}
            if self.refusal(action) is None:
                cost = f" for {abs(shift)} bullet{'s' if abs(shift) != 1 else ''}" if shift else ""
                choices.append((shift, new, f"{TRACK_NAME[TRACKS[new - 1]]} ({new}){cost}"))
        widgets = [self._button(words, f"sm:use:{new}", lambda s=shift: self._send({"type": "take_die", "die": die,
                                                                                    "shift": s}))
                   for shift, new, words in sorted(choices, key=lambda c: c[1])]
        widgets.append(self._button("Read the News ($1, an evidence, a bullet)", "sm:use:news",
                                    lambda: self._send({"type": "take_die", "die": die, "news": True})))
        self._grid(widgets, 4)
        self._row(self._button("Another die", "sm:other", self._other_die))

    def _other_die(self) -> None:
        self.sel.pop("die", None)
        self._draw_panel()

    # The Office ------------------------------------------------------------------------------------
    def _panel_improve(self) -> None:
        ups = self.sel.setdefault("ups", [])
        b = self.state.boards[self.player]
        n = self.rules.box.allowance("office", b.office_level)
        levels = dict(b.levels)
        for t in ups:
            levels[t] += 1
        cost = sum(self.rules.box.step_cost(t, lv) for t, lv in self._steps(ups))
        self.panel_title.setText(f"{self.player}, The Office: improve up to {n} column{'s' if n != 1 else ''}, in "
                                 f"order (you have ${b.cash}). Chosen: "
                                 + (", ".join(TRACK_NAME[t] for t in ups) + f" (${cost})" if ups else "nothing"))
        # Each column of the player's board, drawn as a choice: its level, and what its next step
        # costs and gives (issue 23: the board painted, a legal column glowing).
        widgets = []
        for pips, t in enumerate(TRACKS, start=1):
            if levels[t] >= 4:
                step, ok = "at the top", False
            else:
                lv = self.rules.box.level(t, levels[t] + 1)
                step = f"to {lv.level}: ${lv.cost}, {reward_words(lv.reward)}"
                ok = self.refusal({"type": "improve", "player": self.player, "tracks": ups + [t]}) is None
            choice = ColumnChoice(f"sm:up:{t}", ColumnLook(TRACK_NAME[t], pips, levels[t], b.levels[t],
                                                           self.colours[self.player], step, ok, ups.count(t)))
            choice.clicked.connect(lambda _=False, t=t: self._add_up(t))
            widgets.append(choice)
        self._fit_or_widen(widgets, 3, least=COLUMN_LEAST)
        self._row(self._button("Start again", "sm:clear", self._clear_ups, enabled=bool(ups)))
        self._row(self._button("Improve these" if ups else "Improve nothing", "sm:send",
                                                  lambda: self._send({"type": "improve", "tracks": list(ups)}),
                                                  role="primary"))

    def _steps(self, ups: list[str]):
        levels = dict(self.state.boards[self.player].levels)
        for t in ups:
            levels[t] += 1
            yield t, levels[t]

    def _add_up(self, t: str) -> None:
        self.sel["ups"].append(t)
        self._draw_panel()

    def _clear_ups(self) -> None:
        self.sel["ups"] = []
        self._draw_panel()

    # Investigate -------------------------------------------------------------------------------------
    def _next_locations(self) -> list[str]:
        b = self.state.boards[self.player]
        path = self.sel.get("path", [])
        n = self.rules.box.allowance("investigate", b.levels["investigate"])
        if len(path) >= n:
            return []
        here = path[-1] if path else b.location
        gone = {b.location, *b.visited, *path}
        return [x for x in self.rules.box.neighbours[here] if x not in gone]

    def _click_investigate(self, loc: str) -> None:
        if loc in self._next_locations():
            self.sel.setdefault("path", []).append(loc)
            self.sel.pop("draw", None)
            self.sel.pop("face", None)
            self._draw_panel()

    def _deck_then(self, final: str) -> list[str]:
        """The Flimflam deck when the new card is drawn: with the face read exchanged for the card noted at
        ``final`` (alike until turned up) and the card it pushes off its suspect."""
        moving = self.state.city.get(final)
        face = self.sel.get("face") or moving
        returned = self.state.covers.get(self.rules.ff(moving).cover) if moving else None
        deck = [moving if c == face else c for c in self.state.ff_deck]
        return [*deck, *([returned] if returned else [])]

    def _panel_investigate(self) -> None:
        path = self.sel.setdefault("path", [])
        snitches = self.sel.setdefault("snitches", [])
        b = self.state.boards[self.player]
        n = self.rules.box.allowance("investigate", b.levels["investigate"])
        words = " \u2192 ".join(self.rules.loc_name(x) for x in [b.location, *path])
        # Short: the prompt over the table already says who investigates and how far.
        more = len(path) < n and bool(self._next_locations())
        self.panel_title.setText(words + (" \u2192 \u25B6 (click on the map)" if more else ""))
        widgets = []
        cash = b.cash - sum(1 for s in snitches if self.state.snitch_at[s][0] != self.player)
        # Each snitch on the path, drawn as on the map: chosen, it gives its evidence (another's for $1).
        for loc in path:
            s = self.state.snitch_at.get(loc)
            if s and not s[2]:
                owner, evidence, _used = s
                own = owner == self.player
                on = loc in snitches
                choice = SnitchChoice(f"sm:snitch:{loc}", f"Use {'your' if own else owner + chr(39) + 's'} snitch",
                                      f"at {self.rules.loc_name(loc)}: a {evidence}" + ("" if own else " for $1"),
                                      self.colours[owner], evidence, legal=on or own or cash >= 1, chosen=on)
                choice.clicked.connect(lambda _=False, loc=loc: self._toggle("snitches", loc))
                widgets.append(choice)
        if path:
            final = path[-1]
            faces = self.rules.face_candidates(self.state, final)
            if len(faces) == 1:
                self.sel["face"] = faces[0]
            elif faces and self.simulator is not None and not self.sel.get("face"):
                self.sel["face"] = self.simulator.flimflam_face(self.state, final)
            where = self.rules.loc_name(final)
            if faces:
                pos = self.rules.ff(faces[0]).cover
                face = self.sel.get("face")
                f = self.rules.ff(face) if face else None
                choice = CardChoice("sm:face", self.name(face) if face else "Card turned up",
                                    f"turned up at {where}, onto suspect {pos}",
                                    style.kind_colour(1), self.rules.ff(faces[0]).back, chosen=bool(face))
                question = f"{where}: which Flimflam card is turned face up?"
                # the face the simulated table turned up (chosen above), shown to its camera
                shown = face if self.simulator is not None else None
                choice.clicked.connect(lambda _=False, q=question, f=list(faces), shown=shown:
                                       self.shell.identify_card(q, f, self._set_face, shown=shown))
                gives = (f"{self.name(face)}: {'$1' if f.cost == 'cash' else '1 bullet'} for "
                         f"{reward_words(f.reward)}, tabs {f.tabs}" + (", a cat. " if f.cat else ". ")) if f else ""
                choice.setToolTip(plain_tip(gives + "Touch it to show the card to the camera (or pick it from the "
                                                    "cards)."))
                widgets.append(choice)
            deck = self._deck_then(final)
            if deck and self.sel.get("draw") not in (None, "", *deck):
                self.sel.pop("draw")
            if deck:
                if self.simulator is not None and not self.sel.get("draw"):
                    self.sel["draw"] = self.simulator.rng.choice(sorted(deck))
                drawn = self.sel.get("draw")
                choice = CardChoice("sm:draw", self._back_words(self._back_of(drawn)) if drawn else "New card",
                                    f"new card face down at {where}" + (f", covers {self._back_of(drawn)[1]}"
                                                                        if drawn else ""),
                                    style.kind_colour(1), self._back_of(drawn)[0] if drawn else "?",
                                    chosen=bool(drawn))
                choice.clicked.connect(lambda _=False: self._open_draw())
                widgets.append(choice)
        if self.sel.get("page") == "draw" and path:
            self._draw_page(path[-1])
            return
        self._grid(widgets, 1)
        self._row(self._button("Clear", "sm:clear", self._clear_path, enabled=bool(path)))
        ready = bool(path) and (not self._deck_then(path[-1]) or bool(self.sel.get("draw"))) and (
            not self.state.city.get(path[-1]) or bool(self.sel.get("face")))
        self._row(self._button("Investigate", "sm:send", self._send_investigate, enabled=ready,
                                                  role="primary"))

    def _set_face(self, card: str) -> None:
        self.sel["face"] = card
        self._draw_panel()

    def _set_draw(self, card: str) -> None:
        self.sel["draw"] = card
        self.sel.pop("page", None)
        self._draw_panel()

    def _open_draw(self) -> None:
        self.sel["page"] = "draw"
        self._draw_panel()

    def _draw_page(self, final: str) -> None:
        """The new Flimflam card put face down at ``final``: which back it shows (the cards with one back
        are alike until turned up)."""
        clear_layout(self.panel_body)
        self.panel_title.setText(f"{self.player}, the new Flimflam card face down at {self.rules.loc_name(final)}: "
                                 f"which back does it show?")
        drawn = self.sel.get("draw")
        backs: dict[tuple[str, int], str] = {}
        for c in sorted(self._deck_then(final), key=lambda c: natural_key(self.name(c))):
            backs.setdefault(self._back_of(c), c)
        widgets = []
        for back, c in sorted(backs.items()):
            choice = self._back_choice(f"sm:draw:{back[0]}-{back[1]}", back, "",
                                       chosen=bool(drawn) and self._back_of(drawn) == back)
            choice.clicked.connect(lambda _=False, c=c: self._set_draw(c))
            widgets.append(choice)
        self._grid(widgets, 4, least=280)
        self._row(self._button("Back", "sm:draw:back", self._close_draw))

    def _close_draw(self) -> None:
        self.sel.pop("page", None)
        self._draw_panel()

    def _back_choice(self, name: str, back: tuple[str, int], more: str, *, legal: bool = True,
                     chosen: bool = False) -> CardChoice:
        """A Flimflam card by its back: its evidence (or 2 bullets) and the suspect it covers."""
        return CardChoice(name, ("2 bullets" if back[0] == "bullets" else back[0].capitalize()) + f" \u2192 {back[1]}",
                          more, style.kind_colour(1), back[0], legal=legal, chosen=chosen)

    def _toggle(self, key: str, value: Any) -> None:
        chosen = self.sel.setdefault(key, [])
        chosen.remove(value) if value in chosen else chosen.append(value)
        self._draw_panel()

    def _clear_path(self) -> None:
        self.sel = {}
        self._draw_panel()

    def _send_investigate(self) -> None:
        path = list(self.sel["path"])
        action = {"type": "investigate", "path": path, "snitches": list(self.sel.get("snitches", [])),
                  "draw": self.sel.get("draw", ""), "face": self.sel.get("face", "")}
        final = path[-1]
        if self.state.table.top(city_place(final)) is None:
            self._send({**action, "found": ""})
            return
        self._read(action, [("found", f"city/{final}")],
                   f"{self.player}, look at the card you take at {self.rules.loc_name(final)}")

    # Flimflam ------------------------------------------------------------------------------------------
    def _panel_take_flimflam(self) -> None:
        chosen = self.sel.setdefault("positions", [])
        b = self.state.boards[self.player]
        n = self.rules.box.allowance("flimflam", b.levels["flimflam"])
        self.panel_title.setText(f"{self.player}, Flimflam: take up to {n} card{'s' if n != 1 else ''} from the "
                                 f"Conspiracy (you have ${b.cash} and {b.bullets} bullets).")
        widgets = []
        for pos, card in sorted(self.state.covers.items()):
            f = self.rules.ff(card)
            on = pos in chosen
            ok = on or self.refusal({"type": "take_flimflam", "player": self.player,
                                     "positions": chosen + [pos]}) is None
            widgets.append(self._button(
                f"{pos}: {self.name(card)}, {'$1' if f.cost == 'cash' else '1 bullet'} for {reward_words(f.reward)}, "
                f"tabs {f.tabs}" + (", a cat" if f.cat else ""), f"sm:ff:{pos}",
                lambda pos=pos: self._toggle("positions", pos), enabled=ok, checked=on))
        self._grid(widgets, 2)
        self._row(self._button("Take them", "sm:send", lambda: self._send(
            {"type": "take_flimflam", "positions": list(chosen)}), enabled=bool(chosen), role="primary"))

    # Take Cases (the action, and a Case card reward) -----------------------------------------------------
    def _panel_take_cases(self, one: bool = False) -> None:
        picks = self.sel.setdefault("picks", [])
        refill = self.sel.setdefault("refill", [])
        b = self.state.boards[self.player]
        n = 1 if one else self.rules.box.allowance("cases", b.levels["cases"])
        self.panel_title.setText(f"{self.player}, take {'a Case card' if one else f'up to {n} Case cards'} from the "
                                 f"display or the top of the deck ({self.state.case_deck} in the deck).")
        widgets = []
        from_deck = picks.count("deck")
        for card in self.state.display:
            c = self.rules.case(card)
            on = card in picks
            widgets.append(self._button(f"{self.name(card)}: {', '.join(c.cost)}, {points(c.points)}, tabs {c.tabs}",
                                        f"sm:case:{short(card)}", lambda card=card: self._pick_case(card),
                                        enabled=on or len(picks) < n, checked=on))
        widgets.append(self._button(f"From the deck ({from_deck})", "sm:case:deck", lambda: self._pick_case("deck"),
                                    enabled=len(picks) < n and from_deck < self.state.case_deck))
        need = min(4 - (len(self.state.display) - (len(picks) - from_deck)), self.state.case_deck - from_deck)
        del refill[need:]
        refill += [""] * (need - len(refill))
        pool = sorted(self.rules.case_pool(self.state), key=lambda c: natural_key(self.name(c)))
        if self.simulator is not None:
            spare = [c for c in pool if c not in refill]
            self.rng.shuffle(spare)
            for i in range(need):
                if not refill[i]:
                    refill[i] = spare.pop()
        for i in range(need):
            card = refill[i]
            choice = CardChoice(f"sm:refill{i}", self.name(card) if card else f"Refill card {i + 1}",
                                (self._case_detail(card) if card else "touch to read it or pick it")
                                + "; turned up to refill the display", style.kind_colour(2), "C", chosen=bool(card))
            choice.clicked.connect(lambda _=False, i=i: self._read_refill(i))
            widgets.append(choice)
        self._grid(widgets, 3)
        self._row(self._button("Clear", "sm:clear", self._clear_picks, enabled=bool(picks)))
        self._row(self._button("Take them", "sm:send", self._send_cases, enabled=bool(picks),
                                                  role="primary"))

    def _read_refill(self, i: int) -> None:
        """The Case card turned up from the deck to refill the display: read by the camera or picked."""
        refill = self.sel["refill"]
        pool = sorted((c for c in self.rules.case_pool(self.state) if c not in refill or c == refill[i]),
                      key=lambda c: natural_key(self.name(c)))
        self.shell.identify_card(f"{self.player}, the Case card turned up to refill the display: which is it?", pool,
                                 lambda card, i=i: self._set_refill(i, card))

    def _set_refill(self, i: int, card: str) -> None:
        self.sel["refill"][i] = card
        self._draw_panel()

    def _panel_take_case(self) -> None:
        self._panel_take_cases(one=True)

    def _pick_case(self, card: str) -> None:
        picks = self.sel["picks"]
        if card != "deck" and card in picks:
            picks.remove(card)
        else:
            picks.append(card)
        self._draw_panel()

    def _clear_picks(self) -> None:
        self.sel = {}
        self._draw_panel()

    def _send_cases(self) -> None:
        refill = [c for c in self.sel["refill"] if c]
        if len(refill) != len(self.sel["refill"]):
            self.panel_note.setText("Choose each card turned up to refill the display.")
            return
        if self.mode == "take_case":
            self._send({"type": "take_case", "source": self.sel["picks"][0], "refill": refill[0] if refill else ""})
        else:
            self._send({"type": "take_cases", "picks": list(self.sel["picks"]), "refill": refill})

    # Moxie's re-roll ---------------------------------------------------------------------------------
    def _panel_reroll(self) -> None:
        self.panel_title.setText(f"{self.player}, re-roll the Moxie die: what does it show?")
        words = [f"{v}: {TRACK_NAME[TRACKS[v - 1]]}" for v in range(1, 6)] + ["6: nothing"]
        self._grid([self._button(w, f"sm:value:{v}", lambda v=v: self._send({"type": "reroll", "value": v}))
                    for v, w in enumerate(words, 1)], 6, least=170)
        if self.simulator is not None:
            self._row(self._button("Re-roll on the simulated table", "sm:reroll:sim", lambda: self._send(
                {"type": "reroll", "value": self.simulator.rng.randint(1, 6)})))

    # peeks ------------------------------------------------------------------------------------------
    def _panel_peek(self) -> None:
        self.panel_title.setText(f"{self.player}, click the uncovered suspect you peek at (\u25B6).")

    def _click_peek(self, place: str) -> None:
        if place in self._mode_legal():
            pos = int(place.split("/")[1])
            self._read({"type": self.mode, "position": pos}, [("card", place)],
                       f"{self.player}, peek at suspect {pos} of the Conspiracy")

    def _start_use_stoolie(self) -> None:
        """Investigate, step 2, decided behind the privacy gate (issue 27). The shared screen offers "Use a
        stoolie" to whoever took a card, whatever it is; the taker picks the stoolie to reveal among the
        cards they took, or, holding none, reads so and goes back to the table: nobody else is told. The
        peek is asked next, as every peek is."""
        p = self.player
        self.mode = None
        know = self.state.knowledge[p]
        mine = [c for t in self.state.table.at(found_place(p)) if (c := know.card_at(t))]
        stoolies = [c for c in mine if self.rules.role.get(c) == "stoolie"]
        if stoolies:
            heading = (f"{p}, reveal a stoolie to everyone and pay $1, then peek at an uncovered suspect: "
                       f"which stoolie do you reveal?")
        else:
            took = ", ".join(self.name(c) for c in mine) or "no card you know"
            heading = (f"{p}, none of the cards you took is a stoolie ({took}): you have none to reveal. "
                       f"Press Cancel to go back to the table; nobody is told.")
        self.shell.read_cards({"type": "use_stoolie", "player": p}, [("stoolie", str(found_place(p)))],
                              private=True, heading=heading, choices={"stoolie": stoolies})

    # Close Cases --------------------------------------------------------------------------------------
    def _case_choice(self, name: str, card: str, slot: Callable[[], None], *, chosen: bool = False,
                     where: str = "") -> CardChoice:
        """A Case card drawn as a choice: its name, what it needs and gives (and where it is)."""
        choice = CardChoice(name, self.name(card), self._case_detail(card) + (f" ({where})" if where else ""),
                            style.kind_colour(2), "C", chosen=chosen)
        choice.clicked.connect(lambda _=False: slot())
        return choice

    def _close_candidates(self) -> list[str]:
        """The Case cards the player may play: those shown from the display, then (holding cards drawn from
        the deck) every card of the deck in play they could pay for now, in natural order."""
        b = self.state.boards[self.player]
        known = sorted(b.hand_known, key=lambda c: natural_key(self.name(c)))
        if not b.hand_unknown:
            return known
        pool = [c for c in self.rules.case_pool(self.state) if self._payments(self.rules.case(c).cost, b.evidence)]
        return known + sorted((c for c in pool if c not in known), key=lambda c: natural_key(self.name(c)))

    def _panel_close_case(self) -> None:
        b = self.state.boards[self.player]
        card = self.sel.get("card")
        if not card:
            self.panel_title.setText(f"{self.player}, close a case: which Case card from your hand do you play?")
            widgets: list[QWidget] = [
                self._case_choice(f"sm:close:{short(c)}", c, lambda c=c: self._close_card(c),
                                  where="taken from the display" if c in b.hand_known else "")
                for c in self._close_candidates()]
            if b.hand_unknown:
                self.panel_note.setText("The cards you drew from the deck are not shown to the others: of those, "
                                        "only the cards you have the evidence for are here.")
            if not widgets:
                widgets.append(label("You do not have the evidence any of your cases needs.", "sm"))
            self._grid(widgets, 2, least=260)
            return
        c = self.rules.case(card)
        q = self.rules.card_question(card)
        self.panel_title.setText(f"{self.player}, close {self.name(card)}: how do you pay?")
        self.panel_note.setText("Not checked against your box yet: 'Check this card'." if q else "")
        widgets = [self._case_choice(f"sm:close:{short(card)}", card, self._other_case, chosen=True)]
        if q:
            widgets.append(self._button("Check this card", "sm:close:check", lambda: self.open_box_form(q.key)))
        for i, pay in enumerate(self._payments(c.cost, b.evidence)):
            widgets.append(self._button("Pay " + ", ".join(pay), f"sm:pay:{i}", lambda pay=pay: self._send(
                {"type": "close_case", "card": card, "pay": list(pay)})))
        if len(widgets) == 1 or (q and len(widgets) == 2):
            widgets.append(label("You do not have the evidence this case needs.", "sm"))
        self._grid(widgets, 2, least=260)
        self._row(self._button("Another card", "sm:close:other", self._other_case))

    def _other_case(self) -> None:
        self.sel.pop("card", None)
        self._draw_panel()

    def _close_card(self, card: str) -> None:
        self.sel["card"] = card
        self._draw_panel()

    def _payments(self, cost, have) -> list[tuple[str, ...]]:
        """Every exact way to pay ``cost`` with the evidence ``have`` (a fedora stands for any one)."""
        out = []
        ranges = [range(min(have[e], len(cost)) + 1) for e in EVIDENCE]
        for counts in product(*ranges):
            if sum(counts) != len(cost):
                continue
            pay = Counter({e: n for e, n in zip(EVIDENCE, counts) if n})
            if self.rules.pays(tuple(cost), pay):
                out.append(tuple(sorted(pay.elements())))
        return out

    # hunches ---------------------------------------------------------------------------------------------
    def _panel_hunch(self) -> None:
        cards = self.sel.setdefault("cards", [])
        snitches = self.sel.setdefault("snitches", [])
        b = self.state.boards[self.player]
        self.panel_title.setText(f"{self.player}, gain a hunch: pick cards above your file cabinet (and your "
                                 f"snitches) that give A, B and C, each one at least one letter of its own. A "
                                 f"wild tab or a snitch is one letter.")
        widgets = []
        for c in b.above:
            tabs = self.rules.tabs_of(c)
            words = " + ".join([*tabs.replace("*", "")] + ["wild"] * tabs.count("*"))
            widgets.append(self._button(f"{self.name(c)}: {words}", f"sm:hunch:{short(c)}",
                                        lambda c=c: self._toggle("cards", c), checked=c in cards))
        tab_words = "wild: one letter" if self.rules.box.snitch_tab == "wild" else f"tab {self.rules.box.snitch_tab}"
        for loc, (owner, ev, _) in sorted(self.state.snitch_at.items()):
            if owner == self.player:
                widgets.append(self._button(f"Your snitch at {self.rules.loc_name(loc)} ({tab_words})",
                                            f"sm:hunch:s:{loc}", lambda loc=loc: self._toggle("snitches", loc),
                                            checked=loc in snitches))
        problem = self.rules.set_problem(self.rules.hunch_items(cards, len(snitches))) if cards else None
        ok = bool(cards) and problem is None
        self._grid(widgets, 3)
        can_read = hasattr(self.shell, "read_card_list")
        if not can_read:
            self.panel_note.setText("Drawing hunch cards privately needs the shell's card-list entry.")
        elif problem:
            self.panel_note.setText(problem)
        self._row(self._button("Draw the hunch cards", "sm:send", self._draw_hunches,
                                                  enabled=ok and can_read, role="primary"))

    def _draw_hunches(self) -> None:
        need = min(3, self.state.table.count(HUNCH_PILE))
        p = self.player
        action = {"type": "hunch", "player": p, "cards": list(self.sel["cards"]),
                  "snitches": list(self.sel["snitches"])}
        demo = None
        if self.simulator is not None:
            demo = list(reversed(self.simulator.cards_in(self.state, str(HUNCH_PILE))))[:need]
        self.close_panel()
        self.shell.read_card_list(action, "drawn", str(HUNCH_PILE), private=True,
                                  heading=f"{p}, draw {need} hunch card{'s' if need != 1 else ''} and look at them",
                                  least=need, most=need, kinds=("hunch",), demo_cards=demo)

    def _start_keep_hunch(self) -> None:
        p = self.player
        self.mode = None
        # Behind the gate only: each card's expected points, from what this player saw (full assist).
        journal = self.controller.session.journal(p, self.controller.assist)
        expected = {x.data["card"]: Fraction(x.data["expected"]) for x in journal.deductions if x.kind == "hunch_ev"}
        worth = "; ".join(f"{self.name(c)} {float(expected[c]):+.1f}" for c in self.state.drawn if c in expected)
        self.shell.read_cards({"type": "keep_hunch", "player": p}, [("card", f"{p}/drawn")], private=True,
                              heading=f"{p}, which hunch card do you keep? The others go under the hunch deck."
                                      + (f" Points each is expected to score, from what you have seen: {worth}."
                                         if worth else ""),
                              choices={"card": list(self.state.drawn)})

    def _start_buy_hunch(self) -> None:
        p = self.player
        self.mode = None
        self.shell.read_cards({"type": "buy_hunch", "player": p}, [("card", str(HUNCH_PILE))], private=True,
                              heading=f"{p}, pay $1 and draw one more hunch card")

    # End of Turn limits ----------------------------------------------------------------------------------
    def _panel_discard(self) -> None:
        b = self.state.boards[self.player]
        over = self.rules.over_limits(self.state, self.player)
        above = self.sel.setdefault("above", [])
        hand = self.sel.setdefault("hand", [])
        ev = self.sel.setdefault("evidence", Counter())
        self.panel_title.setText(f"{self.player}, put back the extras: " + ", ".join(
            f"{n} {'card' if k in ('above', 'hand') else k}{'s' if n != 1 else ''}"
            + (" from above the file cabinet" if k == "above" else " from your hand" if k == "hand" else "")
            for k, n in over.items()) + (" (the bullets go back to the board)." if "bullets" in over else "."))
        widgets: list[QWidget] = []
        if "above" in over:
            for c in b.above:
                widgets.append(self._button(self.name(c), f"sm:back:{short(c)}", lambda c=c: self._toggle("above", c),
                                            checked=c in above))
        if "hand" in over:
            cards = sorted(b.hand_known, key=lambda c: natural_key(self.name(c)))
            if b.hand_unknown:
                cards += sorted((c for c in self.rules.case_pool(self.state) if c not in cards),
                                key=lambda c: natural_key(self.name(c)))
            for c in cards:
                widgets.append(self._case_choice(f"sm:back:hand:{short(c)}", c, lambda c=c: self._toggle_hand(c),
                                                 chosen=c in hand,
                                                 where="taken from the display" if c in b.hand_known else ""))
        if "evidence" in over:
            for e in EVIDENCE:
                if b.evidence[e]:
                    widgets.append(self._button(f"Put back a {e} ({ev[e]})", f"sm:back:{e}",
                                                lambda e=e: self._more_evidence(e),
                                                enabled=ev[e] < b.evidence[e]
                                                and sum(ev.values()) < over["evidence"]))
            widgets.append(self._button("Start the evidence again", "sm:back:clear", self._clear_evidence))
        self._grid(widgets, 4)
        self._row(self._button("Put them back", "sm:send", lambda: self._send(
            {"type": "discard", "above": list(above), "hand": list(hand), "bullets": over.get("bullets", 0),
             "evidence": {k: n for k, n in ev.items() if n}}), role="primary"))

    def _toggle_hand(self, card: str) -> None:
        """A Case card put back from the hand: chosen, or (chosen already) not; at most the extras."""
        hand = self.sel["hand"]
        if card in hand:
            hand.remove(card)
        else:
            hand.append(card)
            del hand[:max(len(hand) - self.rules.over_limits(self.state, self.player).get("hand", 0), 0)]
        self._draw_panel()

    def _more_evidence(self, e: str) -> None:
        self.sel["evidence"][e] += 1
        self._draw_panel()

    def _clear_evidence(self) -> None:
        self.sel["evidence"] = Counter()
        self._draw_panel()

    # End of Game ------------------------------------------------------------------------------------------
    def _start_reveal(self) -> None:
        self.sel = {"cards": [""] * 4}

    def _reveal_on_sim(self) -> None:
        self.sel["cards"] = [self.simulator.card_at(self.state, f"conspiracy/{i}") for i in (1, 2, 3, 4)]
        self._draw_panel()

    def _click_reveal(self, place: str) -> None:
        if place.startswith("conspiracy/"):
            self._read_suspect(int(place.split("/")[1]) - 1)

    def _read_suspect(self, i: int) -> None:
        """The suspect turned up at position ``i + 1``: read by the camera or picked from the list."""
        cards = self.sel["cards"]
        suspects = sorted((c.id for c in self.rules.deck.of_kind("suspect")
                           if self.rules.role[c.id] != "stoolie" and (c.id not in cards or c.id == cards[i])),
                          key=lambda c: natural_key(self.name(c)))
        self.shell.identify_card(f"{self.player}, suspect {i + 1} of the Conspiracy, turned up: which is it?",
                                 suspects, lambda card, i=i: self._set_suspect(i, card))

    def _set_suspect(self, i: int, card: str) -> None:
        self.sel["cards"][i] = card
        self._draw_panel()

    def _panel_reveal(self) -> None:
        self.panel_title.setText(f"{self.player}, turn up the 4 suspects of the Conspiracy for everyone: touch "
                                 f"each one to read it or pick it.")
        cards = self.sel["cards"]
        widgets = []
        for i, card in enumerate(cards):
            choice = CardChoice(f"sm:reveal{i + 1}", self.name(card) if card else f"Suspect {i + 1}",
                                f"suspect {i + 1} of the Conspiracy" if card else "touch to read it or pick it",
                                SUSPECT_COLOUR, "S", chosen=bool(card))
            choice.clicked.connect(lambda _=False, i=i: self._read_suspect(i))
            widgets.append(choice)
        self._grid(widgets, 2, least=250)
        if self.simulator is not None:
            self._row(self._button("Turn them up on the simulated table", "sm:reveal:sim", self._reveal_on_sim))
        self._row(self._button("These are the suspects", "sm:send", lambda: self._send(
            {"type": "reveal", "cards": list(cards)}), enabled=all(cards), role="primary"))

    # learn your box ------------------------------------------------------------------------------------------
    def _needed(self) -> list:
        return [q for q in self.rules.needed(self.state) if q.key not in self.skipped]

    def _refresh_box_button(self) -> None:
        n = len(self._needed())
        self.box_button.set_lines([f"Check {n} box value{'s' if n != 1 else ''}"])
        self.box_button.setToolTip(plain_tip(f"{n} printed value{'s' if n != 1 else ''} of your box "
                                             f"{'are' if n != 1 else 'is'} not checked yet"))
        self.box_button.setProperty("role", "primary" if n else None)

    def open_box_form(self, key: str | None = None) -> None:
        """The next value of the box the table needs (or ``key``), asked once with its card's layout."""
        needed = self._needed()
        question = next((q for q in needed if q.key == key), None) if key else (needed[0] if needed else None)
        if question is None and key:
            question = self.rules.box.question(key)
        layout = self.box_page.layout()
        clear_layout(layout)
        if question is None:
            self.close_box_form()
            return
        form = BoxForm(question, lambda answer, k=question.key: self._learn(k, answer),
                       later=lambda k=question.key: self._later(k), names=dict(self.rules.box.locations))
        layout.addWidget(form)
        layout.addStretch(1)
        form.show()
        self.board.hide()
        self.box_page.show()

    def close_box_form(self) -> None:
        clear_layout(self.box_page.layout())
        self.box_page.hide()
        self.board.show()
        self._redraw()
        if self.mode is not None:
            self._draw_panel()

    def _learn(self, key: str, answer: dict) -> str | None:
        try:
            # Undo and resume replay the game with today's box: an answer that would change a move already
            # played is not taken during the game (docs/rules/sudds-malone.md).
            self.rules.check_in_game(self.session.initial, list(self.session.done), key, answer)
            self.rules.learn(key, answer)
        except RuleViolation as exc:
            return exc.message
        self.shell.say([f"Noted in your box file: {self.rules.box.question(key).title}."])
        self._next_box_question(key)
        return None

    def _later(self, key: str) -> None:
        self.skipped.add(key)
        self._next_box_question(key)

    def _next_box_question(self, key: str) -> None:
        if self._needed() and not key.startswith("case."):
            self.open_box_form()
        else:
            self.close_box_form()
