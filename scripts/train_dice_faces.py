"""Train the dice face model (vision/dice_faces.py) and write it to assets/dice/.

A development tool, never part of the app or the installers: it needs PyTorch and onnx, the
`train` extra (`pip install -e '.[train]'`; PyTorch's CPU build is enough, about 15 minutes a
model on two cores). The app runs the exported model with OpenCV's own cv2.dnn.

    python scripts/train_dice_faces.py                                  # the shipped model: both halves + rendered
    python scripts/train_dice_faces.py --photos tune --out /tmp/fold    # a fold, to measure on the other half
    python benchmarks/dice_bench.py --part real --faces /tmp/fold/dice_faces.toml

Data: the labelled real photos (../shared/dice-dev, used from there, never copied; split into
halves by benchmarks/dice_bench.photo_half) and rendered pools (vision/dice_synthetic.py, with
colours the palette lacks). Each labelled die gives windows of 1.3 die sides around it, turned
any way, mirrored, 0.85-1.2 times its size and up to 0.12 of its side off centre (class = its
value); as many windows are "no die centred here" (class 0): beside a die (0.45-1.1 die sides off,
where two dice meet), over several dice, on a part of a die, on the table. Training changes each
window's colours (channels swapped, gains, towards grey), adds noise, blur and glints (small bright
streaks, which are not pips). The card (dice_faces.toml) keeps the model's checksum, its window
and the thresholds the reader uses; thresholds are kept from the card already there.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.dice_bench import COLOUR_LABELS as DICE_COLOURS, DICE_DEV, photo_half  # noqa: E402
from vision.dice import DieColour  # noqa: E402
from vision.dice_faces import INPUTS, face_crop, standardise  # noqa: E402
from vision.dice_synthetic import DiceTable  # noqa: E402

CROP, WINDOW = 40, 1.3  # the window's pixels (set by --crop) and die sides
DEFAULT_USE = {"veto": 0.9, "agree": 0.6, "agree_one": 0.85, "new": 0.9, "new_all": 0.87, "alone_at_refused": True,
               "screen": 0.7, "face_to_die": 1.74, "views": 6, "own_ratio_below": 1.4, "largest": 1.3}
OTHER_COLOURS = [DieColour("purple", (140, 40, 110), "light"), DieColour("orange", (30, 120, 240), "dark"),
                 DieColour("cream", (190, 225, 235), "dark")]


def windows(image: np.ndarray, dice: list[tuple[int, float, float, float]], rng, per_die: int, none_per_die: int):
    """Training windows of one picture: (crops, classes). dice: (value, x, y, side)."""
    crops, classes = [], []
    if not dice:
        return crops, classes
    centres = np.array([(d[1], d[2]) for d in dice])
    sides = np.array([d[3] for d in dice])
    usual = float(np.median(sides))
    h, w = image.shape[:2]
    for value, x, y, side in dice:
        for _ in range(per_die):
            dx, dy = rng.uniform(-0.12, 0.12, 2) * side
            crops.append(face_crop(image, (x + dx, y + dy), side * rng.uniform(0.85, 1.2), CROP, WINDOW,
                                   rng.uniform(0, 360), rng.random() < 0.5))
            classes.append(value)
    wanted, tries = none_per_die * len(dice), 0
    while classes.count(0) < wanted and tries < 20 * wanted:
        tries += 1
        kind, k = rng.random(), int(rng.integers(len(dice)))
        if kind < 0.5:  # beside a die, where two dice meet
            a, d = rng.uniform(0, 2 * math.pi), rng.uniform(0.45, 1.1) * sides[k]
            x, y = centres[k] + d * np.array([math.cos(a), math.sin(a)])
            s = usual * rng.uniform(0.85, 1.2)
        elif kind < 0.65:  # over several dice
            (x, y), s = centres[k] + rng.uniform(-0.5, 0.5, 2) * sides[k], sides[k] * rng.uniform(1.8, 2.6)
        elif kind < 0.75:  # a part of a die
            (x, y), s = centres[k] + rng.uniform(-0.3, 0.3, 2) * sides[k], sides[k] * rng.uniform(0.4, 0.6)
        else:  # the table
            x, y, s = rng.uniform(0, w), rng.uniform(0, h), usual * rng.uniform(0.85, 1.2)
        if not 0.65 <= kind < 0.75 and (np.hypot(centres[:, 0] - x, centres[:, 1] - y) / sides < 0.45).any():
            continue
        crops.append(face_crop(image, (x, y), s, CROP, WINDOW, rng.uniform(0, 360), rng.random() < 0.5))
        classes.append(0)
    return crops, classes


def photo_windows(folder: Path, halves: set[str], seed: int, hard: set[str] = frozenset()):
    """Windows of the labelled photos' dice; dice of the ``hard`` colours (benchmarks/dice_dev_colours.json,
    named by eye) get twice as many, each window cut anew (another turn, size and offset)."""
    labels = json.loads((folder / "labels.json").read_text(encoding="utf-8"))["images"]
    colours = json.loads(DICE_COLOURS.read_text(encoding="utf-8"))["photos"] if hard else {}
    rng = np.random.default_rng(seed)
    crops, classes = [], []
    for name in sorted(labels):
        if photo_half(name) not in halves:
            continue
        image = cv2.imread(str(folder / "images" / f"{name}.jpg"))
        dice = [(v, (x1 + x2) / 2, (y1 + y2) / 2, max(x2 - x1, y2 - y1)) for v, x1, y1, x2, y2 in labels[name]["dice"]]
        c, k = windows(image, dice, rng, 24, 24)
        crops += c
        classes += k
        if hard:
            c, k = windows(image, [d for d, colour in zip(dice, colours[name]) if colour in hard], rng, 24, 0)
            crops += c
            classes += k
    return np.array(crops, np.uint8), np.array(classes, np.int64)


def rendered_windows(frames: int, seed: int):
    table = DiceTable(seed=seed, size=(960, 540), other_colours=OTHER_COLOURS)
    rng = np.random.default_rng(seed)
    crops, classes = [], []
    for _ in range(frames):
        pool = table.random_pool(int(rng.integers(8, 15)), die_px=(28, 64))
        # A rendered die's side is its face's; a photo's box holds the die's rim and sides too.
        c, k = windows(pool.image, [(d.value, *d.centre, 1.05 * d.side_px) for d in pool.dice], rng, 6, 6)
        crops += c
        classes += k
    return np.array(crops, np.uint8), np.array(classes, np.int64)


def train(crops, classes, epochs: int, seed: int, arch: str, colours: str = "bgr"):
    import torch
    import torch.nn.functional as F

    torch.manual_seed(seed)
    torch.set_num_threads(2)
    net = face_net(arch)
    opt = torch.optim.AdamW(net.parameters(), 2e-3, weight_decay=1e-3)
    batch = 256
    steps = epochs * (len(crops) // batch)
    schedule = torch.optim.lr_scheduler.OneCycleLR(opt, 4e-3, total_steps=steps)
    rng = np.random.default_rng(seed)
    started = time.time()
    for epoch in range(epochs):
        net.train()
        order, total = rng.permutation(len(crops)), 0.0
        for i in range(0, len(order) - batch + 1, batch):
            b = order[i:i + batch]
            x = torch.from_numpy(standardise(augment(crops[b], rng), colours))
            loss = F.cross_entropy(net(x), torch.from_numpy(classes[b]), label_smoothing=0.02)
            opt.zero_grad()
            loss.backward()
            opt.step()
            schedule.step()
            total += loss.item()
        print(f"epoch {epoch + 1}/{epochs}: loss {total / (len(order) // batch):.4f} ({time.time() - started:.0f} s)", flush=True)
    return net.eval()


def face_net(arch: str):
    """A small convolutional net: 40x40x3 -> 7 (no die, 1-6), its first layer strided. Times are a window's
    with cv2.dnn on one core. "small": 16-64 channels (about 0.19 ms); "narrow": its second layer 24
    channels (0.15 ms); "wide": 24-96 channels, not strided (0.45 ms); "sep": after the first layer each
    3x3 layer split into one 3x3 filter a channel and a 1x1 mix (16-96 channels, 0.06 ms); "sepw": the same,
    24-128 channels (0.09 ms); "poolearly": "small" with its second layer after the first pooling (0.13 ms)."""
    import torch.nn as nn

    def plain(channels: int, width: int, stride: int = 1) -> list:
        return [nn.Conv2d(channels, width, 3, stride=stride, padding=1), nn.BatchNorm2d(width), nn.ReLU()]

    def split(channels: int, width: int) -> list:
        return [nn.Conv2d(channels, channels, 3, padding=1, groups=channels), nn.BatchNorm2d(channels), nn.ReLU(),
                nn.Conv2d(channels, width, 1), nn.BatchNorm2d(width), nn.ReLU()]

    widths, stride = {"small": ((16, 32, 48, 64), 2), "narrow": ((16, 24, 48, 64), 2), "wide": ((24, 48, 64, 96), 1),
                      "sep": ((16, 48, 64, 96), 2), "sepw": ((24, 64, 96, 128), 2), "poolearly": ((16, 32, 48, 64), 2)}[arch]
    pooled_after = {"poolearly": (0, 2)}.get(arch, (1, 2) if stride == 2 else (0, 1, 2))
    layers: list = []
    channels = 3
    for k, width in enumerate(widths):
        layers += plain(channels, width, stride if k == 0 else 1) if k == 0 or not arch.startswith("sep") \
            else split(channels, width)
        if k in pooled_after:
            layers.append(nn.MaxPool2d(2))
        channels = width
    layers += [nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.2), nn.Linear(channels, 7)]
    return nn.Sequential(*layers)


def augment(crops: np.ndarray, rng) -> np.ndarray:
    """Each window's colours changed, with noise, glints and blur: the value is in the pips' layout."""
    x = crops.astype(np.float32)
    n = len(x)
    x = np.take_along_axis(x, np.array([rng.permutation(3) for _ in range(n)])[:, None, None, :], axis=3)
    x *= rng.uniform(0.7, 1.3, (n, 1, 1, 3))
    x += rng.uniform(-40, 40, (n, 1, 1, 1))
    grey = x.mean(axis=3, keepdims=True)
    mix = rng.uniform(0, 1, (n, 1, 1, 1)) * (rng.random((n, 1, 1, 1)) < 0.3)
    x = x * (1 - mix) + grey * mix
    x += rng.uniform(0, 6) * rng.standard_normal(x.shape).astype(np.float32) * rng.normal(0, 1, (n, 1, 1, 1))
    for i in np.nonzero(rng.random(n) < 0.3)[0]:  # a glint: a small bright streak, not a pip
        centre = tuple(int(v) for v in rng.uniform(0.2, 0.8, 2) * CROP)
        axes = (int(rng.uniform(1, 4) * CROP / 40), int(rng.uniform(1, 8) * CROP / 40))
        cv2.ellipse(x[i], centre, axes, float(rng.uniform(0, 180)), 0, 360, (255, 255, 255), -1)
    for i in np.nonzero(rng.random(n) < 0.25)[0]:
        x[i] = cv2.GaussianBlur(x[i], (0, 0), float(rng.uniform(0.5, 1.3)))
    return np.clip(x, 0, 255)


def export(net, out: Path, note: str, colours: str = "bgr") -> None:
    import torch

    out.mkdir(parents=True, exist_ok=True)
    model = out / "dice_faces.onnx"
    torch.onnx.export(net, (torch.zeros(1, 3, CROP, CROP),), str(model), input_names=["crops"], output_names=["logits"],
                      dynamic_axes={"crops": {0: "n"}}, opset_version=17, dynamo=False)
    card = out / "dice_faces.toml"
    use = dict(DEFAULT_USE)
    if card.is_file():
        import tomllib
        use.update(tomllib.loads(card.read_text(encoding="utf-8")).get("use", {}))
    digest = hashlib.sha256(model.read_bytes()).hexdigest()
    lines = [
        "# The dice face model (vision/dice_faces.py), written by scripts/train_dice_faces.py.",
        "# [model]: the file, its checksum (the reader refuses a file that differs), its window: crop_px square,",
        "# window_sides die sides wide; input, how a window is given to it (bgr: its three channels together to",
        "# one spread; lab: lightness, red-green and yellow-blue each to its own).",
        "# [use]: the reader's thresholds (probabilities 0-1), set on the first fold (a model of the tuning half",
        "# reading the check half) and checked on the other (docs/vision.md): veto, a sure classical value the",
        "# model is this sure is another face becomes unsure; agree / agree_one, a refused classical face (a lone",
        "# pip) is read when the model gives its value in `views` of a place's 8 views (4 turns, each mirrored;",
        "# 3-8) with this mean; new, the same for a die the model alone reads; new_all, the same at a lone die's",
        "# region when all 8 views agree; alone_at_refused, the model alone also looks where a face was refused;",
        "# screen, one view must reach this part of what 8 views need before they are looked at; face_to_die,",
        "# the window's die side over the classical reader's face side; own_ratio_below, a frame whose lone dice",
        "# give a median ratio under this uses its own (0: never); largest, no window wider than this many of the",
        "# frame's usual dice (0: no limit).",
        "",
        "[model]",
        'file = "dice_faces.onnx"',
        f'sha256 = "{digest}"',
        f"crop_px = {CROP}",
        f"window_sides = {WINDOW}",
        f'input = "{colours}"',
        f"trained_on = {json.dumps(note)}",
        "",
        "[use]",
    ] + [f"{k} = {str(v).lower() if isinstance(v, bool) else v}" for k, v in use.items()]
    card.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {model} ({model.stat().st_size} bytes) and {card}")


def main(argv=None) -> int:
    global CROP
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dice-dev", type=Path, default=DICE_DEV)
    ap.add_argument("--photos", choices=("both", "tune", "check"), default="both", help="which halves of the real photos")
    ap.add_argument("--rendered", type=int, default=300, help="rendered pools")
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--arch", choices=("small", "narrow", "wide", "sep", "sepw", "poolearly"), default="small")
    ap.add_argument("--input", choices=INPUTS, default="bgr", help="the model's input: bgr, or lab (each channel to its own spread)")
    ap.add_argument("--hard-colours", default="",
                    help="dice colours (by-eye names of benchmarks/dice_dev_colours.json) given twice the windows")
    ap.add_argument("--crop", type=int, default=CROP, choices=(32, 36, 40),
                    help="the window's side in pixels (32: about 0.6 of the model's time a window at 40)")
    ap.add_argument("--out", type=Path, default=ROOT / "assets" / "dice")
    args = ap.parse_args(argv)
    CROP = args.crop
    if not (args.dice_dev / "labels.json").is_file():
        print(f"{args.dice_dev}: no labelled photos there", file=sys.stderr)
        return 2
    halves = {"tune", "check"} if args.photos == "both" else {args.photos}
    hard = {c.strip() for c in args.hard_colours.split(",") if c.strip()}
    real, real_classes = photo_windows(args.dice_dev, halves, args.seed, hard)
    made, made_classes = rendered_windows(args.rendered, args.seed + 4)
    # The real windows twice: there are fewer of them, and they are what a family's camera sees.
    crops = np.concatenate([real, real, made])
    classes = np.concatenate([real_classes, real_classes, made_classes])
    print(f"{len(real)} real windows ({args.photos}), {len(made)} rendered; classes {np.bincount(classes).tolist()}")
    net = train(crops, classes, args.epochs, args.seed, args.arch, args.input)
    hard_note = f", twice the windows for {args.hard_colours}" if hard else ""
    export(net, args.out, f"dice-dev photos ({args.photos}), {args.rendered} rendered pools, {args.arch} net, {CROP} px, "
                          f"{args.epochs} epochs, seed {args.seed}, {args.input} input{hard_note}", args.input)
    return 0


if __name__ == "__main__":
    sys.exit(main())
