"""Just enough of the deck files for tagging: card ids, names and the game they belong to.

vision never imports `engine`; it reads the same TOML files (`assets/decks/*.toml`) itself,
and only the card id crosses over to the engine (in `desktop`).

>>> deck = load_deck("carmen")
>>> deck.cards[0].card_id
'carmen.location.arizona'
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

ASSETS_DIR = Path(__file__).resolve().parent.parent / "assets"
DECKS_DIR = ASSETS_DIR / "decks"


class DeckError(ValueError):
    """A deck could not be found or its file is not a valid deck."""


@dataclass(frozen=True)
class DeckCard:
    """One card identity: `card_id` is "<deck>.<kind>.<id>", e.g. "carmen.loot.gandhis-glasses"."""

    card_id: str
    deck_id: str
    game: str
    kind: str
    name: str


@dataclass(frozen=True)
class Deck:
    deck_id: str
    game: str
    name: str
    path: Path
    cards: tuple[DeckCard, ...]


def read_toml(path: Path, error: type[Exception], missing: str) -> dict:
    """A TOML data file as a dict; ``error`` with ``missing`` (or the parse problem) otherwise."""
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise error(missing) from None
    except tomllib.TOMLDecodeError as exc:
        raise error(f"{path.name} is not valid TOML: {exc}") from None


def load_deck_file(path: Path | str) -> Deck:
    """Read one deck TOML file ([deck] id/game/name, [[cards]] kind/id/name)."""
    path = Path(path)
    data = read_toml(path, DeckError, f"deck file not found: {path}")
    header = data.get("deck")
    if not isinstance(header, dict) or not header.get("id") or not header.get("game"):
        raise DeckError(f"{path.name} has no [deck] table with id and game")
    deck_id, game = str(header["id"]), str(header["game"])
    cards: list[DeckCard] = []
    seen: set[str] = set()
    for entry in data.get("cards", []):
        try:
            kind, local_id, name = str(entry["kind"]), str(entry["id"]), str(entry["name"])
        except KeyError as exc:
            raise DeckError(f"{path.name}: a [[cards]] entry lacks {exc}") from None
        card_id = f"{deck_id}.{kind}.{local_id}"
        if card_id in seen:
            raise DeckError(f"{path.name}: card {card_id} is listed twice")
        seen.add(card_id)
        cards.append(DeckCard(card_id, deck_id, game, kind, name))
    return Deck(deck_id, game, str(header.get("name", deck_id)), path, tuple(cards))


def load_all_decks(decks_dir: Path | str = DECKS_DIR) -> list[Deck]:
    """Every deck in a folder, sorted by file name so the order is the same on every machine."""
    decks = [load_deck_file(p) for p in sorted(Path(decks_dir).glob("*.toml"))]
    ids = [d.deck_id for d in decks]
    duplicates = {i for i in ids if ids.count(i) > 1}
    if duplicates:
        raise DeckError(f"deck id used by more than one file: {', '.join(sorted(duplicates))}")
    return decks


def load_deck(deck: str | Path, decks_dir: Path | str = DECKS_DIR) -> Deck:
    """A deck by id ("carmen"), game name ("carmen-cards") or file path."""
    as_path = Path(deck)
    if as_path.suffix == ".toml" or as_path.exists():
        return load_deck_file(as_path)
    for candidate in load_all_decks(decks_dir):
        if str(deck) in (candidate.deck_id, candidate.game):
            return candidate
    known = ", ".join(d.deck_id for d in load_all_decks(decks_dir)) or "none"
    raise DeckError(f"no deck called {deck!r} (known decks: {known})")
