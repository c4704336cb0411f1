"""Starting and resuming, as a family meets them (issue 28, item 9).

- After a crash, ``gumshoe --demo`` offers the game Gumshoe stopped in first (README); after an
  ordinary close it goes straight to a new demo game. Before, the offer went to whichever game's
  file was written last (a game resumed and played until the crash kept its older file time: its
  moves wait in SQLite's journal), the Resume button said only "Resume" and the focus was on "New
  game" (the start screen was drawn before the window showed), and an ordinary close was taken for
  a crash.
- "Resume" names the kind of game it resumes: the saved game chosen on the right, whatever the
  shelf on the left shows.
- The buttons under the shelf stay where they are whichever game is chosen.
- A game closed in another window stops being "open in another window" without a click.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path
from types import SimpleNamespace

import pytest
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QListWidget, QPushButton

from .in_sight import click_in_sight, why_not_in_sight

ROOT = Path(__file__).resolve().parents[2]

#: a window plays a game (a new demo game, or a saved one resumed), then the process is killed
#: as a power cut would end it: nothing is closed, nothing is saved on the way out
CHILD = textwrap.dedent(r'''
    import json, os, signal, sys
    from pathlib import Path
    from PySide6.QtWidgets import QApplication
    app = QApplication(sys.argv[:1])
    from desktop.main_window import MainWindow
    from engine.errors import RuleViolation

    window = MainWindow(demo=True, camera="off")
    window.show()
    if sys.argv[1] == "new":
        window.new_game.start_button.click()             # the demo's new-game form: "Deal and start"
    else:
        window.resume_game(Path(sys.argv[1]))
    controller = window.controller
    for _ in range(20):                                   # a few moves by the simulated players
        try:
            controller.apply(controller.simulator.random_action(controller.session))
        except RuleViolation:
            pass
    app.processEvents()
    print(json.dumps({"path": str(controller.path), "title": controller.info.title}), flush=True)
    os.kill(os.getpid(), signal.SIGKILL)
''')


def crash_while_playing(home: Path, what: str = "new") -> dict:
    env = dict(os.environ, GUMSHOE_HOME=str(home), QT_QPA_PLATFORM="offscreen", GUMSHOE_DEMO_SEED="7")
    proc = subprocess.run([sys.executable, "-c", CHILD, what], capture_output=True, text=True, env=env, cwd=ROOT,
                          timeout=300)
    assert proc.returncode == -signal.SIGKILL, proc.stderr[-2000:]
    return json.loads(proc.stdout.splitlines()[-1])


def open_window(qtbot, demo: bool = False):
    from desktop.main_window import MainWindow
    from desktop.style import apply_style

    apply_style(QApplication.instance())
    window = MainWindow(demo=demo, camera="off")
    window.resize(1366, 768)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    return window


def close_window(window) -> None:
    window.close()
    QApplication.processEvents()


def button(window, name: str) -> QPushButton:
    return next(b for b in window.findChildren(QPushButton, name) if b.isVisible())


def click_row(lst: QListWidget, row: int) -> None:
    """Click a list's line where it is drawn, once the list and the line are in sight."""
    problem = why_not_in_sight(lst)
    assert not problem, problem
    item = lst.item(row)
    lst.scrollToItem(item)
    rect = lst.visualItemRect(item)
    assert lst.viewport().rect().contains(rect), f"line {row} of {lst.objectName()} is not whole in sight"
    QTest.mouseClick(lst.viewport(), Qt.LeftButton, Qt.NoModifier, rect.center())
    QApplication.processEvents()


def saved_row(window, path: str | Path) -> int:
    saved = window.start.saved
    rows = [r for r in range(saved.count()) if saved.item(r).data(Qt.UserRole) == str(path)]
    assert rows, f"{path} is not on the saved games list"
    return rows[0]


