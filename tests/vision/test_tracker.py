import numpy as np

from vision.detector import Detection
from vision.registry import Identity, TagStatus
from vision.tags import TagKind
from vision.tracker import SightingTracker

FPS = 30.0


def det(card_id, status=TagStatus.CARD, tag_id=1, kind=TagKind.APRILTAG):
    return Detection(kind, Identity(status, card_id, tag_id), np.float32([[0, 0], [40, 0], [40, 40], [0, 40]]))


def play(tracker, frames):
    """frames: list of lists of detections, one list per 1/30 s. Returns (frame index, sighting) pairs."""
    out = []
    for i, ds in enumerate(frames):
        out += [(i, s) for s in tracker.update(ds, now=i / FPS)]
    return out


def test_one_frame_never_confirms_a_card():
    assert play(SightingTracker(), [[det("a.b.c")], [], [], [], []]) == []


def test_two_frames_out_of_a_long_time_do_not_confirm():
    frames = [[det("a.b.c")] if i in (0, 20) else [] for i in range(40)]
    assert play(SightingTracker(), frames) == []


def test_a_card_held_in_view_is_reported_once():
    events = play(SightingTracker(), [[det("a.b.c")]] * 150)  # five seconds in view
    assert [(i, s.card_id) for i, s in events] == [(2, "a.b.c")]
    assert events[0][1].latency == 2 / FPS


def test_short_gaps_do_not_repeat_the_card():
    frames = [[det("a.b.c")] if (i % 7) else [] for i in range(120)]  # blurred frame now and then
    assert len(play(SightingTracker(), frames)) == 1


def test_a_card_that_leaves_and_comes_back_is_a_new_presentation():
    frames = [[det("a.b.c")]] * 10 + [[]] * 45 + [[det("a.b.c")]] * 10
    events = play(SightingTracker(), frames)
    assert [i for i, _ in events] == [2, 57]


def test_two_and_three_cards_at_once_are_each_reported():
    frames = [[det("w.x.one"), det("w.x.two", tag_id=2), det("w.x.three", tag_id=3)]] * 10
    events = play(SightingTracker(), frames)
    assert sorted(s.card_id for _, s in events) == ["w.x.one", "w.x.three", "w.x.two"]
    tracker = SightingTracker()
    play(tracker, frames)
    assert set(tracker.in_view()) == {"w.x.one", "w.x.two", "w.x.three"}


def test_both_tags_of_one_sticker_and_its_qr_give_one_sighting():
    frames = [[det("a.b.c"), det("a.b.c"), det("a.b.c", kind=TagKind.QR, tag_id=None)]] * 10
    assert len(play(SightingTracker(), frames)) == 1


def test_foreign_and_unknown_tags_are_reported_as_such():
    frames = [[det("other.x.y", status=TagStatus.FOREIGN, tag_id=7), det(None, status=TagStatus.UNKNOWN, tag_id=300)]] * 5
    events = {s.key: s.status for _, s in play(SightingTracker(), frames)}
    assert events == {"other.x.y": TagStatus.FOREIGN, "tag:300": TagStatus.UNKNOWN}


def test_injected_clock_is_used_when_no_time_is_given():
    now = [0.0]
    tracker = SightingTracker(confirm_frames=2, clock=lambda: now[0])
    assert tracker.update([det("a.b.c")]) == []
    now[0] = 0.1
    assert [s.time for s in tracker.update([det("a.b.c")])] == [0.1]
    now[0] = 5.0
    tracker.update([])
    assert tracker.in_view() == {}
