"""Sudds & Malone, rule by rule. Each test names the rulebook section it checks.

The table is the shipped box with no family answers; values the tests depend on are read
from the box where the rulebook does not print them.
"""

from __future__ import annotations

import pytest

from engine.errors import BadInput, RuleViolation
from engine.session import Session

from .test_sudds_malone_table import CASE, CITY, DISPLAY, FF, HUNCH, SUSPECT, act, board, dice_for, new_game


@pytest.fixture(autouse=True)
def _no_family_box(tmp_path, monkeypatch):
    monkeypatch.setenv("GUMSHOE_HOME", str(tmp_path / "home"))


def conspiracy_token(s: Session, pos: int) -> int:
    from engine.games.sudds_malone.state import conspiracy_place
    return s.state.table.top(conspiracy_place(pos))


def city_token(s: Session, loc: str) -> int:
    from engine.games.sudds_malone.state import city_place
    return s.state.table.top(city_place(loc))


# --- Game Setup / Player Setup ---------------------------------------------------------------------
@pytest.mark.parametrize("n,dice,hunches", [(2, 11, 24), (3, 12, 34), (4, 16, 42)])
def test_setup_dice_pool_and_hunch_deck_by_player_count(n, dice, hunches):
    """Game Setup 7 and 18: 1 of each colour per player plus personal dice (+3 with 2 players);
    hunch cards marked 3+ kept with 3-4 players, marked 4 only with 4."""
    players = ("Ann", "Bob", "Cyd", "Dee")[:n]
    s = new_game(players, deal=False)
    assert len(s.state.dice) == dice
    assert s.rules.public_table(s.state)["hunch_deck"] == hunches == len(s.state.hunches_in_play)


def test_player_setup_money_evidence_bullets_score_badge():
    """Player Setup 10-17: $1, one of each evidence, 2 bullets (4 on the board), badge on East Side,
    score by turn order, calendar on the first Sunday, 3 Case cards."""
    s = new_game(("Ann", "Bob", "Cyd"), deal=False)
    for i, p in enumerate(("Ann", "Bob", "Cyd"), 1):
        b = board(s, p)
        assert (b.cash, b.bullets, b.location, b.score, b.calendar, b.hand) == (1, 2, "east-side", i, (1, 0), 3)
        assert b.evidence == {"glass": 1, "notebook": 1, "telephone": 1, "fedora": 1}
    assert s.state.board_bullets == 4
    assert s.prompt().player == "Ann"


def test_deal_puts_the_top_flimflam_on_the_suspect_its_back_names():
    """Game Setup 5: the revealed Flimflam covers the suspect its back shows."""
    s = new_game()
    cover = s.rules.box.flimflams["ff-01"].cover
    assert s.state.covers == {cover: FF(1)}
    assert s.state.display == DISPLAY
    assert s.state.case_deck == 60 - 3 * 2 - 4


def test_deal_refuses_a_card_twice():
    """Game Setup 4-5: every Flimflam card lies in one place."""
    s = new_game(deal=False)
    city = dict(CITY, brooklyn=FF(1))
    with pytest.raises(BadInput):
        act(s, "deal", city=city, conspiracy=FF(1), display=DISPLAY)


# --- Dice Action -------------------------------------------------------------------------------------
def test_each_colour_once_per_round_and_personal_die_only_by_its_owner():
    """Dice Action: choose each colour only once per round; only you may choose your personal die."""
    s = new_game(roll=dice_for(("Ann", "Bob"), 6))
    with pytest.raises(RuleViolation, match="Only its owner"):
        act(s, "take_die", die="personal-Bob", news=True)
    act(s, "take_die", die="white-1", news=True)
    act(s, "pick_evidence", evidence="glass")
    act(s, "end_turn")
    with pytest.raises(RuleViolation, match="already took"):
        act(s, "take_die", die="white-1", news=True)
    act(s, "take_die", die="white-2", news=True)
    act(s, "pick_evidence", evidence="glass")
    act(s, "end_turn")
    with pytest.raises(RuleViolation, match="each colour once per round"):
        act(s, "take_die", die="white-3", news=True)


def test_two_player_round_uses_four_dice_each_and_leaves_one_of_each_colour():
    """How to Play / Dice Action note: with 2 players, 1 black, 1 grey and 1 white die are left over."""
    s = new_game(roll=dice_for(("Ann", "Bob"), 6))
    for turn in range(8):
        p = s.prompt().player
        assert p == ("Ann", "Bob")[turn % 2]
        act(s, "take_die", die=s.rules.legal_dice(s.state, p)[0], news=True)
        act(s, "pick_evidence", evidence="glass")
        if turn == 7:
            left = sorted(d.split("-")[0] for d in s.state.dice if d not in s.state.taken)
            assert left == ["black", "grey", "white"]
            for q in ("Ann", "Bob"):
                assert sorted(s.rules.die_colour(d) for d in board(s, q).dice) == ["black", "grey", "personal", "white"]
        act(s, "end_turn")
        if s.state.phase == "limits":
            act(s, "discard", evidence={"glass": board(s, p).evidence_total - 7})
    assert s.state.round == 2 and s.state.phase == "roll"


def test_bullets_change_a_die_with_wrap_and_go_back_to_the_board():
    """Dice Action: each spent bullet moves the die +1 or -1; a 6 becomes a 1 for one bullet."""
    s = new_game(roll=dice_for(("Ann", "Bob"), 6))
    act(s, "take_die", die="white-1", shift=1)      # 6 -> 1: The Office
    assert s.state.doing == "office"
    assert board(s, "Ann").bullets == 1 and s.state.board_bullets == 5


def test_cannot_spend_more_bullets_than_you_have():
    """Dice Action: bullets spent come from your supply."""
    s = new_game(roll=dice_for(("Ann", "Bob"), 6))
    with pytest.raises(RuleViolation, match="bullets"):
        act(s, "take_die", die="white-1", shift=-3)
    assert board(s, "Ann").bullets == 2


# --- The Office ----------------------------------------------------------------------------------------
def test_office_second_to_third_level_costs_two_and_gives_a_bonus_action():
    """The Office example: Yellow improves the Office from the 2nd to the 3rd level paying $2, then takes a bonus action."""
    s = new_game()
    b = board(s, "Ann")
    b.levels["office"] = 2
    b.cash = 2
    act(s, "take_die", die="white-1")
    act(s, "improve", tracks=["office"])
    assert b.cash == 0 and b.levels["office"] == 3
    assert s.prompt().option("bonus") is not None


