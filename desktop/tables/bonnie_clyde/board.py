"""The Bonnie and Clyde board drawn: the road from Kaufman, Texas (1) to Gibson, Louisiana (10)
with a sign at each location (its number, its name, the face-down card under it) and the Crime
Spree car driving along it; with the colours and words the rest of the table shares.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QRect, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFontMetrics, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import QSizePolicy, QWidget

from ... import style
from ...drawn import Piece, Step
from ...drawn import paint as pt
from ...drawn import text as txt

ROAD, ROAD_EDGE, ROAD_LINE = "#6E6A64", "#4A4742", "#F4E9C8"
SIGN, SIGN_EDGE = "#FFF6DF", "#5A4A36"
CAR = style.YELLOW            # the Crime Spree car: bright on the dark road, outlined in black


def cards_words(n: int) -> str:
    return "1 card" if n == 1 else f"{n} cards"


def location_colour(number: int) -> str:
    """An Evidence card's colour on the table, by its location (its number is always written on it)."""
    return style.kind_colour(number % 3)


def _draw(p: QPainter, drawn: txt.DrawnText, ink: str, *, bold: bool, family: str = "",
          align: Qt.AlignmentFlag = Qt.AlignHCenter) -> None:
    p.setPen(QColor(ink))
    txt.draw_lines(p, drawn.rect, tuple(drawn.text.split("\n")), drawn.px, bold=bold, align=align, family=family)


# --- the road -------------------------------------------------------------------------------
class LocationStop(Piece):
    """One location on the road: its sign (number and name) and the face-down card under it,
    or the dashed place of a card already taken. A click is a look at the card (when legal)."""

    def __init__(self, number: int, name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.number, self.name = number, name
        self.place = f"board/{number}"
        self.setObjectName(f"slot:{self.place}")
        self.setSizePolicy(QSizePolicy.Ignored, QSizePolicy.Ignored)
        self.present = True
        self.legal = self.chosen = False
        self._texts: list[txt.DrawnText] | None = None
        self._name_state()

    def show_stop(self, present: bool, legal: bool, chosen: bool) -> None:
        if (present, legal, chosen) != (self.present, self.legal, self.chosen):
            self.present, self.legal, self.chosen = present, legal, chosen
            self._texts = None
            self._name_state()
            self.update()

    def _name_state(self) -> None:
        mark = ", can be chosen" if self.legal else ", chosen" if self.chosen else ""
        self.setAccessibleName(self.text().replace("\n", " ") + mark)

    def text(self) -> str:
        return f"{self.number} {self.name}" + ("" if self.present else "\n(empty)")

    def sign_rect(self) -> QRectF:
        return QRectF(self.rect()).adjusted(3, 3, -3, -3)

    def card_rect(self) -> QRectF:
        """The card under the location, at the sign's left with the location's number on it."""
        sign = self.sign_rect()
        h = sign.height() - 10
        w = min(max(h * 0.45, QFontMetrics(txt.font(txt.LEAST_PX, True)).horizontalAdvance("10") + 10),
                sign.width() * 0.2)
        return QRectF(sign.left() + 5, sign.top() + 5, w, h)

    def resizeEvent(self, event) -> None:
        self._texts = None
        super().resizeEvent(event)

    def drawn_texts(self) -> list[txt.DrawnText]:
        if self._texts is None:
            sign, card = self.sign_rect(), self.card_rect()
            family = txt.narrow_family()
            room = QRectF(card.right() + 3, sign.top() + 1, sign.right() - card.right() - 5, sign.height() - 2)
            px, lines, fits = txt.fit(self.name, int(room.width()), int(room.height()), 32, bold=True,
                                      family=family, max_lines=3)
            h = len(lines) * txt.line_height(px, True, family)
            top = room.top() + (room.height() - h) / 2
            disc = self._disc()
            npx = min(max(int(disc.height() * 0.62), txt.LEAST_PX), 30)
            self._texts = [txt.DrawnText("\n".join(lines), px, QRect(int(room.left()), int(top), int(room.width()),
                                                                      h), fits, key=True),
                           txt.DrawnText(str(self.number), npx, disc.toAlignedRect(),
                                         txt.line_height(npx, True) <= disc.height() + 6)]
        return self._texts

    def _disc(self) -> QRectF:
        card = self.card_rect()
        d = min(card.width() - 2, card.height() * 0.6)
        return QRectF(card.center().x() - d / 2, card.center().y() - d / 2, d, d)

    def paintEvent(self, event) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.Antialiasing)
        sign = self.sign_rect()
        p.setPen(QPen(QColor(SIGN_EDGE), 2))
        p.setBrush(QColor(SIGN))
        p.drawRoundedRect(sign, 8, 8)
        card = self.card_rect()
        if self.present:
            pt.paint_back(p, card, style.kind_colour(0))
        else:                                     # the card was taken: its place, dashed
            p.setPen(QPen(QColor(pt.EMPTY), 2, Qt.DashLine))
            p.setBrush(QColor(0, 0, 0, 10))
            p.drawRoundedRect(card, 6, 6)
        disc = self._disc()
        p.setPen(QPen(QColor(SIGN_EDGE), 1.5))
        p.setBrush(QColor("#FFFFFF"))
        p.drawEllipse(disc)
        name, number = self.drawn_texts()
        p.setPen(QColor(style.INK))
        p.setFont(txt.font(number.px, True))
        p.drawText(disc, int(Qt.AlignCenter), number.text)
        _draw(p, name, style.INK, bold=True, family=txt.narrow_family())
        if self.legal and not self.chosen:
            pt.paint_legal_edge(p, sign, arrow_right=True)      # the number's disc is at the left
        pt.paint_chosen_and_focus(p, sign, chosen=self.chosen, focused=self.hasFocus(), radius=8)
        p.end()


