"""The dice face model: the classical dice reader's second opinion (vision/dice_faces.py, docs/vision.md
"The face model"). Its figures on the real photos are in benchmarks/dice_bench.py; these tests check
what a family would notice: it is shipped and used, it never turns a die into a wrong value on
rendered pools, it refuses a model file that is not its own with words, and a broken model file
cannot take the app down."""

import hashlib
import math
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from vision.dice import DicePoolReader, DieReading
from vision.dice_faces import CARD_PATH, FaceClassifier, FaceModelError, face_crop, standardise, window_look
from vision.dice_synthetic import DiceTable

ROOT = Path(__file__).resolve().parents[2]


def _right_and_wrong(reader, pools):
    right = wrong = 0
    for pool in pools:
        readings = reader.read(pool.image)
        for die in pool.dice:
            near = [r for r in readings if math.dist(r.centre, die.centre) < 0.5 * die.side_px and r.sure]
            right += bool(near) and near[0].value == die.value
            wrong += bool(near) and near[0].value != die.value
    return right, wrong


def test_the_shipped_model_is_used_by_the_dice_reader():
    reader = DicePoolReader()
    assert reader.faces is not None, reader.faces_problem
    assert reader.faces_problem == ""
    p = reader.faces.probabilities(np.full((80, 80, 3), 200, np.uint8), [(40, 40, 40)])
    assert p.shape == (1, 7) and abs(float(p.sum()) - 1.0) < 1e-4


def test_a_rendered_die_of_every_value_is_read_by_the_model_alone():
    """Each face 1-6, lone on felt, seen by the model at the die (no classical reader involved)."""
    faces = FaceClassifier()
    table = DiceTable(seed=3, size=(640, 480))
    for value in range(1, 7):
        pool = table.roll([("red", value)], die_px=48)
        die = pool.dice[0]
        opinion = faces.opinions(pool.image, [(*die.centre, 1.05 * die.side_px)])[0]
        assert opinion.value == value, (value, opinion)


def test_rendered_pools_read_with_the_model_gain_no_wrong_value():
    """Pools of 12-16 dice on wood, felt, a checked cloth and the tray: the two readers together read at
    least as many dice right as the classical reader alone, and no die gets a wrong value."""
    table = DiceTable(seed=11)
    pools = [table.random_pool(14, die_px=(30, 60)) for _ in range(4)]
    alone = _right_and_wrong(DicePoolReader(faces=False), pools)
    both = _right_and_wrong(DicePoolReader(), pools)
    assert both[1] == 0 and alone[1] == 0
    assert both[0] >= alone[0]


@dataclass
class _Sure:
    """A stand-in model that is sure of one value everywhere (for the review's rules)."""

    value: int
    face_to_die: float = 1.74
    own_ratio_below: float = 1.4
    largest: float = 0.0
    veto: float = 0.9
    agree: float = 0.6
    agree_one: float = 0.9
    new: float = 0.97
    new_all: float = 0.97
    alone_at_refused: bool = False
    screen: float = 0.5
    views: int = 7
    said: int = 8   # how many of a place's 8 views give the value
    sure: float = 1.0  # the mean probability of the value over the views
    at: tuple | None = None  # (x, y): the model sees the value only within 10 px of this; no die elsewhere

    def _sees(self, place) -> bool:
        return self.at is None or np.hypot(place[0] - self.at[0], place[1] - self.at[1]) < 10

    def probabilities(self, frame, places):
        p = np.zeros((len(places), 7), np.float32)
        for k, pl in enumerate(places):
            p[k, self.value if self._sees(pl) else 0] = self.sure if self._sees(pl) else 1.0
        return p

    def opinions(self, frame, places, least=None, first=None):
        from vision.dice_faces import FaceOpinion
        return [FaceOpinion(self.value, self.sure, self.said) if self._sees(pl) else FaceOpinion(0, 1.0, 8)
                for pl in places]

    review = FaceClassifier.review
    frame_face_to_die = FaceClassifier.frame_face_to_die
    _free = FaceClassifier._free
    _free_all = staticmethod(FaceClassifier._free_all)
    _one_a_die = staticmethod(FaceClassifier._one_a_die)
    _read_at = FaceClassifier._read_at


