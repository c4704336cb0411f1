"""The core expresses the shapes of all five games, not only Carmen's.

Bonnie and Clyde: a hand, a draw pile and a face-up discard, a board location with a card
under it that one player peeks at. Where in the USA: landmark boxes holding a card. The 39
Clues: stacks where only the top card is available. Sudds & Malone: a dice pool, rounds of
scoring, suspects known NOT to be in the conspiracy (negative knowledge). Shuffles erase
what anyone knew of a pile.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from engine.cards import Deck, Card, Kind
from engine.dice import DicePool, DieError, PoolDie
from engine.game import GameState
from engine.knowledge import PUBLIC, REFEREE, private
from engine.scores import Scoreboard
from engine.table import Place
from engine.worlds import card_marginals


def rummy_deck() -> Deck:
    kinds = {"evidence": Kind("evidence", "Evidence", "Evidence", 4)}
    cards = {f"br.evidence.{k}": Card(f"br.evidence.{k}", "br", "evidence", k, k.title())
             for k in ("joplin", "kaufman", "bonnie", "clyde")}
    return Deck("br", "rummy", "Rummy", kinds, cards)


def test_hand_pile_discard_and_a_card_under_a_board_location():
    state = GameState(("Ann", "Bob"), rummy_deck())
    t = state.table
    pile, discard, hand = Place("pile", slot="case-file"), Place("discard", slot="fbi-files"), Place("hand", "Ann")
    under = Place("board", slot="kaufman")
    tokens = [t.add("evidence", pile) for _ in range(4)]
    t.move(tokens[0], under)
    t.move(tokens[1], discard, face_up=True)
    state.reveal(tokens[1], "br.evidence.joplin")
    t.move(tokens[2], hand)
    # Ann peeks under Kaufman: she knows, Bob does not, the referee does.
    state.observe(tokens[0], "br.evidence.bonnie", private("Ann"))
    assert state.knowledge["Ann"].card_at(tokens[0]) == "br.evidence.bonnie"
    assert state.knowledge["Bob"].card_at(tokens[0]) is None
    assert state.knowledge[REFEREE].card_at(tokens[0]) == "br.evidence.bonnie"
    assert state.knowledge["Bob"].card_at(tokens[1]) == "br.evidence.joplin"      # the face-up discard
    # Ann takes the card into her hand: her knowledge follows the token.
    t.move(tokens[0], hand)
    assert state.knowledge["Ann"].token_of("br.evidence.bonnie") == tokens[0]
    assert t.place_of(tokens[0]) == hand and t.count(hand) == 2


def test_shuffle_erases_what_anyone_knew_of_a_pile():
    state = GameState(("Ann", "Bob"), rummy_deck())
    pile = Place("pile", slot="case-file")
    a, b = state.table.add("evidence", pile), state.table.add("evidence", pile)
    state.reveal(a, "br.evidence.joplin")
    state.observe(b, "br.evidence.kaufman", private("Bob"))
    state.shuffle(pile)
    for observer in ("Ann", "Bob", REFEREE):
        assert state.knowledge[observer].card_at(a) is None
        assert state.knowledge[observer].card_at(b) is None
    assert not state.table.face_up(a)
    assert state.events[-1].visibility == PUBLIC


def test_only_the_top_of_a_stack_is_available():
    state = GameState(("Ann", "Bob"), rummy_deck())
    stack = Place("stack", "Ann", "1")
    low, high = state.table.add("evidence", stack, face_up=True), state.table.add("evidence", stack, face_up=True)
    assert state.table.top(stack) == high
    state.table.move(high, Place("discard", "Ann"))
    assert state.table.top(stack) == low


def test_dice_pool_rolled_as_input_and_drafted():
    pool = DicePool((PoolDie("white"), PoolDie("black"), PoolDie("red", owner="Ann")))
    pool = pool.rolled([1, 6, 3])
    assert pool.available("Bob") == [0, 1]             # Ann's personal die is hers alone
    pool = pool.take(2, "Ann")
    assert pool.available("Ann") == [0, 1]
    with pytest.raises(DieError):
        pool.take(2, "Bob")
    with pytest.raises(DieError):
        pool.rolled([1, 2])


def test_scores_over_several_hands():
    board = Scoreboard(("Ann", "Bob")).record(1, {"Ann": 60, "Bob": 10}).record(2, {"Ann": 45, "Bob": 0})
    assert board.reached(100) == ("Ann",)
    with pytest.raises(ValueError):
        board.record(2, {"Ann": 1, "Bob": 1})
    with pytest.raises(ValueError):
        board.record(3, {"Ann": 1})


def test_negative_knowledge_changes_the_odds():
    """Sudds & Malone: a suspect found in the city is not in the conspiracy."""
    state = GameState(("Ann", "Bob"), rummy_deck())
    slots = [state.table.add("evidence", Place("conspiracy", slot=str(i))) for i in range(3)]
    state.knowledge["Ann"].exclude(slots[0], "br.evidence.bonnie")
    cards = {"br.evidence.joplin", "br.evidence.kaufman", "br.evidence.bonnie"}
    cands = {t: cards - state.knowledge["Ann"].excluded.get(t, frozenset()) for t in slots}
    odds = card_marginals(slots, cands, cards, "br.evidence.bonnie")
    assert odds == {slots[0]: Fraction(0), slots[1]: Fraction(1, 2), slots[2]: Fraction(1, 2)}
