"""The die-reader wire protocol: message format, CRC-16 and a streaming parser.

Pure Python: no serial port, no Qt. Bytes go in, typed events come out. The full
description, with the reason for every part, is in ``docs/die-protocol.md``.

One message is one ASCII line, NMEA-style::

    $ROLL B007 17 4*XXXX\n
    ^ body          ^ CRC-16/CCITT-FALSE of the body (between '$' and '*'), 4 upper-case hex digits

>>> line = encode("ROLL", "B007", 17, 4)
>>> p = Parser()
>>> p.feed(encode("HELLO", "gumshoe-die", "1.0.0", 1, "B007", 6, 1000))[0].protocol
1
>>> p.feed(line[:5]) + p.feed(line[5:])          # a read may split a line anywhere
[Roll(seq=17, face=4, boot='B007')]
>>> p.feed(line)                                 # the device re-sent it: counted once
[Repeat(seq=17, boot='B007')]
>>> p.stats.duplicates
1
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union

PROTOCOL_VERSION = 1
"""The protocol version this app speaks; a reader announcing another one is not trusted."""

START, CHECK, END = b"$", b"*", b"\n"
MAX_LINE = 96
"""Longest line accepted, '$' to newline. The longest real message (HELLO) is about 50
bytes; anything longer is noise or two lines run together, and is dropped whole."""

WINDOW = 64
"""How far behind the newest roll a re-sent roll is still recognised (an anti-replay window,
as in IPsec): enough for the few rolls a reader keeps for re-sending."""

SEQ_MODULUS = 65536
"""Sequence numbers are 16 bits (what a small microcontroller counts cheaply) and wrap."""

STATES = ("rolling", "settled", "crooked")
"""Die states, sent as words, never numbers: commercial smart dice renumbered theirs
between firmware versions, and a word cannot silently change meaning."""

# Device -> host messages and their field counts; host -> device messages are listed
# so that our own words echoed back (a loopback, a half-duplex adapter) are not "noise".
DEVICE_MESSAGES = {"HELLO": 6, "ROLL": 3, "STATE": 1, "HB": 1, "BATT": 2, "ERR": None}
HOST_MESSAGES = {"HELLO?": 0, "ACK": 2}


def crc16_ccitt_false(data: bytes) -> int:
    """CRC-16/CCITT-FALSE: poly 0x1021, init 0xFFFF, not reflected, no final xor.

    Chosen because it is the best-known 16-bit CRC with a reference check value and a
    ten-line implementation on an 8-bit microcontroller.

    >>> hex(crc16_ccitt_false(b"123456789"))      # the catalogue's check value
    '0x29b1'
    """
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
            crc &= 0xFFFF
    return crc


def _crc_table() -> tuple[int, ...]:
    table = []
    for top in range(256):
        crc = top << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return tuple(table)


_TABLE = _crc_table()


def crc16(data: bytes) -> int:
    """Table-driven CRC-16/CCITT-FALSE (same result as ``crc16_ccitt_false``, ~8x faster).

    >>> crc16(b"123456789") == crc16_ccitt_false(b"123456789")
    True
    """
    crc = 0xFFFF
    table = _TABLE
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ table[(crc >> 8) ^ byte]
    return crc


class ProtocolError(ValueError):
    """A message that cannot be encoded (a field with a space, a non-ASCII character...)."""


def encode(kind: str, *fields: object) -> bytes:
    """One complete line: ``$KIND f1 f2*CRC\\n``.

    >>> encode("HB", 1234)
    b'$HB 1234*81E2\\n'
    >>> encode("ERR", "SENSOR", "bad value")
    Traceback (most recent call last):
    ...
    desktop.die.protocol.ProtocolError: field 'bad value' of ERR must be printable ASCII without spaces, '$' or '*'
    """
    parts = [kind, *(str(f) for f in fields)]
    for part in parts:
        if not part or not _is_field(part):
            raise ProtocolError(f"field {part!r} of {kind} must be printable ASCII without spaces, '$' or '*'")
    body = " ".join(parts).encode("ascii")
    line = START + body + CHECK + b"%04X" % crc16(body) + END
    if len(line) > MAX_LINE:
        raise ProtocolError(f"{kind} message is {len(line)} bytes; the limit is {MAX_LINE}")
    return line


def _is_field(text: str) -> bool:
    return all(33 <= ord(c) <= 126 and c not in "$*" for c in text)


# --- events ---------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Hello:
    """The reader introduced itself (at boot, or when asked with ``HELLO?``)."""

    device: str
    firmware: str
    protocol: int
    boot: str                 # a random id chosen at power-on: a new one means the device rebooted
    faces: int
    heartbeat_ms: int
    supported: bool = True
    rebooted: bool = False    # True when this hello starts a new boot (sequence numbers restart)


@dataclass(frozen=True, slots=True)
class Roll:
    """A settled roll. ``seq`` counts rolls since the reader booted, wrapping at 65536."""

    seq: int
    face: int
    boot: str = ""            # the boot it was rolled in: (boot, seq) names a roll uniquely


@dataclass(frozen=True, slots=True)
class State:
    """The die is ``rolling``, has ``settled`` flat, or came to rest ``crooked`` (re-roll)."""

    state: str


@dataclass(frozen=True, slots=True)
class Heartbeat:
    uptime_ms: int


@dataclass(frozen=True, slots=True)
class Battery:
    millivolts: int
    percent: int


@dataclass(frozen=True, slots=True)
class DeviceError:
    """The reader reports a fault of its own (sensor missing, tilt calibration...)."""

    code: str
    text: str


@dataclass(frozen=True, slots=True)
class Unsupported:
    """The reader speaks a protocol version we do not: nothing it says is used until it
    says hello in a version we know."""

    protocol: int
    device: str
    firmware: str

    @property
    def message(self) -> str:
        return (f"The die reader {self.device} (firmware {self.firmware}) speaks protocol version "
                f"{self.protocol}; this app speaks version {PROTOCOL_VERSION}. Update the app or the reader.")


@dataclass(frozen=True, slots=True)
class Repeat:
    """A roll already delivered arrived again (the device did not get our ACK): acknowledge
    it again, but never count it twice."""

    seq: int
    boot: str = ""


@dataclass(frozen=True, slots=True)
class HelloNeeded:
    """A message came from a reader we do not know yet (after a reopen, or a reboot whose
    hello was lost): ask it ``HELLO?``; nothing it says is used until it answers."""

    reason: str


Event = Union[Hello, Roll, State, Heartbeat, Battery, DeviceError, Unsupported, Repeat, HelloNeeded]


@dataclass(slots=True)
class Stats:
    """What the parser dropped, and why. Nothing dropped ever becomes an event."""

    lines: int = 0            # complete, valid, used lines
    bad_checksum: int = 0
    too_long: int = 0
    malformed: int = 0        # right checksum, but not a message we understand
    noise_bytes: int = 0      # bytes outside any '$...' line
    duplicates: int = 0       # rolls already delivered (device re-sent them)
    before_hello: int = 0     # messages from a reader (or a boot) that has not said a supported hello
    too_old: int = 0          # a roll older than the duplicate window: cannot tell, so not counted
    echoed: int = 0           # host messages (our own, looped back)
    truncated: int = 0        # a line cut short by the next '$' (bytes were lost)

    @property
    def dropped(self) -> int:
        return (self.bad_checksum + self.too_long + self.malformed + self.duplicates + self.before_hello
                + self.truncated + self.too_old)


@dataclass(slots=True)
class _Session:
    """What we know about the reader's current boot, kept across reconnects."""

    boot: str | None = None
    faces: int = 6
    last_seq: int | None = None                       # the newest roll delivered in this boot
    seen: set[int] = field(default_factory=set)      # rolls delivered within WINDOW of last_seq
    trusted: bool = False


