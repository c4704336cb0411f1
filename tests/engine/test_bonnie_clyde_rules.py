"""Bonnie and Clyde Mystery Rummy, rule by rule.

Each test names the rulebook section it checks (shared/rulebooks/bonnie-and-clyde-mystery-rummy.txt)
and, for ambiguous points, the choice written in docs/rules/bonnie-clyde.md.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from engine.errors import BadInput, Contradiction, RuleViolation
from engine.games import game_info
from engine.games.bonnie_clyde import load_board
from engine.games.bonnie_clyde.rules import count_placements
from engine.session import Session
from engine.table import Place

GAME = "bonnie-clyde"
B, C = "bonnie-clyde.outlaw.bonnie-parker", "bonnie-clyde.outlaw.clyde-barrow"


def E(n: int, letter: str) -> str:
    return f"bonnie-clyde.evidence.location-{n}-{letter}"


def H(i: int) -> str:
    return f"bonnie-clyde.hinton.ted-hinton-{i:02d}"


def count(s: Session, place: str) -> int:
    return s.state.table.count(Place.parse(place, s.players))


def snapshot(s: Session) -> tuple:
    return tuple(s.view(p) for p in (*s.players, None))


def refused(s: Session, action: dict, exc: type = RuleViolation, match: str | None = None) -> RuleViolation:
    """The action is refused (with a message matching ``match``) and nobody's view changes."""
    before = snapshot(s)
    with pytest.raises(exc, match=match) as info:
        s.apply(action)
    assert snapshot(s) == before
    return info.value


def dealt(players=("Ann", "Bob"), dealer="Bob", first=H(15), **options) -> Session:
    s = Session.new(GAME, list(players), options)
    s.apply({"type": "deal", "player": dealer, "card": first})
    return s


def a(s: Session, kind: str, player: str, **fields) -> list:
    return s.apply({"type": kind, "player": player, **fields})


def odds(s: Session, player: str, who: str = "bonnie") -> dict[int, Fraction]:
    d = next(d for d in s.journal(player, "full").deductions if d.kind == "outlaw_odds")
    return {int(n): Fraction(p) for n, p in d.data[who].items()}


def location_note(s: Session, player: str, n: int):
    return next(d for d in s.journal(player, "full").deductions if d.kind == "location" and d.data["location"] == n)


# --- Contents and data ------------------------------------------------------------------
def test_contents_77_cards_each_physical_card_its_own_id():
    """Contents: 60 Evidence (six per location 1-10), 15 Ted Hinton, Bonnie, Clyde: 77 ids."""
    s = Session.new(GAME, ["Ann", "Bob"])
    deck = s.rules.deck
    assert len(deck.cards) == 77
    assert {k: len(deck.of_kind(k)) for k in deck.kinds} == {"evidence": 60, "hinton": 15, "outlaw": 2}
    for n in range(1, 11):
        assert sum(1 for c in deck.of_kind("evidence") if c.attrs["location"] == n) == 6
    assert deck.with_role("bonnie").id == B and deck.with_role("clyde").id == C


def test_board_names_verified_only_where_the_rulebook_prints_them():
    """Setup and the Deal / Scoring: Kaufman 1, Sherman 2, Grapevine 9, Gibson 10 are verified; Joplin's
    number is not given, so it is not verified; Evidence cards carry their location's name."""
    board = load_board()
    verified = {loc.number: loc.name for loc in board.locations if loc.verified}
    assert verified == {1: "Kaufman, Texas", 2: "Sherman, Texas", 9: "Grapevine, Texas", 10: "Gibson, Louisiana"}
    assert any(loc.name == "Joplin, Missouri" and not loc.verified for loc in board.locations)
    deck = Session.new(GAME, ["Ann", "Bob"]).rules.deck
    assert deck.name_of(E(2, "c")) == "Sherman, Texas" and deck.card(E(2, "c")).verified
    assert not deck.card(E(4, "a")).verified


def test_family_corrects_a_board_name_without_code(tmp_path, monkeypatch):
    """A box is data: a family's [names] file renames a location and its six Evidence cards."""
    from engine.games.bonnie_clyde.rules import BonnieClydeRules
    from engine.cards import load_game_deck
    over = tmp_path / "boards" / "bonnie-clyde.toml"
    over.parent.mkdir()
    over.write_text('[names]\n"4" = "Fort Smith, Arkansas"\n', encoding="utf-8")
    rules = BonnieClydeRules(load_game_deck(GAME), load_board(overrides=over))
    assert rules.board.name(4) == "Fort Smith, Arkansas"
    assert rules.deck.name_of(E(4, "f")) == "Fort Smith, Arkansas"
    bad = tmp_path / "bad.toml"
    bad.write_text('[names]\n"11" = "Nowhere"\n', encoding="utf-8")
    with pytest.raises(ValueError, match="not a location number"):
        load_board(overrides=bad)


def test_shelf_card_offers_100_or_200():
    """Variant: the longer game to 200 is a setup option."""
    info = game_info(GAME)
    assert info.players == (2, 4) and info.hidden_cards
    (target,) = info.options
    assert target.id == "target" and target.choices == (100, 200) and target.default == 100


