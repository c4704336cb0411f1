"""Issue 23: what the real die shows is a legal choice, read from across the table like the
action buttons: at least 24 px and on one line, at a 720p laptop, a 768p laptop and a desktop
screen (each less its taskbar); the number keys still choose them."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontInfo

from desktop.drawn.text import KEY_PX

from .test_game_flow import DEAL, PLAYERS

SIZES = [(1280, 680), (1366, 728), (1920, 1040)]
FACES = ("loot", "location", "henchman")


def die_choices(t):
    return [t.window.table.rolled_buttons[face] for face in FACES]


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_the_die_choices_are_big_and_whole(table, size):
    t = table
    t.new_game(PLAYERS)
    t.deal(DEAL)
    t.window.resize(*size)
    t.qtbot.wait(60)
    buttons = die_choices(t)
    for b in buttons:
        words = b.text()
        assert b.isVisible() and b.isEnabled(), words
        assert QFontInfo(b.font()).pixelSize() >= KEY_PX, (words, QFontInfo(b.font()).pixelSize())
        assert "\n" not in words, f"{words!r} wrapped at {size}"
        assert b.fontMetrics().horizontalAdvance(words) <= b.width() - 12, (words, b.width())
        assert b.height() >= b.fontMetrics().height(), (words, b.height())
    # One choice a row, in the die's order, none over another.
    tops = [b.mapTo(t.window, b.rect().topLeft()).y() for b in buttons]
    assert tops == sorted(tops) and len(set(tops)) == 3
    assert [b.text() for b in buttons] == ["Loot (1)", "Location (2)", "Henchman (3)"]


def test_the_die_choices_leave_the_column_once_rolled_and_keep_their_keys(table):
    t = table
    t.new_game(PLAYERS)
    t.deal(DEAL)
    t.window.resize(1280, 680)
    t.qtbot.keyClick(t.window.table, Qt.Key_2)        # the real die shows Location
    assert t.log()[-1] == "Julie rolled Location."
    assert not any(b.isVisible() for b in die_choices(t))
    t.qtbot.keyClick(t.window.table, Qt.Key_3)        # nothing to roll now: the key does nothing
    assert t.log()[-1] == "Julie rolled Location."
