"""The Sudds & Malone table, drawn (issue 23): the dice pool as dice with pips, the city as a map,
each player's board as a sheet, and the container that lays them out for the room there is.

Every piece paints itself with the shared toolkit (``desktop.drawn``) and tells what words it
drew and how big (``drawn_texts``), so the type-size and no-clipping walks read it like labels.
Nothing here knows the rules: the table (``table.py``) gives each piece what to show.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable, Iterable

from PySide6.QtCore import QPointF, QRect, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import QSizePolicy, QWidget

from ... import style
from ...drawn import Clickable, FlightLayer, Piece
from ...drawn import paint as pt
from ...drawn import text as txt
from ...drawn.items import paint_cached, paint_player_disc
from ...drawn.palette import readable_ink
from ...widgets import plain_tip
from .city import City
from .dice import PERSONAL

INK = style.INK
SOFT_INK = "#4A4A4A"
PAPER = "#FFFFFF"
WATER = "#CFE2EC"
LAND = "#EEE5CC"
ROAD = "#8A7A5C"
SUSPECT_BACK = style.kind_colour(0)      # the suspect cards' back (the deck's first card type)


# --- fitting several lines of words into a room ----------------------------------------------------
#: what ``paint.fit_rows`` returns: the rows kept, each one's (px, lines, fits), their height, whether all fit
Fitted = tuple[list[pt.Row], list[tuple[int, tuple[str, ...], bool]], int, bool]


def fit(rows: list[pt.Row], width: float, height: float) -> tuple[Fitted, bool]:
    """The rows in ``width`` x ``height`` by the shared rule (``paint.fit_rows``), none below its
    least size: each piece of the board has its own way out of a room too small (fewer parts, a
    shortened name). Rows without words take no room. Returns the fitting and whether it all fits."""
    fitted = pt.fit_rows([r for r in rows if r.text], max(int(width), 1), max(int(height), 1), keep_least=True)
    return fitted, fitted[3]


def place_lines(fitted: Fitted, room: QRectF, *, centre: bool = True) -> list[tuple[txt.DrawnText, pt.Row]]:
    """The fitted rows stacked in ``room`` (centred up and down when ``centre``)."""
    rows, placed, total, fits = fitted
    y = room.top() + (max(room.height() - total, 0) / 2 if centre else 0)
    out = []
    for row, (px, lines, _) in zip(rows, placed):
        h = len(lines) * txt.line_height(px, row.bold, row.family)
        out.append((txt.DrawnText("\n".join(lines), px, QRect(int(room.left()), int(y), int(room.width()), int(h)),
                                  fits, row.key, row.family), row))
        y += h + pt.GAP
    return out


def draw_placed(p: QPainter, placed: list[tuple[txt.DrawnText, pt.Row]], align=Qt.AlignHCenter) -> None:
    for drawn, row in placed:
        p.setPen(QColor(row.ink or INK))
        txt.draw_lines(p, drawn.rect, tuple(drawn.text.split("\n")), drawn.px, bold=row.bold, align=align,
                       family=row.family)


def disc_texts(rect: QRectF, name: str) -> txt.DrawnText:
    """The initial painted in a player's disc (``paint_player_disc``), as the walks read it."""
    px = max(int(rect.height() * 0.55), 10)
    return txt.DrawnText(name.strip()[:1].upper(), px, rect.toAlignedRect(), True)


#: a player's disc is at least this high, so its initial is at least the least size
DISC = 28



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


# --- what the drawn pieces share -----------------------------------------------------------------
def paint_marks(p: QPainter, rect: QRectF, *, legal: bool, chosen: bool, focused: bool) -> None:
    """Around a drawn piece: a legal target's glow and arrow, a chosen one's tick, the keyboard's ring."""
    if legal:
        pt.paint_glow(p, rect)
    if chosen:
        pt.paint_chosen(p, rect)
    if focused:
        pt.paint_focus(p, rect.adjusted(-4, -4, 4, 4))


class PaintedOnce:
    """Mixed into a drawn widget (before its Qt class): it is painted once into a picture
    (``paint_cached``) and drawn from it until ``paint_key()``, what it shows, changes; the words it
    placed (``_placed``) are placed again after a resize."""

    _placed = None

    def resizeEvent(self, event) -> None:
        self._placed = None
        super().resizeEvent(event)

    def paintEvent(self, event) -> None:
        p = QPainter(self)
        paint_cached(self, p, self.paint_key(), self._paint)
        p.end()


class HoldsDice:
    """Mixed into a widget that shows dice: a die lifted by a movement is held, and the widget
    leaves it out until the movement lands it and releases it."""

    held: set[str]

    def hold(self, die: str) -> None:
        self.held.add(die)
        self.update()

    def release(self, die: str) -> None:
        self.held.discard(die)
        self.update()


# --- words on their own ---------------------------------------------------------------------------
#: a status line's lead (the round, the badge) is read from across the room: never below this size
LEAD_LEAST = 20


