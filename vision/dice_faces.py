"""A small learned reader of one die's top face: the dice-pool reader's second opinion. No Qt.

The classical reader (`vision.dice`) finds pips and fits a face's layout; this one looks at a
window around a die and says which face it shows (1-6) or that no die is centred there, with a
probability. Together they read more dice than either and fewer wrong: a value the classical
reader is sure of is kept unless this one is sure of another (then the die is "unsure" and the
family taps it); a die the classical reader could not read is read only when this one gives the
same value from at least 6 of 8 views (4 turns, each mirrored; the card's ``views``) with a high
probability.

The model is data: ``assets/dice/dice_faces.onnx`` with its card ``assets/dice/dice_faces.toml``
(what it was trained on, its checksum, its window and thresholds), trained by
``scripts/train_dice_faces.py`` and run by OpenCV's own ``cv2.dnn`` (no other runtime).

>>> import numpy as np
>>> faces = FaceClassifier()
>>> faces.probabilities(np.zeros((64, 64, 3), np.uint8), [(32, 32, 40)]).shape
(1, 7)
"""

from __future__ import annotations

import hashlib
import math
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import cv2
import numpy as np

ASSETS = Path(__file__).resolve().parent.parent / "assets" / "dice"
CARD_PATH = ASSETS / "dice_faces.toml"
MAX_MODEL_BYTES = 4_000_000  # the shipped model is ~0.1-0.4 MB; a larger file is not ours


class FaceModelError(ValueError):
    """The face model or its card is missing, altered or broken (the reader then works alone)."""


@dataclass(frozen=True)
class FaceOpinion:
    """What the face model says of one place: value 1-6, or 0 for "no die centred here"."""

    value: int
    probability: float
    views: int  # how many of the views looked at gave this value (8 at most; 2 when not looked at further)


def face_crop(frame: np.ndarray, centre: tuple[float, float], side: float, size: int, window: float,
              angle: float = 0.0, mirror: bool = False) -> np.ndarray:
    """The size x size window of ``window`` die sides around ``centre``, turned by ``angle`` degrees.

    Outside the frame the picture is mirrored (a die at the frame's edge is still a die).
    """
    if not (math.isfinite(centre[0]) and math.isfinite(centre[1]) and math.isfinite(side)):
        return np.zeros((size, size, 3), np.uint8)  # (no place: an empty window, which is no die)
    scale = size / (window * min(max(float(side), 1.0), 1e5))
    m = cv2.getRotationMatrix2D((float(centre[0]), float(centre[1])), angle, scale)
    m[:, 2] += (size / 2 - float(centre[0]), size / 2 - float(centre[1]))
    out = cv2.warpAffine(frame, m, (size, size), flags=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_REFLECT)
    return np.ascontiguousarray(out[:, ::-1]) if mirror else out


INPUTS = ("bgr", "lab")


def standardise(crops: np.ndarray, colours: str = "bgr") -> np.ndarray:
    """N x size x size x 3 BGR (0-255) -> the model's input: N x 3 x size x size, each crop to mean 0, about unit spread.

    Each crop on its own, so the light's level and contrast do not matter (the same in training).
    colours "bgr": the three channels together; "lab": lightness, red-green and yellow-blue each to
    its own spread, so that pips that differ from the die in colour only (red pips on a blue
    marbled die) stand out as much as dark pips on a white one.
    """
    n, h, w = crops.shape[:3]
    if not n:
        return np.zeros((0, 3, h, w), np.float32)
    if colours == "lab":
        as_bytes = crops if crops.dtype == np.uint8 else np.clip(crops, 0, 255).astype(np.uint8)
        x = cv2.cvtColor(as_bytes.reshape(n * h, w, 3), cv2.COLOR_BGR2LAB)
    else:
        x = crops
    # n x 3 x (h w): each channel's pixels in one row, so that the sums below run along rows (Lab's
    # spreads taken over a window's rows and columns at once took 2 of the review's 10 ms a photo)
    x = x.reshape(n, h * w, 3).transpose(0, 2, 1).astype(np.float32, order="C")
    if colours == "lab":
        # (x.mean and x.std's own sums, in place: the same numbers, a third of the time)
        x -= np.add.reduce(x, axis=2, keepdims=True) / (h * w)
        x /= np.sqrt(np.add.reduce(x * x, axis=2, keepdims=True) / (h * w)) + 4.0
    else:
        flat = x.reshape(n, -1)
        mean, spread = flat.mean(axis=1)[:, None, None], flat.std(axis=1)[:, None, None] + 8.0
        x -= mean
        x /= spread
    return x.reshape(n, 3, h, w)


