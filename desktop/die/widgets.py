"""Die-reader widgets: a status light for the table screen and a "test your die" dialog.

``reader`` below is a ``DieReader`` (see ``qt_adapter``).

>>> light = DieStatusLight()               # doctest: +SKIP
>>> light.follow(reader)                   # doctest: +SKIP
>>> DieTestDialog(reader, load_die(game_info(game).die), names).exec()   # doctest: +SKIP
"""

from __future__ import annotations

from typing import Mapping

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QHBoxLayout, QLabel, QListWidget, QVBoxLayout,
                               QWidget)

from engine.dice import DieError, DieSpec

from .link import CONNECTED, OFF, SEARCHING
from .qt_adapter import DieReader

LIGHTS = {
    CONNECTED: ("#2e9d4f", "Die reader connected", "The die reader is plugged in: roll the real die."),
    SEARCHING: ("#e0a000", "Looking for the die reader",
                "Plug the die reader into a USB port. Until then, use the on-screen die."),
    OFF: ("#9a9a9a", "Die reader off", "The die reader is not used: use the on-screen die."),
}
STATE_WORDS = {"rolling": "Rolling\u2026", "settled": "Settled.", "crooked": "Crooked! Roll it again."}


class DieStatusLight(QWidget):
    """A coloured dot and a few words: connected (green), searching (amber), off (grey)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("die_status")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.dot = QLabel()
        self.dot.setFixedSize(14, 14)
        self.text = QLabel()
        layout.addWidget(self.dot)
        layout.addWidget(self.text, 1)
        self.status = ""
        self.set_status(OFF)

    def set_status(self, status: str) -> None:
        """Show ``connected``, ``searching`` or ``off``; anything else is shown as off."""
        colour, words, tip = LIGHTS.get(status, LIGHTS[OFF])
        self.status = status if status in LIGHTS else OFF
        self.dot.setStyleSheet(f"background: {colour}; border-radius: 7px;")
        self.text.setText(words)
        self.setToolTip(tip)

    def follow(self, reader: DieReader) -> None:
        """Track a reader's status from now on."""
        reader.status_changed.connect(self.set_status)
        self.set_status(reader.status)


class DieTestDialog(QDialog):
    """"Test your die": every roll as it arrives, with what the face means in this game.

    ``names`` maps a die symbol to the words shown (``{"loot": "Loot"}``); symbols without
    a name are shown capitalised.
    """

    def __init__(self, reader: DieReader, die: DieSpec, names: Mapping[str, str] | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Test your die")
        self.reader, self.die, self.names = reader, die, dict(names or {})
        layout = QVBoxLayout(self)
        self.light = DieStatusLight()
        self.light.follow(reader)
        layout.addWidget(self.light)
        self.device = QLabel(reader.device or "")
        layout.addWidget(self.device)
        layout.addWidget(QLabel(f"Roll the {die.name} a few times. Each roll appears below with what it shows."))
        self.state = QLabel("")
        self.state.setObjectName("die_state")
        layout.addWidget(self.state)
        self.rolls = QListWidget()
        self.rolls.setObjectName("die_rolls")
        layout.addWidget(self.rolls, 1)
        self.problem = QLabel("")
        self.problem.setObjectName("die_problem")
        self.problem.setWordWrap(True)
        self.problem.setStyleSheet("color: #b00020;")
        layout.addWidget(self.problem)
        self.counts = QLabel("")
        self.counts.setTextInteractionFlags(Qt.TextSelectableByMouse)
        layout.addWidget(self.counts)
        buttons = QDialogButtonBox(QDialogButtonBox.Close)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        reader.rolled.connect(self.show_roll)
        reader.state_changed.connect(self.show_state)
        reader.error.connect(self.problem.setText)
        reader.introduced.connect(self.device.setText)
        self.resize(420, 380)
        self._update_counts()

    def meaning(self, face: int) -> str:
        """What a face shows on this die, in the table's words (``"Loot"``)."""
        try:
            symbol = self.die.shows(face)
        except DieError:
            return f"not a face of the {self.die.name}"
        return self.names.get(symbol, symbol.capitalize())

    def show_roll(self, face: int, seq: int) -> None:
        self.rolls.insertItem(0, f"Roll #{seq}: face {face} \u2192 {self.meaning(face)}")
        self.state.setText(STATE_WORDS["settled"])
        self._update_counts()

    def show_state(self, state: str) -> None:
        self.state.setText(STATE_WORDS.get(state, state))

    def _update_counts(self) -> None:
        stats = self.reader.stats
        self.counts.setText(f"Rolls received: {self.rolls.count()} \u00b7 garbled lines dropped: "
                            f"{stats.bad_checksum + stats.too_long + stats.malformed + stats.truncated} \u00b7 "
                            f"repeats dropped: {stats.duplicates}")

    def done(self, result: int) -> None:
        # The reader outlives the dialog: stop talking to a closed window.
        for signal, slot in ((self.reader.rolled, self.show_roll), (self.reader.state_changed, self.show_state),
                             (self.reader.error, self.problem.setText),
                             (self.reader.introduced, self.device.setText),
                             (self.reader.status_changed, self.light.set_status)):
            try:
                signal.disconnect(slot)
            except (RuntimeError, TypeError):
                pass
        super().done(result)
