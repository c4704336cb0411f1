"""Small building blocks shared by the screens."""

from __future__ import annotations

import html
import re

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFont, QFontMetrics
from PySide6.QtWidgets import QLabel, QPushButton, QSizePolicy, QWidget

from . import style

BIG_BUTTON_HEIGHT = 70


def literal(text: str) -> str:
    """Text for a button, tab or frame title exactly as written: '&' would otherwise mark a
    keyboard shortcut and vanish ("Tom & Jerry" must not become "Tom  Jerry")."""
    return text.replace("&", "&&")


def plain_tip(text: str) -> str:
    """A tooltip that shows ``text`` as written: Qt guesses that a text with tags is rich text
    (a player called "<b>Ann</b>" must not turn bold, a card name must never load a file)."""
    return "<p>" + html.escape(text) + "</p>"


def sentence(words: str) -> str:
    """``words`` ending as a sentence ends (an action's name used as the first line of a prompt).

    >>> sentence("Deal and turn up the first card")
    'Deal and turn up the first card.'
    >>> sentence("Is it the thief?")
    'Is it the thief?'
    >>> sentence('Start the timer and say "Got you!"')
    'Start the timer and say "Got you!"'
    """
    words = words.strip()
    return words if not words or words.rstrip("\"\u201d')").endswith(tuple(".!?:\u2026")) else words + "."


def natural_key(text: str) -> tuple:
    """Sorts words with numbers as a person counts: "Case 2" before "Case 10".

    >>> sorted(["Case 10", "Case 2", "case 1"], key=natural_key)
    ['case 1', 'Case 2', 'Case 10']
    """
    return tuple((0, int(part), "") if part.isdigit() else (1, 0, part.casefold())
                 for part in re.split(r"(\d+)", text) if part)


def label(text: str = "", role: str | None = None, *, wrap: bool = True, parent: QWidget | None = None) -> QLabel:
    """A label that shows its text as plain text: player and card names are never markup."""
    widget = QLabel(parent)
    widget.setTextFormat(Qt.PlainText)
    widget.setText(text)
    if role:
        widget.setProperty("role", role)
    widget.setWordWrap(wrap)
    return widget


def button(text: str, role: str | None = None, *, name: str | None = None, big: bool = False,
           parent: QWidget | None = None) -> QPushButton:
    """A keyboard-reachable button; ``big`` for the one main action of a screen."""
    widget = QPushButton(literal(text), parent)
    if role:
        widget.setProperty("role", role)
    if name:
        widget.setObjectName(name)
    if big:
        widget.setProperty("scale", "big")     # not "size": QWidget already has that property
        widget.setMinimumHeight(BIG_BUTTON_HEIGHT)
    widget.setFocusPolicy(Qt.StrongFocus)
    widget.setAutoDefault(True)     # Enter presses the focused button: keyboard-only play
    return widget


def clear_layout(layout) -> None:
    """Remove every widget (and nested layout) from a layout."""
    while layout.count():
        item = layout.takeAt(0)
        if item.widget():
            # Hidden now, deleted later: a removed button must not linger on screen
            # (or be clickable) until the event loop gets round to deleting it.
            item.widget().hide()
            item.widget().deleteLater()
        elif item.layout():
            clear_layout(item.layout())


class WrappingButton(QPushButton):
    """A button whose text wraps to its width (never cut off): a long name takes more lines,
    and a word too long for the button gets a smaller font."""

    POINT_SIZE = 13
    #: the font never shrinks below this (a button read from across the table sets it higher)
    LEAST_POINT_SIZE = 8
    #: padding above and below the text, plain and compact; the text's least height (style.py's
    #: min-height, compact's own); the border (style.py: the focus ring is drawn inside it)
    PADDING, COMPACT_PADDING = 4, 1
    TEXT_HEIGHT, COMPACT_TEXT_HEIGHT = 34, 20
    BORDER = 2

    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._lines: list[str] = [text] if text else []
        self._base_sheet = ""
        self._compact = False
        self.setFocusPolicy(Qt.StrongFocus)
        self.setSizePolicy(QSizePolicy.Ignored, QSizePolicy.Preferred)
        self._fit_text()

    def set_lines(self, lines: list[str]) -> None:
        self._lines = list(lines)
        self._fit_text()

    def lines(self) -> list[str]:
        """The words it shows, one entry a line before wrapping."""
        return list(self._lines)

    @property
    def compact(self) -> bool:
        return self._compact

    def set_compact(self, compact: bool = True) -> None:
        """Less padding and a lower minimum height than the app's buttons: for a column of many."""
        self._compact = compact
        self._fit_text()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._fit_text()

    def _metrics(self, size: int) -> QFontMetrics:
        font = QFont(self.font())
        font.setPointSize(size)
        return QFontMetrics(font)

    def _wrapped(self, metrics: QFontMetrics, width: int) -> list[str]:
        return [wrapped for line in self._lines for wrapped in wrap_to_width(line, metrics, width)]

    def height_for(self, width: int, compact: bool) -> int:
        """The height that shows every line whole at ``width`` at the largest type size, with the
        padding ``compact`` gives (for a column that must find room for its buttons)."""
        metrics = self._metrics(self.POINT_SIZE)
        rows = len(self._wrapped(metrics, max(width - 12, 40)))
        if compact:
            return max(rows * metrics.height(), self.COMPACT_TEXT_HEIGHT) + 2 * self.COMPACT_PADDING + 2 * self.BORDER
        return max(rows * metrics.height(), self.TEXT_HEIGHT) + 2 * self.PADDING + 2 * self.BORDER

    def _fit_text(self) -> None:
        """Wrap the lines to the inner width, shrinking the font for a word too long or for
        more lines than the button is high."""
        width = max(self.width() - 12, 40)
        height = self.height() - 6           # borders and padding
        size = self.POINT_SIZE
        while True:
            metrics = self._metrics(size)
            rows = self._wrapped(metrics, width)
            text = "\n".join(rows)
            fits_across = all(metrics.horizontalAdvance(t) <= width for t in rows)
            fits_down = height <= 0 or len(rows) * metrics.height() <= height
            if size <= self.LEAST_POINT_SIZE or (fits_across and fits_down):
                break
            size -= 1
        if self._base_sheet:
            sheet = self._base_sheet.replace("color: #111;", f"color: #111; font-size: {size}pt;")
        else:
            low = (f" min-height: {self.COMPACT_TEXT_HEIGHT}px; padding: {self.COMPACT_PADDING}px 6px;"
                   if self._compact else f" padding: {self.PADDING}px 6px;")
            sheet = f"QPushButton {{ font-size: {size}pt;{low} }}"
        if sheet != self.styleSheet():      # restyling on every refresh costs a frame
            self.setStyleSheet(sheet)
        if literal(text) != self.text():
            self.setText(literal(text))


