"""Which camera frames get a full tag search: every one while something moves, few on a still table.

A game lasts an hour with the camera on, and most of that time the table is still. Searching
every frame in full costs 10-30% of a core; comparing a tiny thumbnail of each frame with the
last searched one costs ~0.03 ms. `SearchPacer.wants_search` says yes when the picture changed
(a card coming into view changes several thumbnail cells at once), for `settle_s` after any
change (the tracker needs three frames of a card held still), while a tag in view is not yet
confirmed, and otherwise once every `still_every_s` (a slow drift, a card slid in under the
threshold). In between, the caller reuses the last search's detections: the picture is the
same. Pure logic; the clock is the caller's.

>>> import numpy as np
>>> pacer = SearchPacer(settle_s=1.0, still_every_s=1.0)
>>> table = np.full((720, 1280, 3), 90, np.uint8)
>>> [pacer.wants_search(table, now=t / 30) for t in (0, 1, 40, 41, 70)]
[True, True, True, False, True]
>>> card = table.copy(); card[300:420, 500:580] = 240        # a card comes into view
>>> pacer.wants_search(card, now=71 / 30)
True
"""

from __future__ import annotations

import cv2
import numpy as np

GRID_CELLS_ACROSS = 40   # thumbnail cells across the frame: 32 px cells at 1280 wide
CHANGE_LEVEL = 10        # grey levels a cell's mean must move by (sensor noise moves it by ~1)
CHANGE_CELLS = 2         # cells that must move: a card coming into view moves a dozen


def thumbnail(frame: np.ndarray) -> np.ndarray | None:
    """Mean grey (green channel) of a GRID_CELLS_ACROSS-wide grid of cells, from every 8th pixel or so.

    None for a frame too small to judge (the caller then searches it).
    """
    h, w = frame.shape[:2]
    step = max(1, w // (GRID_CELLS_ACROSS * 4))
    samples = frame[step // 2::step, step // 2::step]
    if samples.ndim == 3:
        samples = samples[:, :, 1 if samples.shape[2] >= 3 else 0]
    cols, rows = samples.shape[1] // 4, samples.shape[0] // 4
    if cols < 2 or rows < 2:
        return None
    return cv2.resize(np.ascontiguousarray(samples), (cols, rows), interpolation=cv2.INTER_AREA).astype(np.int16)


class SearchPacer:
    """Decides, frame by frame, whether the detector should search it (see the module's text)."""

    def __init__(self, settle_s: float = 1.0, still_every_s: float = 1.0) -> None:
        self.settle_s = settle_s
        self.still_every_s = still_every_s
        self._reference: np.ndarray | None = None  # thumbnail of the last searched frame
        self._last_search = float("-inf")
        self._moving_until = float("-inf")

    def changed(self, thumb: np.ndarray | None) -> bool:
        ref = self._reference
        if thumb is None or ref is None or thumb.shape != ref.shape:
            return True
        return int((np.abs(thumb - ref) >= CHANGE_LEVEL).sum()) >= CHANGE_CELLS

    def wants_search(self, frame: np.ndarray, now: float, tags_settled: bool = True) -> bool:
        """Search this frame? `tags_settled`: every tag the last search saw is confirmed already
        (False keeps every frame searched until the tracker has decided)."""
        thumb = thumbnail(frame)
        if self.changed(thumb):
            self._moving_until = now + self.settle_s
        search = (now < self._moving_until or not tags_settled
                  or now - self._last_search >= self.still_every_s)
        if search:
            self._reference, self._last_search = thumb, now
        return search
