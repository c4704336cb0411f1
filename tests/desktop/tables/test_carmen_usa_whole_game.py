"""Issue 29, for every table: a whole game of Where in the USA is Carmen Sandiego, played on the demo
shuffle by the simulated family and read from across the room after every move: no text a family
reads under 15 px (key texts: the prompt, the current player, the legal choices, 24 px), painted
words included (the landmarks' names, the cards' colours and types, the question card, the pile, the
finale's states, countdown and tokens), and none of the table's painted words cut for want of room
(the simulated tokens' capitals written out while the clock runs, six agents' worth, included)."""

from __future__ import annotations

import pytest

from tests.desktop.driver import open_demo_table, play_on
from PySide6.QtWidgets import QWidget

from tests.desktop.test_type_size import small_type

#: a laptop less its taskbar, and the smallest window the app fits
SIZES = [(1366, 728), (1280, 680)]
NAMES = ["Ann", "Bob", "Cyd", "Dee", "Eve", "Fay"]
#: more moves than a demo game takes (the test says if it did not end)
MOST_MOVES = 1500


def cut(table) -> list[str]:
    """The table's painted words that did not fit their room even at the least size."""
    return [f"cut: {w.objectName() or type(w).__name__} {d.text!r}" for w in table.findChildren(QWidget)
            if w.isVisible() and hasattr(w, "drawn_texts") for d in w.drawn_texts() if not d.fits]


@pytest.mark.parametrize("players,size", [(3, SIZES[0]), (6, SIZES[1])], ids=["3p-1366", "6p-1280"])
def test_a_whole_game_reads_from_across_the_room(window, qtbot, monkeypatch, players, size):
    monkeypatch.setenv("GUMSHOE_DEMO_SEED", "12")     # a short game that reaches the check
    window.resize(*size)
    open_demo_table(window, qtbot, "carmen-usa", NAMES[:players])
    problems = [f"placing: {p}" for p in small_type(window.table) + cut(window.table.table)]
    phases = set()
    for move in play_on(window, MOST_MOVES):
        phases.add(window.controller.session.state.phase)
        problems += [f"move {move} ({window.controller.session.state.phase}): {p}"
                     for p in small_type(window.table) + cut(window.table.table)]
    session = window.controller.session
    assert session.outcome is not None, f"the game did not end in {MOST_MOVES} moves"
    assert {"answering", "looking", "finale_place", "finale_check"} <= phases, sorted(phases)
    assert not problems, "\n".join(problems[:12])
