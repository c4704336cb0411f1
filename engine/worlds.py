"""Exact probabilities by counting the worlds consistent with what a player saw.

A world assigns every unknown card of a kind to a distinct unknown token, each token
taking only a card it may be (its candidates). Every world is equally likely (the
cards were shuffled), so the chance that ``card`` lies at ``token`` is
(worlds with card at token) / (all worlds). Counting perfect matchings is done by a
memoised walk over tokens with a bitmask of used cards; when every token may be every
card (no negative knowledge) the answer is simply 1/len(cards).

>>> card_marginals([1, 2, 3], {1: {"a", "b"}, 2: {"a", "b", "c"}, 3: {"a", "b", "c"}}, {"a", "b", "c"}, "c")
{1: Fraction(0, 1), 2: Fraction(1, 2), 3: Fraction(1, 2)}
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from itertools import permutations
from typing import Collection, Mapping


def count_worlds(tokens: list[int], candidates: Mapping[int, Collection[str]], cards: Collection[str]) -> int:
    """Number of ways to give each token a distinct card from its candidates."""
    order = sorted(cards)
    index = {c: i for i, c in enumerate(order)}
    masks = [sum(1 << index[c] for c in candidates[t] if c in index) for t in tokens]
    # Most-constrained tokens first keeps the memo table small.
    masks.sort(key=lambda m: bin(m).count("1"))

    @lru_cache(maxsize=None)
    def walk(i: int, used: int) -> int:
        if i == len(masks):
            return 1
        free = masks[i] & ~used
        total = 0
        while free:
            bit = free & -free
            total += walk(i + 1, used | bit)
            free ^= bit
        return total

    return walk(0, 0)


def card_marginals(
    tokens: list[int], candidates: Mapping[int, Collection[str]], cards: Collection[str], card: str
) -> dict[int, Fraction]:
    """For each token, the exact chance that it is ``card`` (zero when no world is left)."""
    cards = frozenset(cards)
    if not tokens:
        return {}
    if card not in cards:
        return {t: Fraction(0) for t in tokens}
    if all(frozenset(candidates[t]) >= cards for t in tokens):
        # No negative knowledge: every arrangement is open, so each token is equally likely.
        p = Fraction(1, len(cards)) if len(cards) >= len(tokens) else Fraction(0)
        return {t: p for t in tokens}
    total = count_worlds(tokens, candidates, cards)
    if total == 0:
        return {t: Fraction(0) for t in tokens}
    out = {}
    rest_cards = cards - {card}
    for t in tokens:
        if card not in candidates[t]:
            out[t] = Fraction(0)
            continue
        others = [u for u in tokens if u != t]
        out[t] = Fraction(count_worlds(others, candidates, rest_cards), total)
    return out


def brute_force_marginals(
    tokens: list[int], candidates: Mapping[int, Collection[str]], cards: Collection[str], card: str
) -> dict[int, Fraction]:
    """The same answer by listing every world (slow; for tests and the benchmark)."""
    hits = {t: 0 for t in tokens}
    total = 0
    for world in permutations(sorted(cards), len(tokens)):
        if all(c in candidates[t] for t, c in zip(tokens, world)):
            total += 1
            for t, c in zip(tokens, world):
                if c == card:
                    hits[t] += 1
    return {t: Fraction(hits[t], total) if total else Fraction(0) for t in tokens}
