"""A panel's choices drawn as pieces of the table (issue 23): a choice with an emblem, words and
what it costs and gives; a column of the board, a snitch and a card as choices."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from ... import style
from ...drawn import Clickable, paint as pt, text as txt
from ...drawn.palette import readable_ink
from .pieces import (Fitted, INK, PAPER, PaintedOnce, SOFT_INK, clamp, draw_placed, elided, fit, mark_px, paint_mark,
                     paint_marks, place_lines)


# --- a panel's choices drawn as pieces of the table ------------------------------------------------
class PaintedChoice(PaintedOnce, Clickable):
    """A choice drawn as a piece of the table (issue 23): an emblem at its left (``emblem`` paints it),
    its name (the key words: 24 px or more while it is legal) and, under it, what it does. A legal one
    glows with the arrow, a chosen one is ticked, a refused one is greyed and not offered; Tab
    reaches it and Enter takes it, as a click on the piece (not on the glow's room around it) does."""

    PAD = 5.0

    def __init__(self, name: str, words: str, detail: str, emblem: Callable[[QPainter, QRectF], None], *,
                 legal: bool, chosen: bool, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName(name)
        self.words, self.detail, self.chosen = words, detail, chosen
        self.paint_emblem = emblem
        self.setEnabled(legal)
        self.setAccessibleName(self.text())
        self.setSizePolicy(QSizePolicy.Preferred, QSizePolicy.Fixed)

    @property
    def legal(self) -> bool:
        return self.isEnabled()

    def text(self) -> str:
        return f"{self.words} {self.detail}"

    def tile(self) -> QRectF:
        return QRectF(self.rect()).adjusted(pt.GLOW + 1, pt.GLOW + 1, -pt.GLOW - 1, -pt.GLOW - 1)

    def _emblem_side(self, height: float) -> float:
        return clamp(height - 2 * self.PAD, 20, 36)

    def _ink(self) -> str:
        return INK if self.legal else SOFT_INK

    def _name_row(self) -> pt.Row:
        return pt.Row(self.words, 26, txt.KEY_PX if self.legal else txt.LEAST_PX, bold=True, key=True,
                      max_lines=1, ink=self._ink())

    def _detail_row(self) -> pt.Row:
        return pt.Row(self.detail, 18, max_lines=2, ink=self._ink())

    def _detail_right(self, tile: QRectF) -> float:
        """Where the words under the name end (a choice with more to draw there leaves it room)."""
        return tile.right() - self.PAD

    def _rooms(self, tile: QRectF) -> tuple[QRectF, float, float, float]:
        """(the emblem, where the words start, where the name's line ends (the tick's room), where
        the line under it ends)."""
        side = self._emblem_side(tile.height())
        emblem = QRectF(tile.left() + self.PAD + 8, tile.center().y() - side / 2, side, side)   # clear of the arrow
        left = emblem.right() + self.PAD
        return emblem, left, tile.right() - self.PAD - pt.badge_size(tile) * 2, self._detail_right(tile)

    def _fit_name(self, width: float) -> Fitted:
        fitted, ok = fit([self._name_row()], width, 10_000)
        if not ok:          # a narrow piece: the name shortened with "…" (its whole name is its accessible name)
            row = self._name_row()
            fitted, _ = fit([pt.Row(elided(row.text, width), txt.LEAST_PX, bold=True, key=True, max_lines=1,
                                    ink=row.ink)], width, 10_000)
        return fitted

    def height_for(self, width: int, compact: bool = False) -> int:
        """The height that shows its words at their largest at ``width`` (``compact``, as a ChoiceButton
        takes it, changes nothing: a drawn choice has no padding to spare)."""
        tile = QRectF(0, 0, width, 80).adjusted(pt.GLOW + 1, pt.GLOW + 1, -pt.GLOW - 1, -pt.GLOW - 1)
        _, left, name_right, detail_right = self._rooms(tile)
        name = self._fit_name(name_right - left)
        detail, _ = fit([self._detail_row()], detail_right - left, 10_000)
        words = name[2] + pt.GAP + max(detail[2], 14)
        return int(max(words, 36) + 2 * self.PAD + 2 * (pt.GLOW + 1))

    def keep_height(self, height: int) -> None:
        self.setFixedHeight(height)

    def sizeHint(self) -> QSize:
        return QSize(300, self.height_for(300))

    def layout(self) -> tuple[QRectF, list[tuple[txt.DrawnText, pt.Row]], QRectF]:
        """(the emblem, the placed words, the line under the name): the name on top, what the choice
        does under it."""
        if self._placed is None:
            tile = self.tile()
            emblem, left, name_right, detail_right = self._rooms(tile)
            name = self._fit_name(name_right - left)
            name_room = QRectF(left, tile.top() + self.PAD, name_right - left, name[2])
            top = name_room.bottom() + pt.GAP
            detail_room = QRectF(left, top, detail_right - left, tile.bottom() - self.PAD - top)
            detail, _ = fit([self._detail_row()], detail_room.width(), detail_room.height())
            placed = place_lines(name, name_room, centre=False) + place_lines(detail, detail_room)
            self._placed = (emblem, placed, detail_room)
        return self._placed

    def drawn_texts(self) -> list[txt.DrawnText]:
        return [d for d, _ in self.layout()[1]]

    def hitButton(self, pos) -> bool:
        return self.tile().contains(QPointF(pos))

    def paint_key(self) -> tuple:
        return (self.words, self.detail, self.chosen, self.hasFocus(), self.isEnabled())

    def paint_beside(self, p: QPainter, tile: QRectF, detail_room: QRectF) -> None:
        """What a choice draws right of the line under its name (nothing, unless it says so)."""

    def _paint(self, p: QPainter) -> None:
        p.setRenderHint(QPainter.Antialiasing)
        tile = self.tile()
        p.setPen(QPen(QColor("#8A8A8A"), 2))
        p.setBrush(QColor(PAPER if self.legal else "#EDEAE2"))
        p.drawRoundedRect(tile, 10, 10)
        emblem, placed, detail_room = self.layout()
        self.paint_emblem(p, emblem)
        draw_placed(p, placed, Qt.AlignLeft)
        self.paint_beside(p, tile, detail_room)
        paint_marks(p, tile, legal=self.legal, chosen=self.chosen, focused=self.hasFocus())


@dataclass(frozen=True)
class ColumnLook:
    """A column of a player's board as The Office offers it."""

    name: str               # "Calendar"
    pips: int               # its die value (1-6): the face beside its name
    level: int              # the level it reaches with the steps chosen so far (1-4)
    reached: int            # the level it has now (the boxes past it are the chosen steps)
    colour: str             # the player's colour (the boxes reached)
    step: str               # the next step in words ("to 2: $1, 1 point", "at the top")
    legal: bool = False
    chosen: int = 0         # how many of the chosen steps are this column's


class ColumnChoice(PaintedChoice):
    """A column of the player's board as The Office's choice: its die face, its name, what its next
    step costs and gives, and its level as four boxes (the ones the chosen steps add in the chosen
    colour), with the player's colour down its left edge."""

    BOX = 14.0

    def __init__(self, name: str, look: ColumnLook, parent: QWidget | None = None) -> None:
        self.look = look
        super().__init__(name, look.name, look.step, lambda p, rect: pt.paint_die(p, rect, pips=look.pips),
                         legal=look.legal, chosen=bool(look.chosen), parent=parent)

    def _detail_right(self, tile: QRectF) -> float:
        return tile.right() - 2 * self.PAD - 4 * (self.BOX + 3) + 3

    def paint_key(self) -> tuple:
        return (self.look, self.hasFocus(), self.isEnabled())

    def paint_beside(self, p: QPainter, tile: QRectF, detail_room: QRectF) -> None:
        look = self.look
        p.setPen(Qt.NoPen)
        p.setBrush(QColor(look.colour))
        p.drawRoundedRect(QRectF(tile.left(), tile.top(), 6, tile.height()), 3, 3)
        left = detail_room.right() + self.PAD
        for k in range(4):
            cell = QRectF(left + k * (self.BOX + 3), detail_room.center().y() - self.BOX / 2, self.BOX, self.BOX)
            level = k + 1
            fill = look.colour if level <= look.reached else style.CHOSEN if level <= look.level else "#FFFFFF"
            p.setPen(QPen(QColor("#444444"), 1.5))
            p.setBrush(QColor(fill))
            p.drawRect(cell)


class SnitchChoice(PaintedChoice):
    """A snitch on the path as Investigate's choice: the snitch (a rounded square in its owner's
    colour with its evidence's letter, as on the map), whose it is and what it gives."""

    def __init__(self, name: str, words: str, detail: str, owner_colour: str, evidence: str, *, legal: bool,
                 chosen: bool, parent: QWidget | None = None) -> None:
        self.evidence = evidence
        super().__init__(name, words, detail, lambda p, rect: paint_mark(p, rect, owner_colour, evidence, square=True),
                         legal=legal, chosen=chosen, parent=parent)

    def drawn_texts(self) -> list[txt.DrawnText]:
        emblem = self.layout()[0]
        return super().drawn_texts() + [txt.DrawnText(self.evidence[:1].upper(), mark_px(emblem),
                                                      emblem.toAlignedRect(), True)]


class CardChoice(PaintedChoice):
    """A card as a panel's choice (issue 29: cards chosen as drawn cards, never from a drop-down): a
    small card in its deck's colour with a letter (a Case card's C, a Flimflam card's back), its name
    and, under it, what it needs and gives, or where it lies."""

    def __init__(self, name: str, words: str, detail: str, colour: str, letter: str, *, legal: bool = True,
                 chosen: bool = False, parent: QWidget | None = None) -> None:
        self.letter = letter
        super().__init__(name, words, detail, lambda p, rect: self._paint_card(p, rect, colour), legal=legal,
                         chosen=chosen, parent=parent)

    def _emblem_side(self, height: float) -> float:
        return clamp(height - 2 * self.PAD, 26, 32)

    def _card(self, rect: QRectF) -> QRectF:
        """The card upright in the emblem's square."""
        w = rect.height() * 0.72
        return QRectF(rect.center().x() - w / 2, rect.top(), w, rect.height())

    def _paint_card(self, p: QPainter, rect: QRectF, colour: str) -> None:
        card = self._card(rect)
        p.setPen(QPen(QColor("#1A1A1A"), 1.5))
        p.setBrush(QColor(colour))
        p.drawRoundedRect(card, 4, 4)
        p.setFont(txt.font(self._letter_px(card), True))
        p.setPen(QColor(readable_ink(colour)))
        p.drawText(card, int(Qt.AlignCenter), self.letter[:1].upper())

    def height_for(self, width: int, compact: bool = False) -> int:
        """A card named in one line (a Flimflam card's back) is one line high."""
        if self.detail:
            return super().height_for(width, compact)
        tile = QRectF(0, 0, width, 80).adjusted(pt.GLOW + 1, pt.GLOW + 1, -pt.GLOW - 1, -pt.GLOW - 1)
        _, left, name_right, _ = self._rooms(tile)
        return int(max(self._fit_name(name_right - left)[2], 32) + 2 * self.PAD + 2 * (pt.GLOW + 1))

    def layout(self):
        if self.detail or self._placed is not None:
            return super().layout()
        tile = self.tile()
        emblem, left, name_right, _ = self._rooms(tile)
        name = self._fit_name(name_right - left)
        self._placed = (emblem, place_lines(name, QRectF(left, tile.top(), name_right - left, tile.height())),
                        QRectF(left, tile.bottom(), 0, 0))
        return self._placed

    @staticmethod
    def _letter_px(card: QRectF) -> int:
        return max(int(card.width() * 0.7), txt.LEAST_PX)

    def drawn_texts(self) -> list[txt.DrawnText]:
        card = self._card(self.layout()[0])
        return super().drawn_texts() + [txt.DrawnText(self.letter[:1].upper(), self._letter_px(card),
                                                      card.toAlignedRect(), True)]
