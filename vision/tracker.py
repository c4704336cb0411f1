"""From per-frame detections to sightings: "card X was shown", once per presentation.

A tag must be seen in `confirm_frames` frames within `confirm_window` seconds before it counts
(one lucky frame never does). While it stays in view (gaps shorter than `forget_after` are
tolerated: a blurred frame, a finger) it is not reported again; once it has been out of view
for longer than `forget_after`, showing it again is a new presentation. Several cards in view
are each reported. Pure logic: the clock is injectable.

>>> t = SightingTracker(clock=lambda: 0.0)
>>> det = lambda: []  # detections of one frame would go here
>>> t.update(det(), now=0.0)
[]
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass, field
from typing import Callable, Iterable

import numpy as np

from vision.detector import Detection
from vision.registry import TagStatus
from vision.tags import TagKind


@dataclass(frozen=True)
class Sighting:
    """A confirmed presentation of one tag: what desktop turns into a game action."""

    key: str  # card id, or "tag:<id>" for an unregistered AprilTag, "qr:unregistered" for a QR
    status: TagStatus
    card_id: str | None
    kind: TagKind
    time: float  # clock time of the confirming frame
    first_seen: float  # clock time of the first frame of this presentation
    corners: np.ndarray = field(compare=False, repr=False)

    @property
    def latency(self) -> float:
        return self.time - self.first_seen


def detection_key(d: Detection) -> str:
    if d.card_id is not None:
        return d.card_id  # AprilTag and QR of the same card are the same card
    if d.identity.tag_id is not None:
        return f"tag:{d.identity.tag_id}"
    return "qr:unregistered"


@dataclass
class _Track:
    hits: deque = field(default_factory=deque)
    first_seen: float = 0.0
    last_seen: float = 0.0
    confirmed: bool = False
    last: Detection | None = None


class SightingTracker:
    def __init__(self, confirm_frames: int = 3, confirm_window: float = 0.4, forget_after: float = 0.8,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if confirm_frames < 1:
            raise ValueError("confirm_frames must be at least 1")
        self.confirm_frames = confirm_frames
        self.confirm_window = confirm_window
        self.forget_after = forget_after
        self.clock = clock
        self._tracks: dict[str, _Track] = {}

    def reset(self) -> None:
        """Forget everything in view: the next sighting of any card is a new presentation."""
        self._tracks.clear()

    def update(self, detections: Iterable[Detection], now: float | None = None) -> list[Sighting]:
        """Feed one frame's detections; returns the presentations confirmed by this frame."""
        now = self.clock() if now is None else now
        new: list[Sighting] = []
        seen: dict[str, Detection] = {}
        for d in detections:
            seen.setdefault(detection_key(d), d)
        for key, d in seen.items():
            track = self._tracks.get(key)
            if track is None or now - track.last_seen > self.forget_after:
                track = self._tracks[key] = _Track(first_seen=now)
            track.hits.append(now)
            while track.hits and now - track.hits[0] > self.confirm_window:
                track.hits.popleft()
            track.last_seen, track.last = now, d
            if not track.confirmed and len(track.hits) >= self.confirm_frames:
                track.confirmed = True
                new.append(Sighting(key, d.status, d.card_id, d.kind, now, track.first_seen, d.corners))
        for key in [k for k, t in self._tracks.items() if now - t.last_seen > self.forget_after]:
            del self._tracks[key]  # out of view long enough: its next appearance is a new presentation
        return new

    def in_view(self) -> dict[str, Detection]:
        """Confirmed tags still in view (seen within `forget_after`), with their latest detection."""
        return {k: t.last for k, t in self._tracks.items() if t.confirmed and t.last is not None}
