"""Tag detection: every tag in a frame, as a card id / foreign / unknown, with its corners.

Safety policy (a misread is worse than a missed read, see docs/vision.md):

* AprilTag 36h11 only (minimum Hamming distance 11), decoded by OpenCV with no error correction.
* Every AprilTag is re-read by our own bit sampler: all 36 data bits must match the codeword
  (Hamming 0), the black border and the white quiet zone must be where they belong, and the
  decision margin (how far the darkest "white" and brightest "black" cell are from the
  threshold, relative to the tag's contrast) must reach a floor.
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
from dataclasses import dataclass, field, replace
from typing import Collection, Sequence

import cv2
import numpy as np

from vision.payload import PayloadError, decode_payload
from vision.registry import Identity, TagRegistry, TagStatus
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

    threshold_windows: adaptive-threshold window sizes for the full-frame pass. One window (7 px)
        costs a third of OpenCV's default three (3, 13, 23) and reads the same tags, except some
        motion-blurred ones, which the ROI pass recovers.
    roi_tracking: re-examine, with all three windows, the regions where tags were seen in the
        last `roi_memory` frames but were missed by the fast pass.
    downscale: run the full-frame pass on an image scaled by this factor, then refine corners and
        verify bits at full resolution (1.0 = off; measured: loses tags under 30 px).
    aruco3: OpenCV's ArUco3 speed-up (measured: faster but loses every tag under ~40 px).
    margin_floor: minimum decision margin of an AprilTag.
    max_hamming: data bits allowed to differ from the codeword (0: exact).
    """

    threshold_windows: tuple[int, ...] = (7,)
    threshold_constant: float = 13.0
    roi_tracking: bool = True
    roi_memory: int = 8
    downscale: float = 1.0
    aruco3: bool = False
    margin_floor: float = 0.15
    max_hamming: int = 0
    min_perimeter_rate: float = 0.04  # of the larger frame side: tags >= ~13 px at 1280 wide
    # threshold_constant: how much darker than its neighbourhood a pixel must be to count as black;
    # OpenCV's 7 turns sensor noise on plain table tops into tens of thousands of contours (slow).


