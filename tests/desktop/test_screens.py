"""Start screen, keyboard-only play, and the private screens hiding themselves."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from .test_game_flow import DEAL, PLAYERS


def test_the_start_screen_makes_the_tag_sheets_off_the_gui_thread(table, qtbot):
    t = table
    # The chosen game's rules in short, from its shelf data (issue 10: what the rules say).
    assert "the center Loot and Location are a pair" in t.text("start:rules")
    t.click("start:print")
    qtbot.waitUntil(lambda: t.visible("start:open-pdf"), timeout=30_000)
    pdf = Path(t.window.start.pdf_path)
    assert pdf.exists() and pdf.read_bytes().startswith(b"%PDF")
    assert str(pdf) in t.text("start:print-status")


def test_a_turn_can_be_played_with_the_keyboard_only(table, qtbot):
    t = table
    t.new_game(PLAYERS)
    t.deal(DEAL)
    window = t.window
    qtbot.keyClick(window.table, Qt.Key_1)                   # "1": the die shows Loot
    assert t.prompt == "Julie, look at one of your own Loot cards: Top or Bottom."
    slot = t.find("slot:Julie/loot/top")
    t.find("undo").setFocus()
    for _ in range(80):                                       # Tab until the wanted slot has focus
        if QApplication.focusWidget() is slot:
            break
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key_Tab)
    assert QApplication.focusWidget() is slot, "Tab never reaches the slot"
    qtbot.keyClick(slot, Qt.Key_Space)
    assert window.stack.currentWidget() is window.gate
    assert QApplication.focusWidget() is t.find("gate:reveal")
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key_Return)
    chooser = t.find("choose:card")
    chooser.setFocus()
    names = [chooser.item(i).text() for i in range(chooser.count())]
    row = names.index("Gandhi's Glasses")
    qtbot.keyClick(chooser, Qt.Key_Home)
    for _ in range(row):
        qtbot.keyClick(chooser, Qt.Key_Down)
    qtbot.keyClick(chooser, Qt.Key_Space)                     # select the current row
    qtbot.keyClick(t.find("entry:submit"), Qt.Key_Space)
    assert window.stack.currentWidget() is window.table
    assert t.session.journal("Julie").where("carmen.loot.gandhis-glasses") == "Julie / Top"


def test_an_open_journal_hides_itself_when_nobody_touches_it(table, qtbot):
    t = table
    t.new_game(PLAYERS)
    t.window.gate.idle.setInterval(200)
    t.click("journal:Julie")
    t.click("gate:reveal")
    assert t.visible("journal")
    qtbot.waitUntil(lambda: t.window.stack.currentWidget() is t.window.table, timeout=3_000)
    assert not t.visible("journal")


def test_table_keys_do_nothing_on_a_private_screen_or_twice_after_a_second_game(table, qtbot):
    t = table
    t.new_game(PLAYERS)
    t.click("leave")
    t.new_game(PLAYERS)                                       # a second game: shortcuts built again
    t.click("journal:Julie")
    t.click("gate:reveal")
    qtbot.keyClick(t.find("journal:pairs"), Qt.Key_1)          # "1" on the journal: no roll
    assert t.session.undo_history() == []
    t.click("journal:hide")
    t.find("roll").setFocus()
    qtbot.keyClick(t.find("roll"), Qt.Key_1)
    assert t.session.undo_history() == ["Julie rolled Loot"]  # exactly one roll
    assert not t.visible("error")


def test_a_name_the_engine_refuses_is_explained_on_the_form_and_nothing_is_created(table, gumshoe_home):
    """Issue 11, defect 12: a name with a control character is refused with a plain reason."""
    from PySide6.QtWidgets import QLineEdit

    t = table
    t.click("start:new")
    t.find("new:count").setValue(2)
    t.find("new:name0", QLineEdit).setText("Ann\u202eB")              # a bidi override
    t.find("new:name1", QLineEdit).setText("Bob")
    t.click("new:start")
    assert t.window.stack.currentWidget() is t.window.new_game
    assert t.text("new:error").startswith("Player 1's name cannot be used:")
    assert not list((gumshoe_home / "games").glob("*.gumshoe")) if (gumshoe_home / "games").exists() else True


def test_the_new_game_title_breaks_between_words_never_at_the_hyphen(table, qtbot):
    """At 1366x728 "New game: The 39 Clues: Double-Cross" takes two lines: "Double-" must not end
    the first one with "Cross" alone on the second."""
    from PySide6.QtGui import QTextLayout

    table.window.resize(1366, 728)
    table.choose_game("39-clues")
    table.click("start:new")
    title = table.window.new_game.title
    qtbot.waitUntil(lambda: title.isVisible())
    layout = QTextLayout(title.text(), title.font())
    layout.beginLayout()
    lines = []
    while (line := layout.createLine()).isValid():
        line.setLineWidth(title.contentsRect().width())
        lines.append(title.text()[line.textStart():line.textStart() + line.textLength()])
    layout.endLayout()
    assert len(lines) > 1, lines                     # the title does wrap at this size
    assert not any(text.rstrip().endswith("-") for text in lines[:-1]), lines
    assert lines[-1].strip() != "Cross", lines