# --- Setup and the Deal --------------------------------------------------------------------
@pytest.mark.parametrize("players,per", [(("Ann", "Bob"), 10), (("Ann", "Bob", "Cy"), 9),
                                         (("Ann", "Bob", "Cy", "Di"), 8)])
def test_deal_by_player_count(players, per):
    """Setup and the Deal: 10/9/8 cards for 2/3/4 players, a card under each of the 10 locations,
    one card turned up on the FBI Files, the rest is the Case File; the car on Kaufman; play starts
    left of the dealer."""
    s = dealt(players, dealer=players[-1])
    for p in players:
        assert count(s, f"{p}/hand") == per
    assert [count(s, f"board/{n}") for n in range(1, 11)] == [1] * 10
    assert count(s, "files") == 1 and count(s, "casefile") == 77 - 10 - 1 - per * len(players)
    assert s.state.car == 1
    assert s.prompt().player == players[0]


def test_setup_refuses_bad_tables():
    """Setup: 2-4 players, names that are not places, a target of 100 or 200."""
    with pytest.raises(RuleViolation, match="2 to 4"):
        Session.new(GAME, ["Ann"])
    with pytest.raises(RuleViolation, match="2 to 4"):
        Session.new(GAME, ["A", "B", "C", "D", "E"])
    with pytest.raises(BadInput, match="cannot be a player's name"):
        Session.new(GAME, ["Ann", "files"])
    with pytest.raises(BadInput, match="same name"):
        Session.new(GAME, ["Ann", "Ann"])
    with pytest.raises(BadInput, match="100 or 200"):
        Session.new(GAME, ["Ann", "Bob"], {"target": 150})


def test_bonnie_and_clyde_cannot_be_the_turned_up_card():
    """Setup and the Deal, step 3: Bonnie and Clyde go under the board with eight random cards."""
    s = Session.new(GAME, ["Ann", "Bob"])
    refused(s, {"type": "deal", "player": "Ann", "card": B}, match="under the board")


def test_any_player_may_deal_the_first_hand_play_starts_on_the_dealers_left():
    """Setup and the Deal, step 4: "Choose a dealer randomly" - any player may deal the first hand;
    The Turn: play starts with the player to the dealer's left."""
    s = Session.new(GAME, ["Ann", "Bob", "Cy"])
    assert s.prompt().option("deal").targets["player"] == ("Ann", "Bob", "Cy")
    a(s, "deal", "Cy", card=H(1))
    assert s.state.dealer == "Cy"
    assert s.prompt().player == "Ann"          # left of Cy, wrapping round


@pytest.mark.parametrize("dealer", ["Ann", "Bob", "Cy"])
def test_any_player_may_deal_each_new_hand(dealer):
    """Scoring: "Begin each new hand with a new Setup", and Setup, step 4 chooses the dealer at
    random: after a hand any player deals the next one (the player to the left of the last dealer
    is only suggested, listed first); play starts on the new dealer's left."""
    s = dealt(("Ann", "Bob", "Cy"), dealer="Cy")
    go_out(s, "Ann")
    assert s.state.phase == "deal" and s.outcome is None
    prompt = s.prompt()
    assert prompt.player == "Ann" and "any other player deals" in prompt.text
    assert prompt.option("deal").targets["player"] == ("Ann", "Bob", "Cy")
    assert s.rules.place_words(s.state, "Ann") == "Ann (on Cy's left)"
    assert "Any player may deal it" in s.public_log()[-1]
    a(s, "deal", dealer, card=H(1))
    assert s.state.hand_no == 2 and s.state.dealer == dealer
    assert s.prompt().player == s.state.left_of(dealer)
    assert all(count(s, f"{p}/hand") == 9 for p in s.players)


def test_a_ted_hinton_under_a_location_is_taken_like_any_card():
    """Our reading: a Ted Hinton dealt under a location may be taken into the hand, then played."""
    s = dealt()
    a(s, "draw", "Ann")
    a(s, "meld", "Ann", cards=[E(5, "a"), E(5, "b"), E(5, "c")])
    a(s, "look", "Ann", location="board/5", card=H(9))
    a(s, "take", "Ann")
    a(s, "hinton", "Ann", card=H(9), use="draw")
    assert count(s, "Ann/hand") == 11 - 3 + 1 - 1 + 2


# --- The Turn / Draw -------------------------------------------------------------------------
def test_only_the_current_player_acts_and_draws_first():
    """The Turn: clockwise from the dealer's left; Draw is mandatory before playing."""
    s = dealt()
    refused(s, {"type": "draw", "player": "Bob"}, match="Ann's turn")
    refused(s, {"type": "meld", "player": "Ann", "cards": [E(1, "a"), E(1, "b"), E(1, "c")]}, match="Draw first")
    refused(s, {"type": "discard", "player": "Ann", "card": E(1, "a")}, match="Draw first")
    a(s, "draw", "Ann")
    refused(s, {"type": "draw", "player": "Ann"}, match="once")
    assert count(s, "Ann/hand") == 11


def test_taking_the_top_of_the_files_is_seen_by_everyone():
    """Draw: take the top card of the FBI Files; everyone saw it, so every journal follows it."""
    s = dealt(first=E(4, "a"))
    a(s, "take_discard", "Ann")
    for p in ("Ann", "Bob"):
        assert s.journal(p, "notes").where(E(4, "a")) == "Ann's hand"
    assert count(s, "files") == 0


