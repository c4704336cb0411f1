"""Dice-pool reader on rendered pools and on real photographs, side by side.

    python benchmarks/dice_bench.py            # 60 rendered frames of 12-16 dice + the 200 real photos
    python benchmarks/dice_bench.py --quick    # 8 rendered frames + every 4th photo
    python benchmarks/dice_bench.py --smoke    # 1 rendered frame + 2 photos: it still runs (figures mean nothing)
    python benchmarks/dice_bench.py --part real --wrong   # real photos only, listing every wrong value
    python benchmarks/dice_bench.py --part real --where   # ... and where the dice go (value, size, sharpness, look)
    python benchmarks/dice_bench.py --part colours        # dice colours taught by the family against the shipped palette

Rendered: vision.dice_synthetic.DiceTable pools of 12-16 dice, every colour of the palette and
every face, any rotation, about 30% of the dice pushed against a neighbour, soft shadows,
bevelled rims, uneven light, defocus, noise and JPEG on wood, felt and a checked cloth (what the
photos lack: palette colours on table tops). A die is "right" when a reading lies on it with its
colour and value; a palette die called "unknown colour" with its right value is "unsure" (the
family says its colour).

Real: ../shared/dice-dev (200 phone photos, 640x640, 1,487 labelled dice; its README), split
by a hash of the photo's name into a tuning half (the reader's thresholds were chosen on it) and
a check half (looked at for failures only). The labels give no colour, so a die is "right" when a
reading on it has the labelled value (its colour, palette or "unknown colour", is counted apart).
A reading belongs to the labelled box that holds it and whose centre is nearest. The section is
skipped, saying so, where the folder is absent (as on CI).

Per die: right / wrong (a sure reading says another value or colour: must stay at zero) /
unsure (the reader says it cannot tell: the player taps it) / missed (no reading on it);
"no die": readings where no die is (the sure ones among them in brackets). Time: CPU time per
frame, one thread, the least of 3 reads of the frame (--repeat; on a shared machine the other
programs' load otherwise decides the figure); median and 95th percentile over the frames.
Each frame is read by three readers in turn: the reader as it was when issue 30 was filed
(vision/dice.py at commit FILED_AT, taken from git: the issue's time limit is 1.2 times its
time), today's classical reader alone and today's with the face model; the ratios of the medians
are printed. A clone without that commit (a shallow one) says so and leaves the first out.
Colours (--part colours; --smoke runs it too): the family teaching the camera its dice
(vision.dice_colours), simulated. Per dice set (the photos of one day), tuning-half photos are
chosen until every kind of die found is shown --least times, their dice grouped and each group
named after the most common colour label of its dice (benchmarks/dice_dev_colours.json: named by
eye, the photos' labels have none); then the check-half photos are read with the shipped and the
taught palette in the same run: dice with a known colour, with the right one, with a wrong one,
and readings whose place or value changed (must stay at zero). Also rendered pools with two
colours the shipped palette lacks, taught from one pool under the same lamp.
--where splits the real dice by value, by the side of their labelled box, by sharpness (the
variance of the Laplacian in the box) and by look (neutral light, neutral dark, coloured: the
median Lab colour of the middle half of the box), each into right / unsure / missed / wrong.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import subprocess
import sys
import time
import types
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vision.dice import UNKNOWN_COLOUR, DicePoolReader  # noqa: E402
from vision.dice_faces import FaceClassifier  # noqa: E402
from vision.dice_synthetic import DiceTable  # noqa: E402
from vision.synthetic import Degradation  # noqa: E402

DICE_DEV = ROOT.parent / "shared" / "dice-dev"
FILED_AT = "4edd21f"  # the commit issue 30's figures were measured on (its reader: vision/dice.py then)
FILED_LABEL = f": as filed ({FILED_AT}: the time baseline)"
ALONE_LABEL = ": classical alone (the reader before the face model)"
MODEL_LABEL = ": with the face model"
KEYS = ("right", "wrong", "unsure", "missed")


def photo_half(name: str) -> str:
    """'tune' or 'check', by a hash of the photo's name (stable, independent of the reader)."""
    return "tune" if hashlib.sha256(name.encode()).digest()[0] % 2 == 0 else "check"