def _reading(value):
    return DieReading("red", value, 0.9, (50.0, 50.0), 24.0)


def test_a_sure_value_the_model_is_sure_is_another_becomes_unsure():
    frame = np.zeros((100, 100, 3), np.uint8)
    out = _Sure(5).review(frame, [], [_reading(4)], lambda look: "red")
    assert out[0].value is None and out[0].reason == "the two readers disagree"
    kept = _Sure(4).review(frame, [], [_reading(4)], lambda look: "red")
    assert kept[0].value == 4


def test_a_refused_face_is_read_only_where_the_model_sees_the_same_value():
    frame = np.zeros((100, 100, 3), np.uint8)
    region = ((30, 30, 40, 40), True, [(2, np.array([50.0, 50.0]), 24.0)])
    read = _Sure(2).review(frame, [region], [], lambda look: "red")
    assert [(r.value, round(r.centre[0])) for r in read] == [(2, 50)]
    assert _Sure(4).review(frame, [region], [], lambda look: "red")[0].value == 4  # the model alone, sure in all 8 views
    refused = _Sure(0).review(frame, [region], [], lambda look: "red")
    assert refused == []


def test_a_die_is_read_only_when_enough_of_its_views_give_the_value():
    """The card's ``views`` (7): a lone die whose 8 views say its value 7 times is read, 6 times is not."""
    frame = np.zeros((100, 100, 3), np.uint8)
    region = ((30, 30, 40, 40), True, [])
    assert [r.value for r in _Sure(4, said=7).review(frame, [region], [], lambda look: "red")] == [4]
    assert _Sure(4, said=6).review(frame, [region], [], lambda look: "red") == []


def test_a_lone_die_all_eight_views_agree_on_needs_less_than_one_seven_agree_on():
    """The card's ``new_all`` (0.87 against ``new`` 0.9): a lone die the model alone reads in all 8 views
    is read at a lower mean than one where only 7 views agree (docs/vision.md, fourth round)."""
    frame = np.zeros((100, 100, 3), np.uint8)
    region = ((30, 30, 40, 40), True, [])
    model = dict(value=4, new=0.9, new_all=0.85, sure=0.87)
    assert [r.value for r in _Sure(**model, said=8).review(frame, [region], [], lambda look: "red")] == [4]
    assert _Sure(**model, said=7).review(frame, [region], [], lambda look: "red") == []
    assert _Sure(**{**model, "sure": 0.84}, said=8).review(frame, [region], [], lambda look: "red") == []


def test_the_model_alone_looks_where_a_face_was_refused_only_when_the_card_says_so():
    """``alone_at_refused``: a refused 2 among touching dice where the model sees a 6 is read as 6
    (the classical reader fitted two pips of the 6), at ``new`` even when all 8 views agree."""
    frame = np.zeros((200, 200, 3), np.uint8)
    several = ((20, 20, 120, 60), False, [(2, np.array([50.0, 50.0]), 24.0)])
    lone = ((140, 140, 40, 40), True, [])  # (where the model sees no die; it gives the pool's usual die)
    six = dict(value=6, at=(50.0, 50.0), new=0.9, new_all=0.85)
    read = _Sure(**six, alone_at_refused=True).review(frame, [several, lone], [], lambda look: "red")
    assert [(r.value, round(r.centre[0])) for r in read] == [(6, 50)]
    assert _Sure(**six).review(frame, [several, lone], [], lambda look: "red") == []
    assert _Sure(**six, alone_at_refused=True, sure=0.87).review(frame, [several, lone], [], lambda look: "red") == []


