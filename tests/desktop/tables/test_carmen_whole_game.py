"""Issue 29: a whole Carmen Sandiego card game, played on the demo shuffle by the simulated
family, read from across the room after every move: no text a family reads under 15 px (the
key texts 24 px), painted words included (the card faces, the labels of the cards everyone has
seen, the piles, the die), at 1366x768 and at 1920x1080; and no row of a gumshoe's cards hidden
behind another (each card whole in sight: the rows of one gumshoe never overlap); and the name
of every card that went back face down written on it (a failed warrant's)."""

from __future__ import annotations

import pytest

from tests.desktop.conftest import long_only
from PySide6.QtCore import QRect

from tests.desktop.driver import open_demo_table, play_on
from tests.desktop.test_type_size import small_type

#: a laptop and a big screen, each less its taskbar
SIZES = [(1366, 728), (1920, 1040)]
NAMES = ["Ann", "Bob", "Cyd", "Dee"]
#: more moves than a demo game takes (the walk says if it did not end)
MOST_MOVES = 600


def hidden_rows(table) -> list[str]:
    """Every card of a gumshoe's (or of the center) that another of its cards lies over, and
    every card a fanned column shows only the top strip of."""
    problems = []
    for owner, cards in cards_by_owner(table).items():
        for i, (place, a) in enumerate(cards):
            if getattr(a, "exposed", None) is not None:
                problems.append(f"{place}: only its top {a.exposed:.0f} px in sight")
            for other, b in cards[i + 1:]:
                if card_rect(a).intersects(card_rect(b)):
                    problems.append(f"{place} and {other} overlap")
    return problems


def names_left_out(table) -> list[str]:
    """Every card back face down that everyone saw whose name is not written on it."""
    problems = []
    for place, card in table.slot_buttons.items():
        seen = getattr(card.look, "seen", "")
        if card.isVisible() and seen and seen.split() not in [d.text.split() for d in card.drawn_texts()]:
            problems.append(f"{place}: {seen!r} left out")
    return problems


def cards_by_owner(table) -> dict[str, list]:
    out: dict[str, list] = {}
    for place, card in table.slot_buttons.items():
        if card.isVisible():
            out.setdefault(place.split("/")[0], []).append((place, card))
    return out


def card_rect(card) -> QRect:
    """The card itself (not the room kept for its glow), in the window's coordinates."""
    rect = card.card_rect().toAlignedRect()
    return rect.translated(card.mapTo(card.window(), rect.topLeft()) - rect.topLeft())


#: (players, demo shuffle): found with tests/desktop/test_family_walk.py's ``short_seed``, the
#: shuffles of the first twenty whose simulated game ends soonest: two gumshoes make every move of
#: the game (a failed warrant, a match, a swap and a declined one, the final warrant); three and
#: four a shorter game with warrants, swaps and flipped Henchmen
GAMES = {2: (7, {"roll", "peek", "end_turn", "warrant", "swap", "decline_swap", "flip_henchman", "final_warrant"}),
         3: (12, {"roll", "peek", "end_turn", "warrant", "swap", "decline_swap", "flip_henchman", "final_warrant"}),
         4: (17, {"roll", "peek", "end_turn", "warrant", "swap", "flip_henchman"})}
CASES = [(2, SIZES[0]), (4, SIZES[1]), pytest.param(2, SIZES[1], marks=long_only),
         pytest.param(3, SIZES[1], marks=long_only), pytest.param(4, SIZES[0], marks=long_only)]


@pytest.mark.parametrize("players,size", CASES)
def test_a_whole_game_reads_from_across_the_room_with_every_card_in_sight(window, qtbot, monkeypatch, players, size):
    seed, wanted = GAMES[players]
    monkeypatch.setenv("GUMSHOE_DEMO_SEED", str(seed))
    window.resize(*size)
    open_demo_table(window, qtbot, "carmen-cards", NAMES[:players])
    table = window.table.table
    problems = [f"dealt: {p}" for p in small_type(window.table) + hidden_rows(table)]
    seen_labels = 0
    for move in play_on(window, MOST_MOVES):
        problems += [f"move {move}: {p}" for p in small_type(window.table) + hidden_rows(table) + names_left_out(table)]
        seen_labels += sum(1 for card in table.slot_buttons.values() if card.isVisible() and getattr(card.look, "seen", ""))
    session = window.controller.session
    assert session.outcome is not None, f"the game did not end in {MOST_MOVES} moves"
    assert wanted <= {action.type for action in session.done}, "the shuffle no longer plays the moves it was chosen for"
    if "decline_swap" in wanted:
        assert seen_labels, "no card went back face down with its name on a label (a failed warrant)"
    assert problems == []


def test_the_row_check_finds_cards_hidden_behind_others(window, qtbot):
    """The check can fail: a gumshoe's Top card moved over their Bottom one is found."""
    window.resize(*SIZES[1])
    open_demo_table(window, qtbot, "carmen-cards", NAMES[:2])
    table = window.table.table
    assert hidden_rows(table) == []
    top, center = table.slot_buttons["Ann/loot/top"], table.slot_buttons["Ann/loot/center"]
    top.move(top.x(), center.y() - 20)
    assert hidden_rows(table) == ["Ann/loot/top and Ann/loot/center overlap"]
