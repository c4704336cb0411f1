"""The Sudds & Malone dice pool read by the camera: vision's dice-pool reader, mapped to the pool's dice.

The pool's dice of one colour are interchangeable until someone takes one, so the readings of a
colour are given to that colour's dice in order (left to right on the table). Each player's
personal die has a colour of its own: the palette's other colours in seating order (blue, yellow,
red, green), told on the setup screen. That order keeps each physical die close to the colour the
screen gives its owner (blue, orange, purple, green: ``desktop.drawn.palette``), so the personal die
drawn in the pool looks like the one on the table. A die the reader is not sure of, or a colour with
more or fewer dice than the pool has, is left for the family to tap in.
"""

from __future__ import annotations

import logging

from collections import defaultdict
from typing import Sequence

NEUTRAL = ("white", "black", "grey")
PERSONAL_COLOURS = ("blue", "yellow", "red", "green")
PERSONAL = "personal-"


def personal_colour(players: Sequence[str], player: str) -> str:
    return PERSONAL_COLOURS[list(players).index(player) % len(PERSONAL_COLOURS)]


def die_colour(die: str, players: Sequence[str]) -> str:
    """The physical colour of a die of the pool (``white-2`` -> white; ``personal-Ann`` -> red)."""
    if die.startswith(PERSONAL):
        return personal_colour(players, die[len(PERSONAL):])
    return die.split("-")[0]


def assign(readings, dice: Sequence[str], players: Sequence[str]) -> tuple[dict[str, int], list[str]]:
    """Readings (``vision.dice.DieReading``) -> die id -> value, and what is left to tap in (words)."""
    by_colour: dict[str, list] = defaultdict(list)
    for r in readings:
        by_colour[r.colour].append(r)
    values: dict[str, int] = {}
    problems: list[str] = []
    wanted: dict[str, list[str]] = defaultdict(list)
    for die in dice:
        wanted[die_colour(die, players)].append(die)
    for colour, ids in wanted.items():
        seen = sorted(by_colour.get(colour, []), key=lambda r: (r.centre[0], r.centre[1]))
        sure = [r for r in seen if r.value is not None]
        if len(seen) != len(ids):
            problems.append(f"{len(seen)} {colour} dice seen, the pool has {len(ids)}")
        if len(sure) < len(seen):
            problems.append(f"{len(seen) - len(sure)} {colour} die not read surely")
        if len(seen) == len(ids) and len(sure) == len(seen):
            for die, r in zip(ids, sure):
                values[die] = int(r.value)
    extra = sorted(set(by_colour) - set(wanted))
    if extra:
        problems.append("dice of a colour not in this game: " + ", ".join(extra))
    return values, problems


def read_frame(frame, dice: Sequence[str], players: Sequence[str]) -> tuple[dict[str, int], list[str], str]:
    """One camera frame -> die values (only the sure ones), what is left to tap in, and a word on the
    reader itself ("" when all is well)."""
    from .dice_colours import family_reader      # the family's taught dice colours, if any
    reader = family_reader()
    values, problems = assign(reader.read(frame), dice, players)
    aside = ""
    if reader.faces_problem:  # the learned face model is missing or altered: fewer dice are read
        logging.getLogger(__name__).warning("dice read without the face model: %s", reader.faces_problem)
        aside = "its face model is off"
    return values, problems, aside


def simulated_frame(values: dict[str, int], players: Sequence[str], seed: int = 0):
    """The simulated table's dice as its camera sees them (vision's synthetic dice table)."""
    from vision.dice_synthetic import DiceTable
    table = DiceTable(seed=seed, size=(960, 540))
    return table.roll([(die_colour(d, players), v) for d, v in values.items()], die_px=44.0, background=0).image