def test_office_improvements_count_from_the_next_turn():
    """The Office note: moving up the Office column gives more improvements only from your next turn."""
    s = new_game()
    b = board(s, "Ann")
    b.levels["office"] = 2
    b.cash = 20
    act(s, "take_die", die="white-1")
    allowed = s.rules.box.allowance("office", 2)
    act(s, "improve", tracks=["office"])      # level 3: a bonus action
    act(s, "bonus", action="office")
    with pytest.raises(RuleViolation, match="next turn"):
        act(s, "improve", tracks=["moxie"] * (allowed + 1))
    act(s, "improve", tracks=["moxie"] * allowed)


def test_calendar_improved_twice_costs_three_scores_one_sends_a_snitch_and_moves_three_days():
    """The Office example (Red): two Calendar improvements pay $3, score 1 point, send a snitch; Calendar then moves 3 days."""
    s = new_game()
    b = board(s, "Ann")
    b.cash = 3
    b.office_level = 2
    b.levels["office"] = 2
    act(s, "take_die", die="white-1")
    score = b.score
    act(s, "improve", tracks=["calendar", "calendar"])
    assert b.cash == 0 and b.score == score + 1
    assert s.prompt().option("place_snitch") is not None
    act(s, "place_snitch", location="queens", evidence="glass")
    assert s.rules.box.allowance("calendar", b.levels["calendar"]) == 3


def test_cannot_improve_past_the_fourth_level():
    """The Office: you cannot improve past the 4th level."""
    s = new_game()
    board(s, "Ann").levels["moxie"] = 4
    board(s, "Ann").cash = 9
    act(s, "take_die", die="white-1")
    with pytest.raises(RuleViolation, match="4th level"):
        act(s, "improve", tracks=["moxie"])


def test_office_needs_the_cash():
    """The Office: pay the cost shown between levels for each step."""
    s = new_game()
    board(s, "Ann").cash = 0
    act(s, "take_die", die="white-1")
    with pytest.raises(RuleViolation, match=r"cost \$"):
        act(s, "improve", tracks=["moxie"])


# --- Calendar -----------------------------------------------------------------------------------------
def test_calendar_red_moves_monday_cash_then_tuesday_snitch():
    """Calendar example (Red): 2 days, Monday $2, ends on Tuesday and sends a snitch."""
    s = new_game(roll=dice_for(("Ann", "Bob"), 2))
    b = board(s, "Ann")
    act(s, "take_die", die="white-1")
    act(s, "calendar")
    assert b.cash == 3 and b.calendar == (1, 2)
    act(s, "place_snitch", location="midtown", evidence="notebook")
    assert s.state.snitch_at["midtown"] == ("Ann", "notebook", False)
    assert b.snitches == ["glass", "telephone"]


def test_calendar_skips_blocked_days_without_reward():
    """Calendar example (Yellow): Blue and Red block Tuesday and Wednesday; 3 days pass Monday ($2),
    Thursday (Read the News), Friday ($2): $5, 1 evidence and 1 bullet."""
    players = ("Yellow", "Blue", "Red")
    s = new_game(players, roll=dice_for(players, 2))
    y = board(s, "Yellow")
    y.levels["calendar"] = 3
    board(s, "Blue").calendar = (1, 2)
    board(s, "Red").calendar = (1, 3)
    cash, bullets, evidence = y.cash, y.bullets, y.evidence_total
    texts = act(s, "take_die", die="white-1")
    texts += act(s, "calendar")
    act(s, "pick_evidence", evidence="telephone")
    assert y.calendar == (1, 5)
    assert (y.cash - cash, y.bullets - bullets, y.evidence_total - evidence) == (5, 1, 1)
    assert any("Tuesday (blocked)" in t and "Wednesday (blocked)" in t for t in texts)


def test_passing_saturday_stops_on_sunday_and_ends_calendar_for_the_round():
    """Calendar, Stop on Sunday (Blue's example): past Saturday you stop on the next Sunday and take no more
    Calendar actions this round."""
    s = new_game(roll=dice_for(("Ann", "Bob"), 2))
    b = board(s, "Ann")
    b.levels["calendar"] = 3
    b.calendar = (1, 4)                    # Thursday
    act(s, "take_die", die="white-1")
    texts = act(s, "calendar")
    assert b.calendar == (2, 0) and b.calendar_done
    assert any("Sunday of week 2" in t for t in texts)
    # Friday's $2 and Saturday's bonus action: the bonus cannot be the Calendar again.
    assert "calendar" not in s.prompt().option("bonus").targets["action"]
    act(s, "bonus", action="news")
    act(s, "pick_evidence", evidence="glass")
    act(s, "end_turn")
    act(s, "take_die", die="white-2", news=True)
    act(s, "pick_evidence", evidence="glass")
    act(s, "end_turn")
    with pytest.raises(RuleViolation, match="passed Saturday"):
        act(s, "take_die", die="black-1")


def test_calendar_in_the_fourth_week_removes_the_disk():
    """Calendar, Stop on Sunday: in the 4th week, passing Saturday removes your disk."""
    s = new_game(roll=dice_for(("Ann", "Bob"), 2))
    b = board(s, "Ann")
    b.calendar = (4, 6)
    act(s, "take_die", die="white-1")
    act(s, "calendar")
    assert b.calendar is None


# --- Investigate ---------------------------------------------------------------------------------------
def test_investigate_moves_to_adjacent_locations_only_once_each():
    """Investigate: each move to an adjacent location; no location twice in a turn."""
    s = new_game(roll=dice_for(("Ann", "Bob"), 3))
    act(s, "take_die", die="white-1")
    with pytest.raises(RuleViolation, match="not next to"):
        act(s, "investigate", path=["brooklyn"])
    with pytest.raises(RuleViolation, match="twice"):
        act(s, "investigate", path=["queens", "east-side"])
    n = s.rules.box.allowance("investigate", 1)
    with pytest.raises(RuleViolation, match="visit"):
        act(s, "investigate", path=["queens", "flatbush", "brooklyn", "downtown"][: n + 1])


