"""Rules of the dice-pool reader that were set on real photographs (docs/vision.md, "Dice-pool reader").

The photos themselves stay outside the project (../shared/dice-dev, benchmarks/dice_bench.py);
these tests rebuild, with rendered dice, the cases that made a rule necessary, and check that
the quick paths taken for speed give what the slow ones gave.
"""

import math

import numpy as np

from vision.dice import (_CENTRED, DicePoolReader, _byte_percentile, _elongation_and_halves, _far_from_a_row, _percentile,
                         _turn, fit_layout, median_by_column)
from vision.dice_synthetic import DiceTable


def _wrong_values(readings, pool):
    wrong = []
    for die in pool.dice:
        near = [r for r in readings if math.dist(r.centre, die.centre) < 0.5 * die.side_px]
        if near and near[0].value is not None and near[0].value != die.value:
            wrong.append((die.colour, die.value, near[0].value))
    return wrong


def test_dice_pressed_together_on_the_tray_are_never_read_as_ones():
    """Small dice pushed against each other on the white tray with its two round holes.

    The holes are die-sized, so the pool's usual die size came out too small, a black 2's second
    pip then looked far from the first and the 2 was read as a 1 (and so were a 3 and a 6). A 1
    among touching dice must sit squarely in the middle of its face."""
    reader = DicePoolReader()
    rng = np.random.default_rng(0)
    wrong = []
    for seed in range(20):
        values = [int(v) for v in rng.integers(1, 7, size=4)]
        pool = DiceTable(seed=seed, size=(640, 640)).roll(
            list(zip(("black", "grey", "white", "yellow"), values)), die_px=36, touching=1.0, background=DiceTable.TRAY)
        wrong += _wrong_values(reader.read(pool.image), pool)
    assert wrong == []


def test_a_white_two_on_the_white_tray_is_not_read_as_a_one():
    """The tray hides most of a white die: its region, and so the guessed face of a lone pip, is
    small, and the 2's second pip lies beyond it. The die's edges are looked for far enough
    (1.2 face sides) to see that the pip is not in the middle of its face."""
    reader = DicePoolReader()
    pools = [
        (172, [("black", 5), ("white", 2), ("grey", 3), ("black", 1), ("white", 5), ("yellow", 4), ("grey", 3), ("red", 3)], 40.83),
        (169, [("black", 3), ("white", 4), ("blue", 1), ("white", 4), ("grey", 6), ("yellow", 6), ("yellow", 1), ("white", 2)], 39.33),
        (174, [("white", 2), ("grey", 3), ("grey", 1), ("blue", 2), ("red", 2), ("green", 2), ("green", 1), ("black", 6)], 44.68),
    ]
    for seed, dice, die_px in pools:
        pool = DiceTable(seed=seed, size=(640, 640)).roll(dice, die_px=die_px, touching=0.5, background=DiceTable.TRAY)
        assert _wrong_values(reader.read(pool.image), pool) == []


def test_small_dice_of_every_colour_on_tray_wood_and_felt_are_read_and_never_misread():
    """Dice of 30-46 px (the size of the dice in the real photos), half of them touching a neighbour."""
    reader = DicePoolReader()
    colours = ("white", "black", "grey", "red", "blue", "green", "yellow")
    rng = np.random.default_rng(5)
    right = total = 0
    wrong = []
    for seed in range(8):
        dice = [(colours[int(rng.integers(len(colours)))], int(rng.integers(1, 7))) for _ in range(8)]
        pool = DiceTable(seed=100 + seed, size=(640, 640)).roll(
            dice, die_px=float(rng.uniform(30, 46)), touching=0.5, background=int(rng.choice([DiceTable.TRAY, 0, 1])))
        readings = reader.read(pool.image)
        wrong += _wrong_values(readings, pool)
        for die in pool.dice:
            total += 1
            right += any(math.dist(r.centre, die.centre) < 0.5 * die.side_px and r.value == die.value for r in readings)
    assert wrong == []
    assert right >= 0.85 * total


def test_quick_percentiles_are_numpys():
    rng = np.random.default_rng(3)
    for size in (1, 2, 5, 400, 6400):
        small = rng.integers(0, 256, size).astype(np.uint8)
        wide = (rng.random(size) * 300).astype(np.float32)
        for q in (50, 75, 99.5):
            assert math.isclose(_byte_percentile(small, q), float(np.percentile(small, q)), abs_tol=1e-9)
            assert math.isclose(_percentile(wide, q), float(np.percentile(wide, q)), rel_tol=1e-6, abs_tol=1e-4)


