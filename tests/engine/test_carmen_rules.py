"""Carmen Sandiego card game, rule by rule.

Each test names the rulebook section it checks (shared/rulebooks/carmen-sandiego-card-game.txt)
and, for ambiguous points, the choice written in docs/rules/carmen-cards.md.
"""

from __future__ import annotations

import pytest

from engine.errors import BadInput, Contradiction, RuleViolation
from engine.knowledge import REFEREE
from engine.session import Session
from engine.table import Place

from .carmen_table import Table, pair_deal

THREE = ["Julie", "Amberley", "Mark"]


def count(s, place):
    return s.state.table.count(Place.parse(place, s.players))


def unchanged(t: Table, action: dict, exc=RuleViolation) -> RuleViolation:
    """The action is refused with ``exc`` and nobody's view changes."""
    before = t.snapshot()
    with pytest.raises(exc) as info:
        t.s.apply(action)
    assert t.snapshot() == before
    return info.value


# --- Setup ---------------------------------------------------------------------------
@pytest.mark.parametrize("players,per,slots", [
    (["Ann", "Bob"], 3, ("top", "center", "bottom")),
    (["Ann", "Bob", "Cy"], 2, ("top", "bottom")),
    (["Ann", "Bob", "Cy", "Di"], 2, ("top", "bottom")),
])
def test_setup_deals_by_player_count(players, per, slots):
    """Setup: 2 gumshoes get 3 of each type, 3-4 get 2; one of each in the center; rest in piles."""
    s = Session.new("carmen-cards", players)
    for kind in ("loot", "location", "henchman"):
        for p in players:
            assert [count(s, f"{p}/{kind}/{slot}") for slot in slots] == [1] * per
        assert count(s, f"center/{kind}") == 1
        assert count(s, f"pile/{kind}") == 13 - 1 - per * len(players)
    assert "center" in slots or per == 2


def test_youngest_goes_first_then_left():
    """It's Getting Dicey: the youngest gumshoe goes first; play passes to the left."""
    t = Table(THREE, ages={"Julie": 8, "Amberley": 11, "Mark": 13})
    assert t.s.prompt().player == "Julie"
    t.turn("Julie", "loot", "Julie/loot/top")
    assert t.s.prompt().player == "Amberley"
    t2 = Table(THREE, ages={"Julie": 12, "Amberley": 11, "Mark": 9})
    assert t2.s.prompt().player == "Mark"
    t2.turn("Mark", "loot", "Mark/loot/top")
    assert t2.s.prompt().player == "Julie"       # Mark's left wraps round to the first seat


@pytest.mark.parametrize("players", [["Solo"], ["A", "B", "C", "D", "E"]])
def test_player_count_is_two_to_four(players):
    """Setup: the game is for 2 to 4 gumshoes."""
    with pytest.raises(RuleViolation, match="2 to 4"):
        Session.new("carmen-cards", players)


@pytest.mark.parametrize("players", [["Ann", "Ann"], ["Ann", "center"], ["A/B", "C"], ["", "Bob"]])
def test_bad_names_refused(players):
    with pytest.raises(BadInput):
        Session.new("carmen-cards", players)


# --- Dice ---------------------------------------------------------------------------
def test_die_faces_come_from_data():
    """It's Getting Dicey: the die's icon says which type to look at (faces are data)."""
    t = Table(["Ann", "Bob"])
    events = t.s.apply({"type": "roll", "player": "Ann", "face": 6})
    assert events[0].text == "Ann rolled Henchman."
    assert set(t.s.prompt().options[0].targets["slot"]) == {"Ann/henchman/top", "Ann/henchman/center", "Ann/henchman/bottom"}


def test_bad_face_and_second_roll_refused():
    t = Table(["Ann", "Bob"])
    unchanged(t, {"type": "roll", "player": "Ann", "face": 7}, BadInput)
    t.roll("Ann", "loot")
    err = unchanged(t, {"type": "roll", "player": "Ann", "face": 1})
    assert "once" in err.message


def test_one_look_per_turn():
    """Game Play: "On each turn, you will have an opportunity to look at one card" - one, not more;
    It's Getting Dicey: "secretly look at one card"."""
    t = Table(["Ann", "Bob"])
    t.roll("Ann", "loot")
    t.peek("Ann", "Ann/loot/top")
    err = unchanged(t, {"type": "peek", "player": "Ann", "slot": "Ann/loot/center",
                        "card": t.card("Ann/loot/center")})
    assert err.section == "Game Play" and "one card on each turn" in err.message
    assert [o.action for o in t.s.prompt().options][0] == "end_turn"
    assert t.where("Ann", t.card("Ann/loot/center").split(".")[-1]) == "Unknown"


