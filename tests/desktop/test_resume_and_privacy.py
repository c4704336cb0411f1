"""Nothing is lost when the app is killed mid-turn; nothing private shows on a shared screen."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QListWidget

from .driver import visible_texts
from .test_game_flow import DEAL, PLAYERS, first_legal

GAME_TITLE = "Carmen Sandiego card game"
REPO = Path(__file__).resolve().parents[2]

CHILD = textwrap.dedent("""
    import json, os, sys, time
    os.environ["QT_QPA_PLATFORM"] = "offscreen"
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication
    from desktop.main_window import MainWindow
    from tests.desktop.driver import Driver
    from tests.desktop.test_game_flow import DEAL, PLAYERS

    class Bot:              # what qtbot offers the driver, outside pytest
        mouseClick = staticmethod(QTest.mouseClick)
        keyClicks = staticmethod(QTest.keyClicks)

    app = QApplication([])
    window = MainWindow()
    window.show()
    t = Driver(window, Bot())
    t.new_game(PLAYERS)
    t.deal(DEAL)
    t.roll("loot")
    t.peek("Julie/loot/top")
    t.end_turn()
    t.roll("location")          # Amberley's turn, in the middle: rolled, not yet looked
    print(json.dumps({"prompt": t.prompt, "log": t.log()}), flush=True)
    time.sleep(600)
