"""Whether a widget is drawn on the device pixels: rendered at twice the pixel density, it must show
detail that its ordinary picture blown up to that size has not."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QWidget


def detail_only_at_2x(widget: QWidget) -> int:
    """How many pixels (every other row and column) of ``widget`` rendered at 2x differ from its 1x
    picture scaled up: few when it is painted at 1x and blown up, many when it is crisp."""
    one = QImage(widget.size(), QImage.Format_ARGB32)
    one.fill(Qt.white)
    widget.render(one)
    two = QImage(widget.size() * 2, QImage.Format_ARGB32)
    two.setDevicePixelRatio(2)
    two.fill(Qt.white)
    widget.render(two)
    upscaled = one.scaled(two.size(), Qt.IgnoreAspectRatio, Qt.FastTransformation)
    return sum(1 for y in range(0, two.height(), 2) for x in range(0, two.width(), 2)
               if two.pixel(x, y) != upscaled.pixel(x, y))
