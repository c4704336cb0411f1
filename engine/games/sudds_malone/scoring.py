"""End of Game scoring, as pure functions (rulebook "End of Game").

The rulebook's three examples:

>>> token_points(cash=4, bullets=2, evidence=3)          # 9 tokens
4
>>> matchbook_points(["a"] * 3 + ["b"] * 4 + ["c", "d", "e", "f"])   # 6 different, a group of 3 and of 4
25
>>> hunch_points({"mole": 4, "frog": -1}, {"mole": 2, "rat": 1, "frog": 1})
7
"""

from __future__ import annotations

from collections import Counter
from typing import Iterable, Mapping, Sequence

IDENTICAL = {3: 5, 4: 10}          # a group of 5 or more identical scores 15
IDENTICAL_MAX = 15
DIFFERENT = {5: 5, 6: 10, 7: 15}   # 8 or more different score 20
DIFFERENT_MAX = 20


def token_points(cash: int, bullets: int, evidence: int) -> int:
    """Remaining tokens: all cash, evidence and bullets, divided by 2 rounded down.

    ``cash`` is in dollars and each dollar counts as one token, so a $5 token counts as five (our reading of
    End of Game 1, in docs/rules/sudds-malone.md): what a player holds is worth the same whatever change the
    supply gave them.

    >>> token_points(cash=5, bullets=0, evidence=0)          # one $5 token or five $1 tokens alike
    2
    """
    return (cash + bullets + evidence) // 2


def matchbook_points(matchbooks: Iterable[str]) -> int:
    """Filed matchbooks: groups of 3/4/5+ identical score 5/10/15; 5/6/7/8 different 5/10/15/20; both count."""
    counts = Counter(matchbooks)
    same = sum(IDENTICAL_MAX if n >= 5 else IDENTICAL.get(n, 0) for n in counts.values())
    d = len(counts)
    different = DIFFERENT_MAX if d >= 8 else DIFFERENT.get(d, 0)
    return same + different


def hunch_points(card: Mapping[str, int], conspiracy: Mapping[str, int]) -> int:
    """One hunch card: its value for each matching suspect type in the revealed Conspiracy."""
    return sum(card.get(t, 0) * n for t, n in conspiracy.items())


def winner_by_badge(scores: Mapping[str, int], seating: Sequence[str], badge: str) -> str:
    """Highest score; a tie goes to the tied player nearest the badge holder in turn order (the holder first).

    >>> winner_by_badge({"A": 5, "B": 7, "C": 7}, ("A", "B", "C"), "C")
    'C'
    >>> winner_by_badge({"A": 7, "B": 5, "C": 7}, ("A", "B", "C"), "B")
    'C'
    """
    best = max(scores.values())
    start = seating.index(badge)
    for i in range(len(seating)):
        p = seating[(start + i) % len(seating)]
        if scores[p] == best:
            return p
    raise ValueError("no player")