def test_a_lone_die_whose_first_two_views_are_less_sure_than_all_eight_is_read():
    """Step 3 judges a place on all 8 views once its first two reach the screening share (``screen``)
    of what it needs: a die seen as 4 at 0.8 in those two and at 1.0 in the six others (mean 0.95)
    is read, though 0.8 is under ``new`` (0.9)."""
    faces = FaceClassifier()
    looks: list[int] = []

    def model(crops):  # the first two looks (the screening, then the view turned half round) are 0.8 sure
        p = np.zeros((len(crops), 7), np.float32)
        p[:, 4] = 0.8 if len(looks) < 2 else 1.0
        p[:, 0] = 1.0 - p[:, 4]
        looks.append(len(crops))
        return p

    faces._probabilities = model
    frame = np.zeros((100, 100, 3), np.uint8)
    out = faces.review(frame, [((30, 30, 40, 40), True, [])], [], lambda look: "red")
    assert [r.value for r in out] == [4] and looks == [1, 1, 6]


def test_an_unsure_die_takes_the_value_both_readers_agree_on():
    frame = np.zeros((100, 100, 3), np.uint8)
    unsure = DieReading("red", None, 0.0, (50.0, 50.0), 24.0, "not sure")
    region = ((30, 30, 40, 40), True, [(3, np.array([51.0, 50.0]), 24.0)])
    out = _Sure(3).review(frame, [region], [unsure], lambda look: "red")
    assert len(out) == 1 and out[0].value == 3 and out[0].colour == "red"


@dataclass
class _Truth(_Sure):
    """A stand-in model that sees the value of the die nearest each place (0 away from every die), and
    remembers the places it was asked about."""

    dice: tuple = ()
    asked: list = None

    def _value_at(self, place):
        near = [v for (x, y), side, v in self.dice if math.dist((x, y), place[:2]) < 0.4 * side]
        return near[0] if near else 0

    def probabilities(self, frame, places):
        self.asked = (self.asked or []) + list(places)
        p = np.zeros((len(places), 7), np.float32)
        p[np.arange(len(places)), [self._value_at(pl) for pl in places]] = 1.0
        return p

    def opinions(self, frame, places, least=None, first=None):
        from vision.dice_faces import FaceOpinion
        self.asked = (self.asked or []) + list(places)
        return [FaceOpinion(self._value_at(pl), 1.0, 8) for pl in places]


def test_a_die_refused_for_its_size_is_read_when_the_model_sees_its_value():
    """A die much smaller than the pool's others is "unsure" for the classical reader (it may be a piece
    of a die); where the model reads the value the classical reader fitted, the die is read."""
    table = DiceTable(seed=3, size=(640, 480))
    pool = table.roll([("red", 5), ("white", 3), ("black", 6), ("red", 2)], die_px=50)
    small_pool = table.roll([("red", 4)], die_px=30)  # a die of 30 px beside dice of 50
    x, y = (int(v) for v in small_pool.dice[0].centre)
    frame = pool.image.copy()
    frame[370:430, 510:570] = small_pool.image[y - 30:y + 30, x - 30:x + 30]
    alone = {(round(r.centre[0] / 10), round(r.centre[1] / 10)): r for r in DicePoolReader(faces=False).read(frame)}
    assert alone[(54, 40)].value is None and alone[(54, 40)].reason == "size unlike the other dice"
    truth = [(d.centre, d.side_px, d.value) for d in pool.dice] + [((540.0, 400.0), 29.0, 4)]
    # (new above 1: the model alone reads nothing, so the die is read as the two readers' agreement)
    read = DicePoolReader(faces=_Truth(0, new=1.01, dice=tuple(truth))).read(frame)
    assert sorted(r.value for r in read) == [2, 3, 4, 5, 6]
    assert [r.value for r in DicePoolReader(faces=_Truth(0, new=1.01, dice=tuple(truth[:4]))).read(frame)
            if math.dist(r.centre, (540, 400)) < 10] == [None]     # the model sees no die there: still unsure


