"""Where the city map draws each location (``assets/boards/sudds-malone-city.toml``).

Only the drawing is here: which locations touch comes from the box (the family's answers
included), so the roads on the map are always the moves the rules allow.

>>> city = load_city()
>>> sorted(city.spots) == sorted(["brooklyn", "flatbush", "queens", "east-side", "bensonhurst", "midtown",
...                               "downtown", "staten-island"])
True
>>> city.spots["midtown"]
(0.0, 0.1)
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from engine.paths import assets_dir, read_toml

FILE = "sudds-malone-city.toml"


class CityError(ValueError):
    """A city map file that cannot be used; the message names the file and the bad entry."""


@dataclass(frozen=True)
class City:
    #: location id -> (x, y), each from 0 to 1 across the map
    spots: dict[str, tuple[float, float]]
    #: land shapes: (name, corners)
    land: tuple[tuple[str, tuple[tuple[float, float], ...]], ...]

    def check(self, locations: Iterable[str], path: Path | str = FILE) -> None:
        """Every location of the box has a place on the map."""
        missing = [loc for loc in locations if loc not in self.spots]
        if missing:
            raise CityError(f"{path}: no place on the map for {', '.join(missing)}")


def _unit(value, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
        raise CityError(f"{where} must be a number from 0 to 1, not {value!r}")
    return float(value)


def load_city(path: Path | None = None) -> City:
    path = path or assets_dir() / "boards" / FILE
    data = read_toml(path, CityError)
    spots: dict[str, tuple[float, float]] = {}
    for i, raw in enumerate(data.get("locations", []), 1):
        where = f"{path}: location {i}"
        lid = raw.get("id") if isinstance(raw, dict) else None
        if not isinstance(lid, str) or not lid or lid in spots:
            raise CityError(f"{where} needs an 'id' of its own")
        spots[lid] = (_unit(raw.get("x"), f"{where} ({lid}): x"), _unit(raw.get("y"), f"{where} ({lid}): y"))
    land = []
    for i, raw in enumerate(data.get("land", []), 1):
        where = f"{path}: land {i}"
        points = raw.get("points") if isinstance(raw, dict) else None
        if not isinstance(points, list) or len(points) < 3 or not all(
                isinstance(p, list) and len(p) == 2 for p in points):
            raise CityError(f"{where} needs 'points': at least 3 corners, each [x, y]")
        land.append((str(raw.get("name", "")), tuple((_unit(x, f"{where}: x"), _unit(y, f"{where}: y"))
                                                      for x, y in points)))
    if not spots:
        raise CityError(f"{path}: no [[locations]]")
    return City(spots, tuple(land))
