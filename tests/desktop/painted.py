"""What the painted widgets really draw: every ``QPainter.drawText`` call made while a widget
paints, with the size it comes out on screen (the font's pixel size times the painter's scale).

The type-size walk reads :class:`desktop.drawn.text.DrawnText` records where a widget keeps
them; text painted past them (a card face's name, a chip on a meld, a label on a map) is only
seen here, so the walk asks both.
"""

from __future__ import annotations

import math
from contextlib import contextmanager
from dataclasses import dataclass

from PySide6.QtCore import QPoint
from PySide6.QtGui import QPainter, QPixmap, QRegion
from PySide6.QtWidgets import QWidget

#: cached pictures the drawn widgets keep (desktop/drawn/items.py): forgotten so they paint again
_CACHES = ("_picture_key", "_cached_key")


@dataclass(frozen=True)
class PaintedText:
    widget: str          # the object name (or class) of the widget that painted it
    text: str
    px: float            # on screen: the font's pixel size times the painter's scale


def _scale(p: QPainter) -> float:
    t = p.worldTransform()
    return math.sqrt(abs(t.m11() * t.m22() - t.m12() * t.m21()))


@contextmanager
def _recording(into: list[tuple[QPainter, str, float]]):
    original = QPainter.drawText

    def spy(painter: QPainter, *args):
        text = next((a for a in reversed(args) if isinstance(a, str)), "")
        into.append((painter, text, painter.fontInfo().pixelSize() * _scale(painter)))
        return original(painter, *args)

    QPainter.drawText = spy
    try:
        yield
    finally:
        QPainter.drawText = original


def painted_texts(root: QWidget) -> list[PaintedText]:
    """Every text the visible widgets under ``root`` paint themselves, as they paint it now."""
    widgets = [root] + root.findChildren(QWidget)
    for w in widgets:
        for cache in _CACHES:
            if getattr(w, cache, None) is not None:
                setattr(w, cache, None)
    found: list[PaintedText] = []
    for w in widgets:
        if not w.isVisible() or w.width() <= 1 or w.height() <= 1:
            continue
        if not any("paintEvent" in vars(c) for c in type(w).__mro__ if not c.__module__.startswith("PySide6")):
            continue                      # Qt paints it (its font is checked by the widget walk)
        calls: list[tuple[QPainter, str, float]] = []
        with _recording(calls):           # the widget alone: its children are recorded in their turn
            w.render(QPixmap(w.size()), QPoint(), QRegion(), QWidget.RenderFlag.DrawWindowBackground)
        name = w.objectName() or type(w).__name__
        found += [PaintedText(name, text, px) for _, text, px in calls if text.strip()]
    return found

