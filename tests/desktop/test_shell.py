"""Issue 10: the shell is a home for any game. It is driven here with two made-up games only
(``fake_games.py``): the shelf, the new-game form, the table frame with and without a die,
the action flow (a private look through the gate), the journal and the end of the game."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PySide6.QtWidgets import QListWidget

from . import fake_games

DESKTOP = Path(__file__).resolve().parents[2] / "desktop"


@pytest.fixture
def fake(monkeypatch, tmp_path, qtbot, qapp):
    fake_games.install(monkeypatch, tmp_path)
    from desktop.main_window import MainWindow
    from desktop.style import apply_style

    from .driver import Driver

    apply_style(qapp)
    win = MainWindow()
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    yield Driver(win, qtbot)
    win.close()


def shelf_titles(t) -> list[str]:
    shelf = t.find("start:shelf", QListWidget)
    return [shelf.item(i).text().split("\n")[0] for i in range(shelf.count())]


def test_the_shelf_lists_the_registered_games_with_their_own_words(fake):
    t = fake
    assert shelf_titles(t) == ["Fake Game With A Die", "Fake Game Without A Die"]
    assert t.window.windowTitle() == "Gumshoe"
    assert "Do a thing." in t.text("start:rules")
    assert "2-4 players" in t.text("start:game-title")


def test_a_game_without_a_die_shows_no_die_panel_and_asks_its_own_options(fake):
    t = fake
    t.window.start.select_game("fake-no-die")
    t.click("start:new")
    assert t.find("new:option:speed").currentData() == "fast"      # the default from the shelf data
    t.find("new:option:speed").setCurrentIndex(0)
    for i, (name, age) in enumerate([("Ann", 9), ("Bob", 11)]):
        t.find("new:count").setValue(2)
        t.find(f"new:name{i}").setText(name)
        t.find(f"new:age{i}").setValue(age)
    t.click("new:start")
    if t.window.stack.currentWidget() is t.window.setup:
        t.click("setup:done")
    assert t.window.stack.currentWidget() is t.window.table
    assert t.session.options["speed"] == "slow"
    assert t.window.windowTitle() == "Gumshoe \u2014 Fake Game Without A Die"
    assert not t.visible("roll") and not t.visible("rolled:loot")
    assert not t.visible("journal:Ann")              # no hidden cards: no journals to open


def test_a_game_brings_its_own_screen_to_the_shelf_and_its_own_part_of_the_new_game_form(fake):
    t = fake
    t.window.start.select_game("fake-with-die")
    assert not t.visible("start:screen:hats")             # a game without screens of its own shows none
    t.window.start.select_game("fake-no-die")
    t.click("start:screen:hats")
    window = t.window.start.screen_window
    assert window.isVisible() and window.windowTitle() == "Fake Game Without A Die: The hat rack"
    assert window.body.text() == "Three hats hang here."
    window.accept()
    t.click("start:print")                                 # the game's own check comes before the sheets
    assert t.text("start:print-status") == "Hang a hat on the rack first."
    assert t.window.start._thread is None                  # nothing is being drawn
    t.click("start:new")
    t.find("new:count").setValue(2)
    for i, name in enumerate(["Ann", "Bob"]):
        t.find(f"new:name{i}").setText(name)
    assert t.text("new:warning") == "Nobody wears a cap."
    t.find("hat:1").setCurrentIndex(0)                     # Bob takes Ann's fedora: refused, nothing starts
    t.click("new:start")
    assert t.text("new:error") == "Two players wear the same hat."
    assert t.window.stack.currentWidget() is t.window.new_game
    t.find("hat:1").setCurrentIndex(2)
    assert not t.visible("new:warning")
    t.click("new:start")
    if t.window.stack.currentWidget() is t.window.setup:
        t.click("setup:done")
    assert t.session.options["hats"] == {"Ann": "fedora", "Bob": "cap"}


def test_a_private_look_goes_through_the_gate_and_reaches_only_that_journal(fake):
    t = fake
    t.window.start.select_game("fake-with-die")
    t.click("start:new")
    t.find("new:count").setValue(2)
    for i, (name, age) in enumerate([("Ann", 9), ("Bob", 11)]):
        t.find(f"new:name{i}").setText(name)
        t.find(f"new:age{i}").setValue(age)
    t.click("new:start")
    if t.window.stack.currentWidget() is t.window.setup:
        t.click("setup:done")
    assert t.visible("roll")
    t.deal({})
    t.roll("loot")                                   # the die panel sends the game's roll action
    legal = sorted(t.legal_slots())
    assert legal and all(p.startswith("Ann/loot/") for p in legal)
    t.peek(legal[0])                                 # the shell's flow: click, gate, pick, submit
    card = t.card_at(legal[0])
    assert t.session.journal("Ann").where(card) != "Unknown"
    assert t.session.journal("Bob").where(card) == "Unknown"
    assert t.name(card) not in "\n".join(t.log())


def test_no_shell_module_names_a_real_game():
    """Only desktop/tables/ may name a game: its id, its title, its deck, its rules module."""
    from engine.games import GAMES, game_info

    words = set()
    for game, target in GAMES.items():
        words |= {game, game_info(game).title, target.split(":")[0]}
        words |= set(re.findall(r"[a-z]+", game))          # "carmen", "bonnie", "clyde", "sudds"...
    words -= {"cards", "clues", "usa", "the"}
    offenders = []
    for path in DESKTOP.rglob("*.py"):
        if "tables" in path.relative_to(DESKTOP).parts:
            continue
        text = path.read_text(encoding="utf-8").lower()
        offenders += [f"{path.relative_to(DESKTOP)}: {w}" for w in words if w.lower() in text]
    assert offenders == []


def test_each_game_is_imported_only_by_its_own_table_module():
    from engine.games import GAMES

    for game, target in GAMES.items():
        module = target.split(":")[0]
        importers = [p.relative_to(DESKTOP).as_posix() for p in DESKTOP.rglob("*.py")
                     if re.search(rf"\b{re.escape(module)}\b", p.read_text(encoding="utf-8"))]
        # One table module, or one table package (tables/<game>/...): never the shell, never another game's table.
        owners = {"/".join(p.split("/")[:2]) if p.count("/") > 1 else p for p in importers}
        assert len(owners) <= 1 and all(p.startswith("tables/") for p in importers), (game, importers)
