"""The 39 Clues table, driven by clicks as a family would play it (cards picked on screen)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from tests.desktop.test_fit import SCREENS, clipped, fits

from desktop.tables.clues39 import CluesTable

PLAYERS = [("Ann", 11), ("Bob", 9)]


NAMES = ("Ann", "Bob", "Cyd", "Dee")


def card(player: str, number: int) -> str:
    """Card ``number`` of the example collection, the copy dealt to this player (Ann 1, Bob 2...)."""
    k = NAMES.index(player) + 1
    return f"39-clues.card.n{number}" + ("" if k == 1 else f"-c{k}")


def choose_game(t, game: str = "39-clues") -> None:
    t.choose_game(game)


@pytest.fixture
def game(table):
    choose_game(table)
    table.new_game(PLAYERS)
    assert isinstance(table.window.table.table, CluesTable)
    return table


def tile(t, place: str) -> str:
    """A table tile's words as one line (they wrap on screen)."""
    return " ".join(t.find(f"slot:{place}").text().split())


def read(t, place: str, number: int, player: str) -> None:
    t.click(f"slot:{place}")
    t.choose("card", card(player, number))
    t.click("entry:submit")


def test_a_game_by_clicks_setup_mission_retrieve_and_a_blocked_steal(game):
    """Set Up, a mission built and retrieved over two turns, a deal, and a steal blocked by Prestige."""
    t = game
    # Set Up: each player shows the four two-sided cards dealt to the table (the highlighted stacks).
    assert t.legal_slots() == {f"Ann/table/{s}" for s in "1234"}
    for spot, number in zip("1234", (9, 2, 18, 22)):
        read(t, f"Ann/table/{spot}", number, "Ann")
    assert t.legal_slots() == {f"Bob/table/{s}" for s in "1234"}
    for spot, number in zip("1234", (4, 11, 13, 20)):
        read(t, f"Bob/table/{spot}", number, "Bob")
    assert t.text("turn") == "Ann's turn"
    assert t.prompt == "Ann, deal four cards or play."
    assert tile(t, "Ann/table/1") == "Example Lighthouse Table 1"

    # Ann sends her red Agent (from her hand) to the Lighthouse on her Table 1.
    t.click("action:mission")
    t.click("choose:Ann/hand")
    t.click("slot:Ann/table/1")
    t.choose("agent", card("Ann", 1))
    t.choose("location", card("Ann", 9))
    t.click("entry:submit")
    assert "Ann sent Example Agent Rook to Example Lighthouse (mission 1)." in t.log()
    assert t.visible("slot:Ann/mission/1")
    # A blue Secret does not go on a red Location: refused in words, nothing changes.
    t.click("action:add")
    t.click("slot:Ann/table/3")
    t.choose("card", card("Ann", 18))
    t.click("entry:submit")
    assert "this mission's Location is red" in t.text("entry-error")
    t.click("entry:cancel")
    t.click("action:add")
    t.click("slot:Ann/table/4")
    t.choose("card", card("Ann", 22))
    t.click("entry:submit")
    assert tile(t, "Ann/mission/1").endswith("3 cards, 2 points, immune, new this turn")   # all red
    t.click("action:end_turn")

    # Bob deals: four new cards to read, then he discards one hand card.
    assert t.text("turn") == "Bob's turn"
    t.click("action:deal")
    for spot, number in zip("1234", (6, 8, 15, 24)):
        read(t, f"Bob/table/{spot}", number, "Bob")
    t.click("action:discard")
    t.choose("card", card("Bob", 38))
    t.click("entry:submit")
    t.click("action:end_turn")

    # Ann retrieves with her black Agent: black Agents retrieve any mission.
    t.click("action:retrieve")
    t.click("choose:Ann/hand")
    t.choose("card", card("Ann", 5))
    t.click("entry:submit")
    assert t.session.state.scores["Ann"] == 2
    assert "Ann: 2 points" in t.find("board:Ann").title()
    t.click("action:end_turn")

    # Bob starts a red mission; Ann tries to steal it with her own Museum; Bob blocks with Prestige.
    t.click("action:mission")
    t.click("choose:Bob/hand")
    t.click("slot:Bob/table/3")              # the Castle Bob dealt onto his Museum
    t.choose("agent", card("Bob", 7))
    t.choose("location", card("Bob", 15))
    t.click("entry:submit")
    t.click("action:end_turn")
    t.click("action:steal")
    t.click("slot:Ann/deck/two")
    t.choose("card", card("Ann", 15))
    t.click("entry:submit")
    assert t.text("turn") == "Ann's turn \u2014 Bob to act"         # asked before the steal resolves
    assert t.prompt.startswith("Bob, Ann wants to steal your mission 1")
    t.click("action:block")
    t.click("choose:Bob/hand")
    t.choose("card", card("Bob", 40))
    t.click("entry:submit")
    assert any("Bob blocked the steal with Example Prestige 2" in line for line in t.log())
    assert tile(t, "Bob/mission/1").endswith("2 cards, 0 points, retrievable")     # on Bob's next turn
    assert t.session.state.scores == {"Ann": 2, "Bob": 0}
    assert t.prompt == "Ann, play another card or end your turn."