def test_investigate_again_in_the_same_turn_visits_no_location_twice():
    """Investigate: you cannot visit the same location twice in a turn (a bonus Investigate is the same turn)."""
    s = new_game(roll=dice_for(("Ann", "Bob"), 3))
    board(s, "Ann").levels["office"] = 2
    s.state.pending.clear()
    act(s, "take_die", die="white-1")
    s.state.pending.append({"kind": "bonus"})        # as if a reward had given a bonus action
    act(s, "investigate", path=["queens"], found=SUSPECT("rat-1"), draw=FF(20))
    act(s, "bonus", action="investigate")
    with pytest.raises(RuleViolation, match="twice in a turn"):
        act(s, "investigate", path=["east-side"])
    act(s, "investigate", path=["brooklyn"], found=SUSPECT("rat-2"), draw=FF(21))


def test_a_second_investigate_with_nowhere_new_to_go_is_not_offered():
    """Investigate: no location twice in a turn, so a bonus Investigate needs an unvisited neighbour."""
    s = new_game(roll=dice_for(("Ann", "Bob"), 3))
    board(s, "Ann").levels["investigate"] = 2
    act(s, "take_die", die="white-1")
    s.state.pending.append({"kind": "bonus"})
    act(s, "investigate", path=["downtown", "staten-island"], found=SUSPECT("rat-1"), draw=FF(20))
    board(s, "Ann").visited = [*board(s, "Ann").visited, "bensonhurst"]     # as if seen earlier this turn
    assert "investigate" not in s.prompt().option("bonus").targets["action"]
    with pytest.raises(RuleViolation, match="nowhere new"):
        act(s, "bonus", action="investigate")


def test_investigate_with_snitches_cover_and_a_stoolie():
    """Investigate (Yellow's examples): evidence per location from the Flimflam backs, $1 to Red for her snitch,
    his own snitch free, both flipped; the last location's Flimflam covers its suspect (the old cover goes
    under the deck); the stoolie is taken and used for $1 to peek."""
    players = ("Yellow", "Red")
    s = new_game(players, roll=dice_for(players, 3))
    s.state.snitch_at["queens"] = ("Red", "glass", False)
    s.state.snitch_at["midtown"] = ("Yellow", "telephone", False)
    y, r = board(s, "Yellow"), board(s, "Red")
    before = dict(y.evidence)
    act(s, "take_die", die="white-1")
    moving = CITY["midtown"]                      # ff-07: covers suspect 3 (its back: a notebook)
    cover = s.rules.ff(moving).cover
    s.state.covers[cover] = FF(11)                # an older card on that suspect
    s.state.ff_deck.remove(FF(11))
    stoolie = SUSPECT("stoolie-2")
    act(s, "investigate", path=["queens", "midtown"], snitches=["queens", "midtown"], found=stoolie, draw=FF(20))
    back_q, back_m = s.rules.ff(CITY["queens"]).back, s.rules.ff(moving).back
    gained = {k: y.evidence[k] - before[k] for k in before}
    want = {"glass": 0, "notebook": 0, "telephone": 0, "fedora": 0}
    for e in (back_q, back_m, "glass", "telephone"):
        want[e] += 1
    assert gained == want
    assert (y.cash, r.cash) == (0, 2)
    assert s.state.snitch_at["queens"][2] and s.state.snitch_at["midtown"][2]
    assert s.state.covers[cover] == moving and FF(11) in s.state.ff_deck
    assert s.state.city["midtown"] == FF(20) and y.location == "midtown"
    assert s.journal("Yellow").where(stoolie) == "Your suspects"
    assert s.journal("Red").where(stoolie) == "Unknown"
    assert "Stoolie" not in " ".join(s.public_log())
    # The stoolie: reveal, pay $1, peek at an uncovered suspect (Yellow earns $1 first).
    y.cash = 1
    truth = SUSPECT("frog-1")
    act(s, "use_stoolie", position=2, card=truth)
    assert y.cash == 0
    assert s.journal("Yellow").where(truth) == "Conspiracy 2"
    assert s.journal("Red").where(truth) == "Unknown"
    assert s.journal("Red").where(stoolie) == "Returned to the box"     # revealed to all
    assert "Frog" not in " ".join(s.public_log())


def test_stoolie_not_in_the_middle_of_an_action():
    """Investigate, step 2 (our reading): a stoolie is used before taking a die or after the action, never
    while an action is due (its $1 could make the action chosen impossible to pay)."""
    from engine.games.sudds_malone.state import found_place
    from engine.knowledge import private
    s = new_game(roll=dice_for(("Ann", "Bob"), 4))
    # As if Ann had found a stoolie in Queens earlier.
    token = city_token(s, "queens")
    s.state.table.move(token, found_place("Ann"))
    s.state.observe(token, SUSPECT("stoolie-1"), private("Ann"))
    board(s, "Ann").cash = 2
    act(s, "take_die", die="white-1")                     # Flimflam: Stalk costs a bullet
    with pytest.raises(RuleViolation, match="before you take a die or once your action is done"):
        act(s, "use_stoolie", position=2, card=SUSPECT("rat-3"))
    act(s, "take_flimflam", positions=[1])
    act(s, "use_stoolie", position=1, card=SUSPECT("rat-3"))
    assert s.journal("Ann").where(SUSPECT("rat-3")) == "Conspiracy 1"


def test_stoolie_cannot_peek_at_a_covered_suspect():
    """Investigate, step 2: a stoolie peeks at a suspect not covered by Flimflam."""
    s = new_game(roll=dice_for(("Ann", "Bob"), 3))
    act(s, "take_die", die="white-1")
    act(s, "investigate", path=["queens"], found=SUSPECT("stoolie-1"), draw=FF(20))
    covered = next(iter(s.state.covers))
    with pytest.raises(RuleViolation, match="covered"):
        act(s, "use_stoolie", position=covered, card=SUSPECT("mole-1"))
    assert board(s, "Ann").cash == 1


def test_the_shared_prompt_after_investigate_is_the_same_for_a_suspect_or_a_stoolie():
    """Investigate, step 2 (issue 27): the card taken is seen by its taker alone ("place it face down in
    front of you"); a Stoolie "you may reveal". The shared screen offered "Use a stoolie" exactly when the
    card was one. Now the offer, and everything else the table and the other players see, is the same
    whether Ann took a Mole or a Stoolie; behind the privacy gate she names the stoolie she reveals."""
    def after_investigate(found: str) -> Session:
        s = new_game(roll=dice_for(("Ann", "Bob"), 3))
        act(s, "take_die", die="white-1")
        act(s, "investigate", path=["queens"], found=found, draw=FF(20))
        return s

    mole, stoolie = after_investigate(SUSPECT("mole-1")), after_investigate(SUSPECT("stoolie-1"))
    assert mole.view(None) == stoolie.view(None) and mole.view("Bob") == stoolie.view("Bob")
    assert mole.rules.public_table(mole.state) == stoolie.rules.public_table(stoolie.state)
    offer = mole.prompt().option("use_stoolie")
    assert offer is not None and offer.label == "Use a stoolie ($1, peek)" and offer.private
    # Behind the gate: Ann with a Mole has none to reveal (said to her only); nothing changes.
    before = mole.view(None)
    for picked, why in ((SUSPECT("mole-1"), "is a suspect, not a stoolie"), ("", "none to reveal"),
                        (SUSPECT("stoolie-2"), "not among the cards you took")):
        with pytest.raises(RuleViolation, match=why):
            act(mole, "use_stoolie", stoolie=picked)
    assert mole.view(None) == before