def test_draws_are_counted_not_read():
    """What the app knows: a drawn card is an unknown card in the hand; only its count is public."""
    s = dealt()
    a(s, "draw", "Ann")
    assert s.journal("Ann", "notes").entries == s.journal("Bob", "notes").entries
    assert "drew a card from the Case File (45 left)" in s.public_log()[-1]


def test_the_card_just_taken_from_the_files_may_be_discarded_again():
    """Discard: "you must discard any one card" - the card taken from the top of the FBI Files this
    turn included; it goes back on top, face up, and the turn passes."""
    s = dealt(first=E(4, "a"))
    a(s, "take_discard", "Ann")
    a(s, "discard", "Ann", card=E(4, "a"))
    assert count(s, "Ann/hand") == 10 and count(s, "files") == 1
    assert s.prompt().player == "Bob" and f"take {s.rules.deck.name_of(E(4, 'a'))} from the FBI Files" in s.prompt().text
    for p in ("Ann", "Bob"):
        assert s.journal(p, "notes").where(E(4, "a")) == "FBI Files"


def test_the_card_taken_with_ted_hinton_may_be_discarded_the_same_turn():
    """Discard: any one card - also the card just taken from the FBI Files with Ted Hinton."""
    s = dealt(first=E(4, "a"))
    a(s, "draw", "Ann")
    a(s, "discard", "Ann", card=E(6, "a"))
    a(s, "draw", "Bob")
    a(s, "hinton", "Bob", card=H(2), use="take")
    a(s, "take_file", "Bob", card=E(4, "a"))
    a(s, "discard", "Bob", card=E(4, "a"))
    assert s.prompt().player == "Ann" and count(s, "Bob/hand") == 10
    assert s.journal("Ann", "notes").where(E(4, "a")) == "FBI Files"


# --- Play: Evidence ----------------------------------------------------------------------------
def test_a_meld_is_three_or_more_evidence_of_one_location():
    """Play, Evidence Cards: a meld is three or more Evidence cards of the same Location."""
    s = dealt()
    a(s, "draw", "Ann")
    refused(s, {"type": "meld", "player": "Ann", "cards": [E(5, "a"), E(5, "b")]}, match="three or more")
    refused(s, {"type": "meld", "player": "Ann", "cards": [E(5, "a"), E(5, "b"), E(6, "c")]}, match="same location")
    refused(s, {"type": "meld", "player": "Ann", "cards": [E(5, "a"), E(5, "b"), H(3)]}, match="Only Evidence")
    refused(s, {"type": "meld", "player": "Ann", "cards": [E(5, "a"), E(5, "a"), E(5, "b")]}, BadInput, "twice")
    refused(s, {"type": "meld", "player": "Ann", "cards": ["bonnie-clyde.evidence.nope"] * 3}, BadInput)
    refused(s, {"type": "meld", "player": "Ann", "cards": "not a list"}, BadInput)
    a(s, "meld", "Ann", cards=[E(5, "a"), E(5, "b"), E(5, "c")])
    assert count(s, "Ann/played/5") == 3 and s.state.phase == "look"


def test_a_layoff_needs_a_meld_of_that_location_on_the_table():
    """Play, Evidence Cards: a layoff matches a meld in front of any player; one or two cards (three
    together are a meld: our reading); the cards lie in front of the player laying off."""
    s = dealt()
    a(s, "draw", "Ann")
    refused(s, {"type": "layoff", "player": "Ann", "cards": [E(5, "a")]}, match="Nobody has a meld")
    a(s, "meld", "Ann", cards=[E(5, "a"), E(5, "b"), E(5, "c")])
    a(s, "look", "Ann", location="board/5", card=E(8, "a"))
    a(s, "leave", "Ann")
    a(s, "discard", "Ann", card=E(9, "a"))
    a(s, "draw", "Bob")
    refused(s, {"type": "layoff", "player": "Bob", "cards": [E(5, "d"), E(5, "e"), E(5, "f")]}, match="meld")
    a(s, "layoff", "Bob", cards=[E(5, "d"), E(5, "e")])
    assert count(s, "Bob/played/5") == 2


def test_sideways_at_the_car_and_capture_bonnie():
    """Play, the car's Location: the meld lies sideways and Bonnie under that location is captured."""
    s = dealt()
    a(s, "draw", "Ann")
    a(s, "meld", "Ann", cards=[E(1, "a"), E(1, "b"), E(1, "c")])
    assert count(s, "Ann/sideways/1") == 3
    events = a(s, "look", "Ann", location="board/1", card=B)
    assert any(e.type == "capture" and e.visibility.scope == "public" for e in events)
    assert count(s, "Ann/captured") == 1 and count(s, "board/1") == 0
    assert s.state.car == 2                      # the meld moved the car up
    assert s.journal("Bob", "notes").where(B) == "Ann's table (captured)"
    assert odds(s, "Bob", "bonnie") == {}


