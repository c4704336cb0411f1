"""Sudds & Malone: The Office's choices are the columns of the player's board, painted (issue 23).

Each column offered is drawn as a piece of the board (its die face, its name, its level as four
boxes, what its next step costs and gives); a legal one glows, a chosen one is ticked, the mouse and
the keyboard (Tab, Enter) reach each of them. Rule sections cited are the rulebook's
(shared/rulebooks/sudds-and-malone.txt).
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QApplication, QPushButton

from desktop import style
from desktop.drawn import Clickable
from desktop.drawn import text as txt
from engine.games.sudds_malone.box import TRACKS
from tests.desktop.tables.test_sudds_malone import ROLL, deal, game, roll, sm, take  # noqa: F401 (game: a fixture)
from tests.desktop.test_type_size import small_type


def office(t, size=(1366, 728)):
    """Ann takes the white 1: The Office (How to Play, The Office: improve columns, in order)."""
    t.window.resize(*size)
    deal(t)
    roll(t, ROLL)
    take(t, "white-1", "1")
    t.qtbot.wait(20)
    return {track: t.find(f"sm:up:{track}") for track in TRACKS}


def glows(widget) -> bool:
    """Whether the legal target's blue shows at the widget's edge (its glow), read from its pixels."""
    image = widget.grab().toImage()
    blue = QColor(style.HIGHLIGHT)
    for x in range(0, image.width(), 2):
        for y in (1, 2, 3, 4, image.height() - 4, image.height() - 3):
            c = image.pixelColor(x, y)
            if abs(c.red() - blue.red()) + abs(c.green() - blue.green()) + abs(c.blue() - blue.blue()) < 40:
                return True
    return False


@pytest.mark.parametrize("size", [(1280, 680), (1366, 728)])
def test_the_office_offers_each_column_of_the_board_painted(game, size):
    """Rulebook, The Office: a column goes up a level for its cost. Each of the six columns is a painted
    piece of the board (no push button) with its name at 24 px or more and its next step's cost and
    reward; all six glow while each is affordable. The type-size judge reads the whole table so."""
    t = game
    choices = office(t, size)
    rules = t.session.rules
    for track, choice in choices.items():
        assert isinstance(choice, Clickable) and not isinstance(choice, QPushButton)
        assert choice.isVisible() and choice.isEnabled() and choice.legal
        step = rules.box.level(track, 2)
        assert f"to 2: ${step.cost}," in choice.text(), choice.text()
        name, *rest = choice.drawn_texts()
        assert name.key and name.fits and name.px >= txt.KEY_PX, (name.text, name.px)
        assert all(d.fits and d.px >= txt.LEAST_PX for d in rest)
        assert glows(choice), f"{track} does not glow"
    assert small_type(t.window.table) == []         # the shared judge: no text under 15 px, key text 24 px


def test_a_chosen_column_is_ticked_and_the_others_stop_glowing(game):
    """Rulebook, The Office: level 1 improves one column. Once Calendar is chosen its next level shows
    in its boxes and a tick marks it; the other columns are no longer offered and do not glow."""
    t = game
    choices = office(t)
    t.qtbot.mouseClick(choices["calendar"], Qt.LeftButton, pos=choices["calendar"].rect().center())
    t.qtbot.wait(20)
    assert sm(t).sel["ups"] == ["calendar"]
    calendar = t.find("sm:up:calendar")
    assert calendar.look.chosen == 1 and calendar.look.reached == 1 and calendar.look.level == 2
    assert "to 3:" in calendar.text()
    others = [t.find(f"sm:up:{track}") for track in TRACKS if track != "calendar"]
    assert all(not o.isEnabled() and not o.legal and not glows(o) for o in others)
    assert "Improve these" in t.find("sm:send").text()


def test_the_keyboard_reaches_each_column_and_enter_chooses_it(game):
    """Keyboard: Tab goes from one column to the next in the board's order, Enter chooses the one
    with the focus (as a click would)."""
    t = game
    choices = office(t)
    order = [choices[track] for track in TRACKS]
    order[0].setFocus()
    t.qtbot.waitUntil(order[0].hasFocus)
    for here, there in zip(order, order[1:]):
        t.qtbot.keyClick(here, Qt.Key_Tab)
        assert QApplication.focusWidget() is there, (here.objectName(), QApplication.focusWidget().objectName())
    flimflam = t.find("sm:up:flimflam")
    flimflam.setFocus()
    t.qtbot.waitUntil(flimflam.hasFocus)
    t.qtbot.keyClick(flimflam, Qt.Key_Return)
    assert sm(t).sel["ups"] == ["flimflam"]


def test_a_click_in_the_room_kept_for_the_glow_is_not_a_choice(game):
    """A click just outside a column's drawn piece (in the room its glow takes) chooses nothing: only
    the piece itself is the target."""
    t = game
    choices = office(t)
    moxie = choices["moxie"]
    t.qtbot.mouseClick(moxie, Qt.LeftButton, pos=QPoint(moxie.width() - 3, moxie.height() // 2))
    assert sm(t).sel["ups"] == []
    t.qtbot.mouseClick(moxie, Qt.LeftButton, pos=moxie.rect().center())
    assert sm(t).sel["ups"] == ["moxie"]
