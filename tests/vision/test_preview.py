import cv2
import numpy as np
import pytest
import zxingcpp

from vision.detector import DetectorConfig, TagDetector
from vision.preview import pixelate, privacy_preview
from vision.synthetic import Degradation, SyntheticTable
from vision.tags import TagKind

CARDS = ["carmen.loot.gandhis-glasses", "carmen.location.paris"]


def _all_decoders_find_nothing(image):
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    ours = TagDetector(kinds=[TagKind.APRILTAG, TagKind.QR], config=DetectorConfig(margin_floor=0.0))
    plain = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_APRILTAG_36h11))
    _, ids, _ = plain.detectMarkers(gray)
    any_barcode = zxingcpp.read_barcodes(gray)  # every symbology zxing knows
    return ours.detect(image) == [] and ids is None and any_barcode == []


@pytest.mark.parametrize("kind", [TagKind.APRILTAG, TagKind.QR])
@pytest.mark.parametrize("cards,tag_px", [(CARDS, 60), (CARDS[:1], 150)])
def test_nothing_can_be_decoded_from_the_preview(kind, cards, tag_px):
    table = SyntheticTable(seed=5, kind=kind)
    frame = table.frame(cards, tag_px=tag_px, degradation=Degradation())
    detections = TagDetector(active={"carmen"}, kinds=[kind]).detect(frame)
    assert {d.card_id for d in detections} == set(cards)  # the raw frame is readable...
    preview = privacy_preview(frame, detections, confirmed={cards[0]})
    assert _all_decoders_find_nothing(preview)  # ...its preview is not
    assert _all_decoders_find_nothing(privacy_preview(frame))  # not even without outlines


def test_card_text_is_gone_from_the_preview():
    """Text needs strokes a few pixels wide; the preview has no detail finer than its 40 px blocks."""
    table = SyntheticTable(seed=5)
    frame = table.frame(CARDS, tag_px=150, degradation=Degradation())
    preview = pixelate(frame)
    block = frame.shape[1] // 32
    inner = preview[: (preview.shape[0] // block) * block, : 32 * block]
    tiles = inner.reshape(inner.shape[0] // block, block, 32, block, 3)
    # Every block is one flat colour: no letter survives inside it.
    assert (tiles.max(axis=(1, 3)) - tiles.min(axis=(1, 3))).max() <= 1
    # and the preview of two different cards at the same place looks alike (names not recoverable).
    other = table.frame(["carmen.loot.crown-jewels", "carmen.location.oslo"], tag_px=150, degradation=Degradation())
    assert np.abs(pixelate(other).astype(int) - preview.astype(int)).mean() < np.abs(other.astype(int) - frame.astype(int)).mean()


def test_confirmed_cards_get_a_tick_and_outlines_are_drawn():
    table = SyntheticTable(seed=5)
    frame = table.frame(CARDS, tag_px=80, degradation=Degradation())
    detections = TagDetector(active={"carmen"}).detect(frame)
    plain = privacy_preview(frame, detections)
    ticked = privacy_preview(frame, detections, confirmed={CARDS[0]})
    assert not np.array_equal(plain, pixelate(frame))  # outlines drawn
    changed = np.argwhere((plain != ticked).any(axis=2))
    assert len(changed) > 100
    ticked_tags = [d for d in detections if d.card_id == CARDS[0]]
    # Every changed pixel belongs to a tick drawn on one of that card's two tags, none elsewhere.
    for y, x in changed[::10]:
        assert any(cv2.pointPolygonTest(d.corners.reshape(-1, 1, 2), (float(x), float(y)), True) > -10 for d in ticked_tags)
