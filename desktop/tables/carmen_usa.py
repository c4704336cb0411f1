"""Where in the USA is Carmen Sandiego: the 24 Landmark Boxes, the question card, the finale's map.

Drawn from the engine's shared view (and the public facts of the game: the question being read,
where the pieces stand). Clicks on highlighted landmarks and states go to the shell's action flow
(``desktop/table_base.py``). The table takes over reading a question (the next card is drawn at
random from those not read yet) and shows the choices as buttons an agent may tap. In the finale
it runs the big countdown; when it reaches zero it sends "time ran out".
"""

from __future__ import annotations

import random
import time
from typing import Callable

from PySide6.QtCore import QTimer, Signal
from PySide6.QtGui import QFont, QFontMetrics
from PySide6.QtWidgets import (QGridLayout, QGroupBox, QHBoxLayout, QStackedWidget, QVBoxLayout, QWidget)

from engine.game import Journal, Option
from engine.games.carmen_usa.data import CHOICES_PER_QUESTION
from engine.session import PlayerView

from .. import style
from ..private import journal_table
from ..table_base import GameTable, TableShell
from ..widgets import SlotButton, WrappingButton, label

PER_ROW = 6          # landmarks per row: the board's top and bottom rows of 12, each in two rows
KIND_INDEX = {"warrant": 0, "loot": 1, "crook": 2}
SMALL_TILE = " QPushButton { min-height: 18px; padding: 0px; }"    # the map's squares and the tokens


class Countdown(QWidget):
    """The Catch Carmen timer: a big number of seconds left. ``time_source`` is replaceable (tests)."""

    expired = Signal()

    def __init__(self, time_source: Callable[[], float] = time.monotonic, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.time_source = time_source
        self.deadline: float | None = None
        self.fired = False
        self.text = label("", "turn", wrap=False)
        self.text.setObjectName("usa:countdown")
        row = QVBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.text)
        self.timer = QTimer(self)
        self.timer.setInterval(200)
        self.timer.timeout.connect(self.update_clock)

    def start(self, seconds: int) -> None:
        self.deadline = self.time_source() + seconds
        self.fired = False
        self.timer.start()
        self.update_clock()

    def stop(self) -> None:
        self.timer.stop()
        self.deadline = None

    @property
    def running(self) -> bool:
        return self.deadline is not None

    def left(self) -> int:
        if self.deadline is None:
            return 0
        return max(0, int(self.deadline - self.time_source() + 0.999))

    def update_clock(self) -> None:
        if self.deadline is None:
            return
        left = self.left()
        self.text.setText(f"Time left: {left} s")
        if left == 0 and not self.fired:
            self.fired = True
            self.timer.stop()
            self.expired.emit()


class LandmarkTile(SlotButton):
    """One landmark and its Landmark Box: the card (as everyone may see it) and the pieces there.

    A click chooses the landmark (a move, a piece placed) or its box (a look, a call), whichever
    is legal now.
    """

    POINT_SIZE = 12

    def __init__(self, landmark: str, parent: QWidget | None = None) -> None:
        self._name_line = ""
        super().__init__(landmark, parent)
        self.landmark = landmark
        self.setObjectName(f"slot:{landmark}")
        self.setMinimumSize(96, 40)

    def show_box(self, name: str, card: str | None, face_up: bool, present: bool, pieces: list[str],
                 legal_place: str | None, chosen: bool, kind_index: int | None) -> None:
        self.place = legal_place or self.landmark
        colour = style.kind_colour(kind_index) if kind_index is not None else "#D9D2C3"
        self.show_card("Landmark", name, colour, name=card, present=True, legal=legal_place is not None,
                       chosen=chosen, face_up=face_up)
        short = (card or "").split(":")[0]           # "Orange Warrant" (the crook's name is on the card)
        if not present:
            state = "empty box"
        elif card and face_up:
            state = short
        elif card:
            state = f"{short}, face down"
        else:
            state = "" if pieces else "face down"     # the tile's colour says face down too
        if pieces:
            state = " \u00b7 ".join(x for x in (state, "\u25CF " + ", ".join(pieces)) if x)
        arrow = "\u25B6 " if self.legal and not chosen else ""
        lines = ["[picked]"] if chosen else []
        lines += [arrow + name, state]
        self._lines = lines
        self._name_line = lines[-2]
        self.setAccessibleName(" ".join(lines) + (f" ({card})" if card else ""))
        self.setToolTip(f"{name}: {card}" if card else name)
        self._fit_text()


    def _fit_text(self) -> None:
        """A smaller font (down to 9 points) keeps a long landmark name on one line, so what lies
        in the box and who stands there stay in sight."""
        width = max(self.width() - 12, 40)
        size = LandmarkTile.POINT_SIZE
        font = QFont(self.font())
        while size > 9 and self._name_line:
            font.setPointSize(size)
            if QFontMetrics(font).horizontalAdvance(self._name_line) <= width:
                break
            size -= 1
        self.POINT_SIZE = size
        super()._fit_text()


