"""Small building blocks shared by the screens."""

from __future__ import annotations

import textwrap

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QLabel, QPushButton, QSizePolicy, QWidget

from . import style

BIG_BUTTON_HEIGHT = 70
NAME_WRAP = 14          # characters per line of a card name on a slot (slots are narrow)


def label(text: str = "", role: str | None = None, *, wrap: bool = True, parent: QWidget | None = None) -> QLabel:
    widget = QLabel(text, parent)
    if role:
        widget.setProperty("role", role)
    widget.setWordWrap(wrap)
    return widget


def button(text: str, role: str | None = None, *, name: str | None = None, big: bool = False,
           parent: QWidget | None = None) -> QPushButton:
    """A keyboard-reachable button; ``big`` for the one main action of a screen."""
    widget = QPushButton(text, parent)
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


class SlotButton(QPushButton):
    """One place on the table: a face-down card, a face-up card (by name) or an empty spot.

    The card type is always written on it, so nothing depends on colour alone; a legal
    slot gets a thick blue border and an arrow, a slot picked for a warrant a red one.
    """

    picked = Signal(str)

    def __init__(self, place: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.place = place
        self.setObjectName(f"slot:{place}")
        self.setFocusPolicy(Qt.StrongFocus)
        # Ignored width: a long card name must not widen its column (names are wrapped instead).
        self.setSizePolicy(QSizePolicy.Ignored, QSizePolicy.Expanding)
        self.setMinimumSize(120, 64)
        self.legal = False
        self.clicked.connect(lambda: self.picked.emit(self.place) if self.legal else None)

    def show_card(self, kind_name: str, position: str, colour: str, *, name: str | None, present: bool,
                  legal: bool, chosen: bool, face_up: bool = True) -> None:
        """``name``: shown for a face-up card, or a face-down one everyone saw flipped earlier."""
        self.legal = legal and present
        if not present:
            text = f"{position}\n(empty)"
        elif name and face_up:
            text = f"{textwrap.fill(name, NAME_WRAP)}\n(face up)"
        elif name:
            text = f"{textwrap.fill(name, NAME_WRAP)}\n(seen by all)"
        else:
            text = f"{kind_name}\n{position}"
        if chosen:
            text = "[picked]\n" + text
        elif self.legal:
            text = "\u25B6 " + text     # the arrow: a legal slot without relying on colour
        self.setText(text)
        self.setAccessibleName(f"{kind_name} {position}: " + text.replace("\n", " "))
        self.setEnabled(present)
        border = (f"5px solid {style.CHOSEN}" if chosen else
                  f"5px solid {style.HIGHLIGHT}" if self.legal else "2px solid #6B6B6B")
        fill = "#FFFFFF" if name and face_up else (colour if present else "#EDEDED")
        weight = "bold" if self.legal or chosen else "normal"
        sheet = (f"QPushButton {{ background: {fill}; border: {border}; border-radius: 10px;"
                 f" font-size: 14pt; font-weight: {weight}; color: #111; padding: 4px; }}"
                 f" QPushButton:focus {{ border: 5px dashed #000; }}")
        if sheet != self.styleSheet():      # restyling every slot on every refresh costs a frame
            self.setStyleSheet(sheet)
