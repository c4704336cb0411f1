"""Where in the USA is Carmen Sandiego: Catch Carmen (the states' map, the countdown, the tokens)."""

from __future__ import annotations

import time
from typing import Callable

from PySide6.QtCore import QPointF, QRect, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QHBoxLayout, QSizePolicy, QVBoxLayout, QWidget

from ... import style
from ...drawn import DrawnCard, Piece, PlayerName
from ...drawn import paint as pt
from ...drawn import text as txt
from ...widgets import button, label, plain_tip
from .board import LAND, SHORE, _draw, sea_painter

PLACED = "#BFE3C9"           # a state with its capital token on it
TOKEN = "#E8C15A"            # a Capital Token's back
WRONG = "#F3C6B8"            # a state with another state's capital token on it (a cross drawn too)


# --- the finale: a map of the states, the countdown, the tokens --------------------------------
class Countdown(QWidget):
    """The Catch Carmen timer as a ring that empties, the seconds left in large type in the middle.
    ``time_source`` is replaceable (tests)."""

    expired = Signal()

    def __init__(self, time_source: Callable[[], float] = time.monotonic, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("usa:countdown")
        self.time_source = time_source
        self.deadline: float | None = None
        self.stopped_at: int | None = None      # the seconds left when the clock was stopped
        self.total = 0
        self.fired = False
        self.setSizePolicy(QSizePolicy.Fixed, QSizePolicy.Fixed)
        self.timer = QTimer(self)
        self.timer.setInterval(200)
        self.timer.timeout.connect(self.update_clock)

    def set_total(self, seconds: int) -> None:
        if seconds != self.total:
            self.total = seconds
            self.update()

    def start(self, seconds: int) -> None:
        self.total = seconds
        self.deadline = self.time_source() + seconds
        self.stopped_at: int | None = None
        self.fired = False
        self.timer.start()
        self.update_clock()

    def stop(self) -> None:
        """The clock stops where it is ("All placed!"): the ring keeps the seconds that were left."""
        self.stopped_at = self.left() if self.deadline is not None else None
        self.timer.stop()
        self.deadline = None
        self.setAccessibleName(self.text())
        self.update()

    @property
    def running(self) -> bool:
        return self.deadline is not None

    def left(self) -> int:
        if self.deadline is None:
            return self.total if self.stopped_at is None else self.stopped_at
        return max(0, int(self.deadline - self.time_source() + 0.999))

    def text(self) -> str:
        return f"Time left: {self.left()} s"

    def update_clock(self) -> None:
        if self.deadline is None:
            return
        self.setAccessibleName(self.text())
        self.update()
        if self.left() == 0 and not self.fired:
            self.fired = True
            self.timer.stop()
            self.expired.emit()

    def _texts(self) -> list[txt.DrawnText]:
        side = min(self.width(), self.height())
        inner = QRectF((self.width() - side) / 2, (self.height() - side) / 2, side, side).adjusted(
            side * 0.17, side * 0.2, -side * 0.17, -side * 0.2)
        number = str(self.left())
        word_px = int(min(max(side * 0.07, txt.LEAST_PX), 24))
        word_h = txt.line_height(word_px, True)
        npx, nlines, nfits = txt.fit(number, int(inner.width()), int(inner.height() - word_h), 120, bold=True,
                                     max_lines=1)
        nh = txt.line_height(npx, True)
        top = inner.top() + (inner.height() - nh - word_h) / 2
        return [txt.DrawnText(number, npx, QRect(int(inner.left()), int(top), int(inner.width()), nh), nfits,
                              key=True),
                txt.DrawnText("seconds", word_px, QRect(int(inner.left()), int(top + nh), int(inner.width()),
                                                        word_h), True)]

    def drawn_texts(self) -> list[txt.DrawnText]:
        return self._texts()

    def paintEvent(self, event) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.Antialiasing)
        side = min(self.width(), self.height())
        thick = max(side * 0.11, 8)
        ring = QRectF((self.width() - side) / 2, (self.height() - side) / 2, side, side).adjusted(
            thick / 2 + 2, thick / 2 + 2, -thick / 2 - 2, -thick / 2 - 2)
        p.setPen(QPen(QColor("#DDD6C8"), thick))
        p.setBrush(QColor("#FFFFFF"))
        p.drawEllipse(ring)
        share = self.left() / self.total if self.total else 0.0
        # Green while there is time, orange under a half, vermillion in the last fifth.
        colour = style.GREEN if share > 0.5 else style.ORANGE if share > 0.2 else style.VERMILLION
        p.setPen(QPen(QColor(colour), thick, Qt.SolidLine, Qt.FlatCap))
        p.drawArc(ring, 90 * 16, int(-360 * 16 * share))
        number, word = self._texts()
        p.setPen(QColor(style.INK))
        txt.draw_lines(p, number.rect, (number.text,), number.px, bold=True)
        txt.draw_lines(p, word.rect, (word.text,), word.px, bold=True)
        p.end()


