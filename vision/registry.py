"""The tag registry: one AprilTag for every card of every deck of every game.

It is data (`assets/tags/registry.toml`), not code, and append-only: a card keeps its id
forever (stickers are already printed), new cards get the next free ids, and the id of a
card removed from a deck is never given to another card.

The id space (docs/vision.md, "Room for every card"): tag numbers 0-586 are AprilTag 36h11
(the Carmen stickers already printed keep theirs); when 36h11 is full, new cards get
tagStandard41h12 tags, numbers 1000-3114 (tag 1000 + k is 41h12 code k). 2,702 cards in all,
every one of them known to every game, so a card of another game is always "foreign".

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
TAG_FAMILY = "tag36h11"  # the first family (every Carmen sticker)
TAG36_SIZE = TAG_FAMILY_SIZE = 587  # codewords in AprilTag 36h11
# family -> (first tag number, codewords), in the order new cards fill them.
TAG_FAMILIES: dict[str, tuple[int, int]] = {"tag36h11": (0, 587), "tagStandard41h12": (1000, 2115)}
LIB_FAMILIES = tuple(TAG_FAMILIES)
TAG_CAPACITY = sum(size for _, size in TAG_FAMILIES.values())
REGISTRY_FORMAT = 2


def tag_number(family: str, code: int) -> int:
    """The registry's number of tag `code` of `family` (36h11 code k is k; 41h12 code k is 1000 + k)."""
    first, size = TAG_FAMILIES[family]
    if not 0 <= code < size:
        raise ValueError(f"{family} has no code {code}")
    return first + code


def family_code(number: int) -> tuple[str, int]:
    """(family, code) of a tag number; ValueError if no family has it."""
    for family, (first, size) in TAG_FAMILIES.items():
        if first <= number < first + size:
            return family, number - first
    raise ValueError(f"tag number {number} is in no tag family ({_ranges()})")


def _ranges() -> str:
    return ", ".join(f"{f} {a}..{a + n - 1}" for f, (a, n) in TAG_FAMILIES.items())


class RegistryError(ValueError):
    """The registry file is invalid, or an update would break the append-only rule."""


class RegistryFullError(RegistryError):
    """More cards than the tag families have ids."""


class TagStatus(str, Enum):
    CARD = "card"  # a card of a deck of the active game
    FOREIGN = "foreign"  # a known card, but of another game: "not from this game"
    UNKNOWN = "unknown"  # a valid tag id no registered card uses


@dataclass(frozen=True)
class TagEntry:
    tag_id: int  # tag number: family and code, see tag_number()
    card_id: str
    game: str

    @property
    def deck_id(self) -> str:
        return self.card_id.split(".", 1)[0]

    @property
    def family(self) -> str:
        return family_code(self.tag_id)[0]

    @property
    def code(self) -> int:
        return family_code(self.tag_id)[1]


@dataclass(frozen=True)
class Identity:
    """What a tag means for the game being played."""

    status: TagStatus
    card_id: str | None  # None only for UNKNOWN
    tag_id: int | None = None  # tag number (None for a QR code of an unregistered card)

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
        try:
            family_code(entry.tag_id)
        except ValueError:
            raise RegistryError(f"tag id {entry.tag_id} is outside every tag family ({_ranges()})") from None
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
        # Format 1: family = "tag36h11", ids 0-586. Format 2: families = [...], tag numbers, and each
        # entry outside 36h11 names its family (checked against its number).
        families = data.get("families", [data.get("family")])
        if not isinstance(families, list) or not families or any(f not in TAG_FAMILIES for f in families):
            raise RegistryError(f"tag registry {path} is for families {families!r}, expected some of {', '.join(TAG_FAMILIES)}")
        entries = []
        try:
            for t in data.get("tag", []):
                entry = TagEntry(int(t["id"]), str(t["card"]), str(t["game"]))
                try:
                    family = entry.family
                except ValueError:
                    raise RegistryError(f"tag id {entry.tag_id} is outside every tag family ({_ranges()})") from None
                if t.get("family", family) != family or family not in families:
                    raise RegistryError(f"tag registry {path}: tag {entry.tag_id} of {entry.card_id} is {family}, "
                                        f"not {t.get('family')!r} (families {families})")
                entries.append(entry)
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, RegistryError):
                raise
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

    def families(self) -> list[str]:
        """Tag families the registered cards use, in TAG_FAMILIES order."""
        used = {e.family for e in self._by_tag.values()}
        return [f for f in TAG_FAMILIES if f in used]

    def games(self) -> list[str]:
        return sorted({e.game for e in self._by_tag.values()})

    # --- meaning for the current game ------------------------------------------------------
    @staticmethod
    def _is_active(entry: TagEntry, active: Collection[str] | None) -> bool:
        # The caller names the active game or its decks; None means "every game" (e.g. a test sheet).
        return active is None or entry.game in active or entry.deck_id in active

    def identify_tag(self, tag_id: int, active: Collection[str] | None) -> Identity:
        """Meaning of an AprilTag (tag number) while `active` (game names or deck ids) is being played."""
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
        free = _free_numbers(self._by_tag)
        for deck in decks:
            for card in deck.cards:
                existing = new._by_card.get(card.card_id)
                if existing is not None:
                    if existing.game != card.game:
                        raise RegistryError(
                            f"card {card.card_id} is registered for game {existing.game!r} but its deck now says {card.game!r}")
                    continue
                number = next(free, None)
                if number is None:
                    raise RegistryFullError(f"all {TAG_CAPACITY} tag ids ({_ranges()}) are used; cannot tag {card.card_id}")
                entry = TagEntry(number, card.card_id, card.game)
                new._add(entry)
                added.append(entry)
        return new, added

    def to_toml(self) -> str:
        lines = [
            "# Gumshoe tag registry: one AprilTag per card, for every deck of every game.",
            "# Append-only: printed stickers depend on these ids. Never edit or renumber by hand;",
            "# run `python -m vision registry --update` after adding cards or decks.",
            "# Tag numbers 0-586: AprilTag 36h11 (that code); 1000-3114: tagStandard41h12 code (number - 1000).",
            "",
            f"format = {REGISTRY_FORMAT}",
            "families = [" + ", ".join(f'"{f}"' for f in TAG_FAMILIES) + "]",
        ]
        for e in self.entries:
            lines += ["", "[[tag]]", f"id = {e.tag_id}"]
            if e.family != TAG_FAMILY:
                lines.append(f'family = "{e.family}"')
            lines += [f'card = "{e.card_id}"', f'game = "{e.game}"']
        return "\n".join(lines) + "\n"

    def save(self, path: Path | str = REGISTRY_PATH) -> None:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(self.to_toml(), encoding="utf-8")
        tmp.replace(path)  # atomic: a crash never leaves half a registry


def _free_numbers(taken: Collection[int]):
    """Tag numbers a new card may get, in order: after the last one used in each family, family by family.

    Numbers below a family's highest used one are never handed out again (a retired card's
    sticker must never name another card).
    """
    for family, (first, size) in TAG_FAMILIES.items():
        used = [n for n in taken if first <= n < first + size]
        start = max(used) + 1 if used else first
        later = [n for n in taken if n >= first + size]
        if later and not used:
            continue  # a later family is already in use: never go back to an untouched earlier one
        yield from range(start, first + size)


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
