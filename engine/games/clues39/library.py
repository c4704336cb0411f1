"""The family's own 39 Clues cards: a library file, its checks, and decks built from it.

No public list of The 39 Clues cards exists and every family's collection differs, so the
family registers each printed card once (its number, name, type, colour, points and whether it
is one-sided or two-sided). The library is a TOML file in the user's folder
(:func:`user_library_path`); its format is documented in ``docs/rules/39-clues.md`` and in the
header :func:`dump_library` writes.

Each physical card has its own stable id (what its tag sticker carries): copy 1 of an entry
with id ``n7`` is ``39-clues.card.n7``, copy 2 is ``39-clues.card.n7-c2``. An entry's id is
written once, when the card is registered, and never changes, even if its number is corrected.

>>> lib = Library("Our cards")
>>> lib = register(lib, 7, "Grace's Agent", "agent", "red", sides=2)
>>> lib = register(lib, 12, "Old Secret", "secret", "black", points=3, copies=2)
>>> [cid for cid, _ in card_ids(lib)]
['39-clues.card.n7', '39-clues.card.n12', '39-clues.card.n12-c2']
>>> register(lib, 7, "Again", "agent", "red")
Traceback (most recent call last):
...
engine.games.clues39.library.LibraryError: Our cards: card number 7 is already registered (Grace's Agent).
"""

from __future__ import annotations

import dataclasses
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping

from ...cards import Card, Deck, Kind
from ...errors import BadInput
from ...paths import assets_dir, read_toml, user_dir

GAME_ID = "39-clues"
DECK_ID = "39-clues"
FORMAT = 1
MIN_CARDS = 44          # the rulebook: "best played with a minimum of 44 cards"
MIN_DECK = 4            # each deck must fill four table spots / a four-card hand at setup

AGENT, LOCATION, SECRET, FOUNDER, MONEY, PRESTIGE, REPLICATOR = (
    "agent", "location", "secret", "founder", "money", "prestige", "replicator")
TYPES = (AGENT, LOCATION, SECRET, FOUNDER, MONEY, PRESTIGE, REPLICATOR)
SCORING = (SECRET, FOUNDER)                      # only these are worth points
COLOURED = (AGENT, LOCATION, SECRET, FOUNDER)    # these must have a colour
BLACK = "black"
ONE, TWO = "one", "two"                          # the table's card backs: one-sided, two-sided

_SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_ENTRY_FIELDS = {"id", "number", "name", "type", "colour", "color", "points", "sides", "copies", "owners"}
_HEAD_FIELDS = {"name", "format", "example"}
MAX_NUMBER = 99999
MAX_COPIES = 20
MAX_NAME = 80
#: a library file larger than this is refused unread (a thousand cards take about 200 kB)
MAX_FILE_BYTES = 2_000_000


class LibraryError(BadInput):
    """A library file or entry that cannot be used; the message names the file and the entry."""

    def __str__(self) -> str:       # the message alone: it already names the file and entry
        return self.message


# --- vocabulary (colours and type names are data: assets/libraries/39-clues-vocabulary.toml) ---
@dataclass(frozen=True)
class Vocabulary:
    """Card type names and the colours a card may have (with whether the rulebook shows them)."""

    type_names: Mapping[str, str]
    colours: Mapping[str, str]          # colour id -> name
    verified: Mapping[str, bool]        # colour id -> named in the rulebook


_VOCAB: dict[str, Vocabulary] = {}


