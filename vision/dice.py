"""Dice-pool reader: one camera frame of rolled six-sided dice -> each die's colour and value.

Sudds & Malone rolls 12-16 dice at once (white, black, grey and one colour per player). The
reader finds every die face seen from above, says its colour (from a palette that is data:
`vision/dice_palette.toml`) and counts its pips, with a confidence; when it is not sure of a
die it says so (`value is None`) instead of guessing. The app keeps tapping values as the
fallback.

>>> from vision.dice_synthetic import DiceTable
>>> frame = DiceTable(seed=4).roll([("red", 6), ("white", 3), ("black", 1)], die_px=48).image
>>> reader = DicePoolReader()
>>> sorted((d.colour, d.value) for d in reader.read(frame))
[('black', 1), ('red', 6), ('white', 3)]
>>> all(d.confidence > 0.5 for d in reader.read(frame))
True

How a frame is read:
1. Every pixel is given the nearest palette colour (Lab: hue and chroma count fully, lightness
   half, because light varies across a table), or none when no colour is near.
2. Each colour's pixels form connected regions, pips filled in; regions of touching dice of
   one colour are split at the valleys of their distance transform. A second pass cuts each
   colour's pixels along the image's strong edges (a die's rim and shadow) first, which keeps a
   white die apart from a white cloth or a green one from green felt.
3. Each roughly square region is straightened to a 64x64 face; pips are the round blobs of
   the opposite lightness; their count must match the positions of a real die face (1-6,
   either orientation) within 0.13 of the face side, or the die is "unsure".
4. The dice of a pool are one size: a sure reading much smaller or larger than the median of
   the others (a piece of a die, or a die with its shadow) becomes "unsure".
5. The colour is decided on the face itself (its median colour, pips excluded, and whether
   the pips are dark or light), among the palette colours.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Sequence

import cv2
import numpy as np

PALETTE_PATH = Path(__file__).resolve().parent / "dice_palette.toml"
FACE = 64  # canonical face size, px
# Pip centres per value in face units; the 90-degree turn of each is tried too.
_LAYOUT = {
    1: ((0.5, 0.5),),
    2: ((0.25, 0.25), (0.75, 0.75)),
    3: ((0.25, 0.25), (0.5, 0.5), (0.75, 0.75)),
    4: ((0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)),
    5: ((0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)),
    6: ((0.25, 0.22), (0.25, 0.5), (0.25, 0.78), (0.75, 0.22), (0.75, 0.5), (0.75, 0.78)),
}
MAX_PIP_ERROR = 0.13  # of the face side


class DiceError(ValueError):
    """The palette file is missing or malformed."""


@dataclass(frozen=True)
class DieColour:
    name: str
    bgr: tuple[int, int, int]
    pips: str  # "dark" or "light"

    @property
    def lab(self) -> np.ndarray:
        return cv2.cvtColor(np.uint8([[list(self.bgr)]]), cv2.COLOR_BGR2LAB)[0, 0].astype(np.float32)


@dataclass(frozen=True)
class DieReading:
    """One die: its colour, its value (None: seen but not sure), how sure (0..1) and where."""

    colour: str
    value: int | None
    confidence: float
    centre: tuple[float, float]
    side_px: float
    reason: str = ""  # why value is None

    @property
    def sure(self) -> bool:
        return self.value is not None


def load_palette(path: Path | str = PALETTE_PATH) -> list[DieColour]:
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
        colours = [DieColour(str(c["name"]), tuple(int(v) for v in c["bgr"]), str(c["pips"])) for c in data["colour"]]
    except FileNotFoundError:
        raise DiceError(f"dice palette not found: {path}") from None
    except (tomllib.TOMLDecodeError, KeyError, TypeError, ValueError) as exc:
        raise DiceError(f"dice palette {path} is malformed: {exc}") from None
    if not colours or any(c.pips not in ("dark", "light") or len(c.bgr) != 3 for c in colours):
        raise DiceError(f"dice palette {path}: every colour needs a name, bgr = [b, g, r] and pips = dark|light")
    return colours


def _layout_variants() -> dict[int, list[np.ndarray]]:
    """Each layout under the square's 8 symmetries (turns and mirror images), duplicates dropped."""
    out = {}
    for n, pts in _LAYOUT.items():
        seen, variants = set(), []
        a = np.array(pts, np.float32)
        for mirror in (False, True):
            b = a[:, ::-1].copy() if mirror else a.copy()
            for _ in range(4):
                b = np.stack([1.0 - b[:, 1], b[:, 0]], axis=1)  # a quarter turn
                key = tuple(sorted(map(tuple, np.round(b, 3))))
                if key not in seen:
                    seen.add(key)
                    variants.append(b.copy())
        out[n] = variants
    return out


