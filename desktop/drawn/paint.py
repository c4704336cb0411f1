"""Painting: cards (back and face), card-type symbols, dice with pips, pieces, piles, and the
marks of a legal target (a glow), a chosen one (a thick mark and a tick) and the keyboard focus.

Everything is drawn with QPainter in the widget's own coordinates, straight onto the widget
(no cached pixmaps), so a screen at twice the pixel density gets twice the detail.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

from PySide6.QtCore import QPointF, QRect, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPainterPath, QPen, QPixmap, QPolygonF

from .. import style
from . import text as txt
from .palette import readable_ink

#: a card under another in a stack shows this much of its top edge
LAYER_LIFT = 3
#: room kept around a card for the glow of a legal target (the card never moves when it glows)
GLOW = 5
RADIUS = 10
#: a face's name at most this many pixels: its largest words (where it lies and its notes are smaller)
NAME_PX = 26
FACE = "#FFFDF6"              # a card's face: warm white
EMPTY = "#B5B0A5"


@dataclass(frozen=True)
class Row:
    """A piece of a card's words, fitted from ``largest`` down to ``least`` pixels."""

    text: str
    largest: int
    least: int = txt.LEAST_PX
    bold: bool = False
    key: bool = False           # the card's name for the choice ("Top", "Table 1")
    optional: bool = False      # left out when the card has no room for it
    max_lines: int = 3
    drop: int = 3               # of the optional rows, the highest is left out first
    narrow: bool = False        # in a narrow face (a card's name: more letters to a line)
    yields: int = 0             # short of room, the rows of the highest ``yields`` get smaller first
    ink: str = ""               # its colour ("": the card's)
    plate: bool = False         # on a light label of its own (a remembered name on a card's back)

    @property
    def family(self) -> str:
        return txt.narrow_family() if self.narrow else ""


@dataclass(frozen=True)
class CardLook:
    """What a card shows. ``name`` is known (face up, or seen by everyone); without it the back shows."""

    caption: str                      # where it lies, in words ("Top", "Table 1"): the legal choice's words
    kind: str = ""                    # its type's name ("Loot")
    symbol: str = ""                  # its type's symbol (a shape: diamond, disc, triangle, square)
    colour: str = "#DDDDDD"           # its type's colour
    name: str | None = None
    face_up: bool = False
    present: bool = True
    notes: tuple[str, ...] = ()       # smaller lines ("seen by all", "3 cards, 2 points")
    layers: tuple[str, ...] = ()      # colours of cards under this one (a stack: bottom first)
    band: str | None = None           # the face's top band colour (default: the type's colour)
    count: int = 0                    # a pile: how many cards (its edges show how thick it is)
    badge: str = ""                   # a face's corner words ("2 pts"), in its top band
    #: a face-down card everyone saw (it was flipped, then went back face down): its back is
    #: drawn, with this name on a light label (``name`` stays None: the card is not face up)
    seen: str = ""

    def words(self) -> list[str]:
        """Everything the card says, in reading order (its accessible name, the tests' view)."""
        if not self.present:
            return [self.caption, "(empty)"]
        if self.name:
            return [self.name, *self.notes, self.caption, *([self.badge] if self.badge else [])]
        if self.seen:
            return [self.seen, "(seen by all)", *self.notes, self.caption]
        return [f"{self.symbol} {self.kind}".strip(), self.caption, *self.notes]



@dataclass
class CardLayout:
    card: QRectF                                   # the card itself (inside the glow's room)
    texts: list[tuple[txt.DrawnText, bool, str]] = field(default_factory=list)   # (text, bold, ink)
    symbol: QRectF | None = None
    plates: list[QRectF] = field(default_factory=list)      # light labels under some words (``Row.plate``)


def card_rect(rect: QRect | QRectF, look: CardLook) -> QRectF:
    r = QRectF(rect).adjusted(GLOW, GLOW, -GLOW, -GLOW)
    lift = min(len(look.layers), 4) * LAYER_LIFT
    edges = PILE_EDGE * _pile_edges(look.count)
    return r.adjusted(0, lift, -edges, -edges)