def reader_as_filed() -> tuple[object | None, str]:
    """(The dice reader as it was when issue 30 was filed, or None; why not.)

    Its vision/dice.py is taken from git at FILED_AT and run as a module of its own (it needs only
    OpenCV, numpy and the palette beside it, which has not changed since).
    """
    try:
        source = subprocess.run(["git", "-C", str(ROOT), "show", f"{FILED_AT}:vision/dice.py"], capture_output=True,
                                text=True, check=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError) as exc:
        return None, f"commit {FILED_AT} is not in this clone ({type(exc).__name__})"
    module = types.ModuleType("dice_as_filed")
    module.__file__ = str(ROOT / "vision" / "dice.py")  # (its palette path: the file beside it)
    sys.modules[module.__name__] = module  # (dataclasses look their module up)
    try:
        exec(compile(source, f"vision/dice.py at {FILED_AT}", "exec"), module.__dict__)
        return module.DicePoolReader(), ""
    except Exception as exc:  # (old code on newer libraries: the benchmark says so and times the rest)
        sys.modules.pop(module.__name__, None)
        return None, f"the reader at {FILED_AT} does not run here ({type(exc).__name__}: {exc})"


def timed_read(reader: DicePoolReader, image, times: list[float], repeat: int = 1) -> list:
    """The reader's readings of ``image``; its least CPU time of ``repeat`` reads (ms) is added to ``times``.

    The least of a few reads leaves out the time other programs on a shared machine take from this
    one (caches, a busy core); the reader keeps nothing from one read to the next.
    """
    best, readings = math.inf, []
    for _ in range(max(1, repeat)):
        t0 = time.thread_time()
        readings = reader.read(image)
        best = min(best, (time.thread_time() - t0) * 1000)
    times.append(best)
    return readings


BANDS = {
    "value": ("1", "2", "3", "4", "5", "6"),
    "side": ("under 30 px", "30-40 px", "40-50 px", "50 px and more"),
    "sharpness": ("blurred (Laplacian var. < 700)", "soft (700-1500)", "sharp (1500 and more)"),
    "look": ("light neutral (L >= 150)", "dark neutral (L < 150)", "coloured (chroma >= 10)"),
}


def die_look(frame, box) -> dict[str, str]:
    """Bands of a labelled die for the breakdown: its size, sharpness and look (from its box)."""
    x1, y1, x2, y2 = (int(round(v)) for v in box)
    crop = frame[max(0, y1):y2, max(0, x1):x2]
    side = max(x2 - x1, y2 - y1)
    h, w = crop.shape[:2]
    top_face = crop[h // 4:h - h // 4, w // 4:w - w // 4]  # the box's middle: on the die, off the tray
    lab = cv2.cvtColor(top_face, cv2.COLOR_BGR2LAB).reshape(-1, 3).astype(np.float32)
    lightness, a, b = np.median(lab, axis=0)
    chroma = math.hypot(a - 128, b - 128)
    sharpness = cv2.Laplacian(cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY), cv2.CV_64F).var()
    return {
        "side": BANDS["side"][0 if side < 30 else 1 if side < 40 else 2 if side < 50 else 3],
        "sharpness": BANDS["sharpness"][0 if sharpness < 700 else 1 if sharpness < 1500 else 2],
        "look": BANDS["look"][2 if chroma >= 10 else 0 if lightness >= 150 else 1],
    }


def score(tally: Counter, *, right: bool, unsure: bool, wrong: list[str], wrong_line: str) -> None:
    """One die's reading counted as unsure, right or wrong (a wrong one also listed)."""
    if unsure:
        tally["unsure"] += 1
    elif right:
        tally["right"] += 1
    else:
        tally["wrong"] += 1
        wrong.append(wrong_line)


