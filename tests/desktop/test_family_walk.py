"""Whole games played by a family's clicks (issue 28): the simulated players choose each move as
the demo does, and every move is made by clicking where things are on a laptop's screen, each
target first checked to be whole in sight: inside the window, not clipped, covered or scrolled
away (tests/desktop/family.py, tests/desktop/in_sight.py).

Each walk runs in a child process on an offscreen screen of the laptop's size (a drop-down or a
panel opens as it would there; a crash fails the walk instead of the whole test run). A walk says
where it got stuck: the move, what the table asked, and which screen showed.

Sudds & Malone is walked too (issue 29 drew its choices on the table): the deal is entered by
touching each location on the map (its Flimflam card's back), the Conspiracy and the display's
cards (read off the shared screen's card list), the dice by clicking each die and its value, and
every panel (The Office's columns, Investigate's path, snitches and cards, Flimflam, Take Cases,
the Case cards closed, hunches, the extras put back, the reveal) by its drawn choices.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from engine.games import game_info

ROOT = Path(__file__).resolve().parents[2]

CHILD = textwrap.dedent(r'''
    import json, os, sys
    from PySide6.QtWidgets import QApplication
    app = QApplication([])
    from desktop.drawn.motion import set_less_motion
    from desktop.main_window import MainWindow
    from desktop.style import apply_style
    from tests.desktop.driver import open_demo_table
    from tests.desktop.family import FamilyWalk

    game, players, width, height, most = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
    apply_style(app)
    set_less_motion(True)
    window = MainWindow()
    window.setGeometry(0, 0, width, height)
    window.show()
    app.processEvents()
    open_demo_table(window, None, game, ["Ann", "Bob", "Cyd", "Dee", "Eve", "Fay"][:players])
    walk = FamilyWalk(window)
    moves = walk.play(most)
    outcome = window.controller.session.outcome
    print("WALK " + json.dumps({"moves": moves, "clicks": walk.clicks, "made": sorted(set(walk.made)),
                                "over": outcome is not None}), flush=True)
    window.camera_panel.stop()
    window.close()
''')

#: the moves each game's walk reaches (each a rule a family meets), and the most moves a walk makes
GAMES = {
    "carmen-cards": ({"roll", "peek", "end_turn", "warrant", "swap", "flip_henchman", "final_warrant"}, 1500),
    "carmen-usa": ({"ask", "answer", "choices", "move", "look", "accuse", "call", "draw_capitals",
                    "start_clock", "all_placed", "flip_capital", "place_capital"}, 1500),
    "bonnie-clyde": ({"deal", "draw", "discard", "meld", "layoff", "hinton", "look", "leave", "move_car",
                      "take_discard", "note_hand"}, 4000),
    "39-clues": ({"deal", "reveal", "mission", "add", "retrieve", "sabotage", "steal", "money", "block", "allow",
                  "end_turn"}, 1500),
    "sudds-malone": ({"deal", "roll", "take_die", "improve", "calendar", "place_snitch", "peek", "investigate",
                      "use_stoolie", "take_flimflam", "take_cases", "moxie", "reroll", "pick_evidence",
                      "cash_or_points", "close_case", "hunch", "keep_hunch", "buy_hunch", "reveal", "end_turn"},
                     1500),
}


def short_seed(game: str, players: int, wanted: set[str], most: int) -> int:
    """The demo shuffle (of the first twenty) whose simulated game, played by the engine alone,
    ends soonest while making every move ``wanted``: the walk by clicks follows the same game."""
    from engine.session import Session

    names = ["Ann", "Bob", "Cyd", "Dee", "Eve", "Fay"][:players]
    best: tuple[int, int] | None = None
    for seed in range(1, 21):
        session = Session.new(game, names, {"ages": {n: 9 + i for i, n in enumerate(names)}, "demo_seed": seed})
        sim = session.rules.simulator(session.initial, seed)
        made = set()
        for moves in range(most):
            if session.outcome is not None:
                break
            action = sim.random_action(session)
            made.add(action["type"])
            session.apply(action)
        if session.outcome is not None and wanted <= made and (best is None or moves < best[1]):
            best = (seed, moves)
    assert best is not None, f"{game}: no simulated game of {players} made {sorted(wanted)} within {most} moves"
    return best[0]


def walk(tmp_path: Path, game: str, players: int, size: tuple[int, int], most: int, seed: int) -> dict:
    screen = tmp_path / "screen.json"
    screen.write_text(json.dumps({"screens": [{"name": "laptop", "x": 0, "y": 0, "width": size[0],
                                               "height": size[1], "logicalDpi": 96, "dpr": 1}]}))
    env = dict(os.environ, GUMSHOE_HOME=str(tmp_path / "home"), GUMSHOE_DEMO_SEED=str(seed),
               QT_QPA_PLATFORM=f"offscreen:configfile={screen}")
    proc = subprocess.run([sys.executable, "-c", CHILD, game, str(players), str(size[0]), str(size[1]), str(most)],
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=1200)
    lines = [line for line in proc.stdout.splitlines() if line.startswith("WALK ")]
    assert proc.returncode == 0 and lines, "\n".join(proc.stderr.splitlines()[-25:])
    return json.loads(lines[-1][len("WALK "):])


CASES = []
for game, (_, most) in GAMES.items():
    fewest, largest = game_info(game).players
    CASES += [(game, fewest, (1366, 768)), (game, largest, (1366, 768))]
CASES += [(game, game_info(game).players[0], (1280, 680)) for game in GAMES]


@pytest.mark.parametrize("game,players,size", CASES, ids=lambda v: f"{v[0]}x{v[1]}" if isinstance(v, tuple) else str(v))
def test_a_whole_game_by_clicks_in_sight(tmp_path, game, players, size):
    wanted, most = GAMES[game]
    done = walk(tmp_path, game, players, size, most, short_seed(game, players, wanted, most))
    assert done["over"], f"the game did not end in {done['moves']} moves"
    missing = wanted - set(done["made"])
    assert not missing, f"the walk never made: {sorted(missing)} (made {done['made']})"
