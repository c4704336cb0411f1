"""Private screens behind a privacy gate: a peek at a card, and a player's Evidence Journal.

The gate comes first ("Pass the laptop to Julie — everyone else look away"); nothing
private is built until the player presses reveal. The private content hides itself
after a short idle time and when the turn changes, and it is destroyed (not just
hidden) when it closes, so no card name lingers in a widget.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import (QAbstractItemView, QApplication, QFrame, QHBoxLayout, QScrollArea, QHeaderView, QListWidget,
                               QStackedWidget, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget)

from engine.game import Journal

from .drawn import NotebookPage
from .widgets import button, label, literal

IDLE_HIDE_MS = 45_000


class PrivacyGate(QWidget):
    """First a "pass the laptop" page, then the private content, which hides itself when idle."""

    closed = Signal()

    def __init__(self, parent: QWidget | None = None, idle_ms: int = IDLE_HIDE_MS) -> None:
        super().__init__(parent)
        self.player: str | None = None
        self._make_content = None
        self.content: QWidget | None = None
        self.pages = QStackedWidget()
        layout = QVBoxLayout(self)
        layout.addWidget(self.pages)

        # The gate and the private screen are a notebook's pages (the words are the engine's).
        gate = NotebookPage()
        g = QVBoxLayout(gate)
        g.setContentsMargins(NotebookPage.MARGIN + 12, 16, 16, 16)
        g.addStretch(1)
        self.gate_text = label("", "gate")
        self.gate_text.setObjectName("gate:text")
        self.gate_text.setAlignment(Qt.AlignCenter)
        g.addWidget(self.gate_text)
        self.gate_reason = label("", "heading")
        self.gate_reason.setAlignment(Qt.AlignCenter)
        g.addWidget(self.gate_reason)
        row = QHBoxLayout()
        row.addStretch(1)
        self.back = button("Not now \u2014 back to the table")
        self.back.setObjectName("gate:cancel")
        self.back.clicked.connect(self.close_private)
        self.reveal_button = button("", "primary", name="gate:reveal", big=True)
        self.reveal_button.clicked.connect(self.reveal)
        row.addWidget(self.back)
        row.addWidget(self.reveal_button)
        row.addStretch(1)
        g.addLayout(row)
        g.addStretch(2)
        self.pages.addWidget(gate)

        page = NotebookPage()
        page_layout = QVBoxLayout(page)
        page_layout.setContentsMargins(NotebookPage.MARGIN + 12, 10, 14, 10)
        self.holder = QScrollArea()      # long content scrolls instead of growing the window
        self.holder.setWidgetResizable(True)
        self.holder.setFrameShape(QFrame.NoFrame)
        inner = QWidget()
        for part in (self.holder, self.holder.viewport(), inner):
            part.setObjectName("notebook-content")
        self.holder.setWidget(inner)
        self.holder_layout = QVBoxLayout(inner)
        self.holder_layout.setContentsMargins(0, 0, 0, 0)
        page_layout.addWidget(self.holder)
        self.pages.addWidget(page)

        self.idle = QTimer(self)
        self.idle.setSingleShot(True)
        self.idle.setInterval(idle_ms)
        self.idle.timeout.connect(self.close_private)

    def open_for(self, player: str, reason: str, make_content) -> None:
        """Show the gate; ``make_content()`` builds the private widget only after reveal."""
        self._drop_content()
        self.player = player
        self._make_content = make_content
        self.gate_text.setText(f"Pass the laptop to {player} \u2014 everyone else look away.")
        self.gate_reason.setText(reason)
        self.reveal_button.setText(literal(f"I am {player} \u2014 show me"))
        self.pages.setCurrentIndex(0)
        self.reveal_button.setFocus()

    def reveal(self) -> None:
        if self._make_content is None:
            return
        self.content = self._make_content()
        self.holder_layout.addWidget(self.content)
        self.pages.setCurrentIndex(1)
        QApplication.instance().installEventFilter(self)
        self.idle.start()

    @property
    def revealed(self) -> bool:
        return self.content is not None

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        # Any key or mouse use keeps the private screen open; silence closes it.
        if event.type() in (QEvent.KeyPress, QEvent.MouseButtonPress, QEvent.Wheel):
            self.idle.start()
        return False

    def _drop_content(self) -> None:
        self.idle.stop()
        QApplication.instance().removeEventFilter(self)
        if self.content is not None:
            self.content.hide()
            self.holder_layout.removeWidget(self.content)
            self.content.deleteLater()
            self.content = None
        self._make_content = None

    def close_private(self) -> None:
        self._drop_content()
        self.player = None
        self.closed.emit()


class JournalView(QWidget):
    """A player's Evidence Journal: the game's own view of the notes (or a table per card type),
    then what was worked out, each with its reason."""

    hide_requested = Signal()

    def __init__(self, journal: Journal, kind_names: dict[str, str], body: QWidget | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("journal")
        layout = QVBoxLayout(self)
        top = QHBoxLayout()
        top.addWidget(label(f"{journal.player}'s Evidence Journal", "title"), 1)
        hide = button("Hide my journal", "primary")
        hide.setObjectName("journal:hide")
        hide.clicked.connect(self.hide_requested)
        top.addWidget(hide)
        layout.addLayout(top)
        layout.addWidget(body if body is not None else self._by_kind(journal, kind_names), 1)

        layout.addWidget(label(f"Worked out for you (assist: {journal.assist.value})", "heading"))
        self.deductions = QListWidget()
        self.deductions.setObjectName("journal:deductions")
        self.deductions.setWordWrap(True)
        self.deductions.setStyleSheet("font-size: 15pt;")
        for d in journal.deductions:
            self.deductions.addItem(f"{d.text}\n    because: {d.reason}")
        if not journal.deductions:
            self.deductions.addItem("Notes only: no deductions at this assist level.")
        self.deductions.setMaximumHeight(220)
        layout.addWidget(self.deductions)

    @staticmethod
    def _by_kind(journal: Journal, kind_names: dict[str, str]) -> QWidget:
        """One table per card type, in the deck's order."""
        body = QWidget()
        row = QHBoxLayout(body)
        row.setContentsMargins(0, 0, 0, 0)
        for kind, name in kind_names.items():
            rows = [[e.name, e.where] for e in journal.entries if e.kind == kind]
            if rows:
                table = journal_table([name, "Where"], rows)
                table.setObjectName(f"journal:{kind}")
                row.addWidget(table, 1)
        return body


def journal_table(headers: list[str], rows: list[list[str]]) -> QTableWidget:
    """A read-only table of journal lines; known places in bold, unknown ones grey.

    Columns are as wide as their longest entry (nothing is cut off); the table scrolls
    sideways rather than squeezing a column.
    """
    table = QTableWidget(len(rows), len(headers))
    table.setHorizontalHeaderLabels(headers)
    table.verticalHeader().hide()
    table.setEditTriggers(QAbstractItemView.NoEditTriggers)
    table.setStyleSheet("font-size: 16pt;")
    table.setTextElideMode(Qt.ElideNone)
    table.setWordWrap(False)
    for r, row in enumerate(rows):
        for c, text in enumerate(row):
            item = QTableWidgetItem(text)
            if text == "Unknown":
                item.setForeground(Qt.darkGray)
            elif c % 2 == 1 and text:
                # A known place stands out by weight, not only by colour.
                font = item.font()
                font.setBold(True)
                item.setFont(font)
            table.setItem(r, c, item)
    table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeToContents)
    table.horizontalHeader().setStretchLastSection(False)
    return table