""")


def test_resume_after_the_app_is_killed_mid_turn(tmp_path, gumshoe_home, table):
    script = tmp_path / "child.py"
    script.write_text(CHILD)
    env = dict(os.environ, GUMSHOE_HOME=str(gumshoe_home), PYTHONPATH=str(REPO))
    child = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, env=env, cwd=REPO)
    try:
        line = child.stdout.readline()
        assert line, child.stderr.read()
    finally:
        os.kill(child.pid, signal.SIGKILL)      # the power cut: no chance to save or close anything
        child.wait(10)
    import json
    before = json.loads(line)

    t = table
    t.window.show_start()
    saved = t.find("start:saved", QListWidget)
    assert [saved.item(i).text() for i in range(saved.count())][0] == "Not finished"
    assert saved.count() == 2                      # the heading and the one game
    assert saved.item(1).text().startswith("Carmen Sandiego card game: Mark, Julie, Amberley")
    assert saved.item(1).text().endswith("Amberley's turn")
    # The app offers the unfinished game first: one click resumes it.
    assert t.text("start:last-game") == "Gumshoe stopped during your last game. Nothing was lost."
    assert saved.currentRow() == 1
    assert t.text("start:resume") == "Resume the last game:\nCarmen Sandiego card game"
    t.click("start:resume")
    assert t.window.stack.currentWidget() is t.window.table
    assert t.prompt == before["prompt"]
    assert t.prompt.startswith("Amberley, look at one of your own Location")
    assert t.log() == before["log"]
    assert "Welcome back" in t.banner and "Amberley rolled Location" in t.banner
    # Julie's private note survived too, and the game goes on from there.
    assert t.session.journal("Julie").where("carmen.loot.gandhis-glasses") == "Julie / Top"
    t.deal(DEAL)
    t.peek(first_legal(t))
    assert t.prompt == "Amberley, end your turn (or call a warrant)."


def shared_screen_texts(window) -> list[str]:
    texts = visible_texts(window)
    # A card-entry list offers every card of a type whatever anyone saw: it tells nothing.
    for lst in window.findChildren(QListWidget):
        if lst.objectName().startswith("choose:") and lst.isVisible():
            for i in range(lst.count()):
                texts.remove(lst.item(i).text())
    # The game's own title names its heroine; that is not the Henchman card of that name.
    return [text.replace(GAME_TITLE, "the game") for text in texts]


def test_no_privately_seen_card_name_appears_on_a_shared_screen(table):
    t = table
    t.new_game(PLAYERS)
    t.deal(DEAL)
    seen: set[str] = set()
    public: set[str] = set()
    checked = 0

    def check(where: str) -> None:
        nonlocal checked
        secret = {t.name(c) for c in seen} - public
        for text in shared_screen_texts(t.window):
            for name in secret:
                assert name not in text, f"{name!r} is visible on the {where}: {text!r}"
        checked += 1

    for turn in range(9):
        check("table before the roll")
        t.roll(("loot", "location", "henchman")[turn % 3])
        check("table after the roll")
        place = first_legal(t)
        t.peek(place, reveal=False)
        check("privacy gate")
        t.click("gate:reveal")
        seen.add(t.card_at(place))
        t.choose("card", t.card_at(place))
        t.click("entry:submit")
        check("table after a peek")
        player = t.session.prompt().player
        t.click(f"journal:{player}")
        check("journal gate")
        t.click("gate:reveal")
        t.click("journal:hide")
        check("table after the journal")
        t.click("undo")
        check("undo question")
        t.click("undo:no")
        t.end_turn()
    assert len(seen) >= 6 and checked > 50

    # A warrant flips two cards face up: they become public, the rest stay secret.
    t.click("action:warrant")
    check("warrant: pick slots")
    t.click("slot:Julie/loot/top")
    t.click("slot:Mark/location/top")
    check("warrant: flip page")
    public |= {t.name(t.card_at("Julie/loot/top")), t.name(t.card_at("Mark/location/top"))}
    t.choose("loot_card", t.card_at("Julie/loot/top"))
    t.choose("location_card", t.card_at("Mark/location/top"))
    t.click("entry:submit")
    check("verdict")
    assert "They match" in t.banner
    assert t.window.windowTitle() == "Gumshoe \u2014 Carmen Sandiego card game"
    assert all(t.name(c) not in "\n".join(t.session.undo_history()) for c in seen if t.name(c) not in public)


def test_a_finished_game_is_listed_as_finished_and_not_offered(table):
    t = table
    t.new_game(PLAYERS)
    t.deal(DEAL)
    t.warrant("Julie/loot/top", "Mark/location/top")
    t.flip_henchman("Amberley/henchman/bottom")              # Carmen too early: game over
    assert t.window.stack.currentWidget() is t.window.end    # the end of the game tells its story
    assert "Carmen was flipped too early" in t.text("end:verdict")
    t.click("end:leave")
    saved = t.find("start:saved", QListWidget)
    # Finished games are listed apart from unfinished ones.
    assert saved.item(0).text() == "Finished"
    assert saved.item(1).text().endswith("finished: Carmen was flipped too early and escaped.")
    assert not t.visible("start:last-game")


def test_after_a_crash_even_the_demo_start_offers_the_unfinished_game_first(qtbot, qapp):
    """Issue 10: `gumshoe --demo` after a crash opens the start screen with the resume offer,
    not a blank new-game form."""
    from desktop.games import GameController
    from desktop.main_window import MainWindow
    from desktop.start_screen import mark_playing
    from engine.game import Assist

    left = GameController.new("carmen-cards", ["Ann", "Bob"], {}, Assist.FULL)
    left.apply({"type": "roll", "player": "Ann", "face": 1})
    mark_playing(left.path)                         # a window had it open for play (as MainWindow marks it)
    left.close()                                    # then the power went: the file released, the mark left
    win = MainWindow(demo=True)
    qtbot.addWidget(win)
    assert win.stack.currentWidget() is win.start
    assert "Gumshoe stopped during your last game" in win.start.last_game.text()
    win.close()


def test_a_saved_game_moved_to_the_bin_can_be_brought_back(table, gumshoe_home):
    """Issue 10: delete a saved game from the start screen (moved to a bin folder; Undo)."""
    t = table
    t.new_game(PLAYERS)
    t.click("leave")
    saved = t.find("start:saved", QListWidget)
    assert saved.count() == 2                             # the heading and the game
    saved.setCurrentRow(1)
    name = Path(saved.item(1).data(Qt.UserRole)).name
    t.click("start:delete")
    assert (gumshoe_home / "games" / "bin" / name).exists()
    assert not (gumshoe_home / "games" / name).exists()
    assert saved.item(0).text() == "No saved games yet."
    t.click("start:undelete")
    assert (gumshoe_home / "games" / name).exists()
    assert saved.item(1).text().startswith("Carmen Sandiego card game: Mark, Julie, Amberley")