_VARIANTS = _layout_variants()


def pip_pattern_error(centres: np.ndarray) -> tuple[int, float]:
    """(value, distance from the nearest real layout, in face units); value 0 if not 1-6 pips.

    The distance is the symmetric Hausdorff distance: every pip near a layout position and
    every layout position near a pip.
    """
    n = len(centres)
    if not 1 <= n <= 6:
        return 0, 1.0
    best = 1.0
    for layout in _VARIANTS[n]:
        d = np.linalg.norm(centres[:, None, :] - layout[None, :, :], axis=2)
        best = min(best, float(max(d.min(axis=0).max(), d.min(axis=1).max())))
    return n, best


class DicePoolReader:
    """Reads a dice pool from a BGR frame. No Qt; one instance per camera thread.

    die_px: the range of die face sides (px) to look for; max_ab / max_l: how far (Lab) a pixel
    may be from a palette colour to belong to it; min_confidence: below it a die is "unsure".
    """

    def __init__(self, palette: Sequence[DieColour] | None = None, die_px: tuple[float, float] = (18, 120),
                 max_ab: float = 22.0, max_l: float = 70.0, min_confidence: float = 0.35) -> None:
        self.palette = list(palette or load_palette())
        self.die_px = die_px
        self.max_ab = max_ab
        self.max_l = max_l
        self.min_confidence = min_confidence
        self._labs = np.stack([c.lab for c in self.palette])

    # --- public ---------------------------------------------------------------------------------
    def read(self, frame: np.ndarray) -> list[DieReading]:
        """Every die face found; `value` None where the reader is not sure (ask the player)."""
        if frame.ndim != 3:
            raise ValueError("the dice reader needs a colour (BGR) frame")
        lab = cv2.cvtColor(frame, cv2.COLOR_BGR2LAB)
        # Regions are found at half resolution (a 7-colour labelling of a 720p frame costs ~0.3 s at
        # full size); faces are read at full resolution.
        f = 0.5 if min(frame.shape[:2]) >= 480 else 1.0
        small = cv2.resize(lab, None, fx=f, fy=f, interpolation=cv2.INTER_AREA) if f != 1.0 else lab
        labels = self._label_colours(small)
        # A die's rim and shadow draw an edge around its face: cutting every colour region along the
        # edges keeps a white die apart from a white cloth (or a green one from green felt).
        edges = cv2.dilate(cv2.Canny(cv2.GaussianBlur(small[:, :, 0], (3, 3), 0), 40, 100), np.ones((2, 2), np.uint8))
        boxes, cut = [], []
        for k in range(len(self.palette)):
            mask = (labels == k).astype(np.uint8)
            boxes += [_scale(r, 1.0 / f) for r in self._regions(mask, f, close=True)]
            cut += [_scale(r, 1.0 / f) for r in self._regions(mask & (edges == 0), f, close=False)]
        boxes += [r for r in cut if all(np.hypot(r[0][0] - b[0][0], r[0][1] - b[0][1]) > 0.6 * max(b[1]) for b in boxes)]
        readings = []
        for box in _dedupe(boxes):
            r = self._read_face(frame, lab, box)
            if r is not None:
                readings.append(r)
        # The dice of one pool are one size: a face much smaller or larger than the others is a piece
        # of a die (e.g. the middle pip of a 5 read as a 1) or a die and its shadow. Not sure.
        sides = [r.side_px for r in readings if r.sure]
        if len(sides) >= 3:
            usual = float(np.median(sides))
            readings = [replace(r, value=None, reason="size unlike the other dice")
                        if r.sure and not 0.8 * usual <= r.side_px <= 1.25 * usual else r for r in readings]
        return readings

    # --- step 1: colour labels -------------------------------------------------------------------
    def _label_colours(self, lab: np.ndarray) -> np.ndarray:
        """Palette index of every pixel, -1 for none (through a 64x64x64 lookup table of Lab)."""
        q = (lab >> 2).astype(np.intp)
        return self._lut()[q[:, :, 0], q[:, :, 1], q[:, :, 2]]

    def _lut(self) -> np.ndarray:
        if getattr(self, "_table", None) is None:
            g = (np.arange(64, dtype=np.float32) * 4 + 1.5)
            L, A, B = np.meshgrid(g, g, g, indexing="ij")
            cells = np.stack([L, A, B], axis=-1).reshape(-1, 3)
            d_ab = np.linalg.norm(cells[:, None, 1:] - self._labs[None, :, 1:], axis=2)
            d_l = np.abs(cells[:, None, 0] - self._labs[None, :, 0])
            best = np.argmin(d_ab + 0.5 * d_l, axis=1)
            # A white, grey or black die is neutral: a brownish shadow on wood must not pass for black.
            tol_ab = np.where(np.linalg.norm(self._labs[:, 1:] - 128.0, axis=1) < 10, min(self.max_ab, 10.0), self.max_ab)
            rows = np.arange(len(cells))
            ok = (d_ab[rows, best] <= tol_ab[best]) & (d_l[rows, best] <= self.max_l)
            self._table = np.where(ok, best, -1).astype(np.int8).reshape(64, 64, 64)
        return self._table

    # --- step 2: regions -------------------------------------------------------------------------
    def _regions(self, mask: np.ndarray, scale: float = 1.0, close: bool = True) -> list[tuple]:
        lo, hi = self.die_px[0] * scale, self.die_px[1] * scale
        if close:
            k = max(3, int(lo * 0.3) | 1)  # bridges the pips' rims
            mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3)))
        n, lab, stats, _ = cv2.connectedComponentsWithStats(mask, 8)
        out = []
        for i in range(1, n):
            area = stats[i, cv2.CC_STAT_AREA]
            if area < 0.6 * lo * lo or area > 12 * hi * hi:  # specks; the table itself
                continue
            x, y, w, h = stats[i, :4]
            comp = (lab[y:y + h, x:x + w] == i).astype(np.uint8)
            contours, _ = cv2.findContours(comp, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
            cv2.drawContours(comp, contours, -1, 1, -1)  # pips are holes in the face's colour: fill them
            area = int(comp.sum())
            rect = cv2.minAreaRect(cv2.findNonZero(comp))
            (rw, rh) = rect[1]
            side = max(rw, rh)
            if lo <= side <= hi and min(rw, rh) / max(side, 1) > 0.75 and area / max(rw * rh, 1) > 0.78:
                out.append(_shift(rect, x, y))
                continue
            out += [_shift(r, x, y) for r in self._split(comp, lo, hi)]
        return out

    def _split(self, comp: np.ndarray, lo: float, hi: float) -> list[tuple]:
        """Touching dice of one colour: one marker per distance-transform peak, then watershed."""
        dist = cv2.distanceTransform(comp, cv2.DIST_L2, 5)
        peak = float(dist.max())
        if peak < lo * 0.35 or peak > 0.75 * hi:  # thinner than a die, or too thick for one (a table area)
            return []
        # A die of side s has a peak of ~s/2; peaks of touching dice are >= ~0.8 s apart.
        size = max(3, int(peak * 1.2) | 1)
        local_max = (dist == cv2.dilate(dist, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size)))) & (dist > 0.6 * peak)
        n, markers = cv2.connectedComponents(local_max.astype(np.uint8))
        if n <= 2:
            return []
        markers = markers.astype(np.int32) + 1
        markers[comp == 0] = 0
        markers[(comp > 0) & ~local_max] = 0
        bg = cv2.dilate(comp, np.ones((3, 3), np.uint8)) - comp
        markers[bg > 0] = 1
        img = cv2.merge([comp * 255] * 3)
        cv2.watershed(img, markers)
        out = []
        for m in range(2, n + 1):
            pts = cv2.findNonZero((markers == m).astype(np.uint8))
            if pts is None or len(pts) < 0.5 * lo * lo:
                continue
            rect = cv2.minAreaRect(pts)
            rw, rh = rect[1]
            if lo <= max(rw, rh) <= hi and min(rw, rh) / max(rw, rh, 1) > 0.7:
                out.append(rect)
        return out

    # --- steps 3 and 4: one face -----------------------------------------------------------------
    def _read_face(self, frame: np.ndarray, lab: np.ndarray, rect) -> DieReading | None:
        (cx, cy), (rw, rh), angle = rect
        side = (rw + rh) / 2
        src = cv2.boxPoints(((cx, cy), (side, side), angle)).astype(np.float32)
        dst = np.float32([[0, FACE], [0, 0], [FACE, 0], [FACE, FACE]])
        M = cv2.getPerspectiveTransform(src, dst)
        face_lab = cv2.warpPerspective(lab, M, (FACE, FACE), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        L = face_lab[:, :, 0].astype(np.float32)
        m = int(FACE * 0.1)
        interior = L[m:FACE - m, m:FACE - m]
        level = float(np.median(interior))
        best = None
        for polarity in ("dark", "light"):
            centres, contrast = _pips(L, level, polarity)
            value, err = pip_pattern_error(centres)
            if value and (best is None or err < best[2]):
                best = (polarity, value, err, contrast, centres)
        colour, colour_conf = self._colour(face_lab, best[0] if best else None)
        centre = (float(cx), float(cy))
        if colour is None:
            return None  # not a die of a known colour: no report at all
        if best is None or best[2] > MAX_PIP_ERROR:
            return DieReading(colour, None, 0.0, centre, float(side), "pips not like a die face")
        _, value, err, contrast, _ = best
        pattern_conf = 1.0 - err / MAX_PIP_ERROR
        contrast_conf = min(1.0, contrast / 60.0)
        confidence = float(min(pattern_conf, contrast_conf, colour_conf) ** 0.5)
        if confidence < self.min_confidence:
            return DieReading(colour, None, confidence, centre, float(side), "not sure")
        return DieReading(colour, value, confidence, centre, float(side))

    def _colour(self, face_lab: np.ndarray, pip_polarity: str | None) -> tuple[str | None, float]:
        m = int(FACE * 0.12)
        inner = face_lab[m:FACE - m, m:FACE - m].reshape(-1, 3).astype(np.float32)
        L = inner[:, 0]
        # The face colour without the pips: the middle half of the lightness distribution.
        lo, hi = np.percentile(L, [25, 75]) if pip_polarity is None else (
            np.percentile(L, [45, 95]) if pip_polarity == "dark" else np.percentile(L, [5, 55]))
        sel = inner[(L >= lo) & (L <= hi)]
        if len(sel) == 0:
            return None, 0.0
        face = np.median(sel, axis=0)
        d = np.linalg.norm(self._labs[:, 1:] - face[1:], axis=1) + 0.5 * np.abs(self._labs[:, 0] - face[0])
        allowed = np.array([pip_polarity is None or c.pips == pip_polarity for c in self.palette])
        d = np.where(allowed, d, np.inf)
        order = np.argsort(d)
        if not np.isfinite(d[order[0]]) or d[order[0]] > self.max_ab + 0.5 * self.max_l:
            return None, 0.0
        d1 = d[order[0]]
        d2 = d[order[1]] if len(order) > 1 and np.isfinite(d[order[1]]) else d1 + 100.0
        conf = float((d2 - d1) / (d2 + d1 + 1e-6))
        return self.palette[order[0]].name, min(1.0, 2.0 * conf)


def _pips(L: np.ndarray, level: float, polarity: str) -> tuple[np.ndarray, float]:
    """Centres (face units) of round blobs clearly darker (or lighter) than the face, and their contrast."""
    m = int(FACE * 0.06)
    img = L[m:FACE - m, m:FACE - m]
    diff = (level - img) if polarity == "dark" else (img - level)
    strong = float(np.percentile(diff, 99))
    if strong < 25:
        return np.zeros((0, 2), np.float32), 0.0
    binary = (diff > strong * 0.5).astype(np.uint8)
    n, _, stats, cents = cv2.connectedComponentsWithStats(binary, 8)
    expected = np.pi * (0.09 * FACE) ** 2
    centres = []
    for i in range(1, n):
        area = stats[i, cv2.CC_STAT_AREA]
        w, h = stats[i, 2], stats[i, 3]
        if 0.3 * expected <= area <= 2.5 * expected and max(w, h) <= 1.8 * min(w, h) and area >= 0.45 * w * h:
            centres.append(((cents[i][0] + m) / FACE, (cents[i][1] + m) / FACE))
        elif area >= 0.3 * expected:
            # A strong blob that is no pip (pips merged with an edge, a neighbour's corner, a
            # shadow): the face is not clean, and a count of the remaining pips would be a guess.
            return np.zeros((0, 2), np.float32), 0.0
    return np.array(centres, np.float32).reshape(-1, 2), strong


def _scale(rect, f: float):
    (cx, cy), (w, h), angle = rect
    return (cx * f + (f - 1) / 2, cy * f + (f - 1) / 2), (w * f, h * f), angle


def _shift(rect, x: int, y: int):
    (cx, cy), size, angle = rect
    return (cx + x, cy + y), size, angle


def _dedupe(rects: list) -> list:
    """One region per die (a die can be found by two colours, e.g. a shadowed white and grey)."""
    out: list = []
    for r in sorted(rects, key=lambda r: -r[1][0] * r[1][1]):
        if all(np.hypot(r[0][0] - o[0][0], r[0][1] - o[0][1]) > 0.4 * max(o[1]) for o in out):
            out.append(r)
    return out
