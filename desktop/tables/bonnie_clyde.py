"""The Bonnie and Clyde Mystery Rummy table: the ten locations as the road the Crime Spree car
drives, the car on it, the Case File and the FBI Files as piles, and in front of each player
what they laid down.

Everything is drawn from the engine's shared view and the public state (what lies face up,
how many cards each hand holds, the car, the scores). The card under a location is a face-down
card until someone captures it; the look is asked behind the privacy gate by the shell (the
engine's ``look`` option is private). When the car moves it is seen driving along the road,
one location at a time. Cards laid face up from a hand (a meld, a layoff, Ted Hinton, a discard)
are read by the camera or picked, on the shared screen: a meld or a layoff is the shell's list
read (several cards from the hand). What Ted Hinton does is this table's own small panel.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QPoint, QPointF, QRect, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import QHBoxLayout, QSizePolicy, QVBoxLayout, QWidget

from engine.game import Journal, Option
from engine.session import PlayerView

from .. import style
from ..drawn import DrawnCard, Piece, FlightLayer, MotionQueue, Step, flight_step, player_colours
from ..drawn import paint as pt
from ..drawn import text as txt
from ..drawn.items import paint_look, paint_player_disc
from ..drawn.moves import token_places
from ..private import journal_table
from ..table_base import GameTable, TableShell
from ..widgets import button, label
from .name_room import fit_name

HAND_PLAYS = ("meld", "layoff", "hinton", "discard", "note_hand")
ROAD, ROAD_EDGE, ROAD_LINE = "#6E6A64", "#4A4742", "#F4E9C8"
SIGN, SIGN_EDGE = "#FFF6DF", "#5A4A36"
CAR = style.YELLOW            # the Crime Spree car: bright on the dark road, outlined in black
PER_ROW = 5                   # locations 1-5 along the top of the road, 6-10 back along the bottom


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
        w = min(max(h * 0.5, QFontMetrics(txt.font(txt.LEAST_PX, True)).horizontalAdvance("10") + 10),
                sign.width() * 0.22)
        return QRectF(sign.left() + 5, sign.top() + 5, w, h)

    def resizeEvent(self, event) -> None:
        self._texts = None
        super().resizeEvent(event)

    def drawn_texts(self) -> list[txt.DrawnText]:
        if self._texts is None:
            sign, card = self.sign_rect(), self.card_rect()
            family = txt.narrow_family()
            room = QRectF(card.right() + 4, sign.top() + 3, sign.right() - card.right() - 7, sign.height() - 6)
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
        self.thick = min(max(h * 0.1, 12.0), 28.0)
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


# --- in front of each player -----------------------------------------------------------------
def paint_laid_card(p: QPainter, rect: QRectF, colour: str) -> None:
    """A card laid face up in front of a player: a white face with a band in its colour."""
    p.setPen(QPen(QColor("#333333"), 1.5))
    p.setBrush(QColor(pt.FACE))
    p.drawRoundedRect(rect, 5, 5)
    band = QRectF(rect.left() + 1, rect.bottom() - max(rect.height() * 0.22, 5), rect.width() - 2,
                  max(rect.height() * 0.22, 5) - 1)
    p.setPen(Qt.NoPen)
    p.setBrush(QColor(colour))
    p.drawRoundedRect(band, 3, 3)


class PlayerStrip(QWidget):
    """One player at the table: their name in their colour, the cards in their hand (a count),
    their melds as overlapping face-up cards (sideways ones drawn sideways), the outlaws they
    captured, and their points this hand and in all."""

    def __init__(self, player: str, colour: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.player, self.colour = player, colour
        self.setObjectName(f"bc:player:{player}")
        self.setSizePolicy(QSizePolicy.Ignored, QSizePolicy.Ignored)
        self.setMinimumHeight(30)
        self.current = False
        self.hand = 0
        self.melds: list[tuple[int, int, bool]] = []      # (location, cards, sideways)
        self.outlaws: list[str] = []
        self.points = 0
        self.total = 0
        self._narrow = 0
        self._layout: tuple | None = None
        #: a meld ((location, sideways)) or the outlaws ("outlaws") a card is flying to: how many of
        #: its cards show until it lands, and how many flights are on their way to it
        self.kept: dict[object, list[int]] = {}

    def show_player(self, *, current: bool, hand: int, melds: list[tuple[int, int, bool]], outlaws: list[str],
                    points: int, total: int, names: dict[int, str]) -> None:
        state = (current, hand, melds, outlaws, points, total)
        if state != (self.current, self.hand, self.melds, self.outlaws, self.points, self.total):
            self.current, self.hand, self.melds, self.outlaws, self.points, self.total = state
            self.names = names
            self._layout = None
            self.setAccessibleName(self.text())
            self.update()

    def table_words(self) -> str:
        melds = [f"{self.names[n]} x{k}" + (" sideways" if side else "") for n, k, side in self.melds]
        return ", ".join(melds + self.outlaws) or "nothing"

    def text(self) -> str:
        now = "playing now; " if self.current else ""
        return (f"{self.player}: {now}{cards_words(self.hand)} in hand; on the table: {self.table_words()}; "
                f"this hand {self.points}; total {self.total}")

    def resizeEvent(self, event) -> None:
        self._layout = None
        super().resizeEvent(event)

    # --- cards on their way here ------------------------------------------------------------
    def keep(self, key: object, before: int) -> None:
        """A card is on its way to ``key``, which held ``before`` cards: it shows them until the card lands."""
        if key in self.kept:
            self.kept[key][1] += 1
        else:
            self.kept[key] = [before, 1]
            self._layout = None
            self.update()

    def let_go(self, key: object) -> None:
        kept = self.kept.get(key)
        if kept is not None:
            kept[1] -= 1
            if kept[1] <= 0:
                del self.kept[key]
            self._layout = None
            self.update()

    def _shown(self) -> tuple[list[tuple[int, int, bool]], list[str]]:
        """The melds and outlaws drawn now: a place a card flies to keeps its count from before."""
        melds = [(n, self.kept[(n, side)][0] if (n, side) in self.kept else k, side) for n, k, side in self.melds]
        outlaws = self.outlaws[:self.kept["outlaws"][0]] if "outlaws" in self.kept else self.outlaws
        return [m for m in melds if m[1] > 0], outlaws

    def landing_rects(self, key: object) -> list[QRectF]:
        """Where the cards of a meld ((location, sideways)) or of the outlaws ("outlaws") lie once
        every card on its way has landed, in this widget (the last ones are the newest)."""
        _, cards, _, keys = self._compute(self.melds, self.outlaws)
        return [card[0] for card, k in zip(cards, keys) if k == key]

    def hand_rect(self, size) -> QRectF:
        """A card of ``size`` over the hand's count (where a card leaves from or goes to a hand)."""
        texts = self.layout_parts()[0]
        centre = QRectF(texts[1][0].rect).center() if len(texts) > 1 else QRectF(self.rect()).center()
        return QRectF(centre.x() - size.width() / 2, centre.y() - size.height() / 2, size.width(), size.height())

    def card_size(self):
        """The size of a card laid down in this row."""
        _, cards, _, _ = self._compute([(1, 1, False)], [])
        return cards[0][0].size()

    def layout_parts(self):
        """(texts with their bold and ink, the cards as (rect, colour, sideways, face text), the disc)."""
        if self._layout is None:
            self._layout = self._compute(*self._shown())
        return self._layout[:3]

    def _compute(self, melds: list[tuple[int, int, bool]], outlaws: list[str]):
        r = QRectF(self.rect()).adjusted(4, 2, -4, -2)
        h = r.height()
        texts: list[tuple[txt.DrawnText, bool]] = []
        # The name and the hand's count at the left.
        grow = min(max(h / 60, 1.0), 1.5)          # a roomy screen: larger type
        name_px, hand_px, points_px = int(24 * grow), int(17 * grow), int(19 * grow)
        disc = min(h - 6, 34.0 * grow)
        left = QRectF(r.left() + 10 + disc + 6, r.top(), min(r.width() * 0.25, 260.0 * grow), h)
        two = h >= txt.line_height(24, True) + txt.line_height(txt.LEAST_PX) + 2
        hand = f"{cards_words(self.hand)} in hand"
        if two:
            name_h = h - txt.line_height(hand_px)
            px, lines, family, fits = fit_name(self.player, int(left.width()), int(name_h), name_px)
            nh = len(lines) * txt.line_height(px, True, family)
            top = r.top() + max((h - nh - txt.line_height(hand_px)) / 2, 0)
            texts.append((txt.DrawnText("\n".join(lines), px, QRect(int(left.left()), int(top), int(left.width()), nh),
                                        fits, key=self.current, family=family), True))
            hpx, hlines, hfits = txt.fit(hand, int(left.width()), txt.line_height(hand_px), hand_px, max_lines=1)
            texts.append((txt.DrawnText("\n".join(hlines), hpx, QRect(int(left.left()), int(top + nh),
                                                                       int(left.width()), txt.line_height(hpx)),
                                        hfits), False))
        else:
            # The hand's count keeps its room; the name has the rest (shortened with "…" if need be).
            words = cards_words(self.hand)
            hpx, hlines, hfits = txt.fit(words, int(left.width() * 0.4), int(h), hand_px, max_lines=1)
            hw = QFontMetrics(txt.font(hpx)).horizontalAdvance(hlines[0]) + 2
            px, lines, family, fits = fit_name(self.player, int(left.width() - hw - 10), int(h), name_px, max_lines=1)
            nw = QFontMetrics(txt.font(px, True, QFont(family or txt.app_family()))).horizontalAdvance(lines[0])
            nh = txt.line_height(px, True, family)
            texts.append((txt.DrawnText(lines[0], px, QRect(int(left.left()), int(r.top() + (h - nh) / 2),
                                                            int(nw + 2), nh), fits, key=self.current, family=family),
                          True))
            hh = txt.line_height(hpx)
            texts.append((txt.DrawnText(hlines[0], hpx, QRect(int(left.left() + nw + 10), int(r.top() + (h - hh) / 2),
                                                              int(hw), hh), hfits), False))
        # The points at the right (in the narrow face: two numbers and their words in little room).
        family = txt.narrow_family()
        right = QRectF(r.right() - min(r.width() * 0.2, 170.0 * grow), r.top(), min(r.width() * 0.2, 170.0 * grow), h)
        lines_pts = [f"This hand: {self.points}", f"Total: {self.total}"]
        if h >= 2 * txt.line_height(txt.LEAST_PX, True, family) + 2:
            each = min(h / 2, txt.line_height(points_px, True, family) * 1.2)
            for i, words in enumerate(lines_pts):
                ppx, plines, pfits = txt.fit(words, int(right.width()), int(each), points_px, bold=i == 1,
                                             family=family, max_lines=1)
                ph = txt.line_height(ppx, i == 1, family)
                y = r.top() + (h - 2 * each) / 2 + each * i + (each - ph) / 2
                texts.append((txt.DrawnText("\n".join(plines), ppx, QRect(int(right.left()), int(y),
                                                                           int(right.width()), ph), pfits), i == 1))
        else:
            words = f"This hand: {self.points} \u00b7 Total: {self.total}"
            ppx, plines, pfits = txt.fit(words, int(right.width()), int(h), points_px, bold=True, family=family,
                                         max_lines=1)
            ph = txt.line_height(ppx, True, family)
            texts.append((txt.DrawnText("\n".join(plines), ppx, QRect(int(right.left()), int(r.top() + (h - ph) / 2),
                                                                       int(right.width()), ph), pfits), True))
        self._narrow = len(texts)        # the texts from here on are in the narrow face
        # The cards laid down, between.
        middle = QRectF(left.right() + 10, r.top() + 2, right.left() - left.right() - 20, h - 4)
        cards, keys = self._cards(middle, texts, hand_px, melds, outlaws)
        return texts, cards, QRectF(r.left() + 6, r.top() + (h - disc) / 2, disc, disc), keys

    def _cards(self, room: QRectF, texts: list[tuple[txt.DrawnText, bool]], words_px: int,
               melds: list[tuple[int, int, bool]], outlaws_laid: list[str]):
        """Each card in front of the player: (rect, colour, sideways, its number), and what each
        belongs to (a meld's (location, sideways), or "outlaws"); the words on the cards are added
        to ``texts``. A meld is a cascade: each card shows its location's number where there is
        room for it, the top one always."""
        family = txt.narrow_family()
        ch = room.height()
        bold = QFontMetrics(txt.font(txt.LEAST_PX, True, QFont(family)))
        number_w = bold.horizontalAdvance("10") + 8
        cw = max(ch * 0.7, number_w + 4)
        groups: list[tuple[str, list[tuple[int, bool]]]] = [("meld", [(n, side)] * k) for n, k, side in melds]
        groups += [("outlaw", [(0, False)]) for _ in outlaws_laid]
        if not groups:
            words = "nothing on the table yet"
            px, lines, fits = txt.fit(words, int(room.width()), int(ch), words_px, max_lines=2)
            lh = len(lines) * txt.line_height(px)
            texts.append((txt.DrawnText("\n".join(lines), px, QRect(int(room.left()), int(room.top() + (ch - lh) / 2),
                                                                     int(room.width()), lh), fits), False))
            return [], []
        # An outlaw's card is as wide as its name on one line (two when the card is high enough).
        outlaw_lines = 2 if ch >= 2 * txt.line_height(txt.LEAST_PX, True, family) + 6 else 1
        outlaw_w = max(ch * 1.2, max((max(bold.horizontalAdvance(w) for w in (name.split() if outlaw_lines == 2
                                                                                else [name])) + 12
                                      for name in outlaws_laid), default=0))
        gap = 10.0

        def width(step: float, gap: float) -> float:
            total = 0.0
            for kind, cards in groups:
                total += outlaw_w if kind == "outlaw" else (ch if cards[0][1] else cw) + step * (len(cards) - 1)
            return total + gap * (len(groups) - 1)

        step = max(cw * 0.55, number_w)
        while step > 5 and width(step, gap) > room.width():
            step -= 1
        while gap > 4 and width(step, gap) > room.width():
            gap -= 1
        out: list[tuple[QRectF, str, bool, str]] = []
        keys: list[object] = []
        x = room.left()
        outlaws = iter(outlaws_laid)
        for kind, cards in groups:
            if kind == "outlaw":
                rect = QRectF(x, room.top(), outlaw_w, ch)
                name = next(outlaws)
                px, lines, fits = txt.fit(name, int(rect.width() - 10), int(rect.height() - 4), 20, bold=True,
                                          family=family, max_lines=outlaw_lines)
                lh = len(lines) * txt.line_height(px, True, family)
                texts.append((txt.DrawnText("\n".join(lines), px, QRect(int(rect.left() + 5),
                                                                         int(rect.top() + (ch - lh) / 2),
                                                                         int(rect.width() - 10), lh),
                                            fits and rect.right() <= room.right() + 1), True))
                out.append((rect, style.VERMILLION, False, ""))
                keys.append("outlaws")
                x += outlaw_w + gap
                continue
            for i, (n, side) in enumerate(cards):
                # A sideways meld lies sideways: wider than high (the car was there: more points).
                rect = QRectF(x, room.top() + (ch - cw if side else 0), ch if side else cw, cw if side else ch)
                last = i == len(cards) - 1
                if last or step >= number_w:
                    shown = rect.width() if last else step
                    px = min(max(int(min(rect.height() * 0.5, shown * 0.8)), txt.LEAST_PX), 28)
                    text_rect = QRect(int(rect.left() + 3), int(rect.top() + 2), int(shown - 4),
                                      txt.line_height(px, True, family))
                    texts.append((txt.DrawnText(str(n), px, text_rect, rect.right() <= room.right() + 1
                                                and text_rect.bottom() <= rect.bottom() + 1), True))
                out.append((rect, location_colour(n), side, str(n)))
                keys.append((n, side))
                x += step if not last else rect.width()
            x += gap
        return out, keys

    def drawn_texts(self) -> list[txt.DrawnText]:
        return [drawn for drawn, _ in self.layout_parts()[0]]

    def paintEvent(self, event) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.Antialiasing)
        r = QRectF(self.rect()).adjusted(1.5, 1.5, -1.5, -1.5)
        tint = QColor(self.colour)
        tint.setAlpha(45 if self.current else 0)
        p.setPen(QPen(QColor(self.colour) if self.current else QColor("#B8B0A0"), 3 if self.current else 1.5))
        p.setBrush(QColor("#FFFDF7"))
        p.drawRoundedRect(r, 10, 10)
        p.setPen(Qt.NoPen)
        p.setBrush(tint)
        p.drawRoundedRect(r, 10, 10)
        p.setBrush(QColor(self.colour))
        p.drawRoundedRect(QRectF(r.left(), r.top(), 7, r.height()), 3, 3)
        texts, cards, disc = self.layout_parts()
        paint_player_disc(p, disc, self.colour, self.player)
        family = txt.narrow_family()
        for rect, colour, side, _ in cards:
            paint_laid_card(p, rect, colour)
        for i, (drawn, bold) in enumerate(texts):
            if i < 2:                                      # the name and the hand's count
                _draw(p, drawn, style.INK, bold=bold, family=drawn.family, align=Qt.AlignLeft)
            elif i < self._narrow:                         # the points
                _draw(p, drawn, style.INK, bold=bold, family=family, align=Qt.AlignRight)
            elif cards:                                    # the words on the cards laid down
                _draw(p, drawn, style.INK, bold=bold, family=family, align=Qt.AlignLeft)
            else:                                          # nothing laid down yet
                _draw(p, drawn, "#555555", bold=bold, align=Qt.AlignLeft)
        p.end()