class StateTile(Piece):
    """One state on the finale's map: its two letters; a tick once its capital's token lies on it."""

    def __init__(self, state: str, name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.place = self.state = state
        self.name = name
        self.setObjectName(f"slot:{state}")
        self.setSizePolicy(QSizePolicy.Ignored, QSizePolicy.Ignored)
        self.legal = self.chosen = self.wrong = False
        self.capital: str | None = None

    def show_state(self, capital: str | None, legal: bool, chosen: bool, wrong: bool = False) -> None:
        """``capital``: the token checked on this state; ``wrong``: it is another state's capital."""
        if (capital, legal, chosen, wrong) != (self.capital, self.legal, self.chosen, self.wrong):
            self.capital, self.legal, self.chosen, self.wrong = capital, legal, chosen, wrong
            self.setToolTip(plain_tip(f"{self.name}: {capital}" if capital else self.name))
            self.setAccessibleName(f"{self.name}" + (f", {capital} on it" if capital else "")
                                   + (" (wrong state)" if wrong else "") + (", can be chosen" if legal else ""))
            self.update()

    def text(self) -> str:
        return self.state + ((" \u2718" if self.wrong else " \u2714") if self.capital else "")

    def _texts(self) -> list[txt.DrawnText]:
        room = QRectF(self.rect()).adjusted(5, 3, -5, -3)
        family = txt.narrow_family()
        px, lines, fits = txt.fit(self.state, int(room.width()), int(room.height()), 30, bold=True, family=family,
                                  max_lines=1)
        h = txt.line_height(px, True, family)
        return [txt.DrawnText(self.state, px, QRect(int(room.left()), int(room.top() + (room.height() - h) / 2),
                                                    int(room.width()), h), fits, key=True)]

    def drawn_texts(self) -> list[txt.DrawnText]:
        return self._texts()

    def paintEvent(self, event) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.Antialiasing)
        r = QRectF(self.rect()).adjusted(2, 2, -2, -2)
        p.setPen(QPen(QColor(style.HIGHLIGHT) if self.legal else QColor(SHORE), 3 if self.legal else 1.5))
        p.setBrush(QColor(WRONG if self.wrong else PLACED if self.capital else LAND))
        p.drawRoundedRect(r, 6, 6)
        (drawn,) = self._texts()
        p.setPen(QColor(style.INK))
        txt.draw_lines(p, drawn.rect, (drawn.text,), drawn.px, bold=True, family=txt.narrow_family())
        if self.wrong:               # a cross: the token on it is another state's capital
            s = min(r.width(), r.height()) * 0.18
            c = QPointF(r.right() - s - 3, r.top() + s + 3)
            p.setPen(QPen(QColor(style.VERMILLION).darker(120), max(s / 3, 2), Qt.SolidLine, Qt.RoundCap))
            p.drawLine(QPointF(c.x() - s, c.y() - s), QPointF(c.x() + s, c.y() + s))
            p.drawLine(QPointF(c.x() - s, c.y() + s), QPointF(c.x() + s, c.y() - s))
        elif self.capital:           # a tick: placed, told by shape as well as by the green
            s = min(r.width(), r.height()) * 0.22
            c = QPointF(r.right() - s - 2, r.top() + s + 2)
            tick = QPainterPath(QPointF(c.x() - s * 0.6, c.y()))
            tick.lineTo(c.x() - s * 0.1, c.y() + s * 0.5)
            tick.lineTo(c.x() + s * 0.7, c.y() - s * 0.6)
            p.setPen(QPen(QColor(style.GREEN).darker(130), max(s / 3, 2), Qt.SolidLine, Qt.RoundCap))
            p.setBrush(Qt.NoBrush)
            p.drawPath(tick)
        pt.paint_chosen_and_focus(p, r, chosen=self.chosen, focused=self.hasFocus(), radius=5)
        p.end()


