"""Sudds & Malone: rules that say "one" or "any one" (never "all"), and components that depend on the
number of players, checked for draws, deals and reads. Each test names the rulebook section.

The values the tests depend on (which cards carry a wild tab, which hunch cards are marked "3+" or "4")
are read from the shipped box, not written here.
"""

from __future__ import annotations

import re

import pytest

from engine.errors import BadInput, RuleViolation
from engine.session import Session

from .test_sudds_malone_table import CITY, DISPLAY, FF, SUSPECT, act, board, dice_for, new_game

PLAYERS = ("Ann", "Bob", "Cyd", "Dee")


@pytest.fixture(autouse=True)
def _no_family_box(tmp_path, monkeypatch):
    monkeypatch.setenv("GUMSHOE_HOME", str(tmp_path / "home"))


def after_action(s: Session) -> None:
    """The first player reads the news (any die) and is then free to close cases and gain hunches."""
    act(s, "take_die", die="white-1", news=True)
    act(s, "pick_evidence", evidence="glass")


def above(s: Session, *cards: str) -> None:
    """Lay these cards above the first player's file cabinet (Flimflam cards leave the deck or the cover)."""
    for c in cards:
        if c in s.state.ff_deck:
            s.state.ff_deck.remove(c)
        for pos, card in list(s.state.covers.items()):
            if card == c:
                s.state.covers.pop(pos)
    board(s, s.prompt().player).above = list(cards)


def wild(s: Session, n: int = 1) -> list[str]:
    """Flimflam cards whose only tab is wild (the box's reading)."""
    cards = [f"sudds.flimflam.{k}" for k, f in sorted(s.rules.box.flimflams.items()) if f.tabs == "*"]
    assert len(cards) >= n
    return cards[:n]


def case_with(s: Session, tabs: str) -> str:
    return next(f"sudds.case.{k}" for k, c in sorted(s.rules.box.cases.items()) if c.tabs == tabs)


def marked(s: Session, mark: str) -> list[str]:
    return [f"sudds.hunch.{k}" for k, h in sorted(s.rules.box.hunches.items()) if h.players == mark]


def top3(s: Session) -> list[str]:
    return list(s.state.hunches_in_play[:3])


def snapshot(s: Session) -> tuple:
    """What the table and every player can see, and whose move it is."""
    st = s.state
    return s.rules.public_table(st), [s.journal(p).entries for p in st.players], st.phase, s.prompt().text


# --- Close Cases, Gain a hunch: a wild tab or a snitch gives ONE letter -----------------------------------
def test_flimflam_18_alone_is_not_a_whole_set():
    """Close Cases, Gain a hunch: a "wild" tab can substitute for any ONE tab, so a Flimflam card with only a
    wild tab gives one letter: alone it is no A-B-C set. Refused in words, nothing changes."""
    s = new_game()
    after_action(s)
    assert s.rules.ff(FF(18)).tabs == "*"
    above(s, FF(18))
    before = snapshot(s)
    with pytest.raises(RuleViolation, match=r"only 1 of the letters A, B and C: a wild tab or a snitch stands for "
                                            r"one letter only") as refused:
        act(s, "hunch", cards=[FF(18)], drawn=top3(s))
    assert refused.value.section == "Close Cases"
    assert snapshot(s) == before and board(s, "Ann").above == [FF(18)]


def test_a_case_with_tab_a_and_one_snitch_is_not_a_set():
    """Close Cases, Gain a hunch: each placed snitch counts as one additional tab; a Case with only tab A and
    one snitch give two letters, not three."""
    s = new_game()
    after_action(s)
    a_case = case_with(s, "A")
    above(s, a_case)
    s.state.snitch_at["brooklyn"] = ("Ann", "glass", False)
    before = snapshot(s)
    with pytest.raises(RuleViolation, match="only 2 of the letters A, B and C"):
        act(s, "hunch", cards=[a_case], snitches=["brooklyn"], drawn=top3(s))
    assert snapshot(s) == before and "brooklyn" in s.state.snitch_at