def test_column_positions_follow_the_number_of_gumshoes():
    """Setup: two gumshoes get three cards of each type (Top, Center, Bottom), three or four get two
    (Top, Bottom). A look or a warrant at a Center position that does not exist at this table is
    refused in words; the refill (Picking More Cards) restores two per column, never three."""
    t = Table(THREE, deal=pair_deal(THREE))
    t.roll("Julie", "loot")
    err = unchanged(t, {"type": "peek", "player": "Julie", "slot": "Julie/loot/center",
                        "card": "carmen.loot.crown-jewels"})
    assert err.section == "Setup" and "With 3 gumshoes each column has Top and Bottom only" in err.message
    t.peek("Julie", "Julie/loot/top")
    unchanged(t, {"type": "warrant", "player": "Julie", "loot": "Julie/loot/center",
                  "location": "Amberley/location/top", "loot_card": "carmen.loot.crown-jewels",
                  "location_card": "carmen.location.new-delhi"})
    t.warrant("Julie", "Julie/loot/top", "Amberley/location/top")
    t.flip("Julie", "Julie/henchman/top")
    t.decline("Julie")                      # a warrant at the end of the turn ends it: refills follow
    for p in THREE:
        for kind in ("loot", "location", "henchman"):
            assert [count(t.s, f"{p}/{kind}/{slot}") for slot in ("top", "bottom")] == [1, 1]
    assert count(t.s, "pile/loot") == 13 - 1 - 2 * 3 - 1
    two = Table(["Ann", "Bob"])
    two.roll("Ann", "loot")
    two.peek("Ann", "Ann/loot/center")       # with two gumshoes the Center card exists
    assert two.where("Ann", two.card("Ann/loot/center").split(".")[-1]) == "Ann / Center"


def test_not_your_turn():
    """Game Play: each gumshoe acts on their own turn."""
    t = Table(["Ann", "Bob"])
    err = unchanged(t, {"type": "roll", "player": "Bob", "face": 1})
    assert "Ann" in err.message
    unchanged(t, {"type": "roll", "player": "Zed", "face": 1}, BadInput)


# --- Chasing Leads ------------------------------------------------------------------------
def test_must_look_at_own_cards_first():
    """Chasing Leads: you must look at your own cards of the rolled type before others'."""
    t = Table(["Ann", "Bob"])
    t.roll("Ann", "loot")
    err = unchanged(t, {"type": "peek", "player": "Ann", "slot": "Bob/loot/top", "card": t.card("Bob/loot/top")})
    assert err.section == "Chasing Leads"
    assert "own" in err.message


def test_after_seeing_own_you_look_at_others():
    """Chasing Leads: once all your own Loot are seen, you may look at other gumshoes' Loot."""
    t = Table(THREE)
    for slot in ("top", "bottom"):
        t.turn("Julie", "loot", f"Julie/loot/{slot}")
        t.turn("Amberley", "henchman", "Amberley/henchman/top" if slot == "top" else "Amberley/henchman/bottom")
        t.turn("Mark", "henchman", "Mark/henchman/top" if slot == "top" else "Mark/henchman/bottom")
    t.roll("Julie", "loot")
    assert "Julie/loot/top" not in t.s.prompt().options[0].targets["slot"]
    assert "Mark/loot/top" in t.s.prompt().options[0].targets["slot"]
    t.peek("Julie", "Mark/loot/top")
    assert t.where("Julie", t.card("Mark/loot/top").split(".")[-1]) == "Mark / Top"


def test_a_new_card_blocks_looking_at_others_until_seen():
    """Chasing Leads: after receiving a new card you look at it before another gumshoe's of that type."""
    t = Table(["Ann", "Bob"], deal={"Ann/loot/top": "gandhis-glasses", "Bob/location/top": "new-delhi",
                                    "Ann/henchman/top": "yul-b-sorry"})
    for slot in ("top", "center", "bottom"):
        t.turn("Ann", "loot", f"Ann/loot/{slot}")
        t.turn("Bob", "loot", f"Bob/loot/{slot}")
    t.turn("Ann", "henchman", "Ann/henchman/top", end=False)
    t.s.apply({"type": "warrant", "player": "Ann", "loot": "Ann/loot/top", "location": "Bob/location/top",
               "loot_card": t.card("Ann/loot/top"), "location_card": "carmen.location.new-delhi"})
    t.flip("Ann", "Ann/henchman/top")
    t.decline("Ann")                                  # turn ends: Ann draws a new Top Loot
    t.turn("Bob", "location", "Bob/location/top")
    t.roll("Ann", "loot")
    assert t.s.prompt().options[0].targets["slot"] == ("Ann/loot/top",)
    err = unchanged(t, {"type": "peek", "player": "Ann", "slot": "Bob/loot/top", "card": t.card("Bob/loot/top")})
    assert "own" in err.message


