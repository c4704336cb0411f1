"""Sudds & Malone: The Office's and Investigate's choices are painted pieces of the table (issue 23).

The Office offers the columns of the player's board, each drawn as a piece of it (its die face, its
name, its level as four boxes, what its next step costs and gives); Investigate offers the snitches on
the path, each drawn as on the map (its owner's colour, its evidence's letter). A legal one glows, a
chosen one is ticked, the mouse and the keyboard (Tab, Enter) reach each of them. Rule sections cited
are the rulebook's (shared/rulebooks/sudds-and-malone.txt).
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
from tests.desktop.tables.test_sudds_malone import (FF, ROLL, board, deal, game,  # noqa: F401 (a fixture)
                                                     press, private_card, roll, sm, take, turn_up_and_draw)
from tests.desktop.test_type_size import small_type


def office(t, size=(1366, 728)):
    """Ann takes the white 1: The Office (How to Play, The Office: improve columns, in order)."""
    t.window.resize(*size)
    deal(t)
    roll(t, ROLL)
    take(t, "white-1", "1")
    t.qtbot.wait(20)
    return {track: t.find(f"sm:up:{track}") for track in TRACKS}


def shows(widget, colour: str, rows: tuple[int, ...] | None = None) -> bool:
    """Whether ``colour`` shows in the widget's pixels (on the given rows of pixels, or anywhere)."""
    image = widget.grab().toImage()
    want = QColor(colour)
    for y in rows if rows is not None else range(image.height()):
        for x in range(0, image.width(), 2):
            c = image.pixelColor(x, y)
            if abs(c.red() - want.red()) + abs(c.green() - want.green()) + abs(c.blue() - want.blue()) < 40:
                return True
    return False


def glows(widget) -> bool:
    """Whether the legal target's blue shows at the widget's edge (its glow)."""
    h = widget.height()
    return shows(widget, style.HIGHLIGHT, (1, 2, 3, 4, h - 4, h - 3))


def ticked(widget) -> bool:
    """Whether the chosen mark's vermillion shows on the widget."""
    return shows(widget, style.CHOSEN)


def reached_by_tab(t, widget) -> bool:
    """Tab from the focusable widget before ``widget`` in the focus chain lands on ``widget``."""
    before = widget.previousInFocusChain()
    while not (before.isVisible() and before.isEnabled() and before.focusPolicy() & Qt.TabFocus):
        before = before.previousInFocusChain()
    before.setFocus()
    t.qtbot.waitUntil(before.hasFocus)
    t.qtbot.keyClick(before, Qt.Key_Tab)
    return QApplication.focusWidget() is widget


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
    assert ticked(calendar) and not any(ticked(o) for o in others)
    assert all(not o.isEnabled() and not o.legal and not glows(o) for o in others)
    assert "Improve these" in t.find("sm:send").text()


def test_the_keyboard_reaches_each_column_and_enter_chooses_it(game):
    """Keyboard: Tab goes from one column to the next in the board's order, Enter chooses the one
    with the focus (as a click would), and the keyboard stays in the panel once it is drawn again."""
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
    # The one column level 1 allows is chosen: the keyboard is on "Improve these", and Space sends it.
    send = QApplication.focusWidget()
    assert send is not None and send.objectName() == "sm:send", send
    t.qtbot.keyClick(send, Qt.Key_Space)
    assert board(t, "Ann").levels["flimflam"] == 2


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


def investigate_at_bobs_snitch(t, *, ann_pays_the_office: bool):
    """Bob sends a snitch (glass) to Queens; Ann investigates from East Side to Queens. With
    ``ann_pays_the_office`` she first spends her $1 on Calendar, so she cannot pay Bob's snitch."""
    t.window.resize(1366, 728)
    deal(t)
    roll(t, ROLL)
    take(t, "white-1", "1")
    if ann_pays_the_office:
        press(t, "sm:up:calendar")
    press(t, "sm:send")
    t.click("action:end_turn")
    take(t, "white-2", "2")
    t.click("action:calendar")
    t.click("action:place_snitch")
    t.click("slot:queens")
    t.click("choose:glass")
    t.click("action:end_turn")
    take(t, "black-3", "3")
    t.click("slot:queens")
    t.qtbot.wait(20)
    return t.find("sm:snitch:queens")


def test_a_snitch_on_the_path_is_painted_and_chosen_by_click_or_keyboard(game):
    """Rulebook, Investigate (Visit a Snitch): at a location with another's snitch, pay the owner $1 for
    its evidence. The snitch is offered as drawn on the map, glowing; a click chooses it (ticked, and
    Investigate then takes Bob's glass for $1); Enter on it chooses it again or not."""
    t = game
    snitch = investigate_at_bobs_snitch(t, ann_pays_the_office=False)
    assert isinstance(snitch, Clickable) and not isinstance(snitch, QPushButton)
    assert snitch.legal and glows(snitch) and not ticked(snitch)
    name, detail, letter = snitch.drawn_texts()
    assert (name.text, detail.text, letter.text) == ("Use Bob's snitch", "at Queens: a glass for $1", "G")
    assert name.key and name.px >= txt.KEY_PX
    assert small_type(t.window.table) == []
    assert reached_by_tab(t, snitch)
    t.qtbot.keyClick(snitch, Qt.Key_Return)
    assert sm(t).sel["snitches"] == ["queens"]
    snitch = t.find("sm:snitch:queens")
    assert ticked(snitch)
    assert QApplication.focusWidget() is snitch           # drawn again, it keeps the keyboard
    t.qtbot.keyClick(snitch, Qt.Key_Return)
    assert sm(t).sel["snitches"] == []
    t.qtbot.mouseClick(t.find("sm:snitch:queens"), Qt.LeftButton, pos=t.find("sm:snitch:queens").rect().center())
    assert sm(t).sel["snitches"] == ["queens"]
    glass, cash = board(t, "Ann").evidence["glass"], board(t, "Bob").cash
    turn_up_and_draw(t, FF.format(3), FF.format(10))      # turned up: the card dealt there
    press(t, "sm:send")
    private_card(t, "sudds.suspect.rat-2", "found")
    assert board(t, "Ann").evidence["glass"] == glass + 1 and board(t, "Bob").cash == cash + 1


def test_a_snitch_that_cannot_be_paid_is_greyed_and_not_offered(game):
    """Rulebook, Investigate (Visit a Snitch): another's snitch costs $1. With no cash Ann sees Bob's
    snitch greyed, without the glow, and neither a click nor the keyboard takes it."""
    t = game
    snitch = investigate_at_bobs_snitch(t, ann_pays_the_office=True)
    assert board(t, "Ann").cash == 0
    assert not snitch.isEnabled() and not snitch.legal and not glows(snitch)
    t.qtbot.mouseClick(snitch, Qt.LeftButton, pos=snitch.rect().center())
    assert sm(t).sel.get("snitches", []) == []
