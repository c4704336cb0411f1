"""Vision benchmark: every tag reader on the same frames, in one run; every figure beside the best reader's.

    python benchmarks/vision_bench.py            # full run: >=100,000 decoded tags, >=2,000 clutter frames (long)
    python benchmarks/vision_bench.py --quick    # small counts: a first look at every part
    python benchmarks/vision_bench.py --smoke    # seconds: every part still runs (the figures mean nothing)

Parts:
  1. Readers side by side per scenario, on synthetic 1280x720 frames: the original scenes and
     the realistic ones (`vision.synthetic.REALISTIC_SCENARIOS`: perspective up to 75 degrees,
     lens distortion, defocus, motion blur, sensor noise and webcam JPEG, glare on glossy cards,
     a hand holding the card, tags from 14 px to ~620 px; issue 21: small blurred tags of 14-20 px,
     steep (60-75 degree) defocused tags of 100-300 px, a printed sheet of hundreds of small tags). AprilTag readers: ours (default
     pipeline), ours before issue 12 (OpenCV + our sampler only), plain OpenCV ArucoDetector,
     pupil-apriltags at quad_decimate 1 and 2 (as shipped: one thread). QR: ours (zxing-cpp),
     pyzbar, OpenCV QRCodeDetector. Per reader: correct / missed / wrong-id / phantom reads
     (per card), median and p95 ms per frame on one thread, and each figure as a ratio to the
     best AprilTag reader of that scenario (read rate / best rate; median ms / fastest).
     pupil-apriltags counts exact reads only (reads with corrected bits are counted apart);
     "opencv-aruco exact" is OpenCV's defaults accepting exact codewords only.
  1b. The same frames tag by tag, per tag-side band (<20, 20-40, 40-100, 100-300, >=300 px) and
     tilt band: exact reads of ours, pupil at both decimations and OpenCV, as ratios to the best
     reader's count in each band, wrong ids apart.  2. The double tag under a finger: the same finger scenes with one-tag and two-tag stickers.
  3. Camera loop: 30 fps sequences through detector (with its memory of recent tags) + tracker;
     share of presentations confirmed within 0.5 s, and ms per frame.
  4. Safety: our reader on frames of every tagged scenario (realistic ones included) until >= N
     decoded tags, plus clutter frames; wrong ids and phantom reads must be zero.
  5. Real photographs: ../shared/vision-dev (benchmarks/vision_realphotos.py), every reader,
     Kalibr aprilgrid tags scored apart, standard tags also per tag-side band.
  6. Search budget (issue 21): sheets of hundreds of small tags in a 640x360 frame, read as a
     still with three still budgets, and on video frame by frame.
  7. Corrected bits (issue 30): printed squares 1 or 2 cells off a registered code, squares of
     random cells and noise frames; every read there is a phantom. Ours' reads with corrected bits
     are also scored apart in parts 1b, 4 and 5, and "pupil d1 +corrected" is pupil at decimation 1
     with its corrected reads counted in (the reference library's full count).

Times are CPU time of the reading thread (time.thread_time: what the frame costs one core;
the same as wall-clock time on a free core). The machine this runs on is shared, and
wall-clock times there vary by 2-3x with the other sessions' load.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from vision.detector import DecoderUnavailableError, DetectorConfig, TagDetector  # noqa: E402
from vision.payload import PayloadError, decode_payload  # noqa: E402
from vision.registry import TagRegistry  # noqa: E402
from vision.synthetic import ALL_SCENARIOS, SCENARIOS, SyntheticFrame, SyntheticTable, draw_degradation  # noqa: E402

APRILTAG_BASELINES = ("ours-apriltag", "ours before issue 12", "opencv-aruco exact", "pupil-apriltags decimate 1",
                      "pupil-apriltags decimate 2")
# Issue 21: the readers compared tag by tag, per size and angle band, exact reads only.
BAND_READERS = ("ours-apriltag", "pupil-apriltags decimate 1", "pupil-apriltags decimate 2", "opencv-aruco exact")
SIZE_BANDS = ((0, 20, "<20 px"), (20, 40, "20-40 px"), (40, 100, "40-100 px"), (100, 300, "100-300 px"), (300, 1e9, ">=300 px"))
ANGLE_BANDS = ((0, 30, "tilt <30 deg"), (30, 50, "tilt 30-50"), (50, 60, "tilt 50-60"), (60, 90, "tilt 60-75"))
# --baseline: ours with some DetectorConfig fields changed, run beside ours on the same frames.
BASELINE_READER = "ours baseline"
CORRECTED: dict[str, int] = defaultdict(int)  # reads with corrected bits each reader made (left out of every count)
# The reference library's full count (issue 30): pupil at decimation 1 with its corrected reads counted in,
# scored from the same detections as its exact reads (no second run: its time is decimation 1's).
PUPIL_FULL = "pupil d1 +corrected"
BAND_READERS = (*BAND_READERS, PUPIL_FULL)
# Ours' reads with corrected bits (counted in ours' figures): the reads of the frame just read, per reader,
# scored apart after each frame (right / wrong id / phantom) into OURS_CORRECTED.
LAST_CORRECTED: dict[str, list] = {}
OURS_CORRECTED: dict[str, "Tally"] = {}
from vision.tags import TagKind  # noqa: E402
from vision.tracker import SightingTracker  # noqa: E402

Read = tuple[str | None, tuple[float, float]]  # (card id or None if not a registered card, centre)


@dataclass
class Reader:
    name: str
    kind: TagKind  # which frames it reads
    read: Callable[[np.ndarray], list[Read]]


def build_readers(registry: TagRegistry, with_variants: bool = True, baseline: dict | None = None) -> list[Reader]:
    readers: list[Reader] = []

    def card_of(tag_id: int) -> str | None:
        entry = registry.entry_for_tag(tag_id)
        return entry.card_id if entry else None

    def ours(config: DetectorConfig, kinds=(TagKind.APRILTAG,), backend="zxing", name: str = ""):
        det = TagDetector(active=None, registry=registry, kinds=kinds, config=config, qr_backend=backend)

        def read(g):
            detections = det.detect(g)
            if name:
                LAST_CORRECTED[name] = [(d.card_id, d.center) for d in detections if d.corrected]
            return [(d.card_id, d.center) for d in detections]
        return read

    single = DetectorConfig(roi_tracking=False)  # frames are unrelated: no memory between them
    readers.append(Reader("ours-apriltag", TagKind.APRILTAG, ours(single, name="ours-apriltag")))
    if baseline:
        readers.append(Reader(BASELINE_READER, TagKind.APRILTAG, ours(replace(single, **baseline), name=BASELINE_READER)))
    readers.append(Reader("ours before issue 12", TagKind.APRILTAG, ours(DetectorConfig(roi_tracking=False, use_library=False))))
    if with_variants:
        # The detector's default kinds read AprilTag only; this is the cost of adding the QR pass.
        readers.append(Reader("ours-both-kinds", TagKind.APRILTAG, ours(single, kinds=(TagKind.APRILTAG, TagKind.QR))))
        readers.append(Reader("ours lib decimate 2", TagKind.APRILTAG, ours(DetectorConfig(roi_tracking=False, lib_decimate=2))))
        readers.append(Reader("ours no candidate search", TagKind.APRILTAG,
                              ours(DetectorConfig(roi_tracking=False, search_candidates=False))))

    plain = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_APRILTAG_36h11))

    def plain_read(g):
        corners, ids, _ = plain.detectMarkers(g)
        if ids is None:
            return []
        out = []
        for c, i in zip(corners, ids.ravel()):
            entry = registry.entry_for_tag(int(i))
            out.append((entry.card_id if entry else None, tuple(c.reshape(4, 2).mean(axis=0))))
        return out

    readers.append(Reader("opencv-aruco plain", TagKind.APRILTAG, plain_read))

    # The same detector accepting exact codewords only: its reads are exactly the defaults' reads
    # with hamming 0 (the bits are extracted the same way; only the accepted distance differs).
    exact_params = cv2.aruco.DetectorParameters()
    exact_params.errorCorrectionRate = 0.0
    exact = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_APRILTAG_36h11), exact_params)

    def exact_read(g):
        corners, ids, _ = exact.detectMarkers(g)
        if ids is None:
            return []
        return [(card_of(int(i)), tuple(c.reshape(4, 2).mean(axis=0))) for c, i in zip(corners, ids.ravel())]

    readers.append(Reader("opencv-aruco exact", TagKind.APRILTAG, exact_read))

    try:
        import pupil_apriltags  # noqa: F401  (absent: the baseline is left out)
        from _pupil import detector as pupil_detector

        full: list[Read] = []  # pupil d1's reads of the frame just read, corrected ones included
        for dec in (1, 2):
            pupil = pupil_detector(families="tag36h11", nthreads=1, quad_decimate=float(dec))

            def pupil_read(g, pupil=pupil, name=f"pupil-apriltags decimate {dec}", dec=dec):
                out = []
                if dec == 1:
                    full.clear()
                for d in pupil.detect(g):
                    if dec == 1:
                        full.append((card_of(int(d.tag_id)), tuple(d.center)))
                    if d.hamming:  # corrected bits: counted apart, never as a read (issue 21: the fair target)
                        CORRECTED[name] += 1
                        continue
                    out.append((card_of(int(d.tag_id)), tuple(d.center)))
                return out

            readers.append(Reader(f"pupil-apriltags decimate {dec}", TagKind.APRILTAG, pupil_read))
            if dec == 1:  # right after decimation 1 on every frame: its reads, corrected ones counted in
                readers.append(Reader(PUPIL_FULL, TagKind.APRILTAG, lambda g: list(full)))
    except ImportError:
        print("(pupil-apriltags not installed: skipped)")

    readers.append(Reader("ours-qr zxing-cpp", TagKind.QR, ours(single, kinds=(TagKind.QR,))))
    try:
        readers.append(Reader("pyzbar", TagKind.QR, ours(single, kinds=(TagKind.QR,), backend="pyzbar")))
    except DecoderUnavailableError as exc:
        print(f"(pyzbar unavailable: {exc})")

    qrd = cv2.QRCodeDetector()

    def opencv_qr(g):
        ok, texts, points, _ = qrd.detectAndDecodeMulti(g)
        out = []
        if not ok:
            return out
        for text, pts in zip(texts, points):
            if not text:
                continue
            try:
                card = decode_payload(text)
            except PayloadError:
                continue
            out.append((card if card in registry else None, tuple(pts.reshape(4, 2).mean(axis=0))))
        return out

    readers.append(Reader("opencv QRCodeDetector", TagKind.QR, opencv_qr))
    return readers


@dataclass
class Tally:
    frames: int = 0
    cards: int = 0
    correct: int = 0
    missed: int = 0
    wrong: int = 0
    phantom: int = 0
    tags_decoded: int = 0
    times: list[float] = field(default_factory=list)

    def add(self, other: "Tally") -> None:
        for k in ("frames", "cards", "correct", "missed", "wrong", "phantom", "tags_decoded"):
            setattr(self, k, getattr(self, k) + getattr(other, k))
        self.times += other.times

    @property
    def rate(self) -> float:
        return self.correct / self.cards if self.cards else float("nan")

    def ms(self, q: float) -> float:
        return float(np.percentile(self.times, q)) if self.times else float("nan")


def score(frame: SyntheticFrame, reads: list[Read]) -> Tally:
    """Per card: correct if a read of its id lies on it; a read of another id on a card is a wrong id;
    a read on no card is a phantom."""
    t = Tally(frames=1, cards=len(in_frame_cards(frame)))
    correct_cards: set[str] = set()
    for card_id, (x, y) in reads:
        on = [c for c in frame.cards if cv2.pointPolygonTest(c.quad.reshape(-1, 1, 2), (float(x), float(y)), False) >= 0]
        if not on:
            t.phantom += 1
        elif card_id is not None and any(c.card_id == card_id for c in on):
            t.tags_decoded += 1
            correct_cards.add(card_id)
        else:
            t.wrong += 1
    t.correct = len(correct_cards & {c.card_id for c in in_frame_cards(frame)})
    t.missed = t.cards - t.correct
    return t


def in_frame_cards(frame: SyntheticFrame) -> list:
    """Cards with at least one whole tag inside the frame (a card cut by the frame edge may show none)."""
    h, w = frame.image.shape[:2]
    return [c for c in frame.cards
            if any((t.quad[:, 0] >= 0).all() and (t.quad[:, 0] < w).all() and (t.quad[:, 1] >= 0).all()
                   and (t.quad[:, 1] < h).all() for t in c.tags)]


def timed(reader: Reader, gray: np.ndarray) -> tuple[list[Read], float]:
    start = time.thread_time()
    reads = reader.read(gray)
    return reads, (time.thread_time() - start) * 1000


def gray_of(frame: SyntheticFrame) -> np.ndarray:
    return cv2.cvtColor(frame.image, cv2.COLOR_BGR2GRAY)


# --- part 1 -------------------------------------------------------------------------------------
def compare_readers(seed: int, frames_per_scenario: int, readers: list[Reader], only: list[str] | None = None,
                    bands: dict | None = None) -> dict:
    """Part 1; `bands` (if given) collects part 1b: per reader, (band kind, band) -> [read, tags, wrong]."""
    tables = {TagKind.APRILTAG: SyntheticTable(seed, TagKind.APRILTAG), TagKind.QR: SyntheticTable(seed, TagKind.QR)}
    results: dict[str, dict[str, Tally]] = defaultdict(dict)
    for scen in [s for s in ALL_SCENARIOS.values() if not only or s.name in only]:
        for i in range(frames_per_scenario):
            # Every other frame ours and its baseline swap places: each reads first on half the frames.
            order = readers if i % 2 == 0 else _swapped(readers, "ours-apriltag", BASELINE_READER)
            # Same layout, same camera; the QR table has no sheets of tags.
            frames = {k: t.random_scene(scen, i) for k, t in tables.items() if not (scen.sheet and k is TagKind.QR)}
            grays = {k: gray_of(f) for k, f in frames.items()}
            for r in order:
                if r.kind not in frames:
                    continue
                reads, ms = timed(r, grays[r.kind])
                tally = score(frames[r.kind], reads)
                tally.times.append(ms)
                results[scen.name].setdefault(r.name, Tally()).add(tally)
                if r.name in LAST_CORRECTED:
                    OURS_CORRECTED.setdefault(r.name, Tally()).add(score(frames[r.kind], LAST_CORRECTED.pop(r.name)))
                if bands is not None and (r.name in BAND_READERS or r.name == BASELINE_READER) and not scen.sheet:  # the sheet's tags would drown the bands
                    score_bands(frames[r.kind], reads, bands.setdefault(r.name, {}))
    return results


def _swapped(readers: list[Reader], a: str, b: str) -> list[Reader]:
    names = [r.name for r in readers]
    if a not in names or b not in names:
        return readers
    out = list(readers)
    i, j = names.index(a), names.index(b)
    out[i], out[j] = out[j], out[i]
    return out


def band_of(value: float, table: tuple) -> str:
    return next(name for lo, hi, name in table if lo <= value < hi)


def score_bands(frame: SyntheticFrame, reads: list[Read], into: dict) -> None:
    """Per tag wholly in the frame: read if a read of its card lies on it; a read of another id on it is wrong."""
    h, w = frame.image.shape[:2]
    tags = [(c, t) for c in frame.cards for t in c.tags
            if (t.quad[:, 0] >= 0).all() and (t.quad[:, 0] < w).all() and (t.quad[:, 1] >= 0).all() and (t.quad[:, 1] < h).all()]
    read = [False] * len(tags)
    wrong = [0] * len(tags)
    for card_id, (x, y) in reads:
        for k, (card, tag) in enumerate(tags):
            if cv2.pointPolygonTest(tag.quad.reshape(-1, 1, 2).astype(np.float32), (float(x), float(y)), False) >= 0:
                if card_id == card.card_id:
                    read[k] = True
                else:
                    wrong[k] += 1
                break
    for (card, tag), ok, bad in zip(tags, read, wrong):
        for key in (("size", band_of(tag.side_px, SIZE_BANDS)), ("angle", band_of(card.tilt_deg, ANGLE_BANDS))):
            cell = into.setdefault(key, [0, 0, 0])
            cell[0] += ok
            cell[1] += 1
            cell[2] += bad


def print_bands(bands: dict) -> None:
    print("\n== 1b. Per tag, by tag side and by tilt: read/tags (x the best reader's count in that band), wrong ids; "
          "pupil and OpenCV exact reads only (hamming 0), ours as it runs (corrected reads counted in, scored apart below), "
          f"{PUPIL_FULL} with pupil's corrected reads ==")
    names = [n for n in (BAND_READERS[0], BASELINE_READER, *BAND_READERS[1:]) if n in bands]
    print(f"{'band':14s} " + " ".join(f"{n:>30s}" for n in names))
    for kind, table in (("size", SIZE_BANDS), ("angle", ANGLE_BANDS)):
        for _, _, band in table:
            cells = [bands[n].get((kind, band)) for n in names]
            if not any(cells):
                continue
            best = max(c[0] for c in cells if c) or 1
            row = [f"{c[0]:5d}/{c[1]:<5d} x{c[0] / best:4.2f} w{c[2]:<3d}" if c else "-" for c in cells]
            print(f"{band:14s} " + " ".join(f"{x:>30s}" for x in row))
    corrected = {n: CORRECTED[n] for n in names if CORRECTED.get(n)}
    if corrected:
        print("reads with corrected bits (left out above):", ", ".join(f"{n} {k}" for n, k in corrected.items()))
    print(f"({PUPIL_FULL}: pupil at decimation 1 with its reads with corrected bits counted in, the reference "
          "library's full count; its time is decimation 1's)")
    print_ours_corrected()


def print_ours_corrected() -> None:
    """Ours' reads with corrected bits (counted in ours' figures above), scored on their own."""
    for name, t in OURS_CORRECTED.items():
        print(f"{name}: {t.tags_decoded + t.wrong + t.phantom} reads with corrected bits (counted in): "
              f"{t.tags_decoded} right, {t.wrong} wrong ids, {t.phantom} phantoms")


def _ratio_cells(t: Tally, best_rate: float, best_ms: float) -> str:
    r = f"{t.rate / best_rate:5.2f}" if t.cards and best_rate > 0 else "    -"
    m = f"{t.ms(50) / best_ms:6.2f}" if t.times and best_ms > 0 else "     -"
    return f"{r} {m}"


def _bests(by_reader: dict[str, Tally]) -> tuple[float, float]:
    april = [by_reader[n] for n in (*APRILTAG_BASELINES, BASELINE_READER) if n in by_reader]
    rates = [t.rate for t in april if t.cards]
    times = [t.ms(50) for t in april if t.times]
    return (max(rates) if rates else 0.0), (min(times) if times else 0.0)


def print_comparison(results: dict, readers: list[Reader]) -> None:
    print("\n== 1. Readers on the same frames (per card; times: CPU ms per 1280x720 frame, 1 thread) ==")
    print("   x best: read rate / the best AprilTag reader's of the scenario; median ms / the fastest one's")
    header = (f"{'scenario':24s} {'reader':28s} {'cards':>5s} {'read%':>6s} {'miss':>5s} {'wrong':>5s} {'phant':>5s} "
              f"{'med ms':>7s} {'p95 ms':>7s} {'read x best':>11s} {'ms x best':>9s}")
    print(header)
    totals: dict[str, Tally] = defaultdict(Tally)
    real_totals: dict[str, Tally] = defaultdict(Tally)
    for scen, by_reader in results.items():
        best_rate, best_ms = _bests(by_reader)
        for r in readers:
            t = by_reader.get(r.name)
            if t is None:
                continue
            totals[r.name].add(t)
            if scen.startswith("real-"):
                real_totals[r.name].add(t)
            rate = f"{100 * t.rate:5.1f}%" if t.cards else "   - "
            print(f"{scen:24s} {r.name:28s} {t.cards:5d} {rate:>6s} {t.missed:5d} {t.wrong:5d} {t.phantom:5d} "
                  f"{t.ms(50):7.1f} {t.ms(95):7.1f}   {_ratio_cells(t, best_rate, best_ms)}")
        print()
    for label, tot in (("ALL SCENARIOS", totals), ("REALISTIC SCENARIOS (real-*)", real_totals)):
        if not tot:
            continue
        best_rate, best_ms = _bests(tot)
        print(label)
        for r in readers:
            t = tot[r.name]
            print(f"{'':24s} {r.name:28s} {t.cards:5d} {100 * t.rate:5.1f}% {t.missed:5d} {t.wrong:5d} {t.phantom:5d} "
                  f"{t.ms(50):7.1f} {t.ms(95):7.1f}   {_ratio_cells(t, best_rate, best_ms)}")
        print()
    if BASELINE_READER in totals:
        print(paired_line(totals["ours-apriltag"].times, totals[BASELINE_READER].times))
    ours_q = totals.get("ours-qr zxing-cpp")
    print("QR ratios (median time: baseline / ours; read rate: ours / baseline):")
    for base in ("pyzbar", "opencv QRCodeDetector"):
        b = totals.get(base)
        if not b or not b.times or not ours_q or not ours_q.times:
            continue
        speed = b.ms(50) / ours_q.ms(50)
        rate = ours_q.rate / b.rate if b.rate else float("inf")
        print(f"  ours-qr zxing-cpp vs {base:22s}: {speed:5.1f}x faster, read rate x{rate:.2f} "
              f"({100 * ours_q.rate:.1f}% vs {100 * b.rate:.1f}%)")


# --- part 2 -------------------------------------------------------------------------------------
def double_tag_check(seed: int, frames: int, registry: TagRegistry) -> dict:
    print("\n== 2. Finger over one corner: one tag vs two tags per sticker ==")
    out = {}
    for kind in (TagKind.APRILTAG, TagKind.QR):
        det = TagDetector(registry=registry, kinds=[kind], config=DetectorConfig(roi_tracking=False))
        for double in (False, True):
            table = SyntheticTable(seed, kind, registry, double_tags=double)
            tally = Tally()
            for i in range(frames):
                f = table.random_scene(SCENARIOS["finger"], i)
                tally.add(score(f, [(d.card_id, d.center) for d in det.detect(f.image)]))
            label = f"{kind.value} {'two tags' if double else 'one tag '}"
            out[label] = tally.rate
            print(f"  {label}: {100 * tally.rate:5.1f}% of {tally.cards} covered cards read, wrong {tally.wrong}, phantom {tally.phantom}")
    return out


# --- part 3 -------------------------------------------------------------------------------------
SEQUENCE_SCENARIOS = ["clean-60px", "typical-40px", "tilt-50deg", "defocus", "motion-blur", "dim-uneven-noisy",
                      "all-degradations-40px", "large-150px", "finger", "moving-in", "real-steep-70deg",
                      "real-held-in-hand", "real-webcam-mix"]
MOVING_IN_FRAMES = 8  # a hand brings the cards in over 8 frames (0.27 s), blurring them, then holds them


def _sequence_frame_setup(name: str, f: int, noise_rng: np.random.Generator, direction: float):
    """Degradation and card offset of frame f of a sequence."""
    if name != "moving-in":
        return draw_degradation(ALL_SCENARIOS[name].degradation, noise_rng), (0.0, 0.0)
    base = draw_degradation(SCENARIOS["typical-40px"].degradation, noise_rng)
    left = max(0, MOVING_IN_FRAMES - f)  # frames until the hand stops
    speed = 3.0 * left  # px per 1/30 s exposure: 24 px at first, slowing down
    deg = replace(base, motion_px=max(speed, base.motion_px))
    dist = 1.5 * speed * left  # cards start up to ~290 px away and slide in
    return deg, (dist * np.cos(direction), dist * np.sin(direction))


def confirmation_check(seed: int, sequences: int, registry: TagRegistry, fps: float = 30.0,
                       frames_per_sequence: int = 18, roi_options=(False, True), only: list[str] | None = None,
                       baseline: dict | None = None) -> dict:
    """Part 3; with `baseline`, ours with those config fields reads the same frames too, the two
    detectors taking turns to go first frame by frame (a before/after in one run)."""
    print(f"\n== 3. Camera loop: presentations confirmed within 0.5 s ({fps:g} fps, tag side >= 40 px, "
          f"tracker: 3 frames in 0.4 s), and CPU ms per frame (detector, grey conversion included) ==")
    table = SyntheticTable(seed, TagKind.APRILTAG, registry)
    limit_frame = int(0.5 * fps)
    out: dict[str, dict] = {}
    for roi in roi_options:
        print(f"  ROI tracking {'on' if roi else 'off'}:")
        arms = {"ours": DetectorConfig(roi_tracking=roi)}
        if baseline:
            arms[BASELINE_READER] = replace(arms["ours"], **baseline)
        key = "roi" if roi else "no-roi"
        width = 24 if not baseline else 40
        totals = {arm: {"presentations": 0, "confirmed": 0, "times": []} for arm in arms}
        for name in only or SEQUENCE_SCENARIOS:
            scen = ALL_SCENARIOS["typical-40px" if name == "moving-in" else name]
            stats = {arm: {"times": [], "presentations": 0, "confirmed": 0, "repeats": 0, "latencies": []} for arm in arms}
            for k in range(sequences):
                layout_seed = (seed, 99, len(name), k)
                rng0 = np.random.default_rng(layout_seed)
                tag_px = max(40.0, float(rng0.uniform(*scen.tag_px)))
                ids = table.card_ids
                picks = [ids[i] for i in rng0.choice(len(ids), size=min(scen.cards, 6), replace=False)]
                detectors = {arm: TagDetector(registry=registry, kinds=[TagKind.APRILTAG], config=cfg) for arm, cfg in arms.items()}
                trackers = {arm: SightingTracker() for arm in arms}
                noise_rng = np.random.default_rng((seed, 7, len(name), k))
                first: dict[str, dict[str, int]] = {arm: {} for arm in arms}
                count: dict[str, dict[str, int]] = {arm: defaultdict(int) for arm in arms}
                shown: set[str] = set()
                direction = float(rng0.uniform(0, 2 * np.pi))
                for f in range(frames_per_sequence):
                    deg, offset = _sequence_frame_setup(name, f, noise_rng, direction)
                    frame = table.render_scene(picks, tag_px, deg, np.random.default_rng(layout_seed),
                                               noise_rng=noise_rng, offset=offset)
                    shown |= {c.card_id for c in in_frame_cards(frame)}
                    order = list(arms) if f % 2 == 0 else list(arms)[::-1]  # a change and its baseline take turns
                    for arm in order:
                        t0 = time.thread_time()
                        detections = detectors[arm].detect(frame.image)
                        stats[arm]["times"].append((time.thread_time() - t0) * 1000)
                        for s in trackers[arm].update(detections, now=f / fps):
                            count[arm][s.key] += 1
                            first[arm].setdefault(s.key, f)
                for arm in arms:
                    st = stats[arm]
                    for card in shown:
                        st["presentations"] += 1
                        if card in first[arm] and first[arm][card] <= limit_frame:
                            st["confirmed"] += 1
                            st["latencies"].append(first[arm][card] / fps)
                        st["repeats"] += max(0, count[arm].get(card, 0) - 1)
            for arm, st in stats.items():
                times = st["times"]
                totals[arm]["presentations"] += st["presentations"]
                totals[arm]["confirmed"] += st["confirmed"]
                totals[arm]["times"] += times
                rate = st["confirmed"] / st["presentations"] if st["presentations"] else float("nan")
                lat = f"{1000 * np.median(st['latencies']):.0f} ms" if st["latencies"] else "-"
                flag = "" if rate >= 0.99 else "  <-- below 99%"
                label = name if not baseline else f"{name} [{arm}]"
                print(f"    {label:{width}s} {st['confirmed']:4d}/{st['presentations']:4d} = {100 * rate:5.1f}%  median latency {lat}, "
                      f"repeated sightings {st['repeats']}; {np.median(times):5.1f} ms median, {np.percentile(times, 95):5.1f} ms p95{flag}")
                out.setdefault(key if arm == "ours" else f"{key} {arm}", {})[name] = {
                    "presentations": st["presentations"], "confirmed": st["confirmed"], "repeats": st["repeats"],
                    "median_ms": float(np.median(times)), "p95_ms": float(np.percentile(times, 95))}
        for arm, tot in totals.items():
            label = "ALL" if not baseline else f"ALL [{arm}]"
            print(f"    {label:{width}s} {tot['confirmed']:4d}/{tot['presentations']:4d} = "
                  f"{100 * tot['confirmed'] / max(1, tot['presentations']):5.1f}%; "
                  f"{np.median(tot['times']):5.1f} ms median, {np.percentile(tot['times'], 95):5.1f} ms p95 per frame")
            out.setdefault(key if arm == "ours" else f"{key} {arm}", {})["ALL"] = {
                "median_ms": float(np.median(tot["times"])), "p95_ms": float(np.percentile(tot["times"], 95))}
        if baseline:
            print("    " + paired_line(totals["ours"]["times"], totals[BASELINE_READER]["times"]))
    return out


def paired_line(ours: list[float], base: list[float]) -> str:
    """Frame by frame, ours' time minus the baseline's on the same frame (the load of the shared box
    moves both alike)."""
    d = np.array(ours) - np.array(base)
    return (f"paired, frame by frame (ours - {BASELINE_READER}): median {np.median(d):+.2f} ms, "
            f"mean {d.mean():+.2f} ms over {len(d)} frames")


# --- part 4 -------------------------------------------------------------------------------------
def safety_run(seed: int, target_tags: int, clutter_frames: int, registry: TagRegistry, progress_every: int = 500) -> dict:
    print(f"\n== 4. Safety: ours-apriltag until {target_tags} decoded tags, plus {clutter_frames} clutter frames ==")
    table = SyntheticTable(seed + 1000, TagKind.APRILTAG, registry)
    det = TagDetector(registry=registry, kinds=[TagKind.APRILTAG], config=DetectorConfig(roi_tracking=False))
    tagged = [s for s in ALL_SCENARIOS.values() if not s.clutter]
    total = Tally()
    sheets = Tally()  # a sheet holds hundreds of tags: checked like every frame, but not counted towards the target
    i = 0
    start = time.time()
    corrected = Tally()  # ours' reads with corrected bits, on tagged frames, sheets and clutter alike

    def read(g):
        detections = det.detect(g)
        last[:] = [(d.card_id, d.center) for d in detections if d.corrected]
        return [(d.card_id, d.center) for d in detections]

    last: list = []
    while total.tags_decoded < target_tags:
        scen = tagged[i % len(tagged)]
        f = table.random_scene(scen, i)
        reads, ms = timed(Reader("", TagKind.APRILTAG, read), gray_of(f))
        corrected.add(score(f, last))
        t = score(f, reads)
        t.times.append(ms)
        (sheets if scen.sheet else total).add(t)
        i += 1
        if i % progress_every == 0:
            print(f"    ... {i} frames, {total.tags_decoded} tags decoded, wrong {total.wrong}, phantom {total.phantom}; "
                  f"sheets: {sheets.tags_decoded} tags, wrong {sheets.wrong}, phantom {sheets.phantom} "
                  f"({time.time() - start:.0f} s)", flush=True)
    clutter = Tally()
    for j in range(clutter_frames):
        f = table.random_scene(SCENARIOS["clutter"], 10_000_000 + j)
        reads, ms = timed(Reader("", TagKind.APRILTAG, read), gray_of(f))
        corrected.add(score(f, last))
        t = score(f, reads)
        t.times.append(ms)
        clutter.add(t)
    print(f"  tagged frames {total.frames}: {total.tags_decoded} tags decoded ({total.correct}/{total.cards} cards), "
          f"wrong ids {total.wrong}, phantom reads {total.phantom}; median {total.ms(50):.1f} ms, p95 {total.ms(95):.1f} ms")
    print(f"  sheet frames {sheets.frames}: {sheets.tags_decoded} tags decoded, wrong ids {sheets.wrong}, phantom reads {sheets.phantom}")
    print(f"  clutter frames {clutter.frames}: phantom reads {clutter.phantom}; median {clutter.ms(50):.1f} ms, p95 {clutter.ms(95):.1f} ms")
    print(f"  of all these, reads with corrected bits: {corrected.tags_decoded + corrected.wrong + corrected.phantom}: "
          f"{corrected.tags_decoded} right, {corrected.wrong} wrong ids, {corrected.phantom} phantoms")
    return {"frames": total.frames, "tags_decoded": total.tags_decoded, "wrong": total.wrong, "phantom": total.phantom,
            "clutter_frames": clutter.frames, "clutter_phantom": clutter.phantom,
            "sheet_frames": sheets.frames, "sheet_tags": sheets.tags_decoded, "sheet_wrong": sheets.wrong, "sheet_phantom": sheets.phantom,
            "median_ms": total.ms(50), "p95_ms": total.ms(95),
            "corrected": {"right": corrected.tags_decoded, "wrong": corrected.wrong, "phantom": corrected.phantom}}


# --- part 5 -------------------------------------------------------------------------------------
def real_photos(limit: int | None = None, baseline: dict | None = None) -> dict:
    import vision_realphotos as rp

    print(f"\n== 5. Real photographs ({rp.DEV_DIR}) ==")
    if not rp.DEV_DIR.exists():
        print("  not found: skipped")
        return {}
    photos = rp.load_photos()[:limit]
    grays = {p.path: cv2.imread(str(p.path), cv2.IMREAD_GRAYSCALE) for p in photos}
    readers = {"ours-apriltag": rp.ours_reader(config=DetectorConfig(roi_tracking=False)),
               "ours before issue 12": rp.ours_reader(config=DetectorConfig(roi_tracking=False, use_library=False)),
               **rp.baseline_readers()}
    if baseline:
        readers = {"ours-apriltag": readers.pop("ours-apriltag"),
                   BASELINE_READER: rp.ours_reader(config=replace(DetectorConfig(roi_tracking=False), **baseline)), **readers}
    scores = {name: rp.score(reader, photos, grays) for name, reader in readers.items()}
    best_rate = max(sc.standard_read for sc in scores.values()) or 1
    best_ms = min(float(np.median(sc.ms_per_mpix)) for sc in scores.values())
    print("  standard tag36h11 tags read (x best), Kalibr aprilgrid tags read (scored apart), wrong reads, median ms per Mpixel (x fastest)")
    out = {}
    for name, sc in scores.items():
        per = float(np.median(sc.ms_per_mpix))
        print(f"  {name:28s} {sc.standard_read:3d}/{sc.standard_total} (x{sc.standard_read / best_rate:.3f})  "
              f"kalibr {sc.kalibr_read:3d}/{sc.kalibr_total}  wrong {sc.wrong}  {per:5.1f} ms/Mpix (x{per / best_ms:.2f})"
              + (f"  reads with corrected bits: {sc.corrected_right} right, {sc.corrected_wrong} wrong"
                 if sc.corrected_right or sc.corrected_wrong else ""))
        for line in sc.wrong_list:
            print(f"      WRONG {line}")
        out[name] = {"standard": sc.standard_read, "of": sc.standard_total, "kalibr": sc.kalibr_read, "wrong": sc.wrong,
                     "ms_per_mpix": per, "missed": sc.missed, "bands": sc.bands}
    print(f"  standard tags by side (x the best reader's count in that band; pupil and OpenCV exact reads only but {rp.PUPIL_FULL}):")
    for _, _, band in rp.SIZE_BANDS:
        cells = {name: sc.bands.get(band) for name, sc in scores.items()}
        if not any(cells.values()):
            continue
        best = max(c[0] for c in cells.values() if c) or 1
        print(f"    {band:12s} " + "  ".join(f"{name} {c[0]}/{c[1]} (x{c[0] / best:.2f})" for name, c in cells.items() if c))
    if rp.CORRECTED:
        print("  reads with corrected bits (left out above):", ", ".join(f"{n} {k}" for n, k in rp.CORRECTED.items()))
    return out


# --- part 7 -------------------------------------------------------------------------------------
def _square_frame(rng: np.random.Generator, codes: list[int], flips: int, squares: int = 60) -> np.ndarray:
    """A 1280x720 frame of printed 10x10-cell squares (quiet ring, black ring, 6x6 cells): a registered
    code with `flips` cells printed the other way (or, `codes` empty, random cells), 12-80 px, turned,
    tilted, blurred, noisy, JPEG: what a printed pattern within `flips` cells of a code looks like."""
    from vision.synthetic import Degradation, _degrade
    from vision.tags import apriltag_modules
    canvas = np.full((720, 1280, 3), 200, np.uint8)
    placed: list[tuple[int, int, int]] = []
    for _ in range(squares):
        size = int(rng.integers(12, 81))
        for _try in range(20):
            x, y = int(rng.integers(0, 1280 - 1.5 * size)), int(rng.integers(0, 720 - 1.5 * size))
            if all(abs(x - px) > (size + ps) * 0.8 or abs(y - py) > (size + ps) * 0.8 for px, py, ps in placed):
                break
        else:
            continue
        placed.append((x, y, size))
        if codes:
            cells = apriltag_modules(int(rng.choice(codes)))[1:7, 1:7].copy()
            for k in rng.choice(36, flips, replace=False):
                cells[k // 6, k % 6] = 255 - cells[k // 6, k % 6]
        else:
            cells = (rng.integers(0, 2, (6, 6)) * 255).astype(np.uint8)
        m = np.full((10, 10), 255, np.uint8)
        m[1:9, 1:9] = 0
        m[2:8, 2:8] = cells
        m = np.rot90(m, int(rng.integers(4)))
        patch = cv2.resize(np.ascontiguousarray(m), (size, size), interpolation=cv2.INTER_NEAREST)
        a = np.deg2rad(rng.uniform(0, 360))
        sq = np.cos(np.deg2rad(rng.uniform(0, 50)))  # tilted: squeezed along one direction
        src = np.float32([[0, 0], [size, 0], [size, size], [0, size]])
        c = src - size / 2
        rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
        dst = (c @ rot.T) * np.array([1.0, sq]) + np.array([x + 0.75 * size, y + 0.75 * size])
        H = cv2.getPerspectiveTransform(src, dst.astype(np.float32))
        warped = cv2.warpPerspective(patch, H, (1280, 720), borderValue=255)
        canvas[:] = np.minimum(canvas, warped[:, :, None])
    deg = Degradation(defocus_sigma=float(rng.uniform(0, 1.2)), noise_sigma=float(rng.uniform(1, 5)),
                      light_range=0.3, jpeg_quality=int(rng.integers(60, 96)))
    return cv2.cvtColor(_degrade(canvas, deg, rng), cv2.COLOR_BGR2GRAY)


def near_code_check(seed: int, frames: int, registry: TagRegistry, baseline: dict | None = None) -> dict:
    """Part 7 (issue 30): can a printed pattern that is not a tag become a read with corrected bits?

    A random pattern of 36 cells lies within k cells of a registered code (any of its 4 turns) with a
    probability counted from the codebook; what matters is how often our reader then accepts it. So
    the frames hold printed squares that ARE within 1 or 2 cells of a registered code (the worst case
    of a random pattern), then squares of random cells, then frames of noise; every read is a phantom.
    The library's own reads with corrected bits (before our checks) are counted too.
    """
    from math import comb

    from vision.apriltag_lib import LibDetector
    from vision.detector import _codebook
    print(f"\n== 7. Corrected bits: printed squares within 1-2 cells of a registered code, random squares, noise ==")
    ids = sorted(i for i in registry.tag_ids() if 0 <= i < 587)
    words = len(ids) * 4
    for k in (1, 2):
        ball = sum(comb(36, j) for j in range(k + 1))
        print(f"  a random 36-cell pattern lies within {k} cell(s) of one of the {len(ids)} registered 36h11 codes "
              f"(4 turns each) with probability {words * ball / 2 ** 36:.2e} (exact codeword: {words / 2 ** 36:.1e})")
    rng = np.random.default_rng(seed + 7)
    arms = {"ours": DetectorConfig(roi_tracking=False)}
    if baseline:
        arms[BASELINE_READER] = replace(arms["ours"], **baseline)
    dets = {name: TagDetector(active=None, registry=registry, config=c) for name, c in arms.items()}
    lib = LibDetector({"tag36h11": 2}, quad_decimate=1.0)
    out: dict = {}
    for label, codes, flips in (("1 cell off a code", ids, 1), ("2 cells off a code", ids, 2),
                                ("random cells", [], 0), ("noise", None, 0)):
        reads = {name: 0 for name in dets}
        by_side = {name: [0, 0, 0] for name in dets}  # accepted reads under 20 px, 20-40 px, 40 px and more
        lib_corrected = squares = 0
        for f in range(frames):
            if codes is None:
                g = rng.normal(128, float(rng.uniform(20, 90)), (720, 1280))
                g = cv2.GaussianBlur(g, (0, 0), float(rng.uniform(0.3, 2.5)))
                g = np.clip(g, 0, 255).astype(np.uint8)
            else:
                g = _square_frame(rng, codes, flips)
                squares += 60
            for name, det in dets.items():
                det.reset()
                for d in det.detect(g):
                    reads[name] += 1
                    by_side[name][0 if d.side_px < 20 else 1 if d.side_px < 40 else 2] += 1
            lib_corrected += sum(1 for t in lib.detect(g) if t.hamming and t.tag_id in set(ids))
        what = f"{frames} frames" + (f", ~{squares} squares" if squares else "")
        print(f"  {label:20s} ({what}): the library alone (decimation 1, 2 bits) {lib_corrected} corrected reads "
              f"of registered ids; accepted reads (under 20 px / 20-40 / 40 and more): "
              + ", ".join(f"{n} {r} ({'/'.join(map(str, by_side[n]))})" for n, r in reads.items()))
        out[label] = {"frames": frames, "squares": squares, "library_corrected": lib_corrected, **reads,
                      "by_side": by_side}
    return out


# --- part 6 -------------------------------------------------------------------------------------
def budget_check(frames: int = 12) -> dict:
    """Issue 21's search budget cliff: 640x360 sheets of small blurred tags, as a still and on video."""
    from vision.synthetic import Degradation

    print("\n== 6. Search budget: a 640x360 sheet of small blurred tags (the tests' sheet and a blurrier one) ==")
    table = SyntheticTable(seed=4, size=(640, 360))
    sheets = {"16 px, defocus 0.75": table.tag_sheet(16, Degradation(tilt_deg=10, defocus_sigma=0.75, noise_sigma=2, jpeg_quality=85),
                                                     np.random.default_rng(0)),
              "16 px, defocus 0.8": table.tag_sheet(16, Degradation(tilt_deg=10, defocus_sigma=0.8, noise_sigma=2, jpeg_quality=90),
                                                    np.random.default_rng(1))}
    out = {}
    for label, sheet in sheets.items():
        want = {c.card_id for c in sheet.cards}
        row = {}
        for share in (0.25, 0.5, 1.0):
            det = TagDetector(active=None, config=DetectorConfig(roi_tracking=False, still_budget=share))
            t0 = time.thread_time()
            reads = {d.card_id for d in det.detect(sheet.image)}
            row[f"still {share}"] = (len(reads & want), (time.thread_time() - t0) * 1000, len(reads - want - {None}))
        det = TagDetector(active=None)
        det.detect(np.full_like(sheet.image, 128))  # the camera was already running
        seen: set = set()
        cumulative, shares, wrong = [], [], 0
        for _ in range(frames):
            reads = {d.card_id for d in det.detect(sheet.image)}
            wrong += len(reads - want - {None})
            seen |= reads & want
            cumulative.append(len(seen))
            shares.append(det._april.last_crop_share)
        print(f"  {label}: {len(want)} tags; still, read (ms) by still_budget: "
              + ", ".join(f"{k[6:]}: {v[0]} ({v[1]:.0f} ms)" for k, v in row.items()))
        print(f"    video (crop_budget 0.25, largest share searched {max(shares):.2f}): read so far, frame by frame: "
              f"{' '.join(map(str, cumulative))}; wrong ids {wrong + sum(v[2] for v in row.values())}")
        out[label] = {"tags": len(want), "still": row, "video_cumulative": cumulative, "wrong": wrong}
    return out


