"""The new-game form says who goes first as the game's rulebook does, and names the player the engine
then really starts with (Sudds & Malone said "the youngest goes first" while its engine gave the badge
to the player written first)."""

from __future__ import annotations

import pytest

from engine.session import Session

PLAYERS = (("Cyd", 12), ("Ann", 9), ("Bob", 10))


@pytest.mark.parametrize("game, words", [
    # Game and Player Setup: whoever last read a mystery novel takes the badge and goes first.
    ("sudds-malone", "Write first whoever last read a mystery novel: Cyd takes the badge and goes first."),
    # The Carmen games start with the youngest (their rulebooks' setup).
    ("carmen-cards", "Ann is the youngest and goes first."),
    ("carmen-usa", "Ann is the youngest and goes first."),
])
def test_the_form_names_the_player_the_game_starts_with(table, game, words):
    t = table
    t.window.show_new_game(game, demo=False)
    t.find("new:count").setValue(len(PLAYERS))
    for i, (name, age) in enumerate(PLAYERS):
        t.find(f"new:name{i}").setText(name)
        t.find(f"new:age{i}").setValue(age)
    assert t.text("new:first") == words
    names, ages = t.window.new_game.players()
    started = Session.new(game, names, {"ages": ages})          # as the form starts it (GameController.new)
    assert started.prompt().player in words
