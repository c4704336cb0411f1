"""Fuzzing of the native tag readers (issue 21): the AprilTag C binding and the whole TagDetector.

Meant to run in a child process (tests/robustness/test_vision_native.py starts it), because what
it looks for is a crash of native code, which would take the process down with it:

    .venv/bin/python -m tests.robustness.vision_fuzz detector --frames 1000 --seed 7
    .venv/bin/python -m tests.robustness.vision_fuzz binding --frames 1000 --seed 7

Frames come in random sequences of sizes (0x0, 1x1, thin strips, tiny, odd widths, camera sizes,
4K), with random pixels (noise, flat, stripes, tags drawn at and across the borders, synthetic
table frames stretched to the size), in random memory layouts (contiguous, strided, flipped,
Fortran order, read-only, from a bytes buffer, BGR, BGRA, one-channel 3-D) and some that are not
8-bit images at all. The detector sees bursts of frames of one size (so it remembers where tags
were) and then another size, often a smaller one: the camera-switch crash of issue 21.

Before each frame the child prints one line describing it, so the last line names the frame a
crash happened on. An 8-bit image must never raise; anything else must raise a ValueError. The
last line of a clean run is `DONE <target> frames=N seconds=S`; any other ending is a failure.
"""

from __future__ import annotations

import argparse
import faulthandler
import sys
import time
import traceback
from typing import Callable

import numpy as np

TAG36_IDS = 587
CAMERA_SIZES = [(640, 480), (1280, 720), (1920, 1080), (800, 600), (320, 240), (640, 360)]


def random_size(rng: np.random.Generator) -> tuple[int, int]:
    """(width, height) from the shapes a broken or unusual camera could deliver."""
    kind = rng.choice(["zero", "one", "strip", "tiny", "small", "odd", "camera", "4k"],
                      p=[0.06, 0.04, 0.14, 0.14, 0.14, 0.18, 0.29, 0.01])
    if kind == "zero":
        return [(0, 0), (0, int(rng.integers(1, 500))), (int(rng.integers(1, 500)), 0)][rng.integers(3)]
    if kind == "one":
        return 1, 1
    if kind == "strip":
        thin, long = int(rng.integers(1, 9)), int(rng.integers(9, 2000))
        return (thin, long) if rng.random() < 0.5 else (long, thin)
    if kind == "tiny":
        return int(rng.integers(2, 41)), int(rng.integers(2, 41))
    if kind == "small":
        return int(rng.integers(41, 200)), int(rng.integers(41, 200))
    if kind == "odd":
        return int(rng.integers(100, 1000)) * 2 + 1, int(rng.integers(50, 600)) * 2 + 1
    if kind == "camera":
        return CAMERA_SIZES[rng.integers(len(CAMERA_SIZES))]
    return 3840, 2160


def tag_image(tag_id: int, side: int) -> np.ndarray:
    """AprilTag 36h11 `tag_id` with its white quiet ring, `side` px across (nearest neighbour)."""
    import cv2

    from vision.tags import apriltag_modules

    modules = np.pad(apriltag_modules(tag_id), 1, constant_values=255)
    return cv2.resize(modules, (side, side), interpolation=cv2.INTER_NEAREST)


def paste(canvas: np.ndarray, img: np.ndarray, x: int, y: int) -> None:
    """`img` with its top-left at (x, y), clipped to the canvas (x, y may be negative)."""
    h, w = canvas.shape
    ih, iw = img.shape
    x0, y0, x1, y1 = max(x, 0), max(y, 0), min(x + iw, w), min(y + ih, h)
    if x1 > x0 and y1 > y0:
        canvas[y0:y1, x0:x1] = img[y0 - y:y1 - y, x0 - x:x1 - x]


