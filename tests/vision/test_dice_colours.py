"""Dice colours taught by the family (vision.dice_colours): grouping, the learned palette's file, and the
reader naming with it while it finds and reads every die exactly as with the shipped palette."""

import math

import pytest

from vision.dice import UNKNOWN_COLOUR, DiceError, DieColour, DicePoolReader, FaceLook, load_palette
from vision.dice_colours import (group_looks, learn_colour, learn_palette, palette_or_shipped, palette_toml,
                                 save_palette, teaching_looks)
from vision.dice_synthetic import DiceTable
from vision.synthetic import Degradation

PURPLE = DieColour("purple", (140, 40, 120), "light")
LIGHT = Degradation(defocus_sigma=0.5, noise_sigma=3, light_range=0.2, jpeg_quality=85)


def look(lab, pips="light", spread=3.0):
    return FaceLook(tuple(float(v) for v in lab), pips, spread)


def taught(table, kinds, names=None):
    """A palette taught from one rendered pool of two dice of each kind, each group named by its dice."""
    pool = table.roll([(c, v) for c in kinds for v in (2, 5)], die_px=48, degradation=LIGHT)
    reader = DicePoolReader()
    looks, truth = [], {}
    for r in reader.read(pool.image):
        die = min(pool.dice, key=lambda d: math.dist(d.centre, r.centre))
        if r.look is not None:
            looks.append(r.look)
            truth[id(r.look)] = die.colour
    groups = group_looks(looks)
    given = [truth[id(g.looks[0])] for g in groups]
    return learn_palette(groups, [(names or {}).get(n, n) for n in given])


def test_looks_alike_are_grouped_and_pips_of_another_kind_never_are():
    white = [look((200, 128, 134), "dark"), look((204, 127, 136), "dark"), look((198, 128, 133), "dark")]
    grey_light_pips = look((201, 128, 134), "light")            # the same face colour, light pips
    red_pips = [look((35, 130, 130), "red"), look((36, 131, 129), "red")]
    white_pips = look((34, 130, 130), "light")
    groups = group_looks(white + [grey_light_pips] + red_pips + [white_pips])
    assert sorted((g.count, g.pips) for g in groups) == [(1, "light"), (1, "light"), (2, "red"), (3, "dark")]
    assert group_looks([]) == []
    far = group_looks([look((200, 128, 134), "dark"), look((150, 128, 134), "dark")])   # white and grey faces
    assert [g.count for g in far] == [1, 1]


def test_a_learned_colour_keeps_the_spread_of_its_dice():
    near = group_looks([look((100 + k, 150, 140), spread=2.0) for k in range(4)])[0]
    wide = group_looks([look((80 + 10 * k, 140 + 6 * k, 140), spread=20.0) for k in range(6)], join=60)[0]
    a, b = learn_colour("red", near), learn_colour("dark red", wide)
    assert a.spread == 20.0 and a.face_spread == DicePoolReader.FACE_SPREAD      # at least the floor
    assert b.spread > a.spread and b.face_spread == 30.0                        # marbled: 1.5 x its most uneven face
    assert a.learned and not load_palette()[0].learned


def test_groups_left_unnamed_are_left_out_and_the_reader_word_is_refused():
    groups = group_looks([look((40, 130, 130)), look((200, 128, 134), "dark")])
    assert [c.name for c in learn_palette(groups, ["  ", "white "])] == ["white"]
    with pytest.raises(ValueError):
        learn_palette(groups, [UNKNOWN_COLOUR, "white"])
    with pytest.raises(ValueError):
        learn_palette(groups, ["white"])


def test_the_palette_file_is_written_and_read_back_as_it_was_taught(tmp_path):
    groups = group_looks([look((40, 130, 130)), look((200, 128, 134), "dark"), look((36, 131, 129), "red")])
    colours = learn_palette(groups, ['Ann\'s "lucky" die', "white", "black\\grey"])
    path = save_palette(tmp_path / "boxes" / "dice.toml", colours, [g.count for g in groups])
    assert load_palette(path) == colours
    assert palette_or_shipped(path) == (colours, None)
    assert "dice = 1" in path.read_text(encoding="utf-8")
    with pytest.raises(ValueError):
        save_palette(tmp_path / "none.toml", [])
    with pytest.raises(ValueError):
        palette_toml(load_palette())                     # the shipped colours carry no spread


