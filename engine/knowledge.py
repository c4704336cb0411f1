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
from typing import Literal, NamedTuple

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


class Dispute(NamedTuple):
    """Two players' private notes that disagree, held by the referee until a public flip.

    ``seen_by`` saw ``token`` as ``card``; ``held_by`` hold a note of ``old_card`` at
    ``old_token`` (the same token as another card, or the same card at another token).
    Neither side is told: each journal keeps what its player saw.
    """

    token: int
    card: str
    seen_by: tuple[str, ...]
    old_token: int
    old_card: str
    held_by: tuple[str, ...]

    def to_json(self) -> dict:
        return {"token": self.token, "card": self.card, "seen_by": list(self.seen_by),
                "old_token": self.old_token, "old_card": self.old_card, "held_by": list(self.held_by)}

    def involves(self, token: int, card: str) -> bool:
        return token in (self.token, self.old_token) or card in (self.card, self.old_card)


class Knowledge:
    """One observer's knowledge: token -> card, and cards a token is known not to be.

    The referee's knowledge also holds the open :class:`Dispute` records.
    """

    __slots__ = ("known", "where", "excluded", "disputes")

    def __init__(self) -> None:
        self.known: dict[int, str] = {}
        self.where: dict[str, int] = {}
        self.excluded: dict[int, frozenset[str]] = {}
        self.disputes: tuple[Dispute, ...] = ()

    def clone(self) -> "Knowledge":
        k = Knowledge.__new__(Knowledge)
        k.known, k.where, k.excluded = dict(self.known), dict(self.where), dict(self.excluded)
        k.disputes = self.disputes
        return k

    def clashes(self, token: int, card: str) -> list[tuple[int, str]]:
        """This observer's notes a sighting of ``token`` as ``card`` would contradict.

        >>> k = Knowledge(); k.learn(1, "a"); k.learn(2, "b")
        >>> k.clashes(1, "b")
        [(1, 'a'), (2, 'b')]
        >>> k.clashes(1, "a"), k.clashes(3, "c")
        ([], [])
        """
        out = []
        before = self.known.get(token)
        if before is not None and before != card:
            out.append((token, before))
        elsewhere = self.where.get(card)
        if elsewhere is not None and elsewhere != token:
            out.append((elsewhere, card))
        return out

    def hold(self, dispute: Dispute) -> None:
        """Keep a dispute open (the referee's knowledge only)."""
        if dispute not in self.disputes:
            self.disputes = (*self.disputes, dispute)

    def settle(self, token: int, card: str) -> list[Dispute]:
        """Everyone saw ``token`` is ``card``: close (and return) the disputes it decides."""
        settled = [d for d in self.disputes if d.involves(token, card)]
        if settled:
            self.disputes = tuple(d for d in self.disputes if not d.involves(token, card))
        return settled

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