def parse_baseline(text: str) -> dict:
    """'polygon_accuracy=0.03,still_budget=0.5' -> DetectorConfig fields with their own types."""
    defaults = DetectorConfig()
    out: dict = {}
    for item in filter(None, (p.strip() for p in text.split(","))):
        name, eq, value = item.partition("=")
        if not eq or not hasattr(defaults, name):
            raise ValueError(f"--baseline: {item!r} is not FIELD=VALUE with a DetectorConfig field")
        kind = type(getattr(defaults, name))
        if kind is bool:
            out[name] = value.lower() in ("1", "true", "yes", "on")
        elif kind is tuple:
            out[name] = tuple(int(v) for v in value.split("/"))
        else:
            out[name] = kind(value)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="small counts: a first look well under two minutes")
    ap.add_argument("--smoke", action="store_true", help="every part on a few frames, in seconds: does it still run "
                                                          "(tests/test_benchmarks_smoke.py; the figures mean nothing)")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--frames", type=int, help="frames per scenario for the side-by-side comparison (default 30)")
    ap.add_argument("--sequences", type=int, help="30 fps sequences per scenario for the 0.5 s check (default 20)")
    ap.add_argument("--safety-tags", type=int, help="decoded tags for the safety run (default 100000)")
    ap.add_argument("--clutter-frames", type=int, help="clutter frames for the safety run (default 2000)")
    ap.add_argument("--scenarios", default="", help="comma list: only these scenarios in part 1 (and 1b)")
    ap.add_argument("--sequence-scenarios", default="", help="comma list: only these scenarios in part 3")
    ap.add_argument("--skip", default="", help="comma list of parts to skip: compare,finger,confirm,safety,real,budget,corrected")
    ap.add_argument("--near-frames", type=int, help="frames of each kind for part 7, corrected bits (default 40)")
    ap.add_argument("--json", type=Path, help="also write the figures to this JSON file")
    ap.add_argument("--baseline", default="", help="DetectorConfig fields, e.g. polygon_accuracy=0.03: ours with them "
                    "('ours baseline') also reads every frame of parts 1, 1b, 3 and 5, beside ours, the two taking "
                    "turns to go first: a change and what it replaces, measured in one run")
    args = ap.parse_args(argv)
    try:
        baseline = parse_baseline(args.baseline)
    except ValueError as exc:
        ap.error(str(exc))
    q = args.quick or args.smoke
    frames = args.frames or (1 if q else 30)
    sequences = args.sequences or (1 if q else 20)
    safety_tags = args.safety_tags or (20 if args.smoke else 200 if q else 100_000)
    clutter = args.clutter_frames or (2 if args.smoke else 10 if q else 2000)
    # Smoke: one realistic scenario to compare, one to confirm, and three real photographs.
    smoke_compare, smoke_confirm = (["real-webcam-mix"], ["typical-40px"]) if args.smoke else (None, None)
    skip = set(filter(None, args.skip.split(",")))

    cv2.setNumThreads(1)
    registry = TagRegistry.load()
    print(f"vision_bench: python {platform.python_version()}, OpenCV {cv2.__version__}, numpy {np.__version__}, "
          f"{platform.machine()}, seed {args.seed}, cv2 threads {cv2.getNumThreads()}")
    print(f"command: python benchmarks/vision_bench.py {' '.join(argv if argv is not None else sys.argv[1:])}".rstrip())
    figures: dict = {}
    t0 = time.time()
    if "compare" not in skip:
        readers = build_readers(registry, with_variants=not q, baseline=baseline)
        bands: dict = {}
        only = [n for n in args.scenarios.split(",") if n] or smoke_compare
        unknown = [n for n in only or () if n not in ALL_SCENARIOS]
        if unknown:
            ap.error(f"unknown scenario(s) {', '.join(unknown)}; known: {', '.join(ALL_SCENARIOS)}")
        results = compare_readers(args.seed, frames, readers, only=only, bands=bands)
        print_comparison(results, readers)
        print_bands(bands)
        figures["bands"] = {r: {f"{k[0]} {k[1]}": v for k, v in by.items()} for r, by in bands.items()}
        figures["compare"] = {s: {r: {"cards": t.cards, "correct": t.correct, "wrong": t.wrong, "phantom": t.phantom,
                                      "median_ms": t.ms(50), "p95_ms": t.ms(95)} for r, t in by.items()}
                              for s, by in results.items()}
    if "finger" not in skip:
        figures["finger"] = double_tag_check(args.seed, frames, registry)
    if "confirm" not in skip:
        only = [n for n in args.sequence_scenarios.split(",") if n] or smoke_confirm
        figures["confirm"] = confirmation_check(args.seed, sequences, registry, only=only,
                                                roi_options=(True,) if q else (False, True),
                                                frames_per_sequence=12 if q else 18, baseline=baseline)
    if "safety" not in skip:
        figures["safety"] = safety_run(args.seed, safety_tags, clutter, registry)
    if "real" not in skip:
        figures["real"] = real_photos(limit=3 if args.smoke else None, baseline=baseline)
    if "budget" not in skip:
        figures["budget"] = budget_check(frames=2 if args.smoke else 12)
    if "corrected" not in skip:
        figures["corrected"] = near_code_check(args.seed, args.near_frames or (1 if args.smoke else 10 if q else 40),
                                               registry, baseline)
    print(f"\ntotal time {time.time() - t0:.0f} s")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1, default=float))
    return 0


if __name__ == "__main__":
    sys.exit(main())