def count_strays(tally: Counter, readings: list, on_a_die) -> None:
    """The readings on no die ("no die"), and how many of those were sure of a value."""
    for j, r in enumerate(readings):
        if j not in on_a_die:
            tally["no die"] += 1
            tally["no die, sure"] += r.value is not None


def rendered(frames: int, seed: int, die_px=(34, 64), repeat: int = 1, readers: list | None = None) -> list[dict]:
    """Rendered pools read by each (label, reader) in turn, frame by frame: a result per reader."""
    readers = readers or [("", DicePoolReader())]
    table = DiceTable(seed=seed)
    runs = [{"name": f"rendered, seed {seed} ({frames} frames, 1280x720){label}", "tally": Counter(), "times": [],
             "wrong": []} for label, _ in readers]
    for k in range(frames):
        pool = table.random_pool(int(np.random.default_rng(k).integers(12, 17)), die_px=die_px)
        for (_, reader), run in zip(readers, runs):
            readings = timed_read(reader, pool.image, run["times"], repeat)
            tally, used = run["tally"], set()
            for die in pool.dice:
                tally["dice"] += 1
                near = [j for j, r in enumerate(readings) if math.dist(r.centre, die.centre) < 0.5 * die.side_px]
                if not near:
                    tally["missed"] += 1
                    continue
                r = readings[near[0]]
                used.update(near)
                score(tally, right=(r.colour, r.value) == (die.colour, die.value), wrong=run["wrong"],
                      # unsure: the player taps the value, or says the colour
                      unsure=r.value is None or (r.value == die.value and r.colour == UNKNOWN_COLOUR),
                      wrong_line=f"frame {k}: {die.colour} {die.value} read as {r.colour} {r.value}")
            count_strays(tally, readings, used)
    return runs


def match(readings: list, dice: list) -> tuple[dict[int, int], dict[int, int]]:
    """Readings on the labelled dice: reading -> the labelled box that holds it and whose centre is
    nearest, and labelled die -> its reading (the one nearest its centre)."""
    def centre(k: int) -> tuple[float, float]:
        return (dice[k][1] + dice[k][3]) / 2, (dice[k][2] + dice[k][4]) / 2

    owner = {}
    for j, r in enumerate(readings):
        holding = [k for k, (_, x1, y1, x2, y2) in enumerate(dice) if x1 <= r.centre[0] <= x2 and y1 <= r.centre[1] <= y2]
        if holding:
            owner[j] = min(holding, key=lambda k: math.dist(r.centre, centre(k)))
    reading_of: dict[int, int] = {}
    for j, k in owner.items():
        if k not in reading_of or math.dist(readings[j].centre, centre(k)) < math.dist(readings[reading_of[k]].centre, centre(k)):
            reading_of[k] = j
    return owner, reading_of


def real(folder: Path, half: str, step: int = 1, limit: int | None = None, repeat: int = 1,
         readers: list | None = None) -> list[dict]:
    """The real photos of one half read by each (label, reader) in turn, photo by photo: a result per reader."""
    readers = readers or [("", DicePoolReader())]
    labels = json.loads((folder / "labels.json").read_text(encoding="utf-8"))["images"]
    names = [n for n in sorted(labels) if photo_half(n) == half][::step][:limit]
    runs = [{"name": f"real photos, {half} half ({len(names)} photos, 640x640){label}", "tally": Counter(), "times": [],
             "wrong": [], "colours": Counter(), "where": Counter()} for label, _ in readers]
    for name in names:
        frame = cv2.imread(str(folder / "images" / f"{name}.jpg"))
        dice = labels[name]["dice"]
        looks = [{"value": str(value), **die_look(frame, (x1, y1, x2, y2))} for value, x1, y1, x2, y2 in dice]
        for (_, reader), run in zip(readers, runs):
            readings = timed_read(reader, frame, run["times"], repeat)
            tally, where = run["tally"], run["where"]  # where: (feature, band, outcome) -> dice, for the breakdown
            owner, reading_of = match(readings, dice)
            for k, (value, x1, y1, x2, y2) in enumerate(dice):
                tally["dice"] += 1
                if k not in reading_of:
                    tally["missed"] += 1
                    where.update((feature, band, "missed") for feature, band in looks[k].items())
                    continue
                r = readings[reading_of[k]]
                run["colours"][r.colour] += 1
                outcome = "unsure" if r.value is None else "right" if r.value == value else "wrong"
                where.update((feature, band, outcome) for feature, band in looks[k].items())
                score(tally, unsure=r.value is None, right=r.value == value, wrong=run["wrong"],
                      wrong_line=f"{name}: a {value} read as {r.value} at ({r.centre[0]:.0f}, {r.centre[1]:.0f})")
            count_strays(tally, readings, owner)
    return runs