def test_center_and_piles_cannot_be_looked_at():
    """Chasing Leads (docs/rules): only cards in front of a gumshoe may be looked at."""
    t = Table(["Ann", "Bob"])
    t.roll("Ann", "loot")
    unchanged(t, {"type": "peek", "player": "Ann", "slot": "center/loot", "card": t.card("center/loot")})


def test_wrong_type_card_refused():
    """Setup (docs/rules): a Loot card shown for a Location slot is refused, nothing recorded."""
    t = Table(["Ann", "Bob"])
    t.roll("Ann", "loot")
    err = unchanged(t, {"type": "peek", "player": "Ann", "slot": "Ann/loot/top", "card": "carmen.location.lima"})
    assert "Location card" in err.message and "Loot" in err.message


@pytest.mark.parametrize("card", ["carmen.loot.no-such-card", "usa.loot.some-card", 42])
def test_unknown_or_foreign_card_refused(card):
    t = Table(["Ann", "Bob"])
    t.roll("Ann", "loot")
    unchanged(t, {"type": "peek", "player": "Ann", "slot": "Ann/loot/top", "card": card}, BadInput)


def test_peek_is_private():
    """Game Play: you look secretly; others learn only which slot was looked at."""
    t = Table(["Ann", "Bob"], deal={"Ann/loot/top": "gandhis-glasses"})
    t.turn("Ann", "loot", "Ann/loot/top")
    assert t.where("Ann", "gandhis-glasses") == "Ann / Top"
    assert t.where("Bob", "gandhis-glasses") == "Unknown"
    assert not any("Gandhi" in line for line in t.s.public_log())
    assert not any("Gandhi" in line for line in t.s.undo_history())
    assert any("Gandhi" in line for line in t.s.log_for("Ann"))
    assert not any("Gandhi" in line for line in t.s.log_for("Bob"))


# --- Connecting the Dots -------------------------------------------------------------------
def test_matching_warrant_sets_cards_out_and_flips_a_henchman():
    """Connecting the Dots: a matching pair and a Henchman go out of play, face up, for everyone."""
    t = Table(["Ann", "Bob"], deal=pair_deal(["Ann", "Bob"]))
    t.warrant("Ann", "Ann/loot/top", "Bob/location/top")
    assert t.s.prompt().options[0].action == "flip_henchman"
    t.flip("Ann", "Ann/henchman/top")
    for who in ("Ann", "Bob"):
        assert t.where(who, "gandhis-glasses") == "Out of play"
        assert t.where(who, "yul-b-sorry") == "Out of play"
    assert [o.action for o in t.s.prompt().options] == ["swap", "decline_swap"]


def test_flipping_carmen_in_a_warrant_loses_for_everyone():
    """Connecting the Dots: flipping Carmen during a match - she escapes, game over, all lose."""
    t = Table(["Ann", "Bob"], deal=pair_deal(["Ann", "Bob"]))
    t.warrant("Ann", "Ann/loot/top", "Bob/location/top")
    t.flip("Ann", "Bob/henchman/top")
    assert t.s.outcome.winners == ()
    assert set(t.s.outcome.losers) == {"Ann", "Bob"}
    assert t.s.prompt().player is None
    unchanged(t, {"type": "end_turn", "player": "Ann"})


