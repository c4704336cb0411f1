"""The serial link to a die reader: find it, keep it, lose it gracefully. No Qt.

A ``DieLink`` runs in its own thread and never blocks the caller. It tries each serial
port in turn and keeps the one that answers ``HELLO?`` with a valid hello in our protocol
version (by handshake, never by guessing a port name); reads events through one
``Parser`` (kept across reconnects, so a roll re-sent after a replug is still counted
once); acknowledges every roll; declares the link stale when heartbeats stop; and after
an unplug searches again with growing back-off.

Events go to ``on_event`` (called on the link's thread) or, without a callback, into
``link.events`` (a thread-safe queue).

>>> import serial
>>> from desktop.die.protocol import encode
>>> port = serial.serial_for_url("loop://", timeout=0.02)
>>> _ = port.write(encode("HELLO", "doc-die", "1.0", 1, "B1", 6, 1000) + encode("ROLL", "B1", 1, 5))
>>> link = DieLink(ports=["loop://"], opener=lambda name: port)
>>> link.start()
>>> wait_for(link.events, Roll, timeout=5)
Roll(seq=1, face=5, boot='B1')
>>> link.stop()
>>> link.status
'off'
"""

from __future__ import annotations

import queue
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Protocol

import serial
from serial.tools import list_ports

from .protocol import DeviceError, Event, Hello, HelloNeeded, Parser, Repeat, Roll, Unsupported, encode

CONNECTED, SEARCHING, OFF = "connected", "searching", "off"


class SerialLike(Protocol):
    """What the link needs from a port (a ``serial.Serial`` or any ``serial_for_url`` object)."""

    in_waiting: int

    def read(self, size: int = 1) -> bytes: ...
    def write(self, data: bytes) -> int | None: ...
    def close(self) -> None: ...


@dataclass(frozen=True, slots=True)
class StatusChanged:
    """The link is ``connected`` (to ``port``), ``searching`` or ``off``."""

    status: str
    port: str | None = None


@dataclass(frozen=True, slots=True)
class LinkProblem:
    """Something for the family to know, in plain words (reader unplugged, silent, too new...)."""

    message: str


LinkEvent = Event | StatusChanged | LinkProblem
_SERIAL_ERRORS = (serial.SerialException, OSError, ValueError)


def usb_serial_ports() -> list[str]:
    """Serial ports with a USB identity: where a die reader can be.

    Built-in and Bluetooth ports are left out because opening some of them can stall for
    seconds; which of the USB ports is the reader is decided by the handshake alone.
    """
    return [p.device for p in list_ports.comports() if p.vid is not None]