def test_a_lone_die_found_by_its_pips_alone_is_looked_at_in_a_window_of_the_usual_die():
    """A white die on a white tray shows only its pips and rim: its region is smaller than the die. The
    model looks at it in a window at least as wide as the pool's usual die, not the region's."""
    frame = np.zeros((200, 200, 3), np.uint8)
    others = [DieReading("red", v, 0.9, (30.0 + 40 * k, 30.0), 24.0) for k, v in enumerate((2, 3, 5))]
    model = _Truth(0, dice=tuple(((r.centre, 42.0, r.value)) for r in others) + (((100.0, 150.0), 42.0, 6),))
    regions = [((95, 145, 12, 12), True, [])] + [((int(r.centre[0]) - 20, 10, 40, 40), True, []) for r in others]
    out = model.review(frame, regions, others, lambda look: "white")
    assert [(r.value, r.centre) for r in out[3:]] == [(6, (101.0, 151.0))]
    looked = [side for x, y, side in model.asked if math.dist((x, y), (101, 151)) < 2]
    assert looked and min(looked) >= 40       # the usual die (24 px faces: 42 px dice), not the 12 px region


def _lone_dice(sides: tuple[float, ...], face: float = 24.0):
    """Sure readings of 24 px faces on lone dice whose regions are these sides wide, in a row."""
    readings = [DieReading("red", 2 + k % 4, 0.9, (40.0 + 60 * k, 40.0), face) for k in range(len(sides))]
    regions = [((int(r.centre[0] - s / 2), int(r.centre[1] - s / 2), int(s), int(s)), True, [])
               for r, s in zip(readings, sides)]
    return readings, regions


def test_a_frame_whose_dice_have_their_pips_near_the_edges_is_looked_at_in_its_own_windows():
    """The photos' dice have their pips near the middle (a die 1.74 face sides wide); dice whose pips lie
    near their edges (1.2) looked at in windows of 1.74 face sides hold their neighbours too. A frame
    whose lone dice say so (3 at least, median under the card's 1.4) is looked at with its own ratio."""
    frame = np.zeros((120, 400, 3), np.uint8)
    wide, wide_regions = _lone_dice((29.0, 29.0, 30.0, 28.0))      # pips near the edges: 1.2 face sides
    model = _Truth(0)
    model.review(frame, wide_regions, wide, lambda look: "red")
    assert [round(side, 1) for _, _, side in model.asked[:4]] == [29.0] * 4    # the veto's: the dice's median
    usual, usual_regions = _lone_dice((42.0, 41.0, 43.0, 40.0))    # the photos' dice: 1.74 stays
    model = _Truth(0)
    model.review(frame, usual_regions, usual, lambda look: "red")
    assert [round(side, 2) for _, _, side in model.asked[:4]] == [24 * 1.74] * 4
    two, two_regions = _lone_dice((29.0, 29.0))                    # two dice are too few to say
    model = _Truth(0)
    model.review(frame, two_regions, two, lambda look: "red")
    assert [round(side, 2) for _, _, side in model.asked[:2]] == [24 * 1.74] * 2


def test_no_window_is_wider_than_the_cards_largest_share_of_the_usual_die():
    """Two touching dice each showing a 1 look like one die's 2 in a window over both (a real photo
    read so): with the card's ``largest`` no window is wider than that many usual dice."""
    frame = np.zeros((120, 400, 3), np.uint8)
    dice, regions = _lone_dice((42.0, 42.0, 42.0))                # usual die: 42 px
    pair = ((200, 70, 60, 30), True, [(2, np.array([230.0, 85.0]), 38.0)])   # 60 px: 1.43 usual dice
    model = _Truth(0, largest=1.3)
    model.review(frame, regions + [pair], dice, lambda look: "red")
    looked = [side for x, y, side in model.asked if math.dist((x, y), (230, 85)) < 2]
    assert looked and max(looked) <= 1.3 * 42 + 1e-6
    model = _Truth(0)                                               # largest 0: no limit
    model.review(frame, regions + [pair], dice, lambda look: "red")
    assert max(side for x, y, side in model.asked if math.dist((x, y), (230, 85)) < 2) >= 60


