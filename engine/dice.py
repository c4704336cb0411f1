"""Dice as data: which symbol each face shows; and dice pools for games that draft dice.

Chance is never invented here: a roll is an input (die reader, on-screen roll or
"I rolled ..." button), so these classes only describe and record dice.

>>> die = load_die("carmen")
>>> die.shows(4)
'loot'
>>> die.face_showing("henchman")
3
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

from .cards import read_data_file
from .paths import assets_dir


class DieError(ValueError):
    """A die file that cannot be used, or a face the die does not have."""


@dataclass(frozen=True, slots=True)
class DieSpec:
    id: str
    name: str
    faces: tuple[tuple[int, str], ...]     # (face number, symbol)

    def shows(self, face: int) -> str:
        """The symbol on a face; ``DieError`` for a face the die does not have."""
        for number, symbol in self.faces:
            if number == face:
                return symbol
        raise DieError(f"the {self.name} has no face {face!r} (faces are 1-{len(self.faces)})")

    def face_showing(self, symbol: str) -> int:
        """The first face showing a symbol (for 'I rolled Loot' buttons)."""
        for number, shown in self.faces:
            if shown == symbol:
                return number
        raise DieError(f"no face of the {self.name} shows {symbol!r}")

    @property
    def symbols(self) -> list[str]:
        return list(dict.fromkeys(s for _, s in self.faces))


_LOADED: dict[tuple, DieSpec] = {}


def load_die(die_id: str, folder: Path | None = None) -> DieSpec:
    """Load ``assets/dice/<die_id>-die.toml`` (read again only when the file changed)."""
    path = (folder or assets_dir() / "dice") / f"{die_id}-die.toml"
    try:
        st = path.stat()
        key: tuple | None = (path, die_id, st.st_mtime_ns, st.st_size, st.st_ino)
    except OSError:
        key = None
    if key is not None and key in _LOADED:
        return _LOADED[key]
    spec = _load_die(path, die_id)
    if key is not None:
        if len(_LOADED) > 32:
            _LOADED.clear()
        _LOADED[key] = spec
    return spec


def _load_die(path: Path, die_id: str) -> DieSpec:
    data = read_data_file(path, DieError)
    raw_faces = data.get("faces", [])
    if not isinstance(raw_faces, list):
        raise DieError(f"{path}: 'faces' must be [[faces]] tables")
    faces = []
    for n, raw in enumerate(raw_faces, 1):
        if not isinstance(raw, dict):
            raise DieError(f"{path}: face #{n} must be a table with 'face' and 'shows'")
        face, shows = raw.get("face"), raw.get("shows")
        if type(face) is not int or not isinstance(shows, str) or not shows.strip():
            raise DieError(f"{path}: face #{n} needs 'face' (a number) and 'shows' (a symbol)")
        if any(face == f for f, _ in faces):
            raise DieError(f"{path}: face {face} is listed twice")
        faces.append((face, shows))
    if not faces:
        raise DieError(f"{path}: no [[faces]]")
    head = data.get("die", {})
    if not isinstance(head, dict) or not isinstance(head.get("id", ""), str) \
            or not isinstance(head.get("name", ""), str):
        raise DieError(f"{path}: [die] must be a table with a text 'id' and 'name'")
    return DieSpec(head.get("id", die_id), head.get("name", f"{die_id} die"), tuple(faces))


@dataclass(frozen=True, slots=True)
class PoolDie:
    """One die of a shared pool (e.g. Sudds & Malone): colour, owner, last value, taker."""

    color: str
    owner: str | None = None       # a personal die only its owner may take
    value: int | None = None
    taken_by: str | None = None


@dataclass(frozen=True)
class DicePool:
    """A pool of dice that is rolled together and then drafted one die at a time.

    >>> pool = DicePool((PoolDie("white"), PoolDie("black", owner="Ann")))
    >>> pool = pool.rolled([3, 6])
    >>> pool.take(0, "Bob").dice[0].taken_by
    'Bob'
    """

    dice: tuple[PoolDie, ...] = field(default_factory=tuple)

    def rolled(self, values: list[int]) -> "DicePool":
        """Every die rolled (values come from outside: chance is an input); all back in the pool."""
        if len(values) != len(self.dice):
            raise DieError(f"{len(self.dice)} dice were rolled but {len(values)} values were given")
        return DicePool(tuple(replace(d, value=v, taken_by=None) for d, v in zip(self.dice, values)))

    def available(self, player: str) -> list[int]:
        """Indexes of dice this player may take now."""
        return [i for i, d in enumerate(self.dice) if d.taken_by is None and d.owner in (None, player)]

    def take(self, index: int, player: str) -> "DicePool":
        if index not in self.available(player):
            raise DieError(f"{player} cannot take die #{index}")
        dice = list(self.dice)
        dice[index] = replace(dice[index], taken_by=player)
        return DicePool(tuple(dice))
