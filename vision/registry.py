"""The tag registry: one AprilTag 36h11 id for every card of every deck.

It is data (`assets/tags/registry.toml`), not code, and append-only: a card keeps its id
forever (stickers are already printed), new cards get the next free ids, and the id of a
card removed from a deck is never given to another card.

>>> reg = TagRegistry.load()
>>> reg.tag_for_card("carmen.loot.gandhis-glasses")
14
>>> reg.identify_tag(14, active={"carmen"}).status.value
'card'

Update after adding a deck: `python -m vision registry --update`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Collection, Iterable

from vision.decks import ASSETS_DIR, Deck, load_all_decks, read_toml

REGISTRY_PATH = ASSETS_DIR / "tags" / "registry.toml"
TAG_FAMILY = "tag36h11"
TAG_FAMILY_SIZE = 587  # codewords in AprilTag 36h11
REGISTRY_FORMAT = 1


class RegistryError(ValueError):
    """The registry file is invalid, or an update would break the append-only rule."""


class RegistryFullError(RegistryError):
    """More cards than AprilTag 36h11 has ids."""


class TagStatus(str, Enum):
    CARD = "card"  # a card of a deck of the active game
    FOREIGN = "foreign"  # a known card, but of another game: "not from this game"
    UNKNOWN = "unknown"  # a valid tag id no registered card uses


@dataclass(frozen=True)
class TagEntry:
    tag_id: int
    card_id: str
    game: str

    @property
    def deck_id(self) -> str:
        return self.card_id.split(".", 1)[0]


@dataclass(frozen=True)
class Identity:
    """What a tag means for the game being played."""

    status: TagStatus
    card_id: str | None  # None only for UNKNOWN
    tag_id: int | None = None

    @property
    def is_card(self) -> bool:
        return self.status is TagStatus.CARD


class TagRegistry:
    """Card id <-> tag id, for all decks of all games."""

    def __init__(self, entries: Iterable[TagEntry] = ()) -> None:
        self._by_tag: dict[int, TagEntry] = {}
        self._by_card: dict[str, TagEntry] = {}
        for entry in entries:
            self._add(entry)

    def _add(self, entry: TagEntry) -> None:
        if not 0 <= entry.tag_id < TAG_FAMILY_SIZE:
            raise RegistryError(f"tag id {entry.tag_id} is outside {TAG_FAMILY} (0..{TAG_FAMILY_SIZE - 1})")
        if entry.tag_id in self._by_tag:
            raise RegistryError(f"tag id {entry.tag_id} is given to two cards")
        if entry.card_id in self._by_card:
            raise RegistryError(f"card {entry.card_id} has two tag ids")
        self._by_tag[entry.tag_id] = entry
        self._by_card[entry.card_id] = entry

    # --- reading ---------------------------------------------------------------------------
    @classmethod
    def load(cls, path: Path | str = REGISTRY_PATH) -> "TagRegistry":
        path = Path(path)
        data = read_toml(path, RegistryError,
                         f"tag registry not found: {path} (run `python -m vision registry --update`)")
        if data.get("family") != TAG_FAMILY:
            raise RegistryError(f"tag registry {path} is for family {data.get('family')!r}, expected {TAG_FAMILY}")
        try:
            entries = [TagEntry(int(t["id"]), str(t["card"]), str(t["game"])) for t in data.get("tag", [])]
        except (KeyError, TypeError, ValueError) as exc:
            raise RegistryError(f"tag registry {path} has a malformed [[tag]] entry: {exc}") from None
        return cls(entries)

    @property
    def entries(self) -> list[TagEntry]:
        return sorted(self._by_tag.values(), key=lambda e: e.tag_id)

    def __len__(self) -> int:
        return len(self._by_tag)

    def __contains__(self, card_id: object) -> bool:
        return card_id in self._by_card

    def tag_for_card(self, card_id: str) -> int:
        try:
            return self._by_card[card_id].tag_id
        except KeyError:
            raise RegistryError(f"card {card_id} has no tag yet (run `python -m vision registry --update`)") from None

    def entry_for_tag(self, tag_id: int) -> TagEntry | None:
        return self._by_tag.get(tag_id)

    def entry_for_card(self, card_id: str) -> TagEntry | None:
        return self._by_card.get(card_id)

    def tag_ids(self) -> frozenset[int]:
        return frozenset(self._by_tag)

    # --- meaning for the current game ------------------------------------------------------
    @staticmethod
    def _is_active(entry: TagEntry, active: Collection[str] | None) -> bool:
        # The caller names the active game or its decks; None means "every game" (e.g. a test sheet).
        return active is None or entry.game in active or entry.deck_id in active

    def identify_tag(self, tag_id: int, active: Collection[str] | None) -> Identity:
        """Meaning of an AprilTag id while `active` (game names or deck ids) is being played."""
        entry = self._by_tag.get(tag_id)
        if entry is None:
            return Identity(TagStatus.UNKNOWN, None, tag_id)
        status = TagStatus.CARD if self._is_active(entry, active) else TagStatus.FOREIGN
        return Identity(status, entry.card_id, tag_id)

    def identify_card(self, card_id: str, active: Collection[str] | None) -> Identity:
        """Meaning of a card id read from a QR payload: an unregistered card is UNKNOWN."""
        entry = self._by_card.get(card_id)
        if entry is None:
            return Identity(TagStatus.UNKNOWN, None, None)
        status = TagStatus.CARD if self._is_active(entry, active) else TagStatus.FOREIGN
        return Identity(status, entry.card_id, entry.tag_id)

    # --- updating --------------------------------------------------------------------------
    def updated(self, decks: Iterable[Deck]) -> tuple["TagRegistry", list[TagEntry]]:
        """A registry with every card of `decks` added; existing ids never change.

        Returns the new registry and the entries that were added. Cards no longer in any deck
        keep their id (retired), so an old sticker can never be read as a different card.
        """
        new = TagRegistry(self.entries)
        added: list[TagEntry] = []
        next_id = max(self._by_tag, default=-1) + 1
        for deck in decks:
            for card in deck.cards:
                existing = new._by_card.get(card.card_id)
                if existing is not None:
                    if existing.game != card.game:
                        raise RegistryError(
                            f"card {card.card_id} is registered for game {existing.game!r} but its deck now says {card.game!r}")
                    continue
                if next_id >= TAG_FAMILY_SIZE:
                    raise RegistryFullError(f"all {TAG_FAMILY_SIZE} {TAG_FAMILY} ids are used; cannot tag {card.card_id}")
                entry = TagEntry(next_id, card.card_id, card.game)
                new._add(entry)
                added.append(entry)
                next_id += 1
        return new, added

    def to_toml(self) -> str:
        lines = [
            "# Gumshoe tag registry: one AprilTag 36h11 id per card, for every deck of every game.",
            "# Append-only: printed stickers depend on these ids. Never edit or renumber by hand;",
            "# run `python -m vision registry --update` after adding cards or decks.",
            "",
            f"format = {REGISTRY_FORMAT}",
            f'family = "{TAG_FAMILY}"',
        ]
        for e in self.entries:
            lines += ["", "[[tag]]", f"id = {e.tag_id}", f'card = "{e.card_id}"', f'game = "{e.game}"']
        return "\n".join(lines) + "\n"

    def save(self, path: Path | str = REGISTRY_PATH) -> None:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(self.to_toml(), encoding="utf-8")
        tmp.replace(path)  # atomic: a crash never leaves half a registry


def update_registry_file(path: Path | str = REGISTRY_PATH, decks: Iterable[Deck] | None = None) -> list[TagEntry]:
    """Add every card of every deck to the registry file; returns what was added."""
    path = Path(path)
    current = TagRegistry.load(path) if path.exists() else TagRegistry()
    new, added = current.updated(load_all_decks() if decks is None else decks)
    if added or not path.exists():
        new.save(path)
    return added


def missing_cards(registry: TagRegistry, decks: Iterable[Deck] | None = None) -> list[str]:
    """Card ids in the decks that have no tag yet (the registry needs an update)."""
    return [c.card_id for d in (load_all_decks() if decks is None else decks) for c in d.cards if c.card_id not in registry]
