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

A family's own cards (a game whose cards differ in every home, like The 39 Clues) are not in
a deck file: the shipped registry reserves a **block** of tag numbers for that game
(`[[block]]`: game, first, last, file), which shipped decks never take, and the family's tag
numbers live in a small append-only file in the family's folder (`<user folder>/<file>`),
written by the app when a card is registered (:func:`sync_family_cards`). `TagRegistry.load()`
merges those files in, so the detector, the synthetic table and the sticker sheets know the
family's cards like any other; a broken family file is skipped (`TagRegistry.problems`) and
never stops the camera of another game.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Collection, Iterable

from vision.decks import ASSETS_DIR, Deck, DeckCard, load_all_decks, read_toml

REGISTRY_PATH = ASSETS_DIR / "tags" / "registry.toml"
TAG_FAMILY = "tag36h11"  # the first family (every Carmen sticker)
TAG36_SIZE = TAG_FAMILY_SIZE = 587  # codewords in AprilTag 36h11
# family -> (first tag number, codewords), in the order new cards fill them.
TAG_FAMILIES: dict[str, tuple[int, int]] = {"tag36h11": (0, 587), "tagStandard41h12": (1000, 2115)}
LIB_FAMILIES = tuple(TAG_FAMILIES)
TAG_CAPACITY = sum(size for _, size in TAG_FAMILIES.values())
REGISTRY_FORMAT = 2
FAMILY_FORMAT = 1       # a family's own tag file (a block's file in the user folder)
# ... with stickers printed to attach later or numbers retired: an app older than them would
# refuse the file (skipped, never overwritten) rather than hand one of those numbers out again.
FAMILY_FORMAT_STICKERS = 2


def user_folder() -> Path:
    """The family's own folder (the same as ``engine.paths.user_dir``; vision never imports engine)."""
    if env := os.environ.get("GUMSHOE_HOME"):
        return Path(env)
    if sys.platform == "win32":
        return Path(os.environ.get("APPDATA", Path.home())) / "Gumshoe"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / "Gumshoe"
    return Path(os.environ.get("XDG_DATA_HOME", Path.home() / ".local" / "share")) / "gumshoe"


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
class Block:
    """Tag numbers first..last reserved for one game's family-registered cards (never a shipped deck's)."""

    game: str
    first: int
    last: int
    file: str        # the family's tag file, relative to the user folder
    name: str = ""   # heading of the sticker sheets

    @property
    def prefix(self) -> str:
        """Every card id of the block starts with this (the game's deck id and a dot)."""
        return f"{self.game}."

    def __contains__(self, number: object) -> bool:
        return isinstance(number, int) and self.first <= number <= self.last

    def path(self, home: Path | None = None) -> Path:
        return (home or user_folder()) / self.file


@dataclass(frozen=True)
class FamilyTag:
    """One line of a family's tag file: a card's tag number, its name, and whether it is in their library now."""

    tag_id: int
    card_id: str
    name: str
    listed: bool = True


@dataclass(frozen=True)
class RetiredTag:
    """A number a card had before it got another sticker: it never names a card again."""

    tag_id: int
    card_id: str     # the card it named
    name: str


@dataclass(frozen=True)
class FamilyFile:
    """Everything a block's file holds: attached numbers, stickers printed to attach later, retired numbers."""

    tags: tuple[FamilyTag, ...] = ()
    spares: tuple[int, ...] = ()          # printed, not on a card yet
    retired: tuple[RetiredTag, ...] = ()

    def numbers(self) -> set[int]:
        """Every number ever given out (none of them is ever given out again)."""
        return {t.tag_id for t in self.tags} | set(self.spares) | {r.tag_id for r in self.retired}

    def following(self, block: Block) -> int:
        """The next number to give out: after the highest one ever used in the block."""
        return max(self.numbers(), default=block.first - 1) + 1

    def tag_of_card(self, card_id: str) -> FamilyTag | None:
        return next((t for t in self.tags if t.card_id == card_id), None)

    def tag_of_number(self, number: int) -> FamilyTag | None:
        return next((t for t in self.tags if t.tag_id == number), None)


