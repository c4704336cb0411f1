"""Pulling the plug loses nothing: SIGKILL a writer many times, check the file.

A writer process appends moves in a loop and prints "ack <seq>" only after
``append`` returned (that is when the screen would show the move). The test
kills it at random moments -- during start-up, create, open, or between and
inside appends -- and after every kill reopens the same file and checks:

* every acknowledged move is there, numbered 1, 2, 3... with no gap;
* at most one move more than acknowledged (committed, killed before "ack");
* each move has exactly its own events: move k has k % 5 events
  ``{"of": k, "i": i}`` -- never half of them.

Set GUMSHOE_CRASH_SEED to replay a failing run.
"""

from __future__ import annotations

import os
import random
import selectors
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.store import EventStore

pytestmark = pytest.mark.skipif(os.name != "posix", reason="needs SIGKILL (POSIX)")

REPO = Path(__file__).resolve().parents[2]
KILLS = 30

WRITER = r"""
import os, sys
sys.path.insert(0, sys.argv[2])
from engine.store import EventStore
path = sys.argv[1]
if os.path.exists(path):
    store = EventStore.open(path)
else:
    store = EventStore.create(path, {"game": "crash-test"})
print("ready", len(store), flush=True)
k = len(store)
while True:
    k += 1
    seq = store.append({"n": k}, [{"of": k, "i": i} for i in range(k % 5)])
    print("ack", seq, flush=True)
"""


def expected_events(k: int) -> list[dict]:
    return [{"of": k, "i": i} for i in range(k % 5)]


class Writer:
    """The writer process, with its stdout read line by line without blocking."""

    def __init__(self, path: Path) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-c", WRITER, str(path), str(REPO)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self.sel = selectors.DefaultSelector()
        self.sel.register(self.proc.stdout, selectors.EVENT_READ)
        self.buffer = b""
        self.lines: list[str] = []

    def _pump(self, timeout: float) -> bool:
        """Read what is available; False at end of output."""
        if not self.sel.select(timeout):
            return True
        chunk = os.read(self.proc.stdout.fileno(), 65536)
        if not chunk:
            return False
        self.buffer += chunk
        *complete, self.buffer = self.buffer.split(b"\n")
        self.lines.extend(line.decode() for line in complete)
        return True

    def acks(self) -> list[int]:
        return [int(line.split()[1]) for line in self.lines if line.startswith("ack ")]

    def wait_for_acks(self, n: int, deadline: float) -> None:
        while len(self.acks()) < n:
            ended = not self._pump(0.05) and self.proc.poll() is not None
            if ended or time.monotonic() > deadline:
                self.proc.kill()
                self.proc.wait()
                stderr = self.proc.stderr.read().decode()
                raise AssertionError(self.explain(f"no {n} acks (writer said: {stderr!r})"))

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()
        # Lines already in the pipe were printed, hence acknowledged, before the kill.
        while self._pump(1.0):
            pass
        self.sel.close()
        stderr = self.proc.stderr.read().decode()
        self.proc.stdout.close()
        self.proc.stderr.close()
        assert self.proc.returncode == -signal.SIGKILL, self.explain(
            f"writer ended by itself (code {self.proc.returncode}):\n{stderr}"
        )

    def explain(self, what: str) -> str:
        return f"{what}; output so far: {self.lines[-5:]}"


def check_store(path: Path, acked: int, context: str) -> int:
    """Reopen like a resumed game does; return how many moves it holds."""
    if not path.exists():
        assert acked == 0, f"{context}: file gone after {acked} acks"
        return 0
    with EventStore.open(path) as store:
        records = store.records()
        events = store.events()
        n = len(store)
    assert n == len(records), context
    assert acked <= n <= acked + 1, f"{context}: {n} moves stored, {acked} acknowledged"
    assert records == [{"n": k} for k in range(1, n + 1)], f"{context}: moves out of order"
    by_move: dict[int, list[dict]] = {}
    for seq, event in events:
        by_move.setdefault(seq, []).append(event)
    for k in range(1, n + 1):
        assert by_move.pop(k, []) == expected_events(k), f"{context}: move {k} events wrong"
    assert not by_move, f"{context}: events for moves not stored: {sorted(by_move)}"
    return n


@pytest.mark.slow
def test_sigkilled_writer_never_loses_an_acknowledged_move(tmp_path):
    seed = int(os.environ.get("GUMSHOE_CRASH_SEED", time.time_ns() % 2**32))
    rng = random.Random(seed)
    path = tmp_path / "crash.gumshoe"
    stored = 0  # moves in the file after the previous kill
    acked_total = 0  # highest seq ever acknowledged
    kinds = {"timer": 0, "acks": 0}
    started = time.monotonic()
    for round_no in range(1, KILLS + 1):
        context = f"seed {seed}, kill {round_no}"
        writer = Writer(path)
        if rng.random() < 0.4:
            # Anywhere from interpreter start-up through create/open/appends.
            kinds["timer"] += 1
            time.sleep(rng.uniform(0, 0.05))
        else:
            # Mid-game: after some acks, plus a little, to land inside an append.
            kinds["acks"] += 1
            writer.wait_for_acks(rng.randint(1, 60), deadline=time.monotonic() + 10)
            time.sleep(rng.uniform(0, 0.002))
        writer.kill()
        acks = writer.acks()
        if acks:
            # Each writer resumes after what was stored, and acks in order.
            assert acks == list(range(stored + 1, stored + 1 + len(acks))), context
            acked_total = acks[-1]
        stored = check_store(path, acked_total, context)
    elapsed = time.monotonic() - started
    # The test must have exercised real appends, not only start-ups.
    assert acked_total >= 30, f"seed {seed}: only {acked_total} moves acknowledged"
    assert kinds["timer"] and kinds["acks"], f"seed {seed}: {kinds}"
    assert elapsed < 30, f"seed {seed}: took {elapsed:.1f}s"