def test_the_quick_median_gives_numpys_very_numbers():
    """The reader's hot paths take a face's medians from a sort (issue 30, for time): the same
    numbers as np.median to the last bit, odd and even counts, one column or three, so that no
    reading changes."""
    rng = np.random.default_rng(4)
    for n in range(0, 24):
        for shape in ((n,), (n, 3)):
            for dtype in (np.float32, np.float64):
                values = rng.normal(120, 40, shape).astype(dtype)
                quick = median_by_column(values)
                expected = np.median(values, axis=0) if n else np.full(shape[1:], np.nan, dtype)
                assert np.array_equal(quick, expected, equal_nan=True) and quick.dtype == expected.dtype, (n, shape, dtype)


def test_a_layout_fits_as_the_one_to_one_rule_says():
    """fit_layout keeps only turns where every pip is nearest a place of its own (issue 30: tested
    for all pips at once): four pips of a 4 fit, and four pips of which two crowd one place do not."""
    rng = np.random.default_rng(8)
    for _ in range(50):
        side, turn = rng.uniform(15, 60), rng.uniform(0, 2 * math.pi)
        centre = rng.uniform(50, 500, 2)
        pips = (_CENTRED[4] @ _turn(turn).T) * side + centre + rng.normal(0, 0.02 * side, (4, 2))
        fit = fit_layout(pips.astype(np.float32))
        assert fit is not None and fit[3] < 0.1 and abs(fit[0] - side) < 0.1 * side
    crowded = np.array([(0, 0), (1, 0), (0, 20), (20, 20)], np.float32)  # two pips on one corner
    fit = fit_layout(crowded)
    assert fit is None or fit[3] > DicePoolReader.FIT_ERROR


def test_two_pips_fit_a_two_exactly():
    a, b = np.array([10.0, 20.0]), np.array([31.0, 47.0])
    side, turn, centre, error = fit_layout(np.array([a, b], np.float32))
    placed = (_CENTRED[2] @ _turn(turn).T) * side + centre
    assert error == 0.0
    assert sorted(map(tuple, np.round(placed, 3))) == sorted([tuple(a), tuple(b)])


def test_the_quick_row_test_never_refuses_three_pips_that_fit_a_three():
    rng = np.random.default_rng(11)
    refused_fitting = tried_fitting = 0
    for _ in range(4000):
        side = rng.uniform(12, 60)
        exact = (_CENTRED[3] @ _turn(rng.uniform(0, 2 * math.pi)).T) * side + rng.uniform(0, 600, 2)
        points = (exact + rng.normal(size=(3, 2)) * side * rng.uniform(0, 0.12)).astype(np.float32)
        fit = fit_layout(points)
        if fit is not None and fit[3] <= DicePoolReader.FIT_ERROR:
            tried_fitting += 1
            refused_fitting += _far_from_a_row(points, DicePoolReader.FIT_ERROR)
    assert tried_fitting > 500 and refused_fitting == 0
    bent = np.array([[0, 0], [10, 10], [0, 20]], np.float32)  # a right angle: no 3
    assert _far_from_a_row(bent, DicePoolReader.FIT_ERROR)


def test_two_pips_run_together_split_back_into_the_two_pips_of_a_six_row():
    """Two round pips of a 6's row that touch (blur, a dark die) make one long blob: its halves
    are the two pips' centres, whatever the blob's turn; a round pip is not long enough to split."""
    import cv2

    for angle in (0.0, 0.5, 1.2, 2.4):
        blob = np.zeros((80, 80), np.uint8)
        dx, dy = 7 * math.cos(angle), 7 * math.sin(angle)
        pips = [(40 + dx, 40 + dy), (40 - dx, 40 - dy)]
        for x, y in pips:
            cv2.circle(blob, (round(4 * x), round(4 * y)), 4 * 7, 1, -1, shift=2)
        length, hx, hy = _elongation_and_halves(blob)
        assert DicePoolReader.TWO_PIP_LENGTH[0] <= length <= DicePoolReader.TWO_PIP_LENGTH[1]
        m = cv2.moments(blob, binaryImage=True)
        cx, cy = m["m10"] / m["m00"], m["m01"] / m["m00"]
        halves = [(cx + hx, cy + hy), (cx - hx, cy - hy)]
        for pip in pips:
            assert min(math.dist(pip, h) for h in halves) < 1.0
    round_pip = np.zeros((40, 40), np.uint8)
    cv2.circle(round_pip, (20, 20), 7, 1, -1)
    assert _elongation_and_halves(round_pip)[0] < DicePoolReader.TWO_PIP_LENGTH[0]


