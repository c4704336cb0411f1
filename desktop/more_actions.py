"""The options an action column could not hold, behind its "More actions…" button.

The column never scrolls (a button half out of sight is a button a family never finds): when
even the widest column cannot hold every option whole, the last ones open from one button into
this panel over the table, each whole and as large as in the column.
"""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtWidgets import QFrame, QGridLayout, QWidget

from .widgets import WrappingButton

#: the panel's columns are as wide as the action column at least
COLUMN_WIDTH = 320


class MoreActions(QFrame):
    """A popup of buttons standing for ``buttons`` (hidden in the column): a click closes the
    panel and presses the one it stands for. Escape or a click elsewhere closes it."""

    def __init__(self, buttons: list[WrappingButton], parent: QWidget) -> None:
        super().__init__(parent, Qt.Popup)
        self.setObjectName("more:panel")
        self.setFrameShape(QFrame.StyledPanel)
        self.setAutoFillBackground(True)
        self.grid = QGridLayout(self)
        self.grid.setContentsMargins(8, 8, 8, 8)
        self.buttons: list[WrappingButton] = []
        for original in buttons:
            b = WrappingButton("\n".join(original.lines()))
            b.POINT_SIZE = b.LEAST_POINT_SIZE = original.POINT_SIZE
            b.setObjectName(original.objectName())
            b.setProperty("role", original.property("role"))
            b.clicked.connect(lambda _=False, o=original: self._press(o))
            self.buttons.append(b)

    def _press(self, original: WrappingButton) -> None:
        self.close()
        original.click()

    def show_beside(self, anchor: WrappingButton | None) -> None:
        """Open next to ``anchor`` (the "More" button), inside its window: one column when the
        window is high enough, more side by side otherwise."""
        window = self.window() if self.parentWidget() is None else self.parentWidget().window()
        area = QRect(window.mapToGlobal(QPoint(0, 0)), window.size()).adjusted(8, 8, -8, -8)
        margins = self.grid.contentsMargins()
        spacing = self.grid.spacing()
        for b in self.buttons:                   # styled as they will show before they are measured
            b.setParent(self)
            b.ensurePolished()
        heights = [b.height_for(COLUMN_WIDTH, False) for b in self.buttons]
        room = area.height() - margins.top() - margins.bottom()
        columns = 1
        while columns < len(self.buttons) and self._tallest(heights, columns, spacing) > room:
            columns += 1
        rows = -(-len(self.buttons) // columns)
        for i, b in enumerate(self.buttons):
            b.setFixedWidth(COLUMN_WIDTH)
            b.setFixedHeight(heights[i])
            self.grid.addWidget(b, i % rows, i // rows)
        self.ensurePolished()
        self.grid.activate()
        self.adjustSize()
        size = self.size()
        if anchor is not None:
            corner = anchor.mapToGlobal(QPoint(anchor.width(), anchor.height()))
            spot = QPoint(corner.x() - size.width(), corner.y() - size.height())   # over the button, right-aligned
        else:
            spot = area.center() - QPoint(size.width() // 2, size.height() // 2)
        spot.setX(min(max(spot.x(), area.left()), area.right() - size.width()))
        spot.setY(min(max(spot.y(), area.top()), area.bottom() - size.height()))
        self.move(spot)
        self.show()
        self.buttons[0].setFocus()

    @staticmethod
    def _tallest(heights: list[int], columns: int, spacing: int) -> int:
        rows = -(-len(heights) // columns)
        return max(sum(heights[c * rows:(c + 1) * rows]) + spacing * (len(heights[c * rows:(c + 1) * rows]) - 1)
                   for c in range(columns))