def test_a_stoolie_is_revealed_then_its_peek_is_asked_privately():
    """Investigate, step 2: "reveal it and discard $1 ... to peek at a Suspect in 'The Conspiracy' that is
    not covered by Flimflam", during any of your turns: revealed to all, then the peek, a private step like
    every peek; used before taking a die, the turn goes back to taking a die."""
    s = new_game(roll=dice_for(("Ann", "Bob"), 3))
    act(s, "take_die", die="white-1")
    act(s, "investigate", path=["queens"], found=SUSPECT("stoolie-1"), draw=FF(20))
    act(s, "end_turn")
    act(s, "take_die", player="Bob", die="white-2")
    act(s, "investigate", player="Bob", path=["midtown"], found=SUSPECT("rat-1"), draw=FF(21))
    act(s, "end_turn", player="Bob")
    assert s.prompt().player == "Ann" and s.state.phase == "die"
    log = act(s, "use_stoolie", stoolie=SUSPECT("stoolie-1"))
    assert any("Ann revealed Stoolie" in line and "paid $1" in line for line in log)
    assert board(s, "Ann").cash == 0
    peek = s.prompt().option("peek")
    assert peek is not None and peek.private and "the stoolie's peek" in s.prompt().text
    assert s.prompt().option("take_die") is None                  # the peek first
    covered = set(s.state.covers)
    assert not covered & set(peek.targets["position"])
    free = peek.targets["position"][0]
    truth = SUSPECT("frog-1")
    log = act(s, "peek", position=free, card=truth)
    assert log == [f"Ann peeked at suspect {free} of the Conspiracy."]
    assert s.journal("Ann").where(truth) == f"Conspiracy {free}" and s.journal("Bob").where(truth) == "Unknown"
    assert s.journal("Bob").where(SUSPECT("stoolie-1")) == "Returned to the box"
    assert s.state.phase == "die" and s.prompt().option("take_die") is not None


def test_investigate_bullets_are_limited_by_the_board():
    """Investigate / Dice Action note: gained bullets only as many as lie on the board."""
    s = new_game(roll=dice_for(("Ann", "Bob"), 3))
    s.state.city["queens"] = FF(13)               # its back: 2 bullets
    s.state.ff_deck.append(CITY["queens"])
    s.state.ff_deck.remove(FF(13))
    s.state.board_bullets = 1
    act(s, "take_die", die="white-1")
    act(s, "investigate", path=["queens"], found=SUSPECT("rat-1"), draw=FF(20))
    assert board(s, "Ann").bullets == 3 and s.state.board_bullets == 0


# --- Flimflam -------------------------------------------------------------------------------------------
def test_flimflam_pays_each_cards_cost_and_gives_its_reward():
    """Flimflam (Stalk): costs 1 bullet and scores 3 points; placed above the file cabinet; suspect uncovered."""
    s = new_game(roll=dice_for(("Ann", "Bob"), 4))
    b = board(s, "Ann")
    score = b.score
    act(s, "take_die", die="white-1")
    act(s, "take_flimflam", positions=[1])
    assert b.score == score + 3 and b.bullets == 1 and s.state.board_bullets == 5
    assert b.above == [FF(1)] and s.state.covers == {}


def test_no_flimflam_action_without_flimflam_in_the_conspiracy():
    """Flimflam note: with no Flimflam card in the Conspiracy you cannot take the action."""
    s = new_game(roll=dice_for(("Ann", "Bob"), 4))
    s.state.covers.clear()
    with pytest.raises(RuleViolation, match="No Flimflam"):
        act(s, "take_die", die="white-1")
    act(s, "take_die", die="white-1", news=True)      # Read the News is always there


# --- Take Cases -------------------------------------------------------------------------------------------
def test_take_cases_from_display_and_deck_then_refill():
    """Take Cases: up to your level's count, from the display or the deck; refill after."""
    s = new_game(roll=dice_for(("Ann", "Bob"), 5))
    b = board(s, "Ann")
    b.levels["cases"] = 2
    deck = s.state.case_deck
    act(s, "take_die", die="white-1")
    with pytest.raises(RuleViolation, match="Turn up 1"):
        act(s, "take_cases", picks=[CASE(2), "deck"], refill=[])
    act(s, "take_cases", picks=[CASE(2), "deck"], refill=[CASE(30)])
    assert b.hand_known == [CASE(2)] and b.hand == 5
    assert s.state.display == [CASE(1), CASE(3), CASE(4), CASE(30)]
    assert s.state.case_deck == deck - 2


# --- Moxie and Read the News ---------------------------------------------------------------------------
def test_moxie_reload_then_reroll_into_calendar():
    """Moxie example (Red): she takes bullets (leaving fewer on the board), re-rolls a 2 and takes the Calendar action."""
    s = new_game(roll=dice_for(("Ann", "Bob"), 6))
    b = board(s, "Ann")
    b.levels["moxie"] = 4
    act(s, "take_die", die="white-1")
    act(s, "moxie")
    assert b.bullets == 2 + 4 and s.state.board_bullets == 0
    act(s, "reroll", value=2)
    assert s.prompt().option("calendar") is not None and s.prompt().option("take_die") is None
    act(s, "calendar")
    assert b.calendar == (1, 2)


def test_moxie_reroll_six_does_nothing():
    """Moxie: on a re-rolled 6 nothing further happens."""
    s = new_game(roll=dice_for(("Ann", "Bob"), 6))
    act(s, "take_die", die="white-1")
    act(s, "moxie")
    act(s, "reroll", value=6)
    assert s.state.phase == "after"


