"""A private question asked on one player's phone, and the checks every answer goes through.

The question holds only what that player may see: where to look (in their words) and the cards
it can be (every card of that type, public deck data, or the few cards the player drew). The
action it completes stays on the laptop: a phone sends card ids, never an action.

>>> q = PhoneQuestion.new("Ann", "Ann, look at your Top Loot card", "", (
...     ReadSpec("card", "your Top Loot card", (("c.a", "Atlas"), ("c.b", "Bell"))),))
>>> q.cards_from_answer({"card": "c.b"})
{'card': 'c.b'}
>>> q.cards_from_answer({"card": "c.z"})
Traceback (most recent call last):
...
phones.questions.AnswerRefused: That card cannot lie at your Top Loot card: choose one from the list.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any, Mapping

MAX_LIST_CARDS = 60


class AnswerRefused(ValueError):
    """An answer that cannot be used; the message says why, in words for the player."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class ReadSpec:
    """One card field of the question: a single card (``many`` False) or several cards from one
    place, between ``least`` and ``most`` (None: no upper limit) of them."""

    field: str
    what: str
    choices: tuple[tuple[str, str], ...]
    many: bool = False
    least: int = 1
    most: int | None = 1
    #: (a card, the listed card it is a copy of), never sent to the page: a line stands for every
    #: copy of its card, and a photo may read any of them
    also: tuple[tuple[str, str], ...] = ()

    def accepted(self) -> set[str]:
        return {card for card, _ in self.choices} | {copy for copy, _ in self.also}

    def listed(self, card: str) -> str:
        """The listed card ``card`` stands for (itself, or the line of which it is a copy)."""
        return dict(self.also).get(card, card)

    def to_json(self) -> dict:
        return {"field": self.field, "what": self.what, "many": self.many, "least": self.least,
                "most": self.most, "choices": [[card, words] for card, words in self.choices]}

    def count_words(self) -> str:
        if self.most == self.least:
            return str(self.least)
        return f"{self.least} or more" if self.most is None else f"{self.least} to {self.most}"


@dataclass(frozen=True)
class PhoneQuestion:
    """Which cards ``player`` is looking at; ``id`` is new for every question asked."""

    id: str
    player: str
    heading: str
    text: str
    reads: tuple[ReadSpec, ...]

    @classmethod
    def new(cls, player: str, heading: str, text: str, reads: tuple[ReadSpec, ...]) -> "PhoneQuestion":
        return cls(secrets.token_urlsafe(12), player, heading, text, tuple(reads))

    def to_json(self) -> dict:
        return {"id": self.id, "heading": self.heading, "text": self.text,
                "reads": [r.to_json() for r in self.reads]}

    def read(self, field: str) -> ReadSpec:
        for r in self.reads:
            if r.field == field:
                return r
        raise AnswerRefused("That answer is not for this question: reload the page.")

    def cards_from_answer(self, cards: Any) -> dict[str, Any]:
        """The card fields of the action, from what the phone sent (``AnswerRefused`` otherwise)."""
        if not isinstance(cards, Mapping) or set(cards) != {r.field for r in self.reads}:
            raise AnswerRefused("That answer does not fit the question: reload the page and answer again.")
        out: dict[str, Any] = {}
        for r in self.reads:
            allowed = r.accepted()
            value = cards[r.field]
            if not r.many:
                if not isinstance(value, str) or value not in allowed:
                    raise AnswerRefused(f"That card cannot lie at {r.what}: choose one from the list.")
                out[r.field] = value
                continue
            if not isinstance(value, list) or len(value) > MAX_LIST_CARDS \
                    or not all(isinstance(v, str) for v in value):
                raise AnswerRefused("That answer does not fit the question: reload the page and answer again.")
            if any(v not in allowed for v in value) or len(set(value)) != len(value):
                raise AnswerRefused(f"Those cards cannot all be {r.what}: choose them from the list.")
            if len(value) < r.least or (r.most is not None and len(value) > r.most):
                raise AnswerRefused(f"Choose {r.count_words()} cards (now {len(value)}).")
            out[r.field] = list(value)
        return out

    def cards_in_photo(self, field: str, seen: list[str], unknown_tags: int = 0) -> list[str]:
        """The cards a photo shows that can answer ``field`` (``AnswerRefused`` in words when
        none can, or when a single card is asked for and the photo shows several)."""
        r = self.read(field)
        allowed = r.accepted()
        fitting = [c for c in dict.fromkeys(seen) if c in allowed]    # the very copies read (a tag tells them apart)
        if not fitting:
            if seen or unknown_tags:
                raise AnswerRefused(f"The photo shows a card that cannot lie at {r.what}. "
                                    f"Photograph the card you are looking at, or choose it from the list.")
            raise AnswerRefused("No card tag could be read in that photo. Hold the card flat, close enough to "
                                "fill most of the picture, in good light, and take it again; or choose it from "
                                "the list.")
        if not r.many and len(fitting) > 1:
            raise AnswerRefused("The photo shows more than one card. Photograph only the card you are looking at.")
        return fitting