@pytest.mark.parametrize("size", SCREENS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_screen_fits_a_laptop_with_missions_on_the_table(table, players, size, vertical=True):
    """docs/desktop.md: the table fits 1280x680 and cuts no text (across or down), with open missions and
    long names; from three players on a mission tile gives its Location and points (the rest in its tooltip)."""
    t = table
    t.window.resize(*size)
    choose_game(t)
    t.click("start:new")
    t.find("new:count").setValue(players)
    for i, name in enumerate(NAMES[:players]):
        t.find(f"new:name{i}").setText(name)
        t.find(f"new:age{i}").setValue(9 + i)
    t.click("new:start")
    fits(t, size, "setup", vertical=vertical)
    t.click("setup:done")
    fits(t, size, "table before the reads", vertical=vertical)
    for player in NAMES[:players]:
        for spot, number in zip("1234", (9, 2, 18, 22) if player == "Ann" else (4, 11, 13, 20)):
            read(t, f"{player}/table/{spot}", number, player)
    assert t.text("turn") == "Ann's turn"
    t.click("action:mission")
    t.click("choose:Ann/hand")
    t.click("slot:Ann/table/1")
    fits(t, size, "reading an Agent and a Location", vertical=vertical)
    t.choose("agent", card("Ann", 1))
    t.choose("location", card("Ann", 9))
    t.click("entry:submit")
    for agent, agent_from, location in ((2, "slot:Ann/table/2", 10), (3, "choose:Ann/hand", 12)):
        t.click("action:mission")                        # two more missions (a hand holds four cards)
        t.click(agent_from)
        t.click("choose:Ann/hand")
        t.choose("agent", card("Ann", agent))
        t.choose("location", card("Ann", location))
        t.click("entry:submit")
    assert t.visible("slot:Ann/mission/3")
    fits(t, size, "three missions on the table", vertical=vertical)
    mission = t.find("slot:Ann/mission/1")
    assert "Example Agent Rook at Example Lighthouse" in mission.accessibleName()
    assert "Example Agent Rook at Example Lighthouse" in mission.toolTip()
    if players >= 3:
        assert tile(t, "Ann/mission/1") == "Mission 1: 0 pts, immune, new Example Lighthouse"   # all red
    t.click("journal:Ann")
    t.click("gate:reveal")
    fits(t, size, "Ann's journal", vertical=vertical)
    t.click("journal:hide")


def test_registering_a_small_collection(qtbot, tmp_path):
    """The family types each card's number and name and picks the rest from short lists; refusals in words."""
    from desktop.tables.clues39 import LibraryEditor
    from engine.games.clues39 import library as lib

    path = tmp_path / "39-clues" / "library.toml"
    editor = LibraryEditor(path)
    qtbot.addWidget(editor)
    editor.show()

    def register(number: int, name: str, kind: str, colour: str | None, points: int = 0, sides: int = 1) -> None:
        editor.number.setValue(number)
        editor.name.clear()
        qtbot.keyClicks(editor.name, name)
        editor.type.setCurrentIndex(editor.type.findData(kind))
        editor.colour.setCurrentIndex(editor.colour.findData(colour))
        editor.points.setValue(points)
        editor.sides.setCurrentIndex(editor.sides.findData(sides))
        qtbot.mouseClick(editor.register_button, Qt.LeftButton)

    register(7, "Grace's Agent", "agent", "red", sides=2)
    assert editor.number.value() == 8 and not editor.error.isVisible()
    register(8, "A Secret", "secret", "blue")                       # no points: refused
    assert editor.error.isVisible() and "a Secret needs its 'points'" in editor.error.text()
    register(8, "A Secret", "secret", "blue", points=3)
    register(7, "Again", "money", None)
    assert "card number 7 is already registered" in editor.error.text()
    register(9, "Copier", "replicator", "red")
    assert "a Replicator has no colour" in editor.error.text()
    register(9, "Copier", "replicator", None)
    texts = [editor.list.item(i).text() for i in range(editor.list.count())]
    assert texts == ["7: Grace's Agent (red agent, two-sided)", "8: A Secret (blue secret, 3 points, one-sided)",
                     "9: Copier (replicator, one-sided)"]
    saved = lib.load_library(path)
    assert [(e.id, e.number) for e in saved.entries] == [("n7", 7), ("n8", 8), ("n9", 9)]
    editor.list.setCurrentRow(1)
    qtbot.mouseClick(editor.remove_button, Qt.LeftButton)
    assert [e.number for e in lib.load_library(path).entries] == [7, 9]
    again = LibraryEditor(path)                                        # the file is the library
    qtbot.addWidget(again)
    assert again.list.count() == 2


def test_a_demo_game_read_by_the_simulated_camera(table, qtbot):
    """Demo mode: every face-up card and every card played from a hand read through the real vision pipeline."""
    t = table
    choose_game(t)
    t.click("start:demo")
    t.click("new:start")
    t.click("setup:done")
    controller = t.window.controller
    assert controller.demo
    panel = t.window.camera_panel
    qtbot.waitUntil(lambda: panel.image.pixmap() is not None and not panel.image.pixmap().isNull(), timeout=10_000)
    seen: list[str] = []
    panel.card_seen.connect(seen.append)

    def read_by_camera() -> None:
        before = len(seen)
        t.click("entry:camera")
        qtbot.waitUntil(lambda: t.window.stack.currentWidget() is t.window.table, timeout=15_000)
        assert len(seen) > before, "recorded without a camera reading"
        qtbot.wait(1000)                       # the next card is a new presentation to the tracker

    while t.session.state.phase == "read_setup":
        t.click(f"slot:{sorted(t.legal_slots())[0]}")
        read_by_camera()
    player = t.session.current
    t.click("action:deal")
    while t.legal_slots():
        t.click(f"slot:{sorted(t.legal_slots())[0]}")
        read_by_camera()
    t.click("action:end_turn")
    assert t.session.current != player
    assert all(e.where != "Unknown" for e in t.session.journal(player).entries)