def test_away_from_the_car_bonnie_must_be_left_and_stays_private():
    """Play, a Location the car is not on: Bonnie or Clyde must be left; nobody else learns it."""
    s = dealt()
    a(s, "draw", "Ann")
    a(s, "meld", "Ann", cards=[E(5, "a"), E(5, "b"), E(5, "c")])
    a(s, "look", "Ann", location="board/5", card=B)
    refused(s, {"type": "take", "player": "Ann"}, match="must stay where it is")
    a(s, "leave", "Ann")
    assert odds(s, "Ann", "bonnie") == {5: 1}
    assert odds(s, "Bob", "bonnie") == {n: Fraction(1, 10) for n in range(1, 11)}
    assert odds(s, "Ann", "clyde") == {n: Fraction(1, 9) for n in range(1, 11) if n != 5}
    shared = " ".join(s.public_log() + s.undo_history() + [s.prompt().text])
    assert "Bonnie Parker" not in shared and location_note(s, "Bob", 5).data["card"] is None


def test_leaving_a_card_at_the_car_tells_everyone_it_is_no_outlaw():
    """Play, the car's Location: Bonnie or Clyde would be captured there, so a card left is neither."""
    s = dealt()
    a(s, "draw", "Ann")
    a(s, "meld", "Ann", cards=[E(1, "a"), E(1, "b"), E(1, "c")])
    a(s, "look", "Ann", location="board/1", card=E(7, "a"))
    a(s, "leave", "Ann")
    assert odds(s, "Bob", "bonnie") == {n: Fraction(1, 9) for n in range(2, 11)}
    assert location_note(s, "Bob", 1).data["not_outlaw"]
    assert "not Bonnie or Clyde" in location_note(s, "Bob", 1).text


def test_the_look_is_compulsory_then_the_car_moves():
    """Play: after a meld or layoff you must look (if a card is there), then move the car."""
    s = dealt()
    a(s, "draw", "Ann")
    a(s, "meld", "Ann", cards=[E(5, "a"), E(5, "b"), E(5, "c")])
    refused(s, {"type": "discard", "player": "Ann", "card": E(9, "a")}, match="Finish the play")
    refused(s, {"type": "look", "player": "Ann", "location": "board/4", "card": E(8, "a")}, match="Look under")
    a(s, "look", "Ann", location="board/5", card=E(8, "a"))
    assert s.state.car == 1
    a(s, "take", "Ann")
    assert s.state.car == 2 and s.journal("Ann", "notes").where(E(8, "a")) == "Ann's hand"
    assert "took the card under Platte City, Missouri (5)" in s.public_log()[-2]


def test_layoff_moves_the_car_up_or_down_never_off_the_board():
    """Play: a layoff moves the car up or down one; do not move the car off the board."""
    s = dealt()
    a(s, "draw", "Ann")
    a(s, "meld", "Ann", cards=[E(5, "a"), E(5, "b"), E(5, "c")])
    a(s, "look", "Ann", location="board/5", card=E(8, "a"))
    a(s, "leave", "Ann")                                  # car 1 -> 2
    a(s, "layoff", "Ann", cards=[E(5, "d")])
    a(s, "look", "Ann", location="board/5", card=E(8, "a"))
    a(s, "leave", "Ann")
    assert s.prompt().option("move_car").targets["direction"] == ("up", "down")
    refused(s, {"type": "move_car", "player": "Ann", "direction": "sideways"}, BadInput)
    a(s, "move_car", "Ann", direction="down")
    assert s.state.car == 1
    a(s, "layoff", "Ann", cards=[E(5, "e")])             # at Kaufman a layoff can only go up
    a(s, "look", "Ann", location="board/5", card=E(8, "a"))
    a(s, "leave", "Ann")
    assert s.state.car == 2 and s.state.phase == "play"


def test_a_meld_on_gibson_leaves_the_car_there():
    """Play: do not move the car off the board (a meld on Gibson, 10)."""
    s = dealt()
    s.state.car = 10
    a(s, "draw", "Ann")
    a(s, "meld", "Ann", cards=[E(10, "a"), E(10, "b"), E(10, "c")])
    a(s, "look", "Ann", location="board/10", card=E(2, "a"))
    a(s, "leave", "Ann")
    assert s.state.car == 10 and "stays on Gibson" in s.public_log()[-1]


def test_no_look_when_the_location_is_empty():
    """Play: look 'if there is a card' - a taken card leaves the location empty."""
    s = dealt()
    a(s, "draw", "Ann")
    a(s, "meld", "Ann", cards=[E(5, "a"), E(5, "b"), E(5, "c")])
    a(s, "look", "Ann", location="board/5", card=E(8, "a"))
    a(s, "take", "Ann")
    a(s, "layoff", "Ann", cards=[E(5, "d")])
    assert s.state.phase == "move" and "no card under Platte City" in s.public_log()[-1]


