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
import tomllib
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Iterable, Literal, Mapping

from .names import card_name_problem
from .paths import assets_dir, user_dir

_SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_CARD_FIELDS = {"kind", "id", "name", "pair", "role", "verified", "note", "attrs"}


class DeckError(ValueError):
    """A deck file that cannot be used; the message names the file and the bad entry
    (and its line, where the file says it)."""

    def __init__(self, message: str, path: Path | None = None, line: int | None = None) -> None:
        super().__init__(message)
        self.path = path
        self.line = line


# A data file bigger than this is not a deck or a family's corrections.
MAX_DATA_FILE_BYTES = 2_000_000


def read_data_file(path: Path, error: type[Exception] = DeckError) -> dict:
    """A TOML data file as a dict, or ``error`` naming the file (and line) for anything wrong:
    missing, unreadable, not UTF-8 (a file saved by Notepad as Windows-1252), not TOML,
    nested too deeply, too big.

    >>> read_data_file(Path("no/such/file.toml"))
    Traceback (most recent call last):
    ...
    engine.cards.DeckError: no/such/file.toml: file not found
    """
    def fail(what: str, line: int | None = None) -> Exception:
        where = f"{path}, line {line}" if line else f"{path}"
        return error(f"{where}: {what}", path, line) if error is DeckError else error(f"{where}: {what}")

    try:
        with open(path, "rb") as fh:
            data = fh.read(MAX_DATA_FILE_BYTES + 1)
    except FileNotFoundError:
        raise fail("file not found") from None
    except IsADirectoryError:
        raise fail("is a folder, not a file") from None
    except OSError as exc:
        raise fail(f"cannot be read ({exc.strerror or exc})") from None
    if len(data) > MAX_DATA_FILE_BYTES:
        raise fail(f"the file is too big (more than {MAX_DATA_FILE_BYTES:,} bytes)")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise fail(f"is not saved as UTF-8 text (byte 0x{data[exc.start]:02x} at column {column}); "
                   "save it again choosing the UTF-8 encoding", line) from None
    text = text.removeprefix("\ufeff")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"at line (\d+)", str(exc))
        raise fail(f"not valid TOML ({exc})", int(m.group(1)) if m else None) from None
    except RecursionError:
        raise fail("not usable TOML: tables or lists are nested too deeply") from None
    except (ValueError, MemoryError) as exc:
        raise fail(f"not usable TOML ({str(exc)[:120]})") from None


def read_toml(path: Path, error: type[Exception]) -> dict:
    return read_data_file(Path(path), error)


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
    note: str | None = field(default=None, compare=False, hash=False)


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
    #: problems that did not stop the deck from loading, in plain words (a family's
    #: corrections file that was ignored, with its file and line): show them on screen
    warnings: tuple[str, ...] = ()

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

    def copies(self, card_id: str) -> tuple[str, ...]:
        """Every card of this deck that is the same card for the rules as ``card_id`` (itself
        included, in file order): same type, name, pair, role and printed values. A box may hold
        one card several times (six identical Joplin Evidence cards): each copy has its own id
        and tag, so a camera tells them apart, but any copy does what the others do.

        >>> deck = load_game_deck("bonnie-clyde")
        >>> len(deck.copies("bonnie-clyde.hinton.ted-hinton-01"))
        15
        >>> deck.copies("bonnie-clyde.outlaw.bonnie-parker")
        ('bonnie-clyde.outlaw.bonnie-parker',)
        """
        return self._copies[_alike(self.cards[card_id])]

    @cached_property
    def _copies(self) -> dict[tuple, tuple[str, ...]]:
        out: dict[tuple, list[str]] = {}
        for c in self.cards.values():
            out.setdefault(_alike(c), []).append(c.id)
        return {k: tuple(v) for k, v in out.items()}

    def with_role(self, role: str) -> Card:
        """The single card carrying a game role (``DeckError`` if none or several)."""
        found = [c for c in self.cards.values() if c.role == role]
        if len(found) != 1:
            raise DeckError(f"{self.source}: expected exactly one card with role {role!r}, found {len(found)}")
        return found[0]

    def name_of(self, card_id: str) -> str:
        return self.cards[card_id].name


