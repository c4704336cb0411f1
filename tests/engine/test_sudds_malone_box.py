"""Sudds & Malone box data: checked on load, and the family's "learn your box" answers."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.errors import BadInput, RuleViolation
from engine.games.sudds_malone.box import BoxError, load_box, save_answer
from engine.session import Session

from .test_sudds_malone_table import act, board, dice_for, new_game

SHIPPED = Path(__file__).resolve().parents[2] / "assets" / "boxes" / "sudds-malone.toml"


@pytest.fixture(autouse=True)
def _home(tmp_path, monkeypatch):
    monkeypatch.setenv("GUMSHOE_HOME", str(tmp_path / "home"))


def edited(tmp_path: Path, old: str, new: str, count: int = 1) -> Path:
    text = SHIPPED.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "box.toml"
    path.write_text(text.replace(old, new, count), encoding="utf-8")
    return path


def test_shipped_box_loads_and_marks_the_rulebook_values_verified():
    """Every value is verified (the rulebook says it) or not (our reading)."""
    box = load_box(user_file=None)
    assert box.is_verified("calendar.1.monday") and box.day(1, "monday") == ("cash:2",)
    assert box.is_verified("calendar.1.saturday") and box.day(1, "saturday") == ("bonus",)
    assert box.step_cost("office", 3) == 2 and box.level("office", 3).reward == ("bonus",)
    assert box.allowance("calendar", 1) == 2 and box.allowance("calendar", 3) == 3
    assert box.step_cost("calendar", 2) + box.step_cost("calendar", 3) == 3
    assert not box.is_verified("map.queens") and not box.is_verified("count.cases")
    f = box.flimflams["ff-01"]
    assert (f.cost, f.reward, f.tabs) == ("bullet", ("points:3",), "AB")      # Stalk
    assert len(box.unverified()) > 100


@pytest.mark.parametrize("old,new,message", [
    ('neighbours = ["downtown", "bensonhurst"]', 'neighbours = ["downtown"]', "symmetric"),
    ('neighbours = ["downtown", "queens", "flatbush", "bensonhurst"]', 'neighbours = ["queens", "flatbush", "bensonhurst"]',
     "symmetric"),
    ('level = 4\ncost = 3\nallowance = 3\nreward = "points:3"', 'level = 5\ncost = 3\nallowance = 3\nreward = "points:3"',
     "in order"),
    ('players = "4"', 'players = "all"', "marked 4"),
    ('reward = "bonus"', 'reward = "jackpot"', "unknown reward"),
    ('cover = 1', 'cover = 7', "between 1 and 4"),
])
def test_bad_box_files_are_refused_naming_file_and_entry(tmp_path, old, new, message):
    """Validated on load: adjacency symmetric, 4 levels per track, counts per card type, known words."""
    path = edited(tmp_path, old, new)
    with pytest.raises(BoxError, match=message) as err:
        load_box(path, user_file=None)
    assert str(path) in str(err.value)


def test_a_disconnected_map_is_refused(tmp_path):
    """Adjacency must connect the 8 locations (Investigate moves between adjacent locations)."""
    text = SHIPPED.read_text(encoding="utf-8")
    text = text.replace('neighbours = ["downtown", "bensonhurst"]', 'neighbours = ["bensonhurst"]')
    text = text.replace('neighbours = ["midtown", "east-side", "brooklyn", "staten-island"]',
                        'neighbours = ["midtown", "east-side", "brooklyn"]')
    text = text.replace('neighbours = ["brooklyn", "flatbush", "staten-island"]', 'neighbours = ["brooklyn", "flatbush"]')
    text = text.replace('neighbours = ["bensonhurst"]', 'neighbours = []')
    path = tmp_path / "box.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(BoxError, match="not connected: staten-island"):
        load_box(path, user_file=None)


def test_a_broken_family_file_stops_the_game_with_a_clear_message(tmp_path, monkeypatch):
    home = tmp_path / "fam"
    monkeypatch.setenv("GUMSHOE_HOME", str(home))
    (home / "boxes").mkdir(parents=True)
    (home / "boxes" / "sudds-malone.toml").write_text('[answers."track.office.9"]\ncost = 1\n', encoding="utf-8")
    with pytest.raises(BadInput, match=re.escape("track.office.9")):
        Session.new("sudds-malone", ["Ann", "Bob"])
    (home / "boxes" / "sudds-malone.toml").write_text("not toml [", encoding="utf-8")
    with pytest.raises(BadInput, match="not valid TOML"):
        Session.new("sudds-malone", ["Ann", "Bob"])


def test_learn_your_box_asks_what_is_needed_now_and_then_uses_the_answer(tmp_path, monkeypatch):
    """The first time an unchecked value is needed, the app asks; the answer goes to the family's file and
    from then on the value is computed from it."""
    home = tmp_path / "fam"
    monkeypatch.setenv("GUMSHOE_HOME", str(home))
    s = Session.new("sudds-malone", ["Ann", "Bob"])
    from .test_sudds_malone_table import CITY, DISPLAY, FF
    s.apply({"type": "deal", "player": "Ann", "city": CITY, "conspiracy": FF(1), "display": DISPLAY})
    s.apply({"type": "roll", "player": "Ann", "dice": dice_for(("Ann", "Bob"), 1)})
    keys = [q.key for q in s.rules.needed(s.state)]
    assert "track.office.2" in keys and "case.case-04" in keys and "map.east-side" in keys
    assert "flimflam.ff-01" in keys           # Stalk: its cost/reward/tabs are verified, not its back
    q = s.rules.box.question("track.office.2")
    assert [(f.name, f.kind, f.current) for f in q.fields] == [
        ("cost", "int", 1), ("allowance", "int", 2), ("reward", "text", "points:1")]
    # The family's box says: $2 to reach level 2, and it gives 2 points.
    s.rules.learn("track.office.2", {"cost": 2, "allowance": 2, "reward": "points:2"})
    assert "track.office.2" not in [q.key for q in s.rules.needed(s.state)]
    assert (home / "boxes" / "sudds-malone.toml").exists()
    board(s, "Ann").cash = 2
    act(s, "take_die", die="white-1")
    act(s, "improve", tracks=["office"])
    assert board(s, "Ann").cash == 0 and board(s, "Ann").score == 1 + 2
    # A new game reads the family's file.
    again = Session.new("sudds-malone", ["Ann", "Bob"])
    assert again.rules.box.step_cost("office", 2) == 2 and again.rules.box.is_verified("track.office.2")


def test_a_bad_answer_writes_nothing(tmp_path):
    box = load_box(user_file=None)
    path = tmp_path / "fam.toml"
    with pytest.raises(BoxError, match="unknown reward"):
        save_answer(box, "calendar.2.monday", {"reward": "a pony"}, path)
    with pytest.raises(BoxError, match="unknown field"):
        save_answer(box, "calendar.2.monday", {"colour": "red"}, path)
    with pytest.raises(BoxError, match="not connected"):
        save_answer(box, "map.staten-island", {"neighbours": []}, path)
    assert not path.exists()


def test_a_map_answer_keeps_adjacency_symmetric(tmp_path):
    box = load_box(user_file=None)
    new = save_answer(box, "map.staten-island", {"neighbours": ["downtown", "brooklyn"]}, tmp_path / "f.toml")
    assert "staten-island" in new.neighbours["brooklyn"] and "staten-island" not in new.neighbours["bensonhurst"]


def test_the_family_count_of_case_cards_decides(tmp_path):
    """Game Components says 72 Case cards, Game Setup 60: the family's count decides."""
    path = tmp_path / "fam.toml"
    save_answer(load_box(user_file=None), "count.cases", {"cases_in_play": 72}, path)
    s = Session.new("sudds-malone", ["Ann", "Bob"], {"box_file": str(path)})
    assert len(s.state.cases_in_play) == 72 and s.state.case_deck == 72 - 6