COLOUR_LABELS = ROOT / "benchmarks" / "dice_dev_colours.json"


def majority_names(groups: list, labelled: dict[int, str]) -> list[str | None]:
    """The family's naming, simulated: each group of dice named after the most common colour label of
    the labelled dice in it (``labelled``: id of a look -> its die's label); None (left unnamed) when
    no die of the group is labelled."""
    names = []
    for g in groups:
        votes = Counter(labelled[id(look)] for look in g.looks if id(look) in labelled)
        names.append(votes.most_common(1)[0][0] if votes else None)
    return names


def teaching_frames(found: dict[str, Counter], least: int, most: int) -> list[str]:
    """The family shows its dice: photos chosen until every kind of die found in ``found`` (photo ->
    colour labels of the dice found on it) is shown ``least`` times (or as often as it is found at
    all), at most ``most`` photos; each next photo the one that shows the most still wanted."""
    total = sum(found.values(), Counter())
    need = {c: min(least, n) for c, n in total.items()}
    have: Counter = Counter()
    chosen: list[str] = []
    while len(chosen) < most and any(have[c] < need[c] for c in need):
        def gain(name: str) -> tuple:
            return (sum(min(need[c] - have[c], n) for c, n in found[name].items() if have[c] < need[c]),
                    sum(found[name].values()), name)
        best = max((n for n in found if n not in chosen), key=gain, default=None)
        if best is None:
            break
        chosen.append(best)
        have += found[best]
    return chosen


def same_readings(tally: Counter, before: list, after: list) -> None:
    """The taught palette only names: every reading must keep its place and value ("values changed")."""
    tally["readings"] += len(before)
    tally["values changed"] += sum(a.value != b.value or a.centre != b.centre for a, b in zip(before, after))
    tally["values changed"] += abs(len(before) - len(after))


def colour_tally(tally: Counter, key: str, said: str, truth: str) -> None:
    """One die's colour, said by a palette (``key``), against its label."""
    tally[f"known {key}"] += said != UNKNOWN_COLOUR
    tally[f"right {key}"] += said == truth
    tally[f"wrong {key}"] += said not in (UNKNOWN_COLOUR, truth)