def a_saved_game(game: str = "carmen-cards", names=("Ann", "Bob"), moves: int = 1) -> Path:
    """A game played a little and closed as a family closes it (Back to start, or the window)."""
    from desktop.games import GameController
    from engine.game import Assist
    from engine.games import game_info

    from .driver import play_on

    options = {o.id: o.default for o in game_info(game).options}
    controller = GameController.new(game, list(names), {n: 9 + i for i, n in enumerate(names)}, Assist.FULL,
                                    options=options, demo=True)
    for _ in play_on(SimpleNamespace(controller=controller), moves):     # the simulated players play
        pass
    controller.close()
    return controller.path


# --- after a crash ---------------------------------------------------------------------------------

def test_demo_after_a_crash_offers_the_game_gumshoe_stopped_in_and_enter_resumes_it(qtbot, gumshoe_home):
    crashed = crash_while_playing(gumshoe_home)
    window = open_window(qtbot, demo=True)                       # `gumshoe --demo`
    start = window.start
    assert window.stack.currentWidget() is start, "the demo went straight to a new game after a crash"
    assert start.last_game.text().startswith("Gumshoe stopped during your last game")
    assert not why_not_in_sight(start.last_game)
    assert start.saved.currentRow() == saved_row(window, crashed["path"])
    resume = button(window, "start:resume")
    assert resume.text() == f"Resume the last game:\n{crashed['title']}"
    assert resume.property("role") == "primary" and not why_not_in_sight(resume)
    assert window.focusWidget() is resume, "Enter would not resume the game Gumshoe stopped in"
    QTest.keyClick(resume, Qt.Key_Return)
    assert window.stack.currentWidget() is window.table
    assert str(window.controller.path) == crashed["path"]
    click_in_sight(button(window, "leave"))                       # an ordinary close this time
    close_window(window)

    again = open_window(qtbot, demo=True)
    assert again.stack.currentWidget() is again.new_game, "an ordinary close was taken for a crash"
    click_in_sight(next(b for b in again.new_game.findChildren(QPushButton) if b.text() == "Back"))
    # Without --demo the start screen still says the last game is not finished (no crash words).
    assert again.start.last_game.text().startswith("Your last game was not finished")
    close_window(again)


def test_the_offer_after_a_crash_is_the_game_that_was_being_played_not_the_newest_file(qtbot, gumshoe_home):
    """Ann and Bob's game resumed and played on until the crash; Cy and Di's game was closed
    after Ann and Bob's file was last written, so its file is newer."""
    older = a_saved_game(names=("Ann", "Bob"))
    a_saved_game(names=("Cy", "Di"))
    os.utime(older, (older.stat().st_atime, older.stat().st_mtime - 3600))      # played an hour earlier
    crash_while_playing(gumshoe_home, str(older))
    window = open_window(qtbot, demo=True)
    assert window.stack.currentWidget() is window.start
    assert window.start.saved.currentRow() == saved_row(window, older)
    assert "Ann, Bob" in window.start.saved.currentItem().text()
    click_in_sight(button(window, "start:resume"))
    assert window.controller.path == older
    close_window(window)


def test_a_crash_is_offered_once_the_family_chose_something_else(qtbot, gumshoe_home):
    crash_while_playing(gumshoe_home)
    window = open_window(qtbot, demo=True)
    click_in_sight(button(window, "start:demo"))                  # they want a new demo game instead
    assert window.stack.currentWidget() is window.new_game
    close_window(window)
    again = open_window(qtbot, demo=True)
    assert again.stack.currentWidget() is again.new_game
    close_window(again)


# --- what Resume resumes -------------------------------------------------------------------------