class AttachRefused(RegistryError):
    """A sticker that cannot be attached to the card, and why (``reason``); nothing was changed.

    reason: ``outside`` (not a number of the game's block), ``other-game`` (a card of another
    game: ``card_id``, ``name``, ``game``), ``attached`` (on another card: ``card_id``, ``name``),
    ``retired`` (a card's former number: ``card_id``, ``name``), ``unissued`` (a number of the
    block this app never printed).
    """

    def __init__(self, message: str, reason: str, number: int, card_id: str = "", name: str = "",
                 game: str = "") -> None:
        super().__init__(message)
        self.reason, self.number, self.card_id, self.name, self.game = reason, number, card_id, name, game


@dataclass(frozen=True)
class Attached:
    """A sticker attached to a card: its number, and the card's previous number (retired) if any."""

    number: int
    card_id: str
    name: str
    previous: int | None = None
    changed: bool = True      # False: the number was already this card's


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

    def __init__(self, entries: Iterable[TagEntry] = (), blocks: Iterable[Block] = ()) -> None:
        self._by_tag: dict[int, TagEntry] = {}
        self._by_card: dict[str, TagEntry] = {}
        self.blocks: tuple[Block, ...] = tuple(blocks)
        #: family tag files that could not be read (skipped, with the reason)
        self.problems: list[str] = []
        #: numbers of the family files that name no card (stickers to attach later, retired numbers):
        #: the detector still reads their family, so such a sticker is "unknown", not unseen
        self.unattached: set[int] = set()
        for a in self.blocks:
            for b in self.blocks:
                if a is not b and a.first <= b.last and b.first <= a.last:
                    raise RegistryError(f"tag blocks of {a.game} and {b.game} overlap")
        for entry in entries:
            if any(entry.tag_id in b for b in self.blocks):
                raise RegistryError(f"tag id {entry.tag_id} of {entry.card_id} is in a block reserved for a "
                                    f"family's own cards")
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
    def load(cls, path: Path | str = REGISTRY_PATH, *, family: bool = True, home: Path | None = None) -> "TagRegistry":
        """The registry file; with ``family``, plus each block's family file in the user folder (``home``)."""
        registry = cls._load_file(Path(path))
        if family:
            for block in registry.blocks:
                try:
                    own = read_family_file(block, home)
                except RegistryError as exc:
                    registry.problems.append(str(exc))
                    continue
                for t in own.tags:
                    registry._add(TagEntry(t.tag_id, t.card_id, block.game))
                registry.unattached |= own.numbers() - {t.tag_id for t in own.tags}
        return registry

    @classmethod
    def _load_file(cls, path: Path) -> "TagRegistry":
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
        blocks = []
        try:
            for b in data.get("block", []):
                block = Block(str(b["game"]), int(b["first"]), int(b["last"]), str(b["file"]), str(b.get("name", "")))
                if block.first > block.last or family_code(block.first)[0] != family_code(block.last)[0]:
                    raise RegistryError(f"tag registry {path}: the block of {block.game} must lie in one tag family")
                if Path(block.file).is_absolute() or ".." in Path(block.file).parts:
                    raise RegistryError(f"tag registry {path}: the block file of {block.game} must be inside the user folder")
                blocks.append(block)
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, RegistryError):
                raise
            raise RegistryError(f"tag registry {path} has a malformed [[block]] entry: {exc}") from None
        return cls(entries, blocks)

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

    def block(self, game: str) -> Block | None:
        """The tag numbers reserved for a game's family-registered cards (None: its cards are in deck files)."""
        return next((b for b in self.blocks if b.game == game), None)

    def families(self) -> list[str]:
        """Tag families the registered cards use, in TAG_FAMILIES order."""
        used = {e.family for e in self._by_tag.values()} | {family_code(n)[0] for n in self.unattached}
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
        new = TagRegistry([e for e in self.entries if not any(e.tag_id in b for b in self.blocks)], self.blocks)
        added: list[TagEntry] = []
        free = _free_numbers(new._by_tag, self.blocks)
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
        for b in self.blocks:
            lines += ["", "# Reserved for a family's own cards of this game: no deck file gets these numbers;",
                      "# the family's numbers are in <user folder>/" + b.file + ".",
                      "[[block]]", f'game = "{b.game}"', f"first = {b.first}", f"last = {b.last}",
                      f'file = "{b.file}"']
            if b.name:
                lines.append(f"name = {_q(b.name)}")
        return "\n".join(lines) + "\n"

    def save(self, path: Path | str = REGISTRY_PATH) -> None:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(self.to_toml(), encoding="utf-8")
        tmp.replace(path)  # atomic: a crash never leaves half a registry