def _rows(look: CardLook, legal: bool, strip: bool, badge_in_rows: bool = False) -> list[Row]:
    key_least = txt.KEY_PX if legal else txt.LEAST_PX
    caption = Row(look.caption, 30, key_least, bold=True, key=True, max_lines=2)
    if not look.present:
        return [caption, Row("(empty)", 18, optional=True)]
    notes = [Row(n, 17, optional=True, max_lines=2, narrow=True) for n in look.notes]
    if look.name:
        # The card's name is what a family reads from across the table: it is the face's largest
        # words, and short of room where it lies gets smaller first (down to 24 px when that is
        # the legal choice's words), then the notes, and only then the name. Shorter still, a face
        # keeps its name and leaves out where it lies (the order of the places says it), unless
        # it is a legal choice: then its place's words come first.
        # A face too small for its name at the least size shows its band (type, colour, symbol):
        # the name is in its tooltip and its screen-reader name.
        name = Row(look.name, NAME_PX, bold=True, optional=True, drop=1 if legal else 0, narrow=True)
        caption = Row(look.caption, min(txt.KEY_PX, NAME_PX), key_least, bold=True, key=True, max_lines=2,
                      optional=not legal, drop=2, yields=2)
        notes = [replace(n, yields=1) for n in notes]
        badge = [Row(look.badge, 18, bold=True, max_lines=2)] if look.badge and badge_in_rows else []
        return [name, *badge, caption, *notes] if strip else [name, *badge, *notes, caption]
    if look.seen:
        return rows_of_seen(look, legal)
    kind = [Row(look.kind, 22, bold=True, optional=True, max_lines=1)] if look.kind else []
    return [caption, *kind, *notes]


def rows_of_seen(look: CardLook, legal: bool) -> list[Row]:
    """A back everyone saw the face of: where it lies, and its name on a label; its colour and
    symbol say its type. Short of room, where it lies gets smaller first (not below 20 px), then
    the name (``layout_card`` has the ways on when even that leaves the name out)."""
    caption = Row(look.caption, 30, txt.KEY_PX if legal else 20, bold=True, key=True, max_lines=2, yields=1)
    notes = [Row(n, 17, optional=True, max_lines=2, narrow=True) for n in look.notes]
    return [caption, Row(look.seen, 22, bold=True, optional=True, max_lines=2, ink="#111111", plate=True), *notes]


def _least(row: Row, legal: bool) -> int:
    """A row's own least size: a legal choice's words 24 px, any other words 15 px."""
    return txt.KEY_PX if legal and row.key else txt.LEAST_PX


def layout_card(rect: QRect | QRectF, look: CardLook, *, legal: bool = False, chosen: bool = False,
                exposed: float | None = None) -> CardLayout:
    """Where each piece of a card's words goes, each as large as the room allows.

    ``exposed``: only this many pixels from the card's top are seen (a card under another in a
    cascade): the words go there, the rest of the card is pattern.
    """
    card = card_rect(rect, look)
    out = CardLayout(card)
    band = 0.0
    ink = readable_ink(look.colour) if look.present and not look.name else "#111111" if look.present else "#555555"
    if look.present and look.name:
        band = band_height(card, look)
        _band_words(out, card, look, band)
    pad = 5
    # A chosen card's tick sits at its top right: the words keep clear of it.
    room = QRectF(card).adjusted(pad, pad + band, -pad - (badge_size(card) * 2 if chosen else 0), -pad)
    if exposed is not None:
        room.setBottom(min(room.bottom(), card.top() + exposed - 2))
    # A badge the band has no room for goes among the words (a mission's points are never left out).
    in_band = any(d.text == look.badge for d, _, _ in out.texts) if look.badge else True
    rows = _rows(look, legal, exposed is not None, badge_in_rows=not in_band)
    width, height = int(room.width()), int(room.height())
    rows, placed, total, fitted = fit_rows(rows, width, height)
    if look.seen and not look.name and not (fitted and any(r.plate for r in rows)):
        # No room for a remembered name under a 20 px place: rather than the name being left out,
        # the place gets smaller, the name takes a third line, then the narrow face, and last (on
        # a card that is not a choice) the place's words go (the order of the places says it).
        caption, seen, *notes = [replace(r, least=_least(r, legal)) for r in rows_of_seen(look, legal)]
        tries = [[caption, replace(seen, max_lines=3), *notes], [caption, replace(seen, max_lines=3, narrow=True), *notes]]
        tries += [] if legal else [[replace(seen, max_lines=4, narrow=True), *notes]]
        for rows_tried in tries:
            again = fit_rows(rows_tried, width, height)
            if again[3] and any(r.plate for r in again[0]):
                rows, placed, total, fitted = again
                break
    spare = height - total if fitted else 0
    # The back: the type's symbol between the caption and the rest, when there is room for it.
    symbol_room = spare > 22 and look.present and not look.name and bool(look.symbol)
    y = room.top() + (0 if symbol_room else max(spare, 0) / 2)
    for i, (r, (px, lines, _)) in enumerate(zip(rows, placed)):
        h = len(lines) * txt.line_height(px, r.bold, r.family)
        out.texts.append((txt.DrawnText("\n".join(lines), px, QRect(int(room.left()), int(y), width, int(h)),
                                        fitted, r.key, r.family), r.bold, r.ink or ink))
        if r.plate:
            out.plates.append(QRectF(room.left(), y, width, h).adjusted(-3, -1, 3, 1))
        y += h + GAP
        if i == 0 and symbol_room:
            out.symbol = QRectF(room.left(), y, room.width(), spare).adjusted(0, 1, 0, -3)
            y += spare
    return out