@pytest.mark.parametrize("text, words", [
    ("[[colour]]\nname = 'white'\nbgr = [1, 2]\n", "needs pips"),
    ("[[colour]]\nname = 'white'\nbgr = [1, 2]\npips = 'dark'\nspread = 14\n", "bgr"),
    ("[[colour]]\nname = 'white'\nbgr = [1, 2, 3]\npips = 'dark'\nspread = -4\n", "spread"),
    ("[[colour]]\nname = 'white'\nbgr = [1, 2, 3]\npips = 'dotted'\nspread = 14\n", "pips"),
    ("[[colour]]\nname = 'white'\nbgr = [1, 2, 300]\npips = 'dark'\nspread = 14\n", "0-255"),
    ("[[colour]]\nname = ''\nbgr = [1, 2, 3]\npips = 'dark'\nspread = 14\n", "name"),
    ("[[colour]]\nname = 'white'\nbgr = [1, 2, 3]\npips = 'dark'\nspread = 'wide'\n", "malformed"),
    ("colour = 3\n", "malformed"),
    ("[[colour]\n", "malformed"),
    ("[[colour]]\nname = 'white'\nbgr = [1, 2, 3]\npips = 'dark'\n", "spread"),     # a shipped-style colour
])
def test_a_broken_palette_file_says_what_is_wrong_and_the_shipped_palette_is_used(tmp_path, text, words):
    path = tmp_path / "dice.toml"
    path.write_text(text, encoding="utf-8")
    colours, problem = palette_or_shipped(path)
    assert colours == load_palette()
    assert str(path) in problem and words in problem and "shipped" in problem


def test_red_pips_only_for_a_learned_colour(tmp_path):
    path = tmp_path / "dice.toml"
    path.write_text("[[colour]]\nname = 'black'\nbgr = [30, 30, 30]\npips = 'red'\n", encoding="utf-8")
    with pytest.raises(DiceError, match="dark or light"):
        load_palette(path)
    path.write_text("[[colour]]\nname = 'black'\nbgr = [30, 30, 30]\npips = 'red'\nspread = 20\n", encoding="utf-8")
    assert load_palette(path)[0].pips == "red"


@pytest.mark.parametrize("seed", [3, 11])
def test_a_learned_palette_only_names_every_die_is_found_and_read_the_same(seed):
    """Random pools on wood, felt and a checked cloth (where the palette's colours also say where dice
    lie): with the learned palette every reading has the same place and value as with the shipped one."""
    table = DiceTable(seed=seed, other_colours=[PURPLE])
    learned = DicePoolReader(taught(table, list(table.palette)))
    shipped = DicePoolReader()
    for _ in range(3):
        pool = table.random_pool(14, touching=0.4)
        before, after = shipped.read(pool.image), learned.read(pool.image)
        assert [(r.value, r.centre, r.side_px, r.reason) for r in before] == \
            [(r.value, r.centre, r.side_px, r.reason) for r in after]


def test_the_family_dice_are_named_with_their_words_and_any_other_die_is_unknown():
    table = DiceTable(seed=8, size=(960, 540), other_colours=[PURPLE])
    palette = taught(table, ["white", "black", "red", "purple"], {"red": "Ann's die"})
    reader = DicePoolReader(palette)
    right = total = 0
    for k in range(4):
        pool = table.roll([("white", 1 + k), ("black", 2), ("red", 6 - k), ("purple", 3), ("grey", 4)], die_px=48,
                          degradation=LIGHT)
        readings = reader.read(pool.image)
        for die in pool.dice:
            r = next((r for r in readings if math.dist(r.centre, die.centre) < 0.5 * die.side_px), None)
            if r is None:
                continue
            total += 1
            want = {"red": "Ann's die", "grey": UNKNOWN_COLOUR}.get(die.colour, die.colour)
            assert r.colour in (want, UNKNOWN_COLOUR), (die, r)     # never another family colour
            right += r.colour == want
    assert total >= 16 and right >= 0.85 * total


def test_a_die_as_near_two_taught_colours_is_not_named():
    a = DieColour("plum", (90, 40, 80), "light", 20.0, 18.0)
    b = DieColour("wine", (60, 40, 110), "light", 20.0, 18.0)
    reader = DicePoolReader([a, b])
    middle = (a.lab + b.lab) / 2
    assert reader.colour_name(look(middle)) == UNKNOWN_COLOUR
    assert reader.colour_name(look(a.lab)) == "plum" and reader.colour_name(look(b.lab)) == "wine"
    assert reader.colour_name(look(a.lab, "dark")) == UNKNOWN_COLOUR              # its pips differ
    assert reader.colour_name(look(a.lab, spread=30.0)) == UNKNOWN_COLOUR         # more uneven than it was taught
    assert reader.colour_name(None) == UNKNOWN_COLOUR


def test_teaching_looks_are_the_faces_found():
    pool = DiceTable(seed=2, size=(640, 480)).roll([("white", 3), ("blue", 4)], die_px=50)
    looks = teaching_looks([pool.image, pool.image])
    assert len(looks) == 4 and {lk.pips for lk in looks} == {"dark", "light"}
