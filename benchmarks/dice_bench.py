"""Dice-pool reader on rendered dice pools: per-die accuracy, wrong reads, refusals, time.

    python benchmarks/dice_bench.py            # 60 frames of 12-16 dice
    python benchmarks/dice_bench.py --quick    # 8 frames, a few seconds
    python benchmarks/dice_bench.py --smoke    # 1 frame: it still runs (the figures mean nothing)

Frames come from vision.dice_synthetic.DiceTable: every colour of the palette and every face,
any rotation, about 30% of the dice pushed against a neighbour, soft shadows, bevelled rims,
uneven light, defocus, noise and JPEG on wood, felt and a checked cloth. A die is "correct"
when a reading lies on it with its colour and value; "wrong" when a sure reading says another
colour or value (the number that must stay at zero); "unsure" when the reader says it cannot
tell (the player taps the value); "missed" when no reading lies on it; "phantom" a reading on
no die.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision.dice import DicePoolReader  # noqa: E402
from vision.dice_synthetic import DiceTable  # noqa: E402


def run(frames: int, seed: int, die_px=(34, 64)) -> Counter:
    cv2.setNumThreads(1)
    table = DiceTable(seed=seed)
    reader = DicePoolReader()
    tally: Counter = Counter()
    times = []
    wrong_examples = []
    for _ in range(frames):
        pool = table.random_pool(int(np.random.default_rng(len(times)).integers(12, 17)), die_px=die_px)
        t0 = time.thread_time()
        readings = reader.read(pool.image)
        times.append((time.thread_time() - t0) * 1000)
        used = set()
        for die in pool.dice:
            tally["dice"] += 1
            near = [k for k, r in enumerate(readings) if math.dist(r.centre, die.centre) < 0.5 * die.side_px]
            if not near:
                tally["missed"] += 1
                continue
            r = readings[near[0]]
            used.update(near)
            if r.value is None:
                tally["unsure"] += 1
            elif (r.colour, r.value) == (die.colour, die.value):
                tally["correct"] += 1
            else:
                tally["wrong"] += 1
                wrong_examples.append(f"{die.colour} {die.value} read as {r.colour} {r.value} ({r.confidence:.2f})")
        tally["phantom"] += sum(1 for k, r in enumerate(readings) if k not in used and r.value is not None)
    n = tally["dice"]
    print(f"dice_bench: {frames} frames, {n} dice, die side {die_px[0]}-{die_px[1]} px, seed {seed}")
    for key in ("correct", "wrong", "unsure", "missed", "phantom"):
        print(f"  {key:8s} {tally[key]:5d}  {100 * tally[key] / max(1, n):5.1f}%")
    sure = tally["correct"] + tally["wrong"]
    print(f"  of the sure readings, wrong: {tally['wrong']}/{sure} = {100 * tally['wrong'] / max(1, sure):.2f}%")
    print(f"  time per frame: median {np.median(times):.0f} ms, p95 {np.percentile(times, 95):.0f} ms (CPU time, 1280x720, one thread)")
    for line in wrong_examples[:10]:
        print("    wrong:", line)
    return tally


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--smoke", action="store_true", help="one frame: does it still run")
    ap.add_argument("--frames", type=int)
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args(argv)
    run(args.frames or (1 if args.smoke else 8 if args.quick else 60), args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
