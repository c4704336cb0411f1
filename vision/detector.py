"""Tag detection: every tag in a frame, as a card id / foreign / unknown, with its corners.

Safety policy (a misread is worse than a missed read, see docs/vision.md):

* AprilTag 36h11 (minimum Hamming distance 11) and, for cards beyond its 587 ids,
  tagStandard41h12 (distance 12). Exact codewords only, but for the library's reads of 36h11
  tags of registered cards: up to 2 corrected bits, each a cell the picture is in doubt about
  (docs/vision.md, "Corrected bits": a wrong id still needs 9 or more cells misread).
* Tags are read by our own bit sampler on OpenCV's candidate quads (black ring, white quiet
  zone, all 36 bits, decision-margin floor) and by the reference AprilTag library
  (`vision.apriltag_lib`: hamming 0 or corrected as above, its decision-margin floor, and,
  from 40 px up, our sampler must read the same 36 bits on the library's outline).
* QR payloads must pass `vision.payload.decode_payload` (version, checksum).
* Only ids in the registry become cards; the tracker (`vision.tracker`) then asks for
  agreement over several frames.

>>> from vision.synthetic import SyntheticTable
>>> detector = TagDetector(active={"carmen"})
>>> frame = SyntheticTable(seed=3).frame(["carmen.loot.gandhis-glasses"])
>>> sorted({d.card_id for d in detector.detect(frame)})  # the sticker's two tags: one card
['carmen.loot.gandhis-glasses']
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Collection, Sequence

import cv2
import numpy as np

from vision.apriltag_lib import MAX_LIBRARY_SIDE, AprilTagLibraryError, LibDetector, LibTag, clip_region
from vision.payload import PayloadError, decode_payload
from vision.registry import LIB_FAMILIES, TAG36_SIZE, Identity, TagRegistry, TagStatus, tag_number
from vision.tags import TagKind, apriltag_dictionary, apriltag_modules

log = logging.getLogger(__name__)


class DecoderUnavailableError(RuntimeError):
    """A decoder backend cannot be used on this machine (e.g. pyzbar without the zbar library)."""


@dataclass(frozen=True)
class Detection:
    """One tag seen in one frame."""

    kind: TagKind
    identity: Identity
    corners: np.ndarray = field(compare=False)  # 4x2 float32, clockwise from the tag's top-left
    quality: float = 1.0  # AprilTag decision margin in 0..1 (1 = perfectly black and white)
    corrected: int = field(default=0, compare=False)  # data bits the AprilTag library corrected (docs/vision.md)

    @property
    def status(self) -> TagStatus:
        return self.identity.status

    @property
    def card_id(self) -> str | None:
        return self.identity.card_id

    @property
    def center(self) -> tuple[float, float]:
        c = self.corners.mean(axis=0)
        return float(c[0]), float(c[1])

    @property
    def side_px(self) -> float:
        return float(np.sqrt(abs(cv2.contourArea(self.corners.astype(np.float32)))))


@dataclass(frozen=True)
class DetectorConfig:
    """Speed/robustness knobs; the defaults are what benchmarks/vision_bench.py measured best.

    The AprilTag pipeline (docs/vision.md, "How a frame is read"):
      1. OpenCV's quad search (one adaptive-threshold window) finds candidate quads; our own
         sampler reads each one and accepts only exact codewords with a clean border (cheap).
      2. The reference AprilTag library (pupil-apriltags' C library) searches the whole frame,
         decimated by `lib_decimate`: medium and large tags, close-ups, steep angles.
      3. Candidates of step 1 that neither step read, and regions where a tag was seen in the
         last `roi_memory` frames but not in this one, are searched again by the library at full
         resolution (`crop_decimate`), at most `crop_budget` of the frame's area per video frame
         (`still_budget` on a still), in overlapping tiles when a region is bigger than that; a
         steep candidate of 40 px or more still unread then gets a tight look of its own.
    A library read must be an exact codeword (hamming 0), or a registered card's 36h11 code with
    corrected bits as `lib_max_corrected` says, with a decision margin of at least
    `lib_margin_floor`; our sampler's reads keep their own checks (`margin_floor`).

    threshold_windows / threshold_constant: OpenCV's adaptive threshold for step 1 (the
        constant 7 of OpenCV turns sensor noise on plain table tops into tens of thousands of contours).
    use_library: steps 2 and 3 (False: OpenCV and our sampler only, the detector before issue 12).
    lib_decimate: decimation of the full-frame library pass (0 = no full-frame pass).
    lib_bands / band_overlap: on video (roi_tracking) the full-frame pass covers one of this many
        horizontal bands per frame, overlapping by this share of the height, plus the whole frame
        at 3x the decimation (tags taller than the overlap); 1 = the whole frame every frame.
    lib_every: on video, the full-frame library pass runs on one frame in this many (tags it
        found are followed in between through the regions of recently seen tags).
    crop_decimate: decimation inside the regions of step 3 (1 = full resolution).
    crop_budget: share of the frame's pixels step 3 may search per frame on video (busy frames take
        turns). A region bigger than what is left is cut into overlapping tiles: the most promising
        now, the ones searched longest ago on the next frames (no region is ever skipped whole).
    still_budget: the same share for a still (roi_tracking off, or the first frame after a reset:
        no next frame may come). 1.0: a photo of a sheet of small tags is read in one go (measured:
        no change in reads or time on the synthetic scenes and the real photographs).
    search_candidates: include step 1's unread candidates in step 3 (those of `min_search_side` px or more).
    roi_tracking: include regions where tags were recently seen in step 3.
    downscale / aruco3: measured variants of step 1 (both lose small tags; kept for the benchmark).
    margin_floor: minimum decision margin (0..1) of a tag read by our sampler.
    max_hamming: data bits our sampler allows to differ from the codeword (0: exact).
    lib_max_corrected: data bits the library may correct in a 36h11 tag of `SECOND_OPINION_PX` and
        more (0: exact reads only); under it `lib_blind_corrected`. A corrected read counts only when
        its id is a registered card's and its decision margin clears `lib_margin_floor`; from
        `lib_check_corrected_px` up our sampler must read every cell but those against the codeword
        clearly (margin floor), and those (no more than the library corrected) in doubt, within
        `lib_corrected_doubt` of half the contrast from the threshold (a smudge, glare, blur; a
        clearly printed other cell is what a pattern that is no tag shows); under it our sampler
        cannot check a read (docs/vision.md, "Corrected bits").
    """

    threshold_windows: tuple[int, ...] = (9,)
    threshold_constant: float = 20.0
    use_library: bool = True
    lib_decimate: float = 4.0
    lib_bands: int = 1
    lib_every: int = 2
    band_overlap: float = 0.15
    crop_decimate: float = 1.0
    crop_budget: float = 0.25
    still_budget: float = 1.0
    search_candidates: bool = True
    lib_margin_floor: float = 30.0
    roi_tracking: bool = True
    roi_memory: int = 8
    downscale: float = 1.0
    aruco3: bool = False
    margin_floor: float = 0.15
    max_hamming: int = 0
    # Bits the AprilTag library may correct in a 36h11 read, accepted only for a registered id with
    # a clear second opinion from our sampler where it can give one (docs/vision.md, "Corrected bits").
    lib_max_corrected: int = 2
    lib_blind_corrected: int = 1  # ... and under SECOND_OPINION_PX
    lib_check_corrected_px: float = 20.0  # from this side up our sampler checks a corrected read
    lib_corrected_doubt: float = 0.5  # a cell read against a corrected codeword must be this close to the threshold (of half the contrast)
    min_perimeter_rate: float = 0.025  # of the larger frame side: tags >= ~8 px at 1280 wide (0.04 lost 15 px tags seen at an angle)
    # OpenCV's polygon approximation, as a share of the contour's length (its default 0.03 left a
    # blurred 14 px tag's outline with 5 or more corners: never a candidate; docs/vision.md).
    polygon_accuracy: float = 0.035
    min_search_side: float = 10.0  # px: smaller candidates get no library look (measured: none was a tag)
    read_rejected: bool = True  # look up OpenCV's rejected candidates among all 36h11 codewords (unknown ids)


def _aruco_parameters(windows: Sequence[int], config: DetectorConfig) -> cv2.aruco.DetectorParameters:
    p = cv2.aruco.DetectorParameters()
    p.adaptiveThreshWinSizeMin = min(windows)
    p.adaptiveThreshWinSizeMax = max(windows)
    p.adaptiveThreshWinSizeStep = max(1, (max(windows) - min(windows)) // max(1, len(windows) - 1)) if len(windows) > 1 else 10
    p.minMarkerPerimeterRate = config.min_perimeter_rate
    p.polygonalApproxAccuracyRate = config.polygon_accuracy
    p.adaptiveThreshConstant = config.threshold_constant
    p.errorCorrectionRate = 0.0  # OpenCV itself accepts only exact codewords...
    p.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    if config.aruco3:
        p.useAruco3Detection = True
        p.minMarkerLengthRatioOriginalImg = 0.02
        p.minSideLengthCanonicalImg = 16
    return p


# Cell layout of a tag seen with its white quiet zone: 10x10 cells (quiet ring, black ring, 6x6 data).
_GRID = 10
_QUIET = np.zeros((_GRID, _GRID), bool)
_QUIET[[0, -1], :] = _QUIET[:, [0, -1]] = True
_BORDER = np.zeros((_GRID, _GRID), bool)
_BORDER[1:9, 1:9] = True
_BORDER[2:8, 2:8] = False
_SUB = (0.35, 0.65)  # where each cell is sampled (2x2 points): away from its blurred edges
_POWERS = (1 << np.arange(36, dtype=np.int64)).reshape(6, 6)


def _canonical_points() -> np.ndarray:
    """Sample points in tag units, where the black square spans 1..9 (3 x 400, homogeneous)."""
    pts = [(c + dx, r + dy) for r in range(_GRID) for c in range(_GRID) for dy in _SUB for dx in _SUB]
    a = np.array(pts, np.float64).T
    return np.vstack([a, np.ones(a.shape[1])])


_CANON = _canonical_points()
_SQUARE = np.float32([[1, 1], [9, 1], [9, 9], [1, 9]])


def sample_cells(gray: np.ndarray, quads: np.ndarray) -> np.ndarray:
    """Mean grey level of each of the 10x10 cells of every quad (N x 4 x 2 -> N x 10 x 10), vectorised."""
    n = len(quads)
    if n == 0:
        return np.zeros((0, _GRID, _GRID), np.float32)
    H = np.stack([cv2.getPerspectiveTransform(_SQUARE, q.astype(np.float32)) for q in quads])
    p = H @ _CANON  # N x 3 x 400
    x = np.clip(p[:, 0] / p[:, 2], 0, gray.shape[1] - 1.001)
    y = np.clip(p[:, 1] / p[:, 2], 0, gray.shape[0] - 1.001)
    x0, y0 = x.astype(np.int32), y.astype(np.int32)
    fx, fy = x - x0, y - y0
    g = gray.astype(np.float32) if gray.dtype != np.float32 else gray
    v = (g[y0, x0] * (1 - fx) * (1 - fy) + g[y0, x0 + 1] * fx * (1 - fy)
         + g[y0 + 1, x0] * (1 - fx) * fy + g[y0 + 1, x0 + 1] * fx * fy)  # bilinear
    return v.reshape(n, _GRID, _GRID, len(_SUB) ** 2).mean(axis=3)


@dataclass(frozen=True)
class CellReading:
    """What our own sampler reads in a quad: data bits (6x6) and how clearly."""

    bits: np.ndarray
    margin: float


def judge_cells(cells: np.ndarray) -> list[CellReading | None]:
    """Black border, white quiet zone and enough contrast, or None; margin 0..1 per quad."""
    out: list[CellReading | None] = []
    quiet, border = cells[:, _QUIET], cells[:, _BORDER]
    white, black = np.median(quiet, axis=1), np.median(border, axis=1)
    for k in range(len(cells)):
        contrast = white[k] - black[k]
        if contrast < 20:  # not a printed black-on-white tag
            out.append(None)
            continue
        thr = (white[k] + black[k]) / 2
        # The whole black ring must be black; a finger may cover a little of the quiet zone.
        if (border[k] > thr).any() or (quiet[k] < thr).sum() > 4:
            out.append(None)
            continue
        data = cells[k, 2:8, 2:8]
        margin = min(float(np.abs(data - thr).min()), float((thr - border[k]).min())) / (contrast / 2)
        out.append(CellReading(data > thr, min(1.0, margin)))
    return out


@lru_cache(maxsize=1)
def _codebook() -> dict[int, tuple[int, int]]:
    """Every 36h11 codeword in its 4 rotations: bits as an integer -> (tag id, quarter turns)."""
    book = {}
    for tag_id in range(apriltag_dictionary().bytesList.shape[0]):
        bits = apriltag_modules(tag_id)[1:7, 1:7] > 127
        for k in range(4):
            book[int((np.rot90(bits, k) * _POWERS).sum())] = (tag_id, k)
    return book


def _quad_side(quad: np.ndarray) -> float:
    return float(np.sqrt(abs(cv2.contourArea(np.asarray(quad, np.float32)))))


def _merge_boxes(boxes: list[list]) -> list[list]:
    """Overlapping (x0, y0, x1, y1, smallest tag side, largest tag side) boxes merged into their bounding boxes."""
    merged: list[list] = []
    for b in sorted(boxes):
        for m in merged:
            if b[0] <= m[2] and b[2] >= m[0] and b[1] <= m[3] and b[3] >= m[1]:
                m[:] = [min(m[0], b[0]), min(m[1], b[1]), max(m[2], b[2]), max(m[3], b[3]), min(m[4], b[4]), max(m[5], b[5])]
                break
        else:
            merged.append(list(b))
    return merged


def _tiles(region: Sequence[float], largest_side: float, tile_area: float) -> list[tuple[int, int, int, int]]:
    """A region too big for one look, cut into a grid of overlapping tiles of at most ~`tile_area` px.

    Neighbouring tiles overlap by 1.8x the largest tag side expected in the region (plus its
    quiet ring): a tag whose centre lies in a cell of the grid lies whole inside that cell's tile.
    """
    x0, y0, x1, y1 = (int(v) for v in region[:4])
    w, h = x1 - x0, y1 - y0
    margin = int(0.9 * largest_side) + 4
    best = (1, 1)
    for n in range(1, 400):  # the fewest cells, roughly square, whose tiles (cell + margins) fit tile_area
        nx = max(1, min(n, round(np.sqrt(n * w / max(h, 1)))))
        ny = -(-n // nx)
        best = (nx, ny)
        if (w / nx + 2 * margin) * (h / ny + 2 * margin) <= tile_area or (w / nx <= margin and h / ny <= margin):
            break
    nx, ny = best
    xs = np.linspace(x0, x1, nx + 1).round().astype(int)
    ys = np.linspace(y0, y1, ny + 1).round().astype(int)
    return [(max(x0, xs[i] - margin), max(y0, ys[j] - margin), min(x1, xs[i + 1] + margin), min(y1, ys[j + 1] + margin))
            for j in range(ny) for i in range(nx)]


def _crop_decimation(side: float, floor: float) -> float:
    """The library's decimation for a region whose smallest tag is `side` px (1, 1.5, 2, 3 or 4)."""
    for dec in (4.0, 3.0, 2.0, 1.5):
        if side >= 30 * dec:
            return max(dec, floor)
    return floor