class FaceClassifier:
    """The learned face reader, from its card (``assets/dice/dice_faces.toml``) and model file.

    Raises FaceModelError with words when the card or model is missing, does not match its
    checksum, or does not answer as a face model must (7 numbers a window).
    """

    def __init__(self, card_path: Path | str = CARD_PATH) -> None:
        card_path = Path(card_path)
        try:
            card = tomllib.loads(card_path.read_text(encoding="utf-8"))
            model = card["model"]
            path = card_path.parent / str(model["file"])
            self.size = int(model["crop_px"])
            self.window = float(model["window_sides"])
            self.input = str(model.get("input", "bgr"))
            self.veto = float(card["use"]["veto"])
            self.new = float(card["use"]["new"])
            self.new_all = float(card["use"].get("new_all", self.new))
            self.alone_at_refused = card["use"].get("alone_at_refused", False)
            if not isinstance(self.alone_at_refused, bool):
                raise ValueError("alone_at_refused must be true or false")
            self.agree = float(card["use"]["agree"])
            self.agree_one = float(card["use"]["agree_one"])
            self.screen = float(card["use"]["screen"])
            self.face_to_die = float(card["use"]["face_to_die"])
            self.own_ratio_below = float(card["use"].get("own_ratio_below", 0.0))
            self.largest = float(card["use"].get("largest", 0.0))
            self.views = int(card["use"]["views"])
            expected = str(model["sha256"])
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, KeyError, TypeError, ValueError) as exc:
            raise FaceModelError(f"The dice face model's card {card_path} cannot be used: {exc}") from exc
        if not (16 <= self.size <= 96 and 1.0 <= self.window <= 2.5 and 3 <= self.views <= 8 and self.input in INPUTS
                and 0.0 <= self.own_ratio_below <= self.face_to_die and (self.largest == 0.0 or 1.0 <= self.largest <= 3.0)
                and 0.0 < self.new_all <= self.new <= 1.0):
            raise FaceModelError(f"The dice face model's card {card_path} gives a window, a number of views, a ratio, "
                                 "a threshold or an input the reader cannot use.")
        try:
            data = path.read_bytes() if path.stat().st_size <= MAX_MODEL_BYTES else b""
        except OSError as exc:
            raise FaceModelError(f"The dice face model {path} cannot be read: {exc}") from exc
        if hashlib.sha256(data).hexdigest() != expected:
            raise FaceModelError(f"The dice face model {path} is not the one its card describes (checksum differs).")
        try:
            # (A bytes object is taken for a file name and crashes OpenCV: the model goes in as an array.)
            self._net = cv2.dnn.readNetFromONNX(np.frombuffer(data, np.uint8))
            probe = self._forward(np.zeros((2, 3, self.size, self.size), np.float32))
        except cv2.error as exc:
            raise FaceModelError(f"The dice face model {path} cannot be run: {exc}") from exc
        if probe.shape != (2, 7) or not np.isfinite(probe).all():
            raise FaceModelError(f"The dice face model {path} does not answer 7 numbers a window.")

    def _forward(self, blob: np.ndarray) -> np.ndarray:
        self._net.setInput(blob)
        return np.asarray(self._net.forward(), np.float32).reshape(len(blob), -1)

    def _probabilities(self, crops: np.ndarray) -> np.ndarray:
        if not len(crops):
            return np.zeros((0, 7), np.float32)
        logits = self._forward(standardise(crops, self.input))
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        return p / p.sum(axis=1, keepdims=True)

    def crops(self, frame: np.ndarray, places: Sequence[tuple[float, float, float]]) -> np.ndarray:
        """The model's windows at places (x, y, die side in px)."""
        return np.stack([face_crop(frame, (x, y), s, self.size, self.window) for x, y, s in places]) if places else \
            np.zeros((0, self.size, self.size, 3), np.uint8)

    def probabilities(self, frame: np.ndarray, places: Sequence[tuple[float, float, float]]) -> np.ndarray:
        """N x 7: the chance of "no die centred here" (column 0) and of each face 1-6, one view a place."""
        return self._probabilities(self.crops(frame, places))

    def opinions(self, frame: np.ndarray, places: Sequence[tuple[float, float, float]],
                 least: Sequence[float] | None = None, first: Sequence[np.ndarray | None] | None = None) -> list[FaceOpinion]:
        """Each place seen in 8 views (4 quarter turns, each mirrored): the value of their mean, and
        how many of the views said it.

        least: per place, the mean probability its caller needs. The views are looked at in two
        steps, the place as it is and turned half round first: a place whose two views already
        disagree, say no die, or fall below least is not looked at further (its opinion says so,
        from those two), which spares most of the model's work: most places looked at are not read.
        first: per place, the model's answer for the place as it is when the caller has it already
        (``probabilities`` at the same place), or None.
        """
        crops = self.crops(frame, places)
        if not len(crops):
            return []
        n = len(crops)
        known = [k for k in range(n) if first is not None and first[k] is not None]
        unknown = [k for k in range(n) if first is None or first[k] is None]
        q = self._probabilities(np.concatenate([crops[unknown], np.rot90(crops, 2, axes=(1, 2))]))
        p = np.empty((2, n, 7), np.float32)
        p[0, unknown], p[1] = q[:len(unknown)], q[len(unknown):]
        if known:
            p[0, known] = np.stack([first[k] for k in known])
        mean, votes = p.mean(axis=0), p.argmax(axis=2)
        value = mean.argmax(axis=1)
        said = (votes == value[None]).sum(axis=0)
        need = np.asarray(least if least is not None else np.zeros(n), np.float32)
        go_on = np.nonzero((said == 2) & (value > 0) & (mean[np.arange(n), value] >= need))[0]
        if len(go_on):
            some = crops[go_on]
            turns = [some, np.rot90(some, 1, axes=(1, 2)), np.rot90(some, 2, axes=(1, 2)), np.rot90(some, 3, axes=(1, 2))]
            rest = [turns[1], turns[3]] + [np.ascontiguousarray(t[:, :, ::-1]) for t in turns]
            q = self._probabilities(np.concatenate(rest)).reshape(6, len(go_on), 7)
            every = np.concatenate([p[:, go_on], q])  # 8 views
            mean[go_on] = every.mean(axis=0)
            value[go_on] = mean[go_on].argmax(axis=1)
            said[go_on] = (every.argmax(axis=2) == value[go_on][None]).sum(axis=0)
        return [FaceOpinion(int(value[k]), float(mean[k, value[k]]), int(said[k])) for k in range(n)]

    # --- the second opinion on a pool (used by vision.dice.DicePoolReader) ---------------------------
    def review(self, frame: np.ndarray, regions: Sequence[tuple], readings: list, colour_name) -> list:
        """The classical reader's readings, checked and completed, in three steps.

        regions: each region's box (x, y, w, h), whether it holds one die, and the faces the
        classical reader fitted there but refused (value, centre, face side); colour_name: the
        reader's FaceLook -> colour name.
        1. A sure value the model is sure (``veto``) is another face becomes unsure.
        2. Where no sure reading lies, a refused face the model reads as the same value in ``views``
           of its 8 views (``agree``; ``agree_one`` for a lone pip) is read: two readers agree.
        3. Where still none lies, a die the model alone reads the same in ``views`` of 8 views with at
           least ``new`` is read; at a lone die's region, ``new_all`` when all 8 views give it. The
           places: each lone die's region, and (``alone_at_refused``) each refused face's place. An
           unsure reading at such a place gets the value.
        A die's window is its face side times the frame's ratio (``frame_face_to_die``); in steps 2
        and 3 no wider than ``largest`` usual dice (two touching dice showing 1s look like a 2).
        """
        out = list(readings)
        ratio = self.frame_face_to_die(regions, out)
        sure = [k for k, r in enumerate(out) if r.sure]
        if sure:
            p = self.probabilities(frame, [(*out[k].centre, out[k].side_px * ratio) for k in sure])
            for k, row in zip(sure, p):
                value = int(row.argmax())
                if value and value != out[k].value and row[value] >= self.veto:
                    out[k] = _unsure(out[k], "the two readers disagree")
        sides = [max(box[2], box[3]) for box, single, _ in regions if single]
        sides += [r.side_px * ratio for r in out if r.sure]
        if not sides:
            return out
        usual = float(np.median(sides))
        # 2. faces the classical reader fitted but refused, where the model sees the same value
        # (A refused face may be part of a die, such as one column of a 4 fitted as a 2: its window
        # is at least the pool's usual die, so that the model sees the whole die, not those pips alone.)
        most = self.largest * usual if self.largest else np.inf
        misses = [(v, (float(c[0]), float(c[1]), min(max(side * ratio, 0.9 * usual), most))) for _, _, refused in regions
                  for v, c, side in refused]
        misses = _distinct([m for m, free in zip(misses, self._free_all(out, [pl for _, pl in misses], ratio)) if free])
        candidates: list = []  # (place, its first view, at a refused face) where the model alone may read a die
        if misses:
            # One look a place: refused faces of other values at about the same place share it.
            looks = _distinct([(0, pl) for _, pl in misses])
            p = self.probabilities(frame, [pl for _, pl in looks])
            seen = [next(k for k, (_, q) in enumerate(looks) if math.hypot(pl[0] - q[0], pl[1] - q[1]) < 0.25 * q[2])
                    for _, pl in misses]
            likely = [(float(p[k, v]), v, pl) for (v, pl), k in zip(misses, seen)
                      if int(p[k].argmax()) == v and p[k, v] >= self.screen * (self.agree_one if v == 1 else self.agree)]
            chosen = self._one_a_die([(q, (v, pl)) for q, v, pl in likely], place=lambda item: item[1])
            needs = [self.agree_one if v == 1 else self.agree for v, _ in chosen]
            # (the look already made at a refused face's own place is its first view)
            first = [next((p[k] for k, (_, q) in enumerate(looks) if q is pl), None) for _, pl in chosen]
            for (v, pl), op, least in zip(chosen, self.opinions(frame, [pl for _, pl in chosen], needs, first), needs):
                if op.value == v and op.views >= self.views and op.probability >= least and self._free(out, pl, ratio):
                    out = self._read_at(frame, out, pl, v, op.probability, colour_name, ratio)
            if self.alone_at_refused:  # (a refused face may be a die of another value: the model alone may read it)
                candidates = [(pl, p[k], True) for k, (_, pl) in enumerate(looks)]
        # 3. the model alone, at lone dice and (alone_at_refused) at the refused faces' places
        places = _places(regions, usual)
        places = [(x, y, min(side, most)) for (x, y, side), free in zip(places, self._free_all(out, places, ratio)) if free]
        if places:
            candidates += [(pl, row, False) for pl, row in zip(places, self.probabilities(frame, places))]
        candidates = [c for c, free in zip(candidates, self._free_all(out, [c[0] for c in candidates], ratio)) if free]
        least = min(self.new, self.new_all)
        chosen = self._one_a_die([(float(row[1:].max()), k) for k, (_, row, refused) in enumerate(candidates)
                                  if row[1:].max() >= self.screen * (self.new if refused else least)],
                                 place=lambda k: candidates[k][0])
        places = [candidates[k][0] for k in chosen]
        first = [candidates[k][1] for k in chosen]
        at_refused = [candidates[k][2] for k in chosen]
        # (A place goes on to all 8 views when its first two reach the screening share of what it needs:
        # needing the whole of it there missed dice whose 8 views reach it, 3 on the two folds.)
        looked = self.opinions(frame, places, [self.screen * least] * len(places), first)
        for pl, op, refused in zip(places, looked, at_refused):
            if op.value and op.views >= self.views and self._free(out, pl, ratio) \
                    and op.probability >= (self.new_all if op.views == 8 and not refused else self.new):
                out = self._read_at(frame, out, pl, op.value, op.probability, colour_name, ratio)
        return out

    def frame_face_to_die(self, regions: Sequence[tuple], readings: list) -> float:
        """The die side over the classical face side for this frame: the card's (the photos' median),
        unless the frame's own lone dice read sure say their pips lie much nearer their edges.

        Dice differ: the real photos' dice have their pips near the middle (a lone die's region over
        its face side: 1.72 median, each photo's median 1.48 or more for 95% of them), the rendered
        ones near the edges (1.2). A window 1.74 face sides wide on such a die also holds its
        neighbours, and the model may see another value there. So a frame where at least 3 lone dice
        read sure give a median under ``own_ratio_below`` (1.4) uses that median (at least 1).
        """
        ratios = [max(w, h) / r.side_px for r in readings if r.sure and r.side_px > 0
                  for (x, y, w, h), single, _ in regions
                  if single and x <= r.centre[0] <= x + w and y <= r.centre[1] <= y + h]
        if len(ratios) >= 3 and (own := float(np.median(ratios))) < self.own_ratio_below:
            return max(1.0, own)
        return self.face_to_die

    def _free(self, readings: list, place: tuple[float, float, float], ratio: float) -> bool:
        """No sure reading within half a die of place."""
        return bool(self._free_all(readings, [place], ratio)[0])

    @staticmethod
    def _free_all(readings: list, places: Sequence[tuple[float, float, float]], ratio: float) -> np.ndarray:
        """For each place (x, y, die side): no sure reading within half a die (the larger side) of it."""
        sure = np.array([(*r.centre, r.side_px * ratio) for r in readings if r.sure], np.float64).reshape(-1, 3)
        at = np.asarray(places, np.float64).reshape(-1, 3)
        apart = (at[:, None, 0] - sure[None, :, 0]) ** 2 + (at[:, None, 1] - sure[None, :, 1]) ** 2
        return (apart >= (0.5 * np.maximum(at[:, None, 2], sure[None, :, 2])) ** 2).all(axis=1)

    @staticmethod
    def _one_a_die(scored: list, place=lambda item: item) -> list:
        """The likeliest of each cluster of (score, item) whose places (``place(item)``: x, y, die side) lie within 0.6 die."""
        kept: list = []
        for _, item in sorted(scored, key=lambda t: -t[0]):
            pl = place(item)
            if all(math.hypot(pl[0] - q[0], pl[1] - q[1]) >= 0.6 * max(pl[2], q[2]) for q in map(place, kept)):
                kept.append(item)
        return kept

    def _read_at(self, frame, readings: list, place, value: int, probability: float, colour_name, ratio: float) -> list:
        """readings with a die of value at place: an unsure reading there takes it, else a new reading."""
        from vision.dice import DieReading

        out = list(readings)
        near = [k for k, r in enumerate(out)
                if math.hypot(r.centre[0] - place[0], r.centre[1] - place[1]) < 0.5 * max(place[2], r.side_px * ratio)]
        if near:
            out[near[0]] = _with_value(out[near[0]], value, probability)
            return out
        look = window_look(frame, place)
        out.append(DieReading(colour_name(look), value, probability, (place[0], place[1]), place[2] / ratio,
                              "", look))
        return out