GAP = 2


def fit_rows(rows: list[Row], width: int, height: int, *, keep_least: bool = False
             ) -> tuple[list[Row], list[tuple[int, tuple[str, ...], bool]], int, bool]:
    """Fit rows of words into ``width`` x ``height``: the rows that yield first (``Row.yields``)
    get smaller first, then the biggest text, a legal choice's words last; then optional rows are
    left out; then a legal choice's words go below 24 px (the type-size test says so) before
    anything is cut, unless ``keep_least`` (no row below its ``least``: the caller has its own
    way out, such as a shortened name). Returns the rows kept, each one's
    (pixel size, lines), their height and whether they all fit."""
    rows = list(rows)
    # Each row starts at the largest size its width allows (fewer steps down to the height's).
    sizes = [txt.fit(r.text, width, 10_000, r.largest, r.least, bold=r.bold, family=r.family,
                     max_lines=r.max_lines)[0] for r in rows]
    floor = [r.least for r in rows]

    def measure() -> list[tuple[int, tuple[str, ...], bool]]:
        return [txt.fit(r.text, width, 10_000, s, s, bold=r.bold, family=r.family, max_lines=r.max_lines)
                for r, s in zip(rows, sizes)]

    while True:
        placed = measure()
        total = sum(len(lines) * txt.line_height(px, r.bold, r.family) for r, (px, lines, _) in zip(rows, placed))
        total += GAP * (len(rows) - 1)
        across = all(ok and len(lines) <= r.max_lines for r, (_, lines, ok) in zip(rows, placed))
        if total <= height and across:
            return rows, placed, total, True
        shrinkable = [i for i in range(len(rows)) if sizes[i] > floor[i]]
        if shrinkable:
            i = max(shrinkable, key=lambda k: (rows[k].yields, not rows[k].key, sizes[k] - floor[k]))
            sizes[i] -= 1
            continue
        optional = [i for i, r in enumerate(rows) if r.optional]
        if optional:
            i = max(optional, key=lambda k: (rows[k].drop, k))
            del rows[i], sizes[i], floor[i]
            continue
        if not keep_least and any(f > txt.LEAST_PX for f in floor):
            floor = [txt.LEAST_PX for _ in floor]
            continue
        return rows, placed, total, False


# --- shapes -------------------------------------------------------------------------------------
def symbol_path(symbol: str, rect: QRectF) -> QPainterPath | None:
    """The card type's symbol as a shape centred in ``rect`` (None: not one of the four)."""
    side = min(rect.width(), rect.height())
    c = rect.center()
    h = side / 2
    path = QPainterPath()
    if symbol == "\u25C6":                 # diamond
        path.addPolygon(QPolygonF([QPointF(c.x(), c.y() - h), QPointF(c.x() + h * 0.8, c.y()),
                                   QPointF(c.x(), c.y() + h), QPointF(c.x() - h * 0.8, c.y())]))
    elif symbol == "\u25CF":               # disc
        path.addEllipse(c, h * 0.85, h * 0.85)
    elif symbol == "\u25B2":               # triangle
        path.addPolygon(QPolygonF([QPointF(c.x(), c.y() - h * 0.9), QPointF(c.x() + h, c.y() + h * 0.8),
                                   QPointF(c.x() - h, c.y() + h * 0.8)]))
    elif symbol == "\u25A0":               # square
        path.addRect(QRectF(c.x() - h * 0.78, c.y() - h * 0.78, h * 1.56, h * 1.56))
    else:
        return None
    path.closeSubpath()
    return path


