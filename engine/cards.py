"""Cards and decks: identities loaded from TOML files in ``assets/decks/``.

A :class:`Card` is an identity ("carmen.loot.gandhis-glasses"); it never changes. The
physical card lying on the table is a token (see :mod:`engine.table`).

>>> deck = load_game_deck("carmen-cards")
>>> card = deck.card("carmen.loot.gandhis-glasses")
>>> card.name, deck.card(card.pair).name
("Gandhi's Glasses", 'New Delhi')
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Iterable, Mapping

from .paths import assets_dir, read_toml, user_dir

_SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_CARD_FIELDS = {"kind", "id", "name", "pair", "role", "verified", "note", "attrs"}


class DeckError(ValueError):
    """A deck file that cannot be used; the message names the file and the bad entry."""


@dataclass(frozen=True, slots=True)
class Card:
    """One card identity of a deck."""

    id: str                 # "<deck>.<kind>.<key>", the id printed on its tag
    deck: str
    kind: str               # e.g. "loot"; tells which column/pile it belongs to
    key: str                # the short id inside the deck file
    name: str
    pair: str | None = None  # full id of the card it matches, if the game pairs cards
    role: str | None = None  # a game-specific role, e.g. "mastermind"
    verified: bool = True
    attrs: Mapping[str, object] = field(default_factory=dict, compare=False, hash=False)


@dataclass(frozen=True, slots=True)
class Kind:
    """A card type of a deck (its back tells it apart, so it is public)."""

    id: str
    name: str
    plural: str
    count: int


@dataclass(frozen=True)
class Deck:
    """All cards of one deck file, validated."""

    id: str
    game: str
    name: str
    kinds: Mapping[str, Kind]
    cards: Mapping[str, Card]          # full id -> card, in file order
    source: Path | None = None

    def card(self, card_id: str) -> Card:
        """The card with this full id; ``KeyError`` if it is not in this deck."""
        return self.cards[card_id]

    def __contains__(self, card_id: object) -> bool:
        return card_id in self.cards

    def of_kind(self, kind: str) -> list[Card]:
        """The cards of one kind, in file order."""
        return list(self._by_kind.get(kind, ()))

    @cached_property
    def _by_kind(self) -> dict[str, tuple[Card, ...]]:
        out: dict[str, list[Card]] = {}
        for c in self.cards.values():
            out.setdefault(c.kind, []).append(c)
        return {k: tuple(v) for k, v in out.items()}

    def with_role(self, role: str) -> Card:
        """The single card carrying a game role (``DeckError`` if none or several)."""
        found = [c for c in self.cards.values() if c.role == role]
        if len(found) != 1:
            raise DeckError(f"{self.source}: expected exactly one card with role {role!r}, found {len(found)}")
        return found[0]

    def name_of(self, card_id: str) -> str:
        return self.cards[card_id].name


def _fail(path: Path, what: str) -> DeckError:
    return DeckError(f"{path}: {what}")


def load_deck(path: str | Path, overrides: str | Path | None = None) -> Deck:
    """Load and validate a deck file; apply the family's name corrections if given.

    Errors name the file and the bad entry: a duplicate id, a pair pointing nowhere,
    a kind whose card count is wrong, an unknown field.
    """
    path = Path(path)
    data = read_toml(path, DeckError)
    head = data.get("deck")
    if not isinstance(head, dict):
        raise _fail(path, "missing the [deck] table")
    for key in ("id", "game", "name"):
        if not isinstance(head.get(key), str) or not head[key]:
            raise _fail(path, f"[deck] needs a text field {key!r}")
    deck_id = head["id"]
    if not _SLUG.match(deck_id):
        raise _fail(path, f"deck id {deck_id!r} must be lower-case words joined by '-'")

    kinds: dict[str, Kind] = {}
    for kid, kd in (data.get("kinds") or {}).items():
        if not _SLUG.match(kid) or not isinstance(kd, dict):
            raise _fail(path, f"bad kind {kid!r}")
        count = kd.get("count")
        if not isinstance(count, int) or count < 0:
            raise _fail(path, f"kind {kid!r} needs a whole-number 'count'")
        name = kd.get("name", kid)
        kinds[kid] = Kind(kid, name, kd.get("plural", name + "s"), count)
    if not kinds:
        raise _fail(path, "no [kinds.*] tables: say which card types the deck has")

    raw_cards = data.get("cards")
    if not isinstance(raw_cards, list) or not raw_cards:
        raise _fail(path, "no [[cards]] entries")
    by_key: dict[str, dict] = {}
    for n, raw in enumerate(raw_cards, 1):
        where = f"card #{n}"
        if not isinstance(raw, dict):
            raise _fail(path, f"{where} is not a table")
        unknown = set(raw) - _CARD_FIELDS
        if unknown:
            raise _fail(path, f"{where} ({raw.get('id', '?')}): unknown field(s) {', '.join(sorted(unknown))}")
        key = raw.get("id")
        if not isinstance(key, str) or not _SLUG.match(key):
            raise _fail(path, f"{where}: 'id' must be lower-case words joined by '-' (got {key!r})")
        where = f"card {key!r}"
        if key in by_key:
            raise _fail(path, f"duplicate id {key!r}")
        if raw.get("kind") not in kinds:
            raise _fail(path, f"{where}: kind {raw.get('kind')!r} is not one of {', '.join(kinds)}")
        if not isinstance(raw.get("name"), str) or not raw["name"].strip():
            raise _fail(path, f"{where}: needs a 'name'")
        by_key[key] = raw

    # Pairs are symmetric: one side names the other; both sides may, if they agree.
    pair_of: dict[str, str] = {}
    for key, raw in by_key.items():
        other = raw.get("pair")
        if other is None:
            continue
        if other not in by_key:
            raise _fail(path, f"card {key!r}: pair {other!r} points to no card in this deck")
        if other == key:
            raise _fail(path, f"card {key!r}: a card cannot pair with itself")
        for a, b in ((key, other), (other, key)):
            if pair_of.get(a, b) != b:
                raise _fail(path, f"card {a!r} is paired with both {pair_of[a]!r} and {b!r}")
            pair_of[a] = b

    for kid, kind in kinds.items():
        have = sum(1 for r in by_key.values() if r["kind"] == kid)
        if have != kind.count:
            raise _fail(path, f"wrong count for kind {kid!r}: [kinds.{kid}] says {kind.count}, the file has {have}")

    names = {key: raw["name"].strip() for key, raw in by_key.items()}
    if overrides is not None and Path(overrides).exists():
        names.update(_read_overrides(Path(overrides), deck_id, names))

    def full(key: str) -> str:
        return f"{deck_id}.{by_key[key]['kind']}.{key}"

    cards = {
        full(key): Card(
            id=full(key), deck=deck_id, kind=raw["kind"], key=key, name=names[key],
            pair=full(pair_of[key]) if key in pair_of else None,
            role=raw.get("role"), verified=bool(raw.get("verified", True)),
            attrs=dict(raw.get("attrs", {})),
        )
        for key, raw in by_key.items()
    }
    return Deck(deck_id, head["game"], head["name"], kinds, cards, path)


def _read_overrides(path: Path, deck_id: str, names: dict[str, str]) -> dict[str, str]:
    """A family's corrections: ``[names]`` maps a card id (short or full) to its name."""
    data = read_toml(path, DeckError)
    table = data.get("names", {})
    if not isinstance(table, dict):
        raise _fail(path, "[names] must be a table of card id = \"name\"")
    out = {}
    for raw_key, name in table.items():
        key = raw_key.split(".")[-1] if raw_key.startswith(deck_id + ".") else raw_key
        if key not in names:
            raise _fail(path, f"[names] {raw_key!r} is not a card of deck {deck_id!r}")
        if not isinstance(name, str) or not name.strip():
            raise _fail(path, f"[names] {raw_key!r} needs a non-empty name")
        out[key] = name.strip()
    return out


def deck_files(folder: Path | None = None) -> list[Path]:
    """Every shipped deck file."""
    return sorted((folder or assets_dir() / "decks").glob("*.toml"))


def load_game_deck(game: str, folder: Path | None = None, overrides_dir: Path | None = None) -> Deck:
    """The deck of a game, with the family's corrections from ``<user dir>/decks/``."""
    for path in deck_files(folder):
        head = read_toml(path, DeckError).get("deck", {})
        if head.get("game") == game:
            over = (overrides_dir or user_dir() / "decks") / path.name
            return load_deck(path, over)
    raise DeckError(f"no deck file for game {game!r} in {folder or assets_dir() / 'decks'}")


def all_card_ids(folder: Path | None = None) -> dict[str, str]:
    """Every card id of every shipped deck -> its game (to tell 'another game's card')."""
    out: dict[str, str] = {}
    for path in deck_files(folder):
        deck = load_deck(path)
        out.update({cid: deck.game for cid in deck.cards})
    return out


def card_names(deck: Deck, ids: Iterable[str]) -> list[str]:
    return [deck.name_of(i) for i in ids]
