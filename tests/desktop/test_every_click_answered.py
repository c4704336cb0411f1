"""Every click on the table gets an answer (issue 28, 7): a card, a die or a place that may not be
chosen now changes nothing and says why in one line, the engine's reason with its rule where it
gives one, else what may be done now. Before, such a click did nothing and said nothing.
"""

from __future__ import annotations

import pytest

from desktop.drawn import Piece
from desktop.tables import installed_games
from engine.games import game_info

from .driver import open_demo_table, play_on
from .in_sight import click_in_sight, why_not_in_sight

NAMES = ["Ann", "Bob", "Cyd"]


def refused_pieces(window) -> list[Piece]:
    """The pieces on the table a person can see and click that may not be chosen now."""
    table = window.table.table
    return [p for p in table.findChildren(Piece) if p.isVisible() and not p.legal and p.place
            and p.isEnabled() and why_not_in_sight(p) == ""]


@pytest.mark.parametrize("game", installed_games())
def test_a_click_on_what_may_not_be_chosen_is_answered_and_changes_nothing(window, qtbot, game):
    window.resize(1366, 768)
    players = game_info(game).players
    open_demo_table(window, qtbot, game, NAMES[:max(min(players), 2)])
    session = window.controller.session
    answered = 0
    for _ in play_on(window, 40):
        if window.stack.currentWidget() is not window.table:
            window.show_table()
        pieces = refused_pieces(window)
        if not pieces:
            continue
        window.table._hide_message()
        before = (len(session.done), session.public_log())
        click_in_sight(pieces[len(pieces) // 2])
        assert window.stack.currentWidget() is window.table
        assert (len(session.done), session.public_log()) == before, "a refused click changed the game"
        error = window.table.error
        assert error.isVisible() and error.text().strip(), "the click was not answered"
        assert why_not_in_sight(error) == "", why_not_in_sight(error)
        answered += 1
        if answered >= 3:
            break
    assert answered, "no piece that may not be chosen was found to click"


def test_the_answer_is_the_engines_reason_with_its_rule(table):
    """Carmen: after rolling Loot, a click on another player's Loot card says the rule that
    forbids it (the engine's own words)."""
    table.window.resize(1366, 768)
    table.new_game([("Mark", 12), ("Julie", 8), ("Amberley", 10)])
    table.deal({})
    table.roll("loot")
    click_in_sight(table.find("slot:Mark/loot/top"))
    words = table.text("error")
    assert words == "You rolled Loot: look at one of your own Loot cards. (Rulebook: It's Getting Dicey)" or (
        "(Rulebook: " in words and "own" in words), words
