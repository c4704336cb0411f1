"""Who knows what: visibility of events, and each observer's knowledge of tokens.

Knowledge is keyed by token, so when a token moves (a swap, a draw) every observer's
knowledge of it moves too: the journal "follows every public movement" for free.
The referee (:data:`REFEREE`) knows the union of all observations; it is used only
to check claims and spot contradictions, never shown to a player.

>>> k = Knowledge()
>>> k.learn(7, "carmen.loot.hudson-bay")
>>> k.card_at(7), k.token_of("carmen.loot.hudson-bay")
('carmen.loot.hudson-bay', 7)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

REFEREE = "~referee"   # not a valid player name: names may not start with "~"
# What everyone at the table saw together (cards flipped face up, even if turned down again):
# the shared screen may show it. It is not "what every player happens to know": two players
# who each peeked at the same card do not know that the other did.
EVERYONE = "~everyone"


@dataclass(frozen=True, slots=True)
class Visibility:
    """Who may see an event: everyone, listed players (and the referee), or the referee only."""

    scope: Literal["public", "private", "referee"]
    players: frozenset[str] = frozenset()

    def shown_to(self, observer: str) -> bool:
        if self.scope == "public" or observer == REFEREE:
            return True
        return self.scope == "private" and observer in self.players   # never EVERYONE

    def to_json(self) -> dict:
        return {"scope": self.scope, "players": sorted(self.players)}

    @classmethod
    def from_json(cls, data: dict) -> "Visibility":
        return cls(data["scope"], frozenset(data.get("players", ())))


PUBLIC = Visibility("public")
REFEREE_ONLY = Visibility("referee")


def private(*players: str) -> Visibility:
    """Visible to these players only (and to the referee)."""
    return Visibility("private", frozenset(players))


class Knowledge:
    """One observer's knowledge: token -> card, and cards a token is known not to be."""

    __slots__ = ("known", "where", "excluded")

    def __init__(self) -> None:
        self.known: dict[int, str] = {}
        self.where: dict[str, int] = {}
        self.excluded: dict[int, frozenset[str]] = {}

    def clone(self) -> "Knowledge":
        k = Knowledge.__new__(Knowledge)
        k.known, k.where, k.excluded = dict(self.known), dict(self.where), dict(self.excluded)
        return k

    def learn(self, token: int, card: str) -> None:
        """This observer now knows ``token`` is ``card`` (and so where ``card`` is)."""
        old = self.known.get(token)
        if old is not None and old != card:
            self.where.pop(old, None)
        prev = self.where.get(card)
        if prev is not None and prev != token:
            self.known.pop(prev, None)
        self.known[token] = card
        self.where[card] = token
        self.excluded.pop(token, None)

    def exclude(self, token: int, card: str) -> None:
        """This observer knows ``token`` is not ``card`` (e.g. a suspect seen elsewhere)."""
        if token not in self.known:
            self.excluded[token] = self.excluded.get(token, frozenset()) | {card}

    def forget(self, token: int) -> None:
        """Erase what was known of a token (a shuffle, a retracted misread)."""
        card = self.known.pop(token, None)
        if card is not None:
            self.where.pop(card, None)
        self.excluded.pop(token, None)

    def card_at(self, token: int) -> str | None:
        return self.known.get(token)

    def token_of(self, card: str) -> int | None:
        return self.where.get(card)
