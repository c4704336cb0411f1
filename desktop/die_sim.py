"""A die reader that is not there: speaks the die protocol on a pseudo-terminal (POSIX).

From the command line it prints the pty path (open it in the app, or point a ``DieLink``
at it) and rolls when told::

    python -m desktop.die_sim                       # type 1-6 + Enter to roll, ? for help
    python -m desktop.die_sim --auto 2 --noise 0.2 --duplicates 0.3 --reboot-every 5

From tests it is a class:

>>> sim = DieSimulator(heartbeat_ms=100, seed=1)
>>> path = sim.start()
>>> path.startswith("/dev/")
True
>>> sim.roll(4)
1
>>> sim.close()

It behaves like the reference firmware (``assets/firmware/die_reader``): hello at boot and
on ``HELLO?``, ``STATE rolling`` then ``STATE settled`` + ``ROLL boot seq face`` for a roll,
heartbeats, battery reports, and re-sending every roll until the host sends ``ACK``.
The switches make it misbehave the way real serial lines and devices do: noise (garbage
between lines, flipped bytes), duplicated lines, reboots (a new boot id, sequence numbers
restart) and unplugging (the pty disappears; a replug makes a new one).
"""

from __future__ import annotations

import argparse
import errno
import os
import random
import select
import sys
import threading
import time
import tty
from dataclasses import dataclass

from desktop.die.protocol import PROTOCOL_VERSION, crc16, encode

PENDING_SLOTS = 8
"""Unacknowledged rolls kept for re-sending (the firmware has room for this many)."""


@dataclass
class _Pending:
    seq: int
    face: int
    next_send: float
    sends: int


