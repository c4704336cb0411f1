"""The cards on the Sudds & Malone table (issue 23): the Conspiracy's four face-down suspects (with
a face-up Flimflam card over one) and the Case display's cards."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from ... import style
from ...drawn import Piece, paint as pt, text as txt
from ...drawn.palette import readable_ink
from ...widgets import plain_tip
from .pieces import INK, PaintedOnce, SOFT_INK, SUSPECT_BACK, draw_placed, fit, paint_marks, place_lines


# --- the Conspiracy -----------------------------------------------------------------------------------
class ConspiracyCard(PaintedOnce, Piece):
    """One of the Conspiracy's four suspects: a face-down card with its number, a face-up Flimflam
    card lying over most of it when one covers it (the Flimflam's name and cost), or the suspect's
    name once the Conspiracy is turned up."""

    def __init__(self, place: str, number: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.place, self.number = place, number
        self.setObjectName(f"slot:{place}")
        self.legal = self.chosen = False
        self.name: str | None = None                    # the suspect, once turned up
        self.cover: tuple[str, str] | None = None       # the Flimflam on it: name, cost
        self.setSizePolicy(QSizePolicy.Ignored, QSizePolicy.Ignored)
        self._placed = None

    def show_card(self, *, name: str | None, cover: tuple[str, str] | None, legal: bool, chosen: bool) -> None:
        if (name, cover, legal, chosen) == (self.name, self.cover, self.legal, self.chosen):
            return
        self.name, self.cover, self.legal, self.chosen = name, cover, legal, chosen
        self._placed = None
        state = ", can be chosen" if legal else ", chosen" if chosen else ""
        self.setAccessibleName(self.text().replace("\n", ", ") + state)
        self.update()

    def text(self) -> str:
        words = [f"Suspect {self.number}", self.name or "face down"]
        if self.cover:
            words.append(f"covered by {self.cover[0]} ({self.cover[1]})")
        return "\n".join(words)

    def card_rect(self) -> QRectF:
        return QRectF(self.rect()).adjusted(pt.GLOW, pt.GLOW, -pt.GLOW, -pt.GLOW)

    def cover_rect(self) -> QRectF:
        card = self.card_rect()
        return card.adjusted(3, card.height() * 0.3, -3, pt.GLOW - 2)

    def _layout(self):
        if self._placed is None:
            card = self.card_rect()
            least = txt.KEY_PX if self.legal else txt.LEAST_PX
            placed = []
            if self.cover:
                top = QRectF(card.left() + 4, card.top() + 1, card.width() - 8, card.height() * 0.3 - 1)
                fitted, ok = fit([pt.Row(f"Suspect {self.number}", 22, bold=True, key=True, max_lines=1,
                                         ink=readable_ink(SUSPECT_BACK))], int(top.width()), int(top.height()))
                if not ok:
                    fitted, ok = fit([pt.Row(str(self.number), 22, bold=True, key=True, max_lines=1,
                                             ink=readable_ink(SUSPECT_BACK))],
                                     int(top.width()), int(top.height()))
                placed += place_lines(fitted, top)
                face = self.cover_rect()
                band = pt.band_height(face, pt.CardLook(caption=""))
                room = face.adjusted(3, band + 1, -3, -1)
                fitted, ok = fit([pt.Row(self.cover[0], 20, bold=room.height() > 40, max_lines=2),
                                  pt.Row(self.cover[1], 18, optional=True, max_lines=1)],
                                 int(room.width()), int(room.height()))
                placed += place_lines(fitted, room)
            else:
                band = pt.band_height(card, pt.CardLook(caption="")) if self.name else 0
                room = card.adjusted(6, 6 + band, -6, -6)
                ink = INK if self.name else readable_ink(SUSPECT_BACK)
                lines = [pt.Row(str(self.number), 34, least, bold=True, key=True, max_lines=1, ink=ink)]
                if self.name:
                    lines.append(pt.Row(self.name, 22, bold=True, max_lines=2))
                else:
                    lines.append(pt.Row("Suspect", 22, bold=True, optional=True, max_lines=1, ink=ink))
                fitted, ok = fit(lines, int(room.width()), int(room.height()))
                placed += place_lines(fitted, room)
            self._placed = placed
        return self._placed

    def drawn_texts(self) -> list[txt.DrawnText]:
        return [d for d, _ in self._layout()]

    def hitButton(self, pos) -> bool:
        return QRectF(self.rect()).contains(QPointF(pos))

    def paint_key(self) -> tuple:
        return (self.name, self.cover, self.legal, self.chosen, self.hasFocus())

    def _paint(self, p: QPainter) -> None:
        p.setRenderHint(QPainter.Antialiasing)
        card = self.card_rect()
        if self.name:
            pt.paint_face(p, card, pt.CardLook(caption="", colour=SUSPECT_BACK, name=self.name,
                                                symbol=style.kind_symbol(0), face_up=True))
        else:
            pt.paint_back(p, card, SUSPECT_BACK)
        if self.cover:
            face = self.cover_rect()
            pt.paint_face(p, face, pt.CardLook(caption="", colour=style.kind_colour(1),
                                                symbol=style.kind_symbol(1), name=self.cover[0], face_up=True))
        draw_placed(p, self._layout())
        paint_marks(p, card, legal=self.legal, chosen=self.chosen, focused=self.hasFocus())


# --- the Case display -------------------------------------------------------------------------------
class CaseCard(PaintedOnce, QWidget):
    """A Case card of the display, face up: the evidence it needs, its points, its cash and tabs,
    and its name (the name and the cash and tabs give way first when the card is small)."""

    def __init__(self, place: str, colour: str, symbol: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.place = place
        self.setObjectName(f"slot:{place}")
        self.colour, self.symbol = colour, symbol
        self.card: tuple[str, str, str, str] | None = None      # name, cost, points, extra
        self.setSizePolicy(QSizePolicy.Ignored, QSizePolicy.Ignored)
        self._placed: list[tuple[txt.DrawnText, pt.Row]] | None = None

    def set_card(self, card: tuple[str, str, str, str] | None) -> None:
        if card != self.card:
            self.card = card
            self._placed = None
            self.setAccessibleName(self.text().replace("\n", ", "))
            self.setToolTip(plain_tip(self.text().replace("\n", ": ", 1).replace("\n", ", ")))
            self.update()

    def text(self) -> str:
        return "\n".join(x for x in self.card if x) if self.card else "Case display\n(empty)"

    def card_rect(self) -> QRectF:
        # Never a legal choice: no room kept for a glow.
        return QRectF(self.rect()).adjusted(3, 3, -3, -3)

    def _layout(self) -> list[tuple[txt.DrawnText, pt.Row]]:
        if self._placed is None:
            card = self.card_rect()
            band = pt.band_height(card, pt.CardLook(caption=""))
            room = card.adjusted(5, band + 1, -5, -1)
            if self.card is None:
                lines = [pt.Row("(empty)", 18, ink=SOFT_INK, max_lines=2)]
            else:
                name, cost, worth, extra = self.card
                lines = [pt.Row(name, 18, bold=True, optional=True, max_lines=1, ink=SOFT_INK),
                         pt.Row(cost, 20, max_lines=3), pt.Row(worth, 22, bold=True, max_lines=1),
                         pt.Row(extra, 18, optional=True, max_lines=1)]
            fitted, ok = fit(lines, int(room.width()), int(room.height()))
            if not ok and self.card is not None:
                # A small card: how many evidence it needs (each one is named on the card's tooltip
                # and in Take Cases), and its points.
                n = len(self.card[1].split(", "))
                lines = [pt.Row(f"{n} evidence", 18, max_lines=1), pt.Row(self.card[2], 22, bold=True, max_lines=1)]
                fitted, ok = fit(lines, int(room.width()), int(room.height()))
            self._placed = place_lines(fitted, room)
        return self._placed

    def drawn_texts(self) -> list[txt.DrawnText]:
        return [d for d, _ in self._layout()]

    def paint_key(self) -> tuple:
        return (self.card,)

    def _paint(self, p: QPainter) -> None:
        p.setRenderHint(QPainter.Antialiasing)
        card = self.card_rect()
        if self.card is None:
            p.setPen(QPen(QColor(pt.EMPTY), 2, Qt.DashLine))
            p.setBrush(QColor(0, 0, 0, 12))
            p.drawRoundedRect(card, pt.RADIUS, pt.RADIUS)
        else:
            pt.paint_face(p, card, pt.CardLook(caption="", symbol=self.symbol, colour=self.colour,
                                                name=self.card[0], face_up=True))
        draw_placed(p, self._layout())