def test_keep_a_card_to_discard():
    """Discard (our reading): nobody melds or lays off their whole hand; the hand ends by a discard."""
    s = dealt()
    a(s, "draw", "Ann")                    # 11 cards
    a(s, "meld", "Ann", cards=[E(1, x) for x in "abcdef"])
    a(s, "look", "Ann", location="board/1", card=E(9, "a"))
    a(s, "leave", "Ann")
    refused(s, {"type": "meld", "player": "Ann", "cards": [E(2, x) for x in "abcde"]}, match="Keep at least one")
    a(s, "meld", "Ann", cards=[E(2, x) for x in "abcd"])
    a(s, "look", "Ann", location="board/2", card=E(9, "b"))
    a(s, "leave", "Ann")
    refused(s, {"type": "hinton", "player": "Ann", "card": H(1), "use": "look", "location": "board/3"},
            match="Keep at least one")


# --- Play: Ted Hinton --------------------------------------------------------------------------
def test_one_ted_hinton_per_turn_draw_two():
    """Play, Ted Hinton: at most one per turn; draw 2 from the Case File; then it goes to the FBI Files."""
    s = dealt()
    a(s, "draw", "Ann")
    a(s, "hinton", "Ann", card=H(1), use="draw")
    assert count(s, "Ann/hand") == 12 and count(s, "casefile") == 43
    assert s.journal("Bob", "notes").where(H(1)) == "FBI Files"
    refused(s, {"type": "hinton", "player": "Ann", "card": H(2), "use": "draw"}, match="only one")
    refused(s, {"type": "hinton", "player": "Bob", "card": H(2), "use": "draw"}, match="Ann's turn")


def test_ted_hinton_refuses_other_cards_and_bad_uses():
    """Play, Ted Hinton: only a Ted Hinton card; its three uses."""
    s = dealt()
    a(s, "draw", "Ann")
    refused(s, {"type": "hinton", "player": "Ann", "card": E(1, "a"), "use": "draw"}, match="not a Ted Hinton")
    refused(s, {"type": "hinton", "player": "Ann", "card": H(1), "use": "steal"}, BadInput)
    refused(s, {"type": "hinton", "player": "Ann", "card": H(1), "use": "look", "location": "board/11"}, BadInput)
    refused(s, {"type": "hinton", "player": "Ann", "card": H(1), "use": "look", "location": "Ann/hand"}, BadInput)


def test_ted_hinton_look_must_leave_an_outlaw_even_at_the_car():
    """Play, Ted Hinton: 'If the card is Bonnie or Clyde, you must leave it' (no exception at the car)."""
    s = dealt()
    a(s, "draw", "Ann")
    a(s, "hinton", "Ann", card=H(1), use="look", location="board/1")
    a(s, "look", "Ann", location="board/1", card=C)
    refused(s, {"type": "take", "player": "Ann"}, match="must stay")
    a(s, "leave", "Ann")
    assert count(s, "board/1") == 1 and odds(s, "Ann", "clyde") == {1: 1}
    assert odds(s, "Bob", "clyde") == {n: Fraction(1, 10) for n in range(1, 11)}   # no public exclusion
    assert s.journal("Bob", "notes").where(H(1)) == "FBI Files"


def test_ted_hinton_take_from_the_files_is_private_and_others_keep_one_of_these():
    """Play, Ted Hinton: take any one card from the FBI Files without showing anyone."""
    s = dealt(first=E(4, "a"))
    a(s, "draw", "Ann")
    a(s, "discard", "Ann", card=E(6, "a"))
    a(s, "draw", "Bob")
    a(s, "hinton", "Bob", card=H(2), use="take")
    refused(s, {"type": "take_file", "player": "Bob", "card": E(7, "a")}, match="not in the FBI Files")
    events = a(s, "take_file", "Bob", card=E(4, "a"))
    assert all("Joplin" not in e.text or e.visibility.scope == "private" for e in events)
    assert s.journal("Bob", "notes").where(E(4, "a")) == "Bob's hand"
    ann = s.journal("Ann", "notes")
    assert ann.where(E(4, "a")) == "Unknown" and ann.where(E(6, "a")) == "Unknown"
    (group,) = next(d for d in ann.deductions if d.kind == "fbi_files").data["unseen"]
    assert sorted(group["cards"]) == sorted([E(4, "a"), E(6, "a")]) and group["in_files"] == 1
    assert ann.where(H(2)) == "FBI Files"          # Ted Hinton went on top, face up
    assert s.view(None).cards[-1].name is None or "Joplin" not in str(s.view(None).cards)
    # Bob discards the card he took: Ann can now place both cards again.
    a(s, "discard", "Bob", card=E(4, "a"))
    ann = s.journal("Ann", "notes")
    assert ann.where(E(4, "a")) == "FBI Files" and ann.where(E(6, "a")) == "FBI Files"


def test_ted_hinton_takes_one_card_from_the_files_not_more():
    """Play, Ted Hinton: "take any one card from the FBI Files" - one card, then Ted Hinton goes on top;
    a second card is refused and nothing changes."""
    s = dealt(first=E(4, "a"))
    a(s, "draw", "Ann")
    a(s, "discard", "Ann", card=E(6, "a"))
    a(s, "draw", "Bob")
    a(s, "discard", "Bob", card=E(7, "a"))
    a(s, "draw", "Ann")
    a(s, "hinton", "Ann", card=H(2), use="take")
    a(s, "take_file", "Ann", card=E(4, "a"))
    refused(s, {"type": "take_file", "player": "Ann", "card": E(7, "a")}, match="only with Ted Hinton")
    assert count(s, "files") == 3 and count(s, "Ann/hand") == 11 - 1 + 1
    assert s.journal("Ann", "notes").where(H(2)) == "FBI Files"


