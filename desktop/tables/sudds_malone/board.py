"""The Sudds & Malone table's layout (issue 23): the container that lays the drawn pieces out for the
room there is (the dice pool, the city, the Conspiracy, the Case display, the players' boards, the
panel of choices and the final scoring). The pieces themselves: :mod:`.pieces`, :mod:`.pool`,
:mod:`.citymap`, :mod:`.cards`, :mod:`.sheet`, :mod:`.choices`."""

from __future__ import annotations

from PySide6.QtCore import QRectF, QSize
from PySide6.QtWidgets import QSizePolicy, QWidget

from ...drawn import FlightLayer, text as txt
from .pieces import LEAD_LEAST, clamp


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
            pool_h = clamp(H * 0.19, 64, 104)
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
                        cards_h = clamp(low * 0.27, 76, 150)
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
                tabs_h = clamp(low * 0.1, txt.line_height(18, True) + 8, txt.line_height(20, True) + 16)
                if len(self.tabs) > 2 and low >= 280:       # narrow tabs: the name over the points
                    tabs_h = 2 * txt.line_height(17, True) + 8
                y = top
                if old_right is None:
                    pass
                elif not self.big_map:
                    # The board under the display gets the room its seven columns want first.
                    sheet_want = 7 * (txt.line_height(16) + 3) + 16
                    display_h = clamp(low - tabs_h - sheet_want, 60, 196)
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
