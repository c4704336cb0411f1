"""The camera panel's words, from what the detector and the tracker saw."""

from dataclasses import replace

from vision.detector import TagDetector
from vision.hints import CameraHints, HintKind
from vision.synthetic import Degradation, SyntheticTable
from vision.tracker import SightingTracker

CLEAN = Degradation(noise_sigma=2)


def _run(frames, active=("carmen",), fps=30):
    """Hints for a sequence of frames through the real detector and tracker."""
    detector, tracker, hints = TagDetector(active=set(active)), SightingTracker(), CameraHints()
    out = []
    for i, frame in enumerate(frames):
        detections = detector.detect(frame)
        sightings = tracker.update(detections, now=i / fps)
        out.append(hints.update(detections, sightings, frame.shape, now=i / fps).kind)
    return out


def test_a_card_held_still_is_confirmed_then_read():
    table = SyntheticTable(seed=1)
    frames = [table.frame(["carmen.loot.gandhis-glasses"], tag_px=60, degradation=CLEAN) for _ in range(4)]
    kinds = _run(frames * 5, fps=10)  # ... and still held there two seconds later
    assert kinds[0] is HintKind.WAIT
    assert kinds[3] is HintKind.READ
    assert kinds[-1] is HintKind.READ


def test_a_far_card_asks_to_come_closer_and_an_empty_table_asks_for_a_card():
    table = SyntheticTable(seed=2)
    assert _run([table.frame([], degradation=CLEAN)]) == [HintKind.SHOW]
    assert _run([table.frame(["carmen.loot.gandhis-glasses"], tag_px=20, degradation=CLEAN)]) == [HintKind.CLOSER]


def test_a_card_of_another_game_says_so():
    table = SyntheticTable(seed=3)
    frame = table.frame(["carmen.loot.gandhis-glasses"], tag_px=60, degradation=CLEAN)
    assert _run([frame], active=("sudds-malone", "sudds")) == [HintKind.OTHER_GAME]


def test_a_moving_card_asks_to_hold_still_and_a_lost_one_too():
    table = SyntheticTable(seed=4)
    hints = CameraHints()
    detector = TagDetector(active={"carmen"})
    a = detector.detect(table.frame(["carmen.loot.gandhis-glasses"], tag_px=60, degradation=CLEAN))
    moved = [replace(d, corners=d.corners + 40) for d in a]  # the same card 40 px further: a moving hand
    assert hints.update(a, [], (720, 1280), now=0.0).kind is HintKind.WAIT
    assert hints.update(moved, [], (720, 1280), now=0.033).kind is HintKind.STILL
    assert hints.update([], [], (720, 1280), now=0.066).kind is HintKind.STILL  # lost while moving
    assert hints.update([], [], (720, 1280), now=1.5).kind is HintKind.SHOW


def test_a_card_cut_by_the_edge_or_too_close_gets_told_where_to_go():
    hints = CameraHints()
    detector = TagDetector(active={"carmen"})
    table = SyntheticTable(seed=5)
    big = detector.detect(table.frame(["carmen.loot.gandhis-glasses"], tag_px=140, degradation=CLEAN))
    assert big
    tall = CameraHints(max_side_rate=0.1)  # a 720 px picture: 140 px tags count as "too close"
    assert tall.update(big, [], (720, 1280), now=0.0).kind is HintKind.FARTHER
    at_edge = [replace(d, corners=d.corners - d.corners.min(axis=0)) for d in big]  # against the top-left edge
    assert hints.update(at_edge, [], (720, 1280), now=0.0).kind is HintKind.EDGE