def test_two_cards_laid_off_at_once_are_one_layoff_one_at_a_time_two():
    """Play, Evidence Cards: two cards of one location laid off "both at once (which counts as one
    layoff)" give one look and one move of the car; "one at a time (which counts as two layoffs)"
    give a look and a move each."""
    s = dealt()
    a(s, "draw", "Ann")
    a(s, "meld", "Ann", cards=[E(5, "a"), E(5, "b"), E(5, "c")])
    a(s, "look", "Ann", location="board/5", card=E(8, "a"))
    a(s, "leave", "Ann")                                  # the meld moved the car 1 -> 2
    a(s, "layoff", "Ann", cards=[E(5, "d"), E(5, "e")])
    a(s, "look", "Ann", location="board/5", card=E(8, "a"))
    a(s, "leave", "Ann")
    a(s, "move_car", "Ann", direction="up")
    assert s.state.car == 3 and s.state.phase == "play" and count(s, "Ann/played/5") == 5
    looks = [t for t in s.public_log() if t.startswith("Ann looked at the card under")]
    assert len(looks) == 2                                # the meld's and the one layoff's
    a(s, "discard", "Ann", card=E(9, "a"))
    a(s, "draw", "Bob")
    a(s, "meld", "Bob", cards=[E(6, "a"), E(6, "b"), E(6, "c")])
    a(s, "look", "Bob", location="board/6", card=E(8, "b"))
    a(s, "leave", "Bob")                                  # car 3 -> 4
    for card in (E(6, "d"), E(6, "e")):
        a(s, "layoff", "Bob", cards=[card])
        a(s, "look", "Bob", location="board/6", card=E(8, "b"))
        a(s, "leave", "Bob")
        a(s, "move_car", "Bob", direction="up")
    assert s.state.car == 6 and count(s, "Bob/played/6") == 5
    looks = [t for t in s.public_log() if t.startswith("Bob looked at the card under")]
    assert len(looks) == 3                                # the meld's and one per layoff


def test_ted_hinton_draw_two_with_one_card_left_draws_it_and_ends_the_hand():
    """Ending a Hand / Ted Hinton (our reading): with one card left, draw 2 draws it; the hand ends
    after the discard; with none left, draw 2 cannot be chosen."""
    s = dealt()
    while count(s, "casefile") > 1:
        p = s.state.current
        a(s, "draw", p)
        a(s, "discard", p, card=next(c for c in s.rules.deck.cards if s.state.knowledge["~referee"].token_of(c)
                                     is None and "outlaw" not in c and "hinton" not in c))
    p = s.state.current
    a(s, "take_discard", p)
    a(s, "hinton", p, card=H(3), use="draw")
    assert count(s, "casefile") == 0 and "the hand ends after" in s.public_log()[-1]
    assert s.prompt().option("hinton") is None          # one Ted Hinton per turn
    refused(s, {"type": "hinton", "player": p, "card": H(4), "use": "draw"}, match="only one")
    a(s, "discard", p, card=H(5))
    assert s.state.results[-1]["went_out"] is False and s.state.phase == "deal"


# --- Ending a Hand and Scoring -------------------------------------------------------------------
def go_out(s: Session, p: str, car_locations=None, finds=(B, C)) -> None:
    """``p`` draws, melds three sets where the car is (finding ``finds``), and discards the last card."""
    a(s, "draw", p)
    last = s.state.table.count(Place("hand", owner=p)) - 7
    car = s.state.car
    car_locations = car_locations or ((car, 3), (car + 1, 3), (car + 2, last))
    finds = list(finds)
    for n, k in car_locations:
        a(s, "meld", p, cards=[E(n, x) for x in "abcdef"[:k]])
        if finds:
            a(s, "look", p, location=f"board/{n}", card=finds.pop(0))
        else:
            a(s, "look", p, location=f"board/{n}", card=E(10, "abcdef"[n]))
            a(s, "leave", p)
    a(s, "discard", p, card=E(9, "f"))


def test_a_captured_outlaw_scores_whatever_its_captor_later_misreads():
    """Scoring ("Bonnie or Clyde 10 points" each, face up in front of the captor) and docs/rules (Checking),
    issue 27: Ann captured Bonnie in front of everyone; later she reads a card under another location as
    Bonnie (a mix-up, confirmed behind the gate) and leaves it. The hand's scoring, shown to all, still
    counts her Bonnie: it named captured outlaws from the referee's notes, which followed her private
    misread, so everyone's scores told of it."""
    def game(mix_up: bool) -> Session:
        s = dealt()
        a(s, "draw", "Ann")
        a(s, "meld", "Ann", cards=[E(1, "a"), E(1, "b"), E(1, "c")])
        a(s, "look", "Ann", location="board/1", card=B)                 # captured at the car
        a(s, "discard", "Ann", card=E(9, "a"))
        a(s, "draw", "Bob")
        a(s, "discard", "Bob", card=E(9, "b"))
        a(s, "draw", "Ann")
        a(s, "meld", "Ann", cards=[E(5, "a"), E(5, "b"), E(5, "c")])    # the car is on 2: board/5 is away
        s.apply({"type": "look", "player": "Ann", "location": "board/5", "card": B if mix_up else E(8, "a"),
                 "confirm": mix_up})
        a(s, "leave", "Ann")
        return s

    right, mixed = game(False), game(True)
    assert mixed.view(None) == right.view(None) and mixed.view("Bob") == right.view("Bob")
    scores = [s.rules.score_hand(s.state, "Bob", False) for s in (right, mixed)]
    assert scores[0] == scores[1]
    assert any(ln["item"] == "capture" and ln["card"] == B for ln in scores[1]["lines"] if ln["player"] == "Ann")