class Parser:
    """Bytes in, events out. Tolerant of anything a serial line can do.

    - a read may stop anywhere: partial lines wait for the rest;
    - noise between lines is skipped; a '$' always starts a fresh line, so a message
      right after garbage without a newline is still recovered;
    - lines longer than ``MAX_LINE`` and lines with a wrong checksum are counted and dropped;
    - a roll carries its boot id and sequence number; one already delivered is a re-send
      and becomes ``Repeat`` (to be acknowledged again, never counted); an older roll that
      was lost and re-sent later is still delivered, once; a ``HELLO`` with a new boot id
      means the device rebooted, and its sequence numbers start again;
    - nothing is used until the reader has said hello in a protocol version we speak.

    Call ``reset_stream()`` after reopening the port: the half-read line is thrown away but
    the memory of delivered rolls is kept, so a roll re-sent after a replug is not counted twice.

    >>> p = Parser()
    >>> p.feed(b"\\x00\\xffjunk" + encode("ROLL", "B1", 1, 3))      # no hello yet: not trusted
    [HelloNeeded(reason='a message before the reader said hello')]
    >>> p.stats.before_hello, p.stats.noise_bytes
    (1, 6)
    """

    def __init__(self, *, max_line: int = MAX_LINE) -> None:
        self.max_line = max_line
        self.stats = Stats()
        self.session = _Session()
        self._buffer = bytearray()
        self._in_line = False       # inside a '$...' line
        self._discarding = False    # an over-long line: skip to its end

    def reset_stream(self) -> None:
        """Forget a half-received line (the port was closed and reopened). The reader must
        say hello again (the port may now hold another device); delivered rolls are remembered."""
        self._buffer.clear()
        self._in_line = self._discarding = False
        self.session.trusted = False

    def feed(self, data: bytes) -> list[Event]:
        """Consume any bytes; return the events completed by them, in order."""
        events: list[Event] = []
        i, n = 0, len(data)
        while i < n:
            if not self._in_line and not self._discarding:
                start = data.find(START, i)
                if start < 0:
                    self.stats.noise_bytes += n - i - data.count(END, i, n)
                    return events
                self.stats.noise_bytes += start - i - data.count(END, i, start)
                self._in_line, i = True, start + 1
                self._buffer.clear()
                continue
            # Inside a line (or skipping an over-long one): find where it ends.
            end, restart = data.find(END, i), data.find(START, i)
            stop = min(x for x in (end, restart, n) if x >= 0)
            if not self._discarding:
                self._buffer += data[i:stop]
                if len(self._buffer) + 2 > self.max_line:
                    self.stats.too_long += 1
                    self._buffer.clear()
                    self._in_line, self._discarding = False, True
            if stop == n:
                return events
            if data[stop] == START[0]:
                # A new '$' before this line ended: its newline was lost, or the rest of it.
                if self._in_line and self._buffer:
                    event = self._line(bytes(self._buffer), cut=True)
                    if event is not None:
                        events.append(event)
                self._in_line, self._discarding = False, False
                i = stop
                continue
            # Newline.
            if self._in_line:
                event = self._line(bytes(self._buffer))
                if event is not None:
                    events.append(event)
            self._buffer.clear()
            self._in_line = self._discarding = False
            i = stop + 1
        return events

    # --- one line --------------------------------------------------------------------
    def _line(self, raw: bytes, cut: bool = False) -> Event | None:
        if raw.endswith(b"\r"):
            raw = raw[:-1]
        star = raw.rfind(CHECK)
        if star < 0 or len(raw) - star != 5:
            if cut:
                self.stats.truncated += 1
            else:
                self.stats.bad_checksum += 1
            return None
        body, check = raw[:star], raw[star + 1:]
        try:
            expected = int(check, 16)
        except ValueError:
            self.stats.bad_checksum += 1
            return None
        if not check.isalnum() or crc16(body) != expected:
            self.stats.bad_checksum += 1
            return None
        try:
            parts = body.decode("ascii").split(" ")
        except UnicodeDecodeError:
            self.stats.malformed += 1
            return None
        kind, fields = parts[0], parts[1:]
        if kind in HOST_MESSAGES:
            self.stats.echoed += 1
            return None
        try:
            event = self._message(kind, fields)
        except (ValueError, IndexError):
            self.stats.malformed += 1
            return None
        if event is not None:
            self.stats.lines += 1
        return event

    def _message(self, kind: str, fields: list[str]) -> Event | None:
        count = DEVICE_MESSAGES.get(kind, -1)
        if count == -1 or (count is not None and len(fields) != count):
            raise ValueError(kind)
        if kind == "HELLO":
            return self._hello(fields)
        if not self.session.trusted:
            self.stats.before_hello += 1
            return HelloNeeded("a message before the reader said hello")
        if kind == "ROLL":
            boot = fields[0]
            seq, face = _number(fields[1], 0, SEQ_MODULUS - 1), _number(fields[2], 1, self.session.faces)
            if boot != self.session.boot:
                # Rebooted and its hello was lost: these sequence numbers belong to a boot we
                # have not met, so they cannot be checked for repeats yet.
                self.stats.before_hello += 1
                return HelloNeeded(f"a roll from boot {boot}, which has not said hello")
            return self._roll(seq, face)
        if kind == "STATE":
            if fields[0] not in STATES:
                raise ValueError(fields[0])
            return State(fields[0])
        if kind == "HB":
            return Heartbeat(_number(fields[0], 0, 2**32 - 1))
        if kind == "BATT":
            return Battery(_number(fields[0], 0, 20000), _number(fields[1], 0, 100))
        if kind == "ERR":
            if not fields:
                raise ValueError(kind)
            return DeviceError(fields[0], " ".join(fields[1:]) or fields[0])
        raise ValueError(kind)

    def _hello(self, fields: list[str]) -> Hello | Unsupported:
        device, firmware = fields[0], fields[1]
        protocol = _number(fields[2], 0, 9999)
        boot = fields[3]
        faces, heartbeat_ms = _number(fields[4], 1, 100), _number(fields[5], 10, 600000)
        session = self.session
        if protocol != PROTOCOL_VERSION:
            session.trusted = False
            return Unsupported(protocol, device, firmware)
        rebooted = boot != session.boot
        if rebooted:
            # A new boot: its sequence numbers start again, so the old memory must go.
            session.boot, session.last_seq = boot, None
            session.seen.clear()
        session.faces, session.trusted = faces, True
        return Hello(device, firmware, protocol, boot, faces, heartbeat_ms, True, rebooted)

    def _roll(self, seq: int, face: int) -> Roll | Repeat | None:
        session = self.session
        last = session.last_seq
        if last is not None:
            # Serial-number arithmetic (RFC 1982): "newer" means less than half the circle ahead.
            ahead = (seq - last) % SEQ_MODULUS
            if ahead == 0 or ahead >= SEQ_MODULUS // 2:
                behind = (last - seq) % SEQ_MODULUS
                if behind >= WINDOW:
                    self.stats.too_old += 1
                    return None
                if seq in session.seen:
                    self.stats.duplicates += 1
                    return Repeat(seq, session.boot or "")
                # An older roll that had been lost and is re-sent now: new to us, deliver it.
                session.seen.add(seq)
                return Roll(seq, face, session.boot or "")
        session.last_seq = seq
        session.seen.add(seq)
        if len(session.seen) > 2 * WINDOW:
            session.seen = {s for s in session.seen if (seq - s) % SEQ_MODULUS < WINDOW}
        return Roll(seq, face, session.boot or "")


def _number(text: str, low: int, high: int) -> int:
    if not text.isdigit() or len(text) > 10:
        raise ValueError(text)
    value = int(text)
    if not low <= value <= high:
        raise ValueError(text)
    return value
