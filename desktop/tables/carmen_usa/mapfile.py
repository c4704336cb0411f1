"""Where in the USA is Carmen Sandiego: where the drawn map puts things (``assets/boards/carmen-usa-map.toml``).

The map is our own drawing: a grid of tiles over the outline of the country, each landmark on the
tile nearest to where it lies, the question pile and the question card on tiles of their own, and
the screen colour of each Clue Card colour (``[colours]``: the colour word is always written too).
"""

from __future__ import annotations

from dataclasses import dataclass, field
import re
from pathlib import Path
from typing import Iterable, Mapping

from engine.paths import assets_dir, read_toml

MAP_FILE = Path("boards") / "carmen-usa-map.toml"


class MapDataError(ValueError):
    """The map layout file is malformed (the message names the file)."""


@dataclass(frozen=True)
class MapLayout:
    """Where the map puts things, in tiles of a grid ``columns`` x ``rows`` (from the top left)."""

    columns: int
    rows: int
    frame: tuple[float, float, float, float]          # west, east, north, south of the outline
    tiles: Mapping[str, tuple[float, float]]          # landmark -> (column, row)
    insets: tuple[str, ...]                           # landmarks boxed apart from the outline
    pile: tuple[float, float, float, float]           # the question pile: column, row, width, height
    card: tuple[float, float, float, float]           # the question card while a question is read
    labels: Mapping[str, tuple[str, str]]             # landmark -> (the name it shortens, the label)
    outline: tuple[tuple[float, float], ...]          # (longitude, latitude) of the 48 states' outline
    colours: Mapping[str, str] = field(default_factory=dict)   # a Clue Card colour word -> its screen colour

    def label(self, landmark: str, name: str) -> str:
        """The landmark's words on the map: the shorter label while the name is the one it shortens."""
        shortens, words = self.labels.get(landmark, ("", ""))
        return words if shortens == name else name

    def project(self, lon: float, lat: float) -> tuple[float, float]:
        """Where a longitude and latitude fall on the grid (in tiles, from the top left)."""
        west, east, north, south = self.frame
        return (lon - west) / (east - west) * self.columns, (north - lat) / (north - south) * self.rows


def _box(value, path: Path, what: str) -> tuple[float, float, float, float]:
    if not (isinstance(value, list) and len(value) == 4 and all(isinstance(v, (int, float)) for v in value)):
        raise MapDataError(f"{path}: {what} must be [column, row, columns wide, rows high]")
    return tuple(float(v) for v in value)        # type: ignore[return-value]


def load_map(landmarks: Iterable[str], path: Path | None = None, colours: Iterable[str] = ()) -> MapLayout:
    """The map layout for these landmark ids, checked: every landmark on a tile of its own, inside
    the grid, none under the question pile; a screen colour (#RRGGBB) for every Clue Card colour
    word in ``colours``."""
    path = path or assets_dir() / MAP_FILE
    raw = read_toml(path, MapDataError)
    try:
        columns, rows = int(raw["grid"]["columns"]), int(raw["grid"]["rows"])
        f = raw["frame"]
        frame = (float(f["west"]), float(f["east"]), float(f["north"]), float(f["south"]))
        tiles = {str(k): (float(v[0]), float(v[1])) for k, v in raw["tiles"].items()}
        outline = tuple((float(lon), float(lat)) for lon, lat in raw["outline"]["points"])
        labels = {str(item["landmark"]): (str(item["name"]), str(item["label"])) for item in raw.get("labels", [])}
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise MapDataError(f"{path}: a missing or malformed entry ({exc})") from None
    pile = _box(raw.get("pile", {}).get("at"), path, "[pile] at")
    card = _box(raw.get("card", {}).get("at"), path, "[card] at")
    insets = tuple(str(x) for x in raw.get("insets", {}).get("landmarks", []))
    wanted = set(landmarks)
    if set(tiles) != wanted:
        missing, unknown = sorted(wanted - set(tiles)), sorted(set(tiles) - wanted)
        raise MapDataError(f"{path}: [tiles] must place every landmark once (missing: {', '.join(missing) or 'none'};"
                           f" not a landmark: {', '.join(unknown) or 'none'})")
    spots = list(tiles.items()) + [("the question pile", (pile[0], pile[1]))]
    for i, (a, (ca, ra)) in enumerate(spots):
        wide, high = (pile[2], pile[3]) if a == "the question pile" else (1.0, 1.0)
        if not (0 <= ca and ca + wide <= columns and 0 <= ra and ra + high <= rows):
            raise MapDataError(f"{path}: {a} lies off the {columns} x {rows} grid")
        for b, (cb, rb) in spots[i + 1:]:
            bw, bh = (pile[2], pile[3]) if b == "the question pile" else (1.0, 1.0)
            if ca < cb + bw and cb < ca + wide and ra < rb + bh and rb < ra + high:
                raise MapDataError(f"{path}: {a} and {b} lie on the same tile")
    if len(outline) < 3 or set(insets) - wanted or set(labels) - wanted:
        raise MapDataError(f"{path}: the outline needs 3 points or more; insets and labels name landmarks")
    shades = raw.get("colours", {})
    if not isinstance(shades, dict):
        raise MapDataError(f"{path}: [colours] must be a table of colour word = \"#RRGGBB\"")
    bad = sorted(str(k) for k, v in shades.items() if not (isinstance(v, str) and re.fullmatch(r"#[0-9A-Fa-f]{6}", v)))
    missing = sorted(set(colours) - set(shades))
    if bad or missing:
        raise MapDataError(f"{path}: [colours] needs \"#RRGGBB\" for every Clue Card colour (not a colour: "
                           f"{', '.join(bad) or 'none'}; missing: {', '.join(missing) or 'none'})")
    return MapLayout(columns, rows, frame, tiles, insets, pile, card, labels, outline,
                     {str(k): str(v) for k, v in shades.items()})

