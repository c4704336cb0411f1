"""Teach the camera your dice (Sudds & Malone's shelf screen): a picture of the simulated table's dice,
its groups drawn with their counts and named, saved in the family's folder, used by the camera's reader,
and forgotten again. Every click lands where a person would click, at 1366x768."""

from __future__ import annotations


import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from desktop.tables.sudds_malone import dice_colours
from vision.dice import UNKNOWN_COLOUR, DicePoolReader, load_palette

from .in_sight import click_in_sight, why_not_in_sight
from .test_fit import clipped
from .test_type_size import SIZE, small_type


@pytest.fixture
def screen(qtbot, qapp):
    from desktop.start_screen import ShelfScreenWindow
    from desktop.style import apply_style
    apply_style(qapp)
    window = ShelfScreenWindow(dice_colours.SCREEN, "Sudds & Malone: Teach the camera your dice")
    qtbot.addWidget(window)
    window.resize(*SIZE)
    window.show()
    qtbot.waitExposed(window)
    return window


def choose(qtbot, box, text: str) -> None:
    """Open a drop-down list with a click, go down to one of its entries and take it (Enter)."""
    click_in_sight(box)
    view = box.view()
    qtbot.waitUntil(view.isVisible)
    for _ in range(box.findText(text) - box.currentIndex()):
        QTest.keyClick(view, Qt.Key_Down)
    QTest.keyClick(view, Qt.Key_Return)
    qtbot.waitUntil(lambda: not view.isVisible())
    assert box.currentText() == text


def type_name(box, text: str) -> None:
    """Click into a group's name and type over it."""
    click_in_sight(box)
    QTest.keyClick(box.lineEdit(), Qt.Key_A, Qt.ControlModifier)
    QTest.keyClick(box.lineEdit(), Qt.Key_Backspace)
    QTest.keyClicks(box.lineEdit(), text)
    QApplication.processEvents()


def take_picture(qtbot, body, pictures: int = 1) -> None:
    click_in_sight(body.take)
    qtbot.waitUntil(lambda: body.pictures == pictures, timeout=20000)


def test_teach_name_save_use_and_forget(screen, qtbot, gumshoe_home):
    body = screen.body
    assert "Gumshoe's own dice colours" in body.status.text()
    assert not body.save.isEnabled() and not body.forget.isEnabled()
    choose(qtbot, body.camera, "The simulated table's dice")
    take_picture(qtbot, body)
    # The simulated pool: three white, three black, three grey and the four players' own dice.
    counts = {body.names()[k]: g.count for k, g in enumerate(body.groups)}
    assert counts == {"white": 3, "black": 3, "grey": 3, "blue": 1, "yellow": 1, "red": 1, "green": 1}
    assert "13 dice in 7 groups" in body.found.text()
    for k in range(len(body.groups)):
        assert why_not_in_sight(screen.findChild(type(body.found), f"dice-colours:swatch:{k}")) == ""
        assert screen.findChild(type(body.found), f"dice-colours:count:{k}").text() in ("3 dice", "1 die")
    assert clipped(screen) == [] and small_type(screen) == []
    # Name the red group Ann's die, leave the green one out, and save.
    red, green = body.names().index("red"), body.names().index("green")
    type_name(body.name_boxes[red], "Ann's die")
    type_name(body.name_boxes[green], "")
    click_in_sight(body.save)
    path = gumshoe_home / "boxes" / "sudds-malone-dice.toml"
    assert path.exists() and "Saved" in body.message.text()
    taught = load_palette(path)
    assert sorted(c.name for c in taught) == sorted(["white", "black", "grey", "blue", "yellow", "Ann's die"])
    assert "your dice colours" in body.status.text() and "Ann's die" in body.status.text()
    # The camera now reads a roll with them: a red die is Ann's, the green one no colour taught.
    frame = dice_colours.simulated_pool(seed=7)
    shipped = DicePoolReader().read(frame)
    family = dice_colours.family_reader().read(frame)
    assert [(r.value, r.centre) for r in family] == [(r.value, r.centre) for r in shipped]
    renamed = {"red": "Ann's die", "green": UNKNOWN_COLOUR}
    assert sorted(renamed.get(r.colour, r.colour) for r in shipped) == sorted(r.colour for r in family)
    # Forget them: the shipped colours again.
    click_in_sight(body.forget)
    assert not path.exists() and "Gumshoe's own dice colours" in body.status.text()
    assert [c.name for c in dice_colours.family_reader().palette] == [c.name for c in load_palette()]