def _free_numbers(taken: Collection[int], blocks: Iterable[Block] = ()):
    """Tag numbers a new card may get, in order: after the last one used in each family, family by family.

    Numbers below a family's highest used one are never handed out again (a retired card's
    sticker must never name another card). Numbers in a block (a family's own cards) are skipped.
    """
    blocks = tuple(blocks)
    for family, (first, size) in TAG_FAMILIES.items():
        used = [n for n in taken if first <= n < first + size]
        start = max(used) + 1 if used else first
        later = [n for n in taken if n >= first + size]
        if later and not used:
            continue  # a later family is already in use: never go back to an untouched earlier one
        yield from (n for n in range(start, first + size) if not any(n in b for b in blocks))


def _q(text: str) -> str:
    """A TOML basic string (names typed by a family may hold quotes)."""
    out = []
    for ch in text:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


# --- a family's own cards (a block's file in the user folder) ---------------------------------
def read_family_file(block: Block, home: Path | None = None) -> FamilyFile:
    """The family's tag file of a block (empty when there is none yet); RegistryError if it is broken."""
    path = block.path(home)
    if not path.exists():
        return FamilyFile()
    data = read_toml(path, RegistryError, f"not found: {path}")
    if data.get("format", FAMILY_FORMAT) not in (FAMILY_FORMAT, FAMILY_FORMAT_STICKERS) or data.get("game") != block.game:
        raise RegistryError(f"{path} is not a tag file of {block.game} (format {FAMILY_FORMAT_STICKERS})")
    tags: list[FamilyTag] = []
    spares: list[int] = []
    retired: list[RetiredTag] = []
    seen_tags: set[int] = set()
    seen_cards: set[str] = set()

    def number(value: object, what: str) -> int:
        if type(value) is not int:
            raise TypeError("id must be a number, card and name text, listed true or false")
        if value not in block:
            raise RegistryError(f"{path}: tag {value} of {what} is outside the numbers of "
                                f"{block.game} ({block.first}-{block.last})")
        if value in seen_tags:
            raise RegistryError(f"{path}: tag {value} is listed twice")
        seen_tags.add(value)
        return value

    def card(value: object) -> str:
        if not isinstance(value, str) or not value.startswith(block.prefix):
            raise RegistryError(f"{path}: {value} is not a card of {block.game}")
        return value

    try:
        for t in data.get("tag", []):
            tag = FamilyTag(t["id"], t["card"], t.get("name", t["card"]), t.get("listed", True))
            if (type(tag.tag_id) is not int or not isinstance(tag.card_id, str) or not isinstance(tag.name, str)
                    or not isinstance(tag.listed, bool)):
                raise TypeError("id must be a number, card and name text, listed true or false")
            number(tag.tag_id, tag.card_id)
            card(tag.card_id)
            if tag.card_id in seen_cards:
                raise RegistryError(f"{path}: tag {tag.tag_id} or card {tag.card_id} is listed twice")
            seen_cards.add(tag.card_id)
            tags.append(tag)
        for t in data.get("spare", []):
            spares.append(number(t["id"], "a sticker to attach later"))
        for t in data.get("retired", []):
            r = RetiredTag(t["id"], t["card"], t.get("name", t["card"]))
            if not isinstance(r.name, str):
                raise TypeError("name must be text")
            number(r.tag_id, str(r.card_id))
            card(r.card_id)
            retired.append(r)
    except (KeyError, TypeError) as exc:
        raise RegistryError(f"{path} has a malformed [[tag]] entry: {exc}") from None
    return FamilyFile(tuple(tags), tuple(spares), tuple(retired))


def read_family_tags(block: Block, home: Path | None = None) -> list[FamilyTag]:
    """The attached numbers of a block's file (one per card); RegistryError if the file is broken."""
    return list(read_family_file(block, home).tags)