def test_two_wild_tabs_give_two_letters_and_a_third_item_completes_the_set():
    """Close Cases, Gain a hunch: each wild tab is one letter: two wild Flimflam cards give two letters;
    with a Case giving the third they make a set."""
    s = new_game()
    after_action(s)
    w1, w2 = wild(s, 2)
    a_case = case_with(s, "A")
    above(s, w1, w2, a_case)
    with pytest.raises(RuleViolation, match="only 2 of the letters"):
        act(s, "hunch", cards=[w1, w2], drawn=top3(s))
    act(s, "hunch", cards=[w1, w2, a_case], drawn=top3(s))
    assert s.state.hunch_set["cards"] == (w1, w2, a_case)


def test_the_rulebooks_example_a_and_b_with_a_wild_used_as_c_is_a_set():
    """Close Cases, Gain a hunch (Yellow's example): a Flimflam card with A and B and a second one whose 'wild'
    is used as a C complete a set of A-B-C."""
    s = new_game()
    after_action(s)
    assert s.rules.ff(FF(1)).tabs == "AB"
    above(s, FF(1), FF(18))
    act(s, "hunch", cards=[FF(1), FF(18)], drawn=top3(s))
    assert s.state.phase == "pending" and len(s.state.drawn) == 3


def test_a_case_with_tab_a_and_two_snitches_is_a_set():
    """Close Cases, Gain a hunch (Red's snitch example): each snitch is one more tab; with the box's reading
    (a snitch is a wild tab) a Case with A and two snitches give A, B and C."""
    s = new_game()
    after_action(s)
    assert s.rules.box.snitch_tab == "wild"
    a_case = case_with(s, "A")
    above(s, a_case)
    s.state.snitch_at["brooklyn"] = ("Ann", "glass", False)
    s.state.snitch_at["queens"] = ("Ann", "notebook", True)          # flipped or not: both count
    act(s, "hunch", cards=[a_case], snitches=["brooklyn", "queens"], drawn=top3(s))
    act(s, "keep_hunch", card=s.state.drawn[0])
    assert "brooklyn" not in s.state.snitch_at and "queens" not in s.state.snitch_at


@pytest.mark.parametrize("tabs, ok", [
    (["*"], False), (["*", "*"], False), (["*", "*", "*"], True), (["A", "*"], False), (["AB", "*"], True),
    (["A*", "C"], True), (["A*"], False), (["ABC"], True), (["A", "A", "BC"], False), (["AB", "BC"], True),
    (["A", "B", "C", "*"], False)])
def test_the_set_rule_item_by_item(tabs, ok):
    """Close Cases, Gain a hunch: a card gives its printed letters, a wild tab one letter of its choice, and
    every item used gives a letter the others do not (extra tabs are ignored)."""
    from engine.games.sudds_malone.rules import SuddsRules
    assert SuddsRules.makes_set(tabs) is ok
    problem = SuddsRules.set_problem(tabs)
    assert (problem is None) is ok
    if not ok:
        assert "letter" in problem


def test_a_card_used_for_a_hunch_cannot_be_used_again():
    """Close Cases: a card with several tabs can only be used for one hunch (the Case is filed, the
    Flimflam goes under its deck)."""
    s = new_game()
    after_action(s)
    ab = case_with(s, "AB")
    above(s, ab, FF(18))
    act(s, "hunch", cards=[ab, FF(18)], drawn=top3(s))
    act(s, "keep_hunch", card=s.state.drawn[1])
    assert board(s, "Ann").filed == [ab]
    with pytest.raises(RuleViolation, match="above your file cabinet"):
        act(s, "hunch", cards=[ab], drawn=list(s.state.hunches_in_play[3:6]))


