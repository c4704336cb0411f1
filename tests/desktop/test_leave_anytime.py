"""A family may leave a game at any moment: right after a move while cards still travel, with a
private look open behind the gate, with the undo question on screen, with the phones switched on,
or by closing the window. Whatever the game was doing stops with it: no clock, animation, camera or
phone server sends anything to the closed game (or to the next one), the game's file is closed,
nothing of it stays on screen, and the window goes on working (a new game of another kind, the
saved game resumed where it stopped).

Each game is played with motion on (cards travel) and off ("less motion"). pytest-qt fails a test
on any exception raised in a Qt slot, so a late clock that trips over a closed game fails here.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt, QThread
from PySide6.QtWidgets import QApplication, QListWidget
from shiboken6 import isValid

from desktop.drawn.motion import MotionQueue, less_motion, set_less_motion
from desktop.tables import installed_games
from engine.games import game_info
from tests.phones.laptop import start_game

from .driver import Driver, open_demo_table, play_on

NAMES = ["Ann", "Bob"]
#: longer than a few movements (DURATION_MS a step) and every short clock of a table
SETTLE_MS = 1000
#: moves made before the first moment, and the most made looking for a moment
OPENING_MOVES = 3
SEARCH_MOVES = 12


@pytest.fixture
def motion(request):
    """Motion on (cards travel) or off, restored after the test."""
    before = less_motion()
    set_less_motion(not request.param)
    yield request.param
    set_less_motion(before)


@pytest.fixture
def phone_window(window):
    window.phone_hosts = ["127.0.0.1"]          # a phone server in a test listens on loopback only
    return window


def options_for(game: str) -> dict:
    return {o.id: o.default for o in game_info(game).options}


def another_game(game: str) -> str:
    games = installed_games()
    return games[(games.index(game) + 1) % len(games)]


def animating(window) -> bool:
    table = window.table.table
    return table is not None and any(q.busy for q in table.findChildren(MotionQueue))


def move(window) -> int:
    """One simulated move (refused ones are skipped); the length of the game's history after it."""
    for _ in play_on(window, SEARCH_MOVES):
        break
    return len(window.controller.session.undo_history())


def move_in_flight(window, motion_on: bool) -> None:
    """A move made just now: with motion on, one that is still travelling on the table."""
    for _ in range(SEARCH_MOVES):
        move(window)
        if not motion_on or animating(window):
            return
    raise AssertionError("no move of this game was shown moving")


def open_private(t: Driver) -> str:
    """The acting player's private screen open behind the gate: a look at a card (the card entry)
    when the game offers one the shell asks for, else their journal. Returns which."""
    w = t.window
    for _ in range(SEARCH_MOVES):
        prompt = w.controller.session.prompt()
        option = next((o for o in prompt.options if o.private and o.reads and not w.table.table.handles(o)), None)
        if option is not None:
            w.table.start_option(option)
            while w.stack.currentWidget() is not w.gate and w.table.flow is not None:
                field_name = w.table.flow.next_field
                w.table.value_picked(w.table.flow.option.targets[field_name][0])
            assert w.stack.currentWidget() is w.gate
            t.click("gate:reveal")
            assert w.entry is not None and w.gate.revealed
            return "entry"
        if not game_info(w.controller.game_id).hidden_cards:
            break
        move(w)
    player = w.controller.session.prompt().player or w.controller.session.players[0]
    t.click(f"journal:{player}")
    t.click("gate:reveal")
    assert w.gate.revealed
    return "journal"


def left_cleanly(t: Driver, session, old_table) -> None:
    """After leaving and waiting past every clock: the game's file is closed, its table is gone,
    the start screen shows and nothing of the game is left open anywhere."""
    w = t.window
    t.qtbot.wait(SETTLE_MS)
    assert session.store is None or session.store.closed
    assert w.controller is None and w.table.controller is None and w.table.table is None
    assert not isValid(old_table), "the closed game's table (and its clocks) lives on"
    assert w.stack.currentWidget() is w.start
    assert w.windowTitle() == "Gumshoe"
    assert not w.gate.revealed and w.gate.player is None
    assert w.entry is None, "a card entry of the closed game is still waiting for a card"
    assert w.phones is None and not w.camera_panel.running
    assert w.table.messages.isHidden() or w.table.messages.currentWidget() is w.table.quiet
    others = [x for x in QApplication.topLevelWidgets() if x.isVisible() and x is not w]
    assert others == [], f"left open after the game closed: {others}"


def resume_from_start(t: Driver, path, history: int) -> None:
    """The saved game chosen on the start screen and resumed: it stands where it was left."""
    w = t.window
    saved = t.find("start:saved", QListWidget)
    rows = [r for r in range(saved.count()) if saved.item(r).data(Qt.UserRole) == str(path)]
    assert rows, "the game just left is not among the saved games"
    saved.setCurrentRow(rows[0])
    t.click("start:resume")
    assert w.stack.currentWidget() is w.table
    assert len(w.controller.session.undo_history()) == history
    assert t.prompt == w.table._prompt_text(w.controller.session.prompt().text)
    assert w.table.table is not None and w.table.table.isVisible()


