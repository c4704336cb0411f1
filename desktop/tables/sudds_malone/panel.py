"""The Sudds & Malone table's panels, what they share: the panel opened for an option and drawn again,
its choices laid out in a grid for the room there is (or under the dice when they would not all be
in sight), its row of buttons, and what it sends to the shell. The panels of each phase are mixins
of their own modules (:mod:`.deal`, :mod:`.dice_panels`, ...), all of :class:`~.table.SuddsTable`."""

from __future__ import annotations

from typing import Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QFontMetrics
from PySide6.QtWidgets import QApplication, QFrame, QGridLayout, QLabel, QScrollArea, QVBoxLayout, QWidget

from engine.game import Option

from ...widgets import WrappingButton, clear_layout, label
from .choices import PaintedChoice


CHOICE_POINT_SIZE = 18          # a panel's choices: 24 px where they fit ...
LEAST_POINT_SIZE = 12           # ... and never below 16 px
#: a column of the board offered by The Office is at least this wide: three to a line on a laptop
COLUMN_LEAST = 290


class ChoiceButton(WrappingButton):
    """A panel's choice: at least ``least_height`` high, so its words keep their full size on as
    many lines as they take (the app's style sheet would set every button's least height back to
    one line's each time the words are fitted again)."""

    least_height = 48

    def keep_height(self, height: int) -> None:
        self.least_height = height
        self.setMinimumHeight(height)

    def _fit_text(self) -> None:
        super()._fit_text()
        if self.minimumHeight() < self.least_height:
            self.setMinimumHeight(self.least_height)


def txt_line(point_size: int) -> int:
    """The height of a line of a choice's words at ``point_size``."""
    font = QFont()
    font.setPointSize(point_size)
    return QFontMetrics(font).height()


def points(n: int) -> str:
    """ "1 point", "2 points", "-1 point" """
    return f"{n} point{'' if abs(n) == 1 else 's'}"


def short(card: str) -> str:
    return card.rsplit(".", 1)[-1]


def scrolled(widget: QWidget, name: str) -> QScrollArea:
    """``widget`` in a frameless scroll area: a panel longer than the room there is scrolls."""
    area = QScrollArea()
    area.setObjectName(name)
    area.setFrameShape(QFrame.NoFrame)
    area.setWidgetResizable(True)
    area.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
    area.setWidget(widget)
    return area


def titled_column(name: str, title_name: str, *, margins: tuple[int, int, int, int], spacing: int
                  ) -> tuple[QWidget, QVBoxLayout, QLabel]:
    """A widget named ``name`` whose pieces stand in a column under a heading named ``title_name``
    (the table's panel of choices, the final scoring): the widget, its column and the heading."""
    widget = QWidget()
    widget.setObjectName(name)
    column = QVBoxLayout(widget)
    column.setContentsMargins(*margins)
    column.setSpacing(spacing)
    title = label("", "smhead")
    title.setObjectName(title_name)
    column.addWidget(title)
    return widget, column, title