def test_card_question_for_a_card_read_by_the_camera():
    s = new_game()
    q = s.rules.card_question("sudds.case.case-07")
    assert q is not None and [f.name for f in q.fields] == ["cost", "points", "cash", "tabs", "bottom"]
    assert s.rules.card_question("sudds.suspect.mole-1") is None


def test_every_question_has_a_form_and_the_current_reading_is_a_valid_answer(tmp_path):
    """Answering a form with the values it shows changes nothing but the verified mark."""
    box = load_box(user_file=None)
    path = tmp_path / "f.toml"
    for key in box.keys()[:40] + box.keys()[-3:]:
        q = box.question(key)
        answer = {f.name: f.current for f in q.fields}
        new = save_answer(box, key, answer, path)
        assert new.current(key) == box.current(key) and new.is_verified(key)


def test_the_whole_box_on_one_list_says_where_each_value_comes_from(tmp_path):
    """A family can review and correct the whole box on one screen: every value, its reading and its source."""
    box = load_box(user_file=None)
    new = save_answer(box, "calendar.3.monday", {"reward": "cash:1"}, tmp_path / "f.toml")
    rows = {r.key: r for r in new.review()}
    assert len(rows) == len(box.keys())
    assert rows["calendar.3.monday"].source == "family" and rows["calendar.3.monday"].values == {"reward": "cash:1"}
    assert rows["calendar.1.monday"].source == "rulebook"
    assert rows["map.queens"].source == "our reading"


