"""The Conspiracy journal: exact make-up odds by counting worlds, checked against brute force;
the rulebook's scoring examples."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from engine.games.sudds_malone.odds import (brute_force_makeup, expected_hunch, makeup, position_odds)
from engine.games.sudds_malone.scoring import hunch_points, matchbook_points, token_points, winner_by_badge

ROLES = {f"{t}-{i}": t for t in ("mole", "rat", "frog") for i in (1, 2, 3)}
ROLES.update({f"stoolie-{i}": "stoolie" for i in (1, 2, 3)})
CON, CITY = (1, 2, 3, 4), tuple(range(5, 13))


@pytest.fixture(autouse=True)
def _home(tmp_path, monkeypatch):
    monkeypatch.setenv("GUMSHOE_HOME", str(tmp_path / "home"))


# --- End of Game examples -----------------------------------------------------------------------
def test_score_remaining_tokens_example():
    """End of Game, Score remaining tokens: 4 cash, 2 bullets and 3 evidence are 9 tokens: 4 points."""
    assert token_points(cash=4, bullets=2, evidence=3) == 4


def test_score_matchbooks_example():
    """End of Game, Score matchbooks: 6 different (10), a group of 3 identical (5), a group of 4 (10): 25."""
    books = ["stork"] * 3 + ["cotton"] * 4 + ["savoy", "el-morocco", "copa", "rainbow"]
    assert matchbook_points(books) == 25
    assert matchbook_points(["a"] * 6) == 15 and matchbook_points(list("abcdefgh")) == 20
    assert matchbook_points(list("abcd")) == 0


def test_score_hunches_example():
    """End of Game, Score hunches: Mole twice, Frog and Rat once: 14 for Moles (4x2 + 3x2), 7 for Frogs
    (-1+2+3+3), 3 for Rats (1+2): 24."""
    conspiracy = {"mole": 2, "rat": 1, "frog": 1}
    cards = [{"mole": 4, "frog": -1}, {"mole": 3, "frog": 2}, {"frog": 3, "rat": 1}, {"frog": 3, "rat": 2}]
    assert sum(hunch_points(c, conspiracy) for c in cards) == 24
    assert hunch_points({"mole": 3, "rat": 1}, {"mole": 2, "frog": 2}) == 6    # the rule's own example


def test_tie_goes_to_the_badge_holder_then_nearest_in_turn_order():
    """End of Game: a tied player holding the badge wins; otherwise the tied player closest after them."""
    seats = ("A", "B", "C", "D")
    assert winner_by_badge({"A": 9, "B": 5, "C": 9, "D": 9}, seats, "C") == "C"
    assert winner_by_badge({"A": 9, "B": 5, "C": 1, "D": 9}, seats, "B") == "D"
    assert winner_by_badge({"A": 9, "B": 5, "C": 1, "D": 9}, seats, "D") == "D"


# --- exact odds ------------------------------------------------------------------------------------
def random_knowledge(rng: random.Random) -> tuple[dict[int, str], dict[int, str]]:
    """A true deal and what one player might have seen of it."""
    suspects = [c for c, r in ROLES.items() if r != "stoolie"]
    rng.shuffle(suspects)
    rest = suspects[4:] + [c for c, r in ROLES.items() if r == "stoolie"]
    rng.shuffle(rest)
    truth = dict(zip(CON + CITY, suspects[:4] + rest))
    known_con = rng.sample(CON, rng.randint(0, 4))
    known_city = rng.sample(CITY, rng.randint(2, 8))
    return truth, {t: truth[t] for t in known_con + known_city}


def counted(known: dict[int, str]) -> dict:
    positions = {t: ROLES[c] for t, c in known.items() if t in CON}
    elsewhere: dict[str, int] = {}
    for t, c in known.items():
        if t in CITY and ROLES[c] != "stoolie":
            elsewhere[ROLES[c]] = elsewhere.get(ROLES[c], 0) + 1
    return makeup(positions, elsewhere)


@pytest.mark.parametrize("seed", range(12))
def test_makeup_equals_brute_force_enumeration(seed):
    """The counted distribution equals the one found by listing every deal consistent with the notes."""
    _, known = random_knowledge(random.Random(seed))
    assert counted(known) == brute_force_makeup(known, CON, CITY, ROLES)


def test_makeup_with_nothing_seen_is_the_hypergeometric_one():
    d = makeup({}, {})
    assert sum(d.values()) == 1
    assert d[(2, 1, 1)] == Fraction(3 * 3 * 3, 126)             # C(3,2) C(3,1) C(3,1) / C(9,4)
    assert d[(3, 1, 0)] == Fraction(1 * 3, 126)
    assert (0, 0, 4) not in d


def test_peeks_and_found_suspects_narrow_the_odds():
    """A peek fixes a position; a suspect found in the city cannot be in the Conspiracy."""
    d = makeup({1: "mole", 2: "mole"}, {"mole": 1})
    assert all(m == 2 for (m, _, _) in d)                      # the third Mole is in the city
    pos = position_odds({1: "mole", 2: "mole"}, {"mole": 1})
    assert pos[3] == {"mole": 0, "rat": Fraction(1, 2), "frog": Fraction(1, 2)}
    assert expected_hunch({"mole": 3, "rat": 1}, d) == 6 + 1


def test_journal_odds_come_only_from_this_players_sightings():
    """The Conspiracy journal: Ann's peek changes Ann's odds only."""
    from .test_sudds_malone_table import SUSPECT, act, board, dice_for, new_game
    s = new_game(roll=dice_for(("Ann", "Bob"), 2))
    s.state.covers.clear()
    board(s, "Ann").calendar = (1, 2)
    before = {p: [d.data for d in s.journal(p, "full").deductions if d.kind == "makeup"] for p in ("Ann", "Bob")}
    act(s, "take_die", die="white-1")
    act(s, "calendar")
    act(s, "peek", position=3, card=SUSPECT("frog-2"))
    ann = {d.kind: d for d in s.journal("Ann", "full").deductions}
    bob = [d.data for d in s.journal("Bob", "full").deductions if d.kind == "makeup"]
    assert bob == before["Bob"]
    assert all(int(k.split(",")[2]) >= 1 for k in ann["makeup"].data["makeup"])
    assert ann["positions"].data["positions"]["3"]["frog"] == "1/1"
    assert ann["conspiracy_seen"].text == "In the Conspiracy: 3: Frog."


def test_hunch_expected_points_in_the_journal():
    """For the hunch cards in front of a player or just drawn: each card's expected points."""
    from .test_sudds_malone_table import HUNCH, act, board, new_game
    s = new_game()
    b = board(s, "Ann")
    act(s, "take_die", die="white-1", news=True)
    act(s, "pick_evidence", evidence="glass")
    b.above = ["sudds.case.case-04", "sudds.case.case-03"]        # A+B and C
    act(s, "hunch", cards=b.above, drawn=[HUNCH(1), HUNCH(2), HUNCH(3)])
    evs = {d.data["card"]: d.data["expected"] for d in s.journal("Ann", "full").deductions if d.kind == "hunch_ev"}
    for h in (HUNCH(1), HUNCH(2), HUNCH(3)):
        pts = s.rules.hunch(h).points
        assert Fraction(evs[h]) == Fraction(4, 3) * sum(pts.values())       # 4/3 of each type expected
    assert not [d for d in s.journal("Bob", "full").deductions if d.kind == "hunch_ev"]