class SlotButton(WrappingButton):
    """One place on the table, drawn like a card: a face-down card (its type's colour, symbol and
    name), a face-up card (by name) or an empty spot.

    The card type is always written and has a symbol, so nothing depends on colour alone; a
    legal slot gets a thick blue border and an arrow, a slot picked for an action a red one.
    Text wraps to the tile's width (never cut off): a long name takes more lines, and a word
    too long for the tile gets a smaller font.
    """

    picked = Signal(str)

    def __init__(self, place: str, parent: QWidget | None = None) -> None:
        super().__init__("", parent)
        self.place = place
        self.setObjectName(f"slot:{place}")
        # Ignored width: a long card name must not widen its column (names are wrapped instead).
        self.setSizePolicy(QSizePolicy.Ignored, QSizePolicy.Expanding)
        self.setMinimumSize(96, 44)
        self.legal = False
        self.clicked.connect(lambda: self.picked.emit(self.place) if self.legal else None)

    def show_card(self, kind_name: str, position: str, colour: str, symbol: str = "", *, name: str | None,
                  present: bool, legal: bool, chosen: bool, face_up: bool = True) -> None:
        """``name``: shown for a face-up card, or a face-down one everyone saw flipped earlier."""
        self.legal = legal and present
        if not present:
            lines = [position, "(empty)"]
        elif name and face_up:
            lines = [name, "(face up)"]
        elif name:
            lines = [name, "(seen by all)"]
        else:
            lines = [f"{symbol} {kind_name}".strip(), position]
        if chosen:
            lines = ["[picked]", *lines]
        elif self.legal:
            lines[0] = "\u25B6 " + lines[0]    # the arrow: a legal slot without relying on colour
        self._lines = lines
        self.setAccessibleName(f"{kind_name} {position}: " + " ".join(lines))
        self.setEnabled(present)
        border = (f"5px solid {style.CHOSEN}" if chosen else
                  f"5px solid {style.HIGHLIGHT}" if self.legal else "2px solid #6B6B6B")
        fill = "#FFFFFF" if name and face_up else (colour if present else "#EDEDED")
        weight = "bold" if self.legal or chosen else "normal"
        self._base_sheet = (f"QPushButton {{ background: {fill}; border: {border}; border-radius: 12px;"
                            f" font-weight: {weight}; color: #111; padding: 2px; }}"
                            f" QPushButton:focus {{ border: 5px dashed #000; }}")
        self._fit_text()


ELLIPSIS = "\u2026"


def shorten_names(template: str, names: tuple[str, ...], metrics: QFontMetrics, width: int) -> str:
    """``template.format(*names)`` in ``width``: while too wide, the longest name loses a letter
    and ends in "…" (the words around the names stay whole; the caller keeps the full text
    reachable, in a tooltip)."""
    shown = list(names)
    while metrics.horizontalAdvance(template.format(*shown)) > width:
        longest = max(range(len(shown)), key=lambda i: len(shown[i].rstrip(ELLIPSIS)))
        stem = shown[longest].rstrip(ELLIPSIS)
        if len(stem) <= 1:
            break
        shown[longest] = stem[:-1].rstrip() + ELLIPSIS
    return template.format(*shown)


def wrap_to_width(text: str, metrics: QFontMetrics, width: int) -> list[str]:
    """Greedy word wrap by measured width (a word wider than ``width`` stays whole)."""
    lines: list[str] = []
    for word in text.split():
        if lines and metrics.horizontalAdvance(lines[-1] + " " + word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines or [""]
