"""Dice colours taught by the family: their own dice, under their own light, instead of a fixed palette.

The family shows the camera their dice pool once (a frame or a few). The dice-pool reader finds
the dice and how each top face looks (``DieReading.look``: its colour where it has no pip, how
even it is, its pips' kind); :func:`group_looks` puts the dice that look alike together (in
Lab, lightness at half weight; never dice whose pips differ: dark, light or red); the family
names each group ("white", "black", "grey", a player's colour, or a name of their own) and
:func:`learn_palette` turns the named groups into a palette: the reader's own ``DieColour``
records, each with the spread its dice showed. :func:`save_palette` writes it as a TOML file the
family can correct by hand; :func:`palette_or_shipped` reads it back, checked, and falls back to
the shipped palette (saying why) when the file is missing or broken.

The reader given a learned palette names a die with the nearest learned colour whose spread holds
it, and "unknown colour" only when none does. It finds dice and reads values exactly as with the
shipped palette: a learned palette only names.

>>> from vision.dice_synthetic import DiceTable
>>> from vision.dice import DicePoolReader
>>> table = DiceTable(seed=5, size=(640, 480))
>>> teach = table.roll([("white", 3), ("black", 5), ("red", 2), ("white", 6)], die_px=52).image
>>> groups = group_looks(teaching_looks([teach]))
>>> [(g.count, g.pips, nearest_name(g)) for g in groups]      # what the shipped palette would call them
[(2, 'dark', 'white'), (1, 'light', 'red'), (1, 'light', 'black')]
>>> palette = learn_palette(groups, ["ivory", "Ann's die", "black"])   # the family's names
>>> [(c.name, c.pips) for c in palette]
[('ivory', 'dark'), ("Ann's die", 'light'), ('black', 'light')]
>>> later = table.roll([("red", 4), ("white", 1), ("grey", 6)], die_px=52).image
>>> sorted((d.colour, d.value) for d in DicePoolReader(palette).read(later))
[("Ann's die", 4), ('ivory', 1), ('unknown colour', 6)]
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

import cv2
import numpy as np

from vision.dice import UNKNOWN_COLOUR, DiceError, DicePoolReader, DieColour, FaceLook, lab_distance, load_palette

#: looks this close (mean Lab distance between two groups, lightness at half weight) are one colour
JOIN = 8.0
#: a learned colour holds a face within SPREAD_MARGIN times the distance that holds 90% of its
#: dice, and never less than SPREAD_FLOOR (a colour taught by one or two dice) nor more than SPREAD_CEILING
SPREAD_MARGIN = 1.5
SPREAD_FLOOR = 20.0
SPREAD_CEILING = 45.0
#: how uneven a face of a learned colour may be: FACE_MARGIN times its dice's most uneven face, at least
#: the reader's own limit for a one-colour face (a marbled die's faces vary more)
FACE_MARGIN = 1.5
FACE_CEILING = 45.0
#: the names a family is offered for a group (and any name of their own)
NEUTRAL_NAMES = ("white", "black", "grey")
HEADER = ("# The colours of our dice, as our camera sees them under our light (taught in Gumshoe).\n"
          "# Each [[colour]]: name (what the app calls such a die), bgr (its face colour, blue-green-red 0-255),\n"
          "# pips (dark or light), spread (how far a face may look from bgr and still be this colour, in Lab\n"
          "# units: larger takes in more dice, and more wrongly), face_spread (how uneven one face may be: a\n"
          "# marbled die's), dice (how many dice taught it). Correct a name or a number by hand if you wish;\n"
          "# delete the file to go back to the colours Gumshoe ships with.\n")


@dataclass(frozen=True)
class ColourGroup:
    """Dice that look alike: their looks, and the group's colour (the median of theirs)."""

    looks: tuple[FaceLook, ...]
    lab: tuple[float, float, float]
    pips: str  # "dark", "light" or "red"

    @property
    def count(self) -> int:
        return len(self.looks)

    @property
    def bgr(self) -> tuple[int, int, int]:
        """The group's colour as blue-green-red bytes (for a swatch, and the palette's ``bgr``)."""
        return lab_to_bgr(self.lab)