def test_failed_warrant_left_gumshoe_swaps_and_turn_ends():
    """Connecting the Dots: no match - the gumshoe on your left swaps a Loot or Location with the center."""
    t = Table(THREE, deal={"Julie/loot/top": "gandhis-glasses", "Mark/location/top": "lima",
                           "Amberley/location/top": "oslo"})
    t.warrant("Julie", "Julie/loot/top", "Mark/location/top")
    for who in THREE:                                   # shown to everyone, back face down
        assert t.where(who, "gandhis-glasses") == "Julie / Top"
        assert t.where(who, "lima") == "Mark / Top"
    prompt = t.s.prompt()
    assert prompt.player == "Amberley"
    assert set(prompt.option("swap").targets["slot"]) == {
        "Amberley/loot/top", "Amberley/loot/bottom", "Amberley/location/top", "Amberley/location/bottom"}
    unchanged(t, {"type": "swap", "player": "Amberley", "slot": "Amberley/henchman/top"})
    t.swap("Amberley", "Amberley/location/top")
    assert t.where("Amberley", "oslo") == "Unknown"       # she never saw it; it is now in the center
    assert count(t.s, "center/location") == 1
    assert t.s.prompt().player == "Amberley" and t.s.state.current == "Amberley"   # Julie's turn is over


def test_failed_warrant_swap_may_be_declined():
    """Connecting the Dots (docs/rules): the left gumshoe 'gets to' swap - a privilege, not a duty."""
    t = Table(["Ann", "Bob"], deal={"Ann/loot/top": "gandhis-glasses", "Bob/location/top": "lima"})
    t.warrant("Ann", "Ann/loot/top", "Bob/location/top")
    t.decline("Bob")
    assert t.s.prompt().player == "Bob"
    assert t.s.prompt().options[0].action == "roll"


def test_one_warrant_per_turn_and_warrant_at_start_then_roll():
    """Connecting the Dots (docs/rules): one warrant per turn; at the beginning, the turn follows."""
    t = Table(["Ann", "Bob"], deal=pair_deal(["Ann", "Bob"]))
    t.warrant("Ann", "Ann/loot/top", "Bob/location/top")
    t.flip("Ann", "Ann/henchman/top")
    t.decline("Ann")
    prompt = t.s.prompt()
    assert prompt.player == "Ann" and [o.action for o in prompt.options] == ["roll"]
    t.roll("Ann", "location")
    t.peek("Ann", t.s.prompt().options[0].targets["slot"][0])
    assert [o.action for o in t.s.prompt().options] == ["end_turn"]
    err = unchanged(t, {"type": "warrant", "player": "Ann", "loot": "Bob/loot/top", "location": "Ann/location/top",
                        "loot_card": t.card("Bob/loot/top"), "location_card": t.card("Ann/location/top")})
    assert "already" in err.message


def test_a_match_flips_one_henchman_and_allows_one_swap():
    """Connecting the Dots: after a match, "flip over the Henchmen Card of your choice" - one; Closing
    in: "you may switch one of your own cards" with the center - one switch, then the turn goes on."""
    t = Table(["Ann", "Bob"], deal=pair_deal(["Ann", "Bob"]))
    t.warrant("Ann", "Ann/loot/top", "Bob/location/top")
    t.flip("Ann", "Ann/henchman/top")
    err = unchanged(t, {"type": "flip_henchman", "player": "Ann", "slot": "Ann/henchman/center",
                        "card": t.card("Ann/henchman/center")})
    assert "only after flipping a matching" in err.message
    t.swap("Ann", "Ann/location/top")
    assert [o.action for o in t.s.prompt().options] == ["roll"]      # the normal turn follows
    err = unchanged(t, {"type": "swap", "player": "Ann", "slot": "Ann/loot/center"})
    assert err.section == "Closing in"
    assert count(t.s, "out") == 3


def test_warrant_at_end_of_turn_ends_it():
    t = Table(["Ann", "Bob"], deal=pair_deal(["Ann", "Bob"]))
    t.turn("Ann", "loot", "Ann/loot/top", end=False)
    t.warrant("Ann", "Ann/loot/top", "Bob/location/top")
    t.flip("Ann", "Ann/henchman/top")
    t.decline("Ann")
    assert t.s.prompt().player == "Bob"


def test_normal_warrant_cannot_use_center_cards():
    """Connecting the Dots (docs/rules): the center is for the final warrant only."""
    t = Table(["Ann", "Bob"])
    unchanged(t, {"type": "warrant", "player": "Ann", "loot": "center/loot", "location": "Bob/location/top",
                  "loot_card": t.card("center/loot"), "location_card": t.card("Bob/location/top")})


