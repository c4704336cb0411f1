"""The Bonnie and Clyde board: ten locations as data (``assets/boards/bonnie-clyde.toml``).

A family corrects a name without touching the shipped file: ``[names]`` in
``<user dir>/boards/bonnie-clyde.toml`` maps a location number (as text) to its name.

>>> board = load_board()
>>> board.name(1), board.name(10), len(board.locations)
('Kaufman, Texas', 'Gibson, Louisiana', 10)
>>> board.location(9).verified, board.location(4).verified
(True, False)
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ...cards import DeckError
from ...paths import assets_dir, read_toml, user_dir

FILE = "bonnie-clyde.toml"
SIZE = 10


class BoardError(DeckError):
    """A board file that cannot be used; the message names the file and the bad entry."""


@dataclass(frozen=True)
class Location:
    """One place on the board: its number (1-10, the car's bonus), a stable id and its name."""

    number: int
    id: str
    name: str
    verified: bool


@dataclass(frozen=True)
class Board:
    locations: tuple[Location, ...]       # numbers 1..10, in order
    source: Path | None = None

    def location(self, number: int) -> Location:
        return self.locations[number - 1]

    def name(self, number: int) -> str:
        return self.locations[number - 1].name

    @property
    def numbers(self) -> range:
        return range(1, len(self.locations) + 1)


def load_board(path: Path | None = None, overrides: Path | None = None) -> Board:
    """Read and check the board file; apply the family's name corrections if that file exists."""
    path = path or assets_dir() / "boards" / FILE
    data = read_toml(path, BoardError)
    raw = data.get("locations")
    if not isinstance(raw, list) or len(raw) != SIZE:
        raise BoardError(f"{path}: needs exactly {SIZE} [[locations]] entries")
    locs = []
    for want, entry in enumerate(raw, 1):
        if not isinstance(entry, dict):
            raise BoardError(f"{path}: location #{want} is not a table")
        if entry.get("number") != want:
            raise BoardError(f"{path}: location #{want} must have number = {want} (the board runs 1 to {SIZE})")
        name, ident = entry.get("name"), entry.get("id")
        if not isinstance(name, str) or not name.strip() or not isinstance(ident, str) or not ident:
            raise BoardError(f"{path}: location {want} needs an 'id' and a 'name'")
        verified = entry.get("verified", False)
        if not isinstance(verified, bool):
            raise BoardError(f"{path}: location {want}: 'verified' must be true or false")
        locs.append(Location(want, ident, name.strip(), verified))
    over = overrides if overrides is not None else user_dir() / "boards" / FILE
    if over.exists():
        names = read_toml(over, BoardError).get("names", {})
        if not isinstance(names, dict):
            raise BoardError(f"{over}: [names] must be a table of number = \"name\"")
        for key, name in names.items():
            if not str(key).isdigit() or not 1 <= int(key) <= SIZE:
                raise BoardError(f"{over}: [names] {key!r} is not a location number 1-{SIZE}")
            if not isinstance(name, str) or not name.strip():
                raise BoardError(f"{over}: [names] {key!r} needs a non-empty name")
            old = locs[int(key) - 1]
            locs[int(key) - 1] = Location(old.number, old.id, name.strip(), True)
    return Board(tuple(locs), path)