Found = tuple[int, np.ndarray, float]  # (tag number, corners, quality 0..1)
SECOND_OPINION_PX = 40.0
_VISIT_CELL = 32  # px: the grid on which a video detector remembers where it last looked at full resolution  # from this tag side up, our sampler must agree with the library's read


class AprilTagReader:
    """AprilTags of every registered family: OpenCV + our sampler, then the reference library.

    Step 1 (see DetectorConfig): OpenCV's ArucoDetector finds candidate quads (with a one-codeword
    dictionary: its identification costs ~3 us per codeword and candidate), and every candidate
    is read by our sampler: exact codeword among all 4x587 rotated 36h11 codewords, black ring,
    white quiet zone, decision margin.
    Steps 2-3: the AprilTag C library (vision.apriltag_lib; registered cards' 36h11 codes with up
    to 2 corrected bits, DetectorConfig.lib_max_corrected) on the whole frame, decimated, and
    at full resolution around candidates step 1 could not read and where tags were recently
    seen. Tag numbers: `vision.registry.tag_number(family, code)`.
    """

    def __init__(self, config: DetectorConfig = DetectorConfig(), registered_ids: Collection[int] | None = None,
                 families: Collection[str] = ("tag36h11",)) -> None:
        self.config = config
        full = apriltag_dictionary()
        # OpenCV's identification costs ~3 us per codeword and candidate (340 registered ids: 14 ms a
        # frame, 1 id: 4 ms), and our sampler reads every candidate among all 36h11 codewords anyway:
        # OpenCV is a quad finder here, with a one-codeword dictionary. Measured: the same reads.
        ids = sorted(i for i in (registered_ids or ()) if 0 <= i < TAG36_SIZE)[:1] or [0]
        self._ids = np.array(ids)
        d = cv2.aruco.Dictionary(full.bytesList[ids], 6, full.maxCorrectionBits)
        self._fast = cv2.aruco.ArucoDetector(d, _aruco_parameters(config.threshold_windows, config))
        self._expected: dict[int, np.ndarray] = {}
        # Ids a corrected library read may name: registered cards' 36h11 codes (docs/vision.md, "Corrected bits").
        self._correctable = frozenset(int(i) for i in (registered_ids or ()) if 0 <= i < TAG36_SIZE)
        self.corrected: dict[int, int] = {}  # this frame: id(corners) of an accepted corrected read -> bits corrected
        self._lib_full: LibDetector | None = None
        self._lib_crop: LibDetector | None = None
        if config.use_library:
            try:
                # Each family costs a decode per quad (41h12's reversed border also doubles the quad search),
                # so the library looks for the families the registry uses (always 36h11).
                # 36h11 with up to `lib_max_corrected` corrected bits (accepted for registered ids only, see
                # _keep_library); the library's lookup table for 2 bits costs ~20 ms to build, 3 bits 0.65 s.
                families = {name: (config.lib_max_corrected if name == "tag36h11" else 0)
                            for name in LIB_FAMILIES if name in families or name == "tag36h11"}
                if config.lib_decimate:
                    self._lib_full = LibDetector(families, quad_decimate=config.lib_decimate)
                self._lib_crop = LibDetector(families, quad_decimate=config.crop_decimate)
            except AprilTagLibraryError as exc:  # pupil-apriltags missing: OpenCV and our sampler only
                log.warning("AprilTag library unavailable, reading with OpenCV only: %s", exc)
        self._turn = 0
        self._band = 0
        self._visits: np.ndarray | None = None  # on video: frame number of the last full-resolution look, per cell
        self._frames = 0
        self.last_crop_share = 0.0  # share of the frame searched again at full resolution (diagnostics)

    def reset(self) -> None:
        """Forget the frames before (another camera, another photo): the next frame is read as a still."""
        self._frames = 0
        self._visits = None

    @property
    def uses_library(self) -> bool:
        return self._lib_crop is not None

    def read(self, gray: np.ndarray, rois: Sequence[np.ndarray] = (), video: bool = False) -> list[Found]:
        """(tag number, corners, quality) of every verified tag; `rois`: corners of recently seen tags.

        `video`: frames are consecutive (a camera): the decimated full-frame pass covers one of
        `lib_bands` overlapping horizontal bands per frame (plus the whole frame at 3x its
        decimation, for big tags), so its cost is spread over frames; a tag it finds is then
        followed through `rois`. A card carries its tag twice, so a number may be listed twice.
        """
        accepted, rejected = self._detect_full(gray)
        self.corrected = {}
        found: list[Found] = []
        self._keep_accepted(found, gray, accepted)
        rejected_cells = sample_cells(gray, rejected) if len(rejected) else None  # sampled once, used twice
        if self.config.read_rejected and len(rejected):
            self._keep_rejected(found, gray, rejected, rejected_cells)
        if self._lib_crop is None:
            return found
        doubtful: list[np.ndarray] = []  # decimated library reads our sampler did not confirm: look again
        self._frames += 1
        skip_full = video and self.config.lib_every > 1 and self._frames % self.config.lib_every != 1
        if self._lib_full is not None and not skip_full:
            if video and self.config.lib_bands > 1:
                doubtful = self._library_band(found, gray)
            else:
                self._lib_full.quad_decimate = self.config.lib_decimate
                doubtful = self._keep_library(found, gray, self._lib_full.detect(gray))
        # Candidates worth a full-resolution look: those not read, that look like a tag.
        candidates = [c for _, c in accepted]
        if candidates:
            candidates = [c for c, ok in zip(candidates, _tag_like(sample_cells(gray, np.array(candidates, np.float32)))) if ok]
        if rejected_cells is not None:
            candidates += [c for c, ok in zip(rejected, _tag_like(rejected_cells)) if ok]
        candidates = [c for c in candidates if _quad_side(c) >= self.config.min_search_side]
        self._search_regions(gray, found, candidates, rois, doubtful, video)
        return found

    # --- step 1: OpenCV candidates, our sampler ---------------------------------------------
    def _detect_full(self, gray: np.ndarray) -> tuple[list[tuple[int, np.ndarray]], np.ndarray]:
        s = self.config.downscale
        image = gray if s >= 1.0 else cv2.resize(gray, None, fx=s, fy=s, interpolation=cv2.INTER_AREA)
        corners_list, idx, rejected = self._fast.detectMarkers(image)
        rejected = np.array([r.reshape(4, 2) for r in rejected], np.float32).reshape(-1, 4, 2)
        accepted = [] if idx is None else [(int(self._ids[int(i)]), c.reshape(4, 2)) for c, i in zip(corners_list, idx.ravel())]
        if s >= 1.0:
            return accepted, rejected
        refined = []
        for tag_id, c in accepted:
            # Refine the up-scaled corners on the full-resolution image.
            pts = (c / s).astype(np.float32)
            win = max(2, int(2 / s))
            cv2.cornerSubPix(gray, pts, (win, win), (-1, -1), (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 10, 0.05))
            refined.append((tag_id, pts))
        return refined, rejected / s

    def _keep_accepted(self, found: list[Found], gray: np.ndarray, accepted: list[tuple[int, np.ndarray]]) -> None:
        if not accepted:
            return
        readings = judge_cells(sample_cells(gray, np.array([c for _, c in accepted], np.float32)))
        for (tag_id, corners), r in zip(accepted, readings):
            if r is None or r.margin < self.config.margin_floor:
                continue
            if int((r.bits != self._expected_bits(tag_id)).sum()) <= self.config.max_hamming:
                found.append((tag_id, corners.astype(np.float32), r.margin))

    def _keep_rejected(self, found: list[Found], gray: np.ndarray, quads: np.ndarray, cells: np.ndarray | None = None) -> None:
        """Candidates OpenCV did not match to a registered id: exact lookup among all 36h11 codewords."""
        book = _codebook()
        for quad, r in zip(quads, judge_cells(sample_cells(gray, quads) if cells is None else cells)):
            if r is None or r.margin < self.config.margin_floor:
                continue
            hit = book.get(int((r.bits * _POWERS).sum()))
            if hit is None:
                continue
            tag_id, turns = hit
            # Our sample is the codeword turned `turns` quarter turns: start the corners at the tag's own top-left.
            corners = np.roll(quad, turns, axis=0).astype(np.float32)
            if not _already(found, corners.mean(axis=0), 4.0, tag_id):
                found.append((tag_id, corners, r.margin))

    # --- steps 2 and 3: the AprilTag library ------------------------------------------------
    def _library_band(self, found: list[Found], gray: np.ndarray) -> list[np.ndarray]:
        h = gray.shape[0]
        n = self.config.lib_bands
        k = self._band % n
        self._band += 1
        overlap = int(self.config.band_overlap * h)
        y0, y1 = max(0, k * h // n - overlap), min(h, (k + 1) * h // n + overlap)
        self._lib_full.quad_decimate = self.config.lib_decimate
        doubtful = self._keep_library(found, gray, self._lib_full.detect(gray, (0, y0, gray.shape[1], y1)))
        self._lib_full.quad_decimate = 3 * self.config.lib_decimate  # a tag bigger than the overlap
        return doubtful + self._keep_library(found, gray, self._lib_full.detect(gray))

    def _keep_library(self, found: list[Found], gray: np.ndarray, tags: list[LibTag]) -> list[np.ndarray]:
        """Library reads: exact codeword (or corrected bits, see DetectorConfig.lib_max_corrected),
        decision margin floor, and a second opinion where ours can give one.

        Returns the outlines of reads our sampler did not confirm (worth a look at full resolution).
        """
        doubtful = []
        if not tags:
            return doubtful
        # Centres of the tags read so far (a sheet of hundreds of tags: compared in one vector operation).
        centres = np.array([q.mean(axis=0) for _, q, _ in found], np.float64).reshape(-1, 2)
        for t in tags:
            if t.margin < self.config.lib_margin_floor:
                continue
            if t.hamming and (t.family != "tag36h11" or t.tag_id not in self._correctable):
                continue  # corrected bits: only towards a registered card's code
            corners = np.roll(t.corners, 2, axis=0) if t.family == "tag36h11" else t.corners  # OpenCV's top-left
            side = _quad_side(corners)
            checked = side >= SECOND_OPINION_PX or (t.hamming and side >= self.config.lib_check_corrected_px)
            if t.hamming > (self.config.lib_max_corrected if side >= SECOND_OPINION_PX else self.config.lib_blind_corrected):
                continue  # more corrected bits than our sampler can vouch for at this size
            number = tag_number(t.family, t.tag_id)
            c = corners.mean(axis=0)
            r2 = max(4.0, side / 3) ** 2
            if len(centres) and bool((((centres - c) ** 2).sum(axis=1) < r2).any()):
                continue  # an earlier step read it
            if t.family == "tag36h11" and checked and not self._agrees(gray, t.tag_id, corners, t.hamming):
                doubtful.append(corners)
                continue
            found.append((number, corners, min(1.0, t.margin / 100.0)))
            if t.hamming:
                self.corrected[id(corners)] = t.hamming
            centres = np.vstack([centres, c[None]])
        return doubtful

    def _search_regions(self, gray: np.ndarray, found: list[Found], candidates: list[np.ndarray],
                        rois: Sequence[np.ndarray], doubtful: Sequence[np.ndarray] = (), video: bool = False) -> None:
        h, w = gray.shape[:2]
        # A region is settled when its centre lies within a tag already read (inner blobs of a tag included).
        centres = np.array([q.mean(axis=0) for _, q, _ in found], np.float32).reshape(-1, 2)
        radii = np.array([max(4.0, 0.6 * _quad_side(q)) for _, q, _ in found], np.float32)

        def unresolved(q: np.ndarray) -> bool:
            return not bool((np.hypot(*(centres - q.mean(axis=0)).T) < radii).any())

        def box(q: np.ndarray, pad_rate: float, full_resolution: bool = False) -> list:
            x0, y0 = q.min(axis=0)
            x1, y1 = q.max(axis=0)
            side = _quad_side(q)
            pad = pad_rate * max(x1 - x0, y1 - y0) + 4
            # Clipped to this frame: a region remembered from a larger frame may lie outside it.
            return [*clip_region((x0 - pad, y0 - pad, x1 + pad + 1, y1 + pad + 1), w, h),
                    0.0 if full_resolution else side, max(side, x1 - x0, y1 - y0)]

        def boxes(quads: Sequence[np.ndarray], pad_rate: float, full_resolution: bool = False) -> list[list]:
            out = [box(q, pad_rate, full_resolution) for q in quads if np.isfinite(q).all() and unresolved(q)]
            return [b for b in out if b[2] > b[0] and b[3] > b[1]]

        # Decimated reads to confirm and where a tag was just seen (a card moves a little between
        # frames) come first, then the candidates.
        roi_boxes = _merge_boxes(boxes(doubtful, 0.3, True) + boxes(rois, 0.75))
        cand_boxes = _merge_boxes(boxes(candidates, 0.3)) if self.config.search_candidates else []
        if cand_boxes:  # a busy frame cannot search everything: candidates take turns, frame after frame
            k = self._turn % len(cand_boxes)
            cand_boxes = cand_boxes[k:] + cand_boxes[:k]
            self._turn += 1
        # A still (or the first frame of a video: there may be no next one) gets its own budget at once.
        still = not video or self._frames <= 1
        share = self.config.still_budget if still else self.config.crop_budget / self.config.lib_bands
        budget = share * h * w
        seeds = np.array([q.mean(axis=0) for q in [*doubtful, *rois, *candidates] if np.isfinite(q).all()],
                         np.float32).reshape(-1, 2)
        if video and (self._visits is None or self._visits.shape != (-(-h // _VISIT_CELL), -(-w // _VISIT_CELL))):
            self._visits = np.full((-(-h // _VISIT_CELL), -(-w // _VISIT_CELL)), -1, np.int64)
        used = 0.0
        # Recently seen tags may take half the budget when candidates wait: on a sheet of small tags,
        # re-reading the tags already found would otherwise starve the search for the others.
        for regions, limit in ((roi_boxes, budget / 2 if cand_boxes else budget), (cand_boxes, budget)):
            for x0, y0, x1, y1, side, largest in regions:
                # A big tag needs no full resolution: decimate so that it stays >= ~30 px (the library's sweet spot).
                dec = _crop_decimation(side, self.config.crop_decimate)
                cost = (x1 - x0) * (y1 - y0) / (dec * dec)
                if cost <= 0:
                    continue
                if used + cost <= limit:
                    used += self._search((x0, y0, x1, y1), dec, found, gray, video)
                    continue
                # Too big for what is left: no cliff, its most promising tiles now, the others on later frames.
                tiles = _tiles((x0, y0, x1, y1), largest, budget * dec * dec / 2)
                for tile in self._tile_order(tiles, seeds, video):
                    if used + (tile[2] - tile[0]) * (tile[3] - tile[1]) / (dec * dec) <= limit:
                        used += self._search(tile, dec, found, gray, video)
        used += self._tight_looks(gray, found, candidates, budget - used, video)
        self.last_crop_share = used / (h * w)

    def _tight_looks(self, gray: np.ndarray, found: list[Found], candidates: Sequence[np.ndarray], left: float,
                     video: bool) -> float:
        """A last look, tight around each large steep candidate still unread; returns its cost.

        The library fits a tag's outline to the strongest edges in its region: with step 3's padding
        (0.3 of the tag's extent), a steep tag on a box's face is fitted to the face's edge and read as nothing,
        while a region just around the candidate is read (../shared/vision-dev, 3dpicture_2_2.jpg).
        """
        h, w = gray.shape[:2]
        used = 0.0
        for q in candidates:
            side = _quad_side(q)
            if side < TIGHT_LOOK_PX or not np.isfinite(q).all() or _foreshortening(q) > STEEP_FORESHORTENING:
                continue
            centres = np.array([f[1].mean(axis=0) for f in found], np.float32).reshape(-1, 2)
            radii = np.array([max(4.0, 0.6 * _quad_side(f[1])) for f in found], np.float32)
            if (np.hypot(*(centres - q.mean(axis=0)).T) < radii).any():
                continue
            (x0, y0), (x1, y1) = q.min(axis=0), q.max(axis=0)
            pad = TIGHT_PAD * max(x1 - x0, y1 - y0) + 3
            region = clip_region((x0 - pad, y0 - pad, x1 + pad + 1, y1 + pad + 1), w, h)
            dec = _crop_decimation(side, self.config.crop_decimate)
            cost = (region[2] - region[0]) * (region[3] - region[1]) / (dec * dec)
            if cost <= 0 or used + cost > left:
                continue
            used += self._search(region, dec, found, gray, video)
        return used

    def _search(self, region: tuple[int, int, int, int], dec: float, found: list[Found], gray: np.ndarray,
                video: bool) -> float:
        """One full-resolution look by the library; returns its cost (decimated pixels)."""
        x0, y0, x1, y1 = region
        self._lib_crop.quad_decimate = dec
        self._keep_library(found, gray, self._lib_crop.detect(gray, region))
        if video:
            c = _VISIT_CELL
            self._visits[y0 // c:-(-y1 // c), x0 // c:-(-x1 // c)] = self._frames
        return (x1 - x0) * (y1 - y0) / (dec * dec)

    def _tile_order(self, tiles: list[tuple[int, int, int, int]], seeds: np.ndarray, video: bool) -> list:
        """Most promising tiles first (most unread candidates and recent tags); on video, tiles not
        searched for the longest time first, and none searched twice in one frame."""
        def promise(t: tuple[int, int, int, int]) -> int:
            return int(((seeds[:, 0] >= t[0]) & (seeds[:, 0] < t[2]) & (seeds[:, 1] >= t[1]) & (seeds[:, 1] < t[3])).sum())

        def last_visit(t: tuple[int, int, int, int]) -> float:
            c = _VISIT_CELL
            cells = self._visits[t[1] // c:-(-t[3] // c), t[0] // c:-(-t[2] // c)]
            return float(cells.mean()) if cells.size else -1.0

        scored = [(last_visit(t) if video else 0.0, -promise(t), t) for t in tiles]
        scored = [s for s in scored if not (video and s[0] >= self._frames)]
        return [t for _, p, t in sorted(scored, key=lambda s: s[:2]) if p < 0 or not len(seeds)]

    def _agrees(self, gray: np.ndarray, tag_id: int, corners: np.ndarray, corrected: int = 0) -> bool:
        """Our sampler reads all 36 bits of `tag_id` on the library's outline, each clearly (margin floor).

        Unlike step 1 it does not ask for a clean black ring and quiet zone (the library found the
        quad); white = the quiet ring's median, black = the black ring's. A tag seen at a steep
        angle is also read with its cells sharpened, as the library sharpens its own samples
        (`AGREE_SHARPENING`): defocus spreads each cell into its neighbours, and a steep angle
        squeezes the cells to a few pixels. A tag facing the camera is never sharpened (a
        washed-out tag stays below the margin floor). Real tags of 40 px and more in
        ../shared/vision-dev: every one agrees. A read the library corrected (`corrected` bits)
        agrees when our sampler reads at most as many cells against the codeword, each of them in
        doubt (`lib_corrected_doubt`), and every other cell clearly.
        """
        quad = np.asarray(corners, np.float32).reshape(1, 4, 2)
        cells = sample_cells(gray, quad)[0]
        if self._cells_agree(cells, tag_id, corrected):
            return True
        return (_foreshortening(quad[0]) <= STEEP_FORESHORTENING
                and self._cells_agree(_sharpened(cells, AGREE_SHARPENING), tag_id, corrected))

    def _cells_agree(self, cells: np.ndarray, tag_id: int, corrected: int = 0) -> bool:
        white, black = float(np.median(cells[_QUIET])), float(np.median(cells[_BORDER]))
        if white - black < 20:
            return False
        thr = (white + black) / 2
        data = cells[2:8, 2:8]
        margin = float(np.abs(data - thr).min()) / ((white - black) / 2)
        wrong = (data > thr) != self._expected_bits(tag_id)
        if not corrected:
            return margin >= self.config.margin_floor and not wrong.any()
        # A corrected read: at most as many cells against the codeword as the library corrected, each of
        # them in doubt (near the threshold: blur, glare), never a clearly printed other bit; every other
        # cell clear of the threshold by the margin floor.
        doubt = np.abs(data - thr) / ((white - black) / 2)
        if int(wrong.sum()) > corrected or (doubt[wrong] >= self.config.lib_corrected_doubt).any():
            return False
        return float(doubt[~wrong].min()) >= self.config.margin_floor

    def verify(self, gray: np.ndarray, tag_id: int, corners: np.ndarray) -> float | None:
        """Re-read one 36h11 tag's cells; its decision margin if all bits match `tag_id`, else None."""
        r = judge_cells(sample_cells(gray, np.asarray(corners, np.float32).reshape(1, 4, 2)))[0]
        if r is None or int((r.bits != self._expected_bits(tag_id)).sum()) > self.config.max_hamming:
            return None
        return r.margin

    def _expected_bits(self, tag_id: int) -> np.ndarray:
        if tag_id not in self._expected:
            self._expected[tag_id] = apriltag_modules(tag_id)[1:7, 1:7] > 127
        return self._expected[tag_id]


# Candidates from this side up that no step read get a tight look (AprilTagReader._tight_looks),
# padded by this share of their extent.
TIGHT_LOOK_PX = SECOND_OPINION_PX
TIGHT_PAD = 0.12

# The AprilTag library's own default (decode_sharpening): on issue 21's steep defocused scene
# (60-75 degrees) 29 of 42 tags read instead of 22; 0.5 the same, 1.0 27; harsher scenes: 0.5
# and 1.0 fewer than 0.25 (they sharpen the noise). docs/vision.md, "How a frame is read".
AGREE_SHARPENING = 0.25
# A tag is steep when it is squeezed to this share of its width or less (cos 50 degrees).
STEEP_FORESHORTENING = 0.65


def _foreshortening(quad: np.ndarray) -> float:
    """How squeezed a tag's outline is at its centre: 1 facing the camera, ~cos(tilt) when tilted."""
    H = cv2.getPerspectiveTransform(_SQUARE, np.asarray(quad, np.float32))
    x, y, z = H @ np.array([5.0, 5.0, 1.0])
    # Jacobian of the homography at the tag's centre: how a small step on the tag moves in the image.
    J = (H[:2, :2] * z - np.outer([x, y], H[2, :2])) / (z * z)
    s = np.linalg.svd(J, compute_uv=False)
    return float(s[-1] / s[0]) if s[0] > 0 else 0.0


def _sharpened(cells: np.ndarray, amount: float) -> np.ndarray:
    """A 10x10 cell grid sharpened by `amount` of its Laplacian (edge cells against themselves)."""
    p = np.pad(cells, 1, mode="edge")
    return cells + amount * (4 * cells - p[:-2, 1:-1] - p[2:, 1:-1] - p[1:-1, :-2] - p[1:-1, 2:])


def _tag_like(cells: np.ndarray) -> np.ndarray:
    """Which candidates look enough like a tag to search again: a mostly dark ring in a lighter surround,
    and both light and dark cells inside (not a plain square of a checked tablecloth).

    Much looser than judge_cells (a blurred or partly lit real tag fails its checks, see
    docs/vision.md), but it drops most card edges, text and table patterns.
    """
    quiet, border = cells[:, _QUIET], cells[:, _BORDER]
    white, black = np.median(quiet, axis=1), np.median(border, axis=1)
    thr = (white + black) / 2
    dark_ring = (border < thr[:, None]).mean(axis=1)
    light_data = (cells[:, 2:8, 2:8].reshape(len(cells), -1) > thr[:, None]).mean(axis=1)  # a plain square has none
    return (white - black >= 15) & (dark_ring >= 0.6) & (light_data >= 0.1) & (light_data <= 0.9)


def _already(found: list[Found], centre: np.ndarray, radius: float, number: int) -> bool:
    """A tag is already listed near `centre` (the same tag read by an earlier step)."""
    cx, cy = float(centre[0]), float(centre[1])
    for _, q, _ in found:
        m = q.mean(axis=0)
        if (m[0] - cx) ** 2 + (m[1] - cy) ** 2 < radius * radius:
            return True
    return False


class QrReader:
    """QR Model 2 through zxing-cpp (default) or pyzbar; yields (payload text, corners)."""

    def __init__(self, backend: str = "zxing") -> None:
        self.backend = backend
        if backend == "zxing":
            import zxingcpp

            self._zx = zxingcpp
        elif backend == "pyzbar":
            try:
                from pyzbar import pyzbar
            except (ImportError, OSError) as exc:  # the Python package or the zbar system library is missing
                raise DecoderUnavailableError(f"pyzbar cannot be used here: {exc}") from None
            self._zbar = pyzbar
        else:
            raise ValueError(f"unknown QR backend {backend!r} (use 'zxing' or 'pyzbar')")

    def read(self, gray: np.ndarray) -> list[tuple[str, np.ndarray]]:
        if self.backend == "zxing":
            out = []
            for r in self._zx.read_barcodes(gray, formats=self._zx.BarcodeFormat.QRCodeModel2):
                p = r.position
                corners = np.float32([[p.top_left.x, p.top_left.y], [p.top_right.x, p.top_right.y],
                                      [p.bottom_right.x, p.bottom_right.y], [p.bottom_left.x, p.bottom_left.y]])
                out.append((r.text, corners))
            return out
        out = []
        for r in self._zbar.decode(gray, symbols=[self._zbar.ZBarSymbol.QRCODE]):
            pts = np.float32([(pt.x, pt.y) for pt in r.polygon]) if len(r.polygon) == 4 else np.float32(
                [[r.rect.left, r.rect.top], [r.rect.left + r.rect.width, r.rect.top],
                 [r.rect.left + r.rect.width, r.rect.top + r.rect.height], [r.rect.left, r.rect.top + r.rect.height]])
            try:
                out.append((r.data.decode("ascii"), pts))
            except UnicodeDecodeError:
                continue
        return out


# A tag with its quiet ring needs about 10 px a side: a smaller frame holds none.
MIN_FRAME_SIDE = 16
# Larger than any camera's frame (8K is 7680 wide); what the AprilTag library indexes safely.
MAX_FRAME_SIDE = MAX_LIBRARY_SIDE


def gray_frame(frame: np.ndarray) -> np.ndarray:
    """A camera frame as a C-contiguous 2-D uint8 grey image; a ValueError in words for anything else."""
    if not isinstance(frame, np.ndarray):
        raise ValueError(f"a camera frame must be a numpy array, not {type(frame).__name__}")
    if frame.dtype != np.uint8:
        raise ValueError(f"a camera frame must be an 8-bit image (uint8), not {frame.dtype}")
    if frame.ndim == 3 and frame.shape[2] == 1:
        frame = frame[:, :, 0]
    if not (frame.ndim == 2 or (frame.ndim == 3 and frame.shape[2] in (3, 4))):
        raise ValueError(f"a camera frame must be grey, BGR or BGRA; this one has shape {frame.shape}")
    if max(frame.shape[:2]) > MAX_FRAME_SIDE:
        raise ValueError(f"a frame of {frame.shape[1]}x{frame.shape[0]} is larger than any camera's "
                         f"({MAX_FRAME_SIDE} px a side at most)")
    if frame.ndim == 2 or frame.size == 0:
        return np.ascontiguousarray(frame if frame.ndim == 2 else frame[:, :, 0])
    code = cv2.COLOR_BGR2GRAY if frame.shape[2] == 3 else cv2.COLOR_BGRA2GRAY
    return cv2.cvtColor(np.ascontiguousarray(frame), code)


class TagDetector:
    """Finds every tag in a BGR or gray frame and says what it is for the active game.

    `active`: the game names or deck ids being played ("carmen-cards" or "carmen"); a registered
    card of any other game is FOREIGN. None accepts every registered card.
    `kinds`: AprilTag by default; add "qr" when the family printed QR stickers (the QR pass adds
    ~3 ms per frame).
    """

    def __init__(self, active: Collection[str] | None = None, registry: TagRegistry | None = None,
                 kinds: Collection[TagKind | str] = (TagKind.APRILTAG,), qr_backend: str = "zxing",
                 config: DetectorConfig = DetectorConfig()) -> None:
        self.registry = registry or TagRegistry.load()
        self.active = None if active is None else frozenset(active)
        self.kinds = frozenset(TagKind(k) for k in kinds)
        self.config = config
        self._april = (AprilTagReader(config, self.registry.tag_ids(), self.registry.families())
                       if TagKind.APRILTAG in self.kinds else None)
        self._qr = QrReader(qr_backend) if TagKind.QR in self.kinds else None
        self._recent: list[tuple[int, np.ndarray]] = []  # (frame number, corners) of recent AprilTags
        self._frame_shape: tuple[int, ...] | None = None
        self._frame_no = 0
        self.rejected_payloads = 0  # QR codes that were not valid Gumshoe payloads (for diagnostics)

    def reset(self) -> None:
        """Forget recent detections (call when the camera changes)."""
        self._recent.clear()
        if self._april is not None:
            self._april.reset()

    def detect(self, frame: np.ndarray) -> list[Detection]:
        """Every tag in a frame (BGR, BGRA or grey, uint8, any memory layout).

        A frame of another size than the previous one (another camera, a renegotiated
        resolution) starts afresh: regions remembered in the old frame mean nothing in it.
        A frame too small to hold a tag reads nothing; anything that is not an 8-bit image is
        a ValueError saying so.
        """
        gray = gray_frame(frame)
        if gray.shape != self._frame_shape:
            self._frame_shape = gray.shape
            self.reset()
        self._frame_no += 1
        detections: list[Detection] = []
        if min(gray.shape) < MIN_FRAME_SIDE:
            return detections
        if self._april is not None:
            rois = [q for _, q in self._recent] if self.config.roi_tracking else []
            for tag_id, corners, quality in self._april.read(gray, rois, video=self.config.roi_tracking):
                identity = self.registry.identify_tag(tag_id, self.active)
                detections.append(Detection(TagKind.APRILTAG, identity, corners, quality,
                                            self._april.corrected.get(id(corners), 0)))
            if self.config.roi_tracking:
                self._remember([d.corners for d in detections])
        if self._qr is not None:
            for text, corners in self._qr.read(gray):
                try:
                    card_id = decode_payload(text)
                except PayloadError as exc:
                    self.rejected_payloads += 1
                    log.debug("ignored QR code: %s", exc)
                    continue
                detections.append(Detection(TagKind.QR, self.registry.identify_card(card_id, self.active), corners))
        return detections

    def _remember(self, quads: list[np.ndarray]) -> None:
        horizon = self._frame_no - self.config.roi_memory
        self._recent = [(n, q) for n, q in self._recent if n > horizon] + [(self._frame_no, q) for q in quads]
