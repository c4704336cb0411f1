"""A family goes back and forth: "Resume" on the start screen, then "Back to start" on the table,
again and again (issue 27). Each game, 100 round trips, clicked where a person clicks.

Before the fix the window vanished within 30 round trips (a segmentation fault in the start
screen's saved-games list). A crash kills the process, so each game runs in a child process and
the test reads how it ended.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from desktop.tables import installed_games

ROUND_TRIPS = 100

CHILD = textwrap.dedent(r'''
    import faulthandler, os, sys
    faulthandler.enable()
    from PySide6.QtWidgets import QApplication, QPushButton
    app = QApplication([])
    from desktop.games import GameController
    from desktop.main_window import MainWindow
    from engine.errors import RuleViolation
    from engine.game import Assist
    from engine.games import game_info
    from tests.desktop.in_sight import click_in_sight

    game, trips = sys.argv[1], int(sys.argv[2])
    options = {o.id: o.default for o in game_info(game).options}
    # A game a few moves in: the table has cards, marks and a log to take down each time.
    controller = GameController.new(game, ["Ann", "Bob"], {"Ann": 9, "Bob": 10}, Assist.FULL,
                                    options=options, demo=True)
    moves = 0
    while moves < 4 and controller.session.outcome is None:
        try:
            controller.apply(controller.simulator.random_action(controller.session))
            moves += 1
        except RuleViolation:
            pass
    controller.close()

    window = MainWindow(camera="off")
    window.resize(1366, 768)
    window.show()
    window.show_start()
    app.processEvents()

    def button(name):
        return next(b for b in window.findChildren(QPushButton, name) if b.isVisible())

    for trip in range(trips):
        click_in_sight(button("start:resume"))
        assert window.stack.currentWidget() is window.table, f"trip {trip}: the table did not open"
        click_in_sight(button("leave"))
        assert window.stack.currentWidget() is window.start, f"trip {trip}: not back on the start screen"
    print("ROUND TRIPS", trips, flush=True)
''')


@pytest.mark.parametrize("game", installed_games())
def test_resume_and_back_to_start_a_hundred_times(game, tmp_path: Path) -> None:
    env = dict(os.environ, GUMSHOE_HOME=str(tmp_path), QT_QPA_PLATFORM="offscreen", GUMSHOE_DEMO_SEED="7")
    root = Path(__file__).resolve().parents[2]
    proc = subprocess.run([sys.executable, "-c", CHILD, game, str(ROUND_TRIPS)], capture_output=True, text=True,
                          env=env, cwd=root, timeout=600)
    tail = "\n".join(proc.stderr.splitlines()[-12:])
    assert proc.returncode == 0, f"the app ended with exit status {proc.returncode}:\n{tail}"
    assert f"ROUND TRIPS {ROUND_TRIPS}" in proc.stdout, tail
