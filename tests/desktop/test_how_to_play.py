"""Help at the table (issue 28, 8): every table has a "How to play" button; it opens the rule of
the step the table is in now first (the prompt, then each offered action's rule in our own words
with its rulebook section), then the game in short, in large type, inside the window."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QRect
from PySide6.QtGui import QFontInfo
from PySide6.QtWidgets import QLabel

from desktop.tables import installed_games
from desktop.widgets import sentence
from engine.games import game_info

from .driver import open_demo_table, play_on
from .in_sight import click_in_sight, why_not_in_sight


@pytest.mark.parametrize("game", installed_games())
def test_how_to_play_tells_the_rule_of_now_first(window, qtbot, game):
    window.resize(1366, 768)
    players = game_info(game).players
    open_demo_table(window, qtbot, game, ["Ann", "Bob", "Cyd"][:max(min(players), 2)])
    for _ in play_on(window, 3):
        pass
    if window.stack.currentWidget() is not window.table:
        window.show_table()
    info, prompt = window.controller.info, window.controller.session.prompt()
    click_in_sight(window.findChild(type(window.table.help_button), "howto"))
    dialog = window.table.how_to_play
    assert dialog is not None and dialog.isVisible()
    assert QRect(window.mapToGlobal(QPoint(0, 0)), window.size()).contains(dialog.geometry())
    words = [w.text() for w in dialog.findChildren(QLabel)]
    assert words[:2] == ["Now", sentence(prompt.text)]
    offered = list(dict.fromkeys(o.action for o in prompt.options))
    steps = [w.text() for w in dialog.findChildren(QLabel, "howto:step")]
    assert len(steps) == len(offered), (offered, steps)
    for action, step in zip(offered, steps):
        rule = info.step_rules[action]
        assert step == f"{rule.words} (Rulebook: {rule.section})"
    short = words.index(f"{info.title} in short")
    assert words[short + 1:] == [f"\u2022 {step}" for step in info.how_to_play]
    assert all(QFontInfo(w.font()).pixelSize() >= 15 for w in dialog.findChildren(QLabel))
    close = dialog.findChild(type(window.table.help_button), "howto:close")
    assert why_not_in_sight(close) == ""
    click_in_sight(close)
    assert not dialog.isVisible()