def test_only_one_hunch_card_is_kept():
    """Close Cases, Draw hunch cards: keep only ONE hunch card; the others go under the deck."""
    s = new_game()
    after_action(s)
    above(s, FF(1), FF(18))
    drawn = top3(s)
    act(s, "hunch", cards=[FF(1), FF(18)], drawn=drawn)
    act(s, "keep_hunch", card=drawn[0])
    with pytest.raises(RuleViolation):
        act(s, "keep_hunch", card=drawn[1])
    assert board(s, "Ann").hunches == [drawn[0]]
    assert s.rules.public_table(s.state)["hunch_deck"] == len(s.state.hunches_in_play) - 1


# --- Game Setup 7: hunch cards left in the box by the number of players ----------------------------------
@pytest.mark.parametrize("n, mark", [(2, "3+"), (2, "4"), (3, "4")])
def test_a_hunch_card_left_in_the_box_cannot_be_drawn(n, mark):
    """Game Setup 7: keep the cards marked "3+" only with 3 or 4 players, those marked "4" only with 4. A card
    left in the box read as drawn is refused in words; nothing changes."""
    s = new_game(PLAYERS[:n])
    after_action(s)
    above(s, FF(1), FF(18))
    out = marked(s, mark)[0]
    assert out not in s.state.hunches_in_play
    before = snapshot(s)
    words = f'is not in this game\'s hunch deck: it is marked "{mark}"'
    with pytest.raises(RuleViolation, match=re.escape(words)) as refused:
        act(s, "hunch", cards=[FF(1), FF(18)], drawn=[out, *top3(s)[:2]])
    assert refused.value.section == "Game Setup" and f"with {n} players it stays in the box" in refused.value.message
    assert snapshot(s) == before


@pytest.mark.parametrize("n, mark", [(3, "3+"), (4, "3+"), (4, "4")])
def test_a_hunch_card_kept_for_this_player_count_can_be_drawn(n, mark):
    """Game Setup 7: with 3 or 4 players the "3+" cards are in the deck, with 4 the "4" cards too."""
    s = new_game(PLAYERS[:n])
    after_action(s)
    above(s, FF(1), FF(18))
    card = marked(s, mark)[0]
    assert card in s.state.hunches_in_play
    act(s, "hunch", cards=[FF(1), FF(18)], drawn=[card, *[c for c in top3(s) if c != card][:2]])
    assert card in s.state.drawn


def test_a_bought_hunch_card_left_in_the_box_is_refused():
    """Game Setup 7 and Close Cases (buy extra hunch cards): with 2 players a card marked "4" cannot be the
    extra card drawn for $1; the $1 is not taken."""
    s = new_game()
    after_action(s)
    above(s, FF(1), FF(18))
    act(s, "hunch", cards=[FF(1), FF(18)], drawn=top3(s))
    cash = board(s, "Ann").cash
    out = marked(s, "4")[-1]
    with pytest.raises(RuleViolation, match='marked "4", kept only with 4 players'):
        act(s, "buy_hunch", card=out)
    assert board(s, "Ann").cash == cash and len(s.state.drawn) == 3
    act(s, "buy_hunch", card=s.state.hunches_in_play[3])
    assert board(s, "Ann").cash == cash - 1


def test_a_hunch_card_left_in_the_box_cannot_be_kept():
    """Game Setup 7: a card left in the box for this number of players is never kept (nor scored)."""
    s = new_game(PLAYERS[:3])
    after_action(s)
    above(s, FF(1), FF(18))
    act(s, "hunch", cards=[FF(1), FF(18)], drawn=top3(s))
    out = marked(s, "4")[0]
    with pytest.raises(RuleViolation, match="with 3 players it stays in the box"):
        act(s, "keep_hunch", card=out)
    assert board(s, "Ann").hunches == []


@pytest.mark.parametrize("n, seed", [(2, 1), (3, 2)])
def test_the_simulated_table_draws_only_hunch_cards_in_play(n, seed):
    """Game Setup 7: the simulated table's hunch deck holds only the cards in play, so every hunch card its
    players draw or buy is one of them."""
    s = Session.new("sudds-malone", list(PLAYERS[:n]), {"box_file": None})
    sim = s.rules.simulator(s.initial, seed)
    drawn: list[str] = []
    for _ in range(3000):
        if s.outcome is not None:
            break
        action = sim.random_action(s)
        drawn += action.get("drawn", []) + ([action["card"]] if action["type"] == "buy_hunch" else [])
        s.apply(action)
    assert drawn, "no hunch card was drawn: the check saw nothing"
    assert set(drawn) <= set(s.state.hunches_in_play)
    left_out = {f"sudds.hunch.{k}" for k, h in s.rules.box.hunches.items()
                if h.players == "4" or (h.players == "3+" and n < 3)}
    assert left_out and not left_out & set(s.state.hunches_in_play)


