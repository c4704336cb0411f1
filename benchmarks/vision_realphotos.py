"""Score tag readers on the real photographs in ../shared/vision-dev (never copied into the project).

Each reader is a function gray image -> [(family, tag id, corners 4x2)]. A read counts as correct
when its family and id equal a ground-truth tag's and its centre lies inside that tag; a read
inside an `ignore_regions.json` box (visible tags no reader could decode) is neither rewarded
nor counted wrong; any other read is wrong. Kalibr aprilgrid tags ("tag36h11-border2": a
36h11 code inside a 2-cell black border) are scored apart, as the set's README asks.

    python benchmarks/vision_realphotos.py            # ours, OpenCV and pupil-apriltags, one table
    python benchmarks/vision_realphotos.py --smoke    # three photographs: it still runs (seconds)
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Sequence

import cv2
import numpy as np

DEV_DIR = Path(os.environ.get("GUMSHOE_VISION_DEV", Path(__file__).resolve().parent.parent.parent / "shared" / "vision-dev"))

Reader = Callable[[np.ndarray], Iterable[tuple[str, int, np.ndarray]]]


@dataclass
class Photo:
    path: Path
    truth: list[dict]
    ignore: list[tuple[float, float, float, float]]


@dataclass
class Score:
    standard_total: int = 0
    standard_read: int = 0
    kalibr_total: int = 0
    kalibr_read: int = 0
    other_total: int = 0  # tags of other families (tagStandard41h12)
    other_read: int = 0
    wrong: int = 0
    wrong_list: list[str] = field(default_factory=list)
    missed: list[str] = field(default_factory=list)
    ms_per_mpix: list[float] = field(default_factory=list)
    ms: list[float] = field(default_factory=list)
    bands: dict[str, list[int]] = field(default_factory=dict)  # standard tags by side: band -> [read, tags]
    corrected_right: int = 0  # reads with corrected bits (a reader's optional 4th field) the truth confirms
    corrected_wrong: int = 0


SIZE_BANDS = ((0, 20, "<20 px"), (20, 40, "20-40 px"), (40, 100, "40-100 px"), (100, 300, "100-300 px"), (300, 1e9, ">=300 px"))
CORRECTED: dict[str, int] = {}  # reads with corrected bits per baseline reader: never counted as reads


def size_band(side_px: float) -> str:
    return next(name for lo, hi, name in SIZE_BANDS if lo <= side_px < hi)


def load_photos(dev_dir: Path = DEV_DIR) -> list[Photo]:
    truth = json.loads((dev_dir / "truth.json").read_text())
    ignore = json.loads((dev_dir / "ignore_regions.json").read_text())
    photos = []
    for rel in sorted(truth):
        boxes = [tuple(b["bbox"]) for b in ignore.get(rel, [])]
        photos.append(Photo(dev_dir / rel, truth[rel], boxes))
    return photos


def stand_in_photos(folder: Path, count: int = 3) -> list[Photo]:
    """Rendered frames written as photographs with their truth, in the dev set's own format."""
    from vision.registry import family_code
    from vision.synthetic import SCENARIOS, SyntheticTable

    table = SyntheticTable(seed=7)
    photos = []
    for index in range(count):
        scene = table.random_scene(SCENARIOS["typical-40px"], index)
        path = folder / f"stand-in-{index}.png"
        cv2.imwrite(str(path), scene.image)
        truth = []
        for card in scene.cards:
            family, code = family_code(table.registry.tag_for_card(card.card_id))
            truth += [{"family": family, "id": code, "corners": tag.quad.tolist(), "side_px": tag.side_px}
                      for tag in card.tags]
        photos.append(Photo(path, truth, []))
    return photos


def _inside(point: np.ndarray, corners: np.ndarray) -> bool:
    return cv2.pointPolygonTest(np.asarray(corners, np.float32).reshape(-1, 1, 2), (float(point[0]), float(point[1])), False) >= 0


def score(reader: Reader, photos: Sequence[Photo], grays: dict[Path, np.ndarray] | None = None) -> Score:
    s = Score()
    for photo in photos:
        gray = grays[photo.path] if grays is not None else cv2.imread(str(photo.path), cv2.IMREAD_GRAYSCALE)
        t0 = time.thread_time()
        reads = list(reader(gray))
        ms = (time.thread_time() - t0) * 1000
        s.ms.append(ms)
        s.ms_per_mpix.append(ms / (gray.size / 1e6))
        used = [False] * len(photo.truth)
        for read in reads:
            family, tag_id, corners = read[:3]
            corrected = len(read) > 3 and read[3] > 0
            centre = np.asarray(corners, np.float64).reshape(4, 2).mean(axis=0)
            hit = None
            for k, t in enumerate(photo.truth):
                if _inside(centre, np.array(t["corners"])):
                    hit = k
                    break
            if hit is not None:
                t = photo.truth[hit]
                same_family = t["family"] == family or (t["family"] == "tag36h11-border2" and family == "tag36h11")
                if same_family and t["id"] == tag_id:
                    used[hit] = True
                    s.corrected_right += corrected
                    continue
                s.wrong += 1
                s.corrected_wrong += corrected
                s.wrong_list.append(f"{photo.path.name}: read {family} {tag_id} on {t['family']} {t['id']}")
                continue
            if any(x0 <= centre[0] <= x1 and y0 <= centre[1] <= y1 for x0, y0, x1, y1 in photo.ignore):
                continue
            s.wrong += 1
            s.corrected_wrong += corrected
            s.wrong_list.append(f"{photo.path.name}: read {family} {tag_id} where no tag is, at {centre.round()}")
        for t, u in zip(photo.truth, used):
            if t["family"] == "tag36h11":
                s.standard_total += 1
                s.standard_read += u
                cell = s.bands.setdefault(size_band(t["side_px"]), [0, 0])
                cell[0] += u
                cell[1] += 1
                if not u:
                    s.missed.append(f"{photo.path.parent.name}/{photo.path.name} id {t['id']} side {t['side_px']:.0f}px")
            elif t["family"] == "tag36h11-border2":
                s.kalibr_total += 1
                s.kalibr_read += u
            else:
                s.other_total += 1
                s.other_read += u
    return s