def _write_family_file(block: Block, own: FamilyFile, home: Path | None) -> None:
    path = block.path(home)
    stickers = bool(own.spares or own.retired)
    lines = [f"# Tag numbers of this family's own {block.game} cards (Gumshoe). Append-only: the",
             "# printed stickers carry these numbers. Written by the app when a card is registered;",
             "# listed = false: no longer in the library (the number is never given to another card).",
             "# [[spare]]: a sticker printed to attach later; [[retired]]: a card's former number",
             "# (the card got another sticker); neither is ever given to a card again.",
             "", f"format = {FAMILY_FORMAT_STICKERS if stickers else FAMILY_FORMAT}", f'game = "{block.game}"']
    for t in sorted(own.tags, key=lambda t: t.tag_id):
        lines += ["", "[[tag]]", f"id = {t.tag_id}", f"card = {_q(t.card_id)}", f"name = {_q(t.name)}"]
        if not t.listed:
            lines.append("listed = false")
    for n in sorted(own.spares):
        lines += ["", "[[spare]]", f"id = {n}"]
    for r in sorted(own.retired, key=lambda r: r.tag_id):
        lines += ["", "[[retired]]", f"id = {r.tag_id}", f"card = {_q(r.card_id)}", f"name = {_q(r.name)}"]
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text("\n".join(lines) + "\n", encoding="utf-8")
    tmp.replace(path)   # atomic: a crash never loses a printed sticker's number


def _family_block(game: str, path: Path | str) -> tuple[TagRegistry, Block]:
    registry = TagRegistry._load_file(Path(path))
    block = registry.block(game)
    if block is None:
        raise RegistryError(f"the tag registry reserves no numbers for {game}'s own cards")
    return registry, block


def sync_family_cards(game: str, cards: Iterable[tuple[str, str]], *, listed: bool = True,
                      path: Path | str = REGISTRY_PATH, home: Path | None = None) -> list[FamilyTag]:
    """Give a family's own cards of ``game`` their tag numbers; returns the cards that got a new one.

    ``cards`` are (card id, name). With ``listed=True`` they are the family's whole library:
    every other card of the file is marked as no longer listed (its number is kept forever).
    With ``listed=False`` they are only added (the cards of one game), and the listing stays
    (a card new to the file is then not listed: it is not in the library).
    Numbers are taken after the highest one ever used in the block (attached, printed to attach
    later, or retired), so a number is never reused.
    """
    registry, block = _family_block(game, path)
    own = read_family_file(block, home)        # a broken file raises: it is never overwritten
    tags = own.tags
    cards = list(cards)
    by_card = {t.card_id: t for t in tags}
    wanted = {cid for cid, _ in cards}
    changed = False
    out: list[FamilyTag] = []
    for t in tags:
        new_listed = (t.card_id in wanted) if listed else t.listed
        if new_listed != t.listed:
            changed = True
        out.append(FamilyTag(t.tag_id, t.card_id, t.name, new_listed))
    names = {cid: name for cid, name in cards}
    out = [FamilyTag(t.tag_id, t.card_id, names.get(t.card_id, t.name), t.listed) for t in out]
    changed = changed or any(names.get(t.card_id, t.name) != t.name for t in tags)
    following = own.following(block)
    added = []
    for cid, name in cards:
        if cid in by_card or cid in {a.card_id for a in added}:
            continue
        if not cid.startswith(block.prefix) or cid in registry:
            raise RegistryError(f"{cid} cannot be one of the family's own {game} cards")
        if following > block.last:
            raise RegistryFullError(f"all {block.last - block.first + 1} tag numbers for {game} cards are used")
        tag = FamilyTag(following, cid, name, listed)
        following += 1
        added.append(tag)
    if added or changed or not block.path(home).exists():
        _write_family_file(block, FamilyFile(tuple(out + added), own.spares, own.retired), home)
    return added


def issue_spare_tags(game: str, count: int, *, path: Path | str = REGISTRY_PATH,
                     home: Path | None = None) -> list[int]:
    """Take ``count`` new numbers of the game's block for stickers to attach later; recorded before
    anything is printed (a printed sticker's number is never lost), after every number ever used."""
    if count < 1:
        raise RegistryError("at least one sticker")
    _, block = _family_block(game, path)
    own = read_family_file(block, home)
    first = own.following(block)
    if first + count - 1 > block.last:
        raise RegistryFullError(f"only {max(0, block.last - first + 1)} tag numbers for {game} cards are left")
    numbers = list(range(first, first + count))
    _write_family_file(block, FamilyFile(own.tags, own.spares + tuple(numbers), own.retired), home)
    return numbers