def test_going_out_scores_the_cars_number_and_a_shut_out():
    """Ending a Hand / Scoring: sideways 4, Bonnie and Clyde 10 each, bonus = the car's location, and
    the shut-out: everyone else scores 0."""
    s = dealt(("Ann", "Bob", "Cy"), dealer="Cy")
    go_out(s, "Ann")
    res = s.state.results[-1]
    assert res["points"] == {"Ann": 9 * 4 + 20 + 4, "Bob": 0, "Cy": 0} and res["shut_out"]
    assert [ln["item"] for ln in res["lines"] if ln["player"] == "Ann"] == ["sideways", "capture", "capture", "bonus"]


def test_no_shut_out_with_only_one_outlaw_and_others_keep_their_points():
    """Scoring: others score normally unless the player who ended the hand holds both outlaws."""
    s = dealt()
    a(s, "draw", "Ann")
    a(s, "meld", "Ann", cards=[E(5, "a"), E(5, "b"), E(5, "c")])
    a(s, "look", "Ann", location="board/5", card=E(8, "a"))
    a(s, "leave", "Ann")
    a(s, "discard", "Ann", card=E(9, "a"))
    go_out(s, "Bob", finds=(B,))                          # the car is on Sherman: Bonnie under it
    res = s.state.results[-1]
    assert not res["shut_out"] and res["points"] == {"Ann": 6, "Bob": 40 + 10 + 5}


def test_shut_out_applies_when_the_case_file_runs_out_too():
    """Scoring, Shut Out (our reading): 'if you ended the hand' - also by the Case File running out."""
    s = dealt()
    a(s, "draw", "Ann")
    a(s, "meld", "Ann", cards=[E(1, "a"), E(1, "b"), E(1, "c")])
    a(s, "look", "Ann", location="board/1", card=B)
    a(s, "meld", "Ann", cards=[E(2, "a"), E(2, "b"), E(2, "c")])
    a(s, "look", "Ann", location="board/2", card=C)
    a(s, "discard", "Ann", card=E(9, "a"))
    a(s, "draw", "Bob")
    a(s, "meld", "Bob", cards=[E(5, "a"), E(5, "b"), E(5, "c")])
    a(s, "look", "Bob", location="board/5", card=E(8, "a"))
    a(s, "leave", "Bob")
    a(s, "discard", "Bob", card=E(9, "b"))
    pool = iter(c for c in s.rules.deck.cards if s.state.knowledge["~referee"].token_of(c) is None
                and "outlaw" not in c)
    while True:
        p = s.state.current
        a(s, "draw", p)
        last = count(s, "casefile") == 0
        a(s, "discard", p, card=next(pool))
        if last:
            break
    res = s.state.results[-1]
    assert not res["went_out"] and res["ender"] == p
    if p == "Ann":
        assert res["shut_out"] and res["points"] == {"Ann": 44, "Bob": 0}
    else:
        assert not res["shut_out"] and res["points"] == {"Ann": 44, "Bob": 6}


def test_going_out_on_the_turn_the_case_file_ran_out_earns_the_bonus():
    """Ending a Hand (our reading): discarding your last card is going out, even on the last draw."""
    s = dealt()
    pool = iter(c for c in s.rules.deck.cards if s.state.knowledge["~referee"].token_of(c) is None
                and "outlaw" not in c and "location-1-" not in c and "location-2-" not in c)
    while count(s, "casefile") > 1:
        p = s.state.current
        a(s, "draw", p)
        a(s, "discard", p, card=next(pool))
    p = s.state.current
    a(s, "draw", p)
    a(s, "meld", p, cards=[E(1, x) for x in "abcdef"])
    a(s, "look", p, location="board/1", card=next(pool))
    a(s, "leave", p)
    a(s, "meld", p, cards=[E(2, x) for x in "abcd"])
    a(s, "look", p, location="board/2", card=next(pool))
    a(s, "leave", p)
    a(s, "discard", p, card=next(pool))
    res = s.state.results[-1]
    assert res["went_out"] and res["points"][p] == 40 + 3