def vocabulary(path: Path | None = None) -> Vocabulary:
    """The shipped vocabulary file (cached)."""
    path = path or assets_dir() / "libraries" / "39-clues-vocabulary.toml"
    key = str(path)
    if key not in _VOCAB:
        raw = read_toml(path, LibraryError)
        types = raw.get("types")
        colours = raw.get("colours")
        if not isinstance(types, dict) or set(types) != set(TYPES):
            raise LibraryError(f"{path}: [types.*] must name exactly: {', '.join(TYPES)}.")
        if not isinstance(colours, dict) or BLACK not in colours:
            raise LibraryError(f"{path}: [colours.*] must list the colours, black included.")
        names, cnames, verified = {}, {}, {}
        for t, v in types.items():
            if not isinstance(v, dict) or not isinstance(v.get("name"), str):
                raise LibraryError(f"{path}: [types.{t}] needs a name.")
            names[t] = v["name"]
        for c, v in colours.items():
            if not _SLUG.match(c) or not isinstance(v, dict) or not isinstance(v.get("name"), str):
                raise LibraryError(f"{path}: [colours.{c}] needs a name.")
            cnames[c] = v["name"]
            verified[c] = bool(v.get("verified", False))
        _VOCAB[key] = Vocabulary(names, cnames, verified)
    return _VOCAB[key]


# --- entries ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Entry:
    """One printed card of the library (``copies`` identical physical cards)."""

    id: str
    number: int
    name: str
    type: str
    colour: str | None = None
    points: int = 0
    sides: int = 1
    copies: int = 1
    owners: tuple[str, ...] = ()        # owner of copy 1, copy 2... ("" = nobody in particular)

    def physical_ids(self) -> list[str]:
        """The short id of every copy: ``n7``, ``n7-c2``, ``n7-c3``..."""
        return [self.id if k == 1 else f"{self.id}-c{k}" for k in range(1, self.copies + 1)]

    def owner_of(self, copy: int) -> str:
        return self.owners[copy - 1] if copy - 1 < len(self.owners) else ""

    def to_card(self, key: str, owner: str = "") -> dict:
        """The JSON form stored in a game's setup options (one physical card)."""
        out: dict[str, Any] = {"id": key, "number": self.number, "name": self.name, "type": self.type,
                               "sides": self.sides}
        if self.colour:
            out["colour"] = self.colour
        if self.points:
            out["points"] = self.points
        if owner:
            out["owner"] = owner
        return out


@dataclass(frozen=True)
class Library:
    """A family's registered cards, in file order."""

    name: str
    entries: tuple[Entry, ...] = ()
    example: bool = False
    source: Path | None = field(default=None, compare=False)

    def entry(self, entry_id: str) -> Entry:
        for e in self.entries:
            if e.id == entry_id:
                return e
        raise LibraryError(f"{self.where}: there is no card with id {entry_id!r}.")

    def by_number(self, number: int) -> Entry | None:
        return next((e for e in self.entries if e.number == number), None)

    @property
    def where(self) -> str:
        return str(self.source) if self.source else self.name

    def physical(self) -> list[tuple[str, Entry, int]]:
        """(short id, entry, copy number) for every physical card, in library order."""
        return [(key, e, k) for e in self.entries for k, key in enumerate(e.physical_ids(), 1)]


def full_id(key: str) -> str:
    """The card id a tag carries: ``39-clues.card.<short id>``."""
    return f"{DECK_ID}.card.{key}"


def short_id(card_id: str) -> str:
    prefix = f"{DECK_ID}.card."
    return card_id[len(prefix):] if card_id.startswith(prefix) else card_id


