"""Tokens and places: the physical cards on the table and where each one lies.

A token is one physical card with a stable number. The app usually does not know
which card a face-down token is; what each player knows lives in
:mod:`engine.knowledge`, keyed by token, so knowledge follows every movement.

>>> t = Table()
>>> pile = Place("pile", slot="loot")
>>> a = t.add("loot", pile); b = t.add("loot", pile)
>>> t.top(pile) == b
True
>>> t.move(b, Place("loot", owner="Julie", slot="top"))
>>> str(t.place_of(b)), t.count(pile)
('Julie/loot/top', 1)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Iterator, NamedTuple


_TEXT: dict["Place", str] = {}


@dataclass(frozen=True, slots=True, order=True)
class Place:
    """Where a token lies: an area, optionally owned by a player, optionally a slot.

    Written ``owner/area/slot`` ("Julie/loot/top"), ``area/slot`` ("center/loot",
    "pile/loot", "board/kaufman") or just ``area`` ("out").
    """

    area: str
    owner: str | None = None
    slot: str | None = None

    def __str__(self) -> str:
        text = _TEXT.get(self)
        if text is None:      # places are few and written often (journals, prompts): remember them
            text = _TEXT[self] = "/".join(p for p in (self.owner, self.area, self.slot) if p is not None)
        return text

    @classmethod
    def parse(cls, text: str, players: Iterable[str]) -> "Place":
        """Read a place written by :meth:`__str__`; the first part is an owner if it is a player.

        >>> Place.parse("Mark/location/top", ["Mark"])
        Place(area='location', owner='Mark', slot='top')
        >>> Place.parse("center/loot", ["Mark"])
        Place(area='center', owner=None, slot='loot')
        """
        parts = str(text).split("/")
        if parts[0] in set(players):
            owner, parts = parts[0], parts[1:]
        else:
            owner = None
        if not parts or len(parts) > 2 or not all(parts):
            raise ValueError(f"{text!r} is not a place")
        return cls(parts[0], owner, parts[1] if len(parts) == 2 else None)


class TokenInfo(NamedTuple):
    kind: str | None        # the card type its back shows (public), if backs differ
    face_up: bool


class Table:
    """Every token and the ordered stack of tokens at each place (last = top)."""

    __slots__ = ("kinds", "up", "stacks", "where", "_next")

    def __init__(self) -> None:
        self.kinds: dict[int, str | None] = {}   # never changes once added: shared by clones
        self.up: set[int] = set()
        self.stacks: dict[Place, list[int]] = {}
        self.where: dict[int, Place] = {}
        self._next = 1

    def clone(self) -> "Table":
        t = Table.__new__(Table)
        t.kinds = self.kinds
        t.up = set(self.up)
        t.stacks = {p: list(s) for p, s in self.stacks.items()}
        t.where = dict(self.where)
        t._next = self._next
        return t

    @property
    def tokens(self) -> dict[int, TokenInfo]:
        """Every token with its back and whether it lies face up."""
        return {t: TokenInfo(k, t in self.up) for t, k in self.kinds.items()}

    def add(self, kind: str | None, place: Place, face_up: bool = False) -> int:
        """A new physical card (identity unknown) on top of ``place``; returns its token."""
        token = self._next
        self._next += 1
        self.kinds = {**self.kinds, token: kind}      # copy: earlier clones share the old dict
        if face_up:
            self.up.add(token)
        self.stacks.setdefault(place, []).append(token)
        self.where[token] = place
        return token

    def move(self, token: int, dest: Place, *, face_up: bool | None = None, bottom: bool = False) -> None:
        """Move a token onto (or under, with ``bottom``) the stack at ``dest``."""
        src = self.where[token]
        self.stacks[src].remove(token)
        if not self.stacks[src]:
            del self.stacks[src]
        stack = self.stacks.setdefault(dest, [])
        stack.insert(0, token) if bottom else stack.append(token)
        self.where[token] = dest
        if face_up is not None:
            self.set_face_up(token, face_up)

    def swap(self, a: int, b: int) -> None:
        """Exchange the places of two tokens (each keeps its face-up state)."""
        pa, pb = self.where[a], self.where[b]
        sa, sb = self.stacks[pa], self.stacks[pb]
        ia, ib = sa.index(a), sb.index(b)
        sa[ia], sb[ib] = b, a
        self.where[a], self.where[b] = pb, pa

    def place_of(self, token: int) -> Place:
        return self.where[token]

    def at(self, place: Place) -> list[int]:
        """Tokens at a place, bottom first."""
        return list(self.stacks.get(place, ()))

    def top(self, place: Place) -> int | None:
        stack = self.stacks.get(place)
        return stack[-1] if stack else None

    def count(self, place: Place) -> int:
        return len(self.stacks.get(place, ()))

    def kind(self, token: int) -> str | None:
        return self.kinds[token]

    def face_up(self, token: int) -> bool:
        return token in self.up

    def set_face_up(self, token: int, up: bool) -> None:
        if up:
            self.up.add(token)
        else:
            self.up.discard(token)

    def places(self, *, area: str | None = None, owner: str | None = None) -> Iterator[Place]:
        """Occupied places, filtered by area and/or owner."""
        for place in self.stacks:
            if (area is None or place.area == area) and (owner is None or place.owner == owner):
                yield place

    def tokens_where(self, *, area: str | None = None, owner: str | None = None, kind: str | None = None) -> list[int]:
        return [
            tok for place in list(self.places(area=area, owner=owner)) for tok in self.stacks[place]
            if kind is None or self.kinds[tok] == kind
        ]