# --- Game Setup 18: the dice pool by the number of players --------------------------------------------------
@pytest.mark.parametrize("n, extra", [(3, "white-4"), (2, "personal-Cyd"), (4, "grey-5")])
def test_a_die_outside_the_pool_is_refused_in_the_roll_and_when_taken(n, extra):
    """Game Setup 18 (and its 2-player note), Player Setup 9 note: 1 white, black and grey die per player (one
    more of each with 2) and the players' own personal dice; a die left in the box is neither rolled nor
    taken."""
    players = PLAYERS[:n]
    s = new_game(players, roll=dice_for(players, 6))
    with pytest.raises(BadInput, match="There is no die"):
        act(s, "take_die", die=extra, news=True)
    s2 = new_game(players, deal=False)
    act(s2, "deal", city=CITY, conspiracy=FF(1), display=DISPLAY)
    with pytest.raises(BadInput, match="Give a value for every die of the pool"):
        act(s2, "roll", dice={**dice_for(players, 3), extra: 3})
    assert s2.state.phase == "roll"


# --- one evidence, one peek, one choice ---------------------------------------------------------------------
def test_read_the_news_gives_one_evidence_not_one_of_each():
    """Read the News: $1, plus 1 glass, notebook OR telephone, plus 1 bullet; a second pick is refused."""
    s = new_game(roll=dice_for(("Ann", "Bob"), 4))
    b = board(s, "Ann")
    total = b.evidence_total
    act(s, "take_die", die="white-1", news=True)
    act(s, "pick_evidence", evidence="telephone")
    with pytest.raises(RuleViolation, match="not the step now"):
        act(s, "pick_evidence", evidence="glass")
    assert b.evidence_total == total + 1


def test_a_flimflam_that_gives_evidence_gives_one_of_your_choice():
    """Flimflam, Choose evidence: whenever the symbol shows, choose ONE evidence (a glass, notebook or
    telephone); a second pick is refused."""
    s = new_game(roll=dice_for(("Ann", "Bob"), 4))
    b = board(s, "Ann")
    card = next(c for c in sorted(s.state.ff_deck)
                if s.rules.ff(c).reward == ("evidence",) and s.rules.ff(c).cost == "cash")
    s.state.ff_deck.remove(card)
    s.state.ff_deck.append(s.state.covers.pop(1))
    pos = s.rules.ff(card).cover
    s.state.covers[pos] = card
    total = b.evidence_total
    act(s, "take_die", die="white-1")
    act(s, "take_flimflam", positions=[pos])
    act(s, "pick_evidence", evidence="notebook")
    with pytest.raises(RuleViolation, match="not the step now"):
        act(s, "pick_evidence", evidence="glass")
    assert b.evidence_total == total + 1 and b.above == [card]


def test_cash_or_points_gives_one_of_the_two():
    """Calendar, Cash or Points: take $1 OR score 2 points, not both."""
    s = new_game(roll=dice_for(("Ann", "Bob"), 4))
    b = board(s, "Ann")
    act(s, "take_die", die="white-1", news=True)
    act(s, "pick_evidence", evidence="glass")
    s.state.pending.append({"kind": "cash_or_points"})      # as a Calendar day would give
    s.state.phase = "pending"
    cash, score = b.cash, b.score
    act(s, "cash_or_points", choice="cash")
    with pytest.raises(RuleViolation):
        act(s, "cash_or_points", choice="points")
    assert (b.cash, b.score) == (cash + 1, score)