def check_entry(raw: Mapping[str, Any], where: str, vocab: Vocabulary | None = None) -> Entry:
    """Validate one entry (a dict as in the file); ``LibraryError`` names ``where`` and the fault."""
    vocab = vocab or vocabulary()
    if not isinstance(raw, Mapping):
        raise LibraryError(f"{where}: each card must be a table of fields.")
    unknown = set(raw) - _ENTRY_FIELDS
    if unknown:
        raise LibraryError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}; "
                           f"a card has: number, name, type, colour, points, sides, copies, owners, id.")
    number = raw.get("number")
    if type(number) is not int or not 0 <= number <= MAX_NUMBER:
        raise LibraryError(f"{where}: 'number' must be the whole number printed on the card (got {number!r}).")
    where = f"{where} (number {number})"
    name = raw.get("name")
    if not isinstance(name, str) or not name.strip():
        raise LibraryError(f"{where}: the card needs a 'name'.")
    if _CONTROL.search(name) or len(name.strip()) > MAX_NAME:
        raise LibraryError(f"{where}: the name must be one line of at most {MAX_NAME} letters.")
    kind = raw.get("type")
    if not isinstance(kind, str) or kind.strip().lower() not in TYPES:
        raise LibraryError(f"{where}: unknown type {kind!r}; the types are: "
                           + ", ".join(vocab.type_names[t] for t in TYPES) + ".")
    kind = kind.strip().lower()
    if "colour" in raw and "color" in raw:
        raise LibraryError(f"{where}: give 'colour' once (not both 'colour' and 'color').")
    colour = raw.get("colour", raw.get("color"))
    if colour is not None:
        if not isinstance(colour, str) or colour.strip().lower() not in vocab.colours:
            raise LibraryError(f"{where}: unknown colour {colour!r}; the colours are: "
                               + ", ".join(sorted(vocab.colours)) + ".")
        colour = colour.strip().lower()
    if kind in COLOURED and colour is None:
        raise LibraryError(f"{where}: a {vocab.type_names[kind]} needs a 'colour'.")
    if kind == REPLICATOR and colour is not None:
        raise LibraryError(f"{where}: a Replicator has no colour of its own (it is declared when played).")
    points = raw.get("points", 0)
    if type(points) is not int or not 0 <= points <= 39:
        raise LibraryError(f"{where}: 'points' must be a whole number from 0 to 39 (got {points!r}).")
    if kind in SCORING and points < 1:
        raise LibraryError(f"{where}: a {vocab.type_names[kind]} needs its 'points' (printed at the bottom).")
    if kind not in SCORING and points:
        raise LibraryError(f"{where}: only Secrets and Founders are worth points; "
                           f"a {vocab.type_names[kind]} has none.")
    sides = raw.get("sides", 1)
    if type(sides) is not int or sides not in (1, 2):
        raise LibraryError(f"{where}: 'sides' must be 1 (one-sided) or 2 (two-sided), got {sides!r}.")
    copies = raw.get("copies", 1)
    if type(copies) is not int or not 1 <= copies <= MAX_COPIES:
        raise LibraryError(f"{where}: 'copies' must be a whole number from 1 to {MAX_COPIES}.")
    owners = raw.get("owners", [])
    if (not isinstance(owners, list) or len(owners) > copies
            or not all(isinstance(o, str) and not _CONTROL.search(o) and len(o) <= MAX_NAME for o in owners)):
        raise LibraryError(f"{where}: 'owners' must list at most one name per copy.")
    entry_id = raw.get("id", f"n{number}")
    if not isinstance(entry_id, str) or not _SLUG.match(entry_id) or len(entry_id) > 40:
        raise LibraryError(f"{where}: 'id' must be lower-case letters and digits joined by '-' (got {entry_id!r}).")
    return Entry(entry_id, number, name.strip(), kind, colour, points, sides, copies,
                 tuple(o.strip() for o in owners))


def _check_unique(entries: Iterable[Entry], where: str, lines: Mapping[int, int] | None = None) -> None:
    numbers: dict[int, Entry] = {}
    ids: dict[str, Entry] = {}
    for i, e in enumerate(entries):
        at = f"{where}" + (f", line {lines[i]}" if lines and i in lines else "")
        if e.number in numbers:
            raise LibraryError(f"{at}: card number {e.number} is used twice "
                               f"({numbers[e.number].name} and {e.name}); use 'copies' for identical cards.")
        numbers[e.number] = e
        for key in e.physical_ids():
            if key in ids:
                raise LibraryError(f"{at}: card id {key!r} is used twice ({ids[key].name} and {e.name}).")
            ids[key] = e


def _card_lines(text: str) -> dict[int, int]:
    """Entry index -> line number of its ``[[cards]]`` header (for messages)."""
    heads = [n for n, line in enumerate(text.splitlines(), 1) if re.match(r"^\s*\[\[\s*cards\s*\]\]", line)]
    return dict(enumerate(heads))