class Words(PaintedOnce, QWidget):
    """Painted words fitted to the widget (a status line): parts joined by " · ", the last ones
    left out when even the least size has no room for them. The first ``lead`` parts are a line of
    their own, bold and larger (read from across the room); the others follow smaller."""

    def __init__(self, name: str, *, largest: int = 20, bold: bool = False, max_lines: int = 2, lead: int = 0,
                 lead_largest: int = 26, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName(name)
        self.parts: list[str] = []
        self.largest, self.bold, self.max_lines = largest, bold, max_lines
        self.lead, self.lead_largest = lead, lead_largest
        self.setSizePolicy(QSizePolicy.Ignored, QSizePolicy.Ignored)
        self._placed: list[tuple[txt.DrawnText, pt.Row]] | None = None

    def set_parts(self, parts: list[str]) -> None:
        if parts != self.parts:
            self.parts = list(parts)
            self._placed = None
            self.setAccessibleName(" \u00B7 ".join(parts))
            self.update()

    def set_max_lines(self, n: int) -> None:
        if n != self.max_lines:
            self.max_lines = n
            self._placed = None
            self.update()

    def _layout(self) -> list[tuple[txt.DrawnText, pt.Row]]:
        if self._placed is None:
            head, parts = self.parts[:self.lead], list(self.parts[self.lead:])
            # The lead line no smaller than 20 px while the others can give way; in a very small room
            # it alone, down to the least size.
            first = ([pt.Row(" \u00B7 ".join(head), self.lead_largest, LEAD_LEAST, bold=True, key=True,
                              max_lines=2)] if head else [])
            while True:
                rest = [pt.Row(" \u00B7 ".join(parts), self.largest, bold=self.bold, max_lines=self.max_lines,
                             optional=bool(head))] if parts else []
                fitted, ok = fit(first + rest, self.width() - 4, self.height())
                if (ok and len(fitted[0]) == len(first + rest)) or len(parts) <= (0 if head else 1):
                    break
                parts.pop()
            if head and not ok:
                fitted, ok = fit([pt.Row(first[0].text, self.lead_largest, bold=True, key=True, max_lines=3)],
                                 self.width() - 4, self.height())
            if head and not ok:         # a long name in a small room: shortened with "…", never cut
                fitted, ok = fit([pt.Row(elided(first[0].text, self.width() - 4), txt.LEAST_PX, bold=True,
                                         key=True, max_lines=1)], self.width() - 4, self.height())
            room = QRectF(2, 0, self.width() - 4, self.height())
            self._placed = place_lines(fitted, room, centre=True)
        return self._placed

    def text(self) -> str:
        return " ".join(d.text.replace("\n", " ") for d, _ in self._layout())

    def drawn_texts(self) -> list[txt.DrawnText]:
        return [d for d, _ in self._layout()]

    def paint_key(self) -> tuple:
        return (tuple(self.parts), self.max_lines)

    def _paint(self, p: QPainter) -> None:
        p.setRenderHint(QPainter.Antialiasing)
        draw_placed(p, self._layout(), Qt.AlignLeft)


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


# --- the city ---------------------------------------------------------------------------------------
@dataclass
class DistrictLook:
    name: str
    back: str = ""                                   # the Flimflam card's back there, in words
    card_under: bool = False                         # a suspect or stoolie still lies there
    snitch: tuple[str, str, str, bool] | None = None     # owner, evidence, owner's colour, used
    badges: list[tuple[str, str]] = field(default_factory=list)    # (player, colour)
    legal: bool = False
    step: int | None = None                          # its number on the path being chosen


class District(PaintedOnce, Piece):
    """One location of the city: its name, the back of the Flimflam card lying there, and along its
    bottom edge the snitch placed there (a token in its owner's colour with the evidence's initial)
    and the detectives' badges (discs in their colours with their initials)."""

    def __init__(self, place: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.place = place
        self.setObjectName(f"slot:{place}")
        self.look = DistrictLook(place)
        self.legal = self.chosen = False
        #: the badges' and the snitch's size, set by the map for the tiles' size
        self.disc = 20.0
        self.setSizePolicy(QSizePolicy.Ignored, QSizePolicy.Ignored)
        self._placed = None

    @staticmethod
    def margins(disc: float) -> tuple[float, float, float, float]:
        """Room around the tile (left, top, right, bottom): the glow's, and below it the lower half of
        the badges and the snitch, which sit on the tile's bottom edge."""
        return pt.GLOW, pt.GLOW, pt.GLOW, max(pt.GLOW, disc * 0.6 + 3)

    def set_disc(self, disc: float) -> None:
        if disc != self.disc:
            self.disc = disc
            self._placed = None
            self.update()

    def set_look(self, look: DistrictLook) -> None:
        if look == self.look:
            return
        self.look = look
        self.legal, self.chosen = look.legal, look.step is not None
        self._placed = None
        state = ", can be chosen" if self.legal else ", chosen" if self.chosen else ""
        self.setAccessibleName(self.text().replace("\n", " ") + state)
        self.update()

    def words(self) -> list[str]:
        look = self.look
        out = [look.name]
        out.append(look.back if look.back else "no Flimflam")
        if look.card_under:
            out.append("a card under it")
        if look.snitch:
            owner, ev, _, used = look.snitch
            out.append(f"snitch {owner} {ev}" + (" (used)" if used else ""))
        if look.badges:
            out.append("badges: " + " ".join(p for p, _ in look.badges))
        return out

    def text(self) -> str:
        return "\n".join(self.words())

    def tile(self) -> QRectF:
        """The location's tile (inside the room kept for the glow and the discs)."""
        left, top, right, bottom = self.margins(self.disc)
        return QRectF(self.rect()).adjusted(left, top, -right, -bottom)

    def layout(self):
        if self._placed is None:
            tile = self.tile()
            look = self.look
            d = self.disc
            # Along the bottom edge from the right: the badges (overlapping a little), then the snitch.
            marks: list[tuple[QRectF, str, str, str]] = []      # rect, letter, colour, kind
            # On a small tile the discs overlap more: all of them stay on it.
            n = len(look.badges) + (1 if look.snitch else 0)
            step = min(d * 0.72, (tile.width() - 8 - d) / max(n - 1, 1)) if n > 1 else 0
            x = tile.right() - 4 - d
            for who, colour in reversed(look.badges):
                marks.append((QRectF(x, tile.bottom() - d * 0.4, d, d), who, colour, "badge"))
                x -= step
            if look.snitch:
                owner, ev, colour, used = look.snitch
                x -= min(d * 0.35, max(x - tile.left() - 4, 0)) if look.badges else 0
                marks.append((QRectF(max(x, tile.left() + 4), tile.bottom() - d * 0.4, d, d), ev, colour, "snitch"))
            room = QRectF(tile).adjusted(4, 1, -4, -1 - (d * 0.4 if marks else 0))
            # Place names in a narrow face: more of a name to a line at the same size.
            narrow = txt.narrow_family()
            lines = [pt.Row(look.name, 26, txt.KEY_PX if look.legal else txt.LEAST_PX, bold=True, key=True,
                          narrow=True, max_lines=2)]
            if look.back:
                lines.append(pt.Row(look.back, 19, optional=True, max_lines=1, ink=SOFT_INK, narrow=True))
            fitted, ok = fit(lines, int(room.width()), int(room.height()))
            if not ok:          # a tile too small for the name: as much of it as fits, with "…"
                metrics = QFontMetrics(txt.font(txt.LEAST_PX, True, QFont(narrow)))
                short = metrics.elidedText(look.name, Qt.ElideRight, max(int(room.width()) - 2, 1))
                fitted, ok = fit([pt.Row(short, txt.LEAST_PX, bold=True, key=True, max_lines=1,
                                         narrow=True)], int(room.width()), int(room.height()))
                if not ok:      # not even a line high: the name on the tile's middle, over the discs' room
                    room = QRectF(tile).adjusted(4, 0, -4, 0)
                    fitted, ok = fit([pt.Row(short, txt.LEAST_PX, bold=True, key=True, max_lines=1,
                                             narrow=True)], int(room.width()), int(room.height()))
            self._placed = (place_lines(fitted, room), marks)
        return self._placed

    def drawn_texts(self) -> list[txt.DrawnText]:
        placed, marks = self.layout()
        out = [d for d, _ in placed]
        out += [txt.DrawnText(letter.strip()[:1].upper(), mark_px(r), r.toAlignedRect(), True)
                for r, letter, _, _ in marks]
        return out

    def hitButton(self, pos) -> bool:
        return self.tile().adjusted(-pt.GLOW, -pt.GLOW, pt.GLOW, pt.GLOW).contains(QPointF(pos))

    def paint_key(self) -> tuple:
        return (self.look, self.disc, self.hasFocus())

    def _paint(self, p: QPainter) -> None:
        p.setRenderHint(QPainter.Antialiasing)
        tile = self.tile()
        placed, marks = self.layout()
        look = self.look
        if look.card_under:
            # The back of the suspect or stoolie card under the Flimflam, slightly seen.
            under = QRectF(tile.left() - 4, tile.top() - 5, tile.width() * 0.45, tile.height() * 0.6)
            p.setPen(QPen(QColor("#333333"), 1.5))
            p.setBrush(QColor(SUSPECT_BACK))
            p.drawRoundedRect(under, 6, 6)
        p.setPen(QPen(QColor("#4A4A4A"), 2))
        p.setBrush(QColor(PAPER))
        p.drawRoundedRect(tile, 10, 10)
        draw_placed(p, placed)
        for r, letter, colour, kind in marks:
            used = kind == "snitch" and look.snitch is not None and look.snitch[3]
            paint_mark(p, r, colour if not used else "#DDDDDD", letter, square=kind == "snitch")
            if used:        # a snitch used this round is turned over: struck through
                p.setPen(QPen(QColor("#555555"), 2))
                p.drawLine(r.bottomLeft() + QPointF(3, -3), r.topRight() + QPointF(-3, 3))
        paint_marks(p, tile, legal=look.legal, chosen=look.step is not None, focused=self.hasFocus())


def mark_px(rect: QRectF) -> int:
    """A badge's or a snitch's letter: as large as its disc takes, never below the least size."""
    return max(int(rect.height() * 0.55), txt.LEAST_PX)


def paint_mark(p: QPainter, rect: QRectF, colour: str, letter: str, *, square: bool = False) -> None:
    """A disc (a badge) or a rounded square (a snitch) in a player's colour with a letter in it."""
    p.setPen(QPen(QColor("#1A1A1A"), 1.5))
    p.setBrush(QColor(colour))
    if square:
        p.drawRoundedRect(rect, rect.width() * 0.2, rect.width() * 0.2)
    else:
        p.drawEllipse(rect)
    p.setFont(txt.font(mark_px(rect), True))
    p.setPen(QColor(readable_ink(colour)))
    p.drawText(rect, int(Qt.AlignCenter), letter.strip()[:1].upper())


class CityMap(PaintedOnce, QWidget):
    """The city: land and water, the roads between the locations that touch (from the box), and
    a tile per location placed as the map data says."""

    def __init__(self, city: City, names: dict[str, str], neighbours: Callable[[], dict[str, Iterable[str]]],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("sm:city")
        self.city = city
        self.neighbours = neighbours
        self.districts: dict[str, District] = {}
        for loc in names:
            d = District(loc, self)
            self.districts[loc] = d
        self.setSizePolicy(QSizePolicy.Ignored, QSizePolicy.Ignored)
        self.tile_size = QSize(0, 0)
        self.disc = 20.0
        self._roads: list[QPainterPath] | None = None
        self._road_key: tuple = ()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self.place_tiles()

    def tile_rect(self, loc: str) -> QRectF:
        """Where a location's widget goes for the map's size now (its tile and the room around it)."""
        w, h = self.tile_size.width(), self.tile_size.height()
        left, top, right, bottom = District.margins(self.disc)
        x, y = self.city.spots[loc]
        tx = left + x * (self.width() - left - right - w)
        ty = top + y * (self.height() - top - bottom - h)
        return QRectF(tx - left, ty - top, w + left + right, h + top + bottom)

    def place_tiles(self) -> None:
        w, h, d = self._tile_size(self.width(), self.height())
        self.tile_size = QSize(w, h)
        self.disc = d
        for loc, district in self.districts.items():
            district.set_disc(d)
            district.setGeometry(self.tile_rect(loc).toAlignedRect())
        self._roads = None
        self.update()

    @staticmethod
    def disc_for(h: float) -> float:
        return _clamp(h * 0.42, 20, 36)

    def _tile_size(self, width: int, height: int) -> tuple[int, int, float]:
        """The largest tiles (up to about three times as wide as high) whose widgets do not overlap,
        and the size of the badges on them."""
        spots = [self.city.spots[loc] for loc in self.districts]
        best = (60, 28, 20.0)
        best_score = -1.0
        for h in range(28, max(29, int(height * 0.45)) + 1, 2):
            d = self.disc_for(h)
            left, top, right, bottom = District.margins(d)
            inner_w, inner_h = width - left - right, height - top - bottom
            w_max = min(inner_w * 0.48, h * 4.2)
            # Room between the tiles for the roads: a little on a small map, more on a large one.
            road_x, road_y = _clamp((width - 300) * 0.04, 4, 28), _clamp((height - 200) * 0.05, 0, 18)
            for (ax, ay), (bx, by) in ((a, b) for i, a in enumerate(spots) for b in spots[i + 1:]):
                if abs(ay - by) * (inner_h - h) < h + top + bottom + road_y:     # side by side: apart across
                    dx = abs(ax - bx)
                    w_max = min(w_max, (dx * inner_w - left - right - road_x) / (1 + dx))
            if w_max < 60:
                continue
            score = min(w_max, h * 3.0) * h
            if score > best_score:
                best, best_score = (int(w_max), h, d), score
        return best

    def _tiles(self) -> dict[str, QRectF]:
        return {loc: d.tile().translated(d.x(), d.y()) for loc, d in self.districts.items()}

    def roads(self) -> list[QPainterPath]:
        """A road between each pair of locations that touch: straight from centre to centre, or bent
        around a tile it would pass under (a family's map may join any two locations)."""
        key = tuple(sorted((loc, tuple(sorted(nbs))) for loc, nbs in self.neighbours().items()))
        if self._roads is not None and key == self._road_key:
            return self._roads
        self._road_key = key
        tiles = self._tiles()
        bounds = QRectF(self.rect()).adjusted(3, 3, -3, -3)
        paths = []
        done = set()
        for loc, nbs in self.neighbours().items():
            for nb in nbs:
                if (nb, loc) in done or loc not in tiles or nb not in tiles:
                    continue
                done.add((loc, nb))
                others = [r.adjusted(-5, -5, 5, 5) for other, r in tiles.items() if other not in (loc, nb)]
                a, b = tiles[loc].center(), tiles[nb].center()
                paths.append(_route(a, b, others, bounds, self.tile_size.height()))
        self._roads = paths
        return paths

    def paint_key(self) -> tuple:
        self.roads()                    # the roads' key up to date for the picture's
        return (self._road_key, self.tile_size.width(), self.tile_size.height())

    def _paint(self, p: QPainter) -> None:
        p.setRenderHint(QPainter.Antialiasing)
        r = QRectF(self.rect()).adjusted(1, 1, -1, -1)
        water = QPainterPath()
        water.addRoundedRect(r, 14, 14)
        p.setPen(QPen(QColor("#7FA7BC"), 2))
        p.setBrush(QColor(WATER))
        p.drawPath(water)
        p.save()
        p.setClipPath(water)
        p.setPen(QPen(QColor("#CDBF98"), 2))
        p.setBrush(QColor(LAND))
        for _, corners in self.city.land:
            p.drawPolygon(QPolygonF([QPointF(r.left() + x * r.width(), r.top() + y * r.height()) for x, y in corners]))
        p.restore()
        # The roads, under the tiles.
        p.setBrush(Qt.NoBrush)
        p.setPen(QPen(QColor(ROAD), 5, Qt.SolidLine, Qt.RoundCap))
        for path in self.roads():
            p.drawPath(path)


def _route(a: QPointF, b: QPointF, others: list[QRectF], bounds: QRectF, tile_h: float) -> QPainterPath:
    """From ``a`` to ``b`` clear of ``others``: straight if it can, else the least bent curve that is."""
    def clear(points: list[QPointF]) -> bool:
        return all(bounds.contains(q) and not any(r.contains(q) for r in others) for q in points)

    def curve(ctrl: QPointF | None) -> tuple[QPainterPath, list[QPointF]]:
        path = QPainterPath(a)
        if ctrl is None:
            path.lineTo(b)
        else:
            path.quadTo(ctrl, b)
        return path, [path.pointAtPercent(i / 40) for i in range(1, 40)]

    path, points = curve(None)
    if clear(points):
        return path
    dx, dy = b.x() - a.x(), b.y() - a.y()
    length = max((dx * dx + dy * dy) ** 0.5, 1.0)
    normal = QPointF(-dy / length, dx / length)
    mid = QPointF((a.x() + b.x()) / 2, (a.y() + b.y()) / 2)
    for k in (0.8, 1.1, 1.4, 1.8, 2.2, 2.7, 3.2):
        for sign in (1, -1):
            bent, points = curve(mid + normal * (sign * k * tile_h))
            if clear(points):
                return bent
    return path


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


# --- a player's board ------------------------------------------------------------------------------
@dataclass
class SheetData:
    """What one player's board shows (the public table's figures, in words)."""

    name: str
    colour: str
    levels: dict[str, int]                      # column -> level 1-4
    columns: list[tuple[str, str, str]]         # (column id, its name, a short name), die value order, then the News
    dice: list[tuple[str, str, str, int]]       # (die id, column id, fill, value) taken this round
    entries: list[tuple[str, str, str, bool]]   # (key, words, value, optional)
    points: int = 0


class PlayerSheet(HoldsDice, PaintedOnce, QWidget):
    """The shown player's board: a row per column (its number as a die face, its name, the level
    reached as four boxes, the dice taken for it this round), and the rest as words (points,
    cash, bullets, evidence, where the badge is, the cards)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("sm:sheet")
        self.data: SheetData | None = None
        self.setSizePolicy(QSizePolicy.Ignored, QSizePolicy.Ignored)
        self.held: set[str] = set()
        self._placed = None

    def set_sheet(self, data: SheetData) -> None:
        if data != self.data:
            self.data = data
            self._placed = None
            self.update()

    # --- layout -------------------------------------------------------------------------------
    def layout(self):
        """(rows: [(row rect, die-face rect, name text, boxes rect, column)], entries: [(key, DrawnText,
        value)], dice: {die: rect}). The rows on the left and the words beside them; on a narrow sheet
        the words go under the rows."""
        if self._placed is not None:
            return self._placed
        data = self.data
        if data is None:
            self._placed = ([], [], {})
            return self._placed
        r = QRectF(self.rect()).adjusted(12, 8, -8, -6)
        n = len(data.columns)
        by_column: dict[str, list[tuple[str, str, int]]] = {}
        for die, column, fill, value in data.dice:
            by_column.setdefault(column, []).append((die, fill, value))
        most = min(max([len(v) for v in by_column.values()] + [2]), 4)

        def sizes(height: float, short: bool) -> tuple[float, int, float, float, float, float]:
            row_h = min(height / n, txt.line_height(24) + 8)
            px = next((s for s in range(22, txt.LEAST_PX - 1, -1) if txt.line_height(s) + 2 <= row_h), txt.LEAST_PX)
            face = max(min(row_h - 4, 34), 12)
            name_w = max(advance(c[2 if short else 1], px) for c in data.columns) + 8
            box = max(min(face * 0.6, 18), 9)
            width = face + 6 + name_w + 6 + 4 * box + 9 + 10 + most * (face + 3)
            return row_h, px, face, name_w, box, width

        # The columns' names, or their short names when the words beside them would have no room.
        short = False
        row_h, px, face, name_w, box, block_w = sizes(r.height(), short)
        if r.width() - block_w < 230:
            short = True
            row_h, px, face, name_w, box, block_w = sizes(r.height(), short)
        beside = r.width() - block_w >= 200
        if not beside:                      # narrow: the rows on top, the words under them
            row_h, px, face, name_w, box, block_w = sizes(r.height() * 0.62, short)
        block_w = min(block_w, r.width())
        rows = []
        dice_rects: dict[str, QRectF] = {}
        for i, (column, long_name, short_name) in enumerate(data.columns):
            words = short_name if short else long_name
            row = QRectF(r.left(), r.top() + i * row_h, block_w, row_h)
            face_r = QRectF(row.left(), row.center().y() - face / 2, face, face)
            name = txt.DrawnText(words, px, QRect(int(face_r.right() + 6), int(row.top()), int(name_w), int(row_h)),
                                 True)
            boxes = QRectF(face_r.right() + 6 + name_w + 6, row.center().y() - box / 2, 4 * box + 9, box)
            x = boxes.right() + 10
            taken = by_column.get(column, [])
            step = min(face + 3, (row.right() - x - face) / max(len(taken) - 1, 1)) if taken else 0
            for j, (die, _fill, _value) in enumerate(taken):
                dice_rects[die] = QRectF(x + j * step, face_r.top(), face, face)
            rows.append((row, face_r, name, boxes, column))
        # The rest as words: "label value" pieces flowing in lines; the optional ones go first when
        # there is no room.
        if beside:
            words_room = QRectF(r.left() + block_w + 14, r.top(), r.right() - (r.left() + block_w + 14), r.height())
        else:
            below = r.top() + n * row_h + 6
            words_room = QRectF(r.left(), below, r.width(), r.bottom() - below)
        entries = list(data.entries)
        while True:
            placed, ok = _flow(entries, words_room)
            if ok or len(entries) <= 2:
                break
            # The optional words go first; on a very small board the last of the others too (the
            # points and the cash stay).
            optional = [i for i, e in enumerate(entries) if e[3]] or [len(entries) - 1]
            del entries[optional[-1]]
        self._placed = (rows, placed, dice_rects)
        return self._placed

    def die_rect(self, die: str) -> QRectF | None:
        return self.layout()[2].get(die)

    def value(self, key: str) -> str | None:
        """The value shown for ``key`` ("points", "cash", a column's id for its level), or None
        when it is not drawn."""
        if self.data is None:
            return None
        if key in self.data.levels:
            return str(self.data.levels[key]) if self.layout()[0] else None
        return next((v for k, _, v in self.layout()[1] if k == key), None)

    def drawn_texts(self) -> list[txt.DrawnText]:
        rows, placed, _ = self.layout()
        return [name for _, _, name, _, _ in rows] + [d for _, d, _ in placed]

    def paint_key(self) -> tuple:
        return (self.data, frozenset(self.held))

    def _paint(self, p: QPainter) -> None:
        p.setRenderHint(QPainter.Antialiasing)
        r = QRectF(self.rect()).adjusted(1.5, 1.5, -1.5, -1.5)
        p.setPen(QPen(QColor("#8A8A8A"), 2))
        p.setBrush(QColor(PAPER))
        p.drawRoundedRect(r, 10, 10)
        data = self.data
        if data is None:
            return
        # The player's colour down the sheet's left edge.
        p.setPen(Qt.NoPen)
        p.setBrush(QColor(data.colour))
        p.drawRoundedRect(QRectF(r.left(), r.top(), 7, r.height()), 3, 3)
        rows, placed, dice_rects = self.layout()
        fills = {die: (fill, value) for die, _c, fill, value in data.dice}
        for i, (row, face_r, name, boxes, column) in enumerate(rows):
            if i % 2:
                p.setPen(Qt.NoPen)
                p.setBrush(QColor("#F3EFE4"))
                p.drawRect(row.adjusted(-4, 0, 4, 0))
            pips = i + 1 if i < 6 else None
            pt.paint_die(p, face_r, pips=pips, colour="#FFFFFF" if pips else "#E8E2D0")
            if pips is None:            # Read the News: a folded newspaper's lines on the face
                p.setPen(QPen(QColor("#555555"), max(face_r.height() / 14, 1.2)))
                for k in range(3):
                    y = face_r.top() + face_r.height() * (0.32 + 0.18 * k)
                    p.drawLine(QPointF(face_r.left() + face_r.width() * 0.25, y),
                               QPointF(face_r.right() - face_r.width() * 0.25, y))
            p.setPen(QColor(INK))
            txt.draw_lines(p, QRect(name.rect.left(), int(row.top() + (row.height() - txt.line_height(name.px)) / 2),
                                    name.rect.width(), int(txt.line_height(name.px))), (name.text,), name.px,
                           align=Qt.AlignLeft)
            level = data.levels.get(column)
            if level is not None:
                side = boxes.height()
                for k in range(4):
                    cell = QRectF(boxes.left() + k * (side + 3), boxes.top(), side, side)
                    p.setPen(QPen(QColor("#444444"), 1.5))
                    p.setBrush(QColor(data.colour) if k < level else QColor("#FFFFFF"))
                    p.drawRect(cell)
        for die, rect in dice_rects.items():
            if die in self.held:
                continue
            fill, value = fills[die]
            paint_pool_die(p, rect, die, value, fill)
        for key, drawn, value in placed:
            label = drawn.text[: len(drawn.text) - len(value)].rstrip()
            lines = drawn.text.split("\n")
            if len(lines) > 1 or not label:
                p.setPen(QColor(INK))
                txt.draw_lines(p, drawn.rect, tuple(lines), drawn.px, align=Qt.AlignLeft)
                continue
            f = txt.font(drawn.px)
            p.setFont(f)
            p.setPen(QColor(SOFT_INK))
            p.drawText(QRectF(drawn.rect), int(Qt.AlignLeft | Qt.AlignVCenter), label)
            shift = QFontMetrics(f).horizontalAdvance(label + " ")
            p.setFont(txt.font(drawn.px, True))
            p.setPen(QColor(INK))
            p.drawText(QRectF(drawn.rect).adjusted(shift, 0, 0, 0), int(Qt.AlignLeft | Qt.AlignVCenter), value)


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
        return _clamp(height - 2 * self.PAD, 20, 36)

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
        return _clamp(height - 2 * self.PAD, 26, 32)

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


@lru_cache(maxsize=8192)
def advance(text: str, px: int, bold: bool = False) -> int:
    """How wide ``text`` is at ``px`` pixels (measured once)."""
    return QFontMetrics(txt.font(px, bold)).horizontalAdvance(text)


@lru_cache(maxsize=2048)
def _wrapped(text: str, px: int, width: int) -> tuple[str, ...]:
    return tuple(txt.wrap(text, QFontMetrics(txt.font(px)), width))


def _flow(entries: list[tuple[str, str, str, bool]], room: QRectF) -> tuple[list[tuple[str, txt.DrawnText, str]], bool]:
    """Entries as "words value" pieces flowing left to right in lines, at the largest size that
    fits ``room`` (none below the least size); whether they all fitted."""
    for px in range(22, txt.LEAST_PX - 1, -1):
        line_h = txt.line_height(px, True) + 3
        x, y = room.left(), room.top()
        out = []
        ok = True
        for key, words, value, _optional in entries:
            w = advance(words + " ", px) + advance(value, px, True) + 4
            if w > room.width():
                # Too long for a line (a list of cards): wrapped on lines of its own.
                if x > room.left():
                    x, y = room.left(), y + line_h
                lines = _wrapped(f"{words} {value}", px, int(room.width()))
                h = len(lines) * txt.line_height(px)
                if any(advance(line, px) > room.width() for line in lines):
                    ok = False
                out.append((key, txt.DrawnText("\n".join(lines), px, QRect(int(x), int(y), int(room.width()), int(h)),
                                               True), value))
                y += h + 3
                continue
            if x + w > room.right() and x > room.left():
                x, y = room.left(), y + line_h
            out.append((key, txt.DrawnText(f"{words} {value}", px, QRect(int(x), int(y), int(w), int(line_h - 3)),
                                           True), value))
            x += w + max(px, 16)
        bottom = y + (line_h if x > room.left() else 0)
        if ok and bottom <= room.bottom() + 1:
            return out, True
    return out, False


class PlayerTab(HoldsDice, PaintedOnce, Clickable):
    """A player in the row above the sheet: their colour, name and points (and cash and the dice
    they took this round, when there is room). The one shown on the sheet is the open tab; a
    click shows that player's board."""

    chosen_player = Signal(str)

    def __init__(self, player: str, colour: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.player, self.colour = player, colour
        self.setObjectName(f"sm:tab:{player}")
        self.setSizePolicy(QSizePolicy.Ignored, QSizePolicy.Ignored)
        self.parts: list[str] = [player]
        self.dice: list[tuple[str, str, int]] = []      # (die, fill, value)
        self.open = self.current = False
        self.held: set[str] = set()
        self._placed = None
        self.clicked.connect(lambda: self.chosen_player.emit(self.player))

    def set_tab(self, parts: list[str], dice: list[tuple[str, str, int]], *, open_: bool, current: bool) -> None:
        if (parts, dice, open_, current) != (self.parts, self.dice, self.open, self.current):
            self.parts, self.dice, self.open, self.current = list(parts), list(dice), open_, current
            self._placed = None
            self.setAccessibleName(" ".join(parts) + (", playing now" if current else "")
                                   + (", shown" if open_ else ""))
            self.update()

    def text(self) -> str:
        return " ".join(self.parts)

    def _layout(self):
        if self._placed is None:
            h = self.height()
            disc = QRectF(6, (h - DISC) / 2, DISC, DISC)
            x = disc.right() + 6
            room_w = self.width() - x - 6
            mark = "\u25B6 " if self.current else ""
            two = h >= 2 * txt.line_height(txt.LEAST_PX, True) + 8 and len(self.parts) > 1
            dice = {}
            if two:
                # The name on top; the points and cash under it, then the dice taken this round.
                line_h = (h - 6) / 2
                face = min(line_h - 2, 22)
                # A narrow tab keeps what fits: the name (the disc's initial alone when even that is too
                # wide), then the points and cash with the dice, or less (the dice go first).
                placed = []
                for words in (mark + self.parts[0], self.parts[0], elided(self.parts[0], room_w)):
                    fitted, ok = fit([pt.Row(words, 20, bold=True, max_lines=1)], int(room_w), int(line_h))
                    if ok:
                        placed = place_lines(fitted, QRectF(x, 3, room_w, line_h))
                        break
                rest = self.parts[1:]
                all_dice = len(self.dice) * (face + 2) + 6 if self.dice else 0
                show_dice = False
                for words, dice_w in (("  ".join(rest), all_dice), (rest[0], all_dice), (rest[0], 0),
                                      (rest[0].split()[0], 0)):
                    fitted, ok = fit([pt.Row(words, 17, max_lines=1)], int(room_w - dice_w), int(line_h))
                    if ok:
                        show_dice = bool(dice_w)
                        placed += place_lines(fitted, QRectF(x, 3 + line_h, room_w - dice_w, line_h))
                        break
                width = max((QFontMetrics(txt.font(d.px)).horizontalAdvance(d.text) for d, x in placed if not x.bold),
                            default=0)
                dx = x + width + 8
                for die, _fill, _value in self.dice if show_dice else ():
                    dice[die] = QRectF(dx, 3 + line_h + (line_h - face) / 2, face, face)
                    dx += face + 2
            else:
                face = min(h - 12, 24)
                parts = list(self.parts)
                while True:
                    dice_w = len(self.dice) * (face + 2) + 6 if self.dice and len(parts) > 1 else 0
                    fitted, ok = fit([pt.Row(mark + "  ".join(parts), 24 if self.current else 18, bold=True,
                                             max_lines=1)], int(room_w - dice_w), int(h - 4))
                    if ok or len(parts) <= 1:
                        break
                    parts.pop()
                if not ok:                  # too narrow for a name: as much of it as fits, with "…"
                    fitted, ok = fit([pt.Row(elided(parts[0], room_w), 18, bold=True, max_lines=1)],
                                     int(room_w), int(h - 4))
                placed = place_lines(fitted, QRectF(x, 2, room_w - dice_w, h - 4)) if ok else []
                width = max((QFontMetrics(txt.font(d.px, True)).horizontalAdvance(d.text) for d, _ in placed),
                            default=0)
                if dice_w:
                    dx = x + width + 8
                    for die, _fill, _value in self.dice:
                        dice[die] = QRectF(dx, (h - face) / 2, face, face)
                        dx += face + 2
            self._placed = (disc, placed, dice)
        return self._placed

    def die_rect(self, die: str) -> QRectF | None:
        disc, _, dice = self._layout()
        return dice.get(die, disc)

    def drawn_texts(self) -> list[txt.DrawnText]:
        disc, placed, _ = self._layout()
        return [disc_texts(disc, self.player)] + [d for d, _ in placed]

    def paint_key(self) -> tuple:
        return (tuple(self.parts), tuple(self.dice), self.open, self.current, frozenset(self.held), self.hasFocus())

    def _paint(self, p: QPainter) -> None:
        p.setRenderHint(QPainter.Antialiasing)
        r = QRectF(self.rect()).adjusted(1, 1, -1, 0)
        path = QPainterPath()
        path.addRoundedRect(r.adjusted(0, 0, 0, 10), 10, 10)
        clip = QPainterPath()
        clip.addRect(r)
        p.setPen(QPen(QColor("#8A8A8A"), 2))
        fill = QColor(PAPER) if self.open else QColor("#E6E1D4")
        p.setBrush(fill)
        p.drawPath(path.intersected(clip))
        if self.current:
            band = QColor(self.colour)
            band.setAlpha(70)
            p.setPen(Qt.NoPen)
            p.setBrush(band)
            p.drawRoundedRect(r.adjusted(3, 3, -3, -2), 8, 8)
        disc, placed, shown = self._layout()
        paint_player_disc(p, disc, self.colour, self.player)
        draw_placed(p, placed, Qt.AlignLeft)
        for die, fill, value in self.dice:
            if die in shown and die not in self.held:
                paint_pool_die(p, shown[die], die, value, fill)
        if self.hasFocus():
            pt.paint_focus(p, r.adjusted(3, 3, -3, -3), 8)


def elided(name: str, width: float) -> str:
    """``name`` shortened with "…" to ``width`` at the least size, in bold (a name never cut)."""
    return QFontMetrics(txt.font(txt.LEAST_PX, True)).elidedText(name, Qt.ElideRight, max(int(width) - 2, 1))


# --- the whole table ---------------------------------------------------------------------------------
def _clamp(value: float, least: float, most: float) -> float:
    return max(least, min(value, most))


class BoardArea(QWidget):
    """Lays the table's pieces out for the room there is and for what is being chosen:

    - the dice pool across the top (and "Check your box" at its end when values wait);
    - on the left the status line, the city map and the Conspiracy's four cards; on the right
      the Case display, a tab per player and the shown player's board;
    - a panel (choices the table asks for itself) takes the left side, the display's place
      (``strip``), the right side beside a larger map (``right``: choosing locations), the right
      side beside the map and the Conspiracy (``side``: the deal, the reveal), or everything
      under the pool (``wide``); the final scoring takes the whole table.
    """

    def __init__(self, *, pool: QWidget, box_button: QWidget, status: QWidget, city: QWidget,
                 conspiracy: list[QWidget], display: list[QWidget], tabs: list[QWidget], sheet: QWidget,
                 panel: QWidget, final: QWidget, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("sm:board")
        self.pool, self.box_button, self.status, self.city = pool, box_button, status, city
        self.conspiracy, self.display, self.tabs = conspiracy, display, tabs
        self.sheet, self.panel, self.final = sheet, panel, final
        self.pieces = [pool, box_button, status, city, *conspiracy, *display, *tabs, sheet, panel, final]
        for piece in self.pieces:
            piece.setParent(self)
        #: where the panel goes: None (no panel), "left", "strip", "right" (beside a large map), "side"
        #: (beside the map and the Conspiracy) or "wide"
        self.panel_at: str | None = None
        #: a large map (locations are being chosen on it)
        self.big_map = False
        self.over = False
        self.box_wanted = False
        self.setSizePolicy(QSizePolicy.Expanding, QSizePolicy.Expanding)
        self.layer = FlightLayer(self)

    def arrange(self, *, panel_at: str | None, big_map: bool, over: bool, box_wanted: bool) -> None:
        if (panel_at, big_map, over, box_wanted) != (self.panel_at, self.big_map, self.over, self.box_wanted):
            self.panel_at, self.big_map, self.over, self.box_wanted = panel_at, big_map, over, box_wanted
            self.relayout()

    def minimumSizeHint(self) -> QSize:
        return QSize(560, 260)

    def sizeHint(self) -> QSize:
        return QSize(1000, 420)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self.relayout()

    def panel_width(self) -> int:
        return self.panel.width()

    def relayout(self) -> None:
        W, H = float(self.width()), float(self.height())
        gap = 8.0
        shown: dict[QWidget, QRectF] = {}
        if self.over:
            shown[self.final] = QRectF(0, 0, W, H)
        else:
            pool_h = _clamp(H * 0.19, 64, 104)
            # Right of the dice: the status line, and "Check your box" under it when values wait.
            side_least = 220.0
            box_h = txt.line_height(16, True) + 14
            natural = self.pool.natural_width(pool_h, W - side_least - gap)
            lead_h = 2 * txt.line_height(LEAD_LEAST, True) + 2
            if self.box_wanted and W - natural - gap < 440 and pool_h < lead_h + box_h + 4:
                # "Check your box" goes under the status: the pool a little higher, so the status
                # keeps two lines of its lead at the lead's least size.
                pool_h = lead_h + box_h + 4
                natural = self.pool.natural_width(pool_h, W - side_least - gap)
            side = QRectF(natural + gap, 0, min(W - natural - gap, 600), pool_h)
            status = QRectF(side)
            if self.box_wanted:
                if side.width() >= 500:         # beside the status
                    box = QRectF(side.right() - 260, (pool_h - box_h) / 2, 260, box_h)
                    status.setRight(box.left() - gap)
                else:                           # under it
                    box = QRectF(side.left(), side.bottom() - box_h, min(side.width(), 300), box_h)
                    status.setBottom(box.top() - 4)
                shown[self.box_button] = box
            shown[self.pool] = QRectF(0, 0, natural, pool_h)
            shown[self.status] = status
            self.status.set_max_lines(3)
            top = pool_h + gap
            low = H - top
            if self.panel_at == "wide":
                shown[self.panel] = QRectF(0, top, W, low)
            else:
                # A larger map while locations are chosen on it: their names at least 24 px.
                # Beside a panel of choices for a path (``right``) the map leaves the panel half the
                # width and the whole height: its choices are all in sight without scrolling.
                if self.panel_at == "right":
                    split = 0.52 if W < 1100 else 0.56
                elif self.big_map:
                    split = 0.64 if W < 1100 else 0.6
                else:
                    split = 0.5 if self.panel_at == "left" else 0.45
                left = QRectF(0, top, W * split - gap / 2, low)
                right = QRectF(left.right() + gap, top, W - left.right() - gap, low)
                status_h = 0
                if self.panel_at == "left":
                    shown[self.panel] = left
                else:
                    if self.big_map:
                        shown[self.city] = QRectF(left.left(), top + status_h, left.width(), low - status_h)
                    else:
                        cards_h = _clamp(low * 0.27, 76, 150)
                        shown[self.city] = QRectF(left.left(), top + status_h, left.width(),
                                                  low - status_h - cards_h - gap / 2)
                        w = left.width() / len(self.conspiracy)
                        for i, card in enumerate(self.conspiracy):
                            shown[card] = QRectF(left.left() + i * w, left.bottom() - cards_h, w, cards_h)
                if self.panel_at == "side":     # the panel takes the display's and the boards' side
                    shown[self.panel] = right
                    old_right = None
                else:
                    old_right = right
                tabs_h = _clamp(low * 0.1, txt.line_height(18, True) + 8, txt.line_height(20, True) + 16)
                if len(self.tabs) > 2 and low >= 280:       # narrow tabs: the name over the points
                    tabs_h = 2 * txt.line_height(17, True) + 8
                y = top
                if old_right is None:
                    pass
                elif not self.big_map:
                    # The board under the display gets the room its seven columns want first.
                    sheet_want = 7 * (txt.line_height(16) + 3) + 16
                    display_h = _clamp(low - tabs_h - sheet_want, 60, 196)
                    if self.panel_at == "strip":
                        shown[self.panel] = QRectF(right.left(), top, right.width(), display_h)
                    else:
                        w = right.width() / len(self.display)
                        for i, card in enumerate(self.display):
                            shown[card] = QRectF(right.left() + i * w, top, w, display_h)
                    y = top + display_h + gap / 2
                if old_right is None:
                    pass
                elif self.panel_at == "right":
                    shown[self.panel] = QRectF(right.left(), y, right.width(), right.bottom() - y)
                else:
                    tab_w = min(right.width() / max(len(self.tabs), 1), 300)
                    for i, tab in enumerate(self.tabs):
                        shown[tab] = QRectF(right.left() + i * tab_w, y, tab_w - 2, tabs_h)
                    shown[self.sheet] = QRectF(right.left(), y + tabs_h - 1, right.width(),
                                               right.bottom() - y - tabs_h + 1)
        for piece in self.pieces:
            if piece in shown:
                piece.setGeometry(shown[piece].toAlignedRect())
            piece.setVisible(piece in shown)
        self.layer.raise_()