def baseline_readers() -> dict[str, Reader]:
    """OpenCV ArucoDetector (defaults, and exact codewords only) and pupil-apriltags at quad_decimate
    1 and 2, as shipped; pupil's reads with corrected bits are left out (counted in CORRECTED)."""
    readers: dict[str, Reader] = {}
    aruco = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_APRILTAG_36h11))

    def opencv(gray):
        corners, ids, _ = aruco.detectMarkers(gray)
        return [] if ids is None else [("tag36h11", int(i), c.reshape(4, 2)) for c, i in zip(corners, ids.ravel())]

    readers["opencv-aruco plain"] = opencv
    exact_params = cv2.aruco.DetectorParameters()
    exact_params.errorCorrectionRate = 0.0  # the defaults' reads with hamming 0, exactly
    exact = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_APRILTAG_36h11), exact_params)

    def opencv_exact(gray):
        corners, ids, _ = exact.detectMarkers(gray)
        return [] if ids is None else [("tag36h11", int(i), c.reshape(4, 2)) for c, i in zip(corners, ids.ravel())]

    readers["opencv-aruco exact"] = opencv_exact
    try:
        from _pupil import detector as pupil_detector
        import pupil_apriltags  # noqa: F401  (absent: the baseline is left out)
    except ImportError:
        return readers
    for dec in (1, 2):
        det = pupil_detector(families="tag36h11", nthreads=1, quad_decimate=float(dec))

        def pupil(gray, det=det, name=f"pupil-apriltags decimate {dec}"):
            reads = det.detect(gray)
            CORRECTED[name] = CORRECTED.get(name, 0) + sum(1 for d in reads if d.hamming)
            return [("tag36h11", int(d.tag_id), d.corners) for d in reads if d.hamming == 0]

        readers[f"pupil-apriltags decimate {dec}"] = pupil
        if dec == 1:
            def pupil_full(gray, det=det):  # the reference library's full count: corrected reads counted in (issue 30)
                return [("tag36h11", int(d.tag_id), d.corners, d.hamming) for d in det.detect(gray)]

            readers[PUPIL_FULL] = pupil_full
    return readers


PUPIL_FULL = "pupil d1 +corrected"



def ours_reader(**detector_kwargs) -> Reader:
    from vision.detector import TagDetector
    from vision.registry import family_code

    detector = TagDetector(active=None, **detector_kwargs)

    def read(gray):
        detector.reset()  # unrelated photos: nothing remembered from the previous one
        out = []
        for d in detector.detect(gray):
            if d.identity.tag_id is not None:
                family, code = family_code(d.identity.tag_id)
                out.append((family, code, d.corners, d.corrected))
        return out

    return read


def report(name: str, s: Score) -> str:
    med = float(np.median(s.ms)) if s.ms else 0.0
    per = float(np.median(s.ms_per_mpix)) if s.ms_per_mpix else 0.0
    return (f"{name:32s} standard {s.standard_read:3d}/{s.standard_total}  kalibr {s.kalibr_read:3d}/{s.kalibr_total}  "
            f"41h12 {s.other_read}/{s.other_total}  wrong {s.wrong}  median {med:6.1f} ms/photo  {per:5.1f} ms/Mpix  "
            f"corrected reads {s.corrected_right} right, {s.corrected_wrong} wrong")


def main(argv: list[str] | None = None) -> int:
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--smoke", action="store_true", help="three photographs only (the figures mean nothing)")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    if DEV_DIR.exists():
        photos = load_photos()[:3 if args.smoke else None]
    elif args.smoke:
        # CI has no ../shared: the smoke run still scores every reader, on rendered stand-ins.
        print(f"no real photographs at {DEV_DIR}: three rendered stand-ins (the figures mean nothing)")
        photos = stand_in_photos(Path(tempfile.mkdtemp(prefix="gumshoe-realphotos-")))
    else:
        print(f"no real photographs at {DEV_DIR}")
        return 0
    grays = {p.path: cv2.imread(str(p.path), cv2.IMREAD_GRAYSCALE) for p in photos}
    readers = {"ours": ours_reader(), **baseline_readers()}
    for name, reader in readers.items():
        s = score(reader, photos, grays)
        print(report(name, s))
        for line in s.missed:
            print("   missed", line)
        for line in s.wrong_list:
            print("   WRONG", line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