def _die_scene(one_pip_drop: int) -> np.ndarray:
    """White dice of 40 px with grey rims on a grey table: a 1 pressed against a 2 whose lower pip
    is `one_pip_drop` px below the 1's row, and three lone 4s that set the pool's usual size."""
    import cv2

    image = np.full((240, 320, 3), 150, np.uint8)

    def die(cx, cy, pips, diameter=8):
        cv2.rectangle(image, (cx - 20, cy - 20), (cx + 19, cy + 19), (235, 235, 235), -1)
        cv2.rectangle(image, (cx - 20, cy - 20), (cx + 19, cy + 19), (120, 120, 120), 1)
        for u, v in pips:
            cv2.circle(image, (int(cx + 40 * u), int(cy + 40 * v)), diameter // 2, (30, 30, 30), -1, cv2.LINE_AA)

    for cx in (60, 160, 260):
        die(cx, 190, [(-.25, -.25), (.25, -.25), (-.25, .25), (.25, .25)])
    die(100, 80, [(0, 0)])
    die(140, 80 + one_pip_drop, [(-.25, .25), (.25, -.25)])
    return cv2.GaussianBlur(image, (3, 3), 0)


def test_a_one_beside_a_die_whose_pip_is_a_twos_length_away_is_read():
    """The 1's pip and the near pip of the next die are as far apart as a 2 one size too big:
    any two pips fit a 2 exactly, so that pair, refused for its size, is no face and does not
    stop the 1 (real photos: a red 1 beside a blue 4, a white 1 beside a black die)."""
    reader = DicePoolReader()
    for drop in (5, 7, 9):
        values = {(round(r.centre[0]), round(r.centre[1])): r.value for r in reader.read(_die_scene(drop))}
        assert values.get((100, 80)) == 1
        assert values.get((140, 80 + drop)) == 2
        assert sorted(values.values()) == [1, 2, 4, 4, 4]


def _white_die_beside_a_red_four(white_px: int, pip_bgr: tuple[int, int, int]) -> np.ndarray:
    """A white 1 (rim and pip on a light tray) pressed against a red 4 with pinkish pips."""
    import cv2

    image = np.full((200, 260, 3), 222, np.uint8)

    def die(cx, side, body, rim, pips, pip_colour, diameter):
        h = side // 2
        cv2.rectangle(image, (cx - h, 100 - h), (cx + h - 1, 100 + h - 1), body, -1)
        cv2.rectangle(image, (cx - h, 100 - h), (cx + h - 1, 100 + h - 1), rim, 2)
        for u, v in pips:
            cv2.circle(image, (int(cx + side * u), int(100 + side * v)), diameter // 2, pip_colour, -1, cv2.LINE_AA)

    die(100, white_px, (232, 232, 232), (150, 150, 150), [(0, 0)], (30, 30, 30), 10)
    die(100 + white_px // 2 + 18, 36, (40, 40, 185), (30, 30, 120), [(-.25, -.25), (.25, -.25), (-.25, .25), (.25, .25)],
        pip_bgr, 7)
    return cv2.GaussianBlur(image, (3, 3), 0)


def test_a_red_die_beside_a_larger_white_die_keeps_its_light_pips():
    """The white die's inside, filled in as part of the region, is lighter than the red die's
    pinkish pips: against the whole region's median they were no light pips and the red 4 went
    unread. A pip is held against the die around it (real photos: a red 6 beside a cream 1)."""
    reader = DicePoolReader()
    for white_px, pip_bgr in ((46, (200, 200, 225)), (52, (200, 200, 225)), (52, (215, 215, 235))):
        values = sorted(r.value for r in reader.read(_white_die_beside_a_red_four(white_px, pip_bgr)))
        assert values == [1, 4]


def _dark_die_with_red_pips(turn_deg: float, pips: list[tuple[float, float]], drawn_out: float = 0.0,
                            pip_px: int = 11, side: int = 40) -> np.ndarray:
    """A dark die whose red pips are as light as the die (only their redness shows them), seen
    through a camera that keeps colour at a lower resolution than lightness: the red spreads, so
    pips close together run together in the red channel. `drawn_out`: each pip is smeared this far
    toward the middle row of the face (a blurred die)."""
    import cv2

    image = np.full((160, 160, 3), 225, np.uint8)
    turn = _turn(math.radians(turn_deg)).astype(np.float64)
    corners = np.array([(-.5, -.5), (.5, -.5), (.5, .5), (-.5, .5)]) @ turn.T * side + 80
    cv2.fillConvexPoly(image, np.round(corners * 16).astype(np.int32), (60, 55, 55), cv2.LINE_AA, shift=4)
    for u, v in pips:
        for k in np.linspace(0, 1, 7):
            x, y = np.array([u, v * (1 - drawn_out * k)]) @ turn.T * side + 80
            cv2.circle(image, (round(x * 16), round(y * 16)), round(pip_px / 2 * 16), (25, 20, 110), -1, cv2.LINE_AA, shift=4)
    lab = cv2.cvtColor(cv2.GaussianBlur(image, (3, 3), 0), cv2.COLOR_BGR2LAB)
    for channel in (1, 2):
        lab[:, :, channel] = cv2.GaussianBlur(lab[:, :, channel], (0, 0), 3.0)
    return cv2.cvtColor(lab, cv2.COLOR_LAB2BGR)


def test_a_six_whose_rows_of_three_run_together_is_read():
    """Red pips on a black die: each row of three is one red bar (real photos: red 6s on black and
    dark marbled dice). A blob three pips long is also kept as its three pips, which a 6 may use."""
    reader = DicePoolReader()
    six = [(u, v) for u in (-.25, .25) for v in (-.28, 0, .28)]
    for turn in (0, 15, 30, 45, 70):
        assert [r.value for r in reader.read(_dark_die_with_red_pips(turn, six))] == [6]


def test_a_four_whose_pips_are_drawn_out_along_its_columns_is_no_six():
    """Each column of a blurred 4 is a bar as long as a 6's row, but weakest in its middle, between
    its two pips: no row of three (real photos: a blurred dark 4 with red pips was read as a 6)."""
    reader = DicePoolReader()
    four = [(u, v) for u in (-.25, .25) for v in (-.25, .25)]
    for turn in (0, 20, 45):
        for pip_px in (9, 10):
            assert 6 not in [r.value for r in reader.read(_dark_die_with_red_pips(turn, four, 0.5, pip_px))]


def _dark_five_with_a_red_vein(turn_deg: float) -> np.ndarray:
    """A dark marbled 5 with red pips as light as the die: a red vein of the marbling runs along
    one diagonal, so that diagonal's three pips are one red bar; the other two pips stay round."""
    import cv2

    image = np.full((160, 160, 3), 225, np.uint8)
    turn = _turn(math.radians(turn_deg)).astype(np.float64)
    corners = np.array([(-.5, -.5), (.5, -.5), (.5, .5), (-.5, .5)]) @ turn.T * 40 + 80
    cv2.fillConvexPoly(image, np.round(corners * 16).astype(np.int32), (60, 55, 55), cv2.LINE_AA, shift=4)
    pips = [np.array(p) @ turn.T * 40 + 80 for p in [(-.25, -.25), (.25, -.25), (0, 0), (-.25, .25), (.25, .25)]]
    for x, y in pips:
        cv2.circle(image, (round(x * 16), round(y * 16)), 5 * 16, (25, 20, 110), -1, cv2.LINE_AA, shift=4)
    (x0, y0), (x1, y1) = pips[0], pips[4]
    cv2.line(image, (round(x0 * 16), round(y0 * 16)), (round(x1 * 16), round(y1 * 16)), (25, 20, 110), 6, cv2.LINE_AA, shift=4)
    lab = cv2.cvtColor(cv2.GaussianBlur(image, (3, 3), 0), cv2.COLOR_BGR2LAB)
    for channel in (1, 2):
        lab[:, :, channel] = cv2.GaussianBlur(lab[:, :, channel], (0, 0), 1.5)
    return cv2.cvtColor(lab, cv2.COLOR_LAB2BGR)


def test_a_five_whose_diagonal_runs_together_is_read():
    """A row of three run together is also a 5's diagonal (real photos: a red 5 on a dark marbled die)."""
    reader = DicePoolReader()
    for turn in (0, 15, 30, 45, 70):
        assert [r.value for r in reader.read(_dark_five_with_a_red_vein(turn))] == [5]