def parse_library(text: str, where: str, vocab: Vocabulary | None = None) -> Library:
    """A library from TOML text; ``LibraryError`` names ``where``, the line and the entry."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise LibraryError(f"{where}: not a valid library file (a card library is the text Gumshoe's Export "
                           f"writes; here: {exc}).") from None
    head = data.get("library")
    if not isinstance(head, dict):
        raise LibraryError(f"{where}: the [library] table is missing (it gives the library's name).")
    unknown = set(head) - _HEAD_FIELDS
    if unknown:
        raise LibraryError(f"{where}: [library] has unknown field(s) {', '.join(sorted(unknown))}.")
    name = head.get("name")
    if not isinstance(name, str) or not name.strip() or _CONTROL.search(name):
        raise LibraryError(f"{where}: [library] needs a one-line 'name'.")
    fmt = head.get("format", FORMAT)
    if fmt != FORMAT:
        raise LibraryError(f"{where}: library format {fmt!r} is not known (this app reads format {FORMAT}).")
    example = head.get("example", False)
    if not isinstance(example, bool):
        raise LibraryError(f"{where}: 'example' must be true or false.")
    extra = set(data) - {"library", "cards"}
    if extra:
        raise LibraryError(f"{where}: unknown table(s) {', '.join(sorted(extra))}; cards go in [[cards]].")
    raw_cards = data.get("cards", [])
    if not isinstance(raw_cards, list):
        raise LibraryError(f"{where}: cards must be [[cards]] tables.")
    lines = _card_lines(text) if len(_card_lines(text)) == len(raw_cards) else {}
    entries = []
    for i, raw in enumerate(raw_cards):
        at = f"{where}, line {lines[i]}" if i in lines else f"{where}, card #{i + 1}"
        entries.append(check_entry(raw, at, vocab))
    _check_unique(entries, where, lines)
    return Library(name.strip(), tuple(entries), example)


def load_library(path: str | Path, vocab: Vocabulary | None = None) -> Library:
    """Read and validate a library file."""
    path = Path(path)
    try:
        with path.open("rb") as f:
            data = f.read(MAX_FILE_BYTES + 1)
        if len(data) > MAX_FILE_BYTES:
            raise LibraryError(f"{path}: far too large for a card library (more than {MAX_FILE_BYTES // 1_000_000} MB); "
                               f"is it the file Gumshoe's Export wrote?")
        text = data.decode("utf-8")
    except FileNotFoundError:
        raise LibraryError(f"{path}: file not found.") from None
    except UnicodeDecodeError:
        raise LibraryError(f"{path}: not a text file (it must be UTF-8 text).") from None
    except OSError as exc:
        raise LibraryError(f"{path}: cannot be read ({exc.strerror}).") from None
    return dataclasses.replace(parse_library(text, str(path), vocab), source=path)


def _q(text: str) -> str:
    """A TOML basic string."""
    out = []
    for ch in text:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


HEADER = """\
# The 39 Clues: Double-Cross - a family's card library for Gumshoe (format 1).
# One [[cards]] table per printed card number:
#   number  the number printed on the card (each number once; identical cards: copies = 2...)
#   name    the name printed on the card
#   type    agent, location, secret, founder, money, prestige or replicator
#   colour  red, yellow, blue, black... (Agents, Locations, Secrets, Founders; none on a Replicator)
#   points  Secrets and Founders only: the points printed at the bottom
#   sides   1 = one-sided (the common back), 2 = two-sided (any other back)
#   copies  how many identical cards the family has (default 1); owners = ["Ann", "Bob"] per copy
#   id      written by the app when the card is registered; the tag sticker carries it. Keep it.
"""


def dump_library(lib: Library) -> str:
    """The library as the text of its file (``parse_library`` reads it back identically)."""
    lines = [HEADER, "[library]", f"name = {_q(lib.name)}", f"format = {FORMAT}"]
    if lib.example:
        lines.append("example = true")
    for e in lib.entries:
        lines += ["", "[[cards]]", f"id = {_q(e.id)}", f"number = {e.number}", f"name = {_q(e.name)}",
                  f"type = {_q(e.type)}"]
        if e.colour:
            lines.append(f"colour = {_q(e.colour)}")
        if e.points:
            lines.append(f"points = {e.points}")
        lines.append(f"sides = {e.sides}")
        if e.copies != 1:
            lines.append(f"copies = {e.copies}")
        if e.owners:
            lines.append("owners = [" + ", ".join(_q(o) for o in e.owners) + "]")
    return "\n".join(lines) + "\n"


def save_library(lib: Library, path: str | Path) -> Path:
    """Write the library file (atomically: a crash leaves the old file or the new one)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(dump_library(lib), encoding="utf-8")
    tmp.replace(path)
    return path