class DieLink:
    """A die reader on some serial port, found and kept in a background thread.

    ``ports``: the candidates (a list, or a callable returning a fresh list each search;
    default: every USB serial port). ``opener``: makes a port object from a name (default:
    ``serial.serial_for_url``, so ``loop://`` and pty paths work too).
    ``handshake_timeout`` is long by default because an Arduino Uno/Nano reboots when its
    port is opened and says hello only after its bootloader (~2 s).
    """

    def __init__(self, on_event: Callable[[LinkEvent], None] | None = None, *,
                 ports: Iterable[str] | Callable[[], Iterable[str]] | None = None,
                 opener: Callable[[str], SerialLike] | None = None,
                 baudrate: int = 115200,
                 handshake_timeout: float = 3.0,
                 hello_every: float = 0.5,
                 stale_beats: float = 3.0,
                 backoff: tuple[float, float] = (0.25, 5.0),
                 read_timeout: float = 0.02) -> None:
        if handshake_timeout <= 0 or hello_every <= 0 or stale_beats < 1:
            raise ValueError("handshake_timeout and hello_every must be positive and stale_beats at least 1")
        if not 0 < backoff[0] <= backoff[1]:
            raise ValueError("backoff must be (first, longest) with 0 < first <= longest")
        self.events: queue.SimpleQueue[LinkEvent] = queue.SimpleQueue()
        self._on_event = on_event or self.events.put
        self._ports = ports if ports is not None else usb_serial_ports
        self._opener = opener or (lambda name: serial.serial_for_url(
            name, baudrate=baudrate, timeout=read_timeout, write_timeout=0.5))
        self.handshake_timeout, self.hello_every = handshake_timeout, hello_every
        self.stale_beats, self.backoff = stale_beats, backoff
        self.read_timeout = read_timeout
        self.parser = Parser()
        self.hello: Hello | None = None
        self.status, self.port = OFF, None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # --- control ---------------------------------------------------------------------
    def start(self) -> None:
        """Start searching in the background; returns at once."""
        if self._thread is not None and self._thread.is_alive():
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="die-link", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 2.0) -> None:
        """Close the port and end the thread (waits at most ``timeout`` seconds)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
        self._thread = None
        self._set_status(OFF, None)

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    # --- the thread ------------------------------------------------------------------
    def _emit(self, event: LinkEvent) -> None:
        try:
            self._on_event(event)
        except Exception as exc:          # a faulty listener must not kill the link
            self.events.put(LinkProblem(f"a die event listener failed: {exc!r}"))

    def _set_status(self, status: str, port: str | None) -> None:
        if (status, port) != (self.status, self.port):
            self.status, self.port = status, port
            self._emit(StatusChanged(status, port))

    def _run(self) -> None:
        delay = self.backoff[0]
        while not self._stop.is_set():
            self._set_status(SEARCHING, None)
            found = self._search()
            if found is None:
                self._stop.wait(delay)
                delay = min(delay * 2, self.backoff[1])
                continue
            delay = self.backoff[0]
            name, port, pending = found
            self._set_status(CONNECTED, name)
            try:
                self._serve(port, pending)
            finally:
                _close(port)
            if not self._stop.is_set():
                self._stop.wait(delay)       # give a replugged device a moment before the next search
        self._set_status(OFF, None)

    def _candidates(self) -> list[str]:
        try:
            names = list(self._ports() if callable(self._ports) else self._ports)
        except Exception as exc:
            self._emit(LinkProblem(f"could not list serial ports: {exc}"))
            return []
        if self.port in names:              # the last good port first
            names.remove(self.port)
            names.insert(0, self.port)
        return names

    def _search(self) -> tuple[str, SerialLike, list[Event]] | None:
        for name in self._candidates():
            if self._stop.is_set():
                return None
            try:
                port = self._opener(name)
            except _SERIAL_ERRORS:
                continue
            events = self._handshake(port)
            if events is not None:
                return name, port, events
            _close(port)
        return None

    def _handshake(self, port: SerialLike) -> list[Event] | None:
        """Ask ``HELLO?`` until a hello arrives; the events from it on, or None."""
        # A reopened port may hold another device: it must introduce itself again.
        self.parser.reset_stream()
        deadline = time.monotonic() + self.handshake_timeout
        next_ask = 0.0
        while not self._stop.is_set() and time.monotonic() < deadline:
            try:
                if time.monotonic() >= next_ask:
                    port.write(encode("HELLO?"))
                    next_ask = time.monotonic() + self.hello_every
                data = port.read(max(1, port.in_waiting))
            except _SERIAL_ERRORS:
                return None
            events = [e for e in self.parser.feed(data) if not isinstance(e, HelloNeeded)]
            for i, event in enumerate(events):
                if isinstance(event, Unsupported):
                    self._emit(LinkProblem(event.message))
                    return None
                if isinstance(event, Hello):
                    return events[i:]
        return None

    def _serve(self, port: SerialLike, pending: list[Event]) -> None:
        stats = self.parser.stats
        heard = time.monotonic()
        seen = (stats.lines, stats.duplicates, stats.before_hello)
        events = pending
        asked = 0.0
        while not self._stop.is_set():
            # Deliver the whole batch before anything can end this connection: the parser has
            # already marked these rolls as received, so dropping one here would lose it.
            replies: list[bytes] = []
            refused: Unsupported | None = None
            for event in events:
                if isinstance(event, Repeat):
                    replies.append(encode("ACK", event.boot, event.seq))   # our ACK was lost: say it again
                elif isinstance(event, HelloNeeded):
                    if time.monotonic() - asked >= self.hello_every:
                        asked = time.monotonic()
                        replies.append(encode("HELLO?"))
                elif isinstance(event, Unsupported):
                    refused = event
                else:
                    if isinstance(event, Hello):
                        self.hello = event
                    elif isinstance(event, Roll):
                        # The boot id too: an ACK delayed across a reboot must not cancel
                        # a new roll that happens to have the same number.
                        replies.append(encode("ACK", event.boot, event.seq))
                    self._emit(event)
            if refused is not None:
                self._emit(LinkProblem(refused.message))
                return
            if replies and not self._write(port, b"".join(replies)):
                self._emit(LinkProblem("The die reader was unplugged."))
                return
            now = time.monotonic()
            current = (stats.lines, stats.duplicates, stats.before_hello)
            if current != seen:
                heard, seen = now, current
            beat = (self.hello.heartbeat_ms if self.hello else 1000) / 1000
            if now - heard > self.stale_beats * beat:
                self._emit(LinkProblem(f"The die reader stopped answering (nothing for {now - heard:.1f} s)."))
                return
            try:
                data = port.read(max(1, port.in_waiting))
            except _SERIAL_ERRORS:
                self._emit(LinkProblem("The die reader was unplugged."))
                return
            events = self.parser.feed(data) if data else []

    def _write(self, port: SerialLike, data: bytes) -> bool:
        try:
            port.write(data)
            return True
        except _SERIAL_ERRORS:
            return False


def _close(port: Any) -> None:
    try:
        port.close()
    except _SERIAL_ERRORS:
        pass


def wait_for(events: "queue.SimpleQueue[Any]", kind: type, timeout: float = 5.0) -> Any:
    """The next event of ``kind`` from a link's queue (others are skipped); ``TimeoutError`` if none.

    For scripts and tests that use a link without a callback.
    """
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError(f"no {kind.__name__} within {timeout} s")
        try:
            event = events.get(timeout=left)
        except queue.Empty:
            continue
        if isinstance(event, kind):
            return event


__all__ = ["CONNECTED", "SEARCHING", "OFF", "DieLink", "StatusChanged", "LinkProblem", "LinkEvent",
           "DeviceError", "usb_serial_ports", "wait_for"]
