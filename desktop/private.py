"""Private screens behind a privacy gate: a peek at a card, and a player's Evidence Journal.

The gate comes first ("Pass the laptop to Julie — everyone else look away"); nothing
private is built until the player presses reveal. The private content hides itself
after a short idle time and when the turn changes, and it is destroyed (not just
hidden) when it closes, so no card name lingers in a widget.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QFont, QFontMetrics
from PySide6.QtWidgets import (QAbstractItemView, QAbstractScrollArea, QApplication, QBoxLayout, QFrame, QHBoxLayout,
                               QHeaderView, QLayout, QListView, QListWidget, QScrollArea, QStackedWidget,
                               QStyledItemDelegate, QStyleOptionViewItem, QTableWidget, QTableWidgetItem, QVBoxLayout,
                               QWidget)

from engine.game import Journal

from .drawn import NotebookPage
from .card_entry import counted_names
from .widgets import button, label, literal, natural_key

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
        self.page_layout = page_layout
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
        if getattr(self.content, "FITS_ITS_PAGE", False):
            # Content that shares out its own room (the journal) stands on the page itself: the page
            # never scrolls as a whole, only the parts inside it that have more than their room.
            self.holder.hide()
            self.page_layout.addWidget(self.content)
        else:
            self.holder.show()
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
            self.page_layout.removeWidget(self.content)
            self.content.deleteLater()
            self.content = None
        self._make_content = None

    def close_private(self) -> None:
        self._drop_content()
        self.player = None
        self.closed.emit()


class WrapInsidePadding(QStyledItemDelegate):
    """A list line wraps to the list's width less its padding: Qt's own wrap takes the whole width
    and then adds the style sheet's padding, so the line's end would lie past the list's edge."""

    PADDING = 6

    def sizeHint(self, option: QStyleOptionViewItem, index) -> QSize:
        inside = QStyleOptionViewItem(option)
        if inside.rect.width() > 0:
            inside.rect.setWidth(max(1, inside.rect.width() - 2 * self.PADDING))
        return super().sizeHint(inside, index)


def hand_words(names: list[str]) -> str:
    """The cards a player holds on the simulated table, in a line: alike cards counted.

    >>> hand_words(["Ted Hinton", "Dallas, Texas", "Ted Hinton"])
    'In your hand on the simulated table (3 cards): Dallas, Texas; Ted Hinton \u00d72.'
    """
    shown = counted_names(sorted(names, key=natural_key))
    return f"In your hand on the simulated table ({len(names)} card{'s' if len(names) != 1 else ''}): {shown}."


class JournalView(QWidget):
    """A player's Evidence Journal: the game's own view of the notes (or a table per card type),
    then what was worked out, each with its reason."""

    hide_requested = Signal()
    #: its tables and its "Worked out" list scroll downwards inside their frames; the page never scrolls
    FITS_ITS_PAGE = True

    def __init__(self, journal: Journal, kind_names: dict[str, str], body: QWidget | None = None,
                 parent: QWidget | None = None, hand: list[str] | None = None) -> None:
        """``hand``: on a demo's simulated table, the names of the cards this player really holds
        (shown above the journal, as a real player sees their hand); None in a real game, or when
        the player holds nothing."""
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
        if hand is not None:
            held = label(hand_words(hand), "banner")
            held.setObjectName("journal:simulated-hand")
            layout.addWidget(held)
        self.body = body if body is not None else self._by_kind(journal, kind_names)
        if self.body.layout() is not None:
            share_width_by_need(self.body.layout())
            self.body.installEventFilter(self)
        layout.addWidget(self.body, 1)

        layout.addWidget(label(f"Worked out for you (assist: {journal.assist.value})", "heading"))
        self.deductions = QListWidget()
        self.deductions.setObjectName("journal:deductions")
        self.deductions.setWordWrap(True)
        # Each line wraps to the list's width (laid out again when it changes), never sideways.
        self.deductions.setResizeMode(QListView.Adjust)
        self.deductions.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        self.deductions.setVerticalScrollMode(QAbstractItemView.ScrollPerPixel)
        self.deductions.setTextElideMode(Qt.ElideNone)
        self.deductions.setStyleSheet(f"QListWidget {{ font-size: 15pt; }} "
                                      f"QListWidget::item {{ padding: {WrapInsidePadding.PADDING}px; }}")
        self.deductions.setItemDelegate(WrapInsidePadding(self.deductions))
        for d in journal.deductions:
            self.deductions.addItem(f"{d.text}\n    because: {d.reason}")
        if not journal.deductions:
            self.deductions.addItem("Notes only: no deductions at this assist level.")
        self.deductions.setMaximumHeight(220)
        layout.addWidget(self.deductions)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.body and event.type() == QEvent.Resize:
            # The body's width is known now: its tables share it out.
            lay = self.body.layout()
            margins = lay.contentsMargins()
            shown = sum(1 for i in range(lay.count()) if not lay.itemAt(i).isEmpty())
            room = self.body.width() - margins.left() - margins.right() - max(0, shown - 1) * max(0, lay.spacing())
            share_width_by_need(lay, room)
        return False

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