def _deck_card_name(card_id: str) -> str:
    for deck in load_all_decks():
        for c in deck.cards:
            if c.card_id == card_id:
                return c.name
    return card_id


def attach_tag(game: str, number: int, card_id: str, name: str, *, path: Path | str = REGISTRY_PATH,
               home: Path | None = None) -> Attached:
    """Put sticker ``number`` (printed to attach later) on the card ``card_id`` of ``game``.

    The card's previous number, if it had one, is retired (never read as a card again, never given
    out again). Refused (``AttachRefused``, nothing changed): a number outside the game's block, a
    card of another game, a sticker already on another card, a retired number, a number of the
    block this app never printed. The number already being this card's is no change.
    """
    registry, block = _family_block(game, path)
    if number not in block:
        entry = registry.entry_for_tag(number)
        if entry is not None:
            other = _deck_card_name(entry.card_id)
            raise AttachRefused(f"Sticker {number} belongs to a card of another game ({other}), not to one of "
                                f"your {game} cards. Nothing changed.", "other-game", number, entry.card_id,
                                other, entry.game)
        raise AttachRefused(f"Sticker number {number} is not one of your {game} stickers (those are numbers "
                            f"{block.first} to {block.last}). Nothing changed.", "outside", number)
    if not card_id.startswith(block.prefix) or card_id in registry:
        raise RegistryError(f"{card_id} cannot be one of the family's own {game} cards")
    own = read_family_file(block, home)      # a broken file raises: it is never overwritten
    holder = own.tag_of_number(number)
    current = own.tag_of_card(card_id)
    if holder is not None and holder.card_id == card_id:
        return Attached(number, card_id, holder.name, None, changed=False)
    if holder is not None:
        raise AttachRefused(f"Sticker {number} is already on another card: {holder.name}. Nothing changed.",
                            "attached", number, holder.card_id, holder.name)
    former = next((r for r in own.retired if r.tag_id == number), None)
    if former is not None:
        raise AttachRefused(f"Sticker {number} was on {former.name} before it got a new sticker; an old number "
                            f"is never used again. Nothing changed.", "retired", number, former.card_id, former.name)
    if number not in own.spares:
        raise AttachRefused(f"Sticker {number} was never printed for your cards by this app. Nothing changed.",
                            "unissued", number)
    tags = [t for t in own.tags if t.card_id != card_id]
    listed = current.listed if current is not None else True
    tags.append(FamilyTag(number, card_id, name, listed))
    retired = own.retired + ((RetiredTag(current.tag_id, card_id, current.name),) if current is not None else ())
    spares = tuple(n for n in own.spares if n != number)
    _write_family_file(block, FamilyFile(tuple(tags), spares, retired), home)
    return Attached(number, card_id, name, current.tag_id if current is not None else None)


def family_file(game: str, path: Path | str = REGISTRY_PATH, home: Path | None = None) -> FamilyFile:
    """The whole tag file of the game's block (RegistryError when the registry reserves none or it is broken)."""
    _, block = _family_block(game, path)
    return read_family_file(block, home)


def family_deck(game: str, path: Path | str = REGISTRY_PATH, home: Path | None = None) -> Deck | None:
    """The cards of the family's library that have tag numbers, as a deck (for the sticker sheets).

    None when the registry reserves no numbers for ``game``.
    """
    registry = TagRegistry._load_file(Path(path))
    block = registry.block(game)
    if block is None:
        return None
    cards = tuple(DeckCard(t.card_id, game, game, "card", t.name)
                  for t in read_family_tags(block, home) if t.listed)
    return Deck(game, game, block.name or f"{game}: our own cards", block.path(home), cards)


def update_registry_file(path: Path | str = REGISTRY_PATH, decks: Iterable[Deck] | None = None) -> list[TagEntry]:
    """Add every card of every deck to the registry file; returns what was added."""
    path = Path(path)
    current = TagRegistry.load(path, family=False) if path.exists() else TagRegistry()
    new, added = current.updated(load_all_decks() if decks is None else decks)
    if added or not path.exists():
        new.save(path)
    return added


def missing_cards(registry: TagRegistry, decks: Iterable[Deck] | None = None) -> list[str]:
    """Card ids in the decks that have no tag yet (the registry needs an update)."""
    return [c.card_id for d in (load_all_decks() if decks is None else decks) for c in d.cards if c.card_id not in registry]