class StateMap(QWidget):
    """The finale's tile map of the 50 states (one square each, where they lie)."""

    def __init__(self, tiles: dict[str, tuple[int, int]], states: dict[str, StateTile],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("usa:states")
        self.grid = tiles
        self.states = states
        self.rows = max(r for r, _ in tiles.values()) + 1
        self.columns = max(c for _, c in tiles.values()) + 1
        self.setSizePolicy(QSizePolicy.Expanding, QSizePolicy.Expanding)
        for tile in states.values():
            tile.setParent(self)

    def resizeEvent(self, event) -> None:
        w, h = self.width() / self.columns, self.height() / self.rows
        for st, tile in self.states.items():
            r, c = self.grid[st]
            tile.setGeometry(QRectF(c * w, r * h, w, h).toAlignedRect())
        super().resizeEvent(event)

    def paintEvent(self, event) -> None:
        p = sea_painter(self)
        p.end()


class FittedWords(QWidget):
    """Words fitted to their room: as large as it allows (``largest``), never below the least size."""

    def __init__(self, largest: int, parent: QWidget | None = None, family: str = "") -> None:
        super().__init__(parent)
        self.words = ""
        self.largest = largest
        self.family = family
        self.setSizePolicy(QSizePolicy.Ignored, QSizePolicy.Ignored)
        self.setMinimumHeight(txt.line_height(txt.LEAST_PX, True) * 2)

    def setText(self, words: str) -> None:        # the QLabel spelling: the tests read it alike
        if words != self.words:
            self.words = words
            self.setAccessibleName(words)
            self.update()

    def text(self) -> str:
        return self.words

    def drawn_texts(self) -> list[txt.DrawnText]:
        if not self.words:
            return []
        room = self.rect().adjusted(4, 2, -4, -2)
        px, lines, fits = txt.fit(self.words, room.width(), room.height(), self.largest, bold=True, max_lines=12,
                                  family=self.family)
        h = len(lines) * txt.line_height(px, True, self.family)
        return [txt.DrawnText("\n".join(lines), px, QRect(room.left(), room.top() + max(room.height() - h, 0) // 2,
                                                           room.width(), min(h, room.height())), fits,
                              family=self.family)]

    def paintEvent(self, event) -> None:
        p = QPainter(self)
        for drawn in self.drawn_texts():
            _draw(p, drawn, bold=True, ink=style.INK, align=Qt.AlignLeft, family=self.family)
        p.end()


class FinalePage(QWidget):
    """Catch Carmen: the states' map at the left; the countdown ring, what happens now, and the
    tokens of the agent placing them at the right."""

    def __init__(self, tiles: dict[str, tuple[int, int]], state_names: dict[str, str], players: list[str],
                 colours: dict[str, str], per_agent: int, place_clicked: Signal, place_refused: Signal) -> None:
        super().__init__()
        self.state_tiles = {st: StateTile(st, state_names.get(st, st)) for st in tiles}
        for tile in self.state_tiles.values():
            tile.picked.connect(place_clicked)
            tile.refused.connect(place_refused)
        self.map = StateMap(tiles, self.state_tiles)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.map, 3)
        side = QVBoxLayout()
        side.setContentsMargins(0, 0, 0, 0)
        top = QHBoxLayout()
        self.countdown = Countdown()
        top.addWidget(self.countdown)
        self.status = FittedWords(26)
        self.status.setObjectName("usa:finale-status")
        # What happens now, and the small "Time ran out…" under it: as tall as the ring, no taller
        # (the big "All placed!" comes right under them, the secondary button never beside it).
        self.beside = QWidget()
        beside = QVBoxLayout(self.beside)
        beside.setContentsMargins(0, 0, 0, 0)
        beside.addWidget(self.status, 1)
        top.addWidget(self.beside, 1)
        side.addLayout(top)
        # The clock times the real tokens being placed: one big button stops it.
        self.all_placed = button("All placed!", "primary", name="usa:all-placed", big=True)
        self.all_placed.setStyleSheet("font-size: 30px; padding: 10px 24px;")
        self.all_placed.hide()
        side.addWidget(self.all_placed)
        # The app's clock ends the race by itself; a family racing their own timer may say it ran out,
        # but only after a question (pressed by mistake it would end the game): a small secondary
        # button, never a main action beside "All placed!".
        self.time_up = button("Time ran out\u2026", None, name="usa:time-up")
        self.time_up.setStyleSheet("font-size: 20px; padding: 4px 12px;")
        self.time_up.hide()
        beside.addWidget(self.time_up)
        self.confirm = QWidget()
        self.confirm.setObjectName("usa:time-up-confirm")
        ask = QVBoxLayout(self.confirm)
        ask.setContentsMargins(0, 0, 0, 0)
        question = label("Did the time really run out? Carmen escapes.", "prompt")
        question.setObjectName("usa:time-up-question")
        question.setStyleSheet("font-size: 24px; font-weight: bold;")
        ask.addWidget(question)
        answers = QVBoxLayout()              # one above the other: the answers never widen the column
        self.time_up_yes = button("Yes: Carmen escapes", None, name="usa:time-up-yes")
        self.time_up_no = button("No: go on placing", "primary", name="usa:time-up-no")
        for b in (self.time_up_yes, self.time_up_no):
            b.setStyleSheet("font-size: 24px; padding: 6px 12px;")
            answers.addWidget(b)
        ask.addLayout(answers)
        self.confirm.hide()
        side.addWidget(self.confirm)
        self.time_up.clicked.connect(self.ask_time_up)
        self.time_up_no.clicked.connect(self.close_time_up)
        self.simulated = FittedWords(22, family=txt.narrow_family())
        self.simulated.setObjectName("usa:simulated-tokens")
        self.simulated.hide()
        side.addWidget(self.simulated, 3)
        self.names: dict[str, PlayerName] = {}
        self.tokens: dict[str, DrawnCard] = {}
        for player in players:
            name = PlayerName(player, colours[player])
            self.names[player] = name
            side.addWidget(name)
        self.rack = QHBoxLayout()
        self.rack.setSpacing(2)
        for player in players:
            for n in range(1, per_agent + 1):
                card = DrawnCard(f"{player}/capital/{n}")
                card.picked.connect(place_clicked)
                card.refused.connect(place_refused)
                card.setMinimumSize(60, 60)
                self.tokens[card.place] = card
                self.rack.addWidget(card, 1)
        side.addLayout(self.rack, 1)
        self.rack_room = side          # the rack's share of the room: none while its tokens are hidden
        self.others = label("")
        self.others.setObjectName("usa:tokens-left")
        self.others.setStyleSheet("font-size: 16pt;")
        side.addWidget(self.others)
        row.addLayout(side, 2)

    def ask_time_up(self) -> None:
        """"Time ran out…": the question, in place of the button (the clock runs on meanwhile)."""
        self.time_up.hide()
        self.simulated.hide()                # the question has the room while it is asked
        self.confirm.show()
        self.time_up_no.setFocus()

    def close_time_up(self) -> None:
        self.confirm.hide()
        self.time_up.setVisible(self.all_placed.isVisible())
        self.simulated.setVisible(bool(self.simulated.text()) and self.all_placed.isVisible())

    def resizeEvent(self, event) -> None:
        side = int(min(self.height() * 0.36, self.width() * 0.17))
        self.countdown.setFixedSize(max(side, 90), max(side, 90))
        self.beside.setFixedHeight(max(side, 90))
        # A token is a card: no taller than about one and a half times its width.
        tall = max(int(self.width() * 0.4 / 3 * 1.5), 60)
        for card in self.tokens.values():
            card.setMaximumHeight(tall)
        super().resizeEvent(event)