class CarLayer(QWidget):
    """Over the road and its signs: the Crime Spree car (drawn by the road, which knows where it is)."""

    def __init__(self, road: "RouteBoard") -> None:
        super().__init__(road)
        self.road = road
        self.setAttribute(Qt.WA_TransparentForMouseEvents)
        self.setAttribute(Qt.WA_NoSystemBackground)
        self.setFocusPolicy(Qt.NoFocus)

    def paintEvent(self, event) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.Antialiasing)
        self.road.paint_car(p)
        p.end()


class RouteBoard(QWidget):
    """The road from Kaufman, Texas (1) to Gibson, Louisiana (10): along the top from 1 to 5, a
    hairpin, and back along the bottom from 6 to 10; a sign at each location, the car on the road."""

    def __init__(self, names: dict[int, str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("bc:route")
        self.setSizePolicy(QSizePolicy.Expanding, QSizePolicy.Expanding)
        self.setMinimumSize(300, 110)
        self.names = names
        self.stops = {n: LocationStop(n, name, self) for n, name in names.items()}
        #: where the engine says the car is
        self.car = 1
        #: a leg being driven now (from, to, 0..1); legs waiting: the car stays where it was drawn
        self.drive: tuple[int, int, float] | None = None
        self.waiting = 0
        self.shown_at: int | None = None
        self.facing = 1                      # +1: towards Gibson (10), -1: back towards Kaufman (1)
        self.path = QPainterPath()
        self.at: dict[int, float] = {}       # location -> its share of the road's length
        self.thick = 16.0
        self.layer = CarLayer(self)

    def count(self) -> int:
        return len(self.stops)

    # --- geometry -------------------------------------------------------------------------
    def _columns(self) -> int:
        return (self.count() + 1) // 2

    def resizeEvent(self, event) -> None:
        w, h = self.width(), self.height()
        self.thick = min(max(h * 0.1 if h >= 200 else h * 0.08, 11.0), 28.0)     # low: the signs keep the room
        gap = self.thick * 0.45
        y_a = h / 2 - gap / 2 - self.thick / 2
        y_b = h / 2 + gap / 2 + self.thick / 2
        radius = (y_b - y_a) / 2
        right = w - radius - self.thick / 2 - 4
        start = 4.0
        cols = self._columns()
        cw = (right - start) / cols
        self.path = QPainterPath(QPointF(start, y_a))
        self.path.lineTo(right, y_a)
        self.path.arcTo(QRectF(right - radius, y_a, 2 * radius, 2 * radius), 90, -180)
        self.path.lineTo(start, y_b)
        length = self.path.length()
        top_h = y_a - self.thick / 2 - 3
        bottom_y = y_b + self.thick / 2 + 3
        for n, stop in self.stops.items():
            col = n if n <= cols else 2 * cols + 1 - n
            x = start + cw * (col - 0.5)
            if n <= cols:
                stop.setGeometry(QRectF(x - cw / 2, 0, cw, top_h).toAlignedRect())
                along = x - start
            else:
                stop.setGeometry(QRectF(x - cw / 2, bottom_y, cw, h - bottom_y).toAlignedRect())
                along = (right - start) + math.pi * radius + (right - x)
            self.at[n] = along / length if length else 0.0
        self.layer.setGeometry(self.rect())
        self.layer.raise_()
        super().resizeEvent(event)

    def sizeHint(self) -> QSize:
        return QSize(800, 180)

    # --- the car --------------------------------------------------------------------------
    def set_car(self, number: int) -> None:
        if number != self.car:
            self.car = number
            self.layer.update()

    def car_share(self) -> float:
        """Where the car is drawn now, as a share of the road's length."""
        if self.drive is not None:
            a, b, t = self.drive
            return self.at.get(a, 0.0) + (self.at.get(b, 0.0) - self.at.get(a, 0.0)) * pt.ease(t)
        return self.at.get(self.shown_at if self.shown_at is not None else self.car, 0.0)

    def car_rect(self) -> QRectF:
        """The car's box on the road now (the tests read where it stands)."""
        point = self.path.pointAtPercent(min(max(self.car_share(), 0.0), 1.0))
        length, high = self._car_size()
        return QRectF(point.x() - length / 2, point.y() - high / 2, length, high)

    def _car_size(self) -> tuple[float, float]:
        cols = self._columns()
        cw = self.width() / cols if cols else 100.0
        length = min(cw * 0.5, self.thick * 3.4)
        return length, length * 0.5

    def leg(self, a: int, b: int) -> Step:
        """The car driving from location ``a`` to the next one, ``b``."""
        def hold() -> None:
            if self.waiting == 0 and self.drive is None:
                self.shown_at = a
            self.waiting += 1

        def progress(t: float) -> None:
            self.drive = (a, b, t) if t < 1.0 else None
            self.facing = 1 if b > a else -1
            self.layer.update()

        def land() -> None:
            self.drive = None
            self.waiting = max(self.waiting - 1, 0)
            self.shown_at = b if self.waiting else None
            self.layer.update()

        return Step(progress=progress, hold=hold, land=land, what="car")

    def paint_car(self, p: QPainter) -> None:
        if self.path.isEmpty():
            return
        share = min(max(self.car_share(), 0.0), 1.0)
        here = self.path.pointAtPercent(share)
        ahead = self.path.pointAtPercent(min(share + 0.004, 1.0))
        behind = self.path.pointAtPercent(max(share - 0.004, 0.0))
        angle = math.degrees(math.atan2(ahead.y() - behind.y(), ahead.x() - behind.x()))
        if self.facing < 0:
            angle += 180
        length, high = self._car_size()
        p.save()
        p.translate(here)
        p.rotate(angle)
        if math.cos(math.radians(angle)) < -0.01:
            p.scale(1, -1)               # driving leftwards: the wheels stay under the car
        paint_car(p, length, high)
        p.restore()

    # --- painting -------------------------------------------------------------------------
    def paintEvent(self, event) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.Antialiasing)
        p.setBrush(Qt.NoBrush)
        p.setPen(QPen(QColor(ROAD_EDGE), self.thick + 4, Qt.SolidLine, Qt.RoundCap, Qt.RoundJoin))
        p.drawPath(self.path)
        p.setPen(QPen(QColor(ROAD), self.thick, Qt.SolidLine, Qt.RoundCap, Qt.RoundJoin))
        p.drawPath(self.path)
        p.setPen(QPen(QColor(ROAD_LINE), max(self.thick / 9, 1.5), Qt.DashLine, Qt.FlatCap))
        p.drawPath(self.path)
        # A legal sign's halo, in the gap around it.
        for stop in self.stops.values():
            if stop.legal and not stop.chosen:
                sign = stop.sign_rect().translated(QPointF(stop.pos()))
                for grow, alpha, width in ((3, 80, 4), (1.5, 170, 3)):
                    c = QColor(style.HIGHLIGHT)
                    c.setAlpha(alpha)
                    p.setPen(QPen(c, width))
                    p.drawRoundedRect(sign.adjusted(-grow, -grow, grow, grow), 10, 10)
        p.end()


def paint_car(p: QPainter, length: float, high: float) -> None:
    """A 1930s car seen from the side, facing right, centred on the origin."""
    L, H = length, high
    p.setPen(Qt.NoPen)
    p.setBrush(QColor(0, 0, 0, 60))
    p.drawEllipse(QPointF(0, H * 0.42), L * 0.5, H * 0.12)
    outline = QPen(QColor("#1A1A1A"), max(H / 14, 1.5), Qt.SolidLine, Qt.RoundCap, Qt.RoundJoin)
    body = QPainterPath()
    body.moveTo(-L * 0.5, H * 0.3)
    body.lineTo(-L * 0.5, -H * 0.02)
    body.quadTo(-L * 0.46, -H * 0.12, -L * 0.3, -H * 0.12)      # the trunk
    body.lineTo(-L * 0.22, -H * 0.46)                           # the cab's back
    body.quadTo(-L * 0.18, -H * 0.52, -L * 0.08, -H * 0.52)
    body.lineTo(L * 0.1, -H * 0.52)
    body.lineTo(L * 0.2, -H * 0.14)                             # the windscreen
    body.lineTo(L * 0.44, -H * 0.1)                             # the bonnet
    body.quadTo(L * 0.52, -H * 0.06, L * 0.5, H * 0.3)
    body.closeSubpath()
    p.setPen(outline)
    p.setBrush(QColor(CAR))
    p.drawPath(body)
    p.setBrush(QColor("#BFE3F5"))                                # windows
    p.drawPolygon(QPolygonF([QPointF(-L * 0.17, -H * 0.16), QPointF(-L * 0.12, -H * 0.42),
                             QPointF(-L * 0.03, -H * 0.42), QPointF(-L * 0.03, -H * 0.16)]))
    p.drawPolygon(QPolygonF([QPointF(L * 0.01, -H * 0.16), QPointF(L * 0.01, -H * 0.42),
                             QPointF(L * 0.08, -H * 0.42), QPointF(L * 0.15, -H * 0.16)]))
    p.setBrush(QColor("#FFFFFF"))                                # a headlight
    p.drawEllipse(QPointF(L * 0.46, H * 0.02), H * 0.07, H * 0.07)
    for x in (-L * 0.3, L * 0.3):                                # wheels
        p.setBrush(QColor("#222222"))
        p.drawEllipse(QPointF(x, H * 0.3), H * 0.19, H * 0.19)
        p.setBrush(QColor("#BDBDBD"))
        p.drawEllipse(QPointF(x, H * 0.3), H * 0.08, H * 0.08)