class DieSimulator:
    """A simulated die reader on a pty. ``start()`` returns the port path.

    ``noise``: chance per line of garbage before it or one flipped byte in it.
    ``duplicates``: chance per roll of sending the line twice.
    ``resend_ms``: how soon an unacknowledged roll is sent again (the host's ACK stops it).
    """

    def __init__(self, *, heartbeat_ms: int = 1000, noise: float = 0.0, duplicates: float = 0.0,
                 resend_ms: int = 250, faces: int = 6, protocol: int = PROTOCOL_VERSION,
                 device: str = "gumshoe-sim", firmware: str = "sim-1.0", seed: int | None = None,
                 battery_every: int = 10) -> None:
        if not (0 <= noise <= 1 and 0 <= duplicates <= 1):
            raise ValueError("noise and duplicates are chances between 0 and 1")
        if heartbeat_ms < 10 or resend_ms < 1 or faces < 1:
            raise ValueError("heartbeat_ms must be at least 10, resend_ms and faces at least 1")
        self.heartbeat_ms, self.noise, self.duplicates = heartbeat_ms, noise, duplicates
        self.resend_ms, self.faces, self.protocol = resend_ms, faces, protocol
        self.device, self.firmware, self.battery_every = device, firmware, battery_every
        self.rng = random.Random(seed)
        self.path: str | None = None
        self.sent_rolls: list[tuple[str, int, int]] = []     # (boot, seq, face) of every roll made
        self.acked = 0
        self._lock = threading.RLock()
        self._master: int | None = None
        self._slave: int | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._pending: list[_Pending] = []
        self._host = _HostCommands()
        self._new_boot()

    # --- life cycle ------------------------------------------------------------------
    def _new_boot(self) -> None:
        self.boot = "%04X" % self.rng.randrange(0x10000)
        self.seq = 0
        self.booted_at = time.monotonic()
        self._pending.clear()
        self._beats = 0

    def start(self) -> str:
        """Plug in: make the pty, say hello, start the device loop. Returns the port path."""
        with self._lock:
            self._open_pty()
            self._stop.clear()
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="die-sim", daemon=True)
                self._thread.start()
            self._hello()
            assert self.path is not None
            return self.path

    def close(self) -> None:
        """Stop the device and remove the pty."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(2)
        self._thread = None
        with self._lock:
            self._close_pty()

    def __enter__(self) -> "DieSimulator":
        self.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def _open_pty(self) -> None:
        self._close_pty()
        master, slave = os.openpty()
        tty.setraw(slave)                # no echo, no newline translation: a plain serial line
        os.set_blocking(master, False)   # nobody listening? bytes are lost, as on a real UART
        self._master, self._slave = master, slave
        self.path = os.ttyname(slave)

    def _close_pty(self) -> None:
        for fd in (self._master, self._slave):
            if fd is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self._master = self._slave = None

    # --- what a user does with the die ------------------------------------------------
    def roll(self, face: int | None = None) -> int:
        """Roll (a random face if none): rolling, settled, ROLL. Returns the roll's sequence number."""
        if face is None:
            face = self.rng.randint(1, self.faces)
        if not 1 <= face <= self.faces:
            raise ValueError(f"the die has faces 1-{self.faces}, not {face}")
        with self._lock:
            self.seq = self.seq % 65535 + 1          # 1..65535, then wraps to 1
            self.sent_rolls.append((self.boot, self.seq, face))
            self._send("STATE", "rolling")
            self._send("STATE", "settled")
            self._pending.append(_Pending(self.seq, face, time.monotonic() + self.resend_ms / 1000, 0))
            del self._pending[:-PENDING_SLOTS]       # full: the oldest is given up
            self._send_roll(self.seq, face)
            return self.seq

    def crooked(self) -> None:
        """The die came to rest against something: no roll, the players roll again."""
        with self._lock:
            self._send("STATE", "rolling")
            self._send("STATE", "crooked")

    def reboot(self) -> None:
        """Power-cycle the device: bootloader noise, a new boot id, sequence numbers restart."""
        with self._lock:
            self._new_boot()
            self._write(bytes(self.rng.randrange(256) for _ in range(12)))
            self._hello()

    def unplug(self) -> None:
        """Pull the cable: the port disappears (the host's reads fail)."""
        with self._lock:
            self._close_pty()      # unacknowledged rolls stay pending: the device is still powered

    def replug(self, *, reboot: bool = True) -> str:
        """Plug back in: a new port (maybe another path). The device lost power, so it
        reboots, unless ``reboot=False`` (a USB hub glitch with the device still powered)."""
        with self._lock:
            if reboot:
                self._new_boot()
            self._open_pty()
            self._hello()
            assert self.path is not None
            return self.path

    def error(self, code: str = "SENSOR", text: str = "accelerometer not answering") -> None:
        with self._lock:
            self._send("ERR", code, *text.split())

    def send_raw(self, data: bytes) -> None:
        """Put any bytes on the line (for tests of the host's tolerance)."""
        with self._lock:
            self._write(data)

    @property
    def plugged(self) -> bool:
        return self._master is not None

    # --- the device loop -----------------------------------------------------------------
    def _hello(self) -> None:
        self._send("HELLO", self.device, self.firmware, self.protocol, self.boot, self.faces, self.heartbeat_ms)

    def _run(self) -> None:
        next_beat = time.monotonic() + self.heartbeat_ms / 1000
        while not self._stop.is_set():
            master = self._master
            if master is None:
                self._stop.wait(0.01)
                continue
            try:
                ready, _, _ = select.select([master], [], [], 0.005)
                data = os.read(master, 4096) if ready else b""
            except OSError:
                data = b""       # unplugged meanwhile, or no host has the port open
                self._stop.wait(0.005)
            with self._lock:
                for event in self._host.feed(data):
                    if event == "HELLO?":
                        self._hello()
                    elif isinstance(event, tuple):
                        self._ack(*event)
                now = time.monotonic()
                for roll in self._pending:
                    if now >= roll.next_send:
                        # Never give up on a roll (the host may be reconnecting), but re-send
                        # less and less often, at most one heartbeat apart.
                        roll.sends += 1
                        wait = min(self.resend_ms * 2 ** roll.sends, max(self.heartbeat_ms, self.resend_ms))
                        roll.next_send = now + wait / 1000
                        self._send_roll(roll.seq, roll.face)
                if now >= next_beat:
                    next_beat = now + self.heartbeat_ms / 1000
                    self._beats += 1
                    self._send("HB", int((now - self.booted_at) * 1000))
                    if self.battery_every and self._beats % self.battery_every == 0:
                        self._send("BATT", 3900, 80)

    def _ack(self, boot: str, seq: int) -> None:
        if boot != self.boot:
            return               # meant for a roll of an earlier boot (it crossed a reboot)
        self.acked = seq
        # An ACK names one roll: an older roll that was lost is still re-sent.
        self._pending = [r for r in self._pending if r.seq != seq]

    def _send_roll(self, seq: int, face: int) -> None:
        self._send("ROLL", self.boot, seq, face)
        if self.duplicates and self.rng.random() < self.duplicates:
            self._send("ROLL", self.boot, seq, face)

    def _send(self, kind: str, *fields: object) -> None:
        line = encode(kind, *fields)
        if self.noise and self.rng.random() < self.noise:
            if self.rng.random() < 0.5:
                line = bytes(self.rng.randrange(256) for _ in range(self.rng.randint(1, 20))) + line
            else:
                mangled = bytearray(line)
                mangled[self.rng.randrange(len(mangled) - 1)] ^= 1 << self.rng.randrange(8)
                line = bytes(mangled)
        self._write(line)

    def _write(self, data: bytes) -> None:
        if self._master is None:
            return
        try:
            os.write(self._master, data)
        except OSError as exc:
            if exc.errno not in (errno.EAGAIN, errno.EWOULDBLOCK, errno.EIO):
                raise