def colours_real(folder: Path, smoke: bool, least: int, most: int, read_half: str = "check") -> list[dict]:
    """Per dice set (the photos of one day: one set of dice, one light), a palette taught from a few
    tuning-half photos, then the check-half photos (or the tuning half's others: ``read_half``) read with
    the shipped and the learned palette."""
    from vision.dice_colours import group_looks, learn_palette
    labels = json.loads((folder / "labels.json").read_text(encoding="utf-8"))["images"]
    colours = json.loads(COLOUR_LABELS.read_text(encoding="utf-8"))["photos"]
    sets: dict[str, list[str]] = {}
    for name in sorted(labels):
        sets.setdefault(name.split("_")[1], []).append(name)
    shipped = DicePoolReader()
    results = []
    for day, names in list(sets.items())[:1 if smoke else None]:
        tune = [n for n in names if photo_half(n) == "tune"][:4 if smoke else None]
        check = [n for n in names if photo_half(n) == read_half]
        seen, found = {}, {}
        for n in tune:
            readings = shipped.read(cv2.imread(str(folder / "images" / f"{n}.jpg")))
            _, reading_of = match(readings, labels[n]["dice"])
            seen[n] = (readings, reading_of)
            found[n] = Counter(colours[n][k] for k, j in reading_of.items() if readings[j].look is not None)
        teach = teaching_frames(found, least, 2 if smoke else most)
        check = [n for n in check if n not in teach][:2 if smoke else None]
        looks, labelled = [], {}
        for n in teach:
            readings, reading_of = seen[n]
            looks += [r.look for r in readings if r.look is not None]
            labelled.update({id(readings[j].look): colours[n][k] for k, j in reading_of.items() if readings[j].look is not None})
        groups = group_looks(looks)
        names = majority_names(groups, labelled)
        learned = DicePoolReader(learn_palette(groups, names))
        tally: Counter = Counter()
        confusion: Counter = Counter()
        for n in check:
            frame = cv2.imread(str(folder / "images" / f"{n}.jpg"))
            before, after = shipped.read(frame), learned.read(frame)
            same_readings(tally, before, after)
            dice = labels[n]["dice"]
            _, reading_of = match(after, dice)
            for k, j in reading_of.items():
                truth = colours[n][k]
                tally["found"] += 1
                tally["wrong values"] += after[j].value is not None and after[j].value != dice[k][0]
                colour_tally(tally, "shipped", before[j].colour, truth)
                colour_tally(tally, "learned", after[j].colour, truth)
                confusion[(truth, after[j].colour)] += 1
        results.append({"name": f"real, set {day}: taught from {len(teach)} tuning-half photos, read {len(check)} {read_half}-half photos",
                        "tally": tally, "teach": teach, "groups": list(zip(names, [g.count for g in groups])),
                        "confusion": confusion})
    return results


def colours_rendered(seed: int, frames: int) -> dict:
    """Rendered pools with two colours the shipped palette lacks (purple and orange dice): taught from one
    rendered pool of every colour, then ``frames`` random pools under the same light (one lamp, uneven over
    the table: 20%) read with the shipped and the learned palette."""
    from vision.dice import DieColour
    from vision.dice_colours import group_looks, learn_palette
    others = [DieColour("purple", (140, 40, 120), "light"), DieColour("orange", (30, 120, 240), "dark")]
    table = DiceTable(seed=seed, size=(960, 540), other_colours=others)
    kinds = list(table.palette)
    light = Degradation(defocus_sigma=0.5, noise_sigma=3, light_range=0.2, jpeg_quality=85)  # one camera, one lamp
    teach_pool = table.roll([(c, v) for c in kinds for v in (2, 5)], die_px=48, degradation=light)
    looks = []
    labelled = {}
    for r in DicePoolReader().read(teach_pool.image):
        die = min(teach_pool.dice, key=lambda d: math.dist(d.centre, r.centre))
        if r.look is not None and math.dist(die.centre, r.centre) < 0.5 * die.side_px:
            looks.append(r.look)
            labelled[id(r.look)] = die.colour
    groups = group_looks(looks)
    learned = DicePoolReader(learn_palette(groups, majority_names(groups, labelled)))
    shipped = DicePoolReader()
    tally: Counter = Counter()
    for _ in range(frames):
        pool = table.random_pool(12, die_px=(40, 56), degradation=light)
        before, after = shipped.read(pool.image), learned.read(pool.image)
        same_readings(tally, before, after)
        for die in pool.dice:
            near = [j for j, r in enumerate(after) if math.dist(r.centre, die.centre) < 0.5 * die.side_px]
            if near:
                tally["found"] += 1
                tally["wrong values"] += after[near[0]].value not in (None, die.value)
                colour_tally(tally, "shipped", before[near[0]].colour, die.colour)
                colour_tally(tally, "learned", after[near[0]].colour, die.colour)
    return {"name": f"rendered, seed {seed}: {len(kinds)} colours (purple, orange not shipped), {frames} pools",
            "tally": tally, "groups": [(n, g.count) for n, g in zip(majority_names(groups, labelled), groups)], "confusion": Counter()}


