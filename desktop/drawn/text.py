"""Text on painted things: fitted to its room (wrapped, then smaller, never below the least
size), and remembered as :class:`DrawnText` so the tests can read what was drawn, how big,
and whether it fitted."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from PySide6.QtCore import QRect, QRectF, Qt
from PySide6.QtGui import QFont, QFontDatabase, QFontMetrics, QGuiApplication, QPainter

#: no text on a table below this many pixels (read from across a table)
LEAST_PX = 15
#: the current player, the prompt and the legal choices: at least this many pixels
KEY_PX = 24


@dataclass(frozen=True)
class DrawnText:
    """One piece of text a painted widget shows."""

    text: str
    px: int                 # the font's pixel size
    rect: QRect             # where, in the widget's coordinates
    fits: bool              # False: it did not fit its room even at the least size (cut)
    key: bool = False       # a legal choice's words (at least KEY_PX when the choice is legal)
    family: str = ""        # the face it is drawn in ("": the app's)


def app_family() -> str:
    return QGuiApplication.font().family()


#: narrow faces for names on a board or a map, the first installed one is used
NARROW_FAMILIES = ("Liberation Sans Narrow", "Arial Narrow", "Helvetica Neue Condensed", "DejaVu Sans Condensed")


@lru_cache(maxsize=1)
def narrow_family() -> str:
    """A narrow face for place names on a board (more letters to a line at the same size);
    the app's own face where none is installed."""
    installed = set(QFontDatabase.families())
    return next((f for f in NARROW_FAMILIES if f in installed), app_family())


def font(px: int, bold: bool = False, base: QFont | None = None) -> QFont:
    f = QFont(base) if base is not None else QFont(app_family())
    f.setPixelSize(max(px, 1))
    f.setBold(bold)
    return f


def wrap(text: str, metrics: QFontMetrics, width: int) -> list[str]:
    """Greedy word wrap by measured width (a word wider than ``width`` stays whole)."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        row: list[str] = []
        for word in paragraph.split():
            if row and metrics.horizontalAdvance(" ".join(row + [word])) > width:
                lines.append(" ".join(row))
                row = [word]
            else:
                row.append(word)
        lines.append(" ".join(row))
    return lines


@lru_cache(maxsize=4096)
def _fit_at(text: str, width: int, height: int, px: int, bold: bool, family: str,
            max_lines: int) -> tuple[tuple[str, ...], bool]:
    metrics = QFontMetrics(font(px, bold, QFont(family)))
    lines = wrap(text, metrics, width)
    ok = (len(lines) <= max_lines and len(lines) * metrics.lineSpacing() <= height + 1
          and all(metrics.horizontalAdvance(line) <= width for line in lines))
    return tuple(lines), ok


@lru_cache(maxsize=4096)
def _fit(text: str, width: int, height: int, largest: int, least: int, bold: bool, family: str,
         max_lines: int) -> tuple[int, tuple[str, ...], bool]:
    # Smaller type never needs more room: the largest size that fits is found by halving.
    lines, ok = _fit_at(text, width, height, largest, bold, family, max_lines)
    if ok:
        return largest, lines, True
    lines, ok = _fit_at(text, width, height, least, bold, family, max_lines)
    if not ok:
        return least, lines, False
    good, bad = least, largest
    while bad - good > 1:
        mid = (good + bad) // 2
        if _fit_at(text, width, height, mid, bold, family, max_lines)[1]:
            good = mid
        else:
            bad = mid
    return good, _fit_at(text, width, height, good, bold, family, max_lines)[0], True


ELLIPSIS = "\u2026"


def fit(text: str, width: int, height: int, largest: int, least: int = LEAST_PX, *, bold: bool = False,
        family: str = "", max_lines: int = 4, elide: bool = False) -> tuple[int, tuple[str, ...], bool]:
    """The largest pixel size from ``largest`` down to ``least`` at which ``text`` fits
    ``width`` x ``height`` wrapped, its lines, and whether it fitted at all.

    With ``elide``, text too long even at ``least`` is shortened instead: the lines the room
    holds, the last one ending in "…" (the caller keeps the whole text reachable, in a
    tooltip, a screen-reader name or the full log); it then counts as fitted."""
    family = family or app_family()
    px, lines, ok = _fit(text, max(width, 1), max(height, 1), max(largest, least), least, bold, family, max_lines)
    if ok or not elide:
        return px, lines, ok
    return least, _elided(text, max(width, 1), max(height, 1), least, bold, family, max_lines), True


@lru_cache(maxsize=1024)
def _elided(text: str, width: int, height: int, px: int, bold: bool, family: str,
            max_lines: int) -> tuple[str, ...]:
    metrics = QFontMetrics(font(px, bold, QFont(family)))
    lines = wrap(text, metrics, width)
    room = max(min(max_lines, height // max(metrics.lineSpacing(), 1)), 1)
    kept = [metrics.elidedText(line, Qt.ElideRight, width) for line in lines[:room]]
    if len(lines) > room or kept[-1] != lines[room - 1]:
        last = kept[-1]
        # The last line kept says there is more: "…" at its end, the line shortened to take it.
        while last and metrics.horizontalAdvance(last.rstrip(ELLIPSIS).rstrip() + ELLIPSIS) > width:
            last = last.rstrip(ELLIPSIS)[:-1]
        kept[-1] = last.rstrip(ELLIPSIS).rstrip() + ELLIPSIS
    return tuple(kept)


def line_height(px: int, bold: bool = False, family: str = "") -> int:
    return _line_height(px, bold, family or app_family())


@lru_cache(maxsize=512)
def _line_height(px: int, bold: bool, family: str) -> int:
    return QFontMetrics(font(px, bold, QFont(family))).lineSpacing()


def draw_lines(p: QPainter, rect: QRect, lines: tuple[str, ...], px: int, *, bold: bool = False,
               align: Qt.AlignmentFlag = Qt.AlignHCenter, family: str = "") -> None:
    """Lines from the top of ``rect``, each aligned within it; plain text only (a name is never markup)."""
    f = font(px, bold, QFont(family or app_family()))
    p.setFont(f)
    step = QFontMetrics(f).lineSpacing()
    y = rect.top()
    for line in lines:
        p.drawText(QRectF(rect.left(), y, rect.width(), step), int(align | Qt.AlignVCenter), line)
        y += step