def user_library_path() -> Path:
    """Where the family's library lives: ``<Gumshoe folder>/39-clues/library.toml``."""
    return user_dir() / GAME_ID / "library.toml"


def sample_library_path() -> Path:
    return assets_dir() / "libraries" / "39-clues-sample.toml"


def sample_library() -> Library:
    """The shipped example collection (made-up cards, not real card data)."""
    return load_library(sample_library_path())


def user_library() -> Library | None:
    """The family's library, or None before they register any card."""
    path = user_library_path()
    return load_library(path) if path.exists() else None


def export_library(lib: Library, path: str | Path) -> Path:
    """Write the library to a file of the family's choosing (to share or keep a copy)."""
    return save_library(lib, path)


def import_library(path: str | Path, into: Library | None = None) -> Library:
    """Read a library file; with ``into``, add its cards to that library.

    A card number present in both must describe the same card (its copies and owners are
    taken from the imported file); anything else is refused with the entry named.
    """
    incoming = load_library(path)
    if into is None:
        return dataclasses.replace(incoming, example=False)
    entries = list(into.entries)
    for e in incoming.entries:
        old = into.by_number(e.number)
        if old is None:
            entries.append(e)
            continue
        same = (old.name, old.type, old.colour, old.points, old.sides) == (e.name, e.type, e.colour, e.points, e.sides)
        if not same:
            raise LibraryError(f"{path}: card number {e.number} is {e.name} there but {old.name} "
                               f"({old.type}, {old.colour or 'no colour'}) in {into.where}; fix one of them first.")
        entries[entries.index(old)] = dataclasses.replace(old, copies=max(old.copies, e.copies),
                                                          owners=e.owners or old.owners)
    _check_unique(entries, into.where)
    return dataclasses.replace(into, entries=tuple(entries))


# --- the small editing API -------------------------------------------------------------
def register(lib: Library, number: int, name: str, type: str, colour: str | None = None, *,
             points: int = 0, sides: int = 1, copies: int = 1, owners: Iterable[str] = ()) -> Library:
    """The library with one more card (its id is ``n<number>``, or the next free one)."""
    if any(e.number == number for e in lib.entries):
        raise LibraryError(f"{lib.where}: card number {number} is already registered ({lib.by_number(number).name}).")
    taken = {k for e in lib.entries for k in e.physical_ids()}
    entry_id, n = f"n{number}", 2
    while entry_id in taken or any(f"{entry_id}-c{k}" in taken for k in range(1, copies + 1)):
        entry_id, n = f"n{number}-r{n}", n + 1
    raw = {"id": entry_id, "number": number, "name": name, "type": type, "points": points, "sides": sides,
           "copies": copies, "owners": list(owners)}
    if colour is not None:
        raw["colour"] = colour
    entry = check_entry(raw, f"{lib.where}: new card")
    _check_unique([*lib.entries, entry], lib.where)
    return dataclasses.replace(lib, entries=(*lib.entries, entry))


