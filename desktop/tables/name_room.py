"""A player's name in the little room a table's row gives it: as large as it fits, wrapped,
then in a narrow face, and only a name too long even for that is shortened with "\u2026" (never
cut: the whole name stays in the widget's screen-reader name and tooltip)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QFontMetrics

from ..drawn import text as txt


def fit_name(name: str, width: int, height: int, largest: int, *, bold: bool = True,
             max_lines: int = 2) -> tuple[int, tuple[str, ...], str, bool]:
    """(pixel size, lines, face, fits) of ``name`` in ``width`` x ``height``; it does not fit
    only when not even one line of the least size has the height."""
    for family in ("", txt.narrow_family()):
        px, lines, fits = txt.fit(name, width, height, largest, bold=bold, family=family, max_lines=max_lines)
        if fits:
            return px, lines, family, True
    family = txt.narrow_family()
    metrics = QFontMetrics(txt.font(txt.LEAST_PX, bold, QFont(family)))
    room = min(max_lines, max(height // txt.line_height(txt.LEAST_PX, bold, family), 1))
    lines = txt.wrap(name, metrics, max(width, 1))
    kept = lines[:room - 1] + [" ".join(lines[room - 1:])]
    short = tuple(metrics.elidedText(line, Qt.ElideRight, max(width, 1)) for line in kept)
    fits = height + 1 >= txt.line_height(txt.LEAST_PX, bold, family) and all(short)
    return txt.LEAST_PX, short, family, fits
