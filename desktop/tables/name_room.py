"""A player's name in the little room a table's row gives it: as large as it fits, wrapped,
then in a narrow face, and only a name too long even for that is shortened with "\u2026" (never
cut: the whole name stays in the widget's screen-reader name and tooltip)."""

from __future__ import annotations

from ..drawn import text as txt


def fit_name(name: str, width: int, height: int, largest: int, *, bold: bool = True,
             max_lines: int = 2) -> tuple[int, tuple[str, ...], str, bool]:
    """(pixel size, lines, face, fits) of ``name`` in ``width`` x ``height``; it does not fit
    only when not even one line of the least size has the height."""
    px, lines, fits = txt.fit(name, width, height, largest, bold=bold, max_lines=max_lines)
    if fits:
        return px, lines, "", True
    family = txt.narrow_family()
    px, lines, _ = txt.fit(name, width, height, largest, bold=bold, family=family, max_lines=max_lines, elide=True)
    return px, lines, family, height + 1 >= txt.line_height(txt.LEAST_PX, bold, family) and all(lines)
