"""Limits that keep a flood of requests from reaching the game: connections, idle time, guesses.

- :class:`ConnectionGuard` wraps every accepted connection: at most ``max_total`` open at once
  and ``max_per_address`` from one device. Over a limit, the oldest connection that has not yet
  shown a current link (from the device holding the most of them) is closed to make room, so a
  device holding every slot cannot keep a player with a valid link out; the newcomer is refused
  only when every connection in the way has shown one. A connection that has sent no useful
  request for ``idle_s`` seconds (a slow or silent client) is closed. A request being answered (a
  long poll, an upload, a live page's WebSocket) is not idle; a WebSocket's liveness is its
  heartbeat. The server closes a connection after any refused request (see ``phones.server``).
- :class:`GuessLimiter` counts wrong secrets per device: after ``limit`` in ``window_s`` seconds
  that device gets nothing more (not even a right secret) for ``block_s`` seconds.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter, deque
from typing import Callable


class _Guarded(asyncio.Protocol):
    """Passes everything to the web server's own protocol and keeps the guard's books."""

    def __init__(self, guard: "ConnectionGuard") -> None:
        self.guard = guard
        self.inner: asyncio.Protocol | None = None      # made only once the connection is admitted
        self.transport = None
        self.address = ""
        self.busy = 0                   # requests being answered now
        self.vouched = False            # has sent a request with a current link
        self.opened = self.idle_since = time.monotonic()

    def connection_made(self, transport) -> None:
        peer = transport.get_extra_info("peername")
        self.address = str(peer[0]) if peer else ""
        if not self.guard.admit(self):
            transport.abort()
            return
        self.transport = transport
        self.inner = self.guard.make_protocol()
        self.guard.track(self)
        self.inner.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        self.inner.data_received(data)

    def eof_received(self):
        return self.inner.eof_received()

    def connection_lost(self, exc) -> None:
        if self.transport is not None:
            self.guard.release(self)
            self.inner.connection_lost(exc)
            self.transport = None

    def pause_writing(self) -> None:
        self.inner.pause_writing()

    def resume_writing(self) -> None:
        self.inner.resume_writing()


class ConnectionGuard:
    def __init__(self, make_protocol: Callable[[], asyncio.Protocol], *, max_total: int = 64,
                 max_per_address: int = 12, idle_s: float = 10.0) -> None:
        self.make_protocol = make_protocol
        self.max_total = max_total
        self.max_per_address = max_per_address
        self.idle_s = idle_s
        self.open: dict[object, _Guarded] = {}     # transport -> connection
        self.refused = 0

    def factory(self) -> asyncio.Protocol:
        return _Guarded(self)

    def admit(self, conn: _Guarded) -> bool:
        same = [c for c in self.open.values() if c.address == conn.address]
        if (len(same) >= self.max_per_address and not self._make_room(same)) \
                or (len(self.open) >= self.max_total and not self._make_room(list(self.open.values()))):
            self.refused += 1
            return False
        conn.opened = conn.idle_since = time.monotonic()
        return True

    def _make_room(self, among: list[_Guarded]) -> bool:
        """Close one connection of ``among`` that has shown no current link: an idle one before
        one being answered, from the device holding the most, the oldest; False when none can go."""
        strangers = [c for c in among if not c.vouched]
        if not strangers:
            return False
        held = Counter(c.address for c in strangers)
        oldest = min(strangers, key=lambda c: (c.busy > 0, -held[c.address], c.opened))
        self.open.pop(oldest.transport, None)       # gone from the books now; aborted just after
        oldest.transport.abort()
        return True

    def release(self, conn: _Guarded) -> None:
        self.open.pop(conn.transport, None)

    def track(self, conn: _Guarded) -> None:
        self.open[conn.transport] = conn

    def request_started(self, transport) -> None:
        conn = self.open.get(transport)
        if conn is not None:
            conn.busy += 1

    def vouch(self, transport) -> None:
        """The connection sent a current link: it is a player's, never closed to make room."""
        conn = self.open.get(transport)
        if conn is not None:
            conn.vouched = True

    def request_finished(self, transport, useful: bool) -> None:
        """A request was answered; only a ``useful`` one (a current link's) counts as activity."""
        conn = self.open.get(transport)
        if conn is not None:
            conn.busy = max(0, conn.busy - 1)
            if useful:
                conn.idle_since = time.monotonic()

    def sweep(self) -> int:
        """Close connections idle for too long (no request being answered); returns how many."""
        now = time.monotonic()
        stale = [c for c in self.open.values() if c.busy == 0 and now - c.idle_since > self.idle_s]
        for conn in stale:
            if conn.transport is not None:
                conn.transport.abort()
        return len(stale)


class GuessLimiter:
    """Wrong secrets per device address; too many and that device is turned away for a while."""

    def __init__(self, limit: int = 10, window_s: float = 60.0, block_s: float = 120.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self.window_s = window_s
        self.block_s = block_s
        self.clock = clock
        self._misses: dict[str, deque] = {}
        self._blocked: dict[str, float] = {}

    def blocked(self, address: str) -> bool:
        until = self._blocked.get(address)
        if until is None:
            return False
        if self.clock() >= until:
            del self._blocked[address]
            return False
        return True

    def missed(self, address: str) -> None:
        now = self.clock()
        misses = self._misses.setdefault(address, deque())
        misses.append(now)
        while misses and now - misses[0] > self.window_s:
            misses.popleft()
        if len(misses) >= self.limit:
            self._blocked[address] = now + self.block_s
            misses.clear()
        if len(self._misses) > 4096:           # a flood from many addresses must not grow memory
            self._misses = {a: m for a, m in self._misses.items() if m}


class RequestPacer:
    """At most ``rate`` requests a second from one device (after a burst of ``burst``): a request
    over that waits its turn, so a device that polls in a tight loop, or floods the port, is
    slowed to a pace that costs the laptop almost nothing (waiting costs no work). A request that
    would wait longer than ``max_wait_s`` is turned away at once."""

    def __init__(self, rate: float = 20.0, burst: float = 40.0, max_wait_s: float = 5.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self.max_wait_s = max_wait_s
        self.clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}    # address -> (tokens, when)

    def delay(self, address: str) -> float | None:
        """Seconds this request must wait (0: none), or None when it is turned away."""
        now = self.clock()
        tokens, when = self._buckets.get(address, (self.burst, now))
        tokens = min(self.burst, tokens + (now - when) * self.rate) - 1
        wait = 0.0 if tokens >= 0 else -tokens / self.rate
        if wait > self.max_wait_s:
            return None
        self._buckets[address] = (tokens, now)
        if len(self._buckets) > 4096:
            self._buckets = {a: b for a, b in self._buckets.items() if now - b[1] < 60}
        return wait
