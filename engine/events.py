"""Events: what an accepted action changed, each with who may see it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from .knowledge import Visibility


@dataclass(frozen=True, slots=True)
class Event:
    """One change at the table.

    ``text`` is the sentence shown to those the visibility allows; ``data`` holds the
    details as JSON values (a private event's data may name a card; a public one never
    names a card that is not face up).
    """

    type: str
    visibility: Visibility
    text: str
    data: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict:
        return {"type": self.type, "visibility": self.visibility.to_json(), "text": self.text, "data": dict(self.data)}

    @classmethod
    def from_json(cls, raw: dict) -> "Event":
        return cls(raw["type"], Visibility.from_json(raw["visibility"]), raw["text"], raw.get("data", {}))
