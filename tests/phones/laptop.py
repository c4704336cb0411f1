"""The laptop's side of the phone tests: a new game started from the start screen."""

from __future__ import annotations

from PySide6.QtWidgets import QLineEdit

from tests.desktop.driver import Driver


def start_game(t: Driver, game: str, names=("Ann", "Bob"), phones: bool = True, demo: bool = False) -> None:
    """Fills the new-game form (ages 9, 10, ... in order), phones switched on or off, then passes the
    codes screen and the box set-up if the game has one."""
    t.choose_game(game)
    t.click("start:demo" if demo else "start:new")
    t.find("new:count").setValue(len(names))
    for i, name in enumerate(names):
        edit = t.find(f"new:name{i}", QLineEdit)
        edit.clear()
        t.qtbot.keyClicks(edit, name)
        t.find(f"new:age{i}").setValue(9 + i)
    assert not t.find("new:phones").isChecked(), "phones are off unless the family switches them on"
    t.find("new:phones").setChecked(phones)
    t.click("new:start")
    if phones:
        assert t.window.stack.currentWidget() is t.window.phones_screen
        t.click("phones:done")
    if t.window.stack.currentWidget() is t.window.setup:
        t.click("setup:done")
