"""After a new game: a picture of what to deal where, drawn from the engine's own table."""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt, Signal
from PySide6.QtGui import QColor, QFont, QPainter, QPen
from PySide6.QtWidgets import QHBoxLayout, QSizePolicy, QVBoxLayout, QWidget

from . import style
from .games import GameController
from .widgets import button, label

CARD_W, CARD_H, GAP = 108, 132, 12


class DealDiagram(QWidget):
    """Each gumshoe's face-down columns, the center cards and the draw piles, as card shapes."""

    def __init__(self, controller: GameController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        view = controller.shared_view()
        self.kinds = list(controller.deck.kinds)
        self.positions = list(controller.session.layout()["slots"])
        self.players = list(controller.session.players)
        self.piles = {k: sum(1 for c in view.cards if c.place == f"pile/{k}") for k in self.kinds}
        block_w = len(self.kinds) * (CARD_W + GAP) + 30
        block_h = len(self.positions) * (CARD_H + GAP) + 50
        columns = 2 if len(self.players) > 2 else len(self.players)
        rows = (len(self.players) + columns - 1) // columns
        self.setMinimumSize(columns * block_w + 30 + len(self.kinds) * (CARD_W + GAP) + 20, rows * block_h + 20)
        self.setSizePolicy(QSizePolicy.Expanding, QSizePolicy.Expanding)

    def _card(self, p: QPainter, x: float, y: float, kind: str, text: str) -> None:
        colour = QColor(style.kind_colour(self.controller.kind_index(kind)))
        p.setPen(QPen(QColor("#333333"), 2))
        p.setBrush(colour)
        p.drawRoundedRect(QRectF(x, y, CARD_W, CARD_H), 8, 8)
        p.setPen(QColor("#111111"))
        p.drawText(QRectF(x + 2, y + 2, CARD_W - 4, CARD_H - 4), Qt.AlignCenter | Qt.TextWordWrap, text)

    def paintEvent(self, event) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.Antialiasing)
        small = QFont(self.font())
        small.setPointSize(11)
        bold = QFont(self.font())
        bold.setBold(True)
        block_w = len(self.kinds) * (CARD_W + GAP) + 30
        block_h = len(self.positions) * (CARD_H + GAP) + 50
        columns = 2 if len(self.players) > 2 else len(self.players)
        for i, player in enumerate(self.players):
            x0 = 10 + (i % columns) * block_w
            y0 = 10 + (i // columns) * block_h
            p.setFont(bold)
            p.setPen(QColor("#111111"))
            p.drawText(QRectF(x0, y0, block_w, 28), Qt.AlignLeft | Qt.AlignVCenter, player)
            p.setFont(small)
            for c, kind in enumerate(self.kinds):
                for r, position in enumerate(self.positions):
                    self._card(p, x0 + c * (CARD_W + GAP), y0 + 32 + r * (CARD_H + GAP), kind,
                               f"{self.controller.kind_name(kind)}\n{position.capitalize()}")
        x0 = 10 + columns * block_w + 20
        p.setFont(bold)
        p.setPen(QColor("#111111"))
        p.drawText(QRectF(x0, 10, 400, 28), Qt.AlignLeft | Qt.AlignVCenter, "Center of the table (face down)")
        p.setFont(small)
        for c, kind in enumerate(self.kinds):
            self._card(p, x0 + c * (CARD_W + GAP), 42, kind, self.controller.kind_name(kind))
        y = 42 + CARD_H + 30
        p.setFont(bold)
        p.setPen(QColor("#111111"))
        p.drawText(QRectF(x0, y, 400, 28), Qt.AlignLeft | Qt.AlignVCenter, "Draw piles (face down)")
        p.setFont(small)
        for c, kind in enumerate(self.kinds):
            for layer in range(3, 0, -1):      # a little stack of cards
                self._card(p, x0 + c * (CARD_W + GAP) + layer * 3, y + 32 + layer * 3, kind, "")
            self._card(p, x0 + c * (CARD_W + GAP), y + 32, kind,
                       f"{self.controller.kind_name(kind)}\n{self.piles[kind]} cards")
        p.end()


class SetupScreen(QWidget):
    done = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.layout_ = QVBoxLayout(self)
        self.layout_.setContentsMargins(24, 16, 24, 16)
        self.layout_.addWidget(label("Deal the cards like this", "title"))
        self.text = label("", "heading")
        self.text.setObjectName("setup:text")
        self.layout_.addWidget(self.text)
        self.holder = QVBoxLayout()
        self.layout_.addLayout(self.holder, 1)
        self.diagram: DealDiagram | None = None
        row = QHBoxLayout()
        row.addStretch(1)
        self.start_button = button("The cards are dealt \u2014 start playing", "primary")
        self.start_button.setObjectName("setup:done")
        self.start_button.setMinimumHeight(60)
        self.start_button.clicked.connect(self.done)
        row.addWidget(self.start_button)
        self.layout_.addLayout(row)

    def show_game(self, controller: GameController) -> None:
        if self.diagram is not None:
            self.diagram.hide()
            self.diagram.deleteLater()
        log = controller.session.public_log()
        self.text.setText((log[0] if log else "") + " Nobody looks at their cards yet.")
        self.diagram = DealDiagram(controller)
        self.holder.addWidget(self.diagram)
        self.start_button.setFocus()