def report_colours(results: list[dict]) -> None:
    """Dice with a known colour and with the right colour, shipped palette against the learned one."""
    print(f"{'dice colours (shipped -> learned palette)':76s} {'found':>5s} {'known colour':>17s} {'right colour':>17s} "
          f"{'wrong colour':>17s} {'values changed':>14s}")
    def row(name: str, t: Counter) -> None:
        n = max(1, t["found"])
        cells = " ".join(f"{100 * t[k + ' shipped'] / n:5.1f}% -> {100 * t[k + ' learned'] / n:5.1f}%" for k in ("known", "right", "wrong"))
        print(f"{name:76s} {t['found']:5d} {cells}  {t['values changed']:3d} of {t['readings']}")

    total: Counter = Counter()
    for res in results:
        row(res["name"], res["tally"])
        total += res["tally"] if res["name"].startswith("real") else Counter()
    if total["found"]:
        row("real, both sets", total)
        print(f"  wrong values (against the labels) on the dice read with the learned palette: {total['wrong values']}, "
              f"the same readings as with the shipped palette ({total['values changed']} changed)")
    for res in results:
        print(f"  {res['name']}: groups named {', '.join(f'{name or (chr(39) + chr(39))} ({k})' for name, k in res['groups'])}")
        if res.get("teach"):
            print(f"    taught from {', '.join(res['teach'])}")
        wrong = [(t, said, k) for (t, said), k in res["confusion"].most_common() if said not in (t, UNKNOWN_COLOUR)]
        if wrong:
            print("    wrong colours: " + ", ".join(f"{t} said {said} ({k})" for t, said, k in wrong))


def report_where(res: dict) -> None:
    """Where the real dice go, by value, size, sharpness and look: right / unsure / missed (/ wrong)."""
    where = res["where"]
    print(f"  where the dice go, {res['name']}:")
    for feature, bands in BANDS.items():
        for band in bands:
            n = sum(where[(feature, band, o)] for o in ("right", "unsure", "missed", "wrong"))
            if n:
                cells = "  ".join(f"{o} {where[(feature, band, o)]:3d} ({100 * where[(feature, band, o)] / n:3.0f}%)"
                                  for o in ("right", "unsure", "missed", "wrong"))
                print(f"    {feature:9s} {band:32s} {n:4d} dice: {cells}")