# --- Closing in -----------------------------------------------------------------------------
def test_swap_after_match_journals_follow_the_cards():
    """Closing in: swap one of your cards with the center card of the same type, unseen."""
    t = Table(["Ann", "Bob"], deal={**pair_deal(["Ann", "Bob"]), "Ann/location/center": "oslo"})
    t.turn("Ann", "location", "Ann/location/center", end=False)
    t.warrant("Ann", "Ann/loot/top", "Bob/location/top")
    t.flip("Ann", "Ann/henchman/top")
    t.swap("Ann", "Ann/location/center")
    assert t.where("Ann", "oslo") == "Table center"             # she knows what she put there
    assert t.where("Ann", "new-york") == "Unknown"              # and not what she took
    assert t.card("Ann/location/center") == "carmen.location.new-york"
    assert t.where("Bob", "oslo") == "Unknown"


def test_cannot_swap_for_a_card_of_another_type_or_someone_elses():
    """Closing in: you cannot switch one type for another; only your own cards while you have any."""
    t = Table(["Ann", "Bob"], deal=pair_deal(["Ann", "Bob"]))
    t.warrant("Ann", "Ann/loot/top", "Bob/location/top")
    t.flip("Ann", "Ann/henchman/top")
    unchanged(t, {"type": "swap", "player": "Ann", "slot": "Bob/loot/top"})
    unchanged(t, {"type": "swap", "player": "Ann", "slot": "center/loot"})


def test_out_of_cards_you_may_use_another_gumshoes_card():
    """Closing in: completely out of cards - switch another gumshoe's card; the center card comes to you."""
    t = Table(["Ann", "Bob"], deal=pair_deal(["Ann", "Bob"]))
    state = t.s.state
    # Empty Ann's columns except the cards of the match, as after a long game with empty piles.
    for kind in ("loot", "location", "henchman"):
        for slot in ("center", "bottom"):
            state.table.move(state.table.top(Place(kind, "Ann", slot)), Place("out"))
    for kind in ("loot", "location", "henchman"):
        while state.table.count(Place("pile", slot=kind)):
            state.table.move(state.table.top(Place("pile", slot=kind)), Place("out"))
    state.table.move(state.table.top(Place("location", "Ann", "top")), Place("out"))
    t.warrant("Ann", "Ann/loot/top", "Bob/location/top")
    t.flip("Ann", "Ann/henchman/top")
    targets = t.s.prompt().option("swap").targets["slot"]
    assert targets and all(s.startswith("Bob/") for s in targets)
    center_loot = t.card("center/loot")
    t.swap("Ann", "Bob/loot/center")
    assert t.truth.card_at(t.s.state, "Ann/loot/top") == center_loot
    assert count(t.s, "Bob/loot/center") == 0


# --- Picking More Cards ------------------------------------------------------------------------
def test_replenish_to_starting_count_at_end_of_turn():
    """Picking More Cards: at the end of the turn gumshoes refill from the piles, unseen."""
    t = Table(["Ann", "Bob"], deal=pair_deal(["Ann", "Bob"]))
    t.warrant("Ann", "Ann/loot/top", "Bob/location/top")
    t.flip("Ann", "Ann/henchman/top")
    t.decline("Ann")
    t.turn("Ann", "loot", "Ann/loot/center")
    for p, kind in (("Ann", "loot"), ("Ann", "henchman"), ("Bob", "location")):
        assert count(t.s, f"{p}/{kind}/top") == 1
    assert any(line.startswith("Ann draws") for line in t.s.public_log())
    assert any(line.startswith("Bob draws a Location") for line in t.s.public_log())


def test_short_piles_refill_from_last_matcher_to_the_left():
    """Picking More Cards: not enough cards - start with the gumshoe who made the last match, then left."""
    t = Table(THREE, deal={"Amberley/loot/top": "gandhis-glasses", "Julie/location/top": "new-delhi",
                           "Amberley/henchman/top": "yul-b-sorry"})
    state = t.s.state
    loot_pile = Place("pile", slot="loot")
    while state.table.count(loot_pile) > 1:               # one Loot card left in the pile
        state.table.move(state.table.top(loot_pile), Place("out"))
    # Julie's Top Loot also goes missing (as if flipped earlier), so both need a Loot card.
    state.table.move(state.table.top(Place("loot", "Julie", "top")), Place("out"))
    t.turn("Julie", "henchman", "Julie/henchman/top")
    # Julie's turn ended with her short a Loot, and the one pile card went to her (no match yet: she starts).
    assert count(t.s, "Julie/loot/top") == 1
    state = t.s.state          # each accepted action makes a new state
    state.table.move(state.table.top(Place("loot", "Julie", "top")), Place("out"))
    state.table.move(state.table.top(Place("out")), loot_pile)       # one card back in the pile
    t.roll("Amberley", "loot")
    t.peek("Amberley", "Amberley/loot/top")
    t.warrant("Amberley", "Amberley/loot/top", "Julie/location/top")
    t.flip("Amberley", "Amberley/henchman/top")
    t.decline("Amberley")
    # Amberley made the last match: she refills first and gets the only Loot; Julie gets none.
    assert count(t.s, "Amberley/loot/top") == 1
    assert count(t.s, "Julie/loot/top") == 0


