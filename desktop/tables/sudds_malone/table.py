"""The Sudds & Malone table: the dice pool, the city, the Conspiracy, the Case display and each
player's board, drawn from the engine's public table (``SuddsRules.public_table``: never a face-down
suspect or a hunch card) with the shared toolkit (``desktop.drawn``; the pieces: :mod:`.pool`,
:mod:`.citymap`, :mod:`.cards`, :mod:`.sheet`, laid out by :mod:`.board`).

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

The panels live in modules by phase, each a mixin of the table (:mod:`.panel` holds what they share).
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from PySide6.QtCore import QPoint, QRectF
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QGridLayout, QHBoxLayout, QVBoxLayout, QWidget

from engine.errors import RuleViolation
from engine.game import Journal, Option, action_from_json
from engine.games.sudds_malone.box import EVIDENCE, TRACKS
from engine.games.sudds_malone.rules import DAY_NAME, TRACK_NAME
from engine.session import PlayerView

from ... import style
from ...drawn import MotionQueue, Step, flight_step, player_colours, paint as pt
from ...drawn.items import paint_player_disc
from ...drawn.palette import named_colour
from ...private import journal_table
from ...table_base import GameTable, ShelfScreen, TableShell
from ...widgets import WrappingButton, clear_layout, label, plain_tip
from . import dice as pool_dice
from .board import BoardArea
from .box_form import BoxForm, BoxReview
from .cards import CaseCard, ConspiracyCard
from .cases import CasePanels
from .city import load_city
from .citymap import CityMap, DistrictLook
from .deal import DealPanel
from .dice_colours import SCREEN as DICE_COLOURS
from .dice_panels import DicePanels
from .hunches import HunchPanels
from .investigate import CityPanels
from .limits import LimitsPanel
from .office import OfficePanel
from .panel import Panels, points, scrolled, titled_column
from .pieces import Words
from .pool import DicePool, PoolDie, paint_pool_die
from .reveal import RevealPanel
from .sheet import PlayerSheet, PlayerTab, SheetData


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


class SuddsTable(Panels, DealPanel, DicePanels, OfficePanel, CityPanels,
                 CasePanels, HunchPanels, LimitsPanel, RevealPanel, GameTable):
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
