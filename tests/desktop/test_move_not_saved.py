"""A move that cannot be saved (the disk is full, the memory stick was pulled out) is said plainly on
the table, changes nothing, and can be made again once the disk has room (issue 27, 3).

Before, the engine refused the move correctly but the table's handlers caught only rule violations:
the store's error went into Qt's event loop and nothing was said. Each game runs in a child
process: a file-size limit (``RLIMIT_FSIZE``, as ``ulimit -f``) makes the disk "full" for that
process alone. Where the test may mount file systems (root), a real full disk is tried too: a
small tmpfs holding the family's folder, filled up.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from desktop.tables import installed_games

ROOT = Path(__file__).resolve().parents[2]

CHILD = textwrap.dedent(r'''
    import os, resource, sys
    from pathlib import Path
    from PySide6.QtWidgets import QApplication
    app = QApplication([])
    from desktop.games import GameController
    from desktop.main_window import MainWindow
    from engine.game import Assist
    from engine.games import game_info

    game, how = sys.argv[1], sys.argv[2]
    home = Path(os.environ["GUMSHOE_HOME"])
    window = MainWindow(camera="off")
    window.resize(1366, 768)
    window.show()
    options = {o.id: o.default for o in game_info(game).options}
    controller = GameController.new(game, ["Ann", "Bob"], {"Ann": 9, "Bob": 10}, Assist.FULL,
                                    options=options, demo=True)
    window._open(controller)
    window.show_table()
    app.processEvents()
    table, session = window.table, controller.session

    made = 0
    while made < 3:                          # a game a few moves in: there is a move to take back
        made += table.send(controller.simulator.random_action(session))
    before = (len(session.done), session.undo_history(), session.public_log())

    filler = home / "filler"
    def disk_full():
        if how == "fsize":
            resource.setrlimit(resource.RLIMIT_FSIZE, (0, resource.RLIM_INFINITY))
        else:                                # fill the small file system to its last byte
            with open(filler, "wb", buffering=0) as f:
                for size in (65536, 1):
                    try:
                        while True:
                            f.write(b"\0" * size)
                    except OSError:
                        pass
    def disk_has_room():
        if how == "fsize":
            resource.setrlimit(resource.RLIMIT_FSIZE, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
        else:
            filler.unlink()

    def said():
        return table.error.text() if table.error.isVisible() else ""

    disk_full()
    for _ in range(200):                     # the simulated players try moves; the rules refuse some
        move = controller.simulator.random_action(session)
        assert table.send(move) is False, "a move the disk refused was taken as made"
        app.processEvents()
        if "could not save" in said():
            break
    print("MOVE", said(), flush=True)
    after_move = (len(session.done), session.undo_history(), session.public_log())
    table.confirm_undo()                     # what "Yes, take it back" does
    app.processEvents()
    print("UNDO", said(), flush=True)
    after_undo = (len(session.done), session.undo_history(), session.public_log())
    print("UNCHANGED", after_move == before and after_undo == before, flush=True)
    disk_has_room()
    print("AGAIN", table.send(move), len(session.done) == before[0] + 1, flush=True)
    window.close()                           # the camera's threads end with the window
''')


def run_child(game: str, how: str, home: Path) -> dict[str, str]:
    env = dict(os.environ, GUMSHOE_HOME=str(home), QT_QPA_PLATFORM="offscreen", GUMSHOE_DEMO_SEED="3")
    proc = subprocess.run([sys.executable, "-c", CHILD, game, how], capture_output=True, text=True, env=env,
                          cwd=ROOT, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    lines = dict(line.split(" ", 1) for line in proc.stdout.splitlines() if " " in line)
    assert "Traceback" not in proc.stderr, proc.stderr[-2000:]     # nothing escaped into Qt's event loop
    return lines


def check_said_and_unchanged(lines: dict[str, str], why: str) -> None:
    assert lines["MOVE"].startswith("Gumshoe could not save this move: " + why), lines["MOVE"]
    assert "Nothing was lost" in lines["MOVE"] and "try again" in lines["MOVE"]
    assert lines["UNDO"].startswith("Gumshoe could not save taking the move back: " + why), lines["UNDO"]
    assert lines["UNCHANGED"] == "True", "the refused move or undo changed the game"
    assert lines["AGAIN"] == "True True", "the move could not be made once the disk had room"


@pytest.mark.parametrize("game", installed_games())
def test_a_move_the_disk_refuses_is_said_and_changes_nothing(game, tmp_path: Path) -> None:
    # A file-size limit reads as a write error to SQLite: the words name both likely causes.
    check_said_and_unchanged(run_child(game, "fsize", tmp_path), "the disk could not be written to")


@pytest.fixture
def small_disk(tmp_path: Path):
    """A 2 MB tmpfs (needs root and mount rights; skipped without)."""
    where = tmp_path / "disk"
    where.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a small file system needs root")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(where)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode(errors='replace').strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True)


def test_a_really_full_disk_is_called_full(small_disk: Path) -> None:
    check_said_and_unchanged(run_child("carmen-cards", "tmpfs", small_disk), "the disk is full")


def test_a_private_look_the_disk_refuses_stays_open_and_says_so(table, monkeypatch) -> None:
    """The card entry behind the privacy gate (a peek) catches the refused save too: its words show
    in the entry, the card stays chosen and can be sent again once the disk has room."""
    import sqlite3

    from engine.store import StoreError

    table.new_game([("Ann", 9), ("Bob", 10)])
    table.deal({})
    table.roll("loot")
    place = sorted(table.legal_slots())[0]
    table.click(f"slot:{place}")
    table.click("gate:reveal")
    table.choose("card", table.card_at(place))
    session = table.window.controller.session
    commit = session._commit

    def full(*args, **kwargs):
        cause = sqlite3.OperationalError("database or disk is full")
        cause.sqlite_errorname = "SQLITE_FULL"           # as SQLite sets it
        raise StoreError("Could not save move 2.") from cause

    monkeypatch.setattr(session, "_commit", full)
    table.click("entry:submit")
    error = table.find("entry-error")
    assert error.text().startswith("Gumshoe could not save this move: the disk is full."), error.text()
    assert table.window.stack.currentWidget() is table.window.gate, "the look closed as if it were noted"
    assert len(session.done) == 1
    monkeypatch.setattr(session, "_commit", commit)
    table.click("entry:submit")
    assert len(session.done) == 2


def test_a_controller_that_cannot_be_made_leaves_its_file_unlocked(tmp_path, monkeypatch) -> None:
    """Issue 27, 4 (the same defect in the desktop): when the controller around an opened game
    cannot be made, the game's file is closed with it and the list does not call it 'open in
    another window'."""
    from desktop.games import GameController
    from engine.game import Assist
    from engine.saves import describe_game

    path = tmp_path / "g.gumshoe"
    GameController.new("carmen-cards", ["Ann", "Bob"], {"Ann": 9, "Bob": 10}, Assist.FULL, path=path).close()

    def broken(self, session, path):
        raise ValueError("the simulated deal was refused")

    monkeypatch.setattr(GameController, "__init__", broken)
    with pytest.raises(ValueError):
        GameController.resume(path)
    monkeypatch.undo()
    assert "another window" not in (describe_game(path).problem or "")
    GameController.resume(path).close()