# --- End of the Game / Catching Carmen ------------------------------------------------------------
def _center_match_table():
    deal = pair_deal(["Ann", "Bob", "Cy"])
    deal.update({"Cy/henchman/top": "fast-eddie-b", "Cy/loot/top": "crown-jewels", "Cy/location/top": "london"})
    return Table(["Ann", "Bob", "Cy"], deal=deal)


def test_final_warrant_wins_when_pair_matches_and_henchman_is_carmen():
    """End of the Game: center Loot and Location match and the flipped Henchman is Carmen - you win."""
    t = _center_match_table()
    t.final("Ann")
    assert "think is Carmen" in t.s.prompt().text
    t.flip("Ann", "Bob/henchman/top")
    assert t.s.outcome.winners == ("Ann",)
    assert "arrested" in t.s.public_log()[-1]


def test_final_warrant_wrong_henchman_eliminates_and_center_is_replaced():
    """End of the Game: a wrong Henchman puts you out; exposed center cards are replaced to the left."""
    t = _center_match_table()
    t.final("Ann")
    t.flip("Ann", "Cy/henchman/top")
    assert t.s.state.eliminated == ["Ann"]
    assert t.s.prompt().player == "Bob"
    assert "replace" in t.s.prompt().text
    t.swap("Bob", "Bob/loot/top")
    assert t.s.prompt().player == "Cy"
    assert set(t.s.prompt().option("swap").targets["slot"]) == {"Cy/location/top", "Cy/location/bottom"}
    t.swap("Cy", "Cy/location/top")
    for who in ("Bob", "Cy", "Ann"):
        assert t.where(who, "statue-of-libertys-torch") == "Bob / Top"     # exposed: known to all
        assert t.where(who, "new-york") == "Cy / Top"
    assert t.s.prompt().player == "Bob"                 # play continues left of Ann
    t.turn("Bob", "loot", "Bob/loot/bottom")
    assert t.s.prompt().player == "Cy"
    t.turn("Cy", "loot", "Cy/loot/bottom")
    assert t.s.prompt().player == "Bob"                 # Ann, eliminated, is skipped


def test_final_warrant_wrong_pair_keeps_you_in():
    """End of the Game: if the Loot and Location do not match you remain in the game."""
    deal = pair_deal(["Ann", "Bob"])
    deal["center/location"] = "oslo"
    t = Table(["Ann", "Bob"], deal=deal)
    t.final("Ann")
    assert t.s.state.eliminated == []
    assert t.s.prompt().player == "Bob"
    err = unchanged(t, {"type": "decline_swap", "player": "Bob"})
    assert "must be replaced" in err.message
    t.swap("Bob", "Bob/location/top")
    # Ann (still in) replaces the other exposed card: the round goes on to the left.
    assert t.s.prompt().player == "Ann"
    t.swap("Ann", "Ann/loot/top")
    assert t.s.prompt().player == "Bob" and t.s.prompt().options[0].action == "roll"


def test_last_gumshoe_standing_wins():
    """End of the Game: if all gumshoes but one are out, that gumshoe wins."""
    t = Table(["Ann", "Bob"], deal={**pair_deal(["Ann", "Bob"]), "Bob/henchman/center": "sam-onella"})
    t.final("Ann")
    t.flip("Ann", "Bob/henchman/center")
    assert t.s.outcome.winners == ("Bob",)