def test_resume_names_the_saved_game_it_resumes_whatever_the_shelf_shows(qtbot):
    from engine.games import game_info

    carmen = a_saved_game("carmen-cards")
    window = open_window(qtbot)
    start = window.start
    shelf = start.shelf
    sudds = next(r for r in range(shelf.count()) if shelf.item(r).data(Qt.UserRole) == "sudds-malone")
    click_row(shelf, sudds)                                        # Sudds & Malone chosen on the shelf
    assert start.game_title.text() == "Sudds & Malone"
    click_row(start.saved, saved_row(window, carmen))              # a Carmen game chosen on the right
    title = game_info("carmen-cards").title
    resume = button(window, "start:resume")
    assert resume.text().endswith(f":\n{title}"), resume.text()
    assert not why_not_in_sight(resume)
    click_in_sight(resume)
    assert window.controller.game_id == "carmen-cards"
    assert window.windowTitle().endswith(title)
    close_window(window)


def test_with_no_saved_game_chosen_resume_says_what_to_do_and_nothing_moves(qtbot):
    a_saved_game()
    window = open_window(qtbot)
    start = window.start
    resume = button(window, "start:resume")
    place = QRect(resume.mapTo(window, QPoint(0, 0)), resume.size())
    start.saved.setCurrentRow(-1)
    assert not resume.isEnabled() and resume.text() == "Resume\n(choose a saved game on the list)"
    assert QRect(resume.mapTo(window, QPoint(0, 0)), resume.size()) == place
    close_window(window)


# --- the shelf's buttons ---------------------------------------------------------------------------

@pytest.mark.parametrize("size", [(1280, 680), (1366, 768)])
def test_the_buttons_under_the_shelf_stay_in_place_whichever_game_is_chosen(qtbot, size):
    from desktop.tables import table_class

    window = open_window(qtbot)
    window.resize(*size)
    QApplication.processEvents()
    shelf = window.start.shelf
    places: dict[str, set] = {"start:new": set(), "start:demo": set()}
    own: dict[int, set] = {}
    for row in range(shelf.count()):
        click_row(shelf, row)
        game = shelf.item(row).data(Qt.UserRole)
        for name in places:
            b = button(window, name)
            assert not why_not_in_sight(b), why_not_in_sight(b)
            places[name].add(QRect(b.mapTo(window, QPoint(0, 0)), b.size()).getRect())
        for i, screen in enumerate(table_class(game).shelf_screens()):
            b = button(window, f"start:screen:{screen.name}")
            assert not why_not_in_sight(b), why_not_in_sight(b)
            own.setdefault(i, set()).add(QRect(b.mapTo(window, QPoint(0, 0)), b.size()).getRect())
    assert all(len(seen) == 1 for seen in places.values()), f"the shelf's buttons moved: {places}"
    assert own and all(len(seen) == 1 for seen in own.values()), f"a game's own screens moved: {own}"
    # Each own-screen place opens the chosen game's screen, never the one of the game before.
    for row in range(shelf.count()):
        click_row(shelf, row)
        for screen in table_class(shelf.item(row).data(Qt.UserRole)).shelf_screens():
            click_in_sight(button(window, f"start:screen:{screen.name}"))
            opened = window.start.screen_window
            assert opened.objectName() == f"screen:{screen.name}" and opened.isVisible()
            opened.accept()
    close_window(window)


# --- a game closed in another window ---------------------------------------------------------------

def test_a_game_closed_in_another_window_can_be_resumed_without_a_click(qtbot):
    from desktop.games import GameController

    path = a_saved_game()
    elsewhere = GameController.resume(path)                        # another window has it open
    window = open_window(qtbot)
    row = saved_row(window, path)
    assert "open in another window" in window.start.saved.item(row).text()
    click_row(window.start.saved, row)
    assert not button(window, "start:resume").isEnabled()
    elsewhere.close()                                              # that window closes the game
    qtbot.waitUntil(lambda: "another window" not in window.start.saved.item(saved_row(window, path)).text(),
                    timeout=8000)
    assert window.start.saved.currentRow() == saved_row(window, path)          # still the family's choice
    resume = button(window, "start:resume")
    assert resume.isEnabled()
    click_in_sight(resume)
    assert window.controller.path == path
    close_window(window)