def test_the_game_goes_on_until_a_single_leader_reaches_the_target():
    """Scoring and Variant: another hand unless someone has the target (here 200) or more and the most;
    any player deals each new hand (here the one suggested, on the last dealer's left); a new hand
    starts from scratch."""
    s = dealt(target=200)
    players = ["Ann", "Bob"]
    for hand in range(1, 8):
        go_out(s, players[(hand - 1) % 2])
        totals = s.state.scores.totals()
        if hand < 7:
            assert s.outcome is None and s.state.phase == "deal"
            dealer, other = players[(hand + 1) % 2], players[hand % 2]
            assert s.prompt().player == dealer
            refused(s, {"type": "draw", "player": other}, match="turn")
            a(s, "deal", dealer, card=H(1))
            assert s.state.car == 1 and s.state.hand_no == hand + 1
            assert all(e.where == "Unknown" or e.card == H(1) for e in s.journal("Ann", "notes").entries)
    assert totals == {"Ann": 4 * 64, "Bob": 3 * 64}       # 192-192 after six hands was not enough
    assert s.outcome.winners == ("Ann",)
    refused(s, {"type": "draw", "player": "Ann"}, match="over")


# --- What the app knows --------------------------------------------------------------------------
def test_noting_your_hand_is_private_and_counts_in_your_journal():
    """What the app knows: cards a player notes from their own hand are theirs alone."""
    s = dealt()
    events = a(s, "note_hand", "Ann", cards=[E(1, "a"), E(1, "b"), E(1, "c")])
    assert [e.text for e in events if e.visibility.scope == "public"] == [
        "Ann noted 3 cards of their own hand in their journal."]
    assert s.journal("Ann", "notes").where(E(1, "a")) == "Ann's hand"
    assert s.journal("Bob", "notes").where(E(1, "a")) == "Unknown"
    hint = next(d for d in s.journal("Ann", "hints").deductions if d.kind == "sideways")
    assert hint.data["in_your_hand"] == 3
    unseen = next(d for d in s.journal("Ann", "hints").deductions if d.kind == "unseen_evidence")
    assert unseen.data["counts"]["1"] == 3
    a(s, "draw", "Ann")
    a(s, "meld", "Ann", cards=[E(1, "a"), E(1, "b"), E(1, "c")])    # the noted cards themselves
    assert count(s, "Ann/hand") == 8


def test_a_card_seen_under_a_location_is_not_linked_to_what_leaves_that_hand():
    """Privacy: Ann sees a card under a location and takes it; when she later discards that card,
    Bob learns the discard, never that it was the card from the board."""
    s = dealt()
    a(s, "draw", "Ann")
    a(s, "meld", "Ann", cards=[E(5, "a"), E(5, "b"), E(5, "c")])
    a(s, "look", "Ann", location="board/5", card=E(8, "a"))
    a(s, "take", "Ann")
    a(s, "discard", "Ann", card=E(8, "a"))
    assert location_note(s, "Ann", 5).data["card"] == E(8, "a")
    bob = location_note(s, "Bob", 5)
    assert bob.data["card"] is None and "taken by Ann" in bob.text


def test_misread_face_up_card_asks_for_confirmation():
    """Checking what the camera reports: a card already face up elsewhere is questioned."""
    s = dealt(first=E(4, "a"))
    a(s, "draw", "Ann")
    refused(s, {"type": "discard", "player": "Ann", "card": E(4, "a")}, Contradiction)


def test_public_words_never_name_a_private_card():
    """The undo history and the public log name only cards shown to everyone."""
    s = dealt()
    a(s, "draw", "Ann")
    a(s, "note_hand", "Ann", cards=[H(7)])
    a(s, "meld", "Ann", cards=[E(5, "a"), E(5, "b"), E(5, "c")])
    a(s, "look", "Ann", location="board/5", card=C)
    a(s, "leave", "Ann")
    shared = " ".join(s.public_log() + s.undo_history())
    assert "Clyde Barrow" not in shared
    assert s.undo_history()[2] == "Ann noted cards of their hand"
    assert not any("Ted Hinton" in t for t in s.public_log()[2:])
    assert s.rules.place_words(s.state, "board/2", "Ann") == "the card under Sherman, Texas (2)"
    assert s.rules.place_words(s.state, "Ann/hand", "Ann") == "your hand"
    assert s.rules.place_words(s.state, "up", "Ann") == "up (toward Gibson, Louisiana)"
    assert s.rules.place_words(s.state, "Bob", "Ann") == "Bob" and s.rules.place_words(s.state, "files") == \
        "the FBI Files"


def test_exact_placements_count():
    """The odds: each placement of the unknown outlaws on distinct candidate cards is one world class."""
    got = count_placements([1, 2, 3], {1: {"B", "C"}, 2: {"B", "C"}, 3: {"B"}}, ["B", "C"])
    assert got == {"B": {1: Fraction(1, 4), 2: Fraction(1, 4), 3: Fraction(1, 2)},
                   "C": {1: Fraction(1, 2), 2: Fraction(1, 2)}}


def test_a_saved_game_resumes_identically(tmp_path: Path):
    """Store: the game file replays to the identical game, over a hand boundary."""
    path = tmp_path / "bc.gumshoe"
    s = Session.new(GAME, ["Ann", "Bob"], path=path)
    a(s, "deal", "Bob", card=H(15))
    go_out(s, "Ann")
    a(s, "deal", "Ann", card=E(3, "a"))
    a(s, "take_discard", "Bob")
    s.undo()
    views = snapshot(s)
    s.close()
    again = Session.resume(path)
    assert snapshot(again) == views and again.state.scores.totals() == {"Ann": 64, "Bob": 0}
    again.close()
