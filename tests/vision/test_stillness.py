"""A still table is searched about once a second; a card coming into view is searched at once
(issue 21, part 4: the camera stays cool when nothing moves, without missing a card)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.detector import TagDetector
from vision.stillness import SearchPacer
from vision.synthetic import SyntheticTable

FPS = 30.0
CARD = "carmen.loot.gandhis-glasses"


@pytest.fixture(scope="module")
def table():
    t = SyntheticTable(seed=5, size=(1280, 720))
    return {"empty": t.frame([]), "card": t.frame([CARD], tag_px=40)}


def with_noise(frame: np.ndarray, rng: np.random.Generator, sigma: float = 4.0) -> np.ndarray:
    """The same picture as a webcam delivers it again: fresh sensor noise every frame."""
    return np.clip(frame + rng.normal(0, sigma, frame.shape), 0, 255).astype(np.uint8)


def test_a_still_table_is_searched_about_once_a_second(table):
    rng = np.random.default_rng(1)
    pacer = SearchPacer(settle_s=1.0, still_every_s=1.0)
    searched = [pacer.wants_search(with_noise(table["empty"], rng), now=i / FPS) for i in range(5 * int(FPS))]
    assert all(searched[:int(FPS)])                    # the first second: settling
    assert 3 <= sum(searched[int(FPS):]) <= 5          # then 4 seconds of a still table: about once a second


def test_a_card_coming_into_view_after_stillness_is_searched_at_once_and_read(table):
    rng = np.random.default_rng(2)
    pacer = SearchPacer(settle_s=1.0, still_every_s=1.0)
    t = 0.0
    for i in range(3 * int(FPS)):                      # a still table for three seconds
        t = i / FPS
        pacer.wants_search(with_noise(table["empty"], rng), now=t)
    frames = [with_noise(table["card"], rng) for _ in range(5)]
    searched = [pacer.wants_search(f, now=t + (k + 1) / FPS) for k, f in enumerate(frames)]
    assert searched == [True] * 5                      # its first frame and the ones the tracker needs next
    assert CARD in {d.card_id for d in TagDetector(active={"carmen"}).detect(frames[0])}


def test_a_tag_still_being_confirmed_keeps_every_frame_searched(table):
    rng = np.random.default_rng(3)
    pacer = SearchPacer(settle_s=1.0, still_every_s=1.0)
    for i in range(2 * int(FPS)):
        pacer.wants_search(with_noise(table["card"], rng), now=i / FPS)
    unsettled = [pacer.wants_search(with_noise(table["card"], rng), now=2 + i / FPS, tags_settled=False)
                 for i in range(10)]
    settled = [pacer.wants_search(with_noise(table["card"], rng), now=3 + i / FPS) for i in range(10)]
    assert unsettled == [True] * 10
    assert sum(settled) <= 1


def test_a_frame_too_small_to_judge_is_always_searched():
    pacer = SearchPacer()
    tiny = np.zeros((6, 6, 3), np.uint8)
    assert all(pacer.wants_search(tiny, now=10 + i / FPS) for i in range(60))