def paint_symbol(p: QPainter, rect: QRectF, symbol: str, colour: str, *, plate: bool = True) -> None:
    """The symbol in a white disc (it reads on any card colour)."""
    side = min(rect.width(), rect.height())
    if side < 8:
        return
    c = rect.center()
    if plate:
        p.setPen(QPen(QColor("#333333"), 1.5))
        p.setBrush(QColor("#FFFFFF"))
        p.drawEllipse(c, side / 2, side / 2)
        inner = QRectF(c.x() - side * 0.3, c.y() - side * 0.3, side * 0.6, side * 0.6)
    else:
        inner = QRectF(c.x() - side / 2, c.y() - side / 2, side, side)
    path = symbol_path(symbol, inner)
    if path is not None:
        p.setPen(QPen(QColor("#222222"), max(side / 30, 1.2)))
        p.setBrush(QColor(colour).darker(135))
        p.drawPath(path)
    elif symbol:
        f = txt.font(max(int(inner.height() * 0.8), txt.LEAST_PX), True)
        p.setFont(f)
        p.setPen(QColor("#222222"))
        p.drawText(inner, int(Qt.AlignCenter), symbol)


def paint_glow(p: QPainter, card: QRectF) -> None:
    """A legal target: a blue halo around the card and an arrow at its left edge."""
    base = QColor(style.HIGHLIGHT)
    p.setBrush(Qt.NoBrush)
    for grow, alpha, width in ((6, 50, 5), (4, 110, 3), (1.5, 255, 3)):
        c = QColor(base)
        c.setAlpha(alpha)
        p.setPen(QPen(c, width))
        p.drawRoundedRect(card.adjusted(-grow, -grow, grow, grow), RADIUS + grow, RADIUS + grow)
    # The arrow: a legal target without relying on colour.
    s = min(14.0, card.height() / 4)
    y = card.top() + min(card.height() / 2, 28)
    tip = QPolygonF([QPointF(card.left() - GLOW + 1, y - s / 2), QPointF(card.left() + s * 0.6, y),
                     QPointF(card.left() - GLOW + 1, y + s / 2)])
    p.setPen(QPen(QColor("#FFFFFF"), 1.5))
    p.setBrush(base)
    p.drawPolygon(tip)


def badge_size(card: QRectF) -> float:
    return min(12.0, card.height() / 4)


def paint_chosen(p: QPainter, card: QRectF) -> None:
    """A chosen target: a thick vermillion border and a tick in a disc at its top right."""
    p.setBrush(Qt.NoBrush)
    p.setPen(QPen(QColor(style.CHOSEN), 5))
    p.drawRoundedRect(card.adjusted(-1, -1, 1, 1), RADIUS, RADIUS)
    r = badge_size(card)
    c = QPointF(card.right() - r - 3, card.top() + r + 3)
    p.setPen(QPen(QColor("#FFFFFF"), 2))
    p.setBrush(QColor(style.CHOSEN))
    p.drawEllipse(c, r, r)
    tick = QPainterPath(QPointF(c.x() - r * 0.5, c.y()))
    tick.lineTo(c.x() - r * 0.1, c.y() + r * 0.45)
    tick.lineTo(c.x() + r * 0.55, c.y() - r * 0.45)
    p.setPen(QPen(QColor("#FFFFFF"), max(r / 4, 2), Qt.SolidLine, Qt.RoundCap, Qt.RoundJoin))
    p.setBrush(Qt.NoBrush)
    p.drawPath(tick)


def paint_focus(p: QPainter, rect: QRectF, radius: float = RADIUS + 4) -> None:
    """The keyboard focus: a dashed black ring (seen on every card colour, with or without a glow)."""
    p.setBrush(Qt.NoBrush)
    p.setPen(QPen(QColor("#000000"), 2.5, Qt.DashLine))
    p.drawRoundedRect(rect, radius, radius)


def paint_legal_edge(p: QPainter, rect: QRectF, *, arrow_right: bool = False) -> None:
    """A legal choice told by more than colour: a thick blue edge and a small arrow in a top corner
    (the left one, or the right one where the left holds something else)."""
    p.setPen(QPen(QColor(style.HIGHLIGHT), 4))
    p.setBrush(Qt.NoBrush)
    p.drawRoundedRect(rect.adjusted(1, 1, -1, -1), 8, 8)
    s = min(11.0, rect.height() / 6)
    x, y = (rect.right() - 3 - s * 1.6 if arrow_right else rect.left() + 3), rect.top() + 3
    p.setPen(QPen(QColor("#FFFFFF"), 1.5))
    p.setBrush(QColor(style.HIGHLIGHT))
    p.drawPolygon(QPolygonF([QPointF(x, y), QPointF(x + s * 1.6, y + s), QPointF(x, y + s * 2)]))


