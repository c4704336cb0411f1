"""A privacy-safe preview for a screen everyone at the table can see.

The frame is pixelated into blocks much larger than a letter or a tag module (so no card face
can be read and no tag decoded from the preview), then each detected tag is drawn as a
coloured outline, with a tick for confirmed cards.

>>> import numpy as np
>>> privacy_preview(np.zeros((720, 1280, 3), np.uint8)).shape
(720, 1280, 3)
"""

from __future__ import annotations

from typing import Collection, Iterable

import cv2
import numpy as np

from vision.detector import Detection
from vision.registry import TagStatus
from vision.tracker import detection_key

BLOCKS_ACROSS = 32  # 40 px blocks at 1280 wide: several letters of a card's title per block

COLORS = {  # BGR
    TagStatus.CARD: (80, 200, 80),
    TagStatus.FOREIGN: (0, 165, 255),
    TagStatus.UNKNOWN: (60, 60, 230),
}


def pixelate(frame: np.ndarray, blocks_across: int = BLOCKS_ACROSS) -> np.ndarray:
    """Average over large blocks, then scale back up with hard edges."""
    h, w = frame.shape[:2]
    bw = max(1, blocks_across)
    bh = max(1, round(bw * h / w))
    small = cv2.resize(frame, (bw, bh), interpolation=cv2.INTER_AREA)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_NEAREST)


def privacy_preview(frame: np.ndarray, detections: Iterable[Detection] = (),
                    confirmed: Collection[str] = (), blocks_across: int = BLOCKS_ACROSS) -> np.ndarray:
    """The pixelated frame with tag outlines; `confirmed` holds card ids (or tracker keys) to tick.

    A tag's own area is painted over too: even a 150 px tag (15 px modules) would otherwise keep
    some structure at 40 px blocks.
    """
    img = pixelate(frame if frame.ndim == 3 else cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR), blocks_across)
    thickness = max(2, img.shape[1] // 400)
    for d in detections:
        pts = np.round(d.corners).astype(np.int32).reshape(-1, 1, 2)
        color = COLORS.get(d.status, (200, 200, 200))
        cv2.fillPoly(img, [pts], tuple(int(c * 0.6) for c in color))
        cv2.polylines(img, [pts], True, color, thickness, cv2.LINE_AA)
        if detection_key(d) in confirmed:
            _tick(img, d.corners, thickness)
    return img


def _tick(img: np.ndarray, corners: np.ndarray, thickness: int) -> None:
    cx, cy = corners.mean(axis=0)
    s = max(8.0, float(np.ptp(corners[:, 0]) + np.ptp(corners[:, 1])) / 6)
    pts = np.int32([[cx - s, cy], [cx - s / 3, cy + s * 0.7], [cx + s, cy - s * 0.8]])
    cv2.polylines(img, [pts.reshape(-1, 1, 2)], False, (255, 255, 255), thickness + 3, cv2.LINE_AA)
    cv2.polylines(img, [pts.reshape(-1, 1, 2)], False, (40, 160, 40), thickness, cv2.LINE_AA)
