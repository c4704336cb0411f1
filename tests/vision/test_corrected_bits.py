"""Reads with corrected bits (issue 30): only towards a registered card's code, never a wrong id.

docs/vision.md, "Corrected bits": the AprilTag library may correct up to 2 data bits of a 36h11
tag; a read counts only for a registered id, with its decision margin; from 20 px up our sampler
must read the corrected cells in doubt (a smudge, glare, blur, not a clearly printed other cell),
and from 40 px every other cell clearly too (2 bits at most under 40 px, 1); under 20 px, where
our sampler cannot check a read, 1 bit at most.
"""

import json
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.detector import _BORDER, _QUIET, _SQUARE, DetectorConfig, TagDetector, sample_cells
from vision.registry import TAG36_SIZE, TagRegistry
from vision.tags import apriltag_modules

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import vision_realphotos as rp  # noqa: E402

OLD = DetectorConfig(roi_tracking=False, lib_max_corrected=0)  # the reader before issue 30: exact codewords only
NEW = DetectorConfig(roi_tracking=False)


def _words(ids) -> np.ndarray:
    """Every code of `ids` in its 4 quarter turns, as 36-bit integers (one row per id)."""
    powers = (1 << np.arange(36, dtype=np.int64)).reshape(6, 6)
    return np.array([[int((np.rot90(apriltag_modules(i)[1:7, 1:7] > 127, k) * powers).sum()) for k in range(4)]
                     for i in ids], np.int64)


def test_every_36h11_code_is_11_cells_from_every_other_in_every_turn_so_a_wrong_id_needs_9_misread_cells():
    words = _words(range(TAG36_SIZE))
    flat = words.ravel()
    distance = np.bitwise_count(flat[:, None] ^ flat[None, :])
    owner = np.repeat(np.arange(TAG36_SIZE), 4)
    same_read = owner[:, None] == owner[None, :]
    # Another code in any turn, and a code against its own other turns (a tag read turned is another word).
    others = distance[~np.eye(len(flat), dtype=bool) & ~same_read].min()
    own_turns = distance[same_read & ~np.eye(len(flat), dtype=bool)].min()
    print(f"36h11: {TAG36_SIZE} codes x 4 turns; closest other code {others} cells, closest own other turn {own_turns}")
    assert others == 11 and own_turns >= 11
    k = DetectorConfig().lib_max_corrected
    assert k == 2 and DetectorConfig().lib_blind_corrected == 1
    # A read k cells from its code lies at least 11 - k = 9 cells from every other code in every turn:
    # at least 2k + 1 more than from its own, so no read the library corrects can name another code.
    assert others - k >= k + 2 * k + 1


def test_no_marker_of_the_other_6x6_families_comes_within_3_cells_of_a_registered_code():
    """ArUco 6x6, AprilTag 36h10 and ArUco MIP 36h12 markers have our 6x6 cells in a black ring: none
    can become a card by 2 corrected bits (each is 4 or more cells from every registered code)."""
    registered = sorted(i for i in TagRegistry.load().tag_ids() if 0 <= i < TAG36_SIZE)
    ours = _words(registered).ravel()
    powers = 1 << np.arange(36, dtype=np.int64)
    for name in ("DICT_6X6_1000", "DICT_APRILTAG_36h10", "DICT_ARUCO_MIP_36h12"):
        d = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, name))
        bits = [cv2.aruco.Dictionary.getBitsFromByteList(d.bytesList[i:i + 1], 6).ravel() for i in range(len(d.bytesList))]
        theirs = np.array([int((b.astype(np.int64) * powers).sum()) for b in bits], np.int64)
        assert np.bitwise_count(theirs[:, None] ^ ours[None, :]).min() >= 4, name
    # The same reading of OpenCV's own 36h11 dictionary finds our codes (the bits are laid out alike).
    d = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_APRILTAG_36h11)
    first = int((cv2.aruco.Dictionary.getBitsFromByteList(d.bytesList[5:6], 6).ravel().astype(np.int64) * powers).sum())
    assert first in set(_words([5]).ravel().tolist())


def _real_tag(rel: str, tag_id: int) -> tuple[np.ndarray, np.ndarray]:
    """A crop of a real photograph around one tag (its quiet ring and some table), and the tag's corners in it."""
    if not rp.DEV_DIR.exists():
        pytest.skip("../shared/vision-dev not present")
    truth = json.loads((rp.DEV_DIR / "truth.json").read_text())
    tag = next(t for t in truth[rel] if t["id"] == tag_id and t["family"] == "tag36h11")
    gray = cv2.imread(str(rp.DEV_DIR / rel), cv2.IMREAD_GRAYSCALE)
    corners = np.array(tag["corners"], np.float32)
    (x0, y0), (x1, y1) = corners.min(axis=0), corners.max(axis=0)
    pad = 0.6 * max(x1 - x0, y1 - y0) + 6
    X0, Y0 = int(max(0, x0 - pad)), int(max(0, y0 - pad))
    X1, Y1 = int(min(gray.shape[1], x1 + pad)), int(min(gray.shape[0], y1 + pad))
    return np.ascontiguousarray(gray[Y0:Y1, X0:X1]), corners - np.float32([X0, Y0])