class CarmenUsaTable(GameTable):
    """The landmarks (two rows above, two below), the question card between them; the finale's map."""

    def __init__(self, shell: TableShell, rng: random.Random | None = None) -> None:
        super().__init__(shell)
        self.rng = rng or random.SystemRandom()
        session = self.controller.session
        rules = session.rules
        self.rules = rules
        layout = session.layout()
        self.tiles: dict[str, LandmarkTile] = {}
        self.state_tiles: dict[str, SlotButton] = {}
        self.token_slots: dict[str, SlotButton] = {}
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        self.pages = QStackedWidget()
        outer.addWidget(self.pages)

        board = QWidget()
        grid = QGridLayout(board)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setSpacing(4)
        top, bottom = list(layout["top"]), list(layout["bottom"])
        for i, lm in enumerate(top):
            self._tile(grid, lm, i // PER_ROW, i % PER_ROW)
        self.card_box = QGroupBox("Question")
        self.card_box.setObjectName("usa:question-box")
        card_layout = QVBoxLayout(self.card_box)
        card_layout.setContentsMargins(6, 2, 6, 2)
        self.choice_row = QHBoxLayout()
        card_layout.addLayout(self.choice_row)
        self.choice_buttons: list[WrappingButton] = []
        for i in range(CHOICES_PER_QUESTION):
            b = WrappingButton("")
            b.setObjectName(f"usa:choice{i}")
            b.setMinimumHeight(36)
            b.clicked.connect(lambda _=False, n=i: self.choice_tapped(n))
            self.choice_buttons.append(b)
            self.choice_row.addWidget(b)
        self.status = label("")
        self.status.setObjectName("usa:status")
        card_layout.addWidget(self.status)
        rows_top = (len(top) + PER_ROW - 1) // PER_ROW
        grid.addWidget(self.card_box, rows_top, 0, 1, PER_ROW)
        for i, lm in enumerate(bottom):
            self._tile(grid, lm, rows_top + 1 + i // PER_ROW, i % PER_ROW)
        for c in range(PER_ROW):
            grid.setColumnStretch(c, 1)
        self.pages.addWidget(board)

        finale = QWidget()
        row = QHBoxLayout(finale)
        row.setContentsMargins(0, 0, 0, 0)
        map_box = QGroupBox("Put each capital on its state")
        map_grid = QGridLayout(map_box)
        map_grid.setContentsMargins(4, 2, 4, 2)
        map_grid.setSpacing(2)
        for item in layout["tiles"]:
            state, r, c = item.split(":")
            tile = SlotButton(state)
            tile.setMinimumSize(34, 22)
            tile.picked.connect(self.place_clicked)
            self.state_tiles[state] = tile
            map_grid.addWidget(tile, int(r), int(c))
        row.addWidget(map_box, 3)
        side = QVBoxLayout()
        self.countdown = Countdown()
        self.countdown.expired.connect(self.time_ran_out)
        side.addWidget(self.countdown)
        self.finale_status = label("")
        self.finale_status.setObjectName("usa:finale-status")
        side.addWidget(self.finale_status)
        tokens = QGridLayout()
        per_agent = 3
        for i, player in enumerate(session.players):
            tokens.addWidget(label(player, wrap=False), i, 0)
            for n in range(1, per_agent + 1):
                place = f"{player}/capital/{n}"
                slot = SlotButton(place)
                slot.setMinimumSize(60, 30)
                slot.picked.connect(self.place_clicked)
                self.token_slots[place] = slot
                tokens.addWidget(slot, i, n)
        side.addLayout(tokens)
        side.addStretch(1)
        row.addLayout(side, 2)
        self.pages.addWidget(finale)

    def _tile(self, grid: QGridLayout, lm: str, r: int, c: int) -> None:
        tile = LandmarkTile(lm)
        tile.picked.connect(self.place_clicked)
        self.tiles[lm] = tile
        grid.addWidget(tile, r, c)

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
        self.shell.send({"type": "ask", "player": player, "question": self.rng.choice(list(questions))})

    def field_words(self, option: Option, field: str) -> str:
        words = {"landmark": "the landmark you reached (highlighted), or No landmark",
                 "box": "the landmark (highlighted)", "token": "your Capital Token (highlighted)",
                 "state": "its state on the map"}
        return words.get(field, super().field_words(option, field))

    def refresh(self, view: PlayerView, legal: set[str], chosen: set[str]) -> None:
        state = self.controller.session.state
        finale = state.phase.startswith("finale") or (view.outcome is not None and state.winner is not None)
        self.pages.setCurrentIndex(1 if finale else 0)
        by_place = {card.place: card for card in view.cards}
        pieces: dict[str, list[str]] = {}
        for player, lm in state.pieces.items():
            if lm:
                pieces.setdefault(lm, []).append(player)
        for lm, tile in self.tiles.items():
            box = f"box/{lm}"
            card = by_place.get(box)
            legal_place = box if box in legal else lm if lm in legal else None
            kind = card.kind if card else None
            if card and card.card:
                kind = self.rules.kind_of(card.card)
            tile.show_box(self.rules.landmark_name[lm], card.name if card else None, bool(card and card.face_up),
                          card is not None, pieces.get(lm, []), legal_place, box in chosen or lm in chosen,
                          KIND_INDEX.get(kind or "", None) if card and card.name else None)
        self._refresh_question(state)
        placed = {card.place[4:]: card.name for card in view.cards if card.place.startswith("map/")}
        for st, tile in self.state_tiles.items():
            tile.show_card("State", st, "#F4F1EA", name=placed.get(st), present=True, legal=st in legal,
                           chosen=st in chosen, face_up=True)
            tile._base_sheet += SMALL_TILE
            tile.set_lines([("\u25B6 " if st in legal else "") + st + (" \u2714" if st in placed else "")])
            tile.setToolTip(f"{self.rules.state_names[st]}: {placed[st]}" if st in placed
                            else self.rules.state_names[st])
        for place, slot in self.token_slots.items():
            card = by_place.get(place)
            slot.show_card("Capital", place.rsplit("/", 1)[1], "#E8C15A", name=card.name if card else None,
                           present=card is not None, legal=place in legal, chosen=place in chosen,
                           face_up=bool(card and card.face_up))
            n = place.rsplit("/", 1)[1]
            words = "placed" if card is None else (card.name if card.face_up and card.name else f"token {n}")
            slot._base_sheet += SMALL_TILE
            slot.set_lines([("\u25B6 " if place in legal else "") + words])
        if state.phase == "finale_place" and not self.countdown.running:
            self.countdown.start(self.rules.board.timer_seconds[len(state.players)])
        elif state.phase != "finale_place" and self.countdown.running:
            self.countdown.stop()
        left = sum(1 for place in self.token_slots if place in by_place)
        if view.outcome is not None:
            self.finale_status.setText(view.outcome.reason)
        elif state.phase == "finale_place":
            self.finale_status.setText(f"{state.placer} flips a token. Tokens still to place: {left}.")
        elif finale:
            seconds = self.rules.board.timer_seconds[len(state.players)]
            self.finale_status.setText(f"Everyone takes three tokens; then {state.order[-1]} starts "
                                       f"the {seconds}-second timer.")

    def _refresh_question(self, state) -> None:
        bank = self.rules.bank
        asking = state.phase in ("answering", "backup") and state.question
        q = bank.question(state.question) if state.question else None
        if asking and q is not None:
            self.card_box.setTitle(f"{state.reader} reads to {state.backup if state.phase == 'backup' else state.answerer}")
        elif q is not None:
            self.card_box.setTitle(f"The last answer: {q.answer}")
        else:
            self.card_box.setTitle("Questions")
        heard = asking and (state.choices or (state.phase == "backup" and state.first_choices))
        for i, b in enumerate(self.choice_buttons):
            b.setVisible(bool(heard))
            if heard and q is not None:
                b.set_lines([f"{chr(ord('A') + i)}: {q.options[i]}"])
        out = ", ".join(state.warrants_out) if state.warrants_out else "none"
        self.status.setText(f"Questions: {state.colour}. Warrants out of play: {out}."
                            + (" A bigger challenge: Loot goes back face down." if state.variant == "bigger" else ""))

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
        session = self.controller.session
        option = session.prompt().option("time_up")
        if option is not None and session.prompt().player is not None:
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