def _alike(card: Card) -> tuple:
    """What makes two cards the same card for the rules (their ids and notes aside)."""
    return (card.kind, card.name, card.pair, card.role, tuple(sorted((k, repr(v)) for k, v in card.attrs.items())))


def _fail(path: Path, what: str, line: int | None = None) -> DeckError:
    return DeckError(f"{path}, line {line}: {what}" if line else f"{path}: {what}", path, line)


def _line_of(path: Path, *needles: str) -> int | None:
    """The first line of a (readable) file holding all of ``needles``, for error messages."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeError):
        return None
    for n, line in enumerate(lines, 1):
        if all(needle in line for needle in needles):
            return n
    return None


def _text_field(value: object) -> bool:
    return isinstance(value, str) and bool(value.strip())


OverrideErrors = Literal["raise", "warn"]


def load_deck(path: str | Path, overrides: str | Path | None = None,
              on_override_error: OverrideErrors = "raise") -> Deck:
    """Load and validate a deck file; apply the family's name corrections if given.

    Errors name the file, the bad entry and its line where it can be found: a duplicate
    id, a pair pointing nowhere, a kind whose card count is wrong, an unknown field, a
    value of the wrong type (``verified = "no"``, ``attrs = 5``), a name with control
    characters. A broken corrections file raises too, unless ``on_override_error="warn"``:
    then the shipped names are used and the problem is in :attr:`Deck.warnings`.
    """
    path = Path(path)
    data = read_data_file(path)
    head = data.get("deck")
    if not isinstance(head, dict):
        raise _fail(path, "missing the [deck] table")
    for key in ("id", "game", "name"):
        if not isinstance(head.get(key), str) or not head[key]:
            raise _fail(path, f"[deck] needs a text field {key!r}", _line_of(path, key))
    deck_id = head["id"]
    if not _SLUG.match(deck_id):
        raise _fail(path, f"deck id {deck_id!r} must be lower-case words joined by '-'", _line_of(path, "id"))

    kinds: dict[str, Kind] = {}
    raw_kinds = data.get("kinds") or {}
    if not isinstance(raw_kinds, dict):
        raise _fail(path, "'kinds' must be tables like [kinds.loot]", _line_of(path, "kinds"))
    for kid, kd in raw_kinds.items():
        if not _SLUG.match(kid) or not isinstance(kd, dict):
            raise _fail(path, f"bad kind {kid!r}", _line_of(path, f"kinds.{kid}"))
        at = _line_of(path, f"[kinds.{kid}]")
        count = kd.get("count")
        if type(count) is not int or count < 0:
            raise _fail(path, f"kind {kid!r} needs a whole-number 'count'", at)
        name = kd.get("name", kid)
        plural = kd.get("plural", name + "s" if isinstance(name, str) else None)
        for label, value in (("name", name), ("plural", plural)):
            if not _text_field(value):
                raise _fail(path, f"kind {kid!r}: '{label}' must be a text (got {value!r})", at)
            problem = card_name_problem(value)
            if problem:
                raise _fail(path, f"kind {kid!r}: '{label}' cannot be used: {problem}", at)
        kinds[kid] = Kind(kid, name.strip(), plural.strip(), count)
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
        key = raw.get("id")
        at = _line_of(path, "id", f'"{key}"') if isinstance(key, str) else None
        unknown = set(raw) - _CARD_FIELDS
        if unknown:
            raise _fail(path, f"{where} ({key if isinstance(key, str) else '?'}): unknown field(s) "
                              f"{', '.join(sorted(unknown))}", at)
        if not isinstance(key, str) or not _SLUG.match(key):
            raise _fail(path, f"{where}: 'id' must be lower-case words joined by '-' (got {key!r})", at)
        where = f"card {key!r}"
        if key in by_key:
            raise _fail(path, f"duplicate id {key!r}", at)
        kind = raw.get("kind")
        if not isinstance(kind, str) or kind not in kinds:
            raise _fail(path, f"{where}: kind {kind!r} is not one of {', '.join(kinds)}", at)
        if not _text_field(raw.get("name")):
            raise _fail(path, f"{where}: needs a 'name' (a text)", at)
        problem = card_name_problem(raw["name"])
        if problem:
            raise _fail(path, f"{where}: its name cannot be used: {problem}", at)
        for fname, ok, want in (("pair", isinstance(raw.get("pair", ""), str), "the id of another card"),
                                ("role", isinstance(raw.get("role", ""), str), "a text"),
                                ("note", isinstance(raw.get("note", ""), str), "a text"),
                                ("verified", isinstance(raw.get("verified", True), bool), "true or false"),
                                ("attrs", isinstance(raw.get("attrs", {}), dict), "a table like { location = 3 }")):
            if not ok:
                raise _fail(path, f"{where}: '{fname}' must be {want} (got {raw[fname]!r})", at)
        by_key[key] = raw

    # Pairs are symmetric: one side names the other; both sides may, if they agree.
    pair_of: dict[str, str] = {}
    for key, raw in by_key.items():
        other = raw.get("pair")
        if other is None:
            continue
        if other not in by_key:
            raise _fail(path, f"card {key!r}: pair {other!r} points to no card in this deck",
                        _line_of(path, "pair", f'"{other}"'))
        if other == key:
            raise _fail(path, f"card {key!r}: a card cannot pair with itself", _line_of(path, "pair", f'"{other}"'))
        for a, b in ((key, other), (other, key)):
            if pair_of.get(a, b) != b:
                raise _fail(path, f"card {a!r} is paired with both {pair_of[a]!r} and {b!r}")
            pair_of[a] = b

    for kid, kind in kinds.items():
        have = sum(1 for r in by_key.values() if r["kind"] == kid)
        if have != kind.count:
            raise _fail(path, f"wrong count for kind {kid!r}: [kinds.{kid}] says {kind.count}, the file has {have}",
                        _line_of(path, f"[kinds.{kid}]"))

    names = {key: raw["name"].strip() for key, raw in by_key.items()}
    full_ids = {f"{deck_id}.{raw['kind']}.{key}": key for key, raw in by_key.items()}
    warnings: tuple[str, ...] = ()
    if overrides is not None and Path(overrides).exists():
        try:
            names.update(_read_overrides(Path(overrides), deck_id, names, full_ids))
        except DeckError as exc:
            if on_override_error == "raise":
                raise
            warnings = (f"Your name corrections were not used, so the cards keep their shipped names: {exc}",)

    def full(key: str) -> str:
        return f"{deck_id}.{by_key[key]['kind']}.{key}"

    cards = {
        full(key): Card(
            id=full(key), deck=deck_id, kind=raw["kind"], key=key, name=names[key],
            pair=full(pair_of[key]) if key in pair_of else None,
            role=raw.get("role"), verified=raw.get("verified", True),
            attrs=dict(raw.get("attrs", {})), note=raw.get("note"),
        )
        for key, raw in by_key.items()
    }
    return Deck(deck_id, head["game"], head["name"], kinds, cards, path, warnings)


def _read_overrides(path: Path, deck_id: str, names: dict[str, str], full_ids: dict[str, str]) -> dict[str, str]:
    """A family's corrections: ``[names]`` maps a card id (short, or the full id exactly as on
    its tag) to its name. All or nothing: one bad entry and none is used."""
    data = read_data_file(path)
    unknown = set(data) - {"names"}
    if unknown:
        first = sorted(unknown)[0]
        raise _fail(path, f"unknown table or key {first!r}: a corrections file holds only [names]",
                    _line_of(path, first))
    table = data.get("names", {})
    if not isinstance(table, dict):
        raise _fail(path, "[names] must be a table of card id = \"name\"", _line_of(path, "names"))
    out = {}
    for raw_key, name in table.items():
        at = _line_of(path, raw_key)
        if raw_key in full_ids:
            key = full_ids[raw_key]
        elif raw_key in names and "." not in raw_key:
            key = raw_key
        else:
            hint = ""
            if raw_key.count(".") == 2 and raw_key.split(".")[2] in names:
                right = next(f for f, k in full_ids.items() if k == raw_key.split(".")[2])
                hint = f" (did you mean {right!r}?)"
            raise _fail(path, f"[names] {raw_key!r} is not a card of deck {deck_id!r}{hint}", at)
        if not isinstance(name, str) or not name.strip():
            raise _fail(path, f"[names] {raw_key!r} needs a non-empty name in quotes", at)
        problem = card_name_problem(name)
        if problem:
            raise _fail(path, f"[names] {raw_key!r}: the name cannot be used: {problem}", at)
        out[key] = name.strip()
    return out


def deck_files(folder: Path | None = None) -> list[Path]:
    """Every shipped deck file."""
    return sorted((folder or assets_dir() / "decks").glob("*.toml"))


def load_game_deck(game: str, folder: Path | None = None, overrides_dir: Path | None = None,
                   on_override_error: OverrideErrors = "warn") -> Deck:
    """The deck of a game, with the family's corrections from ``<user dir>/decks/``.

    A broken corrections file never stops a game: by default (``"warn"``) the shipped names
    are used and the problem, naming the file and line, is in :attr:`Deck.warnings` for the
    screen to show. ``on_override_error="raise"`` raises it as a :class:`DeckError`
    instead (to check a file the family just edited).
    """
    for path in deck_files(folder):
        if _game_of(path) == game:
            over = (overrides_dir or user_dir() / "decks") / path.name
            key = (path, _stamp(path), over, _stamp(over), on_override_error)
            deck = _LOADED.get(key)
            if deck is None:
                deck = load_deck(path, over, on_override_error)
                if len(_LOADED) > 64:
                    _LOADED.clear()
                _LOADED[key] = deck
            return deck
    raise DeckError(f"no deck file for game {game!r} in {folder or assets_dir() / 'decks'}")


# Loaded decks and deck files' games, keyed by the files' size and modification time: a game
# is set up many times (resume list, replays, undo) and a deck is immutable once loaded, but a
# family's edited corrections file is read again.
_LOADED: dict[tuple, Deck] = {}
_GAME_OF: dict[tuple, object] = {}


def _stamp(path: Path) -> tuple[int, int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size, st.st_ino)


def _game_of(path: Path) -> object:
    key = (path, _stamp(path))
    if key not in _GAME_OF:
        head = read_data_file(path).get("deck", {})
        _GAME_OF[key] = head.get("game") if isinstance(head, dict) else None
    return _GAME_OF[key]


def check_overrides(game: str, folder: Path | None = None, overrides_dir: Path | None = None) -> str | None:
    """The problem with a game's corrections file in plain words (file and line), or None."""
    try:
        load_game_deck(game, folder, overrides_dir, on_override_error="raise")
    except DeckError as exc:
        return str(exc)
    return None


def all_card_ids(folder: Path | None = None) -> dict[str, str]:
    """Every card id of every shipped deck -> its game (to tell 'another game's card')."""
    out: dict[str, str] = {}
    for path in deck_files(folder):
        deck = load_deck(path)
        out.update({cid: deck.game for cid in deck.cards})
    return out


def card_names(deck: Deck, ids: Iterable[str]) -> list[str]:
    return [deck.name_of(i) for i in ids]