def test_a_peek_looks_at_one_suspect():
    """The Office / Calendar, Peek: secretly look at ONE face-down suspect; a second look is refused."""
    s = new_game(roll=dice_for(("Ann", "Bob"), 4))
    act(s, "take_die", die="white-1", news=True)
    act(s, "pick_evidence", evidence="glass")
    s.state.pending.append({"kind": "peek"})                # as a level or a Calendar day would give
    s.state.phase = "pending"
    act(s, "peek", position=2, card=SUSPECT("mole-1"))
    with pytest.raises(RuleViolation, match="not the step now"):
        act(s, "peek", position=3, card=SUSPECT("rat-1"))
    assert s.journal("Ann").where(SUSPECT("rat-1")) == "Unknown"


def test_a_fedora_stands_for_one_evidence_not_two():
    """Game Setup 6 and Case cards: a fedora may substitute for any 1 evidence; one fedora cannot pay for two."""
    s = new_game()
    after_action(s)
    b = board(s, "Ann")
    card = next(f"sudds.case.{k}" for k, c in sorted(s.rules.box.cases.items()) if len(c.cost) == 2)
    b.hand_known, b.hand_unknown = [card], 2
    b.evidence["fedora"] = 1
    with pytest.raises(RuleViolation, match="a fedora can stand for any one"):
        act(s, "close_case", card=card, pay=["fedora"])
    assert b.hand_known == [card] and b.evidence["fedora"] == 1


def test_a_snitch_gives_its_evidence_once_a_round():
    """Investigate, Visit a Snitch: the snitch's evidence once, then it is flipped; nobody may take it again
    until the next round."""
    s = new_game(roll=dice_for(("Ann", "Bob"), 3))
    s.state.snitch_at["queens"] = ("Ann", "glass", True)     # already used this round
    act(s, "take_die", die="white-1")
    with pytest.raises(RuleViolation, match="already used this round"):
        act(s, "investigate", path=["queens"], snitches=["queens"], found=SUSPECT("rat-1"), draw=FF(20))


def test_a_stoolie_gives_one_peek_and_goes_to_the_box():
    """Investigate, step 2: reveal the stoolie and pay $1 to peek at ONE suspect; it then returns to the box,
    so it cannot be used again."""
    s = new_game(roll=dice_for(("Ann", "Bob"), 3))
    act(s, "take_die", die="white-1")
    act(s, "investigate", path=["queens"], found=SUSPECT("stoolie-1"), draw=FF(20))
    board(s, "Ann").cash = 5
    free = [p for p in (1, 2, 3, 4) if p not in s.state.covers]
    act(s, "use_stoolie", position=free[0], card=SUSPECT("mole-1"))
    with pytest.raises(RuleViolation, match="no stoolie"):
        act(s, "use_stoolie", position=free[1], card=SUSPECT("rat-1"))
    assert board(s, "Ann").cash == 4


# --- End of Game: remaining tokens --------------------------------------------------------------------------
def test_cash_counts_one_token_per_dollar():
    """End of Game 1, Remaining tokens (our reading, docs/rules/sudds-malone.md): cash counts by its value, each
    dollar one token, so a $5 token counts as five; the final words say so."""
    from .test_sudds_malone_rules import finish_round
    s = new_game(roll=dice_for(("Ann", "Bob"), 6))
    for _ in range(4):
        finish_round(s)
        if s.state.phase == "roll":
            act(s, "roll", dice=dice_for(("Ann", "Bob"), 6))
    a = board(s, "Ann")
    a.cash, a.bullets = 7, 0
    for e in a.evidence:
        a.evidence[e] = 0
    texts = act(s, "reveal", player=s.state.badge,
                cards=[SUSPECT("mole-1"), SUSPECT("mole-2"), SUSPECT("rat-1"), SUSPECT("frog-3")])
    assert s.state.final["Ann"]["tokens"] == 3            # $7: 7 tokens, halved and rounded down
    line = next(t for t in texts if t.startswith("Ann:"))
    assert "3 for 7 tokens" in line and "each dollar one token" in line