def test_a_places_first_view_already_looked_at_is_not_looked_at_again():
    faces = FaceClassifier()
    pool = DiceTable(seed=4, size=(320, 240)).roll([("red", 4), ("white", 2)], die_px=50)
    places = [(*d.centre, 1.1 * d.side_px) for d in pool.dice]
    first = faces.probabilities(pool.image, places)
    looked = []
    forward = faces._forward
    faces._forward = lambda blob: looked.append(len(blob)) or forward(blob)
    fresh = faces.opinions(pool.image, places, [0.5, 0.5])
    again = faces.opinions(pool.image, places, [0.5, 0.5], first=[first[0], None])
    assert [(o.value, o.views) for o in again] == [(o.value, o.views) for o in fresh]
    assert [round(o.probability, 5) for o in again] == [round(o.probability, 5) for o in fresh]
    assert looked[2] == looked[0] - 1          # one view fewer for the place looked at already


def test_a_die_read_by_the_model_alone_is_named_by_its_look():
    pool = DiceTable(seed=5, size=(320, 240)).roll([("red", 4)], die_px=50)
    die = pool.dice[0]
    look = window_look(pool.image, (*die.centre, 1.05 * die.side_px))
    assert DicePoolReader(faces=False).colour_name(look) == "red"


def test_a_window_off_the_frame_or_with_nonsense_numbers_is_still_a_window():
    frame = np.zeros((60, 60, 3), np.uint8)
    for centre, side in (((0, 0), 40), ((59, 59), 400), ((30, 30), 0.0), ((float("nan"), 3), 20), ((3, 3), float("inf"))):
        assert face_crop(frame, centre, side, 40, 1.3).shape == (40, 40, 3)


def _card_beside(tmp_path, model: bytes, **changes) -> Path:
    (tmp_path / "m.onnx").write_bytes(model)
    text = CARD_PATH.read_text(encoding="utf-8").replace('file = "dice_faces.onnx"', 'file = "m.onnx"')
    lines = [ln for ln in text.splitlines() if not ln.startswith("sha256")]
    lines.insert(lines.index("[model]") + 1, f'sha256 = "{changes.pop("sha256", hashlib.sha256(model).hexdigest())}"')
    for key, value in changes.items():
        if not any(ln.startswith(f"{key} =") for ln in lines):  # (a key the card leaves at its default)
            section = "[use]" if key in ("own_ratio_below", "largest", "new_all") else "[model]"
            lines.insert(lines.index(section) + 1, f"{key} = {value}")
        lines = [f"{key} = {value}" if ln.startswith(f"{key} =") else ln for ln in lines]
    card = tmp_path / "c.toml"
    card.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return card


def test_a_model_file_that_is_not_the_cards_is_refused_with_words(tmp_path):
    model = (CARD_PATH.parent / "dice_faces.onnx").read_bytes()
    with pytest.raises(FaceModelError, match="checksum differs"):
        FaceClassifier(_card_beside(tmp_path, model, sha256="0" * 64))
    with pytest.raises(FaceModelError, match="cannot be used"):
        FaceClassifier(tmp_path / "no such card.toml")
    with pytest.raises(FaceModelError, match="window"):
        FaceClassifier(_card_beside(tmp_path, model, crop_px=4000))
    with pytest.raises(FaceModelError, match="an input"):
        FaceClassifier(_card_beside(tmp_path, model, input='"hsv"'))
    with pytest.raises(FaceModelError, match="a ratio"):
        FaceClassifier(_card_beside(tmp_path, model, largest=9))
    with pytest.raises(FaceModelError, match="a ratio"):
        FaceClassifier(_card_beside(tmp_path, model, own_ratio_below=2.5))
    with pytest.raises(FaceModelError, match="a threshold"):
        FaceClassifier(_card_beside(tmp_path, model, new_all=0.95))  # all 8 views agreeing never asks more
    with pytest.raises(FaceModelError, match="cannot be used"):
        FaceClassifier(_card_beside(tmp_path, model, alone_at_refused='"yes"'))
    with pytest.raises(FaceModelError, match="number of views"):
        FaceClassifier(_card_beside(tmp_path, model, views=2))    # 2 views are what every place gets first
    garbage = b"not a model" * 50
    with pytest.raises(FaceModelError, match="cannot be run"):
        FaceClassifier(_card_beside(tmp_path, garbage))