# --- Contradictions ----------------------------------------------------------------------------
def test_your_own_mix_up_does_not_change_what_the_table_is_asked():
    """Chasing Leads ("until you have had an opportunity to look at your new card") and docs/rules (Checking),
    issue 27: Ann reads her Center Loot as the card she had noted at her Top (a mix-up, confirmed behind the
    gate): her Top note is dropped, hers only. She has had her look at her Top, so the next Loot roll sends
    her to another gumshoe's cards exactly as if she had read it right: the shared prompt used to say "look
    at your Top Loot card", telling everyone of her mix-up."""
    def game(mix_up: bool) -> Table:
        t = Table(["Ann", "Bob"], deal={"Ann/loot/top": "gandhis-glasses"})
        t.turn("Ann", "loot", "Ann/loot/top")
        t.turn("Bob", "henchman", "Bob/henchman/top")
        t.roll("Ann", "loot")
        read = "carmen.loot.gandhis-glasses" if mix_up else t.card("Ann/loot/center")
        t.s.apply({"type": "peek", "player": "Ann", "slot": "Ann/loot/center", "card": read, "confirm": mix_up})
        t.end("Ann")
        t.turn("Bob", "henchman", "Bob/henchman/center")
        t.turn("Ann", "loot", "Ann/loot/bottom")
        t.turn("Bob", "henchman", "Bob/henchman/bottom")
        t.roll("Ann", "loot")
        return t

    right, mixed = game(False), game(True)
    assert mixed.where("Ann", "gandhis-glasses") == "Ann / Center"            # her note moved, hers only
    assert mixed.s.view(None) == right.s.view(None) and mixed.s.view("Bob") == right.s.view("Bob")
    assert mixed.s.prompt().text == "Ann, look at another gumshoe's Loot card."
    assert "Ann/loot/top" not in mixed.s.prompt().option("peek").targets["slot"]


def test_a_card_you_noted_elsewhere_asks_you_first():
    """docs/rules (Checking): a sighting that disagrees with your own notes is a question, not a record."""
    t = Table(["Ann", "Bob"], deal={"Ann/loot/top": "gandhis-glasses"})
    t.turn("Ann", "loot", "Ann/loot/top")
    t.turn("Bob", "henchman", "Bob/henchman/top")
    t.roll("Ann", "loot")
    bad = {"type": "peek", "player": "Ann", "slot": "Ann/loot/center", "card": "carmen.loot.gandhis-glasses"}
    err = unchanged(t, bad, Contradiction)
    assert "another place" in err.message
    t.s.apply({**bad, "confirm": True})
    assert t.where("Ann", "gandhis-glasses") == "Ann / Center"


def test_someone_elses_secret_is_never_hinted_by_a_question():
    """docs/rules (Checking): a clash with another player's private note is not asked about
    (the question would tell of their secret) and changes nobody else's journal: Ann keeps her
    note, Bob keeps his, and the referee holds the disagreement.

    Updated for issue 11 (defect 6): this test used to expect Ann's note to be dropped, which
    told Ann what Bob's private look named."""
    t = Table(["Ann", "Bob"], deal={"Ann/loot/top": "gandhis-glasses"})
    t.turn("Ann", "loot", "Ann/loot/top")
    t.roll("Bob", "loot")
    ann_before = t.s.view("Ann")
    t.s.apply({"type": "peek", "player": "Bob", "slot": "Bob/loot/top", "card": "carmen.loot.gandhis-glasses"})
    assert t.where("Ann", "gandhis-glasses") == "Ann / Top"
    assert t.where("Bob", "gandhis-glasses") == "Bob / Top"
    assert t.s.view("Ann").journal == ann_before.journal
    assert not any("corrected" in line or "disagree" in line for line in t.s.public_log() + t.s.log_for("Bob")
                   + t.s.log_for("Ann"))
    (dispute,) = t.s.state.knowledge[REFEREE].disputes
    assert (dispute.seen_by, dispute.held_by) == (("Bob",), ("Ann",))
    assert dispute.card == dispute.old_card == "carmen.loot.gandhis-glasses"


def test_a_public_flip_settles_what_the_referee_held():
    """docs/rules (Checking): two private notes disagree (Bob misread his card as Ann's Gandhi's
    Glasses); the flip in front of everyone settles it, and every journal follows the flip."""
    t = Table(["Ann", "Bob"], deal={"Ann/loot/top": "gandhis-glasses", "Bob/location/top": "lima"})
    t.turn("Ann", "loot", "Ann/loot/top")
    t.roll("Bob", "loot")
    t.s.apply({"type": "peek", "player": "Bob", "slot": "Bob/loot/top", "card": "carmen.loot.gandhis-glasses"})
    t.s.apply({"type": "end_turn", "player": "Bob"})
    assert t.s.state.knowledge[REFEREE].disputes
    t.warrant("Ann", "Ann/loot/top", "Bob/location/top")         # flips the real Gandhi's Glasses
    assert t.s.state.knowledge[REFEREE].disputes == ()
    for p in ("Ann", "Bob"):
        assert t.where(p, "gandhis-glasses") == "Ann / Top"


