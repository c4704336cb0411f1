"""Rendered dice pools for tests and benchmarks/dice_bench.py: six-sided dice seen from above.

Every face value, any rotation, dice touching each other, soft shadows, a bevelled rim,
uneven light, defocus, sensor noise and webcam JPEG, on the table tops of vision.synthetic and
on a white dice tray with its two round holes (like the tray of the real photos in
../shared/dice-dev). A die may have a colour the palette does not know (`other_colours`), and
may be marbled (`marbled`): the reader must call it "unknown colour", not miss it.

>>> pool = DiceTable(seed=1).roll([("red", 5), ("white", 2)], die_px=50)
>>> [(d.colour, d.value) for d in pool.dice]
[('red', 5), ('white', 2)]
>>> pool.image.shape
(720, 1280, 3)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import cv2
import numpy as np

from vision.synthetic import Degradation, _background, _degrade

# Pip centres of each face in face units (0..1), the usual Western layout.
PIP_LAYOUT: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.5, 0.5),),
    2: ((0.25, 0.25), (0.75, 0.75)),
    3: ((0.25, 0.25), (0.5, 0.5), (0.75, 0.75)),
    4: ((0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)),
    5: ((0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)),
    6: ((0.25, 0.22), (0.25, 0.5), (0.25, 0.78), (0.75, 0.22), (0.75, 0.5), (0.75, 0.78)),
}
PIP_RADIUS = 0.09  # of the face side


@dataclass
class RenderedDie:
    colour: str
    value: int
    centre: tuple[float, float]
    side_px: float
    angle_deg: float


@dataclass
class DicePool:
    image: np.ndarray  # BGR
    dice: list[RenderedDie]


class DiceTable:
    """Rolls dice onto a table top; the same seed and call always give the same frame."""

    TRAY = 3  # background index of the white dice tray

    def __init__(self, seed: int = 0, size: tuple[int, int] = (1280, 720), palette=None, other_colours=()) -> None:
        from vision.dice import load_palette

        self.seed = seed
        self.size = size
        self.palette = {c.name: c for c in (palette or load_palette())}
        self.palette.update({c.name: c for c in other_colours})  # dice the reader's palette does not know
        # wood, felt, checked cloth, the white tray
        self._backgrounds = [_background(i, seed, size) for i in (0, 2, 1)] + [_tray(seed, size)]
        self._count = 0

    def random_pool(self, n: int, die_px: tuple[float, float] = (34, 64), touching: float = 0.3,
                    degradation: Degradation | None = None) -> DicePool:
        """n dice of random colours and values; about `touching` of them pushed against a neighbour."""
        self._count += 1
        rng = np.random.default_rng((self.seed, self._count))
        colours = list(self.palette)
        dice = [(colours[int(rng.integers(len(colours)))], int(rng.integers(1, 7))) for _ in range(n)]
        deg = degradation or Degradation(defocus_sigma=float(rng.uniform(0, 1.0)), noise_sigma=float(rng.uniform(1, 5)),
                                         light_range=float(rng.uniform(0, 0.4)), jpeg_quality=int(rng.integers(60, 95)))
        return self._render(dice, float(rng.uniform(*die_px)), touching, deg, rng, int(rng.integers(3)))  # the table tops

    def roll(self, dice: Sequence[tuple[str, int]], die_px: float = 50.0, touching: float = 0.0,
             degradation: Degradation | None = None, background: int = 1, marbled: bool = False) -> DicePool:
        """The given (colour, value) dice, in that order, at random places (marbled: swirls of a second colour)."""
        self._count += 1
        rng = np.random.default_rng((self.seed, self._count))
        return self._render(list(dice), die_px, touching, degradation or Degradation(noise_sigma=2, jpeg_quality=90), rng,
                            background, marbled)

    def _render(self, dice, die_px, touching, deg, rng, background, marbled=False) -> DicePool:
        w, h = self.size
        canvas = self._backgrounds[background % len(self._backgrounds)].copy()
        placed: list[RenderedDie] = []
        for colour, value in dice:
            side = die_px * float(rng.uniform(0.95, 1.05))
            angle = float(rng.uniform(0, 90))
            for _ in range(200):
                if placed and rng.random() < touching:
                    # Against a neighbour: centres one die apart (plus 0-2 px), in a random direction.
                    other = placed[int(rng.integers(len(placed)))]
                    a = float(rng.uniform(0, 2 * math.pi))
                    dist = (side + other.side_px) / 2 * (1.0 + 0.42 * abs(math.sin(2 * a))) + float(rng.uniform(0, 2))
                    c = (other.centre[0] + dist * math.cos(a), other.centre[1] + dist * math.sin(a))
                else:
                    c = (float(rng.uniform(side, w - side)), float(rng.uniform(side, h - side)))
                inside = side < c[0] < w - side and side < c[1] < h - side
                if inside and all(math.dist(c, p.centre) > 0.75 * (side + p.side_px) for p in placed):
                    placed.append(RenderedDie(colour, int(value), c, side, angle))
                    break
        for d in placed:
            _shadow(canvas, d, rng)
        for d in placed:
            _draw_die(canvas, d, self.palette[d.colour], rng, marbled)
        return DicePool(_degrade(canvas, deg, rng), placed)


def _square(centre, side, angle_deg, scale=1.0) -> np.ndarray:
    box = cv2.boxPoints(((centre[0] * scale, centre[1] * scale), (side * scale, side * scale), angle_deg))
    return box.astype(np.float32)


def _shadow(canvas: np.ndarray, d: RenderedDie, rng: np.random.Generator) -> None:
    """A soft shadow down and to the right of the die (a lamp above-left)."""
    off = d.side_px * 0.18
    x0, y0 = int(d.centre[0] - d.side_px), int(d.centre[1] - d.side_px)
    size = int(2.4 * d.side_px)
    mask = np.zeros((size, size), np.float32)
    local = (d.centre[0] - x0 + off, d.centre[1] - y0 + off)
    cv2.fillConvexPoly(mask, _square(local, d.side_px * 1.05, d.angle_deg).astype(np.int32), 1.0)
    mask = cv2.GaussianBlur(mask, (0, 0), d.side_px * 0.12) * 0.55
    H, W = canvas.shape[:2]
    xs, ys = max(0, x0), max(0, y0)
    xe, ye = min(W, x0 + size), min(H, y0 + size)
    if xe <= xs or ye <= ys:
        return
    m = mask[ys - y0:ye - y0, xs - x0:xe - x0, None]
    roi = canvas[ys:ye, xs:xe].astype(np.float32)
    canvas[ys:ye, xs:xe] = (roi * (1 - m)).astype(np.uint8)


def _tray(seed: int, size: tuple[int, int]) -> np.ndarray:
    """A white plastic dice tray seen from above: a soft light gradient and two round grey holes."""
    rng = np.random.default_rng((seed, 4243))
    w, h = size
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    light = 1.0 - 0.08 * ((x - w * rng.uniform(0.3, 0.7)) ** 2 + (y - h * 0.4) ** 2) / float(w * w)
    img = np.array([222, 224, 226], np.float32) * light[:, :, None] + rng.normal(0, 1.5, (h, w, 1)).astype(np.float32)
    r = max(6, int(0.018 * w))
    for cx in (int(0.07 * w), int(0.93 * w)):
        cv2.circle(img, (cx, int(0.92 * h)), r, (118, 118, 120), -1, cv2.LINE_AA)
    return np.clip(img, 0, 255).astype(np.uint8)


def _marble(shape: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """0..1 swirls of a second colour, as on marbled dice."""
    h, w = shape
    noise = cv2.resize(rng.normal(0, 1, (max(2, h // 40), max(2, w // 40))).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
    return (0.5 + 0.5 * np.sin(noise * 2.5))[:, :, None]


def _draw_die(canvas: np.ndarray, d: RenderedDie, colour, rng: np.random.Generator, marbled: bool = False) -> None:
    """The face, drawn 4x larger then shrunk (anti-aliased): rounded square, darker bevel, pips."""
    S = 4
    pad = int(d.side_px * 0.8)
    x0, y0 = int(d.centre[0]) - pad, int(d.centre[1]) - pad
    size = 2 * pad
    big = cv2.resize(canvas[y0:y0 + size, x0:x0 + size], (size * S, size * S), interpolation=cv2.INTER_NEAREST)
    local = (d.centre[0] - x0, d.centre[1] - y0)
    face = np.array(colour.bgr, np.float32) * float(rng.uniform(0.92, 1.05))
    rim = face * 0.72
    side = d.side_px * S
    radius = int(side * 0.16)
    body = np.zeros(big.shape[:2], np.uint8)
    _rounded(body, (local[0] * S, local[1] * S), side, d.angle_deg, radius)
    inner = np.zeros_like(body)
    _rounded(inner, (local[0] * S, local[1] * S), side * 0.86, d.angle_deg, int(radius * 0.8))
    bevel = cv2.GaussianBlur(inner.astype(np.float32) / 255.0, (0, 0), side * 0.03)[:, :, None]
    shade = (rim * (1 - bevel) + face * bevel)
    if marbled:
        swirl = np.array([colour.bgr[2], colour.bgr[0], colour.bgr[1]], np.float32)  # the channels turned round
        shade = shade * (1 - 0.6 * _marble(big.shape[:2], rng)) + swirl * 0.6 * _marble(big.shape[:2], rng)
    big[:] = np.where(body[:, :, None] > 0, shade.clip(0, 255), big).astype(np.uint8)
    pip_colour = (np.array([25, 25, 25]) if colour.pips == "dark" else np.array([235, 235, 235])) * float(rng.uniform(0.9, 1.1))
    a = math.radians(d.angle_deg)
    ca, sa = math.cos(a), math.sin(a)
    for u, v in PIP_LAYOUT[d.value]:
        px, py = (u - 0.5) * side, (v - 0.5) * side
        cx = local[0] * S + px * ca - py * sa
        cy = local[1] * S + px * sa + py * ca
        cv2.circle(big, (int(cx), int(cy)), int(PIP_RADIUS * side), pip_colour.clip(0, 255).tolist(), -1, cv2.LINE_AA)
    canvas[y0:y0 + size, x0:x0 + size] = cv2.resize(big, (size, size), interpolation=cv2.INTER_AREA)


def _rounded(mask: np.ndarray, centre, side: float, angle_deg: float, radius: int) -> None:
    """A filled rounded square: the square shrunk by the radius, dilated by a disc."""
    core = np.zeros_like(mask)
    box = cv2.boxPoints((centre, (max(1.0, side - 2 * radius),) * 2, angle_deg)).astype(np.int32)
    cv2.fillConvexPoly(core, box, 255)
    if radius > 0:
        core = cv2.dilate(core, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1)))
    mask |= core