def _unsure(reading, reason: str):
    from dataclasses import replace
    return replace(reading, value=None, confidence=0.0, reason=reason)


def _with_value(reading, value: int, probability: float):
    from dataclasses import replace
    return replace(reading, value=value, confidence=probability, reason="")


def _distinct(misses: list) -> list:
    """One of each refused face found several times (by several groups or kinds of pips): same value, within 0.25 die."""
    out: list = []
    for v, pl in misses:
        if not any(v == w and math.hypot(pl[0] - q[0], pl[1] - q[1]) < 0.25 * q[2] for w, q in out):
            out.append((v, pl))
    return out


def _places(regions: Sequence[tuple], usual: float) -> list[tuple[float, float, float]]:
    """A window on each region that holds one die, at least the pool's usual die wide (a white die on
    a white tray is found by its pips and rim alone: its region is smaller than the die). A grid
    over regions of several dice read 2 more dice of 833 on the check half, for a quarter more
    time: not kept."""
    return [(x + w / 2, y + h / 2, float(max(w, h, usual))) for (x, y, w, h), single, _ in regions
            if single and max(w, h) < 1.5 * usual]


def window_look(frame: np.ndarray, place: tuple[float, float, float]):
    """A die's look from the middle of its window (no pip layout known): its body colour, evenness, pips' kind."""
    from vision.dice import FaceLook, lab_distance, median_by_column

    x, y, side = place
    r = max(2, int(0.3 * side))
    x0, y0 = max(0, int(x) - r), max(0, int(y) - r)
    patch = frame[y0:int(y) + r + 1, x0:int(x) + r + 1]
    if patch.size < 27:
        return None
    lab = cv2.cvtColor(patch, cv2.COLOR_BGR2LAB).reshape(-1, 3).astype(np.float32)
    body = median_by_column(lab)
    d = lab_distance(lab - body)
    near = d <= np.percentile(d, 60)
    far = d >= np.percentile(d, 90)
    body = median_by_column(lab[near])
    pips_lab = lab[far].mean(axis=0)
    if pips_lab[1] - body[1] > 15 and pips_lab[1] > 150:
        kind = "red"
    else:
        kind = "dark" if pips_lab[0] < body[0] else "light"
    return FaceLook(tuple(float(v) for v in body), kind, float(median_by_column(lab_distance(lab[near] - body))))
