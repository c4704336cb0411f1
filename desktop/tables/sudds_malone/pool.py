"""The dice pool drawn (issue 23): each die with its pips in its colour, grouped by colour with a
caption, a player's own die with a thick frame."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFontMetrics, QPainter, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from ...drawn import Piece, paint as pt, text as txt
from ...drawn.palette import readable_ink
from .dice import PERSONAL
from .pieces import INK, PaintedOnce, SOFT_INK, draw_placed, fit, place_lines


def paint_pool_die(p: QPainter, rect: QRectF, die: str, value: int | None, fill: str, angle: float = 0.0) -> None:
    """A die of the pool with its pips; a player's own die also has a thick frame, so it is told from
    the white, black and grey ones without its colour."""
    pt.paint_die(p, rect, pips=value, colour=fill, angle=angle)
    if die.startswith(PERSONAL):
        side = min(rect.width(), rect.height())
        p.save()
        p.translate(rect.center())
        p.rotate(angle)
        p.setBrush(Qt.NoBrush)
        p.setPen(QPen(QColor(INK), max(side / 14, 2.0)))
        frame = QRectF(-side / 2 - 2, -side / 2 - 2, side + 4, side + 4)
        p.drawRoundedRect(frame, side * 0.22, side * 0.22)
        p.restore()


# --- the dice pool ---------------------------------------------------------------------------------
class PoolDie(PaintedOnce, Piece):
    """One die of the pool, drawn from above with its pips in its colour. A die taken this round
    has left the pool (its place stays, dashed); a legal one glows, the one chosen is marked."""

    def __init__(self, die: str, fill: str, words: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.place = die
        self.setObjectName(f"slot:{die}")
        self.fill, self.words = fill, words
        self.value: int | None = None
        self.legal = self.chosen = False
        self.present = True
        self.angle = 0.0
        self.setSizePolicy(QSizePolicy.Ignored, QSizePolicy.Ignored)
        self.setMinimumSize(30, 30)

    def show_die(self, value: int | None, *, legal: bool, chosen: bool, present: bool) -> None:
        legal = legal and present
        if (value, legal, chosen, present) == (self.value, self.legal, self.chosen, self.present):
            return
        self.value, self.legal, self.chosen, self.present = value, legal, chosen, present
        shows = f"showing {value}" if value is not None else "not rolled yet"
        state = ", can be chosen" if legal else ", chosen" if chosen else ""
        self.setAccessibleName(f"{self.words} {shows}{state}" if present else f"{self.words}: taken")
        self.setEnabled(present)
        self.update()

    def text(self) -> str:
        return f"{self.value if self.value is not None else '?'} {self.words}"

    def die_rect(self) -> QRectF:
        side = max(min(self.width(), self.height()) - 2 * pt.GLOW, 8)
        return QRectF((self.width() - side) / 2, (self.height() - side) / 2, side, side)

    def paint_at(self, p: QPainter, rect: QRectF) -> None:
        paint_pool_die(p, rect, self.place, self.value, self.fill)

    def drawn_texts(self) -> list[txt.DrawnText]:
        if not self.present or self.value is not None:
            return []
        r = self.die_rect()
        return [txt.DrawnText("?", max(int(r.height() * 0.5), txt.LEAST_PX), r.toAlignedRect(), True)]

    def hitButton(self, pos) -> bool:
        return self.die_rect().adjusted(-pt.GLOW, -pt.GLOW, pt.GLOW, pt.GLOW).contains(QPointF(pos))

    def sizeHint(self) -> QSize:
        return QSize(56, 56)

    def paint_key(self) -> tuple:
        return (self.value, self.legal, self.chosen, self.present, self.angle, self.hasFocus(), self.fill)

    def _paint(self, p: QPainter) -> None:
        p.setRenderHint(QPainter.Antialiasing)
        r = self.die_rect()
        if not self.present:
            p.setPen(QPen(QColor(pt.EMPTY), 2, Qt.DashLine))
            p.setBrush(QColor(0, 0, 0, 10))
            p.drawRoundedRect(r, r.width() * 0.18, r.width() * 0.18)
        else:
            paint_pool_die(p, r, self.place, self.value, self.fill, self.angle)
            if self.value is None:
                p.setFont(txt.font(max(int(r.height() * 0.5), txt.LEAST_PX), True))
                p.setPen(QColor(readable_ink(self.fill)))
                p.drawText(r, int(Qt.AlignCenter), "?")
            if self.legal:
                pt.paint_glow(p, r)
            if self.chosen:
                pt.paint_chosen(p, r)
        if self.hasFocus():
            pt.paint_focus(p, r.adjusted(-4, -4, 4, 4), r.width() * 0.2)

class DicePool(PaintedOnce, QWidget):
    """The pool: the dice in groups (white, black, grey, then each player's own die), each group's
    words under it."""

    GAP = 10

    def __init__(self, groups: list[tuple[str, list[PoolDie]]], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("sm:pool")
        self.groups = groups
        for _, dice in groups:
            for die in dice:
                die.setParent(self)
        self.setSizePolicy(QSizePolicy.Ignored, QSizePolicy.Ignored)
        self._captions: list[tuple[txt.DrawnText, pt.Row]] = []
        self._version = 0           # the captions laid out again: painted again

    def dice(self) -> list[PoolDie]:
        return [d for _, dice in self.groups for d in dice]

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self.place_dice()

    CAPTION = 17
    #: a group's words (a player's own die: their name) may take this much more room than its dice
    CAPTION_MOST = 190

    def _caption_need(self, caption: str) -> int:
        """The width ``caption`` takes whole at the least size (at most ``CAPTION_MOST``)."""
        return min(QFontMetrics(txt.font(txt.LEAST_PX, True)).horizontalAdvance(caption) + 6, self.CAPTION_MOST)

    def _widths(self, slot: int) -> list[float]:
        """Each group's width: its dice, or its words whole when they are wider (a long name)."""
        return [max(slot * len(dice), self._caption_need(caption)) for caption, dice in self.groups]

    def natural_width(self, height: float, most: float = 10_000) -> int:
        """The width the dice take at their largest for ``height``, within ``most``."""
        slot = self._slot(most, height)
        return int(sum(self._widths(slot)) + self.GAP * (len(self.groups) - 1))

    def _slot(self, width: float, height: float) -> int:
        n = len(self.dice())
        room_w = width - self.GAP * (len(self.groups) - 1)
        slot = int(max(min(room_w / max(n, 1), height - txt.line_height(self.CAPTION, True) - 2, 76), 30))
        while slot > 30 and sum(self._widths(slot)) > room_w:
            slot -= 1           # the names kept whole: the dice a little smaller
        return slot

    def place_dice(self) -> None:
        slot = self._slot(self.width(), self.height())
        x = 0.0
        self._captions = []
        for (caption, dice), width in zip(self.groups, self._widths(slot)):
            left = x + (width - slot * len(dice)) / 2
            for i, die in enumerate(dice):
                die.setGeometry(int(left + i * slot), 0, slot, slot)
            room = QRectF(x, slot, width, self.height() - slot)
            words = caption
            fitted, ok = fit([pt.Row(words, 17, bold=True, max_lines=1, ink=SOFT_INK)], int(width),
                             int(room.height()))
            if not ok:          # a very long name: as much of it as fits at the least size
                metrics = QFontMetrics(txt.font(txt.LEAST_PX, True))
                words = metrics.elidedText(caption, Qt.ElideRight, int(width) - 2)
                fitted, ok = fit([pt.Row(words, txt.LEAST_PX, bold=True, max_lines=1, ink=SOFT_INK)],
                                 int(width), int(room.height()))
            self._captions += place_lines(fitted, room, centre=False)
            x += width + self.GAP
        self._version += 1
        self.update()

    def drawn_texts(self) -> list[txt.DrawnText]:
        return [d for d, _ in self._captions]

    def paint_key(self) -> tuple:
        return (self._version,)

    def _paint(self, p: QPainter) -> None:
        p.setRenderHint(QPainter.Antialiasing)
        draw_placed(p, self._captions)