def test_read_the_news_with_any_die():
    """Read the News: any die gives $1, a glass/notebook/telephone and a bullet from the board."""
    s = new_game(roll=dice_for(("Ann", "Bob"), 4))
    b = board(s, "Ann")
    act(s, "take_die", die="white-1", news=True)
    with pytest.raises(RuleViolation):
        act(s, "pick_evidence", evidence="fedora")
    act(s, "pick_evidence", evidence="notebook")
    assert (b.cash, b.evidence["notebook"], b.bullets, s.state.board_bullets) == (2, 2, 3, 3)


# --- Close Cases and hunches ------------------------------------------------------------------------------
def after_action(s: Session) -> None:
    act(s, "take_die", die="white-1", news=True)
    act(s, "pick_evidence", evidence="glass")


def test_close_case_pays_evidence_with_a_fedora_for_any_one():
    """Close Cases / Case cards: discard the evidence shown; a fedora can stand for any 1 evidence."""
    s = new_game()
    b = board(s, "Ann")
    after_action(s)                                   # Ann has glass 2, notebook 1, telephone 1, fedora 1
    b.hand_known, b.hand_unknown = [CASE(1)], 2
    with pytest.raises(RuleViolation, match="needs"):
        act(s, "close_case", card=CASE(1), pay=["glass", "glass"])
    act(s, "close_case", card=CASE(1), pay=["fedora", "glass", "notebook"])   # telephone + glass + any
    c = s.rules.case(CASE(1))
    assert b.score == 1 + c.points and b.cash == 2 + c.cash
    assert b.above == [CASE(1)] and b.hand == 2


def test_close_case_not_in_hand_refused():
    """Close Cases: play Case cards from your hand."""
    s = new_game()
    after_action(s)
    board(s, "Ann").hand_unknown = 0
    with pytest.raises(RuleViolation, match="not a card in your hand"):
        act(s, "close_case", card=CASE(9), pay=["telephone"])


def test_hunch_with_a_wild_tab_and_bought_extra_draws():
    """Close Cases (Yellow's hunch, Red buys extra): an A+B card and a wild tab make a set; draw 3, pay $1 per
    extra card; keep one; Flimflam cards go under the Flimflam deck."""
    s = new_game()
    b = board(s, "Ann")
    after_action(s)
    b.above = [FF(1), FF(18)]               # Stalk: A+B; ff-18: wild
    s.state.covers.pop(1)
    s.state.ff_deck.remove(FF(18))
    b.cash = 2
    assert s.rules.ff(FF(18)).tabs == "*"
    act(s, "hunch", cards=[FF(1), FF(18)], drawn=[HUNCH(1), HUNCH(2), HUNCH(3)])
    act(s, "buy_hunch", card=HUNCH(4))
    act(s, "buy_hunch", card=HUNCH(5))
    with pytest.raises(RuleViolation, match=r"\$1"):
        act(s, "buy_hunch", card=HUNCH(6))
    act(s, "keep_hunch", card=HUNCH(5))
    assert b.hunches == [HUNCH(5)] and b.cash == 0 and b.above == []
    assert FF(1) in s.state.ff_deck and FF(18) in s.state.ff_deck
    journal = {e.card: e.where for e in s.journal("Ann").entries}
    assert all(journal[h] == "Hunch deck" for h in (HUNCH(1), HUNCH(2), HUNCH(3), HUNCH(4)))   # she knows them
    assert s.journal("Bob").entries == tuple(e for e in s.journal("Bob").entries if e.kind != "hunch")
    assert s.rules.public_table(s.state)["hunch_deck"] == 24 - 1
    assert "Hunch 5" not in " ".join(s.public_log())
    assert s.journal("Ann").where(HUNCH(5)) == "Your hunches"


def test_hunch_each_card_must_give_a_tab():
    """Close Cases, Extra tabs: every card used gives at least one tab; tabs of one card are not split."""
    s = new_game()
    b = board(s, "Ann")
    after_action(s)
    b.above = [CASE(1), CASE(7), CASE(5)]    # A, A, B+C: the second A gives nothing
    with pytest.raises(RuleViolation, match="must give a letter of A, B and C that the others do not"):
        act(s, "hunch", cards=[CASE(1), CASE(7), CASE(5)], drawn=[HUNCH(1), HUNCH(2), HUNCH(3)])
    act(s, "hunch", cards=[CASE(1), CASE(5)], drawn=[HUNCH(1), HUNCH(2), HUNCH(3)])


def test_hunch_with_a_snitch_files_cases_with_their_bonus_and_returns_the_snitch():
    """Close Cases (Red's snitch, bonus from filed Cases): a placed snitch completes the set; the Case cards are
    filed with their immediate bonus; the snitch goes back to the supply."""
    s = new_game()
    b = board(s, "Ann")
    after_action(s)
    b.above = [CASE(5), CASE(6)]            # B+C and A+C ... (case-06 files for a telephone)
    s.state.snitch_at["brooklyn"] = ("Ann", "glass", True)
    b.snitches = ["notebook", "telephone"]
    tel = b.evidence["telephone"]
    act(s, "hunch", cards=[CASE(5)], snitches=["brooklyn"], drawn=[HUNCH(1), HUNCH(2), HUNCH(3)])
    act(s, "keep_hunch", card=HUNCH(2))
    assert b.filed == [CASE(5)] and b.above == [CASE(6)]
    assert "brooklyn" not in s.state.snitch_at and sorted(b.snitches) == ["glass", "notebook", "telephone"]
    assert b.evidence["telephone"] == tel     # case-05 files a matchbook: no immediate bonus
    s.state.snitch_at["queens"] = ("Ann", "glass", False)
    b.snitches = ["notebook", "telephone"]
    b.above = [CASE(6), CASE(2)]              # A+C and B: case-06 files for a telephone
    act(s, "hunch", cards=[CASE(6), CASE(2)], snitches=[], drawn=[HUNCH(6), HUNCH(7), HUNCH(8)])
    act(s, "keep_hunch", card=HUNCH(8))
    assert b.evidence["telephone"] == tel + 1 and b.filed == [CASE(5), CASE(6), CASE(2)]
    assert s.state.snitch_at["queens"] == ("Ann", "glass", False)      # not used: stays on the board


def test_hunch_needs_at_least_one_card():
    """Close Cases: you must use at least one card to gain a hunch."""
    s = new_game()
    after_action(s)
    s.state.snitch_at["brooklyn"] = ("Ann", "glass", False)
    with pytest.raises(RuleViolation, match="at least one card"):
        act(s, "hunch", cards=[], snitches=["brooklyn"], drawn=[HUNCH(1), HUNCH(2), HUNCH(3)])


