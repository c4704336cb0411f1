"""Prompts read as sentences (issue 28, 6): an action's name and what to do next are each a sentence
on a line of their own, never glued ("Deal and turn up the first card Pick who deals.").
Every game's prompts are walked: the engine's, and those of each action begun on the table.
"""

from __future__ import annotations

import re

import pytest

from desktop.tables import installed_games
from desktop.widgets import sentence
from engine.games import game_info

from .driver import open_demo_table, play_on

INSTRUCTIONS = "Pick|Flip|Choose|Look|Roll|Show|Hold|Deal|Click|Take|Put|Say"
GLUED = re.compile(rf"[a-z0-9)] ({INSTRUCTIONS}) ")


def sentence_problems(text: str) -> list[str]:
    """What keeps each line of ``text`` from reading as sentences."""
    problems = []
    for line in filter(None, (part.strip() for part in text.split("\n"))):
        if not re.match(r"[A-Z0-9\"\u201c(]", line):
            problems.append(f"starts in lower case: {line!r}")
        if line[-1] not in ".?!:\u2026)\"\u201d":
            problems.append(f"does not end as a sentence: {line!r}")
        if GLUED.search(line):
            problems.append(f"two sentences glued together: {line!r}")
    return problems


def test_the_check_can_fail() -> None:
    assert sentence_problems("Deal and turn up the first card Pick who deals.")
    assert sentence_problems("moved up to 3 spaces")
    assert not sentence_problems("Deal and turn up the first card.\nPick who deals.")
    assert sentence("Moved up to 3 spaces") == "Moved up to 3 spaces."


@pytest.mark.parametrize("game", installed_games())
def test_every_prompt_a_game_shows_is_made_of_sentences(window, qtbot, game):
    players = game_info(game).players
    open_demo_table(window, qtbot, game, ["Ann", "Bob", "Cyd"][:max(min(players), 2)])
    screen = window.table
    seen: set[str] = set()
    for _ in play_on(window, 60):
        if window.stack.currentWidget() is not window.table or screen.table is None:
            window.show_table()
            continue
        prompt = window.controller.session.prompt()
        seen.add(screen.prompt_label.text())
        for option in prompt.options:
            if screen.table.handles(option) or not any(len(v) > 1 for v in option.targets.values()):
                continue
            screen.start_option(option)
            if screen.flow is not None:
                seen.add(screen.prompt_label.text())
                screen.cancel_flow()
    problems = [p for text in seen for p in sentence_problems(text)]
    assert problems == [], problems
    assert len(seen) > 3