def paint_chosen_and_focus(p: QPainter, rect: QRectF, *, chosen: bool, focused: bool, radius: float) -> None:
    """The chosen mark, then the focus ring just inside ``rect`` (its corners rounded by ``radius``)."""
    if chosen:
        paint_chosen(p, rect)
    if focused:
        paint_focus(p, rect.adjusted(2, 2, -2, -2), radius)


def _layers(p: QPainter, card: QRectF, layers: tuple[str, ...]) -> None:
    shown = layers[-4:]
    for i, colour in enumerate(shown):
        lift = (len(shown) - i) * LAYER_LIFT
        r = card.translated(0, -lift)
        p.setPen(QPen(QColor("#444444"), 1.2))
        p.setBrush(QColor(colour))
        p.drawRoundedRect(r, RADIUS, RADIUS)


WEAVE_STEP = 12

_weaves: dict[tuple[str, float], QBrush] = {}


def _weave(colour: str, ratio: float) -> QBrush:
    """A tile of the back's diagonal weave, drawn once per colour at the screen's pixel density
    (crisp at 2x) and used as a brush: a table of thirty backs paints in a few milliseconds."""
    key = (colour, ratio)
    if key not in _weaves:
        side = WEAVE_STEP
        tile = QPixmap(int(side * ratio), int(side * ratio))
        tile.setDevicePixelRatio(ratio)
        fill = QColor(colour)
        tile.fill(fill)
        tp = QPainter(tile)
        tp.setRenderHint(QPainter.Antialiasing)
        weave = QColor(fill.darker(125))
        weave.setAlpha(90)
        tp.setPen(QPen(weave, 1.5))
        for dx in (-side, 0, side):          # the line and its neighbours' ends: seamless tiles
            tp.drawLine(QPointF(dx, side), QPointF(dx + side, 0))
        tp.end()
        _weaves[key] = QBrush(tile)
    return _weaves[key]


def paint_back(p: QPainter, card: QRectF, colour: str) -> None:
    """A card's back: its type's colour, an inner frame and a light diagonal weave."""
    fill = QColor(colour)
    p.setPen(QPen(QColor("#333333"), 2))
    p.setBrush(fill)
    p.drawRoundedRect(card, RADIUS, RADIUS)
    inner = card.adjusted(5, 5, -5, -5)
    engine = p.paintEngine()
    device = engine.paintDevice() if engine is not None and engine.paintDevice() is not None else p.device()
    ratio = device.devicePixelRatioF() if device is not None else 1.0
    p.setPen(QPen(fill.darker(150), 1.5))
    p.setBrush(_weave(colour, ratio))
    p.drawRoundedRect(inner, RADIUS - 4, RADIUS - 4)


def band_height(card: QRectF, look: CardLook) -> float:
    """A face's top band: room for a line of words (its type, its points) on a card high enough."""
    if card.height() >= 50 and (look.kind or look.badge):
        return float(txt.line_height(txt.LEAST_PX, True) + 5)
    return min(max(card.height() * 0.16, 10.0), 22.0)


def _band_words(out: CardLayout, card: QRectF, look: CardLook, band: float) -> None:
    """The type's name at the band's left (after the symbol), the badge at its right: each only if it fits."""
    if band < txt.line_height(txt.LEAST_PX, True):
        return
    ink = readable_ink(look.band or look.colour)
    left = card.left() + band + 4
    right = card.right() - 8
    if look.badge:
        px, lines, ok = txt.fit(look.badge, int(right - left), int(band), 17, bold=True, max_lines=1)
        if not ok:
            return                      # no room in the band: the badge goes among the words
        w = txt.QFontMetrics(txt.font(px, True)).horizontalAdvance(lines[0]) + 2
        out.texts.append((txt.DrawnText(lines[0], px, QRect(int(right - w), int(card.top() + 2), int(w), int(band - 3)),
                                        ok), True, ink))
        right -= w + 6
    if look.kind and right - left > 20:
        for family in ("", txt.narrow_family()):          # the narrow face when the app's is too wide
            px, lines, ok = txt.fit(look.kind, int(right - left), int(band), 16, bold=True, family=family,
                                    max_lines=1)
            if ok:
                out.texts.append((txt.DrawnText(lines[0], px, QRect(int(left), int(card.top() + 2), int(right - left),
                                                                      int(band - 3)), True, False, family), True, ink))
                break