def test_your_own_misread_is_asked_and_fixed_only_in_your_journal():
    """docs/rules (Checking): Bob reads his card as one he noted elsewhere: he is asked; when he
    confirms, only his note changes; Ann, who holds the same old note, keeps hers."""
    t = Table(["Ann", "Bob"], deal={"Ann/loot/top": "gandhis-glasses"})
    t.turn("Ann", "loot", "Ann/loot/top")
    for slot in ("top", "center", "bottom"):
        t.turn("Bob", "loot", f"Bob/loot/{slot}")
        t.turn("Ann", "henchman", f"Ann/henchman/{slot}")
    t.roll("Bob", "loot")                    # Bob has seen all his Loot: he looks at Ann's
    bad = {"type": "peek", "player": "Bob", "slot": "Ann/loot/top", "card": t.card("Bob/loot/top")}
    unchanged(t, bad, Contradiction)
    t.s.apply({**bad, "confirm": True})
    assert t.where("Bob", bad["card"].split(".")[-1]) == "Ann / Top"
    assert t.where("Ann", "gandhis-glasses") == "Ann / Top"


def test_a_public_flip_clashing_with_common_knowledge_asks_everyone():
    """A card everyone saw flipped, read again at another slot: asked on the shared screen."""
    t = Table(["Ann", "Bob"], deal={"Ann/loot/top": "gandhis-glasses", "Bob/location/top": "lima"})
    t.warrant("Ann", "Ann/loot/top", "Bob/location/top")       # no match: both now known to all
    t.decline("Bob")
    t.roll("Bob", "loot")
    bad = {"type": "peek", "player": "Bob", "slot": "Bob/loot/top", "card": "carmen.loot.gandhis-glasses"}
    err = unchanged(t, bad, Contradiction)
    assert "Gandhi" in err.message


def test_wrong_type_is_refused_even_with_confirm():
    t = Table(["Ann", "Bob"])
    t.roll("Ann", "loot")
    unchanged(t, {"type": "peek", "player": "Ann", "slot": "Ann/loot/top", "card": "carmen.location.lima",
                  "confirm": True})


# --- Journal -------------------------------------------------------------------------------------
def test_journal_assist_levels_and_warrant_hint():
    """Evidence Journal: notes only, hints (warrant ready), full (Carmen's odds)."""
    t = Table(["Ann", "Bob"], deal={**pair_deal(["Ann", "Bob"])})
    t.turn("Ann", "loot", "Ann/loot/top")
    t.turn("Bob", "loot", "Bob/loot/top")
    t.turn("Ann", "henchman", "Ann/henchman/top")
    t.turn("Bob", "loot", "Bob/loot/center")
    t.roll("Ann", "location")
    t.s.apply({"type": "peek", "player": "Ann", "slot": "Ann/location/top", "card": t.card("Ann/location/top")})
    t.end("Ann")
    t.turn("Bob", "loot", "Bob/loot/bottom")
    assert t.s.journal("Ann", "notes").deductions == ()
    hints = {d.kind for d in t.s.journal("Ann", "hints").deductions}
    assert "center" in hints and "carmen_odds" not in hints
    full = t.s.journal("Ann", "full")
    odds = next(d for d in full.deductions if d.kind == "carmen_odds")
    assert "Ann/henchman/top" not in odds.data["odds"]         # Yul B. Sorry is there: Carmen cannot be
    assert odds.data["odds"]["Bob/henchman/top"] == "1/12"     # 12 unknown Henchmen, 12 unknown places


def test_warrant_ready_hint_names_the_pair_and_a_safe_henchman():
    t = Table(["Ann", "Bob"], deal=pair_deal(["Ann", "Bob"]))
    t.turn("Ann", "loot", "Ann/loot/top")
    t.turn("Bob", "henchman", "Bob/henchman/top")
    t.turn("Ann", "henchman", "Ann/henchman/top")
    t.turn("Bob", "henchman", "Bob/henchman/center")
    for slot in ("top", "center", "bottom"):
        t.turn("Ann", "location", f"Ann/location/{slot}")
        t.turn("Bob", "henchman" if slot == "top" else "loot", "Bob/henchman/bottom" if slot == "top" else f"Bob/loot/{slot}")
    t.turn("Ann", "location", "Bob/location/top")
    ready = [d for d in t.s.journal("Ann", "hints").deductions if d.kind == "warrant_ready"]
    assert ready and "Gandhi's Glasses (Ann / Top)" in ready[0].text and "New Delhi (Bob / Top)" in ready[0].text
    assert "Yul B. Sorry" in ready[0].text