class JournalTable(QTableWidget):
    """A read-only table of journal lines that always fits its width: known places in bold,
    unknown ones grey.

    The columns share the table's width and never scroll sideways. With room to spare every
    column grows in proportion to its longest entry (the table is filled); short of room the
    widest columns give way first and their entries wrap onto more lines, never narrower than
    the column's header or an entry's longest word, so no text is ever cut. The table scrolls
    only downwards, when it has more rows than its room.
    """

    #: a cell's room beside its text (the item's margins and the grid line)
    CELL_PAD = 12

    def __init__(self, headers: list[str], rows: list[list[str]], parent: QWidget | None = None) -> None:
        super().__init__(len(rows), len(headers), parent)
        self._fitting = False
        self.setHorizontalHeaderLabels(headers)
        self.verticalHeader().hide()
        self.setEditTriggers(QAbstractItemView.NoEditTriggers)
        self.setStyleSheet("font-size: 16pt;")
        self.setTextElideMode(Qt.ElideNone)
        self.setWordWrap(True)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        self.setVerticalScrollMode(QAbstractItemView.ScrollPerPixel)
        self.setSizeAdjustPolicy(QAbstractScrollArea.AdjustIgnored)
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
                self.setItem(r, c, item)
        header = self.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.Fixed)
        header.setStretchLastSection(False)
        self.verticalHeader().setSectionResizeMode(QHeaderView.Fixed)
        # What the columns need is measured once per font and content (a resize asks many times).
        self._measured: tuple[str, list[int], list[int]] | None = None
        model = self.model()
        for changed in (model.dataChanged, model.headerDataChanged, model.rowsInserted, model.rowsRemoved,
                        model.columnsInserted, model.columnsRemoved, model.modelReset):
            changed.connect(self._forget_widths)

    def _forget_widths(self, *_) -> None:
        self._measured = None

    # --- what each column needs -----------------------------------------------------------------
    def _cells(self, column: int):
        for r in range(self.rowCount()):
            item = self.item(r, column)
            if item is not None and item.text():
                yield item

    def _item_metrics(self, item: QTableWidgetItem) -> QFontMetrics:
        # An item's own font (bold) keeps the table's size; the table's font carries the style sheet's.
        font = QFont(self.font())
        font.setBold(item.font().bold())
        return QFontMetrics(font)

    def _measure(self) -> tuple[list[int], list[int]]:
        self.ensurePolished()            # the style sheet's font size
        key = self.font().key()
        if self._measured is None or self._measured[0] != key:
            header = self.horizontalHeader()
            natural, least = [], []
            for c in range(self.columnCount()):
                widest, longest_word = header.sectionSizeHint(c), header.sectionSizeHint(c)
                for item in self._cells(c):
                    fm = self._item_metrics(item)
                    widest = max(widest, fm.horizontalAdvance(item.text()) + self.CELL_PAD)
                    words = item.text().split()
                    if words:
                        longest_word = max(longest_word, max(fm.horizontalAdvance(w) for w in words) + self.CELL_PAD)
                natural.append(widest)
                least.append(longest_word)
            self._measured = (key, natural, least)
        return list(self._measured[1]), list(self._measured[2])

    def natural_widths(self) -> list[int]:
        """Each column as wide as its header and its longest entry on one line."""
        return self._measure()[0]

    def least_widths(self) -> list[int]:
        """Each column as wide as its header and the longest word of its entries (entries wrap)."""
        return self._measure()[1]

    def _outside_columns(self) -> int:
        """The table's width beside its columns: both frames and a possible vertical scroll bar."""
        return 2 * self.frameWidth() + self.verticalScrollBar().sizeHint().width()

    def natural_width(self) -> int:
        return self.width_at_cap(None)

    def width_at_cap(self, cap: int | None) -> int:
        """The table's width with no column wider than ``cap`` (never narrower than its least;
        None: every column as wide as its longest entry)."""
        natural = self.natural_widths()
        if cap is not None:
            natural = [max(least, min(n, cap)) for n, least in zip(natural, self.least_widths())]
        return sum(natural) + self._outside_columns()

    def sizeHint(self) -> QSize:
        return QSize(self.natural_width(), super().sizeHint().height())

    def minimumSizeHint(self) -> QSize:
        return QSize(sum(self.least_widths()) + self._outside_columns(), super().minimumSizeHint().height())

    # --- sharing the width ----------------------------------------------------------------------
    @staticmethod
    def shared_widths(natural: list[int], least: list[int], room: int) -> list[int]:
        """Column widths filling ``room``: in proportion to ``natural`` when all fit, else the widest
        ones capped (down to ``least``) and what is left given to the capped ones."""
        if not natural:
            return []
        total = sum(natural)
        if total <= room:
            widths = [n + (room - total) * n // total for n in natural]
        else:
            low, high = 0, max(natural)          # the largest cap whose columns fit the room
            while low < high:
                cap = (low + high + 1) // 2
                if sum(max(lo, min(n, cap)) for n, lo in zip(natural, least)) <= room:
                    low = cap
                else:
                    high = cap - 1
            widths = [max(lo, min(n, low)) for n, lo in zip(natural, least)]
            capped = [c for c, (w, n) in enumerate(zip(widths, natural)) if w < n] or [len(widths) - 1]
            for i in range(max(0, room - sum(widths))):
                widths[capped[i % len(capped)]] += 1
        widths[-1] += max(0, room - sum(widths))
        return widths

    def fit_columns(self) -> None:
        if self._fitting or self.columnCount() == 0:
            return
        self._fitting = True
        try:
            room = self.viewport().width()
            widths = self.shared_widths(self.natural_widths(), self.least_widths(), room)
            header = self.horizontalHeader()
            for c, width in enumerate(widths):
                if header.sectionSize(c) != width:
                    header.resizeSection(c, width)
            self.resizeRowsToContents()
        finally:
            self._fitting = False

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self.fit_columns()

    def viewportEvent(self, event: QEvent) -> bool:
        # The viewport narrows when the vertical scroll bar appears: the columns follow.
        handled = super().viewportEvent(event)
        if event.type() == QEvent.Resize:
            self.fit_columns()
        return handled

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() in (QEvent.FontChange, QEvent.StyleChange):
            self._measured = None
            self.updateGeometry()
            self.fit_columns()


def _inner_layout(item):
    return item.layout() or (item.widget().layout() if item.widget() is not None else None)


def _across(layout: QLayout) -> bool:
    return isinstance(layout, QBoxLayout) and layout.direction() in (QBoxLayout.LeftToRight, QBoxLayout.RightToLeft)


def _width_at_cap(item, cap: int | None) -> int:
    """The width a layout item's journal tables take side by side, no column wider than ``cap``
    (None: each as wide as its longest entry); 0 when it holds no table."""
    if isinstance(item.widget(), JournalTable):
        return item.widget().width_at_cap(cap)
    inner = _inner_layout(item)
    if inner is None or (item.widget() is not None and item.widget().isHidden()):
        return 0
    widths = [_width_at_cap(inner.itemAt(i), cap) for i in range(inner.count())]
    return sum(widths) if _across(inner) else max(widths, default=0)


def share_width_by_need(layout: QLayout, room: int | None = None) -> None:
    """Tables side by side share a line's ``room`` by what each needs, so a wide table does not wrap
    (or scroll) beside a narrow one with room to spare. Short of room, the widest columns of the
    whole line give way first (wherever they are), down to one cap, and only they wrap."""
    for i in range(layout.count()):
        inner = _inner_layout(layout.itemAt(i))
        if inner is not None:
            share_width_by_need(inner)
    if not _across(layout):
        return
    items = [layout.itemAt(i) for i in range(layout.count())]
    cap = None
    if room is not None and sum(_width_at_cap(item, None) for item in items) > room:
        low, high = 0, max((max(t.natural_widths(), default=0) for t in layout.parentWidget().findChildren(JournalTable)),
                           default=0) if layout.parentWidget() is not None else 0
        while low < high:                        # the largest cap at which the line fits its room
            middle = (low + high + 1) // 2
            if sum(_width_at_cap(item, middle) for item in items) <= room:
                low = middle
            else:
                high = middle - 1
        cap = low
    widths = [_width_at_cap(item, cap) for item in items]
    if sum(1 for w in widths if w) > 1:
        for i, width in enumerate(widths):
            if width and layout.stretch(i) != width:
                layout.setStretch(i, width)


def journal_table(headers: list[str], rows: list[list[str]]) -> JournalTable:
    """A read-only table of journal lines that fits its width (see JournalTable)."""
    return JournalTable(headers, rows)
