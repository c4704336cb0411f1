"""Exact chances that a Clue Card lies in a Landmark Box, by counting the worlds an agent cannot rule out.

What an agent knows of a face-down box is either the card itself (they looked, or it was shown
to everyone) or only its *type*: everyone sees an agent look and put the card back face down,
and only a Crook goes back face down (a Crook or a Loot in the "bigger challenge"). So each box
the agent does not know allows a set of card types, and every unknown card of an allowed type
is equally likely to lie there: within a type, the colours are interchangeable.

A world gives every unknown box a distinct unknown card of a type the box allows. Counting the
ways to give the boxes *types* is enough: every such way extends to the same number of worlds
(the unknown cards of each type can be permuted among the boxes of that type). So

    P(box b holds the orange Crook) = P(box b holds a Crook) / (number of unknown Crooks)

and P(box b holds a Crook) = (type assignments with a Crook at b) / (all type assignments),
counted class by class (boxes allowing the same types form a class). This is exact; the tests
and ``benchmarks/engine_bench.py`` compare it with listing every world.

>>> from fractions import Fraction
>>> anything = frozenset({"warrant", "loot", "crook"})
>>> p = type_chances({anything: 2, frozenset({"crook"}): 1}, {"warrant": 1, "loot": 1, "crook": 1})
>>> p[frozenset({"crook"})]["crook"], p[anything]["crook"], p[anything]["warrant"]
(Fraction(1, 1), Fraction(0, 1), Fraction(1, 2))
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from itertools import permutations
from math import factorial
from typing import Collection, Mapping

KIND_ORDER = ("warrant", "loot", "crook")


def _splits(n: int, allowed: tuple[bool, ...], rem: tuple[int, ...]):
    """Ways to split ``n`` boxes among the allowed kinds without exceeding ``rem``."""
    a_ok, b_ok, c_ok = allowed
    for a in range(0, (min(n, rem[0]) if a_ok else 0) + 1):
        for b in range(0, (min(n - a, rem[1]) if b_ok else 0) + 1):
            c = n - a - b
            if c < 0 or (c and not c_ok) or c > rem[2]:
                continue
            yield a, b, c


@lru_cache(maxsize=4096)
def _count(classes: tuple[tuple[tuple[bool, ...], int], ...], rem: tuple[int, ...]) -> int:
    """Type assignments of the boxes of ``classes`` using exactly ``rem`` cards of each kind."""
    if not classes:
        return 1 if not any(rem) else 0
    (allowed, n), rest = classes[0], classes[1:]
    total = 0
    for a, b, c in _splits(n, allowed, rem):
        ways = factorial(n) // (factorial(a) * factorial(b) * factorial(c))
        total += ways * _count(rest, (rem[0] - a, rem[1] - b, rem[2] - c))
    return total


def type_chances(classes: Mapping[frozenset[str], int],
                 remaining: Mapping[str, int]) -> dict[frozenset[str], dict[str, Fraction]]:
    """For one box of each class (boxes allowing the same kinds), the chance it holds each kind.

    ``classes``: allowed kinds -> how many unknown boxes allow exactly those kinds;
    ``remaining``: kind -> how many cards of that kind are unknown. No world: all chances 0.
    """
    return _type_chances(tuple(sorted(classes.items(), key=lambda kv: sorted(kv[0]))),
                         tuple(remaining.get(k, 0) for k in KIND_ORDER))


@lru_cache(maxsize=4096)
def _type_chances(classes: tuple[tuple[frozenset[str], int], ...], rem: tuple[int, ...]
                  ) -> dict[frozenset[str], dict[str, Fraction]]:
    classes_d = dict(classes)
    key = tuple(sorted(((tuple(k in allowed for k in KIND_ORDER), n) for allowed, n in classes if n),
                       key=lambda item: item))
    total = _count(key, rem)
    out: dict[frozenset[str], dict[str, Fraction]] = {}
    for allowed, n in classes_d.items():
        row = {}
        flags = tuple(k in allowed for k in KIND_ORDER)
        for i, kind in enumerate(KIND_ORDER):
            if total == 0 or not n or kind not in allowed or rem[i] == 0:
                row[kind] = Fraction(0)
                continue
            reduced = tuple(sorted(((f, m - (1 if f == flags else 0)) for f, m in key), key=lambda item: item))
            reduced = tuple((f, m) for f, m in reduced if m)
            fewer = tuple(r - (1 if j == i else 0) for j, r in enumerate(rem))
            row[kind] = Fraction(_count(reduced, fewer), total)
        out[allowed] = row
    return out


def card_chances(allowed: Mapping[int, frozenset[str]], unknown_cards: Mapping[str, str]
                 ) -> dict[str, dict[int, Fraction]]:
    """card -> box token -> exact chance, for every unknown card (``unknown_cards``: card -> kind)."""
    classes: dict[frozenset[str], int] = {}
    for kinds in allowed.values():
        classes[kinds] = classes.get(kinds, 0) + 1
    remaining = {k: 0 for k in KIND_ORDER}
    for kind in unknown_cards.values():
        remaining[kind] += 1
    per_class = type_chances(classes, remaining)
    return {card: {tok: (per_class[kinds][kind] / remaining[kind] if remaining[kind] else Fraction(0))
                   for tok, kinds in allowed.items()}
            for card, kind in unknown_cards.items()}


def brute_force_chances(allowed: Mapping[int, Collection[str]], unknown_cards: Mapping[str, str], card: str
                        ) -> dict[int, Fraction]:
    """The same answer for one card by listing every world (slow: for tests and the benchmark)."""
    tokens = sorted(allowed)
    cards = sorted(unknown_cards)
    hits = dict.fromkeys(tokens, 0)
    total = 0
    for world in permutations(cards, len(tokens)):
        if all(unknown_cards[c] in allowed[t] for t, c in zip(tokens, world)):
            total += 1
            for t, c in zip(tokens, world):
                if c == card:
                    hits[t] += 1
    return {t: Fraction(hits[t], total) if total else Fraction(0) for t in tokens}