def _aruco_parameters(windows: Sequence[int], config: DetectorConfig) -> cv2.aruco.DetectorParameters:
    p = cv2.aruco.DetectorParameters()
    p.adaptiveThreshWinSizeMin = min(windows)
    p.adaptiveThreshWinSizeMax = max(windows)
    p.adaptiveThreshWinSizeStep = max(1, (max(windows) - min(windows)) // max(1, len(windows) - 1)) if len(windows) > 1 else 10
    p.minMarkerPerimeterRate = config.min_perimeter_rate
    p.adaptiveThreshConstant = config.threshold_constant
    p.errorCorrectionRate = 0.0  # OpenCV itself accepts only exact codewords...
    p.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    if config.aruco3:
        p.useAruco3Detection = True
        p.minMarkerLengthRatioOriginalImg = 0.02
        p.minSideLengthCanonicalImg = 16
    return p


class AprilTagReader:
    """AprilTag 36h11 through cv2.aruco.ArucoDetector, plus our bit-level verification."""

    CELL_PX = 4  # the central 2x2 pixels of each cell are averaged: cell edges are blurred

    def __init__(self, config: DetectorConfig = DetectorConfig()) -> None:
        self.config = config
        d = apriltag_dictionary()
        self._fast = cv2.aruco.ArucoDetector(d, _aruco_parameters(config.threshold_windows, config))
        # The ROI pass is small, so it can afford OpenCV's full window set.
        roi_cfg = replace(config, aruco3=False, min_perimeter_rate=0.1, threshold_constant=7.0)
        self._thorough = cv2.aruco.ArucoDetector(d, _aruco_parameters((3, 13, 23), roi_cfg))
        self._expected: dict[int, np.ndarray] = {}

    def read(self, gray: np.ndarray) -> list[tuple[int, np.ndarray, float]]:
        """(tag id, corners, margin) of every verified tag found by the fast full-frame pass.

        A card carries its tag twice, so the same id may be listed twice (two places).
        """
        found: list[tuple[int, np.ndarray, float]] = []
        for tag_id, corners in self._detect_full(gray):
            self._keep(found, gray, tag_id, corners)
        return found

    def read_rois(self, gray: np.ndarray, rois: Sequence[tuple[int, int, int, int]],
                  found: list[tuple[int, np.ndarray, float]]) -> None:
        """Look again, thoroughly, inside (x, y, w, h) regions; adds tags not yet in `found`."""
        for x, y, w, h in rois:
            crop = gray[y:y + h, x:x + w]
            if crop.size == 0:
                continue
            corners_list, ids, _ = self._thorough.detectMarkers(crop)
            if ids is None:
                continue
            for c, i in zip(corners_list, ids.ravel()):
                corners = c.reshape(4, 2) + (x, y)
                centre = corners.mean(axis=0)
                if not any(t == int(i) and np.linalg.norm(q.mean(axis=0) - centre) < 4 for t, q, _ in found):
                    self._keep(found, gray, int(i), corners)

    def _detect_full(self, gray: np.ndarray):
        s = self.config.downscale
        if s >= 1.0:
            corners_list, ids, _ = self._fast.detectMarkers(gray)
            return [] if ids is None else [(int(i), c.reshape(4, 2)) for c, i in zip(corners_list, ids.ravel())]
        small = cv2.resize(gray, None, fx=s, fy=s, interpolation=cv2.INTER_AREA)
        corners_list, ids, _ = self._fast.detectMarkers(small)
        if ids is None:
            return []
        out = []
        for c, i in zip(corners_list, ids.ravel()):
            # Refine the up-scaled corners on the full-resolution image.
            pts = (c.reshape(4, 2) / s).astype(np.float32)
            win = max(2, int(2 / s))
            cv2.cornerSubPix(gray, pts, (win, win), (-1, -1), (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 10, 0.05))
            out.append((int(i), pts))
        return out

    def _keep(self, found: list, gray: np.ndarray, tag_id: int, corners: np.ndarray) -> None:
        margin = self.verify(gray, tag_id, corners)
        if margin is not None and margin >= self.config.margin_floor:
            found.append((tag_id, corners.astype(np.float32), margin))

    def verify(self, gray: np.ndarray, tag_id: int, corners: np.ndarray) -> float | None:
        """Re-read the tag's cells; the decision margin if the bits match `tag_id`, else None."""
        n = 10  # 6 data + black border + white quiet zone, in cells
        cell = self.CELL_PX
        src = np.asarray(corners, np.float32).reshape(4, 2)
        dst = np.float32([[1, 1], [9, 1], [9, 9], [1, 9]]) * cell
        H = cv2.getPerspectiveTransform(src, dst)
        patch = cv2.warpPerspective(gray, H, (n * cell, n * cell), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        # Mean of the central part of each cell: edges are blurred by the camera.
        lo, hi = cell // 4, cell - cell // 4
        cells = patch.reshape(n, cell, n, cell)[:, lo:hi, :, lo:hi].mean(axis=(1, 3))
        quiet = np.concatenate([cells[0, :], cells[-1, :], cells[1:-1, 0], cells[1:-1, -1]])
        border = np.concatenate([cells[1, 1:9], cells[8, 1:9], cells[2:8, 1], cells[2:8, 8]])
        white, black = float(np.median(quiet)), float(np.median(border))
        contrast = white - black
        if contrast < 20:  # not a printed black-on-white tag
            return None
        threshold = (white + black) / 2
        if (border > threshold).any() or (quiet < threshold).sum() > 4:  # a finger on the quiet zone is tolerated a little
            return None
        data = cells[2:8, 2:8]
        expected = self._expected_bits(tag_id)
        read = data > threshold
        if int((read != expected).sum()) > self.config.max_hamming:
            return None
        margin_cells = np.abs(np.concatenate([data.ravel(), border]) - threshold) / (contrast / 2)
        return float(min(1.0, margin_cells.min()))

    def _expected_bits(self, tag_id: int) -> np.ndarray:
        if tag_id not in self._expected:
            self._expected[tag_id] = apriltag_modules(tag_id)[1:7, 1:7] > 127
        return self._expected[tag_id]


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


class TagDetector:
    """Finds every tag in a BGR or gray frame and says what it is for the active game.

    `active`: the game names or deck ids being played ("carmen-cards" or "carmen"); a registered
    card of any other game is FOREIGN. None accepts every registered card.
    """

    def __init__(self, active: Collection[str] | None = None, registry: TagRegistry | None = None,
                 kinds: Collection[TagKind | str] = (TagKind.APRILTAG, TagKind.QR), qr_backend: str = "zxing",
                 config: DetectorConfig = DetectorConfig()) -> None:
        self.registry = registry or TagRegistry.load()
        self.active = None if active is None else frozenset(active)
        self.kinds = frozenset(TagKind(k) for k in kinds)
        self.config = config
        self._april = AprilTagReader(config) if TagKind.APRILTAG in self.kinds else None
        self._qr = QrReader(qr_backend) if TagKind.QR in self.kinds else None
        self._recent: list[tuple[int, np.ndarray]] = []  # (frame number, corners) of recent AprilTags
        self._frame_no = 0
        self.rejected_payloads = 0  # QR codes that were not valid Gumshoe payloads (for diagnostics)

    def reset(self) -> None:
        """Forget recent detections (call when the camera changes)."""
        self._recent.clear()

    def detect(self, frame: np.ndarray) -> list[Detection]:
        gray = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        self._frame_no += 1
        detections: list[Detection] = []
        if self._april is not None:
            found = self._april.read(gray)
            if self.config.roi_tracking:
                self._april.read_rois(gray, self._rois(gray.shape, [c for _, c, _ in found]), found)
            for tag_id, corners, margin in found:
                identity = self.registry.identify_tag(tag_id, self.active)
                detections.append(Detection(TagKind.APRILTAG, identity, corners, margin))
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

    def _rois(self, shape: tuple[int, ...], seen_now: list[np.ndarray]) -> list[tuple[int, int, int, int]]:
        """Regions around tags seen lately but missed by this frame's fast pass (merged, clipped)."""
        h, w = shape[:2]
        boxes = []
        for _, q in self._recent:
            c = q.mean(axis=0)
            size = float(np.ptp(q[:, 0]) + np.ptp(q[:, 1])) / 2
            if any(np.linalg.norm(c - now.mean(axis=0)) < size for now in seen_now):
                continue  # still found by the fast pass: nothing to recover
            x0, y0 = q.min(axis=0)
            x1, y1 = q.max(axis=0)
            pad = 0.75 * max(x1 - x0, y1 - y0)  # room for a card moving between frames
            boxes.append([max(0, int(x0 - pad)), max(0, int(y0 - pad)), min(w, int(x1 + pad)), min(h, int(y1 + pad))])
        merged: list[list[int]] = []
        for b in sorted(boxes):
            for m in merged:
                if b[0] <= m[2] and b[2] >= m[0] and b[1] <= m[3] and b[3] >= m[1]:
                    m[0], m[1], m[2], m[3] = min(m[0], b[0]), min(m[1], b[1]), max(m[2], b[2]), max(m[3], b[3])
                    break
            else:
                merged.append(b)
        return [(x0, y0, x1 - x0, y1 - y0) for x0, y0, x1, y1 in merged]
