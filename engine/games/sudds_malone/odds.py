"""The Conspiracy's make-up given what one player saw, by counting worlds.

The 9 suspect cards (3 Moles, 3 Rats, 3 Frogs) are shuffled and 4 dealt to the Conspiracy;
the other 5 and the 3 stoolies go to the city (Game Setup 2-3). Every arrangement is equally
likely, so given the cards this player has seen (Conspiracy positions they peeked at, cards
they took from the city, stoolies shown to all), a world is an assignment of the unseen
suspect cards to the unseen Conspiracy positions, each equally likely. The number of worlds
with a given make-up is a product of binomials times the orderings of the positions:

    worlds(m, r, f) = C(pool_mole, m) C(pool_rat, r) C(pool_frog, f) * k!

where ``k`` unseen positions take ``m`` Moles, ``r`` Rats, ``f`` Frogs from the unseen pool.
(How the city is arranged does not depend on the Conspiracy's unseen cards, so it cancels.)

>>> d = makeup({1: "mole"}, {"mole": 0, "rat": 0, "frog": 0})
>>> d[(1, 1, 2)] == d[(1, 2, 1)] and sum(d.values()) == 1
True
>>> str(position_odds({1: "mole"}, {"mole": 0, "rat": 0, "frog": 0})[2]["mole"])
'1/4'
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from itertools import permutations
from math import comb, factorial, perm
from typing import Mapping

TYPES = ("mole", "rat", "frog")
PER_TYPE = 3
POSITIONS = (1, 2, 3, 4)


def _pool(known_positions: Mapping[int, str], seen_elsewhere: Mapping[str, int]) -> dict[str, int]:
    pool = {}
    for t in TYPES:
        used = sum(1 for v in known_positions.values() if v == t) + seen_elsewhere.get(t, 0)
        pool[t] = PER_TYPE - used
        if pool[t] < 0:
            raise ValueError(f"more than {PER_TYPE} {t} cards seen")
    return pool


def makeup(known_positions: Mapping[int, str], seen_elsewhere: Mapping[str, int]) -> dict[tuple[int, int, int], Fraction]:
    """Exact chance of each (moles, rats, frogs) make-up of the Conspiracy.

    ``known_positions``: position -> type for the positions this player has seen;
    ``seen_elsewhere``: type -> how many cards of it this player saw outside the Conspiracy.
    (Few inputs are possible, so answers are remembered: journals are rebuilt after every action.)
    """
    key = (tuple(sorted(known_positions.items())), tuple(seen_elsewhere.get(t, 0) for t in TYPES))
    return dict(_makeup(*key))


@lru_cache(maxsize=4096)
def _makeup(known: tuple[tuple[int, str], ...], elsewhere: tuple[int, ...]) -> tuple[tuple[tuple[int, int, int], Fraction], ...]:
    known_positions = dict(known)
    seen_elsewhere = dict(zip(TYPES, elsewhere))
    pool = _pool(known_positions, seen_elsewhere)
    k = len(POSITIONS) - len(known_positions)
    base = {t: sum(1 for v in known_positions.values() if v == t) for t in TYPES}
    counts: dict[tuple[int, int, int], int] = {}
    for m in range(min(k, pool["mole"]) + 1):
        for r in range(min(k - m, pool["rat"]) + 1):
            f = k - m - r
            if f > pool["frog"]:
                continue
            w = comb(pool["mole"], m) * comb(pool["rat"], r) * comb(pool["frog"], f) * factorial(k)
            if w:
                counts[(base["mole"] + m, base["rat"] + r, base["frog"] + f)] = w
    total = sum(counts.values())
    if not total:
        return ()
    return tuple((key, Fraction(w, total)) for key, w in sorted(counts.items()))


def position_odds(known_positions: Mapping[int, str], seen_elsewhere: Mapping[str, int]) -> dict[int, dict[str, Fraction]]:
    """For each position, the chance of each type (certain where seen)."""
    pool = _pool(known_positions, seen_elsewhere)
    left = sum(pool.values())
    out = {}
    for pos in POSITIONS:
        if pos in known_positions:
            out[pos] = {t: Fraction(int(known_positions[pos] == t)) for t in TYPES}
        else:
            out[pos] = {t: Fraction(pool[t], left) if left else Fraction(0) for t in TYPES}
    return out


def expected_counts(dist: Mapping[tuple[int, int, int], Fraction]) -> dict[str, Fraction]:
    """Expected number of Moles, Rats and Frogs in the Conspiracy."""
    return {t: sum((key[i] * p for key, p in dist.items()), Fraction(0)) for i, t in enumerate(TYPES)}


def expected_hunch(points: Mapping[str, int], dist: Mapping[tuple[int, int, int], Fraction],
                   counts: Mapping[str, Fraction] | None = None) -> Fraction:
    """A hunch card's expected points under the make-up distribution (``counts``: its expected_counts)."""
    ex = counts if counts is not None else expected_counts(dist)
    return sum((points.get(t, 0) * ex[t] for t in TYPES), Fraction(0))


# --- the baseline: list every world --------------------------------------------------------
def brute_force_makeup(known_tokens: Mapping[int, str], conspiracy_tokens: tuple[int, ...],
                       city_tokens: tuple[int, ...], cards: Mapping[str, str]) -> dict[tuple[int, int, int], Fraction]:
    """The same distribution by listing every full deal consistent with what was seen.

    ``cards``: card id -> role ("mole", "rat", "frog", "stoolie"); ``known_tokens``: token -> card
    id this player knows. A world deals 4 distinct suspects to the Conspiracy tokens and the
    other 8 cards to the city tokens (the deal of Game Setup 2-3); it counts when every known
    token holds its known card (every Conspiracy deal is listed; the city's completions of
    each are counted as orderings). Slow: for tests and the benchmark.
    """
    suspects = sorted(c for c, role in cards.items() if role != "stoolie")
    everything = sorted(cards)
    counts: dict[tuple[int, int, int], int] = {}
    total = 0
    for con in permutations(suspects, 4):
        if any(known_tokens.get(t, c) != c for t, c in zip(conspiracy_tokens, con)):
            continue
        rest = [c for c in everything if c not in con]
        fixed = {t: known_tokens[t] for t in city_tokens if t in known_tokens}
        if any(c not in rest for c in fixed.values()):
            continue
        free_cards = [c for c in rest if c not in fixed.values()]
        free_tokens = [t for t in city_tokens if t not in fixed]
        n = perm(len(free_cards), len(free_tokens))      # the city's orderings of what is left
        if not n:
            continue
        key = tuple(sum(1 for c in con if cards[c] == t) for t in TYPES)
        counts[key] = counts.get(key, 0) + n      # type: ignore[index]
        total += n
    return {key: Fraction(w, total) for key, w in sorted(counts.items())} if total else {}