def _paint(crop: np.ndarray, corners: np.ndarray, tag_id: int, cells, share: float = 1.0) -> np.ndarray:
    """The crop with data cells (row, column) painted `share` of the way to the other colour (1: flipped)."""
    out = crop.copy()
    sampled = sample_cells(crop, corners[None])[0]
    white, black = float(np.median(sampled[_QUIET])), float(np.median(sampled[_BORDER]))
    H = cv2.getPerspectiveTransform(_SQUARE, corners)
    bits = apriltag_modules(tag_id)[1:7, 1:7] > 127
    for r, c in cells:
        cell = np.float32([[c + 2, r + 2], [c + 3, r + 2], [c + 3, r + 3], [c + 2, r + 3]])
        poly = cv2.perspectiveTransform(cell[None], H)[0]
        mask = np.zeros_like(out)
        cv2.fillConvexPoly(mask, np.round(poly * 16).astype(np.int32), 255, shift=4)
        start, end = (white, black) if bits[r, c] else (black, white)
        out[mask > 0] = np.uint8(np.clip(start + share * (end - start), 0, 255))
    return out


def _reads(config: DetectorConfig, image: np.ndarray) -> list[tuple[int, int]]:
    return sorted((d.identity.tag_id, d.corrected) for d in TagDetector(active=None, config=config).detect(image))


SMALL = ("images/duckietown/test_image_multiple_01.png", 22)  # 18 px: our sampler cannot check a read
MIDDLE = ("images/duckietown/test_image.png", 318)  # 30 px
LARGE = ("images/blackjocker1995/3dpicture_0_0.jpg", 24)  # 113 px


def test_a_small_real_tag_with_one_flipped_cell_is_read_as_its_own_id():
    crop, corners = _real_tag(*SMALL)
    assert _reads(OLD, crop) == _reads(NEW, crop) == [(22, 0)]
    for cell in ((2, 3), (1, 4), (3, 2)):
        flipped = _paint(crop, corners, 22, [cell])
        assert _reads(OLD, flipped) == []  # exact codewords only: missed before issue 30
        assert _reads(NEW, flipped) == [(22, 1)]


def test_a_small_real_tag_two_cells_off_is_refused_where_no_second_opinion_can_vouch_for_it():
    crop, corners = _real_tag(*SMALL)
    assert _reads(NEW, _paint(crop, corners, 22, [(2, 3), (4, 1)])) == []
    assert _reads(NEW, _paint(crop, corners, 22, [(2, 3), (4, 1)], share=0.65)) == []


@pytest.mark.parametrize("where", [MIDDLE, LARGE], ids=["30px", "113px"])
def test_a_smudged_cell_is_read_a_clearly_printed_other_cell_is_not(where):
    """From 20 px our sampler reads each cell: a cell the library corrected must be in doubt (a smudge,
    glare, blur); a clearly printed other cell is what a pattern that is no tag (within 1-2 cells of a
    code by chance) looks like, and is refused."""
    crop, corners = _real_tag(*where)
    tag_id = where[1]
    assert _reads(NEW, crop) == [(tag_id, 0)]
    smudged = _paint(crop, corners, tag_id, [(2, 3)], share=0.65)
    assert _reads(OLD, smudged) == []
    assert _reads(NEW, smudged) == [(tag_id, 1)]
    assert _reads(NEW, _paint(crop, corners, tag_id, [(2, 3)])) == []
    assert _reads(NEW, _paint(crop, corners, tag_id, [(2, 3), (4, 1)])) == []


def test_a_large_real_tag_may_have_two_smudged_cells():
    crop, corners = _real_tag(*LARGE)
    assert _reads(NEW, _paint(crop, corners, 24, [(2, 3), (4, 1)], share=0.65)) == [(24, 2)]


def _nearest_other(tag_id: int, among) -> tuple[int, np.ndarray]:
    """The registered code closest to `tag_id` (in the turn that is closest) and its 6x6 cells so turned."""
    own = apriltag_modules(tag_id)[1:7, 1:7] > 127
    best = None
    for other in among:
        if other == tag_id:
            continue
        for k in range(4):
            cells = np.rot90(apriltag_modules(other)[1:7, 1:7] > 127, k)
            d = int((cells != own).sum())
            if best is None or d < best[0]:
                best = (d, other, cells)
    return best[1], best[2]


def test_cells_flipped_towards_another_registered_code_never_read_as_it():
    """Two, then three cells of the small tag turned to what the closest other registered code has
    there: 9 and 8 cells from that code, 2 and 3 from its own: nothing is read (never the other id)."""
    crop, corners = _real_tag(*SMALL)
    registered = sorted(i for i in TagRegistry.load().tag_ids() if 0 <= i < TAG36_SIZE)
    other, other_cells = _nearest_other(22, registered)
    own = apriltag_modules(22)[1:7, 1:7] > 127
    differ = [tuple(int(v) for v in rc) for rc in np.argwhere(own != other_cells)]
    assert len(differ) == 11
    for n in (2, 3):
        image = _paint(crop, corners, 22, differ[:n])
        assert _reads(NEW, image) == []


def test_an_unregistered_tag_is_never_corrected():
    """Tag 387 of a real photograph (27 px) is no card's: read exactly it is 'unknown'; one cell smudged
    (which a card's 30 px tag survives, above), nothing: bits are corrected only towards a card's code."""
    crop, corners = _real_tag("images/duckietown/test_image.png", 387)
    assert TagRegistry.load().entry_for_tag(387) is None
    assert _reads(NEW, crop) == [(387, 0)]
    smudged = _paint(crop, corners, 387, [(2, 3)], share=0.65)
    assert _reads(NEW, smudged) == []
    as_if_registered = TagDetector(active=None, config=NEW)
    as_if_registered._april._correctable = frozenset({387})  # the control: the same read, were 387 a card's
    assert [(d.identity.tag_id, d.corrected) for d in as_if_registered.detect(smudged)] == [(387, 1)]