def edit(lib: Library, entry_id: str, **changes: Any) -> Library:
    """The library with one card's fields changed (its id stays: printed tags keep working)."""
    old = lib.entry(entry_id)
    if "id" in changes:
        raise LibraryError(f"{lib.where}: a card's id never changes (its tag sticker carries it).")
    raw: dict[str, Any] = {"id": old.id, "number": old.number, "name": old.name, "type": old.type,
                           "points": old.points, "sides": old.sides, "copies": old.copies,
                           "owners": list(old.owners)}
    if old.colour:
        raw["colour"] = old.colour
    for key, value in changes.items():
        if key == "owners" and value is not None:
            value = list(value)
        if value is None:
            raw.pop(key, None)
        else:
            raw[key] = value
    new = check_entry(raw, f"{lib.where}: card {entry_id}")
    entries = tuple(new if e.id == entry_id else e for e in lib.entries)
    _check_unique(entries, lib.where)
    return dataclasses.replace(lib, entries=entries)


def remove(lib: Library, entry_id: str) -> Library:
    """The library without one card."""
    lib.entry(entry_id)
    return dataclasses.replace(lib, entries=tuple(e for e in lib.entries if e.id != entry_id))


def card_ids(lib: Library) -> list[tuple[str, str]]:
    """(card id, name) of every physical card: what tag stickers are printed for."""
    return [(full_id(key), e.name + (f" (copy {k})" if e.copies > 1 else "")) for key, e, k in lib.physical()]


def tag_cards() -> list[tuple[str, str]]:
    """(card id, name) of every card tags are printed for: the family's library, or the example."""
    return card_ids(user_library() or sample_library())


def game_options(players: Iterable[str], library: Library | None = None) -> dict:
    """Setup options for a new game: the family's collection (or the example) split by owner.

    The result holds every chosen card, so the saved game never depends on the library again.
    """
    return split_by_owner(library or user_library() or sample_library(), list(players)).options()


# --- decks -----------------------------------------------------------------------------
@dataclass(frozen=True)
class DeckCheck:
    """The decks chosen for a game: the setup options, and warnings for the family."""

    decks: Mapping[str, tuple[dict, ...]]      # player -> the JSON form of each of their cards
    warnings: tuple[str, ...] = ()

    def options(self) -> dict:
        """What goes into ``Session.new(..., options)`` (stored with the saved game)."""
        return {"decks": {p: [dict(c) for c in cards] for p, cards in self.decks.items()}}


def build_decks(lib: Library, picks: Mapping[str, Iterable[str]]) -> DeckCheck:
    """Each player's cards from the library (short or full ids), with the rulebook's checks.

    Refused: a card picked twice or by two players, an unknown id, a player without both a
    one-sided and a two-sided deck of at least four cards. Warned: fewer than 44 cards.
    """
    by_key = {key: (e, k) for key, e, k in lib.physical()}
    taken: dict[str, str] = {}
    decks: dict[str, tuple[dict, ...]] = {}
    warnings = []
    for player, ids in picks.items():
        cards = []
        for cid in ids:
            key = short_id(str(cid))
            if key not in by_key:
                raise LibraryError(f"{player}'s deck: {cid!r} is not a card of {lib.where}.")
            if key in taken:
                who = "twice" if taken[key] == player else f"by both {taken[key]} and {player}"
                raise LibraryError(f"{player}'s deck: {by_key[key][0].name} ({key}) is picked {who}; "
                                   f"each physical card is in one deck.")
            taken[key] = player
            entry, _ = by_key[key]
            cards.append(entry.to_card(key, player))
        decks[player] = tuple(cards)
    for player, cards in decks.items():
        warnings += check_deck(player, cards)
    return DeckCheck(decks, tuple(warnings))


def check_deck(player: str, cards: Iterable[Mapping[str, Any]]) -> list[str]:
    """The rulebook's checks on one player's cards: errors raise, the returned list warns."""
    cards = list(cards)
    ones = sum(1 for c in cards if c.get("sides") == 1)
    twos = len(cards) - ones
    for n, what in ((ones, "one-sided"), (twos, "two-sided")):
        if n < MIN_DECK:
            raise LibraryError(f"{player}'s deck has {n} {what} card{'s' if n != 1 else ''}: "
                               f"at least {MIN_DECK} are needed to set up.")
    if len(cards) < MIN_CARDS:
        return [f"{player} has {len(cards)} cards; the game is best played with at least {MIN_CARDS}."]
    return []


