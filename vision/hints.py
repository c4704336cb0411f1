"""What the camera panel says, in words a child understands: "Hold the card still", "Closer".

Pure logic from what the detector and the tracker saw; no Qt. The words never name a card (a
peek must stay private on a shared screen).

>>> from vision.detector import TagDetector
>>> from vision.synthetic import SyntheticTable
>>> hints = CameraHints()
>>> hints.update([], [], (720, 1280), now=0.0).text
'Show a card to the camera.'
>>> frame = SyntheticTable(seed=3).frame(["carmen.loot.gandhis-glasses"], tag_px=18)
>>> hints.update(TagDetector(active={"carmen"}).detect(frame), [], frame.shape, now=0.1).text
'Bring the card closer.'
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Sequence

import numpy as np

from vision.detector import Detection
from vision.registry import TagStatus
from vision.tracker import Sighting


class HintKind(str, Enum):
    SHOW = "show"  # nothing in view
    READ = "read"  # a card was just read
    OTHER_GAME = "other-game"  # a card of another game
    UNKNOWN = "unknown"  # a valid tag that is no card of ours
    EDGE = "edge"  # the tag is cut by the edge of the picture
    CLOSER = "closer"  # too small to read reliably
    FARTHER = "farther"  # too big for the picture
    STILL = "still"  # moving, or just lost: hold still
    WAIT = "wait"  # seen, being confirmed


TEXT = {
    HintKind.SHOW: "Show a card to the camera.",
    HintKind.READ: "\u2714 Card read",
    HintKind.OTHER_GAME: "That card is from another game.",
    HintKind.UNKNOWN: "I don't know that sticker.",
    HintKind.EDGE: "Move the card to the middle.",
    HintKind.CLOSER: "Bring the card closer.",
    HintKind.FARTHER: "Hold the card a little farther away.",
    HintKind.STILL: "Hold the card still.",
    HintKind.WAIT: "Hold it there\u2026",
}


@dataclass(frozen=True)
class Hint:
    kind: HintKind
    text: str


class CameraHints:
    """Feed every frame's detections and new sightings; get the one hint to show.

    min_side_px: a tag smaller than this is "too far" (reads get unreliable below ~25 px);
    max_side_rate: a tag taller than this share of the picture is "too close";
    read_hold: how long "Card read" stays after a confirmation (s), and it stays while the cards in
    view are all read; lost_hold: how long after a tag disappears without being confirmed the
    panel says "Hold the card still" (s).
    """

    def __init__(self, min_side_px: float = 28.0, max_side_rate: float = 0.6, move_rate: float = 0.25,
                 read_hold: float = 1.5, lost_hold: float = 0.6, forget_after: float = 0.8) -> None:
        self.min_side_px = min_side_px
        self.max_side_rate = max_side_rate
        self.move_rate = move_rate
        self.read_hold = read_hold
        self.lost_hold = lost_hold
        self.forget_after = forget_after  # as the tracker's: out of view longer, a card is shown anew
        self._last_read = -1e9
        self._last_seen = -1e9
        self._last_kind: HintKind | None = None
        self._previous: list[tuple[str, np.ndarray, float]] = []  # (key, centre, side) of the last frame
        self._read_cards: dict[str, float] = {}  # cards read and still in view -> last seen

    def update(self, detections: Sequence[Detection], sightings: Sequence[Sighting], frame_shape: tuple[int, ...],
               now: float) -> Hint:
        kind = self._decide(detections, sightings, frame_shape, now)
        self._last_kind = kind
        return Hint(kind, TEXT[kind])

    def _decide(self, detections, sightings, frame_shape, now: float) -> HintKind:
        h, w = frame_shape[:2]
        current = [(_key(d), np.array(d.center), d.side_px) for d in detections]
        previous, self._previous = self._previous, current
        if any(s.status is TagStatus.CARD for s in sightings):
            self._last_read = now
        for s in sightings:
            if s.card_id is not None:
                self._read_cards[s.card_id] = now
        for d in detections:
            if d.card_id in self._read_cards:
                self._read_cards[d.card_id] = now
        self._read_cards = {k: t for k, t in self._read_cards.items() if now - t <= self.forget_after}
        if detections:
            self._last_seen = now
        statuses = {d.status for d in detections}
        if TagStatus.FOREIGN in statuses or any(s.status is TagStatus.FOREIGN for s in sightings):
            return HintKind.OTHER_GAME
        if statuses == {TagStatus.UNKNOWN}:
            return HintKind.UNKNOWN
        cards_in_view = {d.card_id for d in detections if d.status is TagStatus.CARD}
        if now - self._last_read < self.read_hold or (cards_in_view and cards_in_view <= set(self._read_cards)):
            return HintKind.READ  # just read, or every card in view has been read already
        if not detections:
            if self._last_kind in (HintKind.WAIT, HintKind.STILL, HintKind.EDGE) and now - self._last_seen < self.lost_hold:
                return HintKind.STILL  # seen a moment ago, lost before it was read: usually a moving card
            return HintKind.SHOW
        cards = [d for d in detections if d.status is TagStatus.CARD] or list(detections)
        margin = 0.01 * max(h, w)
        if all(_touches_edge(d.corners, w, h, margin) for d in cards):
            return HintKind.EDGE
        largest = max(d.side_px for d in cards)
        if largest > self.max_side_rate * h:
            return HintKind.FARTHER
        if largest < self.min_side_px:
            return HintKind.CLOSER
        for key, centre, side in current:
            # A sticker carries its tag twice: compare with the nearest place the same card was seen.
            moves = [float(np.linalg.norm(centre - pcentre)) for pkey, pcentre, _ in previous if pkey == key]
            if moves and min(moves) > self.move_rate * side:
                return HintKind.STILL
        return HintKind.WAIT


def _key(d: Detection) -> str:
    return d.card_id or f"tag:{d.identity.tag_id}"


def _touches_edge(corners: np.ndarray, w: int, h: int, margin: float) -> bool:
    c = np.asarray(corners)
    return bool((c[:, 0] < margin).any() or (c[:, 1] < margin).any() or (c[:, 0] > w - 1 - margin).any()
                or (c[:, 1] > h - 1 - margin).any())
