"""The USB die reader: a serial line per roll, read in a worker thread.

The reader sends one line per roll, ``ROLL <n> <face>``: ``n`` counts rolls (so a line
sent twice after a reconnect is not a second roll) and ``face`` is the face number;
which card type a face shows is data (``assets/dice``), looked up by the engine.
A garbled line is reported and changes nothing.

>>> parse_line("ROLL 17 4")
DieRoll(number=17, face=4)
>>> parse_line("HELLO gumshoe-die 1") is None
True
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Callable

from PySide6.QtCore import QObject, QThread, Signal, Slot
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QVBoxLayout, QWidget

from .widgets import button, label

BAUD = 9600
MAX_LINE = 64       # a longer line is noise, not a message


class DieLineError(ValueError):
    """A line from the die reader that is not a message it sends."""


@dataclass(frozen=True)
class DieRoll:
    number: int
    face: int


def parse_line(line: str) -> DieRoll | None:
    """A roll, None for a line that carries no roll (greeting, blank), or DieLineError."""
    text = line.strip()
    if not text or text.startswith("HELLO") or text.startswith("#"):
        return None
    if len(text) > MAX_LINE:
        raise DieLineError("The die reader sent a line that is far too long.")
    parts = text.split()
    if parts[0] != "ROLL" or len(parts) != 3 or not all(p.isdigit() for p in parts[1:]):
        raise DieLineError(f"The die reader sent something unreadable: {text[:30]!r}.")
    return DieRoll(int(parts[1]), int(parts[2]))


def open_serial(port: str):
    import serial
    return serial.serial_for_url(port, baudrate=BAUD, timeout=0.2)


def available_ports() -> list[tuple[str, str]]:
    """(device, description) of every serial port, for the choice list."""
    try:
        from serial.tools import list_ports
    except ImportError:
        return []
    # The reader is a USB device; built-in serial ports (ttyS0, COM1) are never it.
    return [(p.device, f"{p.device} \u2014 {p.description}") for p in list_ports.comports() if p.vid is not None]


class DieReaderWorker(QObject):
    rolled = Signal(int)
    problem = Signal(str)
    connected = Signal(str)

    def __init__(self, open_port: Callable[[], object]) -> None:
        super().__init__()
        self.open_port = open_port
        self._stop = threading.Event()
        self._last_number: int | None = None

    def stop(self) -> None:
        self._stop.set()

    @Slot()
    def run(self) -> None:
        try:
            port = self.open_port()
        except Exception as exc:        # missing, busy or unplugged: a message, never a crash
            self.problem.emit(f"The die reader could not be opened: {exc}")
            return
        self.connected.emit("Die reader connected")
        buffer = b""
        try:
            while not self._stop.is_set():
                try:
                    chunk = port.readline()
                except Exception as exc:
                    self.problem.emit(f"The die reader stopped: {exc}. Plug it in again and press Connect.")
                    return
                if not chunk:
                    continue
                buffer += chunk
                if not buffer.endswith(b"\n") and len(buffer) <= MAX_LINE:
                    continue          # the rest of the line is still on its way
                line, buffer = buffer, b""
                try:
                    roll = parse_line(line.decode("ascii"))
                except (DieLineError, UnicodeDecodeError) as exc:
                    self.problem.emit(str(exc) if isinstance(exc, DieLineError)
                                      else "The die reader sent something unreadable.")
                    continue
                if roll is None or roll.number == self._last_number:
                    continue
                self._last_number = roll.number
                self.rolled.emit(roll.face)
        finally:
            port.close()


class DieReaderPanel(QWidget):
    """Port choice, connect, and what the reader last said."""

    rolled = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._thread: QThread | None = None
        self._worker: DieReaderWorker | None = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        row = QHBoxLayout()
        self.ports = QComboBox()
        self.ports.setObjectName("die:ports")
        self.connect_button = button("Connect die reader")
        self.connect_button.setObjectName("die:connect")
        self.connect_button.clicked.connect(self.connect_chosen)
        row.addWidget(self.ports, 1)
        row.addWidget(self.connect_button)
        layout.addLayout(row)
        self.status = label("")
        self.status.setObjectName("die:status")
        layout.addWidget(self.status)
        self.refresh_ports()

    def refresh_ports(self) -> None:
        self.ports.clear()
        for device, text in available_ports():
            self.ports.addItem(text, device)
        found = self.ports.count() > 0
        self.ports.setVisible(found)
        self.connect_button.setText("Connect die reader" if found else "Look for a die reader")
        self.status.setText("" if found else "No die reader plugged in: use the buttons above.")

    def connect_chosen(self) -> None:
        device = self.ports.currentData()
        if device:
            self.start(lambda: open_serial(device))
        else:
            self.refresh_ports()       # plugged in since the app started?

    def start(self, open_port: Callable[[], object]) -> None:
        self.stop()
        self._thread = QThread(self)
        self._worker = DieReaderWorker(open_port)
        self._worker.moveToThread(self._thread)
        self._thread.started.connect(self._worker.run)
        self._worker.rolled.connect(self.rolled)
        self._worker.problem.connect(self.status.setText)
        self._worker.connected.connect(self.status.setText)
        self._thread.start()

    def stop(self) -> None:
        if self._worker is not None:
            self._worker.stop()
        if self._thread is not None:
            self._thread.quit()
            self._thread.wait(2000)
        self._thread = self._worker = None