def report(results: list[dict], show_wrong: bool, show_where: bool = False) -> None:
    width = max([44] + [len(r["name"]) for r in results])
    print(f"{'':{width}s} {'dice':>5s} " + " ".join(f"{k:>14s}" for k in KEYS) + f" {'no die (sure)':>14s} {'ms med / p95':>13s}")
    for res in results:
        t, n = res["tally"], max(1, res["tally"]["dice"])
        cells = " ".join(f"{t[k]:5d} ({100 * t[k] / n:5.1f}%)" for k in KEYS)
        times = res["times"] or [0.0]
        print(f"{res['name']:{width}s} {t['dice']:5d} {cells} {t['no die']:6d} ({t['no die, sure']:3d})   "
              f"{np.median(times):5.1f} / {np.percentile(times, 95):5.1f}")
    parts: dict[str, dict] = {}
    for res in results:  # the same frames read by each reader in turn
        part, _, reader = res["name"].partition(": ")
        parts.setdefault(part, {})[": " + reader] = res
    for part, readers in parts.items():
        after = readers.get(MODEL_LABEL)
        if not after or not after["times"]:
            continue
        for label, words in ((FILED_LABEL, "the reader as filed"), (ALONE_LABEL, "the classical reader alone")):
            before = readers.get(label)
            if before and before["times"]:
                tb, ta = np.median(before["times"]), np.median(after["times"])
                right = after["tally"]["right"] - before["tally"]["right"]
                print(f"  {part}: with the face model / {words}: time {ta / tb:.2f}x ({tb:.1f} -> {ta:.1f} ms median), "
                      f"right {right:+d} dice, wrong {after['tally']['wrong'] - before['tally']['wrong']:+d}")
    for res in results:
        if res.get("colours"):
            print(f"  colours said, {res['name']}: " + ", ".join(f"{c} {k}" for c, k in res["colours"].most_common()))
        for line in res["wrong"][: None if show_wrong else 5]:
            print(f"  wrong, {res['name']}: {line}")
        if show_where and res.get("where"):
            report_where(res)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="8 rendered frames, every 4th photo")
    ap.add_argument("--smoke", action="store_true", help="1 rendered frame, 2 photos of each half: does it still run")
    ap.add_argument("--frames", type=int, help="rendered frames (default 60)")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--part", choices=("both", "rendered", "real", "colours"), default="both",
                    help="colours: dice colours taught by the family against the shipped palette (not in 'both')")
    ap.add_argument("--least", type=int, default=2, help="--part colours: each kind of die shown this often to teach")
    ap.add_argument("--most", type=int, default=8, help="--part colours: at most this many photos to teach from")
    ap.add_argument("--read-half", choices=("check", "tune"), default="check",
                    help="--part colours: read the check half (default) or the tuning half's other photos")
    ap.add_argument("--dice-dev", type=Path, default=DICE_DEV, help="the real photos' folder")
    ap.add_argument("--wrong", action="store_true", help="list every wrong reading")
    ap.add_argument("--where", action="store_true", help="real dice by value, size, sharpness and look: right / unsure / missed")
    ap.add_argument("--faces", default="shipped",
                    help="the face model beside the classical reader: shipped (default), a card's path (a fold), or none")
    ap.add_argument("--repeat", type=int, help="reads per frame, the least CPU time counts (default 3; --smoke 1)")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    repeat = args.repeat or (1 if args.smoke else 3)
    readers = [(ALONE_LABEL, DicePoolReader(faces=False))]
    as_filed, why_not = reader_as_filed()
    if as_filed is None:
        print(f"the reader as filed is left out: {why_not}")
    else:
        readers.insert(0, (FILED_LABEL, as_filed))
    if args.faces != "none":
        with_faces = DicePoolReader(faces=True if args.faces == "shipped" else FaceClassifier(args.faces))
        if with_faces.faces is None:
            print(f"the face model cannot be used: {with_faces.faces_problem}")
            return 1
        readers.append((MODEL_LABEL, with_faces))
    results = []
    if args.part in ("both", "rendered"):
        results += rendered(args.frames or (1 if args.smoke else 8 if args.quick else 60), args.seed, repeat=repeat,
                            readers=readers)
    if args.part in ("both", "real"):
        if not (args.dice_dev / "labels.json").is_file():
            print(f"real photos: skipped, {args.dice_dev} not found (it is beside the repository on a developer's machine)")
        else:
            step, limit = (1, 2) if args.smoke else (4, None) if args.quick else (1, None)
            for half in ("tune", "check"):
                results += real(args.dice_dev, half, step, limit, repeat, readers)
    if results:
        report(results, args.wrong, args.where)
    if args.part == "colours" or args.smoke:
        colour_results = [colours_rendered(args.seed, 1 if args.smoke else 4 if args.quick else 20)]
        if (args.dice_dev / "labels.json").is_file():
            colour_results += colours_real(args.dice_dev, args.smoke, args.least, args.most, args.read_half)
        else:
            print(f"dice colours on real photos: skipped, {args.dice_dev} not found")
        report_colours(colour_results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