# --- End of Turn -------------------------------------------------------------------------------------------
def test_end_of_turn_limits_discard_exactly_the_extras():
    """End of Turn: keep 4 above the cabinet, 5 in hand, 6 bullets, 7 evidence; extras go back."""
    s = new_game()
    b = board(s, "Ann")
    after_action(s)
    b.above = [CASE(11), CASE(12), CASE(13), CASE(14), FF(20)]
    s.state.ff_deck.remove(FF(20))
    b.hand_unknown = 6
    b.bullets = 8
    s.state.board_bullets = 0
    act(s, "end_turn")
    assert s.state.phase == "limits"
    with pytest.raises(RuleViolation, match="exactly"):
        act(s, "discard", above=[FF(20)], hand=[CASE(40)], bullets=1)
    deck, ff = s.state.case_deck, len(s.state.ff_deck)
    act(s, "discard", above=[FF(20)], hand=[CASE(40)], bullets=2, evidence={"glass": 0})
    assert (len(b.above), b.hand, b.bullets, s.state.board_bullets) == (4, 5, 6, 2)
    assert s.state.case_deck == deck + 1 and len(s.state.ff_deck) == ff + 1
    assert s.prompt().player == "Bob"


# --- End of Round -----------------------------------------------------------------------------------------
def finish_round(s: Session) -> None:
    """Everyone reads the news with the dice left (what they gain does not matter here)."""
    while s.state.phase not in ("roll", "reveal"):
        p = s.prompt().player
        if s.state.phase == "die":
            act(s, "take_die", die=s.rules.legal_dice(s.state, p)[0], news=True)
        elif s.state.phase == "pending":
            act(s, "pick_evidence", evidence="glass")
        elif s.state.phase == "after":
            act(s, "end_turn")
        elif s.state.phase == "limits":
            over = s.rules.over_limits(s.state, p)
            act(s, "discard", bullets=over.get("bullets", 0), evidence={"glass": over.get("evidence", 0)})


def test_cat_attack_tie_goes_to_the_most_recent_arrival():
    """End of Round, Cat Attacks (Blue's example): two cats cost the leader 4 points; Blue reached the same
    score as Yellow later (on top of the stack), so Blue loses them."""
    players = ("Yellow", "Blue", "Red")
    s = new_game(players, roll=dice_for(players, 6))
    s.state.covers.update({3: FF(12), 4: FF(16)})        # two cats
    s.state.ff_deck.remove(FF(12))
    s.state.ff_deck.remove(FF(16))
    assert s.rules.ff(FF(12)).cat and s.rules.ff(FF(16)).cat and not s.rules.ff(FF(1)).cat
    s.state.add_score("Yellow", 9, "cases")     # 1 -> 10
    s.state.add_score("Blue", 8, "cases")       # 2 -> 10, arriving after Yellow
    finish_round(s)
    assert (board(s, "Yellow").score, board(s, "Blue").score) == (10, 6)
    assert board(s, "Blue").sources["cats"] == -4


def test_badge_passes_to_fewest_bullets_left_from_the_holder_on_a_tie():
    """End of Round, Pass the Detective Badge: Player 1 (holder) 2 bullets, Player 2 3, Player 3 2: Player 3."""
    players = ("P1", "P2", "P3")
    s2 = new_game(players, roll=dice_for(players, 6))
    s2.state.board_bullets = 0                     # news gives no bullets: counts stay as set
    for p, n in (("P1", 2), ("P2", 3), ("P3", 2)):
        board(s2, p).bullets = n
    finish_round(s2)
    assert s2.state.badge == "P3" and s2.prompt().player == "P3"


def test_end_of_round_refreshes_snitches_and_restacks_the_calendar():
    """End of Round: disks to the next week's Sunday; flipped snitches flipped back."""
    s = new_game(roll=dice_for(("Ann", "Bob"), 6))
    s.state.snitch_at["queens"] = ("Bob", "glass", True)
    board(s, "Bob").calendar = (1, 4)
    finish_round(s)
    assert s.state.snitch_at["queens"] == ("Bob", "glass", False)
    assert board(s, "Ann").calendar == (2, 0) and board(s, "Bob").calendar == (2, 0)


# --- End of Game -------------------------------------------------------------------------------------------
def test_final_scoring_and_tie_to_the_badge_holder():
    """End of Game: tokens / 2, matchbooks, hunches against the revealed Conspiracy; a tie goes to the tied
    player nearest the badge holder in turn order (the holder first)."""
    s = new_game(roll=dice_for(("Ann", "Bob"), 6))
    for _ in range(4):
        finish_round(s)
        if s.state.phase == "roll":
            act(s, "roll", dice=dice_for(("Ann", "Bob"), 6))
    assert s.state.phase == "reveal"
    a, b = board(s, "Ann"), board(s, "Bob")
    a.hunches, b.hunches = [HUNCH(1)], []
    a.filed = [CASE(1), CASE(25), CASE(41)]       # three stork-club matchbooks
    cons = [SUSPECT("mole-1"), SUSPECT("mole-2"), SUSPECT("rat-1"), SUSPECT("frog-3")]
    a_before, b_before = a.score, b.score
    tokens_a = (a.cash + a.bullets + a.evidence_total) // 2
    act(s, "reveal", player=s.state.badge, cards=cons)
    h = s.rules.hunch(HUNCH(1)).points
    assert s.state.final["Ann"] == {"tokens": tokens_a, "matchbooks": 5,
                                    "hunches": 2 * h["mole"] + h["rat"] + h["frog"]}
    assert a.score == a_before + sum(s.state.final["Ann"].values())
    assert b.score == b_before + sum(s.state.final["Bob"].values())
    assert s.outcome is not None
    for p in ("Ann", "Bob"):
        assert board(s, p).score == sum(board(s, p).sources.values())


def test_reveal_refuses_a_stoolie_in_the_conspiracy():
    """Game Setup 2-3: the Conspiracy holds 4 suspects, never a stoolie."""
    s = new_game(roll=dice_for(("Ann", "Bob"), 6))
    s.state.phase = "reveal"
    with pytest.raises(BadInput):
        act(s, "reveal", cards=[SUSPECT("stoolie-1"), SUSPECT("mole-2"), SUSPECT("rat-1"), SUSPECT("frog-3")])