# --- the table ------------------------------------------------------------------------------
class BonnieClydeTable(GameTable):
    """The road with its ten locations and the car; the Case File and FBI Files; the players."""

    def __init__(self, shell: TableShell) -> None:
        super().__init__(shell)
        session = self.controller.session
        rules = session.rules
        self.board = rules.board
        self.colours = player_colours(session.players)
        outer = QHBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(8)
        left = QVBoxLayout()
        left.setSpacing(4)
        self.route = RouteBoard({n: self.board.name(n) for n in self.board.numbers})
        self.slots: dict[str, QWidget] = {}
        for n, stop in self.route.stops.items():
            stop.picked.connect(self._stop_picked)
            stop.refused.connect(self.place_refused)
            self.slots[stop.place] = stop
        left.addWidget(self.route, 12)
        self.car = label("", wrap=False)
        self.car.setObjectName("bc:car")
        self.car.setStyleSheet("font-size: 13pt; font-weight: bold;")
        self.car.setSizePolicy(QSizePolicy.Ignored, QSizePolicy.Preferred)
        left.addWidget(self.car)
        # In front of each player: one strip each.
        self.players: dict[str, PlayerStrip] = {}
        self.lines = QWidget()
        rows = QVBoxLayout(self.lines)
        rows.setContentsMargins(0, 0, 0, 0)
        rows.setSpacing(4)
        for player in session.players:
            strip = PlayerStrip(player, self.colours[player])
            self.players[player] = strip
            rows.addWidget(strip, 1)
        left.addWidget(self.lines, 8)
        self.panel = self._panel()
        left.addWidget(self.panel, 8)
        self.panel.hide()
        outer.addLayout(left, 5)
        piles = QVBoxLayout()
        piles.setSpacing(4)
        for place in ("casefile", "files"):
            card = DrawnCard(place)
            card.setMinimumSize(120, 60)
            card.picked.connect(self.place_clicked)
            card.refused.connect(self.place_refused)
            self.slots[place] = card
            piles.addWidget(card, 1)
        outer.addLayout(piles, 1)
        self.pending: tuple[Option, str] | None = None
        #: Ted Hinton is about to look: the locations he may look under glow, a click chooses
        self.looking = False
        self._last: tuple | None = None
        self.motion = MotionQueue(self)
        self.flights = FlightLayer(self)
        #: what the family last saw: the car (where, in which hand), where each card lay, the FBI
        #: Files' top card; a move made while the table was hidden (behind the privacy gate) is
        #: played when it shows again, so the family sees it
        self._car_seen: tuple[int, int] | None = None
        self._places_seen: dict[int, str] | None = None
        self._hand_seen = 0
        self._files_seen = self.slots["files"].look
        self._unseen = False

    def _panel(self) -> QWidget:
        """What Ted Hinton does: draw two, take from the FBI Files, or look under a location (then
        the locations he may look under glow on the board, and a click on one chooses it). One
        row over the players' lines, which stay in sight."""
        panel = QWidget()
        layout = QVBoxLayout(panel)
        layout.setContentsMargins(0, 0, 0, 0)
        self.panel_title = label("", "heading")
        self.panel_title.setObjectName("bc:panel-title")
        layout.addWidget(self.panel_title)
        uses = QHBoxLayout()
        uses.setContentsMargins(0, 0, 0, 0)
        for use, words in (("draw", "Draw 2 cards"), ("take", "Take from the FBI Files"),
                           ("look", "Look under a location")):
            b = button(words, name=f"bc:use:{use}")
            b.clicked.connect(lambda _=False, u=use: self._hinton(u))
            uses.addWidget(b, 1)
        cancel = button("Cancel", name="bc:cancel")
        cancel.clicked.connect(self._close)
        uses.addWidget(cancel)
        layout.addLayout(uses)
        return panel

    # --- the contract ------------------------------------------------------------------
    def shows(self, place: str) -> bool:
        return place in self.slots

    def handles(self, option: Option) -> bool:
        return option.action in HAND_PLAYS

    def start(self, option: Option, player: str) -> None:
        """Cards from a hand: the shell's reads. Ted Hinton: this table's panel first."""
        hand = f"{player}/hand"
        if option.action == "discard":
            self.shell.read_cards({"type": "discard", "player": player}, [("card", hand)],
                                  private=False, heading=f"{player}, show the card you discard.")
            return
        if option.action == "note_hand":
            self.shell.read_card_list({"type": "note_hand", "player": player}, "cards", hand, private=True,
                                      heading=f"{player}, show the cards of your hand you want noted in your "
                                              f"journal.", least=1)
            return
        if option.action in ("meld", "layoff"):
            meld = option.action == "meld"
            what = ("three or more Evidence cards of one location" if meld else
                    "one Evidence card, or two of the same location, for a meld on the table")
            self.shell.read_card_list({"type": option.action, "player": player}, "cards", hand, private=False,
                                      heading=f"{player}, lay {what} face up.", least=3 if meld else 1,
                                      most=None if meld else 2, kinds=("evidence",),
                                      demo_cards=self._demo_play(player, meld))
            return
        self.pending = (option, player)
        self.looking = False
        self.panel_title.setText(f"{player}, what does Ted Hinton do?")
        for use in ("draw", "take", "look"):       # only what he may do now
            self.panel.findChild(QWidget, f"bc:use:{use}").setVisible(use in option.targets.get("use", ()))
        self.panel.show()

    def _demo_play(self, player: str, meld: bool) -> list[str]:
        """On the simulated table: the cards the simulated camera holds up for a meld or a layoff
        (a legal one when the simulated hand has it)."""
        if not self.controller.demo:
            return []
        state = self.controller.session.state
        rules = self.controller.session.rules
        groups: dict[int, list[str]] = {}
        for card in self.controller.true_cards_in(f"{player}/hand"):
            if rules.kind_of(card) == "evidence":
                groups.setdefault(rules.location_of[card], []).append(card)
        for number, cards in sorted(groups.items()):
            if meld and len(cards) >= 3:
                return cards[:3]
            if not meld and number in state.melded:
                return cards[:1]
        return []

    def _close(self) -> None:
        self.pending = None
        self.looking = False
        self.panel.hide()
        self._redraw()

    def _hinton(self, use: str, location: str | None = None) -> None:
        if self.pending is None:
            return
        option, player = self.pending
        action = {"type": "hinton", "player": player, "use": use}
        if use == "look":
            if location is None:          # the board shows where he may look: a click there chooses
                self.looking = True
                self.panel_title.setText(f"{player}: click the location Ted Hinton looks under.")
                self._redraw()
                return
            action["location"] = location
        self._close()
        self.shell.read_cards(action, [("card", f"{player}/hand")], private=False,
                              heading=f"{player}, show the Ted Hinton card you play.")

    def _stop_picked(self, place: str) -> None:
        """A location clicked: where Ted Hinton looks when he is about to, else the shell's move."""
        if self.looking and self.pending is not None:
            self._hinton("look", place)
        else:
            self.place_clicked.emit(place)

    def _redraw(self) -> None:
        if self._last is not None:
            self.refresh(*self._last)

    def field_words(self, option: Option, field: str) -> str:
        words = {"location": "the location", "direction": "where the car goes", "pile": "the FBI Files",
                 "player": "who deals"}
        return words.get(field, super().field_words(option, field))

    def refresh(self, view: PlayerView, legal: set[str], chosen: set[str]) -> None:
        self._last = (view, legal, chosen)
        if self.looking and self.pending is not None:
            legal = {str(place) for place in self.pending[0].targets.get("location", ())}
        session = self.controller.session
        state = session.state
        rules = session.rules
        by_place: dict[str, list] = {}
        for card in view.cards:
            by_place.setdefault(card.place, []).append(card)
        for n, stop in self.route.stops.items():
            place = stop.place
            stop.show_stop(bool(by_place.get(place)), place in legal, place in chosen)
        self.route.update()               # the halo of a legal location
        casefile = by_place.get("casefile", [])
        self.slots["casefile"].set_look(pt.CardLook(caption="Case File", kind="Draw pile", symbol=style.kind_symbol(1),
                                                    colour=style.kind_colour(1), present=bool(casefile),
                                                    notes=(cards_words(len(casefile)),), count=len(casefile)),
                                        legal="casefile" in legal, chosen="casefile" in chosen)
        if not self._unseen:
            self._files_seen = self.slots["files"].look     # a card taken from the Files flies with this face
        files = by_place.get("files", [])
        top = files[-1] if files else None
        named = top.name if top and top.face_up else None
        self.slots["files"].set_look(pt.CardLook(caption="FBI Files", kind="Discards", symbol=style.kind_symbol(2),
                                                 colour=style.kind_colour(2), name=named, face_up=bool(named),
                                                 present=bool(files),
                                                 notes=(cards_words(len(files)),) if files else (),
                                                 count=len(files)),
                                     legal="files" in legal, chosen="files" in chosen)
        self.car.setText(f"Hand {max(state.hand_no, 1)}, playing to {state.target}. "
                         f"The Crime Spree car is on {rules.loc_words(state.car)}.")
        self.route.set_car(state.car)
        totals = state.scores.totals()
        names = {n: self.board.name(n) for n in self.board.numbers}
        for player, strip in self.players.items():
            points = rules.table_points(state, player)
            melds = []
            for place, cards in sorted(by_place.items(), key=lambda item: item[0]):
                parts = place.split("/")
                if parts[0] == player and len(parts) == 3 and parts[1] in ("played", "sideways"):
                    melds.append((int(parts[2]), len(cards), parts[1] == "sideways"))
            melds.sort()
            outlaws = [c.name for c in by_place.get(f"{player}/captured", []) if c.name]
            strip.show_player(current=player == view.current and view.outcome is None,
                              hand=len(by_place.get(f"{player}/hand", [])), melds=melds, outlaws=outlaws,
                              points=points["points"], total=totals[player], names=names)
        self._follow(state)

    # --- movements ----------------------------------------------------------------------
    def _follow(self, state) -> None:
        """What moved since the family last looked, played in order, one movement at a time: the
        cards laid down, drawn, taken or captured fly from where they were to where they lie
        now, then the car drives along the road. Out of sight (behind the privacy gate) the
        table keeps showing the car where it was, and plays it all when it shows again."""
        if not self.isVisible():
            self._unseen = True
            seen = self._car_seen
            if seen is not None and seen[1] == state.hand_no and seen[0] != state.car and not self.motion.busy:
                self.route.shown_at = seen[0]
            return
        self._unseen = False
        if not self.motion.busy:
            self.route.shown_at = None
        steps = self._card_steps(state) + self._car_legs(state.car, state.hand_no)
        if steps:
            self.motion.play(steps)

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if self._unseen:
            self._follow(self.controller.session.state)

    def _car_legs(self, car: int, hand: int) -> list[Step]:
        """The car drives from where it was to where it is, one location at a time; a new hand
        puts it back at the start at once (the family moves it by hand)."""
        before, self._car_seen = self._car_seen, (car, hand)
        if before is None:
            return []
        was, was_hand = before
        if was == car or was_hand != hand:
            return []
        way = 1 if car > was else -1
        return [self.route.leg(n, n + way) for n in range(was, car, way)]

    def _card_steps(self, state) -> list[Step]:
        """A step for each (from, to) pair of places cards moved between, in the order of the cards."""
        now = token_places(state)
        before, self._places_seen = self._places_seen, now
        hand_before, self._hand_seen = self._hand_seen, state.hand_no
        if before is None or hand_before != state.hand_no:
            return []                            # a new hand is dealt by the family: nothing flies
        if self.layout() is not None:
            self.layout().activate()             # where the cards now lie has its geometry
        groups: dict[tuple[str, str], int] = {}
        for tok in sorted(now):
            if tok in before and before[tok] != now[tok]:
                groups[(before[tok], now[tok])] = groups.get((before[tok], now[tok]), 0) + 1
        steps = []
        for (src, dst), count in groups.items():
            step = self._flight(src, dst, count, sum(1 for place in before.values() if place == dst),
                                set(before.values()))
            if step is not None:
                steps.append(step)
        return steps

    def _strip_key(self, place: str) -> tuple[PlayerStrip | None, object]:
        """The player's row a place lies in, and which of its groups it is (a meld, the outlaws, the hand)."""
        parts = place.split("/")
        strip = self.players.get(parts[0])
        if strip is None or len(parts) < 2:
            return None, None
        if parts[1] in ("played", "sideways") and len(parts) == 3:
            return strip, (int(parts[2]), parts[1] == "sideways")
        return strip, "outlaws" if parts[1] == "captured" else "hand"

    def _at(self, widget: QWidget, rect: QRectF) -> QRectF:
        origin = widget.mapTo(self, QPoint(0, 0))
        return rect.translated(origin.x(), origin.y())

    def _flight(self, src: str, dst: str, count: int, at_dst: int, held_before: set[str]) -> Step | None:
        """``count`` cards flying from ``src`` to ``dst`` (which held ``at_dst`` cards before; the
        places that held cards before: ``held_before``)."""
        to_strip, key = self._strip_key(dst)
        from_strip, from_key = self._strip_key(src)
        if to_strip is not None and to_strip is from_strip and "hand" in (key, from_key) and key == from_key:
            return None                          # within a hand (Ted Hinton put in play): not on the table
        hold: list = []
        # Where they land, one rectangle a card.
        if to_strip is not None and key != "hand":
            if not to_strip.isVisible():
                return None
            ends = [self._at(to_strip, r) for r in to_strip.landing_rects(key)[-count:]]
            hold.append((lambda s=to_strip, k=key, b=at_dst: s.keep(k, b), lambda s=to_strip, k=key: s.let_go(k)))
        elif to_strip is not None:
            if not to_strip.isVisible():
                return None
            ends = [self._at(to_strip, to_strip.hand_rect(to_strip.card_size()))] * count
        elif dst in self.slots and isinstance(self.slots[dst], DrawnCard):
            slot = self.slots[dst]
            ends = [self._at(slot, slot.card_rect())] * count
            hold.append((slot.hold, slot.release))
        elif dst in self.slots:
            stop = self.slots[dst]
            ends = [self._at(stop, stop.card_rect())] * count
        else:
            return None
        if not ends:
            return None
        # Where they leave from.
        if from_strip is not None:
            if not from_strip.isVisible():
                return None
            starts = [self._at(from_strip, from_strip.hand_rect(end.size())) for end in ends]
        elif src in self.slots and isinstance(self.slots[src], DrawnCard):
            slot = self.slots[src]
            starts = [self._at(slot, slot.card_rect())] * len(ends)
        elif src in self.slots:
            stop = self.slots[src]
            starts = [self._at(stop, stop.card_rect())] * len(ends)
        else:
            return None
        painter = self._card_painter(src, dst, key)
        flights = [(painter, start, end) for start, end in zip(starts, ends)]

        def keep() -> None:
            for on, _ in hold:
                on()

        def land() -> None:
            for _, off in hold:
                off()

        laid = isinstance(key, tuple) and any(f"{dst.split('/')[0]}/{area}/{key[0]}" in held_before
                                              for area in ("played", "sideways"))
        return flight_step(self.flights, flights, what=self._move_words(src, dst, key, laid), hold=keep, land=land)

    def _card_painter(self, src: str, dst: str, key: object):
        """How a card on its way looks: an Evidence card in its location's colour with its number,
        a captured outlaw's red card, the FBI Files' top card, or a card's back."""
        if isinstance(key, tuple):
            number = key[0]

            def evidence(p: QPainter, rect: QRectF) -> None:
                paint_laid_card(p, rect, location_colour(number))
                p.setPen(QColor(style.INK))
                p.setFont(txt.font(max(min(int(rect.height() * 0.4), 28), txt.LEAST_PX), True))
                p.drawText(rect.adjusted(3, 2, -3, 0), int(Qt.AlignLeft | Qt.AlignTop), str(number))
            return evidence
        if key == "outlaws":
            return lambda p, rect: paint_laid_card(p, rect, style.VERMILLION)
        if dst in self.slots and isinstance(self.slots[dst], DrawnCard):
            return self.slots[dst].paint_at          # a discard: the FBI Files' new top card
        if src == "files":
            look, size = self._files_seen, self.slots["files"].card_rect().size()
            return lambda p, rect: paint_look(p, rect, look, size)
        return lambda p, rect: pt.paint_back(p, rect, style.kind_colour(0))

    @staticmethod
    def _move_words(src: str, dst: str, key: object, laid_before: bool) -> str:
        if isinstance(key, tuple):
            return "layoff" if laid_before else "meld"      # a layoff: onto a location already melded
        if key == "outlaws":
            return "capture"
        if dst == "files":
            return "discard"
        return {"casefile": "draw", "files": "take"}.get(src, "move")

    def setup_widget(self) -> QWidget:
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.addWidget(label("Put the board between the players and the Crime Spree car on Kaufman, Texas (1). "
                               "Eight cards from the deck with Bonnie and Clyde, shuffled, go face down under the "
                               "ten locations. The dealer deals the hands and turns up the first card of the FBI "
                               "Files: show it to the camera, or pick it. Nobody scans a hand.", "heading"))
        return body

    def journal_widget(self, journal: Journal) -> QWidget:
        rows = [[e.name, e.card.rsplit(".", 1)[-1], e.where] for e in journal.entries if e.where != "Unknown"]
        table = journal_table(["Card", "Tag", "Where"], rows or [["(nothing seen yet)", "", ""]])
        table.setObjectName("journal:cards")
        return table