@pytest.mark.parametrize("motion", [True, False], ids=["motion", "less-motion"], indirect=True)
@pytest.mark.parametrize("game", installed_games())
def test_leaving_at_any_moment_stops_the_game_and_the_window_goes_on(phone_window, qtbot, game, motion):
    """Left right after a move (still travelling with motion on), then with the undo question and a
    private screen open, then a new game of another kind with the phones on; at last the window is
    closed in the middle of things."""
    window = phone_window
    t = open_demo_table(window, qtbot, game, NAMES, options_for(game))
    for _ in play_on(window, OPENING_MOVES):
        pass

    # 1. Right after a move, while it is still shown moving.
    move_in_flight(window, motion)
    session, table, path = window.controller.session, window.table.table, window.controller.path
    history = len(session.undo_history())
    window.leave_game()
    left_cleanly(t, session, table)

    # 2. The saved game resumed from the start screen; then the undo question on the table and a
    # private screen open behind the gate (a look at a card, or the journal), and the family leaves.
    resume_from_start(t, path, history)
    window.table.ask_undo()
    assert t.visible("undo:question")
    open_private(t)
    session, table = window.controller.session, window.table.table
    history = len(session.undo_history())
    window.leave_game()
    left_cleanly(t, session, table)
    assert t.window.gate.content is None

    # 3. A new game of another kind with the phones on: one move, and leaving while it travels.
    other = another_game(game)
    start_game(t, other, NAMES, phones=True, demo=True)
    assert window.stack.currentWidget() is window.table and window.phones.on
    before = len(window.controller.session.undo_history())
    move_in_flight(window, motion)
    assert len(window.controller.session.undo_history()) > before
    server, session, table = window.phones.server, window.controller.session, window.table.table
    window.leave_game()
    left_cleanly(t, session, table)
    assert not server.running

    # 4. The first game, resumed once more, stands where the family left it the second time. Then
    # (once a game: the fixture closes the window anyway) the window is closed right after a move,
    # still travelling, with the undo question asked and a private screen open.
    resume_from_start(t, path, history)
    if not motion:
        return
    move_in_flight(window, motion)
    window.table.ask_undo()
    open_private(t)
    session, table = window.controller.session, window.table.table
    window.close()
    assert running_threads(window) == []
    qtbot.wait(SETTLE_MS)
    assert session.store is None or session.store.closed
    assert not isValid(table) and window.controller is None and not window.gate.revealed


def running_threads(window) -> list[QThread]:
    return [thread for thread in window.findChildren(QThread) if thread.isRunning()]


def closes_with_no_thread_running(window, qtbot, settle_ms: int) -> None:
    """Close the window: no thread of it may still run as it goes (that ends the app with a crash);
    what arrives afterwards at the closed window changes nothing. The test's threads are ended after."""
    try:
        window.close()
        assert running_threads(window) == [], "a thread still runs as the window goes: the app would crash"
        qtbot.wait(settle_ms)
    finally:
        for thread in window.findChildren(QThread):
            thread.quit()
            thread.wait()


def test_closing_the_window_while_tag_sheets_are_drawn_leaves_no_thread_running(window, qtbot):
    """The family asks for the tag sheets and closes the app at once. Before, the drawing thread was
    still running when the window went, and the app ended with a crash on the way out ("QThread:
    Destroyed while thread is still running", aborted)."""
    t = Driver(window, qtbot)
    t.click("start:print")
    assert running_threads(window), "the sheets are being drawn"
    closes_with_no_thread_running(window, qtbot, settle_ms=300)    # the drawing's last words arrive late


class SlowWebcam:
    """A webcam whose driver takes longer to open than the panel waits when it stops (a few
    seconds, as some USB cameras do), then refuses."""

    OPEN_S = 3.5

    def __init__(self, index: int) -> None:
        self.index = index

    def open(self) -> None:
        import time

        from vision.sources import CameraError
        time.sleep(self.OPEN_S)
        raise CameraError("no camera here")

    def close(self) -> None:
        pass


def test_closing_the_window_while_a_slow_camera_opens_leaves_no_thread_running(window, qtbot, monkeypatch):
    """The camera is still opening when the family closes the app. Before, its thread was put
    aside after a 3 s wait and was still running when the window went: the app ended with a crash
    ("QThread: Destroyed while thread is still running", aborted)."""
    monkeypatch.setattr("desktop.camera.WebcamSource", SlowWebcam)
    window.camera_panel.start_webcam(0)
    assert running_threads(window), "the camera is opening"
    closes_with_no_thread_running(window, qtbot, settle_ms=100)    # the camera's last words arrive late


class Voice:
    """The system's voice reading one text (a process that can be ended)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.speaking = True

    def terminate(self) -> None:
        self.speaking = False


def test_leaving_stops_the_voice_reading_the_games_words(window, qtbot, monkeypatch):
    """Reading aloud is on and the voice is still reading the table's prompt when the family
    leaves: it stops with the game. Before, the closed game's prompt was read on to its end."""
    from desktop.speech import Speaker

    voices: list[Voice] = []

    def speak(command, _stdin):
        voices.append(Voice(command[1]))
        return voices[-1]

    monkeypatch.setattr("desktop.speech.voice_command", lambda text: (["voice", text], None))
    window.table.speaker = Speaker(enabled=lambda: True, run=speak)
    t = open_demo_table(window, qtbot, "carmen-cards", NAMES)
    assert voices and voices[-1].text == t.prompt and voices[-1].speaking
    window.leave_game()
    assert [v.text for v in voices if v.speaking] == [], "the closed game's words are still being read"