_CHILD = """
import sys
sys.path.insert(0, sys.argv[2])
from vision.dice_faces import FaceClassifier, FaceModelError
import numpy as np
try:
    faces = FaceClassifier(sys.argv[1])
    faces.opinions(np.zeros((64, 64, 3), np.uint8), [(32, 32, 40)])
    print("loaded")
except FaceModelError:
    print("refused")
"""


def test_damaged_model_files_are_refused_or_run_never_crash_the_app(tmp_path):
    """OpenCV's ONNX reader is native code: damaged files (bytes changed, cut short, replaced, spliced),
    each with a card whose checksum matches, are loaded in a child process, which must end normally."""
    model = (CARD_PATH.parent / "dice_faces.onnx").read_bytes()
    rng = np.random.default_rng(7)
    outcomes = []
    for k in range(16):
        data = bytearray(model)
        if k % 4 == 0:
            for i in rng.integers(0, len(data), int(rng.integers(1, 20))):
                data[int(i)] = int(rng.integers(256))
        elif k % 4 == 1:
            data = data[: int(rng.integers(0, len(data)))]
        elif k % 4 == 2:
            data = bytearray(rng.integers(0, 256, int(rng.integers(0, 5000))).astype(np.uint8).tobytes())
        else:
            at = int(rng.integers(len(data)))
            data[at:at + int(rng.integers(1, 200))] = rng.integers(0, 256, int(rng.integers(0, 200))).astype(np.uint8).tobytes()
        folder = tmp_path / str(k)
        folder.mkdir()
        card = _card_beside(folder, bytes(data))
        done = subprocess.run([sys.executable, "-c", _CHILD, str(card), str(ROOT)], capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, (k, done.returncode, done.stderr[-500:])
        outcomes.append(done.stdout.strip())
    assert set(outcomes) <= {"loaded", "refused"} and "refused" in outcomes


def test_windows_are_standardised_to_their_own_mean_and_spread_to_the_last_bit():
    """The model's input: each window's Lab channels to mean 0 and spread 1 (+4 levels), as in
    training. Taken in one pass for time (issue 30), it must give x.mean and x.std's very numbers,
    or the model's answers, and so readings, would drift from those measured."""
    import cv2

    rng = np.random.default_rng(6)
    for n in (1, 3, 26):
        crops = rng.integers(0, 256, (n, 40, 40, 3), dtype=np.uint8)
        crops[0, :20] = 200  # a flat half, as on a die's face
        lab = cv2.cvtColor(crops.reshape(n * 40, 40, 3), cv2.COLOR_BGR2LAB)
        x = lab.reshape(n, 1600, 3).transpose(0, 2, 1).astype(np.float32, order="C")
        expected = (x - x.mean(axis=2, keepdims=True)) / (x.std(axis=2, keepdims=True) + 4.0)
        got = standardise(crops, "lab")
        assert got.shape == (n, 3, 40, 40) and np.array_equal(got.reshape(n, 3, 1600), expected)
        assert np.array_equal(standardise(crops.astype(np.float32), "lab"), got)  # float windows: the same
