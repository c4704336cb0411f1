"""Scores kept over several hands or rounds (Mystery Rummy hands, Sudds & Malone rounds).

>>> board = Scoreboard(("Ann", "Bob"))
>>> board = board.record(1, {"Ann": 12, "Bob": 4}).record(2, {"Ann": 0, "Bob": 30})
>>> board.totals()
{'Ann': 12, 'Bob': 34}
>>> board.leaders()
('Bob',)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping


@dataclass(frozen=True)
class Scoreboard:
    players: tuple[str, ...]
    hands: tuple[tuple[int, Mapping[str, int]], ...] = field(default_factory=tuple)

    def record(self, hand: int, points: Mapping[str, int]) -> "Scoreboard":
        """A new board with one more hand (or round) scored; every player needs a score."""
        if set(points) != set(self.players):
            missing = set(self.players) - set(points)
            extra = set(points) - set(self.players)
            raise ValueError(f"hand {hand}: scores needed for {sorted(missing)}, not for {sorted(extra)}")
        if any(h == hand for h, _ in self.hands):
            raise ValueError(f"hand {hand} is already scored")
        return Scoreboard(self.players, self.hands + ((hand, dict(points)),))

    def totals(self) -> dict[str, int]:
        return {p: sum(points[p] for _, points in self.hands) for p in self.players}

    def leaders(self) -> tuple[str, ...]:
        totals = self.totals()
        best = max(totals.values(), default=0)
        return tuple(p for p in self.players if totals[p] == best)

    def reached(self, target: int) -> tuple[str, ...]:
        """Players whose total is at least ``target`` (e.g. 100 in Mystery Rummy, 39 in The 39 Clues)."""
        return tuple(p for p, t in self.totals().items() if t >= target)
