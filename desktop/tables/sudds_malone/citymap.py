"""The city drawn as a map (issue 23): land and water, the roads between the locations that touch,
and each location's tile with its snitches, badges and Flimflam card (where each lies:
:mod:`.city`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterable

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import QSizePolicy, QWidget

from ...drawn import Piece, paint as pt, text as txt
from .city import City
from .pieces import (LAND, PAPER, PaintedOnce, ROAD, SOFT_INK, SUSPECT_BACK, WATER, clamp, draw_placed, fit, mark_px,
                     paint_mark, paint_marks, place_lines)


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
        return clamp(h * 0.42, 20, 36)

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
            road_x, road_y = clamp((width - 300) * 0.04, 4, 28), clamp((height - 200) * 0.05, 0, 18)
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