# --- Privacy ------------------------------------------------------------------------------------------------
def test_a_peek_is_private_and_the_journal_shows_it_as_covered_later():
    """Calendar, Peek at the Conspiracy (Red's example): she secretly looks at suspect 1, telling no one."""
    s = new_game(roll=dice_for(("Ann", "Bob"), 2))
    s.state.covers.clear()
    s.state.ff_deck.append(FF(1))
    b = board(s, "Ann")
    b.calendar = (1, 2)                              # Tuesday: Wednesday is a peek day, Thursday news
    act(s, "take_die", die="white-1")
    act(s, "calendar")
    with pytest.raises(BadInput):
        act(s, "peek", position=9, card=SUSPECT("mole-1"))
    with pytest.raises(BadInput, match="never a stoolie"):
        act(s, "peek", position=1, card=SUSPECT("stoolie-1"))
    act(s, "peek", position=1, card=SUSPECT("mole-2"))
    assert s.journal("Ann").where(SUSPECT("mole-2")) == "Conspiracy 1"
    assert s.journal("Bob").where(SUSPECT("mole-2")) == "Unknown"
    shared = " ".join(s.public_log() + s.undo_history())
    assert "Mole" not in shared and "mole" not in shared
    s.state.covers[1] = FF(1)
    assert s.journal("Ann").where(SUSPECT("mole-2")) == "Conspiracy 1 (covered)"


def test_wrong_player_refused_and_nothing_changes():
    """How to Play: players take turns in order."""
    s = new_game()
    before = board(s, "Ann").to_json()
    with pytest.raises(RuleViolation, match="Ann's move"):
        act(s, "take_die", player="Bob", die="white-1", news=True)
    assert board(s, "Ann").to_json() == before


def test_a_peek_that_contradicts_your_own_notes_is_asked_about_then_confirmed():
    """Checking what the camera reports (as in every game): a suspect you hold read again in the Conspiracy
    is a misread or a mix-up; the engine asks, and ``confirm`` makes the new sighting your note."""
    from engine.errors import Contradiction
    s = new_game(roll=dice_for(("Ann", "Bob"), 3))
    act(s, "take_die", die="white-1")
    act(s, "investigate", path=["queens"], found=SUSPECT("mole-1"), draw=FF(20))
    act(s, "end_turn")
    act(s, "take_die", die="white-2", news=True)
    act(s, "pick_evidence", evidence="glass")
    act(s, "end_turn")
    board(s, "Ann").calendar = (1, 2)
    s.state.dice["black-1"] = 2
    act(s, "take_die", die="black-1")
    act(s, "calendar")                                    # Wednesday: a peek
    with pytest.raises(Contradiction):
        act(s, "peek", position=2, card=SUSPECT("mole-1"))
    act(s, "peek", position=2, card=SUSPECT("mole-1"), confirm=True)
    assert s.journal("Ann").where(SUSPECT("mole-1")) == "Conspiracy 2"


def test_hunch_cards_put_back_together_may_come_up_in_any_order():
    """Close Cases (Gain a Hunch: "the rest to the bottom"): the cards drawn are shown as a set, and the order of
    cards put back together is nobody's note: drawn again in the other order, no question is asked."""
    from engine.games.sudds_malone.state import BOX_PLACE, HUNCH_PILE
    s = new_game()
    b = board(s, "Ann")
    after_action(s)
    b.above = [CASE(4), CASE(3)]
    act(s, "hunch", cards=[CASE(4), CASE(3)], drawn=[HUNCH(1), HUNCH(2), HUNCH(3)])
    act(s, "keep_hunch", card=HUNCH(2))
    table = s.state.table
    for token in table.at(HUNCH_PILE)[2:]:         # the deck runs down to the two cards Ann put back
        table.move(token, BOX_PLACE)
    b.above = [CASE(1), CASE(5)]
    act(s, "hunch", cards=[CASE(1), CASE(5)], drawn=[HUNCH(3), HUNCH(1)])
    j = s.journal("Ann")
    assert j.where(HUNCH(1)) == "Just drawn" and j.where(HUNCH(3)) == "Just drawn"


def test_a_hunch_card_returned_under_the_deck_is_remembered_and_a_misread_is_asked_about():
    """Close Cases: the hunch cards not kept go to the bottom of the deck (the player knows which); one of them
    read again on top of the deck clashes with that note: the engine asks, ``confirm`` corrects it."""
    from engine.errors import Contradiction
    s = new_game()
    b = board(s, "Ann")
    after_action(s)
    b.above = [CASE(4), CASE(3)]                  # A+B and C
    act(s, "hunch", cards=[CASE(4), CASE(3)], drawn=[HUNCH(1), HUNCH(2), HUNCH(3)])
    act(s, "keep_hunch", card=HUNCH(2))
    assert s.journal("Ann").where(HUNCH(1)) == "Hunch deck" and s.journal("Ann").where(HUNCH(2)) == "Your hunches"
    b.above = [CASE(1), CASE(5)]                  # A and B+C
    with pytest.raises(Contradiction):
        act(s, "hunch", cards=[CASE(1), CASE(5)], drawn=[HUNCH(1), HUNCH(7), HUNCH(8)])
    act(s, "hunch", cards=[CASE(1), CASE(5)], drawn=[HUNCH(1), HUNCH(7), HUNCH(8)], confirm=True)
    assert s.journal("Ann").where(HUNCH(1)) == "Just drawn"


def test_which_hunch_card_is_kept_is_told_to_nobody_else():
    """Close Cases, Draw hunch cards: "secretly choose and keep only one hunch card ... return the others ...
    to the bottom of the hunch deck". Bob once saw a card that Ann now draws (he had put it under the deck):
    whether she keeps it or puts it back, Bob's journal reads the same (issue 27: it said "Ann's hunches"
    when she kept it and "Hunch deck" when she did not)."""
    from engine.games.sudds_malone.state import HUNCH_PILE
    from engine.knowledge import private

    def ann_keeps(card: str) -> Session:
        s = new_game()
        top = s.state.table.at(HUNCH_PILE)[-1]
        s.state.observe(top, HUNCH(1), private("Bob"))          # as if Bob had drawn it and put it back
        after_action(s)
        board(s, "Ann").above = [CASE(4), CASE(3)]
        act(s, "hunch", cards=[CASE(4), CASE(3)], drawn=[HUNCH(1), HUNCH(2), HUNCH(3)])
        assert s.journal("Bob").where(HUNCH(1)) == "Drawn by Ann"     # he saw it go, as everyone saw
        act(s, "keep_hunch", card=card)
        return s

    kept, returned = ann_keeps(HUNCH(1)), ann_keeps(HUNCH(2))
    assert kept.journal("Bob") == returned.journal("Bob")
    assert HUNCH(1) not in [e.card for e in kept.journal("Bob").entries]   # kept or under the deck: he cannot tell
    assert kept.view(None) == returned.view(None)
    assert kept.journal("Ann").where(HUNCH(1)) == "Your hunches"
    assert returned.journal("Ann").where(HUNCH(1)) == "Hunch deck"