def split_by_owner(lib: Library, players: Iterable[str]) -> DeckCheck:
    """Decks from the family's collection: each copy goes to its owner.

    Copies without an owner are shared out: when every card has a copy for each player,
    player i gets copy i; otherwise the unowned cards are dealt round in library order.
    """
    players = list(players)
    picks: dict[str, list[str]] = {p: [] for p in players}
    loose: list[tuple[str, Entry, int]] = []
    for key, e, k in lib.physical():
        owner = e.owner_of(k)
        if owner:
            if owner in picks:
                picks[owner].append(key)
        else:
            loose.append((key, e, k))
    if loose and all(e.copies >= len(players) for _, e, _ in loose):
        for key, e, k in loose:
            if k <= len(players):
                picks[players[k - 1]].append(key)
    else:
        for i, (key, _, _) in enumerate(loose):
            picks[players[i % len(players)]].append(key)
    return build_decks(lib, picks)


def check_options_decks(raw: Any, players: tuple[str, ...], vocab: Vocabulary | None = None
                        ) -> dict[str, list[Entry]]:
    """Validate ``options["decks"]`` (player -> cards as stored); ``LibraryError`` names the entry."""
    if not isinstance(raw, Mapping):
        raise LibraryError("options 'decks' must map each player to a list of cards.")
    missing = [p for p in players if p not in raw]
    extra = [p for p in raw if p not in players]
    if missing or extra:
        raise LibraryError("options 'decks' must give exactly one deck per player"
                           + (f"; missing: {', '.join(missing)}" if missing else "")
                           + (f"; not playing: {', '.join(map(str, extra))}" if extra else "") + ".")
    out: dict[str, list[Entry]] = {}
    seen: dict[str, str] = {}
    for p in players:
        cards = raw[p]
        if not isinstance(cards, list):
            raise LibraryError(f"{p}'s deck must be a list of cards.")
        entries = []
        for i, c in enumerate(cards):
            where = f"{p}'s deck, card #{i + 1}"
            if not isinstance(c, Mapping):
                raise LibraryError(f"{where}: must be a table of fields.")
            fields = {k: v for k, v in c.items() if k != "owner"}
            entry = check_entry(fields, where, vocab)
            if entry.copies != 1 or entry.owners:
                raise LibraryError(f"{where}: a deck lists single physical cards (no copies or owners).")
            if entry.id in seen:
                raise LibraryError(f"{where}: card id {entry.id!r} is in the game twice "
                                   f"({seen[entry.id]}'s deck and {p}'s).")
            seen[entry.id] = p
            entries.append(entry)
        check_deck(p, [{"sides": e.sides} for e in entries])
        out[p] = entries
    return out


def game_deck(decks: Mapping[str, list[Entry]]) -> tuple[Deck, dict[str, str]]:
    """The engine :class:`Deck` of one game (every player's cards) and card id -> owner.

    A card's kind is its back: ``one`` (one-sided) or ``two`` (two-sided). Its attributes
    carry number, type, colour and points.
    """
    cards: dict[str, Card] = {}
    owner: dict[str, str] = {}
    for p, entries in decks.items():
        for e in entries:
            cid = full_id(e.id)
            kind = ONE if e.sides == 1 else TWO
            cards[cid] = Card(cid, DECK_ID, kind, e.id, e.name, verified=True,
                              attrs={"number": e.number, "name": e.name, "type": e.type, "colour": e.colour,
                                     "points": e.points, "owner": p})
            owner[cid] = p
    counts = {ONE: sum(1 for c in cards.values() if c.kind == ONE)}
    counts[TWO] = len(cards) - counts[ONE]
    kinds = {ONE: Kind(ONE, "One-sided card", "One-sided cards", counts[ONE]),
             TWO: Kind(TWO, "Two-sided card", "Two-sided cards", counts[TWO])}
    return Deck(DECK_ID, GAME_ID, "The 39 Clues: Double-Cross cards", kinds, cards), owner