def test_every_section_the_rules_cite_is_a_rulebook_heading():
    """Each refusal names a rulebook section: those names are the rulebook's own headings."""
    from engine.games.sudds_malone import rules as R
    book = (Path(__file__).resolve().parents[3] / "shared" / "rulebooks" / "sudds-and-malone.txt")
    if not book.exists():
        pytest.skip("the rulebook is not beside the repository")
    text = book.read_text(encoding="utf-8").lower()
    for name in (R.SETUP, R.PSETUP, R.HOW, R.DICE, R.OFFICE, R.CALENDAR, R.INVESTIGATE, R.FLIMFLAM, R.CASES,
                 R.MOXIE, R.NEWS, R.CLOSE, R.EOT, R.EOR, R.END):
        assert name.lower() in text, name


def test_needed_asks_about_the_calendar_days_ahead_and_the_map_around_the_badge():
    """Learn your box: the values a Calendar or an Investigate now would use are among the questions."""
    s = new_game()
    keys = [q.key for q in s.rules.needed(s.state)]
    assert {"calendar.1.wednesday", "map.east-side", "map.queens", "track.investigate.1"} <= set(keys)
    assert "calendar.1.monday" not in keys            # verified by the rulebook: never asked
    board(s, "Ann").calendar = (1, 4)
    keys = [q.key for q in s.rules.needed(s.state)]
    assert "calendar.1.wednesday" not in keys and "calendar.1.friday" not in keys   # behind her now or verified


def test_a_card_read_by_the_camera_is_learnt_once_then_its_content_is_used(tmp_path, monkeypatch):
    """Learn your box, a card's content: the camera reads Case 9 as it is played; the app asks for what is
    printed on it (once), stores it, and the case is closed by those values."""
    home = tmp_path / "fam"
    monkeypatch.setenv("GUMSHOE_HOME", str(home))
    from .test_sudds_malone_table import CITY, DISPLAY, FF
    s = Session.new("sudds-malone", ["Ann", "Bob"])
    s.apply({"type": "deal", "player": "Ann", "city": CITY, "conspiracy": FF(1), "display": DISPLAY})
    s.apply({"type": "roll", "player": "Ann", "dice": dice_for(("Ann", "Bob"), 4)})
    act(s, "take_die", die="white-1", news=True)
    act(s, "pick_evidence", evidence="notebook")
    card = "sudds.case.case-09"
    q = s.rules.card_question(card)
    assert q is not None and q.key == "case.case-09"
    s.rules.learn(q.key, {"cost": ["notebook", "notebook"], "points": 3, "cash": 0, "tabs": "B",
                          "bottom": "matchbook:savoy"})
    assert s.rules.card_question(card) is None                  # asked once
    with pytest.raises(RuleViolation, match="needs notebook, notebook"):
        act(s, "close_case", card=card, pay=["glass", "telephone"])
    act(s, "close_case", card=card, pay=["notebook", "notebook"])
    assert board(s, "Ann").score == 1 + 3