def paint_face(p: QPainter, card: QRectF, look: CardLook) -> None:
    """A card's face: warm white with its type's colour as a band across the top."""
    p.setPen(QPen(QColor("#333333"), 2))
    p.setBrush(QColor(FACE))
    p.drawRoundedRect(card, RADIUS, RADIUS)
    band_h = band_height(card, look)
    band = QPainterPath()
    band.addRoundedRect(card.adjusted(1, 1, -1, 0), RADIUS - 1, RADIUS - 1)
    top = QPainterPath()
    top.addRect(QRectF(card.left(), card.top(), card.width(), band_h))
    p.setPen(Qt.NoPen)
    p.setBrush(QColor(look.band or look.colour))
    p.drawPath(band.intersected(top))
    if look.symbol:
        paint_symbol(p, QRectF(card.left() + 4, card.top() + 1, band_h - 2, band_h - 2), look.symbol, look.colour,
                     plate=False)


def paint_card(p: QPainter, rect: QRect | QRectF, look: CardLook, layout: CardLayout, *, legal: bool = False,
               chosen: bool = False, focus: bool = False, held: bool = False) -> None:
    """The whole card at ``rect``: a held card (one on its way here) is only its dashed place."""
    p.setRenderHint(QPainter.Antialiasing)
    card = layout.card
    if held or not look.present:
        p.setPen(QPen(QColor(EMPTY), 2, Qt.DashLine))
        p.setBrush(QColor(0, 0, 0, 12))
        p.drawRoundedRect(card, RADIUS, RADIUS)
        if held:
            return
    else:
        _layers(p, card, look.layers)
        paint_pile_edges(p, card, look.colour if not look.name else FACE, look.count)
        if look.name:
            paint_face(p, card, look)
        else:
            paint_back(p, card, look.colour)
        if layout.symbol is not None:
            paint_symbol(p, layout.symbol, look.symbol, look.colour)
        for plate in layout.plates:
            p.setPen(QPen(QColor("#333333"), 1.2))
            p.setBrush(QColor(FACE))
            p.drawRoundedRect(plate.intersected(card.adjusted(2, 2, -2, -2)), 5, 5)
    for drawn, bold, ink in layout.texts:
        p.setPen(QColor(ink))
        lines = tuple(drawn.text.split("\n"))
        p.save()
        p.setClipRect(QRectF(card).adjusted(2, 2, -2, -2))
        in_band = look.name is not None and drawn.rect.bottom() < card.top() + band_height(card, look)
        txt.draw_lines(p, QRect(drawn.rect), lines, drawn.px, bold=bold, family=drawn.family,
                       align=Qt.AlignLeft if in_band else Qt.AlignHCenter)
        p.restore()
    if legal:
        paint_glow(p, card)
    if chosen:
        paint_chosen(p, card)
    if focus:
        paint_focus(p, card.adjusted(-4, -4, 4, 4))


# --- dice, pieces, piles ---------------------------------------------------------------------------
PIPS = {1: [(0.5, 0.5)], 2: [(0.25, 0.25), (0.75, 0.75)], 3: [(0.25, 0.25), (0.5, 0.5), (0.75, 0.75)],
        4: [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)],
        5: [(0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)],
        6: [(0.25, 0.25), (0.75, 0.25), (0.25, 0.5), (0.75, 0.5), (0.25, 0.75), (0.75, 0.75)]}