# --- Investigate, step 1: the Flimflam turned face up (its face is read) ---------------------------------
def _state_of_flimflams(s: Session) -> tuple:
    return dict(s.state.city), dict(s.state.covers), sorted(s.state.ff_deck), s.state.phase


def test_investigate_face_read_from_the_deck_exchanges_the_alike_cards():
    """Investigate 1 ("placing it face up over the Suspect indicated on its back"): the deal named Queens'
    card by its back (a fedora, suspect 4); turned up it is another card with that back, still in the deck.
    The two notes are exchanged: the face read covers suspect 4, the card first noted joins the deck."""
    s = new_game(roll=dice_for(("Ann", "Bob"), 3))
    assert CITY["queens"] == FF(4) and FF(20) in s.state.ff_deck        # both: a fedora, suspect 4
    act(s, "take_die", die="white-1")
    before = _state_of_flimflams(s)
    with pytest.raises(RuleViolation, match="not in the Flimflam deck"):   # ff-20 is the card turned up now
        act(s, "investigate", path=["queens"], found=SUSPECT("rat-1"), draw=FF(20), face=FF(20))
    assert _state_of_flimflams(s) == before
    texts = act(s, "investigate", path=["queens"], found=SUSPECT("rat-1"), draw=FF(12), face=FF(20))
    assert s.state.covers[4] == FF(20)
    assert FF(4) in s.state.ff_deck and FF(20) not in s.state.ff_deck
    assert s.state.city["queens"] == FF(12)
    assert board(s, "Ann").evidence["fedora"] == 2                           # the back's evidence
    assert any("turned up at Queens is" in t and s.rules.deck.name_of(FF(20)) in t for t in texts)


def test_investigate_face_read_exchanges_with_a_face_down_card_on_another_location():
    """Investigate 1 and Game Setup 4: two face-down cards with one back are alike; the face read at the
    last location moves the other note to the location where the card read was believed to lie."""
    city = {**CITY, "brooklyn": FF(12)}                                      # ff-12 and ff-04: fedora, suspect 4
    s = Session.new("sudds-malone", ["Ann", "Bob"], {"box_file": None})
    s.apply({"type": "deal", "player": "Ann", "city": city, "conspiracy": FF(1), "display": DISPLAY})
    s.apply({"type": "roll", "player": "Ann", "dice": dice_for(("Ann", "Bob"), 3)})
    act(s, "take_die", die="white-1")
    act(s, "investigate", path=["queens"], found=SUSPECT("rat-1"), draw=FF(20), face=FF(12))
    assert s.state.covers[4] == FF(12)
    assert s.state.city["brooklyn"] == FF(4)                                 # the alike card, still face down
    assert s.state.city["queens"] == FF(20)
    ids = [c for c in s.state.city.values() if c] + list(s.state.covers.values()) + s.state.ff_deck
    assert sorted(ids) == sorted(c.id for c in s.rules.deck.of_kind("flimflam"))


def test_investigate_face_with_another_back_is_refused_and_changes_nothing():
    """Investigate 1: the card covers "the Suspect indicated on its back": a face whose back differs from the
    back everyone saw (Queens: a fedora, suspect 4) is a misread, refused in words."""
    s = new_game(roll=dice_for(("Ann", "Bob"), 3))
    act(s, "take_die", die="white-1")
    before, log = _state_of_flimflams(s), list(s.public_log())
    with pytest.raises(RuleViolation, match="Read the face again") as err:
        act(s, "investigate", path=["queens"], found=SUSPECT("rat-1"), draw=FF(20), face=FF(5))
    assert "back" in str(err.value) and "Queens" in str(err.value)
    assert _state_of_flimflams(s) == before and list(s.public_log()) == log
    assert board(s, "Ann").location == "east-side"


def test_investigate_face_already_seen_is_refused():
    """Investigate 1: a card face up on the Conspiracy cannot also be the one turned up at Downtown."""
    s = new_game(roll=dice_for(("Ann", "Bob"), 3))
    s.state.covers[4] = FF(16)                                               # telephone, suspect 4, face up
    s.state.ff_deck.remove(FF(16))
    act(s, "take_die", die="white-1")
    assert CITY["downtown"] == FF(8)                                         # telephone, suspect 4
    with pytest.raises(RuleViolation, match="already face up"):
        act(s, "investigate", path=["downtown"], found=SUSPECT("rat-1"), draw=FF(24), face=FF(16))
    act(s, "investigate", path=["downtown"], found=SUSPECT("rat-1"), draw=FF(16), face=FF(24))
    assert s.state.covers[4] == FF(24) and s.state.city["downtown"] == FF(16) and FF(8) in s.state.ff_deck


def test_face_candidates_are_the_unseen_cards_with_the_same_back():
    """Game Setup 4-5: a face-down card is known only by its back (evidence or bullets, suspect to cover)."""
    s = new_game()
    assert s.rules.face_candidates(s.state, "queens") == [FF(4), FF(12), FF(20)]
    assert s.rules.face_candidates(s.state, "staten-island") == [FF(9), FF(17)]   # ff-01 is face up


def test_the_face_read_names_no_face_down_card_where_it_lies():
    """Privacy: a face-down card's identity is nobody's knowledge until turned up; the public log names the
    card turned up and never says which card lies face down where."""
    city = {**CITY, "brooklyn": FF(12)}
    s = Session.new("sudds-malone", ["Ann", "Bob"], {"box_file": None})
    s.apply({"type": "deal", "player": "Ann", "city": city, "conspiracy": FF(1), "display": DISPLAY})
    s.apply({"type": "roll", "player": "Ann", "dice": dice_for(("Ann", "Bob"), 3)})
    act(s, "take_die", die="white-1")
    texts = act(s, "investigate", path=["queens"], found=SUSPECT("rat-1"), draw=FF(20), face=FF(12))
    assert not any("Brooklyn" in t for t in texts)
    table = repr(s.rules.public_table(s.state))
    assert "ff-04" not in table and "ff-20" not in table
