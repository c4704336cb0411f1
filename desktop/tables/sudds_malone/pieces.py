"""What the drawn pieces of the Sudds & Malone table share (issue 23): the colours, fitting several
lines of words into a room, the marks of a legal or chosen piece, a badge's or a snitch's disc, a
piece painted once until what it shows changes, and a line of words on its own.

Every piece paints itself with the shared toolkit (``desktop.drawn``) and tells what words it
drew and how big (``drawn_texts``), so the type-size and no-clipping walks read it like labels.
Nothing here knows the rules: the table (``table.py``) gives each piece what to show.
"""

from __future__ import annotations

from PySide6.QtCore import QRect, QRectF, Qt
from PySide6.QtGui import QColor, QFontMetrics, QPainter, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from ... import style
from ...drawn import paint as pt, text as txt
from ...drawn.items import paint_cached
from ...drawn.palette import readable_ink


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


def elided(name: str, width: float) -> str:
    """``name`` shortened with "…" to ``width`` at the least size, in bold (a name never cut)."""
    return QFontMetrics(txt.font(txt.LEAST_PX, True)).elidedText(name, Qt.ElideRight, max(int(width) - 2, 1))


# --- a size kept between two bounds -----------------------------------------------------------------
def clamp(value: float, least: float, most: float) -> float:
    return max(least, min(value, most))