def paint_die(p: QPainter, rect: QRectF, *, pips: int | None = None, symbol: str = "", colour: str = "#FFFFFF",
              symbol_colour: str = "#888888", angle: float = 0.0) -> None:
    """A die seen from above: rounded, in its colour, showing ``pips`` (1-6) or a card type's symbol."""
    p.setRenderHint(QPainter.Antialiasing)
    side = min(rect.width(), rect.height())
    c = rect.center()
    p.save()
    p.translate(c)
    p.rotate(angle)
    body = QRectF(-side / 2, -side / 2, side, side)
    shade = QColor(colour).darker(140)
    p.setPen(Qt.NoPen)
    p.setBrush(QColor(0, 0, 0, 50))
    p.drawRoundedRect(body.translated(side * 0.04, side * 0.05), side * 0.18, side * 0.18)
    p.setPen(QPen(QColor("#222222"), max(side / 40, 1.5)))
    p.setBrush(QColor(colour))
    p.drawRoundedRect(body, side * 0.18, side * 0.18)
    p.setPen(QPen(shade, max(side / 60, 1.0)))
    p.setBrush(Qt.NoBrush)
    p.drawRoundedRect(body.adjusted(side * 0.06, side * 0.06, -side * 0.06, -side * 0.06), side * 0.13, side * 0.13)
    if pips in PIPS:
        ink = QColor(readable_ink(colour))
        p.setPen(Qt.NoPen)
        p.setBrush(ink)
        r = side * 0.085
        for fx, fy in PIPS[pips]:
            p.drawEllipse(QPointF(body.left() + fx * side, body.top() + fy * side), r, r)
    elif symbol:
        paint_symbol(p, body.adjusted(side * 0.16, side * 0.16, -side * 0.16, -side * 0.16), symbol, symbol_colour)
    p.restore()


def paint_piece(p: QPainter, rect: QRectF, colour: str, letter: str = "") -> None:
    """A player's piece: a pawn in their colour with their initial on its base."""
    p.setRenderHint(QPainter.Antialiasing)
    w, h = rect.width(), rect.height()
    head_r = min(w, h) * 0.2
    head = QPointF(rect.center().x(), rect.top() + head_r + 1)
    body = QPainterPath()
    body.moveTo(rect.left() + w * 0.18, rect.bottom() - 1)
    body.cubicTo(rect.left() + w * 0.25, rect.top() + h * 0.55, rect.center().x() - w * 0.12, head.y() + head_r,
                 rect.center().x(), head.y() + head_r * 0.6)
    body.cubicTo(rect.center().x() + w * 0.12, head.y() + head_r, rect.right() - w * 0.25, rect.top() + h * 0.55,
                 rect.right() - w * 0.18, rect.bottom() - 1)
    body.closeSubpath()
    p.setPen(QPen(QColor("#1A1A1A"), max(min(w, h) / 30, 1.5)))
    p.setBrush(QColor(colour))
    p.drawPath(body)
    p.drawEllipse(head, head_r, head_r)
    if letter:
        f = txt.font(max(int(h * 0.3), txt.LEAST_PX), True)
        p.setFont(f)
        p.setPen(QColor(readable_ink(colour)))
        p.drawText(QRectF(rect.left(), rect.top() + h * 0.45, w, h * 0.5), int(Qt.AlignCenter), letter[:1].upper())


PILE_EDGE = 2.5


def _pile_edges(count: int) -> int:
    return 0 if count <= 1 else min(1 + count // 4, 4)


def paint_pile_edges(p: QPainter, card: QRectF, colour: str, count: int) -> None:
    """A pile's thickness: a few card edges under the top card (more cards, more edges)."""
    edges = _pile_edges(count)
    for i in range(edges, 0, -1):
        p.setPen(QPen(QColor("#444444"), 1))
        p.setBrush(QColor(colour).darker(110 + 6 * i))
        p.drawRoundedRect(card.translated(i * PILE_EDGE, i * PILE_EDGE), RADIUS, RADIUS)


def ease(t: float) -> float:
    """Out-cubic: quick to leave, gentle to land."""
    return 1 - (1 - min(max(t, 0.0), 1.0)) ** 3


def lerp_rect(a: QRectF, b: QRectF, t: float, lift: float = 0.0) -> QRectF:
    """Between two rectangles at ``t`` (0..1); ``lift`` raises the middle of the path (an arc)."""
    k = ease(t)
    arc = math.sin(math.pi * k) * lift
    return QRectF(a.left() + (b.left() - a.left()) * k, a.top() + (b.top() - a.top()) * k - arc,
                  a.width() + (b.width() - a.width()) * k, a.height() + (b.height() - a.height()) * k)


__all__ = ["CardLook", "CardLayout", "Row", "layout_card", "paint_card", "paint_back", "paint_face", "paint_symbol",
           "paint_glow", "paint_chosen", "paint_focus", "paint_die", "paint_piece", "paint_pile_edges",
           "symbol_path", "lerp_rect", "ease", "GLOW"]
