"""Die reader benchmark: line-to-engine latency over a pty, and parser throughput.

    python benchmarks/die_bench.py [--rolls 300] [--lines 50000] [--seed 1]
    python benchmarks/die_bench.py --smoke      # 5 rolls, 500 lines: it still runs (seconds)

1. Latency (POSIX): the simulator writes a roll on a pseudo-terminal; the link reads it,
   parses it, and its callback maps the face and applies the roll to a Carmen session
   (then undoes it, so every roll is the turn's first). Measured from just before the
   simulator's write to just after ``Session.apply`` returns. Baseline in the same run: the
   same pty with a bare blocking read of the line, no parsing and no engine.
2. Throughput: a noisy stream (garbage between lines, flipped bits, duplicates) fed to
   ``Parser`` in 64-byte reads (what a serial read returns) and in one piece. Baseline in
   the same run: a naive parser (split on newlines, bit-by-bit CRC) on the same bytes.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from desktop.die.protocol import Parser, Roll, crc16_ccitt_false, encode  # noqa: E402


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def latency(rolls: int, seed: int) -> None:
    from desktop.die.link import DieLink, wait_for
    from desktop.die.mapping import roll_action_for
    from desktop.die.protocol import Hello
    from desktop.die_sim import DieSimulator
    from engine.session import Session

    rng = random.Random(seed)
    session = Session.new("carmen-cards", ["Julie", "Mark"], {"ages": {"Julie": 8, "Mark": 12}})
    done = threading.Event()
    times: list[float] = []
    started = [0.0]

    def on_event(event: object) -> None:
        if isinstance(event, Roll):
            action = roll_action_for(session, None, event.face)
            if action is not None:
                session.apply(action)
                times.append(time.perf_counter() - started[0])
                session.undo()
            done.set()
        elif isinstance(event, Hello):
            hello.set()

    hello = threading.Event()
    with DieSimulator(heartbeat_ms=1000, resend_ms=5000, seed=seed) as sim:
        link = DieLink(on_event, ports=[sim.path], handshake_timeout=2, read_timeout=0.05)
        link.start()
        if not hello.wait(5):
            raise SystemExit("the link did not find the simulator")
        for _ in range(rolls):
            done.clear()
            started[0] = time.perf_counter()
            sim.roll(rng.randint(1, 6))
            if not done.wait(2):
                raise SystemExit("a roll did not arrive")
            time.sleep(0.002)
        link.stop()
        assert wait_for is not None

    # Baseline: the same pty, a bare blocking read until the newline, nothing else.
    base: list[float] = []
    with DieSimulator(heartbeat_ms=60000, resend_ms=60000, seed=seed) as sim:
        fd = os.open(sim.path, os.O_RDWR | os.O_NOCTTY)
        try:
            time.sleep(0.05)
            os.read(fd, 4096)                     # the hello
            line = encode("ROLL", sim.boot, 1, 4)
            for _ in range(rolls):
                started[0] = time.perf_counter()
                sim.send_raw(line)
                got = b""
                while not got.endswith(b"\n"):
                    got += os.read(fd, 4096)
                base.append(time.perf_counter() - started[0])
        finally:
            os.close(fd)

    print(f"line-to-engine latency over a pty, {rolls} rolls")
    print(f"  {'':36} {'median':>9} {'p99':>9} {'max':>9}")
    for name, values in (("baseline: bare pty read of the line", base),
                         ("ours: link + parser + engine apply", times)):
        print(f"  {name:36} {statistics.median(values) * 1000:8.3f}ms {percentile(values, 99) * 1000:8.3f}ms "
              f"{max(values) * 1000:8.3f}ms")


def noisy_stream(lines: int, seed: int) -> tuple[bytes, int]:
    rng = random.Random(seed)
    out = [encode("HELLO", "bench-die", "1.0", 1, "BE01", 6, 1000)]
    valid = 0
    for seq in range(1, lines + 1):
        kind = rng.random()
        if kind < 0.15:
            out.append(bytes(rng.randrange(256) for _ in range(rng.randint(1, 30))))
        line = encode("ROLL", "BE01", seq % 65536, rng.randint(1, 6)) if seq % 3 else encode("HB", seq * 10)
        intact = line
        if rng.random() < 0.05:
            data = bytearray(line)
            data[rng.randrange(len(data) - 1)] ^= 1 << rng.randrange(8)
            line = bytes(data)
        # A flip that only changes the case of a checksum letter is harmless (hex is hex).
        if line.startswith(b"$ROLL") and line[:-5] == intact[:-5] and line.upper() == intact:
            valid += 1
        out.append(line)
        if rng.random() < 0.1:
            out.append(line)                      # a re-send
    return b"".join(out), valid


def naive_parse(data: bytes) -> int:
    """A baseline: split on newlines, find '$', check the CRC bit by bit; rolls counted."""
    count = 0
    for raw in data.split(b"\n"):
        start = raw.rfind(b"$")
        if start < 0:
            continue
        body, _, check = raw[start + 1:].rpartition(b"*")
        try:
            if int(check, 16) == crc16_ccitt_false(body) and body.startswith(b"ROLL "):
                count += 1
        except ValueError:
            pass
    return count


def throughput(lines: int, seed: int) -> None:
    data, valid = noisy_stream(lines, seed)
    line_count = data.count(b"\n")
    print(f"\nparser throughput on a noisy stream: {len(data) / 1e6:.2f} MB, {line_count} lines, "
          f"{valid} intact distinct rolls")
    print(f"  {'':40} {'MB/s':>7} {'lines/s':>10} {'rolls':>7}")

    def run(name: str, fn) -> None:
        best = float("inf")
        result = 0
        for _ in range(3):
            t = time.perf_counter()
            result = fn()
            best = min(best, time.perf_counter() - t)
        print(f"  {name:40} {len(data) / best / 1e6:7.2f} {line_count / best:10.0f} {result:7d}")

    def ours(chunk: int) -> int:
        parser = Parser()
        rolls = 0
        for i in range(0, len(data), chunk):
            rolls += sum(1 for e in parser.feed(data[i:i + chunk]) if isinstance(e, Roll))
        return rolls

    run("baseline: split + bitwise CRC (no dedup)", lambda: naive_parse(data))
    run("ours: Parser, 64-byte reads", lambda: ours(64))
    run("ours: Parser, one read", lambda: ours(len(data)))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rolls", type=int, default=300)
    ap.add_argument("--lines", type=int, default=50000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--smoke", action="store_true", help="5 rolls and 500 lines: does it still run")
    args = ap.parse_args()
    if args.smoke:
        args.rolls, args.lines = 5, 500
    print(f"python {sys.version.split()[0]} on {sys.platform}, {os.cpu_count()} cpu")
    if os.name == "posix":
        latency(args.rolls, args.seed)
    else:
        print("latency: skipped (the simulator needs a POSIX pty)")
    throughput(args.lines, args.seed)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