class Panels:
    """The panel machinery every phase's panel uses (``start``, ``_draw_panel``, ``_grid``, ``_send`` ...)."""

    def _button(self, text: str, name: str, slot: Callable, *, enabled: bool = True, role: str | None = None,
                checked: bool = False) -> WrappingButton:
        b = ChoiceButton(text)
        b.setObjectName(name)
        b.keep_height(48)
        b.POINT_SIZE = CHOICE_POINT_SIZE
        b.LEAST_POINT_SIZE = LEAST_POINT_SIZE
        if role:
            b.setProperty("role", role)
        if checked:
            b.setProperty("role", "primary")
            b.set_lines(["\u2714 " + text])
        b.setEnabled(enabled)
        b.clicked.connect(lambda _=False: slot())
        return b

    def _row(self, b: WrappingButton) -> None:
        """A button of the panel's bottom row (laid out by :meth:`_lay_row`)."""
        self._row_buttons.append(b)

    def _lay_row(self) -> None:
        """The bottom row's buttons on one line (their words wrap or shrink when the panel is narrow):
        the main one widest, Cancel last."""
        width = self.board.panel_width() - 12 - 6 * max(len(self._row_buttons) - 1, 0)
        stretch = sum(3 if b.property("role") == "primary" else 2 for b in self._row_buttons) or 1
        for col, b in enumerate(self._row_buttons):
            b.setMinimumWidth(60)
            share = width * (3 if b.property("role") == "primary" else 2) / stretch
            b.keep_height(max(48, b.height_for(int(share), False)))
            self.panel_buttons.addWidget(b, 0, col)
            self.panel_buttons.setColumnStretch(col, 3 if b.property("role") == "primary" else 2)
        for col in range(len(self._row_buttons), max(self.panel_buttons.columnCount(), 6)):
            self.panel_buttons.setColumnStretch(col, 0)
        self._row_buttons = []

    # --- panels ---------------------------------------------------------------------------------
    def start(self, option: Option, player: str) -> None:
        # One way to take a die (issue 29): a die clicked, then "Take this die", keeps that die.
        keep = self.sel if option.action == "take_die" and self.mode == "take_die" else {}
        self.mode, self.player, self.sel = option.action, player, keep
        self._widened = False
        getattr(self, f"_start_{option.action}", lambda: None)()
        self._draw_panel()

    def close_panel(self, redraw: bool = True) -> None:
        self.mode = self.player = None
        self._widened = False
        self.sel = {}
        if redraw:
            self._redraw()

    def _draw_panel(self) -> None:
        if self.mode is None:
            return
        if self._last is not None:        # the panel's place first: its choices are laid out for its width
            self._arrange(self.rules.public_table(self.state), self._mode_legal())
        # The keyboard's place in the panel: a choice taken by Enter is drawn again, and the focus
        # stays on it (or, now refused, on the panel's main button) instead of leaving the panel.
        focus = QApplication.focusWidget()
        focused = focus.objectName() if focus is not None and self.panel_box.isAncestorOf(focus) else None
        clear_layout(self.panel_body)
        clear_layout(self.panel_buttons)
        self._row_buttons = []
        self.panel_note.setText("")
        getattr(self, f"_panel_{self.mode}")()
        self._row(self._button("Cancel", "sm:cancel", self.close_panel))
        self._lay_row()
        for layout in (self.panel_body, self.panel_buttons):
            for i in range(layout.count()):
                w = layout.itemAt(i).widget()
                if w is not None:
                    w.show()        # now: a layout shows new children only on the next event-loop pass
        self._redraw()
        for name in (focused, "sm:send") if focused else ():
            shown = [w for w in self.panel_box.findChildren(QWidget, name) if w.isVisible() and w.isEnabled()]
            if shown:           # the one drawn now (the one taken away is hidden until it is deleted)
                shown[0].setFocus()
                break

    def _fit_or_widen(self, widgets: list[QWidget], per_row: int, least: int = 340) -> None:
        """Lay the choices out on the left; when they would not all be in sight there at their full
        size (a short screen), under the dice across the table instead."""
        if not self._widened and self.board.panel_at == "left":
            width = self.board.panel_width()
            per = max(1, min(per_row, max(1 if width < 400 else 2, int(width // least))))
            cell = (width - 12 - self.panel_body.spacing() * (per - 1)) / per
            heights = [max(48, w.height_for(int(cell), False)) if isinstance(w, (ChoiceButton, PaintedChoice))
                       else w.sizeHint().height() for w in widgets]
            rows = [max(heights[i:i + per]) for i in range(0, len(heights), per)]
            need = (self.panel_title.heightForWidth(width - 12) + sum(rows) + 6 * (len(rows) + 2)
                    + 2 * txt_line(CHOICE_POINT_SIZE) + 24)
            if need > self.board.panel.height():
                self._widened = True
                self._arrange(self.rules.public_table(self.state), self._mode_legal())
        self._grid(widgets, per_row, least=least)

    def _grid(self, widgets: list[QWidget], per_row: int = 4, *, least: int = 340) -> None:
        """The panel's choices in a grid: at most ``per_row`` to a line, fewer when the panel is narrow
        (each at least ``least`` pixels wide, or two to a line)."""
        width = self.board.panel_width()
        fit = max(1 if width < 400 else 2, int(width // least))
        per_row = max(1, min(per_row, fit))
        cell = (width - 12 - self.panel_body.spacing() * (per_row - 1)) / per_row
        # Each choice as high as its words take at their full size (never shrunk to a fixed height),
        # and as high as the others on its line.
        heights = [max(48, w.height_for(int(cell), False)) if isinstance(w, (ChoiceButton, PaintedChoice)) else 0
                   for w in widgets]
        for i, w in enumerate(widgets):
            if isinstance(w, (ChoiceButton, PaintedChoice)):
                line = i - i % per_row
                w.keep_height(max(heights[line:line + per_row]))
            self.panel_body.addWidget(w, i // per_row, i % per_row)
        for c in range(max(self.panel_body.columnCount(), 8)):
            self.panel_body.setColumnStretch(c, 1 if c < per_row else 0)

    def _send(self, action: dict) -> None:
        action = {"player": self.player, **action}
        if self.shell.send(action):
            self.close_panel()

    def _read(self, action: dict, reads: list[tuple[str, str]], heading: str) -> None:
        action = {"player": self.player, **action}
        self.close_panel()
        self.shell.read_cards(action, reads, private=True, heading=heading)

    def _choice_block(self, text: str, choices: list[QWidget], per_row: int) -> QWidget:
        """Drawn choices under their words, ``per_row`` to a line (fewer when the panel is narrow): one
        cell of the panel's grid."""
        cell = QWidget()
        lay = QGridLayout(cell)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(6)
        lay.addWidget(label(text, "sm"), 0, 0, 1, per_row)
        width = self.board.panel_width() - 12
        per_row = max(1, min(per_row, len(choices), int(width // 170)))
        cell_w = (width - 6 * (per_row - 1)) / per_row
        height = max((c.height_for(int(cell_w), False) for c in choices if isinstance(c, PaintedChoice)), default=48)
        for i, c in enumerate(choices):
            if isinstance(c, PaintedChoice):
                c.keep_height(height)
            lay.addWidget(c, 1 + i // per_row, i % per_row)
        for col in range(per_row):
            lay.setColumnStretch(col, 1)
        return cell