def lab_to_bgr(lab: Sequence[float]) -> tuple[int, int, int]:
    """OpenCV 8-bit Lab -> BGR bytes.

    >>> lab_to_bgr((255.0, 128.0, 128.0))
    (255, 255, 255)
    """
    px = np.clip(np.round(np.array([[list(lab)]], np.float32)), 0, 255).astype(np.uint8)
    b, g, r = cv2.cvtColor(px, cv2.COLOR_LAB2BGR)[0, 0]
    return int(b), int(g), int(r)


def teaching_looks(frames: Iterable[np.ndarray], reader: DicePoolReader | None = None) -> list[FaceLook]:
    """The look of every die the reader finds a face on, in a few frames of the family's dice pool."""
    reader = reader or DicePoolReader()
    return [r.look for frame in frames for r in reader.read(frame) if r.look is not None]


def group_looks(looks: Sequence[FaceLook], join: float = JOIN) -> list[ColourGroup]:
    """Dice that look alike, together: average-linkage grouping of their looks (Lab, lightness at
    half weight), joining while two groups are within ``join`` on average; dice whose pips differ
    (dark, light, red) never share a group. Largest group first (then lightest).

    >>> white = FaceLook((200.0, 128.0, 134.0), "dark", 3.0)
    >>> grey = FaceLook((130.0, 128.0, 128.0), "light", 3.0)
    >>> [(g.count, g.pips) for g in group_looks([white, grey, white, FaceLook((204.0, 127.0, 136.0), "dark", 2.0)])]
    [(3, 'dark'), (1, 'light')]
    """
    looks = list(looks)
    if not looks:
        return []
    labs = np.array([lk.lab for lk in looks], np.float32)
    pips = np.array([lk.pips for lk in looks])
    d = lab_distance(labs[:, None, :] - labs[None, :, :]).astype(np.float64)
    d[pips[:, None] != pips[None, :]] = np.inf
    members = [[i] for i in range(len(looks))]
    # Mean distance between groups (average linkage), kept as sums over their pairs.
    sums = d.copy()
    np.fill_diagonal(sums, np.inf)
    alive = list(range(len(looks)))
    while len(alive) > 1:
        sizes = np.array([len(members[i]) for i in alive], np.float64)
        sub = sums[np.ix_(alive, alive)] / (sizes[:, None] * sizes[None, :])
        k = int(np.argmin(sub))
        a, b = divmod(k, len(alive))
        if not sub[a, b] <= join:
            break
        i, j = alive[a], alive[b]
        sums[i, :] += sums[j, :]
        sums[:, i] += sums[:, j]
        sums[i, i] = np.inf
        members[i] += members[j]
        alive.remove(j)
    groups = []
    for i in alive:
        mine = tuple(looks[k] for k in members[i])
        lab = tuple(float(v) for v in np.median(labs[members[i]], axis=0))
        groups.append(ColourGroup(mine, lab, mine[0].pips))
    return sorted(groups, key=lambda g: (-g.count, -g.lab[0]))


def learn_colour(name: str, group: ColourGroup) -> DieColour:
    """One named group as a palette colour, with the spreads its dice showed.

    >>> looks = tuple(FaceLook((200.0 + k, 128.0, 134.0), "dark", 2.0 + k) for k in range(4))
    >>> learn_colour("white", ColourGroup(looks, (201.5, 128.0, 134.0), "dark"))
    DieColour(name='white', bgr=(185, 196, 201), pips='dark', spread=20.0, face_spread=18.0)
    """
    labs = np.array([lk.lab for lk in group.looks], np.float32)
    off = lab_distance(labs - np.array(group.lab, np.float32))
    spread = float(np.clip(SPREAD_MARGIN * np.percentile(off, 90), SPREAD_FLOOR, SPREAD_CEILING))
    faces = np.array([lk.spread for lk in group.looks], np.float32)
    face = float(np.clip(FACE_MARGIN * faces.max(), DicePoolReader.FACE_SPREAD, FACE_CEILING))
    return DieColour(name.strip(), group.bgr, group.pips, round(spread, 1), round(face, 1))