class _HostCommands:
    """Reads what the host sends (``HELLO?`` and ``ACK boot n``) with the protocol's framing.

    The host-side ``Parser`` deliberately ignores host messages, so the device side has
    its own small reader, as the firmware does.
    """

    def __init__(self) -> None:
        self._partial = b""

    def feed(self, data: bytes) -> list[str | tuple[str, int]]:
        """"HELLO?" for a hello request, ``(boot, seq)`` for an ACK."""
        lines = (self._partial + data).split(b"\n")
        self._partial = lines.pop()[-200:]          # a host never sends long lines: keep little
        commands: list[str | tuple[str, int]] = []
        for raw in lines:
            start = raw.rfind(b"$")
            body, _, check = raw[start + 1:].rstrip(b"\r").rpartition(b"*")
            if start < 0 or len(check) != 4 or not check.isalnum():
                continue
            try:
                if int(check, 16) != crc16(body):
                    continue
            except ValueError:
                continue
            parts = body.split(b" ")
            if parts == [b"HELLO?"]:
                commands.append("HELLO?")
            elif len(parts) == 3 and parts[0] == b"ACK" and parts[2].isdigit() and len(parts[2]) <= 5:
                commands.append((parts[1].decode("ascii", "replace"), int(parts[2])))
        return commands


# --- command line --------------------------------------------------------------------------
HELP = """commands (then Enter):
  1-6   roll that face          r  random roll        c  crooked landing
  b     reboot the device       u  unplug and replug  n  noise burst
  e     report a sensor error   ?  this help          q  quit"""


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m desktop.die_sim", description=__doc__.split("\n\n")[0])
    ap.add_argument("--heartbeat-ms", type=int, default=1000)
    ap.add_argument("--noise", type=float, default=0.0, help="chance per line of garbage or a flipped byte")
    ap.add_argument("--duplicates", type=float, default=0.0, help="chance per roll of a duplicated line")
    ap.add_argument("--auto", type=float, default=0.0, metavar="SECONDS", help="roll by itself every SECONDS")
    ap.add_argument("--reboot-every", type=int, default=0, metavar="N", help="reboot after every N rolls")
    ap.add_argument("--unplug-every", type=int, default=0, metavar="N", help="unplug and replug after every N rolls")
    ap.add_argument("--protocol", type=int, default=PROTOCOL_VERSION, help="protocol version to announce")
    ap.add_argument("--seed", type=int, default=None)
    args = ap.parse_args(argv)
    if os.name != "posix":
        print("The die simulator needs a POSIX system (pseudo-terminals).", file=sys.stderr)
        return 2
    try:
        sim = DieSimulator(heartbeat_ms=args.heartbeat_ms, noise=args.noise, duplicates=args.duplicates,
                           protocol=args.protocol, seed=args.seed)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"die reader simulator on {sim.start()}", flush=True)
    rolls = 0

    def after_roll() -> None:
        nonlocal rolls
        rolls += 1
        if args.reboot_every and rolls % args.reboot_every == 0:
            sim.reboot()
            print(f"rebooted (boot id {sim.boot})", flush=True)
        if args.unplug_every and rolls % args.unplug_every == 0:
            sim.unplug()
            time.sleep(0.5)
            print(f"unplugged and replugged: now on {sim.replug()}", flush=True)

    try:
        if args.auto > 0:
            while True:
                time.sleep(args.auto)
                seq = sim.roll()
                print(f"roll #{seq}: {sim.sent_rolls[-1][2]}", flush=True)
                after_roll()
        print(HELP, flush=True)
        for line in sys.stdin:
            command = line.strip().lower()
            if command == "q":
                break
            if command.isdigit():
                try:
                    print(f"roll #{sim.roll(int(command))}", flush=True)
                    after_roll()
                except ValueError as exc:
                    print(f"error: {exc}", flush=True)
            elif command == "r":
                print(f"roll #{sim.roll()}: {sim.sent_rolls[-1][2]}", flush=True)
                after_roll()
            elif command == "c":
                sim.crooked()
            elif command == "b":
                sim.reboot()
                print(f"rebooted (boot id {sim.boot})", flush=True)
            elif command == "u":
                sim.unplug()
                time.sleep(0.5)
                print(f"replugged: now on {sim.replug()}", flush=True)
            elif command == "n":
                sim.send_raw(bytes(sim.rng.randrange(256) for _ in range(64)))
            elif command == "e":
                sim.error()
            elif command:
                print(HELP, flush=True)
    except KeyboardInterrupt:
        pass
    finally:
        sim.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
