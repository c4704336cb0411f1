"""After a new game: the game's picture of how to lay out the cards (if its table draws one)."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QVBoxLayout, QWidget

from .games import GameController
from .widgets import button, label


class SetupScreen(QWidget):
    done = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.layout_ = QVBoxLayout(self)
        self.layout_.setContentsMargins(16, 8, 16, 8)
        self.layout_.addWidget(label("Lay out the game like this", "title"))
        self.text = label("")
        self.text.setObjectName("setup:text")
        self.layout_.addWidget(self.text)
        self.holder = QVBoxLayout()
        self.layout_.addLayout(self.holder, 1)
        self.diagram: QWidget | None = None
        row = QHBoxLayout()
        row.addStretch(1)
        self.start_button = button("Everything is laid out \u2014 start playing", "primary")
        self.start_button.setObjectName("setup:done")
        self.start_button.setMinimumHeight(60)
        self.start_button.clicked.connect(self.done)
        row.addWidget(self.start_button)
        self.layout_.addLayout(row)

    def show_game(self, controller: GameController, diagram: QWidget | None) -> bool:
        """Show the game's layout picture; False (nothing to show) when its table has none."""
        if self.diagram is not None:
            self.diagram.hide()
            self.diagram.deleteLater()
            self.diagram = None
        if diagram is None:
            return False
        log = controller.session.public_log()
        self.text.setText(log[0] if log else "")
        self.diagram = diagram
        self.holder.addWidget(diagram)
        self.start_button.setFocus()
        return True