def learn_palette(groups: Sequence[ColourGroup], names: Sequence[str | None]) -> list[DieColour]:
    """The palette the family taught: one colour per named group (a group left unnamed is left out:
    its dice stay "unknown colour"). Two groups may have one name (a marbled colour seen twice).

    >>> g = group_looks([FaceLook((40.0, 130.0, 130.0), "light", 4.0)])
    >>> [c.name for c in learn_palette(g, ["black"])], learn_palette(g, [""])
    (['black'], [])
    """
    if len(names) != len(groups):
        raise ValueError(f"{len(groups)} groups of dice, {len(names)} names")
    out = []
    for group, name in zip(groups, names):
        name = (name or "").strip()
        if not name:
            continue
        if name == UNKNOWN_COLOUR:
            raise ValueError(f"'{UNKNOWN_COLOUR}' is what the reader says of dice of no colour taught")
        out.append(learn_colour(name, group))
    return out


def palette_toml(colours: Sequence[DieColour], counts: Sequence[int] | None = None) -> str:
    """The palette as the text of its TOML file (a header saying how to correct it by hand)."""
    if any(c.spread is None for c in colours):
        raise ValueError("only learned colours (with a spread) are written to a family's palette")
    lines = [HEADER, f'covers = "the dice this family taught the camera: {", ".join(_words(c.name) for c in colours)}; '
                     f"any other die is '{UNKNOWN_COLOUR}'.\"", ""]
    for k, c in enumerate(colours):
        lines += ["[[colour]]", f"name = {_quoted(c.name)}", f"bgr = [{', '.join(str(v) for v in c.bgr)}]",
                  f'pips = "{c.pips}"', f"spread = {c.spread}", f"face_spread = {c.face_spread}"]
        if counts is not None:
            lines.append(f"dice = {int(counts[k])}")
        lines.append("")
    return "\n".join(lines)


def save_palette(path: Path | str, colours: Sequence[DieColour], counts: Sequence[int] | None = None) -> Path:
    """Write a learned palette to ``path`` (its folder made if needed), whole or not at all; it is read back
    and checked first, so a palette that could not be loaded is never written."""
    if not colours:
        raise ValueError("name at least one group of dice")
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(palette_toml(colours, counts), encoding="utf-8")
    try:
        load_palette(tmp)
    except DiceError:
        tmp.unlink()
        raise
    tmp.replace(path)
    return path


def palette_or_shipped(path: Path | str | None) -> tuple[list[DieColour], str | None]:
    """The family's learned palette from ``path``; the shipped one when there is none (None) or it cannot
    be used (then the reason, naming the file, for the family to see).

    >>> colours, problem = palette_or_shipped(None)
    >>> colours[0].name, problem
    ('white', None)
    """
    if path is None or not Path(path).exists():
        return load_palette(), None
    try:
        colours = load_palette(path)
    except DiceError as exc:
        return load_palette(), f"{exc}. The shipped dice colours are used until it is taught again or corrected."
    if not all(c.learned for c in colours):
        return load_palette(), (f"dice palette {path}: every colour needs its spread (a taught colour). "
                                "The shipped dice colours are used until it is taught again or corrected.")
    return colours, None


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _words(text: str) -> str:
    return text.replace("\\", "").replace('"', "'")


def nearest_name(group: ColourGroup, palette: Sequence[DieColour] | None = None) -> str:
    """What the shipped palette (or ``palette``) calls a group's colour: the name a family is first
    offered for it ("" when it is no colour of the palette).

    >>> nearest_name(group_looks([FaceLook((225.0, 128.0, 130.0), "dark", 2.0)])[0])
    'white'
    """
    reader = DicePoolReader(list(palette or load_palette()))
    look = FaceLook(group.lab, group.pips, float(np.median([lk.spread for lk in group.looks])))
    name = reader.colour_name(look)
    return "" if name == UNKNOWN_COLOUR else name
