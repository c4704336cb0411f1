"""Colours: one per player, used everywhere that player appears (name, pieces, dice), and a
check that they stay apart for the common red-green colour blindness.

The colours are from the Okabe-Ito palette. Colour is never the only cue: a player's name is
written beside their colour, a card type has a symbol, a die shows its pips.
"""

from __future__ import annotations

import math
from itertools import combinations
from typing import Iterable

from .. import style

#: one colour per seat, in seating order (six: the most players any game takes)
PLAYER_COLOURS = (style.BLUE, style.ORANGE, style.PURPLE, style.GREEN, style.YELLOW, "#4D4D4D")

#: screen colours for the colour words printed on cards ("a red Agent"), the words always shown too
NAMED_COLOURS = {"red": style.VERMILLION, "blue": style.BLUE, "yellow": style.YELLOW, "black": "#2B2B2B",
                 "green": style.GREEN, "purple": style.PURPLE, "orange": style.ORANGE, "white": "#F4F4F4",
                 "grey": "#9A9A9A", "gray": "#9A9A9A"}

#: the smallest CIE76 colour difference two colours on the table keep, for every kind of sight
#: checked (about 2.3 is "just noticeable"; 15 is told apart at a glance across a table)
LEAST_DIFFERENCE = 15.0

# Machado, Oliveira and Fernandes (2009), severity 1.0, on linear RGB.
SIGHTS = {
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
}


def player_colour(seat: int) -> str:
    return PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]


def player_colours(players: Iterable[str]) -> dict[str, str]:
    """Each player's colour by seat."""
    return {p: player_colour(i) for i, p in enumerate(players)}


def named_colour(word: str | None, fallback: str = "#DDDDDD") -> str:
    return NAMED_COLOURS.get((word or "").strip().lower(), fallback)


def readable_ink(fill: str) -> str:
    """Black or white, whichever reads better on ``fill``."""
    r, g, b = (_linear(c) for c in _rgb(fill))
    luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b
    return "#111111" if luminance > 0.22 else "#FFFFFF"


# --- simulated sight ---------------------------------------------------------------------------
def _rgb(colour: str) -> tuple[int, int, int]:
    colour = colour.lstrip("#")
    return int(colour[0:2], 16), int(colour[2:4], 16), int(colour[4:6], 16)


def _linear(channel: int) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _encode(linear: float) -> int:
    c = min(max(linear, 0.0), 1.0)
    c = c * 12.92 if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055
    return round(c * 255)


def simulate(colour: str, sight: str) -> str:
    """How ``colour`` looks to someone with ``sight`` (a key of :data:`SIGHTS`, or "normal")."""
    if sight == "normal":
        return "#%02X%02X%02X" % _rgb(colour)
    m = SIGHTS[sight]
    lin = [_linear(c) for c in _rgb(colour)]
    return "#%02X%02X%02X" % tuple(_encode(sum(m[r][k] * lin[k] for k in range(3))) for r in range(3))


def _lab(colour: str) -> tuple[float, float, float]:
    r, g, b = (_linear(c) for c in _rgb(colour))
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def difference(a: str, b: str) -> float:
    """CIE76 colour difference (Delta E) of two colours."""
    return math.dist(_lab(a), _lab(b))


def closest_pair(colours: Iterable[str], sight: str = "normal") -> tuple[float, str, str]:
    """The two colours hardest to tell apart for ``sight``, and their difference."""
    seen = [(c, simulate(c, sight)) for c in colours]
    return min(((difference(sa, sb), a, b) for (a, sa), (b, sb) in combinations(seen, 2)),
               default=(math.inf, "", ""))
