"""The die link as Qt signals, always delivered on the GUI thread.

The link calls back on its own thread; this adapter hands every event to the thread the
adapter lives in (through a queued connection) and emits plain signals there, so slots
may touch widgets and the game session directly.

>>> from desktop.die.qt_adapter import DieReader          # doctest: +SKIP
>>> reader = DieReader()                                   # doctest: +SKIP
>>> reader.rolled.connect(lambda face, seq: print("rolled", face))   # doctest: +SKIP
>>> reader.start()                                         # doctest: +SKIP
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, Qt, Signal, Slot

from .link import OFF, DieLink, LinkProblem, StatusChanged
from .protocol import Battery, DeviceError, Hello, Roll, State

LOW_BATTERY_PERCENT = 15


class DieReader(QObject):
    """A die reader for the app: start it, connect to its signals.

    Signals: ``rolled(face, seq)``, ``status_changed("connected" | "searching" | "off")``,
    ``error(message)`` (plain words for the table), ``state_changed("rolling" | "settled" |
    "crooked")``, ``battery(millivolts, percent)``, ``introduced(description)`` (after hello).
    Keyword options are passed to ``DieLink`` (``ports=``, ``opener=``, timings).
    """

    rolled = Signal(int, int)
    status_changed = Signal(str)
    error = Signal(str)
    state_changed = Signal(str)
    battery = Signal(int, int)
    introduced = Signal(str)
    _arrived = Signal(object)

    def __init__(self, parent: QObject | None = None, **link_options: Any) -> None:
        super().__init__(parent)
        # Queued: the link emits on its own thread; _dispatch runs on this object's thread.
        self._arrived.connect(self._dispatch, Qt.QueuedConnection)
        self.link = DieLink(self._arrived.emit, **link_options)
        self.status = OFF
        self.device: str | None = None
        self._battery_warned = False

    def start(self) -> None:
        """Begin searching for the reader (returns at once)."""
        self.link.start()

    def stop(self) -> None:
        """Close the port and stop searching (the status becomes "off")."""
        self.link.stop()

    @property
    def stats(self):
        """The parser's counters: lines used, dropped (bad checksum, too long, duplicates...)."""
        return self.link.parser.stats

    @Slot(object)
    def _dispatch(self, event: object) -> None:
        if isinstance(event, Roll):
            self.rolled.emit(event.face, event.seq)
        elif isinstance(event, StatusChanged):
            if event.status != self.status:
                self.status = event.status
                self.status_changed.emit(event.status)
        elif isinstance(event, State):
            self.state_changed.emit(event.state)
        elif isinstance(event, LinkProblem):
            self.error.emit(event.message)
        elif isinstance(event, DeviceError):
            self.error.emit(f"The die reader reports a problem ({event.code}): {event.text}.")
        elif isinstance(event, Battery):
            self.battery.emit(event.millivolts, event.percent)
            low = event.percent <= LOW_BATTERY_PERCENT
            if low and not self._battery_warned:
                self.error.emit(f"The die reader's battery is low ({event.percent}%).")
            self._battery_warned = low
        elif isinstance(event, Hello):
            self.device = f"{event.device} (firmware {event.firmware})"
            self.introduced.emit(self.device)