def test_another_picture_adds_dice_and_keeps_the_names_given(screen, qtbot):
    body = screen.body
    choose(qtbot, body.camera, "The simulated table's dice")
    take_picture(qtbot, body)
    type_name(body.name_boxes[body.names().index("yellow")], "Bob's die")
    take_picture(qtbot, body, 2)
    assert sum(g.count for g in body.groups) == 26 and "from 2 pictures" in body.found.text()
    assert body.names().count("Bob's die") == 2 and "yellow" not in body.names()   # the new yellow die too
    click_in_sight(body.again)
    assert body.groups == [] and not body.save.isEnabled() and body.found.text() == "No picture yet."


def test_a_name_is_plain_text_and_a_broken_file_is_said_and_not_used(screen, qtbot, gumshoe_home):
    body = screen.body
    choose(qtbot, body.camera, "The simulated table's dice")
    take_picture(qtbot, body)
    type_name(body.name_boxes[0], "<b>Ann</b> & co")
    click_in_sight(body.save)
    assert body.status.textFormat() == Qt.PlainText and "<b>Ann</b> & co" in body.status.text()
    path = gumshoe_home / "boxes" / "sudds-malone-dice.toml"
    path.write_text(path.read_text(encoding="utf-8").replace("spread = ", "spread = -", 1), encoding="utf-8")
    again = dice_colours.DiceColoursScreen()
    qtbot.addWidget(again)
    assert "cannot be used" in again.status.text() and str(path) in again.status.text()
    assert [c.name for c in dice_colours.family_reader().palette] == [c.name for c in load_palette()]


def test_no_camera_is_said_in_words(screen, qtbot, monkeypatch):
    import vision.sources
    from vision.sources import CameraError

    class NoCamera:
        def __init__(self, index):
            self.index = index

        def __enter__(self):
            raise CameraError(f"No camera found at index {self.index}.")

        def __exit__(self, *exc):
            return False

    monkeypatch.setattr(vision.sources, "WebcamSource", NoCamera)
    body = screen.body
    click_in_sight(body.take)                     # Camera 1, the first choice
    qtbot.waitUntil(lambda: body.take.isEnabled(), timeout=10000)
    assert body.message.text() == "No camera found at index 0." and body.groups == []


def test_the_simulated_pool_is_the_games_dice():
    frame = dice_colours.simulated_pool(seed=1)
    readings = DicePoolReader().read(frame)
    assert len(readings) == 13 and all(r.value for r in readings)
    assert sorted(r.colour for r in readings) == sorted(["white"] * 3 + ["black"] * 3 + ["grey"] * 3 +
                                                        ["blue", "yellow", "red", "green"])


def test_listed_on_the_shelf_it_opens_from_the_start_screen(qtbot, qapp, monkeypatch):
    """As Sudds & Malone lists it (``dice_colours.SCREEN`` beside its box screen): its button is in
    sight under the game's rules, and opens the screen over the start screen, at 1366x768."""
    from desktop.main_window import MainWindow
    from desktop.style import apply_style
    from desktop.tables import table_class
    table = table_class("sudds-malone")
    listed = table.shelf_screens()
    monkeypatch.setattr(table, "shelf_screens", classmethod(lambda cls: [*listed, dice_colours.SCREEN]))
    apply_style(qapp)
    win = MainWindow()
    qtbot.addWidget(win)
    win.resize(*SIZE)
    win.show()
    qtbot.waitExposed(win)
    win.start.select_game("sudds-malone")
    click_in_sight(win.start.findChild(type(win.start.new_button), "start:screen:dice-colours"))
    shown = win.start.screen_window
    assert isinstance(shown.body, dice_colours.DiceColoursScreen) and shown.isVisible()
    qtbot.waitExposed(shown)
    assert why_not_in_sight(shown.body.take) == "" and why_not_in_sight(shown.body.save) == ""
    click_in_sight(shown.findChild(type(win.start.new_button), "screen:close"))
    assert not shown.isVisible()