class Pixels:
    """Random grey pixels of a given size: noise, flat, stripes, tags at the borders, table scenes."""

    def __init__(self, rng: np.random.Generator, scenes: list[np.ndarray]) -> None:
        self.rng = rng
        self.scenes = scenes  # a few synthetic table frames (grey), stretched to any size

    def make(self, w: int, h: int, kind: str | None = None) -> tuple[np.ndarray, str]:
        rng = self.rng
        kind = kind or str(rng.choice(["noise", "flat", "stripes", "tags", "border-tags", "scene"],
                                      p=[0.15, 0.1, 0.1, 0.25, 0.2, 0.2]))
        if h == 0 or w == 0:
            return np.zeros((h, w), np.uint8), kind
        if kind == "noise":
            return rng.integers(0, 256, (h, w), dtype=np.uint8), kind
        if kind == "flat":
            return np.full((h, w), int(rng.integers(0, 256)), np.uint8), kind
        if kind == "stripes":
            period = int(rng.integers(1, 40))
            axis = np.arange(w if rng.random() < 0.5 else h)
            line = ((axis // period) % 2 * 255).astype(np.uint8)
            return (np.broadcast_to(line, (h, w)) if len(axis) == w else np.broadcast_to(line[:, None], (h, w))).copy(), kind
        if kind == "scene":
            import cv2

            scene = self.scenes[rng.integers(len(self.scenes))]
            return cv2.resize(scene, (w, h), interpolation=cv2.INTER_AREA if w < scene.shape[1] else cv2.INTER_LINEAR), kind
        canvas = np.full((h, w), int(rng.integers(120, 256)), np.uint8)
        if rng.random() < 0.5:
            canvas = np.clip(canvas + rng.normal(0, 6, (h, w)), 0, 255).astype(np.uint8)
        for _ in range(int(rng.integers(1, 7))):
            side = int(rng.integers(6, max(7, min(300, 2 * max(h, w)))))
            img = tag_image(int(rng.integers(TAG36_IDS)), side)
            if kind == "border-tags":  # on, across or just past an edge or a corner
                x = int(rng.choice([-side + 1, -side // 2, 0, w - side, w - side // 2, w - 1, int(rng.integers(-side, w + 1))]))
                y = int(rng.choice([-side + 1, -side // 2, 0, h - side, h - side // 2, h - 1, int(rng.integers(-side, h + 1))]))
            else:
                x, y = int(rng.integers(-side // 4, max(1, w - side // 2))), int(rng.integers(-side // 4, max(1, h - side // 2)))
            paste(canvas, img, x, y)
        return canvas, kind


def layout(rng: np.random.Generator, gray: np.ndarray, colour: bool) -> tuple[np.ndarray, str, bool]:
    """The pixels in a random memory layout: (array, name, whether it is a valid 8-bit image)."""
    h, w = gray.shape
    choice = str(rng.choice(["plain", "bgr", "bgra", "one-channel", "strided", "flipped", "fortran", "read-only",
                             "bytes", "padded-rows", "not-8-bit", "bad-shape"],
                            p=[0.2, 0.14, 0.05, 0.04, 0.1, 0.08, 0.08, 0.08, 0.06, 0.07, 0.05, 0.05]))
    if not colour and choice in ("bgr", "bgra", "one-channel"):
        choice = "plain"
    if choice == "plain":
        return gray, choice, True
    if choice == "bgr":
        return np.dstack([gray, gray, gray]), choice, True
    if choice == "bgra":
        return np.dstack([gray, gray, gray, np.full_like(gray, 255)]), choice, True
    if choice == "one-channel":
        return gray[:, :, None], choice, True
    if choice == "strided":  # every other column of a twice-as-wide image
        wide = np.repeat(gray, 2, axis=1)
        return wide[:, ::2], choice, True
    if choice == "flipped":
        return np.ascontiguousarray(gray[::-1, ::-1])[::-1, ::-1], choice, True
    if choice == "fortran":
        return np.asfortranarray(gray), choice, True
    if choice == "read-only":
        out = gray.copy()
        out.setflags(write=False)
        return out, choice, True
    if choice == "bytes":
        return np.frombuffer(gray.tobytes(), np.uint8).reshape(h, w), choice, True
    if choice == "padded-rows":  # rows inside a wider buffer (a crop of a bigger frame)
        buf = np.zeros((h, w + int(rng.integers(1, 64))), np.uint8)
        buf[:, :w] = gray
        return buf[:, :w], choice, True
    if choice == "not-8-bit":
        dtype = [np.float32, np.float64, np.uint16, np.int8, np.int64, bool][rng.integers(6)]
        return gray.astype(dtype), choice + ":" + np.dtype(dtype).name, False
    shapes = [(h, w, 2), (h, w, 5), (h,), (1, h, w, 1)]
    bad = shapes[rng.integers(len(shapes))]
    return np.zeros(bad, np.uint8), f"bad-shape:{bad}", False


# Every run starts with these (size, pixels), two frames each: the camera switch of issue 21 and
# one of each kind of size, so even a short run meets them all.
SCRIPTED = [((1920, 1080), "scene"), ((1920, 1080), "border-tags"), ((640, 480), "flat"), ((0, 0), "flat"),
            ((1, 1), "noise"), ((3840, 2160), "tags"), ((3, 1000), "noise"), ((1001, 3), "tags"),
            ((641, 479), "border-tags"), ((9, 17), "tags"), ((1280, 720), "scene"), ((320, 240), "border-tags")]


def random_region(rng: np.random.Generator, w: int, h: int) -> tuple[int, int, int, int] | None:
    """None (the whole image) or a region inside, across the borders, outside, inverted or huge."""
    kind = rng.choice(["none", "inside", "border", "outside", "inverted", "huge", "thin"])
    W, H = max(w, 1), max(h, 1)
    if kind == "none":
        return None
    if kind == "inside":
        x0, y0 = int(rng.integers(0, W)), int(rng.integers(0, H))
        return x0, y0, int(rng.integers(x0, W + 1)), int(rng.integers(y0, H + 1))
    if kind == "border":
        x0, y0 = int(rng.integers(-W, W)), int(rng.integers(-H, H))
        return x0, y0, x0 + int(rng.integers(1, 2 * W)), y0 + int(rng.integers(1, 2 * H))
    if kind == "outside":
        return W + 5, H + 5, 2 * W + 100, 2 * H + 100
    if kind == "inverted":
        return int(rng.integers(0, W)) + 10, int(rng.integers(0, H)) + 10, int(rng.integers(-10, W)), int(rng.integers(-10, H))
    if kind == "huge":
        return -10**9, -10**9, 10**9, 10**9
    x0 = int(rng.integers(0, W))
    return x0, 0, x0 + int(rng.integers(1, 4)), H


def make_scenes(seed: int) -> list[np.ndarray]:
    import cv2

    from vision.synthetic import SyntheticTable

    table = SyntheticTable(seed=seed, size=(640, 360))
    ids = table.card_ids
    rng = np.random.default_rng(seed)
    scenes = []
    for n, px in ((3, 40.0), (6, 24.0)):
        cards = [ids[i] for i in rng.choice(len(ids), n, replace=False)]
        scenes.append(cv2.cvtColor(table.frame(cards, tag_px=px), cv2.COLOR_BGR2GRAY))
    return scenes


def run(target: str, frames: int, seed: int, say: Callable[[str], None]) -> int:
    from vision.apriltag_lib import LibDetector
    from vision.detector import DetectorConfig, TagDetector

    rng = np.random.default_rng(seed)
    pixels = Pixels(rng, make_scenes(seed))
    configs = [DetectorConfig(), DetectorConfig(lib_bands=3, lib_every=1), DetectorConfig(roi_tracking=False),
               DetectorConfig(crop_decimate=1.5, lib_decimate=2.0)]
    decimations = (1.0, 1.5, 2.0, 3.0, 4.0, 12.0)
    if target == "binding":
        readers = {d: LibDetector({"tag36h11": 0, "tagStandard41h12": 0} if d == 2.0 else {"tag36h11": 0},
                                  quad_decimate=d) for d in decimations}
    else:
        detector = TagDetector(active=None, kinds=["apriltag", "qr"])
    done = 0
    script = list(SCRIPTED)
    while done < frames:
        (w, h), scripted = script.pop(0) if script else (random_size(rng), None)
        burst = 2 if scripted else int(rng.integers(1, 9))
        if target == "detector" and rng.random() < 0.03:
            detector = TagDetector(active=rng.choice([None, {"carmen"}]), config=configs[rng.integers(len(configs))],
                                   kinds=["apriltag", "qr"] if rng.random() < 0.5 else ["apriltag"])
        for _ in range(min(burst, frames - done)):
            gray, content = pixels.make(w, h, scripted)
            image, how, valid = layout(rng, gray, colour=target == "detector")
            if target == "binding":
                dec = decimations[rng.integers(len(decimations))]
                region = random_region(rng, w, h)
                say(f"frame {done}: binding {w}x{h} {content} {how} decimate={dec} region={region}")
                call = lambda: readers[dec].detect(image, region)  # noqa: E731
            else:
                say(f"frame {done}: detector {w}x{h} {content} {how}")
                call = lambda: detector.detect(image)  # noqa: E731
            try:
                call()
            except ValueError as exc:
                if valid:
                    say(f"FAIL: a valid 8-bit image raised {exc!r}")
                    return 1
                if not str(exc):
                    say("FAIL: a ValueError without a message")
                    return 1
            except Exception:
                say("FAIL: unexpected exception\n" + traceback.format_exc())
                return 1
            else:
                if not valid:
                    say("FAIL: an image that is not an 8-bit image was accepted")
                    return 1
            done += 1
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("target", choices=["binding", "detector"])
    ap.add_argument("--frames", type=int, default=500)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    faulthandler.enable()  # a native crash prints the Python stack it happened under

    def say(text: str) -> None:
        print(text, flush=True)

    t0 = time.monotonic()
    code = run(args.target, args.frames, args.seed, say)
    if code == 0:
        say(f"DONE {args.target} frames={args.frames} seconds={time.monotonic() - t0:.1f}")
    return code


if __name__ == "__main__":
    sys.exit(main())
