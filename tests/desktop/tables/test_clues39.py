"""The 39 Clues table, driven by clicks as a family would play it (cards picked on screen)."""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import QPoint, Qt

from tests.desktop.test_fit import SCREENS, clipped, fits
from tests.desktop.test_type_size import small_type

from desktop.drawn import paint as pt
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


def mission_words(t, place: str) -> str:
    """A mission stack's whole words (its screen-reader name and tooltip): its Agent at its Location,
    cards, points, whether it is immune or retrievable."""
    return t.find(f"slot:{place}").accessibleName().removesuffix(", can be chosen")


def drawn(t, place: str) -> list[str]:
    """The words painted on a place's card now (what fits at 15 px or more)."""
    texts = t.find(f"slot:{place}").drawn_texts()
    assert all(x.fits and x.px >= 15 for x in texts), texts
    return [" ".join(x.text.split()) for x in texts]


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
    assert tile(t, "Ann/table/1") == "Demo Lighthouse Table 1"

    # Ann sends her red Agent (from her hand) to the Lighthouse on her Table 1.
    t.click("action:mission")
    t.click("choose:Ann/hand")
    t.click("slot:Ann/table/1")
    t.choose("agent", card("Ann", 1))
    assert not t.visible("choose:location")        # the Lighthouse lies face up, read: never asked again
    t.click("entry:submit")
    assert "Ann sent Demo Agent Rook to Demo Lighthouse (mission 1)." in t.log()
    assert t.visible("slot:Ann/mission/1")
    # A blue Secret does not go on a red Location: it does not glow; clicked, it is refused in words
    # and nothing changes. (Table cards lie face up and were read: played from there, they are not
    # asked for again.)
    t.click("action:add")
    t.click("slot:Ann/table/3")
    assert t.window.stack.currentWidget() is t.window.table
    assert "this mission's Location is red" in (t.find("error").toolTip() or t.text("error"))
    t.click("slot:Ann/table/4")                  # still adding: the red Secret (it alone glows)
    assert t.window.stack.currentWidget() is t.window.table
    assert mission_words(t, "Ann/mission/1").endswith("3 cards, 2 points, immune, new this turn")   # all red
    assert "2 pts" in drawn(t, "Ann/mission/1")                    # the points on the stack, in its band
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
    assert t.text("plate:Ann").startswith("Ann: 2 points")
    t.click("action:end_turn")

    # Bob starts a red mission; Ann tries to steal it with her own Museum; Bob blocks with Prestige.
    t.click("action:mission")
    t.click("choose:Bob/hand")
    t.click("slot:Bob/table/3")              # the Castle Bob dealt onto his Museum
    t.choose("agent", card("Bob", 7))
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
    assert any("Bob blocked the steal with Demo Prestige 2" in line for line in t.log())
    assert mission_words(t, "Bob/mission/1").endswith("2 cards, 0 points, retrievable")     # on Bob's next turn
    assert t.session.state.scores == {"Ann": 2, "Bob": 0}
    assert t.prompt == "Ann, play another card or end your turn."


def new_game_at(t, size: tuple[int, int], players: int) -> None:
    """A new game of ``players`` (Ann, Bob, Cyd, Dee) in a window of ``size``, up to the setup picture."""
    t.window.resize(*size)
    choose_game(t)
    t.click("start:new")
    t.find("new:count").setValue(players)
    for i, name in enumerate(NAMES[:players]):
        t.find(f"new:name{i}").setText(name)
        t.find(f"new:age{i}").setValue(9 + i)
    t.click("new:start")


@pytest.mark.parametrize("size", SCREENS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_screen_fits_a_laptop_with_missions_on_the_table(table, players, size, vertical=True):
    """docs/desktop.md: the table fits 1280x680 and cuts no text (across or down), with open missions and
    long names; from three players on a mission tile gives its Location and points (the rest in its tooltip)."""
    t = table
    new_game_at(t, size, players)
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
    fits(t, size, "reading an Agent", vertical=vertical)
    t.choose("agent", card("Ann", 1))
    t.click("entry:submit")
    for agent, agent_from, location in ((2, "slot:Ann/table/2", 10), (3, "choose:Ann/hand", 12)):
        t.click("action:mission")                        # two more missions (a hand holds four cards)
        t.click(agent_from)
        t.click("choose:Ann/hand")
        if agent_from == "choose:Ann/hand":
            t.choose("agent", card("Ann", agent))
        t.choose("location", card("Ann", location))
        t.click("entry:submit")
    assert t.visible("slot:Ann/mission/3")
    fits(t, size, "three missions on the table", vertical=vertical)
    mission = t.find("slot:Ann/mission/1")
    assert "Demo Agent Rook at Demo Lighthouse" in mission.accessibleName()
    assert "Demo Agent Rook at Demo Lighthouse" in mission.toolTip()
    # However little room a row has, the stack shows its points and its Location (what a steal needs).
    words = drawn(t, "Ann/mission/1")
    assert "0 pts" in words and "Demo Lighthouse" in words, words
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
    # Each card with its sticker's number from the family's block (1500-3114).
    stickers = [re.search(r"; sticker (\d+)\)$", text) for text in texts]
    assert all(m and 1500 <= int(m.group(1)) <= 3114 for m in stickers) and len({m.group(1) for m in stickers}) == 3
    assert [re.sub(r"; sticker \d+\)$", ")", text) for text in texts] == [
        "7: Grace's Agent (red agent, two-sided)", "8: A Secret (blue secret, 3 points, one-sided)",
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
    # The example collection's cards got tag numbers in the family's block before the camera started.
    from vision.registry import TagRegistry
    registry = TagRegistry.load()
    assert all(registry.tag_for_card(card) >= 1500 for card in controller.deck.cards)

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
    assert set(seen) <= set(controller.deck.cards) and len(set(seen)) >= 8    # the eight table cards at least


# --- the family's own cards: the library screen, decks on the new-game form, a game to 39 ---------
# (number, name, type, colour, points, sides, owner): a small collection of two children.
COLLECTION = [
    (1, "Red Agent Ann", "agent", "red", 0, 1, "Ann"), (2, "Second Red Agent", "agent", "red", 0, 1, "Ann"),
    (3, "Ann Money One", "money", None, 0, 1, "Ann"), (4, "Ann Prestige", "prestige", None, 0, 1, "Ann"),
    (5, "Ann Money Two", "money", None, 0, 1, "Ann"), (6, "Ann Money Three", "money", None, 0, 1, "Ann"),
    (10, "Ann's Lighthouse", "location", "red", 0, 2, "Ann"), (11, "The Big Secret", "secret", "red", 39, 2, "Ann"),
    (12, "Ann Money Four", "money", None, 0, 2, "Ann"), (13, "Ann Money Five", "money", None, 0, 2, "Ann"),
    (14, "Ann Money Six", "money", None, 0, 2, "Ann"), (15, "Ann Money Seven", "money", None, 0, 2, "Ann"),
    (20, "Blue Agent Bob", "agent", "blue", 0, 1, "Bob"), (21, "Bob Money One", "money", None, 0, 1, "Bob"),
    (22, "Bob Money Two", "money", None, 0, 1, "Bob"), (23, "Bob Money Three", "money", None, 0, 1, "Bob"),
    (24, "Bob Money Four", "money", None, 0, 1, "Bob"), (25, "Bob Money Five", "money", None, 0, 1, "Bob"),
    (30, "Bob's Castle", "location", "blue", 0, 2, "Bob"), (31, "Bob Money Six", "money", None, 0, 2, "Bob"),
    (32, "Bob Money Seven", "money", None, 0, 2, "Bob"), (33, "Bob Money Eight", "money", None, 0, 2, "Bob"),
    (34, "Bob Money Nine", "money", None, 0, 2, "Bob"), (35, "Bob Money Ten", "money", None, 0, 2, "Bob"),
]


def open_library(t):
    choose_game(t)
    t.click("start:screen:library")
    dialog = t.window.start.screen_window
    assert dialog.isVisible() and dialog.objectName() == "screen:library"
    return dialog


def register(t, number, name, kind, colour, points=0, sides=1, owner="") -> None:
    """Type the number and the name, pick the rest from the short lists, Register."""
    t.find("library:number").setValue(number)
    t.find("library:name").clear()
    t.qtbot.keyClicks(t.find("library:name"), name)
    for field, value in (("type", kind), ("colour", colour), ("sides", sides)):
        box = t.find(f"library:{field}")
        box.setCurrentIndex(box.findData(value))
    t.find("library:points").setValue(points)
    t.find("library:owners").setText(owner)
    t.click("library:register")


def test_registering_a_collection_on_the_library_screen_then_a_whole_game_to_39(table, gumshoe_home):
    """Issue 15: the family registers their cards from the shelf, each player's deck comes from the library
    (checked: four one-sided and four two-sided cards; under 44 cards is only a warning), then a game by
    clicks to 39 points (rulebook: Set Up, Missions, Retrieving a Mission, Winning)."""
    t = table
    t.window.resize(1280, 680)
    dialog = open_library(t)
    register(t, 11, "The Big Secret", "secret", "red", points=0, sides=2, owner="Ann")   # no points: refused
    assert "a Secret needs its 'points'" in t.text("library:error")
    for number, name, kind, colour, points, sides, owner in COLLECTION:
        register(t, number, name, kind, colour, points, sides, owner)
        assert not t.visible("library:error"), t.text("library:error")
    register(t, 30, "Again", "money", None)
    assert "card number 30 is already registered (Bob's Castle)" in t.text("library:error")
    assert t.text("library:summary").startswith("24 printed cards, 24 with the copies (12 one-sided, 12 two-sided)")
    dialog.resize(1280, 680)
    t.qtbot.wait(30)
    assert dialog.width() <= 1280 and dialog.height() <= 680, dialog.minimumSizeHint()
    assert clipped(dialog) == [], "the library screen at 1280x680"
    # Every registered card has its tag number (the stickers print from the start screen).
    from vision.registry import family_deck, family_file
    assert len(family_deck("39-clues").cards) == 24
    # ... and the list says which sticker goes on which card.
    numbers = {t.name: t.tag_id for t in family_file("39-clues").tags}
    listed = t.find("library:list")
    first = next(listed.item(r).text() for r in range(listed.count()) if listed.item(r).text().startswith("1: "))
    assert first.endswith(f"; sticker {numbers['Red Agent Ann']})")
    assert (gumshoe_home / "39-clues" / "library.toml").exists()
    t.click("screen:close")

    t.click("start:new")
    t.find("new:count").setValue(2)
    for i, (name, age) in enumerate((("Ann", 11), ("Bob", 9))):
        t.find(f"new:name{i}").setText(name)
        t.find(f"new:age{i}").setValue(age)
    assert t.find("clues:source").currentData() == "owners"
    assert t.text("clues:summary") == "Cards (one-sided + two-sided): Ann 6 + 6  \u00b7  Bob 6 + 6"
    assert "Ann has 12 cards; the game is best played with at least 44." in t.text("new:warning")
    # Each player picks their cards: nothing picked yet, so the game cannot start.
    box = t.find("clues:source")
    box.setCurrentIndex(box.findData("pick"))
    t.click("new:start")
    assert "Ann's deck has 0 one-sided cards: at least 4 are needed to set up." in t.text("new:error")
    assert t.window.stack.currentWidget() is t.window.new_game
    for seat in (0, 1):
        t.click(f"clues:pick:{seat}")
        t.click("clues:picker:own")
        t.click("clues:picker:done")
    assert t.text("clues:summary") == "Cards (one-sided + two-sided): Ann 6 + 6  \u00b7  Bob 6 + 6"
    t.click("new:start")
    t.click("setup:done")
    decks = t.session.options["decks"]
    assert sorted(c["number"] for c in decks["Bob"]) == [20, 21, 22, 23, 24, 25, 30, 31, 32, 33, 34, 35]

    def n(number: int) -> str:
        return f"39-clues.card.n{number}"

    for player, numbers in (("Ann", (10, 11, 12, 13)), ("Bob", (30, 31, 32, 33))):
        for spot, number in zip("1234", numbers):
            t.click(f"slot:{player}/table/{spot}")
            t.choose("card", n(number))
            t.click("entry:submit")
    assert t.text("turn") == "Ann's turn"              # Ann's card 10 is the lowest number on the table
    t.click("action:mission")
    t.click("choose:Ann/hand")
    t.click("slot:Ann/table/1")
    t.choose("agent", n(1))
    t.click("entry:submit")
    t.click("action:add")
    t.click("slot:Ann/table/2")                        # read when dealt: not asked again
    assert mission_words(t, "Ann/mission/1").endswith("3 cards, 39 points, immune, new this turn")
    t.click("action:end_turn")
    t.click("action:mission")                          # Bob starts a mission of his own
    t.click("choose:Bob/hand")
    t.click("slot:Bob/table/1")
    t.choose("agent", n(20))
    t.click("entry:submit")
    t.click("action:end_turn")
    t.click("action:retrieve")                         # Ann's second red Agent: 39 points, she wins
    t.click("choose:Ann/hand")
    t.choose("card", n(2))
    t.click("entry:submit")
    assert t.session.outcome is not None and t.session.outcome.winners == ("Ann",)
    assert t.session.state.scores == {"Ann": 39, "Bob": 0}


def test_a_broken_library_file_and_import_export_on_the_library_screen(table, gumshoe_home, tmp_path):
    """A broken file is explained and not overwritten; importing a good file replaces it (the broken one
    is kept); exporting writes a file that imports back; the new-game form says the library is broken."""
    t = table
    path = gumshoe_home / "39-clues" / "library.toml"
    path.parent.mkdir(parents=True)
    path.write_text('[library]\nname = "Ours"\n[[cards]]\nnumber = 8\nname = "A Secret"\ntype = "secret"\n'
                    'colour = "blue"\n', encoding="utf-8")
    open_library(t)
    assert "line 3 (number 8): a Secret needs its 'points'" in t.text("library:error")
    assert not t.find("library:register").isEnabled()
    good = tmp_path / "cousins.toml"
    from engine.games.clues39 import library as lib
    lib.save_library(lib.register(lib.Library("Cousins"), 7, "Grace's Agent", "agent", "red", sides=2), good)
    bad = tmp_path / "bad.toml"
    bad.write_text("[library]\nname = 'x'\n[[cards]]\nnumber = 'seven'\n", encoding="utf-8")
    editor = t.window.start.screen_window.body
    assert not editor.import_from(bad)
    assert "That file was not imported" in t.text("library:error") and "whole number printed" in t.text("library:error")
    assert editor.import_from(good)
    assert not t.visible("library:error") and t.find("library:register").isEnabled()
    assert [e.number for e in lib.load_library(path).entries] == [7]
    assert "number = 8" in (path.parent / "library-broken.toml").read_text(encoding="utf-8")
    out = tmp_path / "export" / "ours.toml"
    assert editor.export_to(out)
    assert lib.load_library(out).entries == lib.load_library(path).entries
    t.click("screen:close")

    path.write_text("not a library", encoding="utf-8")
    t.click("start:new")
    t.find("new:count").setValue(2)
    for i, name in enumerate(("Ann", "Bob")):
        t.find(f"new:name{i}").setText(name)
    t.click("new:start")
    assert "Your card library file cannot be used" in t.text("new:error")
    assert t.window.stack.currentWidget() is t.window.new_game
    box = t.find("clues:source")
    box.setCurrentIndex(box.findData("example"))                    # the example collection still plays
    t.click("new:start")
    assert t.window.stack.currentWidget() is t.window.setup


@pytest.mark.parametrize("size", SCREENS)
def test_the_new_game_form_with_four_players_picking_decks_fits(table, size, gumshoe_home):
    from engine.games.clues39 import library as lib
    ours = lib.sample_library()
    lib.save_library(lib.Library("Ours", ours.entries), gumshoe_home / "39-clues" / "library.toml")
    t = table
    t.window.resize(*size)
    choose_game(t)
    t.click("start:new")
    t.find("new:count").setValue(4)
    for i, name in enumerate(NAMES):
        t.find(f"new:name{i}").setText(name)
    box = t.find("clues:source")
    box.setCurrentIndex(box.findData("pick"))
    fits(t, size, "new game, decks picked per player")
    picker = t.window.new_game.choices.open_picker(3)
    picker.resize(*size)
    t.qtbot.wait(30)
    assert clipped(picker) == [], "the deck picker"
    t.click("clues:picker:free")
    t.click("clues:picker:done")
    assert t.text("clues:summary").endswith("Cyd 0 + 0  \u00b7  Dee 88 + 88")
    assert t.window.new_game.choices.problem() == "Ann's deck has 0 one-sided cards: at least 4 are needed to set up."
    box.setCurrentIndex(box.findData("owners"))
    fits(t, size, "new game, decks by owner")
    assert "Ann 22 + 22" in t.text("clues:summary") and not t.visible("new:warning")


def test_a_broken_tag_file_is_said_and_the_game_goes_on_by_picks(table, gumshoe_home):
    """The family's tag file is never overwritten when broken: the table says so and cards are picked."""
    tags = gumshoe_home / "39-clues" / "tags.toml"
    tags.parent.mkdir(parents=True)
    tags.write_text("broken [", encoding="utf-8")
    t = table
    choose_game(t)
    t.new_game(PLAYERS)
    assert "tag numbers could not be saved" in t.banner and "pick the cards on the screen" in t.banner
    assert tags.read_text(encoding="utf-8") == "broken ["
    read(t, "Ann/table/1", 9, "Ann")
    assert tile(t, "Ann/table/1") == "Demo Lighthouse Table 1"


def test_a_library_edited_outside_the_app_gets_tag_numbers_before_the_sheets_are_drawn(table, gumshoe_home):
    """The tag sheets print the library's cards: a card the family wrote into library.toml by hand
    (or restored from a backup) gets its number when the start screen makes the sheets."""
    from engine.games.clues39 import library as lib
    from vision.registry import family_deck

    book = lib.register(lib.register(lib.Library("Ours"), 7, "Hand Written Agent", "agent", "red"),
                        8, "Hand Written Lighthouse", "location", "red", sides=2)
    lib.save_library(book, lib.user_library_path())
    t = table
    choose_game(t)
    t.click("start:print")
    names = sorted(c.name for c in family_deck("39-clues").cards)
    assert "Hand Written Agent" in names and "Hand Written Lighthouse" in names
    t.qtbot.waitUntil(lambda: t.window.start._thread is None, timeout=30_000)
    assert t.text("start:print-status").startswith("Saved:"), t.text("start:print-status")


# --- stickers printed to attach later, attached by showing the card to the camera ------------------
def camera_on(t, panel) -> None:
    """The camera's first picture: its tag reader is running (a fresh reader process takes a while
    on a busy machine, vision.isolated.START_TIMEOUT_S)."""
    from vision.isolated import START_TIMEOUT_S
    t.qtbot.waitUntil(lambda: panel.running and panel.simulated is not None and panel.image.pixmap() is not None
                      and not panel.image.pixmap().isNull(), timeout=int(START_TIMEOUT_S * 1000))


def show(t, panel, card: str, words: str) -> str:
    """Hold a card up to the simulated camera until the sticker message says ``words`` (held as long
    as the wait: a busy machine reads fewer frames a second, and a card is confirmed by several)."""
    camera_on(t, panel)
    panel.simulated.hold_up([card], seconds=15.0)
    try:
        t.qtbot.waitUntil(lambda: words in t.text("library:sticker:message"), timeout=15_000)
    except Exception:
        raise AssertionError(t.text("library:sticker:message") + " | " + t.text("library:sticker:status"))
    return t.text("library:sticker:message")


def test_stickers_printed_to_attach_later_then_attached_by_the_simulated_camera(table, gumshoe_home):
    """Issue 15: "a card can be shown to the camera to attach its sticker". The family prints stickers
    to attach later (numbers of their block, recorded in tags.toml), sticks one on a registered card
    and holds it up: the sticker is attached (the card's old number retired); a sticker already on
    another card, another game's card and a number outside the block are refused in words."""
    from vision.registry import TagRegistry, TagStatus, family_file

    t = table
    t.window.resize(1280, 680)
    dialog = open_library(t)
    register(t, 7, "Grace's Agent", "agent", "red", sides=2)
    register(t, 8, "Old Secret", "secret", "blue", points=3)
    assert TagRegistry.load().tag_for_card("39-clues.card.n7") == 1500        # its number at registration

    t.find("library:sticker:count").setValue(3)
    t.click("library:sticker:print")
    message = t.text("library:sticker:message")
    assert "3 stickers (1502 to 1504) to print and stick on any cards:" in message
    dialog.resize(1280, 680)
    t.qtbot.wait(30)
    assert clipped(dialog) == [], ("the library screen after printing, at 1280x680", clipped(dialog))
    pdf = gumshoe_home / "39-clues" / "stickers-1502-1504.pdf"
    assert str(pdf) in message and pdf.stat().st_size > 1000
    assert family_file("39-clues").spares == (1502, 1503, 1504)

    panel = dialog.body.stickers
    box = t.find("library:sticker:choice")
    box.setCurrentIndex(box.findData(-1))                       # the simulated table (no webcam in CI)
    t.click("library:sticker:camera")
    editor = dialog.body
    editor.list.setCurrentRow(0)
    assert t.text("library:sticker:target") == "A sticker read now goes on card 7: Grace's Agent."
    said = show(t, panel, "tag:1502", "is now on")
    assert said == "\u2714 Sticker 1502 is now on card 7: Grace's Agent. Its old sticker number 1500 no longer counts."
    own = family_file("39-clues")
    assert own.tag_of_card("39-clues.card.n7").tag_id == 1502 and [r.tag_id for r in own.retired] == [1500]

    # The same sticker on another card: refused, naming the card it is on; nothing changes.
    editor.list.setCurrentRow(1)
    before = (gumshoe_home / "39-clues" / "tags.toml").read_text(encoding="utf-8")
    said = show(t, panel, "tag:1502", "Nothing changed")
    assert said == "Sticker 1502 is already on card 7: Grace's Agent. Nothing changed."
    said = show(t, panel, "carmen.loot.gandhis-glasses", "another game")
    assert "That sticker is on a card of another game (Gandhi's Glasses)" in said
    assert (gumshoe_home / "39-clues" / "tags.toml").read_text(encoding="utf-8") == before

    # A new card filled in on the form is registered when its sticker is read.
    t.click("library:sticker:new")
    t.find("library:number").setValue(9)
    t.find("library:name").setText("Map of Paris")
    box = t.find("library:type")
    box.setCurrentIndex(box.findData("location"))
    box = t.find("library:colour")
    box.setCurrentIndex(box.findData("blue"))
    t.find("library:points").setValue(0)            # the form still shows the Secret picked before
    said = show(t, panel, "tag:1503", "is now on")
    assert said == "\u2714 Sticker 1503 is now on card 9: Map of Paris."
    from engine.games.clues39 import library as lib
    assert [e.number for e in lib.load_library(gumshoe_home / "39-clues" / "library.toml").entries] == [7, 8, 9]

    # Typed numbers work without a camera: one outside the family's block is refused.
    editor.list.setCurrentRow(1)
    t.find("library:sticker:number").setValue(600)
    t.click("library:sticker:attach")
    assert t.text("library:sticker:message") == ("Sticker number 600 is not one of your 39 Clues stickers (they are "
                                                  "numbered 1500 to 3114). Nothing changed.")
    dialog.resize(1280, 680)
    t.qtbot.wait(30)
    assert dialog.width() <= 1280 and dialog.height() <= 680, dialog.minimumSizeHint()
    assert clipped(dialog) == [], ("the library screen with the camera on, at 1280x680", clipped(dialog))
    t.click("screen:close")
    assert not panel.running and panel.simulated is None           # the camera stops with the screen

    # The game's camera reads the card by its new sticker; the old number names nobody.
    registry = TagRegistry.load()
    assert registry.identify_tag(1502, active={"39-clues"}).card_id == "39-clues.card.n7"
    assert registry.identify_tag(1500, active={"39-clues"}).status is TagStatus.UNKNOWN
    assert registry.tag_for_card("39-clues.card.n9") == 1503
    from vision.detector import TagDetector
    from vision.synthetic import SyntheticTable
    seen = TagDetector(active={"39-clues"}).detect(SyntheticTable(seed=4).frame(["39-clues.card.n7"]))
    assert {(d.identity.tag_id, d.card_id) for d in seen} == {(1502, "39-clues.card.n7")}


def test_a_restarted_sticker_camera_shows_nothing_from_the_one_it_replaced(table, gumshoe_home):
    """After a sticker is attached the camera restarts to read the new numbers. What the stopped camera
    sent before it ended (a last picture, a failure) arrives after the restart: it must not look like
    the new camera at work (a card held up then would go unread) nor stop it."""
    from PySide6.QtGui import QImage

    t = table
    dialog = open_library(t)
    panel = dialog.body.stickers
    box = t.find("library:sticker:choice")
    box.setCurrentIndex(box.findData(-1))                       # the simulated table
    t.click("library:sticker:camera")
    camera_on(t, panel)
    old = panel._worker
    panel.restart()
    assert panel.running and panel._worker is not old
    picture = QImage(64, 36, QImage.Format_RGB888)
    picture.fill(0)
    old.preview.emit(picture)
    old.hint.emit("Hold the card still.")
    old.failed.emit("The camera stopped sending pictures. Check the cable and press Retry.")
    assert panel.image.pixmap().isNull() and panel.image.text() == "Camera off"
    assert panel.running and t.text("library:sticker:status") == "Simulated table"     # the new camera's words
    assert "No camera is working" not in t.text("library:sticker:message")
    camera_on(t, panel)                                         # the new camera's own picture
    t.click("screen:close")
    assert not panel.running


def test_no_camera_on_the_library_screen_is_said_and_typing_still_works(table, gumshoe_home, monkeypatch):
    """No webcam: the screen says so; a sticker's number typed in is attached all the same."""
    from vision.sources import CameraError, WebcamSource

    def no_camera(self):
        raise CameraError("Camera 1 was not found.")

    monkeypatch.setattr(WebcamSource, "open", no_camera)
    t = table
    dialog = open_library(t)
    register(t, 7, "Grace's Agent", "agent", "red", sides=2)
    t.find("library:sticker:count").setValue(1)
    t.click("library:sticker:print")                              # sticker 1501
    t.click("library:sticker:camera")
    t.qtbot.waitUntil(lambda: "No camera is working" in t.text("library:sticker:message"), timeout=15_000)
    assert "still works by typing" in t.text("library:sticker:message")
    assert t.text("library:sticker:status") == "No camera."
    assert not dialog.body.stickers.running
    dialog.body.list.setCurrentRow(0)
    t.find("library:sticker:number").setValue(1501)
    t.click("library:sticker:attach")
    assert t.text("library:sticker:message").startswith("\u2714 Sticker 1501 is now on card 7: Grace's Agent.")
    t.click("screen:close")


def points_of(t, place: str) -> int:
    """A mission's points, as its screen-reader name says them ("4 cards, 9 points")."""
    return int(re.search(r"(\d+) points", mission_words(t, place)).group(1))


def shown_points(t, place: str) -> int | None:
    """The points painted on a mission's card: "9 pts" on a whole card, "9" (over "pts" when there is
    room) on the strip a fanned stack shows."""
    words = drawn(t, place)
    for i, text in enumerate(words):
        if re.fullmatch(r"\d+ pts", text):
            return int(text.split()[0])
        if re.fullmatch(r"\d+", text) and (i == 0 or words[i + 1:i + 2] == ["pts"]):
            return int(text)
    return None


def most_missions(view) -> int:
    owners: dict[str, set[str]] = {}
    for card in view.cards:
        if "/mission/" in card.place:
            owners.setdefault(card.place.split("/")[0], set()).add(card.place)
    return max((len(places) for places in owners.values()), default=0)


@pytest.mark.parametrize("size", [(1280, 680), (1366, 728)])
def test_five_missions_of_one_player_still_fit_with_four_players(table, size):
    """docs/desktop.md: no limit on open missions (Missions). With four players a player's five
    missions stay on their row, fanned out when it is short (each shows its points; the rest is in
    the tooltip) and nothing is cut, across or down. The game is played on by the simulated players until someone
    has five missions open."""
    t = table
    new_game_at(t, size, 4)
    t.click("setup:done")
    c = t.window.controller
    # The simulated players' moves are found on a session of the same setup (no screen, no file),
    # then made in the app's game.
    from engine.session import Session
    for seed in (13, *range(40)):
        trial = Session.new("39-clues", list(NAMES), dict(c.session.options))
        sim = trial.rules.simulator(trial.initial, seed)
        moves = []
        while trial.outcome is None and most_missions(trial.view(None)) < 5 and len(moves) < 800:
            moves.append(sim.random_action(trial))
            trial.apply(moves[-1])
        if most_missions(trial.view(None)) >= 5:
            break
    for move in moves:
        c.session.apply(move)
    assert most_missions(c.session.view(None)) >= 5
    t.window.table.refresh()
    fits(t, size, "five missions of one player, four players", vertical=True)
    owner = max(NAMES, key=lambda p: sum(1 for place in t.window.table.table.slots if place.startswith(f"{p}/mission/")))
    tiles = [place for place in t.window.table.table.slots if place.startswith(f"{owner}/mission/")]
    assert len(tiles) >= 5
    for place in tiles:              # fanned stacks: at least the points, the rest in the tooltip
        assert shown_points(t, place) == points_of(t, place), drawn(t, place)
        assert " at " in t.find(f"slot:{place}").toolTip()


def test_a_mission_sent_and_retrieved_is_seen_moving_and_ends_where_the_engine_says(game):
    """Issue 23: with motion on, the Agent and the Location fly to the new mission stack, Bob's deal
    flies from his deck to his Table stacks one card at a time, and the retrieved stack flies to
    Ann's discard pile (by her name); every card then shows what the engine says."""
    from desktop.drawn import set_less_motion
    t = game
    table = t.window.table.table
    for spot, number in zip("1234", (9, 2, 18, 22)):
        read(t, f"Ann/table/{spot}", number, "Ann")
    for spot, number in zip("1234", (4, 11, 13, 20)):
        read(t, f"Bob/table/{spot}", number, "Bob")
    set_less_motion(False)
    try:
        t.click("action:mission")
        t.click("choose:Ann/hand")
        t.click("slot:Ann/table/1")
        t.choose("agent", card("Ann", 1))
        t.click("entry:submit")
        assert table.motion.busy and t.find("slot:Ann/mission/1").held
        t.qtbot.waitUntil(lambda: not table.motion.busy, timeout=5000)
        assert table.motion.queue.played == ["mission", "mission"]      # from the hand, from Table 1
        assert not t.find("slot:Ann/mission/1").held
        t.click("action:end_turn")
        t.click("action:deal")
        t.qtbot.waitUntil(lambda: not table.motion.busy, timeout=5000)
        assert table.motion.queue.played[2:] == ["deal"] * 4
        for spot, number in zip("1234", (6, 8, 15, 24)):
            read(t, f"Bob/table/{spot}", number, "Bob")
        t.click("action:discard")
        t.choose("card", card("Bob", 38))
        t.click("entry:submit")
        t.click("action:end_turn")
        t.qtbot.waitUntil(lambda: not table.motion.busy, timeout=5000)
        played = len(table.motion.queue.played)
        t.click("action:retrieve")
        t.click("choose:Ann/hand")
        t.choose("card", card("Ann", 5))
        t.click("entry:submit")
        assert table.motion.busy
        t.qtbot.waitUntil(lambda: bool(table.motion.layer.flights), timeout=2000)
        t.qtbot.waitUntil(lambda: not table.motion.busy, timeout=5000)
        assert "retrieve" in table.motion.queue.played[played:]
        assert not t.visible("slot:Ann/mission/1")
        assert t.text("plate:Ann").startswith(f"Ann: {t.session.state.scores['Ann']} points")
        assert "Discard 3" in t.text("plate:Ann")                      # the Agent and the two-card stack
        view = t.window.controller.shared_view()
        for place, slot in table.slots.items():
            top = [c for c in view.cards if c.place == place]
            assert not slot.held and slot.look.present == bool(top)
            assert slot.look.name == (top[-1].name if top and top[-1].name else slot.look.name if top else None)
    finally:
        set_less_motion(True)


def missions_of(view, names) -> dict[str, set[str]]:
    owners: dict[str, set[str]] = {p: set() for p in names}
    for card in view.cards:
        if "/mission/" in card.place:
            owners[card.place.split("/")[0]].add(card.place)
    return owners


def fewest(view, names) -> int:
    return min(len(places) for places in missions_of(view, names).values())


def send_only_missions(t, monkeypatch, enough=None) -> None:
    """The simulated players play on, sending missions whenever they can and never retrieving,
    sabotaging or stealing one, until ``enough(view)``; without it, to the moment the most missions
    lie open (the most one player holds, then the most in all). The moves are found on a session of
    the same setup (no screen), then made in the app's game and the table drawn once."""
    from engine.games.clues39 import sim
    from engine.session import Session
    c = t.window.controller
    names = list(c.session.players)
    for what, weight in (("retrieve", 0.0), ("steal", 0.0), ("sabotage", 0.0), ("mission", 100.0)):
        monkeypatch.setitem(sim.WEIGHTS, what, weight)
    trial = Session.new("39-clues", names, dict(c.session.options))
    player = trial.rules.simulator(trial.initial, 0)
    moves: list = []
    best, upto = (0, 0), 0
    while trial.outcome is None and len(moves) < 3000:
        if enough is not None and enough(trial.view(None)):
            break
        moves.append(player.random_action(trial))
        trial.apply(moves[-1])
        counts = [len(places) for places in missions_of(trial.view(None), names).values()]
        if (max(counts), sum(counts)) > best:
            best, upto = (max(counts), sum(counts)), len(moves)
    for move in moves[:upto if enough is None else len(moves)]:
        c.session.apply(move)
    t.window.table.refresh()


#: The example decks' Agents (8) and Replicators (3) against their Locations (8): at most 9 missions each.
MOST_MISSIONS = 9


def on_the_rows(problem: str) -> bool:
    return "slot:" in problem or "plate:" in problem


@pytest.mark.parametrize("players", [2, 4])
def test_the_most_missions_a_game_reaches_fan_out_and_every_card_reads(table, monkeypatch, players):
    """Issue 23: each player's missions as stacked cards in colour, with the points on each, read
    from a metre. The simulated players only send missions, up to nine open missions for a player
    (the most the example decks allow). At 1280x680, 1366x728 and 1920x1040 no word on a player's
    row (plate, Table 1-4, deck, missions) is cut or under 15 px; a mission covered by the next one
    still shows its points on the strip it leaves, and a click on that strip reaches it."""
    t = table
    new_game_at(t, (1280, 680), players)
    t.click("setup:done")
    send_only_missions(t, monkeypatch)
    names = NAMES[:players]
    table_widget = t.window.table.table
    assert most_missions(t.window.controller.session.view(None)) == MOST_MISSIONS
    for size in ((1280, 680), (1366, 728), (1920, 1040)):
        t.window.resize(*size)
        t.qtbot.wait(60)
        where = f"{players} players at {size[0]}x{size[1]}"
        assert [p for p in clipped(t.window) if on_the_rows(p)] == [], where
        assert [p for p in small_type(t.window.table) if on_the_rows(p)] == [], where
        for name in names:
            row = table_widget.card_rows[name]
            for card in row.missions:
                assert shown_points(t, card.place) == points_of(t, card.place), \
                    (where, card.place, drawn(t, card.place))
                # The strip it shows (or the whole top card) is where a click lands on it.
                seen = card.strip if card.strip is not None else card.width() - pt.GLOW
                spot = card.geometry().topLeft() + QPoint(int(pt.GLOW + (seen - pt.GLOW) / 2), card.height() // 2)
                assert row.childAt(spot) is card, (where, card.place)
        if size == (1280, 680):
            row = table_widget.card_rows[names[-1]]
            assert sum(card.strip is not None for card in row.missions) == len(row.missions) - 1, where


def test_a_steal_among_fanned_missions_picks_a_covered_stack_by_its_strip(table, monkeypatch):
    """Stealing with nine missions a player: every opponent's stack it may take glows, strips and
    whole cards alike, and nothing on the rows is cut or small at 1280x680 and 1366x728 (a legal
    whole card too small for its place's words at 24 px shows its points and Location, what the
    steal needs). A click on a covered stack's strip picks that stack."""
    t = table
    new_game_at(t, (1280, 680), 4)
    t.click("setup:done")
    send_only_missions(t, monkeypatch)
    t.click("action:steal")
    legal = t.legal_slots()
    thief = t.window.controller.session.current
    assert legal and all("/mission/" in place and not place.startswith(f"{thief}/") for place in legal)
    for size in ((1366, 728), (1280, 680)):
        t.window.resize(*size)
        t.qtbot.wait(60)
        assert [p for p in clipped(t.window) if on_the_rows(p)] == [], size
        assert [p for p in small_type(t.window.table) if on_the_rows(p)] == [], size
    target = next(card for name, row in t.window.table.table.card_rows.items() if name != thief
                  for card in row.missions if card.legal and card.strip is not None)
    row = target.parentWidget()
    spot = target.geometry().topLeft() + QPoint(int(pt.GLOW + (target.strip - pt.GLOW) / 2), target.height() // 2)
    hit = row.childAt(spot)
    assert hit is target
    t.qtbot.mouseClick(hit, Qt.LeftButton, pos=hit.mapFrom(row, spot))
    flow = t.window.table.flow
    assert flow is not None and str(flow.chosen.get("mission")) == target.place


def test_a_covered_mission_reached_by_the_keyboard_is_shown_whole(table, monkeypatch):
    """Tab or an arrow to a fanned mission lifts it over its neighbours, whole (its Location and
    points), and the arrow goes on along the fan; leaving it lays the fan back. A click (the mouse)
    does not lift it."""
    t = table
    new_game_at(t, (1280, 680), 4)
    t.click("setup:done")
    send_only_missions(t, monkeypatch)
    row = t.window.table.table.card_rows["Bob"]
    covered = row.missions[0]
    assert covered.strip is not None and [x for x in drawn(t, covered.place) if "pts" in x] in ([], ["pts"])
    covered.setFocus(Qt.TabFocusReason)
    t.qtbot.wait(20)
    assert covered.strip is None and row.childAt(covered.geometry().center()) is covered
    assert f"{points_of(t, covered.place)} pts" in drawn(t, covered.place)
    t.qtbot.keyClick(covered, Qt.Key_Right)          # the arrow goes on to the next stack, lifting it
    after = row.missions[1]
    assert after.hasFocus() and after.strip is None and covered.strip is not None
    assert row.childAt(after.geometry().center()) is after
    row.missions[-1].setFocus(Qt.TabFocusReason)
    t.qtbot.wait(20)
    assert covered.strip is not None and row.childAt(covered.geometry().center()) is not covered
    row.missions[1].setFocus(Qt.MouseFocusReason)
    assert row.missions[1].strip is not None


LONG_NAMES = ("Bartholomew Montgomery-J", "MARGARET WOLLSTONECRAFT", "Alexandrina Wilhelmina F",
              "Maximilian Worthingtonne")


@pytest.mark.parametrize("names", [NAMES, LONG_NAMES], ids=["short", "long"])
def test_every_name_stays_on_its_plate_with_five_missions_each(table, monkeypatch, names):
    """Issue 23: four players with five or more missions each (Missions: no limit) at 1280x680.
    Every plate still shows its player's name, whole or shortened with "\u2026" (the whole name in
    its tooltip), and its score; nothing on a plate is cut. The simulated players only send
    missions here."""
    t = table
    t.window.resize(1280, 680)
    choose_game(t)
    t.click("start:new")
    t.find("new:count").setValue(4)
    for i, name in enumerate(names):
        t.find(f"new:name{i}").setText(name)
        t.find(f"new:age{i}").setValue(9 + i)
    t.click("new:start")
    t.click("setup:done")
    send_only_missions(t, monkeypatch, lambda view: fewest(view, names) >= 5)
    assert fewest(t.window.controller.session.view(None), names) >= 5
    t.qtbot.wait(20)
    assert [problem for problem in clipped(t.window) if on_the_rows(problem)] == []
    assert [problem for problem in small_type(t.window.table) if on_the_rows(problem)] == []
    for name in names:
        plate = t.find(f"plate:{name}")
        assert plate.isVisible() and plate.height() >= 40 and plate.width() >= 100, plate.geometry()
        words = [x.text.replace("\n", " ") for x in plate.drawn_texts()]
        assert words[0] == name or (words[0].endswith("\u2026") and name.startswith(words[0][:-1].rstrip())), words
        assert re.fullmatch(r"\d+ points", words[1]), words
        assert name in plate.toolTip()


# --- issue 29: who goes first, what can be added, painted words no smaller than 15 px ------------
def test_the_new_game_form_says_the_lowest_card_starts_not_the_youngest(table):
    """Rulebook, Starting: "The player with the lowest numbered card on the table goes first": the
    form says so (the game's own words), never that the youngest goes first."""
    t = table
    choose_game(t)
    t.click("start:new")
    t.find("new:count").setValue(2)
    for i, (name, age) in enumerate(PLAYERS):              # Bob, 9, is the youngest
        t.find(f"new:name{i}").setText(name)
        t.find(f"new:age{i}").setValue(age)
    words = t.text("new:first")
    assert "youngest" not in words and "Bob" not in words
    assert "lowest numbered card" in words
    t.click("new:start")
    t.click("setup:done")
    # Once the table cards are shown, the app names the player it found: Ann (her card 2), not Bob.
    for spot, number in zip("1234", (9, 2, 18, 22)):
        read(t, f"Ann/table/{spot}", number, "Ann")
    for spot, number in zip("1234", (4, 11, 13, 20)):
        read(t, f"Bob/table/{spot}", number, "Bob")
    assert t.text("turn") == "Ann's turn"
    assert any("Ann has the lowest numbered card on the table (2)" in line for line in t.log())


def test_a_game_that_starts_with_the_youngest_still_says_so(table):
    """The form's words come from each game's own file: a game without its own rule names the youngest."""
    t = table
    choose_game(t, "carmen-cards")
    t.click("start:new")
    t.find("new:name0").setText("Ann")
    t.find("new:name1").setText("Bob")
    t.find("new:age0").setValue(11)
    t.find("new:age1").setValue(9)
    assert t.text("new:first") == "Bob is the youngest and goes first."


def test_only_cards_that_can_go_on_the_mission_glow_when_adding(game):
    """Creating a Mission Stack: only Secrets and Founders of the Location's colour (or black) are
    added. Picking the card to add, a face-up table card that cannot be added does not glow; clicked,
    it is refused in the engine's words and nothing changes."""
    t = game
    for spot, number in zip("1234", (9, 2, 18, 22)):     # Lighthouse (red), Agent Wren, Secret 2 (blue), Secret 6 (red)
        read(t, f"Ann/table/{spot}", number, "Ann")
    for spot, number in zip("1234", (4, 11, 13, 20)):
        read(t, f"Bob/table/{spot}", number, "Bob")
    t.click("action:mission")
    t.click("choose:Ann/hand")
    t.click("slot:Ann/table/1")
    t.choose("agent", card("Ann", 1))
    t.click("entry:submit")
    t.click("action:add")                                # one mission: it is chosen by itself
    glowing = t.legal_slots()
    assert "Ann/table/4" in glowing                      # the red Secret
    assert not glowing & {"Ann/table/2", "Ann/table/3"}  # an Agent, a blue Secret
    assert "Ann/deck/two" in glowing                     # its top is not read yet: a red Secret may lie there
    assert not any(t.find(f"slot:{p}").legal for p in ("Ann/table/2", "Ann/table/3"))
    log = len(t.log())
    t.click("slot:Ann/table/3")
    assert "Demo Secret 2 is blue: this mission's Location is red" in (t.find("error").toolTip()
                                                                         or t.text("error"))
    assert len(t.log()) == log
    assert t.prompt.startswith("Add a Secret or Founder")  # still picking the card to add
    t.click("slot:Ann/table/4")
    assert any("Ann added Demo Secret 6" in line for line in t.log())


# --- issue 29: register a card by showing it to the camera ---------------------------------------
def test_a_card_shown_to_the_camera_is_registered_by_typing_only_its_name_and_the_rest(table, gumshoe_home):
    """Issue 29, 10: numbered stickers say the number printed on their card ("Card 7"), so the camera
    knows it: shown a card, the form has its number, and the family types only what the camera
    cannot know (name, type, colour, points). A sticker printed to attach later goes on the card
    registered next. A registered card shown again is picked in the list, to correct it. All with the
    simulated table, held up by its own button."""
    from PySide6.QtCore import Qt

    from engine.games.clues39 import library as lib
    from vision.registry import TagRegistry, family_file

    t = table
    t.window.resize(1280, 680)
    dialog = open_library(t)
    t.find("library:sticker:first").setValue(7)
    t.find("library:sticker:last").setValue(9)
    t.click("library:sticker:numbered")
    message = t.text("library:sticker:message")
    assert message.startswith("3 stickers, each saying its card's number"), message
    pdf = gumshoe_home / "39-clues" / "card-stickers-7-9.pdf"
    assert str(pdf) in message and pdf.stat().st_size > 1000
    seven = TagRegistry.load().tag_for_card("39-clues.card.n7")

    panel = dialog.body.stickers
    box = t.find("library:sticker:choice")
    box.setCurrentIndex(box.findData(-1))                       # the simulated table
    t.click("library:sticker:camera")
    camera_on(t, panel)
    t.click("library:sticker:hold")                             # card 7 held up: its number is known
    t.qtbot.waitUntil(lambda: "Card 7 is new" in t.text("library:sticker:message"), timeout=15_000)
    assert t.find("library:number").value() == 7 and t.find("library:name").text() == ""
    t.qtbot.keyClicks(t.find("library:name"), "Grace's Agent")
    for field, value in (("type", "agent"), ("colour", "red"), ("sides", 2)):
        box = t.find(f"library:{field}")
        box.setCurrentIndex(box.findData(value))
    t.qtbot.keyClick(t.find("library:name"), Qt.Key_Return)     # Enter registers
    assert t.text("library:sticker:message") == ("\u2714 Card 7 registered: Grace's Agent. Its sticker names it "
                                                  "already.")
    saved = lib.load_library(gumshoe_home / "39-clues" / "library.toml")
    assert [(e.id, e.number, e.name, e.type, e.colour, e.sides) for e in saved.entries] == \
        [("n7", 7, "Grace's Agent", "agent", "red", 2)]
    assert TagRegistry.load().tag_for_card("39-clues.card.n7") == seven          # the printed sticker counts
    assert t.find("library:number").value() == 8                                # the next card is ready

    # The next card held up is card 8 (its number known); the form keeps the type and colour picked.
    t.click("library:sticker:hold")
    t.qtbot.waitUntil(lambda: "Card 8 is new" in t.text("library:sticker:message"), timeout=15_000)
    t.qtbot.keyClicks(t.find("library:name"), "Old Secret")
    for field, value in (("type", "secret"), ("colour", "blue"), ("sides", 1)):
        box = t.find(f"library:{field}")
        box.setCurrentIndex(box.findData(value))
    t.find("library:points").setValue(3)
    t.click("library:register")
    assert t.text("library:sticker:message").startswith("\u2714 Card 8 registered: Old Secret.")

    # Card 7 shown again, nothing picked: it is picked in the list, to correct it.
    panel.simulated.hold_up([], seconds=1.0)                    # card 8 put down
    t.qtbot.wait(1500)
    show(t, panel, "39-clues.card.n7", "That is card 7")
    assert t.find("library:name").text() == "Grace's Agent"

    # A sticker printed to attach later goes on the card registered next (its number typed: it has none).
    t.click("library:sticker:new")                              # the form is emptied for a new card
    assert t.find("library:name").text() == "" and t.find("library:number").value() == 9
    t.find("library:sticker:count").setValue(1)
    t.click("library:sticker:print")
    spare = family_file("39-clues").spares[0]
    camera_on(t, panel)
    show(t, panel, f"tag:{spare}", f"Sticker {spare} read")
    assert t.find("library:number").value() == 9 and t.find("library:name").text() == ""
    t.find("library:number").setValue(30)
    t.qtbot.keyClicks(t.find("library:name"), "Map of Paris")
    for field, value in (("type", "location"), ("colour", "blue")):
        box = t.find(f"library:{field}")
        box.setCurrentIndex(box.findData(value))
    t.find("library:points").setValue(0)
    t.click("library:register")
    assert t.text("library:sticker:message") == f"\u2714 Sticker {spare} is now on card 30: Map of Paris."
    assert family_file("39-clues").tag_of_card("39-clues.card.n30").tag_id == spare
    dialog.resize(1280, 680)
    t.qtbot.wait(30)
    assert clipped(dialog) == [], ("the library screen with the camera on, at 1280x680", clipped(dialog))
    t.click("screen:close")


# --- issue 29: the library as a plain file a family can share -------------------------------------
BAD_FILES = {
    "wrong format": ('[library]\nname = "Theirs"\nformat = 2\n', "library format 2 is not known"),
    "not a library": ("Name,Number\nGrace,7\n", "not a valid library file"),
    "unknown colour": ('[library]\nname = "Theirs"\n[[cards]]\nnumber = 5\nname = "Pink Agent"\ntype = "agent"\n'
                       'colour = "pink"\n', "unknown colour 'pink'"),
    "duplicate number": ('[library]\nname = "Theirs"\n[[cards]]\nnumber = 5\nname = "A"\ntype = "money"\n'
                         '[[cards]]\nnumber = 5\nname = "B"\ntype = "money"\n', "card number 5 is used twice"),
    "number meaning another card": ('[library]\nname = "Theirs"\n[[cards]]\nnumber = 7\nname = "Not Grace"\n'
                                    'type = "money"\n', "card number 7 is Not Grace there but Grace's Agent"),
}


def test_a_bad_library_file_is_refused_in_words_and_changes_nothing(table, gumshoe_home, tmp_path):
    """Issue 29: importing a file that is not a good library (another format, an unknown colour, a
    number twice, a number that means another card here, not UTF-8 text, far too large) says why and
    leaves the family's library exactly as it was."""
    from engine.games.clues39 import library as lib

    t = table
    dialog = open_library(t)
    register(t, 7, "Grace's Agent", "agent", "red", sides=2, owner="Ann")
    editor = dialog.body
    path = gumshoe_home / "39-clues" / "library.toml"
    before = path.read_bytes()
    listed = [editor.list.item(i).text() for i in range(editor.list.count())]
    files = {what: (text.encode("utf-8"), words) for what, (text, words) in BAD_FILES.items()}
    files["not UTF-8"] = ('[library]\nname = "Caf\u00e9"\n'.encode("latin-1"), "not a text file (it must be UTF-8 text)")
    files["huge"] = (b"#" * (lib.MAX_FILE_BYTES + 10), "far too large for a card library")
    for what, (data, words) in files.items():
        bad = tmp_path / f"{what}.toml"
        bad.write_bytes(data)
        assert not editor.import_from(bad), what
        said = t.text("library:error")
        assert said.startswith("That file was not imported: ") and words in said, (what, said)
        assert path.read_bytes() == before, what
        assert [editor.list.item(i).text() for i in range(editor.list.count())] == listed, what


def test_a_library_exported_then_imported_by_another_family_is_the_same(table, gumshoe_home, tmp_path):
    """Issue 29: "Export to a file" writes a plain text file (one [[cards]] entry per printed card, in
    words a person can read); another family's "Import a file" brings back every card exactly, and
    their own cards stay."""
    from desktop.tables.clues39 import LibraryEditor
    from engine.games.clues39 import library as lib

    t = table
    dialog = open_library(t)
    for number, name, kind, colour, points, sides, owner in COLLECTION[:6] + COLLECTION[6:8]:
        register(t, number, name, kind, colour, points, sides, owner)
    ours = lib.load_library(gumshoe_home / "39-clues" / "library.toml")
    shared = tmp_path / "from-the-smiths.toml"
    assert dialog.body.export_to(shared)
    text = shared.read_text(encoding="utf-8")
    assert text.startswith("# The 39 Clues: Double-Cross - a family's card library") and 'name = "Red Agent Ann"' in text
    t.click("screen:close")

    cousins = LibraryEditor(tmp_path / "cousins" / "library.toml")
    t.qtbot.addWidget(cousins)
    cousins.number.setValue(90)
    cousins.name.setText("Cousins' Founder")
    cousins.type.setCurrentIndex(cousins.type.findData("founder"))
    cousins.colour.setCurrentIndex(cousins.colour.findData("black"))
    cousins.points.setValue(5)
    cousins.register_card()
    assert cousins.import_from(shared)
    theirs = lib.load_library(tmp_path / "cousins" / "library.toml")
    assert [e for e in theirs.entries if e.number != 90] == list(ours.entries)
    assert [e.name for e in theirs.entries if e.number == 90] == ["Cousins' Founder"]
    fresh = LibraryEditor(tmp_path / "new" / "library.toml")
    t.qtbot.addWidget(fresh)
    assert fresh.import_from(shared)
    assert lib.load_library(tmp_path / "new" / "library.toml").entries == ours.entries
    assert fresh.list.count() == len(ours.entries)


def test_the_library_form_asks_only_what_the_type_has(table, gumshoe_home):
    """Issue 29: registering a whole collection, a family never clears a field the card cannot have:
    points are asked for Secrets and Founders only, a colour on every type but the Replicator."""
    t = table
    open_library(t)
    points, colour, kind = t.find("library:points"), t.find("library:colour"), t.find("library:type")
    kind.setCurrentIndex(kind.findData("secret"))
    colour.setCurrentIndex(colour.findData("blue"))
    points.setValue(3)
    assert points.isEnabled() and colour.isEnabled()
    kind.setCurrentIndex(kind.findData("money"))                  # the points picked for the Secret go
    assert not points.isEnabled() and points.value() == 0
    kind.setCurrentIndex(kind.findData("replicator"))
    assert not colour.isEnabled() and colour.currentData() is None
    t.find("library:number").setValue(42)
    t.qtbot.keyClicks(t.find("library:name"), "Replicator")
    t.click("library:register")                                   # no colour, no points to clear first
    assert not t.visible("library:error")
    kind.setCurrentIndex(kind.findData("agent"))                  # the colour picked before comes back
    assert colour.isEnabled() and colour.currentData() == "blue"


def test_every_demo_card_is_one_colour_band_symbol_and_words(game):
    """A card's band and its symbol are the colour printed on it, said in words too: a yellow
    Location has a yellow band and a yellow symbol and reads "Yellow Location" (Components: the
    colours are what missions match on). A card printed without a colour (Money, Prestige, a
    Replicator) is drawn in no card colour at all. Every card of the demo deck, on a table spot
    and as a mission's Location."""
    from desktop.drawn.palette import NAMED_COLOURS, named_colour
    from engine.session import CardView

    table = game.window.table.table
    deck = table.controller.deck
    seen = set()
    for card_id, c in deck.cards.items():
        colour = c.attrs.get("colour")
        look, words = table._look("Ann/table/1", [CardView("Ann/table/1", None, True, card_id, c.name)])
        assert look.band == look.colour, (c.name, look.band, look.colour)       # band and symbol
        if colour:
            assert look.band == named_colour(colour), (c.name, colour, look.band)
            assert look.kind.startswith(colour.capitalize() + " "), (c.name, look.kind)
            assert colour.capitalize() in " ".join(words)
        else:
            assert look.band not in NAMED_COLOURS.values(), (c.name, look.band)
            assert not any(word.capitalize() in look.kind.split() for word in NAMED_COLOURS), look.kind
        seen.add((c.attrs.get("type"), colour))
    assert {("location", "yellow"), ("agent", "green"), ("money", None)} <= seen
    # A mission is drawn in its Location's colour: band and symbol alike.
    agent = next(i for i, c in deck.cards.items() if c.attrs.get("type") == "agent" and c.attrs.get("colour") == "red")
    for card_id, c in deck.cards.items():
        if c.attrs.get("type") != "location":
            continue
        stack = [CardView("Ann/mission/1", None, True, agent, deck.card(agent).name),
                 CardView("Ann/mission/1", None, True, card_id, c.name)]
        look, _ = table._look("Ann/mission/1", stack)
        assert look.band == look.colour == named_colour(c.attrs["colour"]), (c.name, look.band, look.colour)
        assert look.kind == f"{c.attrs['colour'].capitalize()} mission"


def test_demo_cards_read_as_a_made_up_demo_deck(game):
    """The demo deck is made up (the real cards are the family's own library): its cards are called
    "Demo ..." (never "Example ..."), short enough for a table spot, and the how-to-play says once
    that the demo uses a made-up deck and that a family registers its cards in the card library."""
    from engine.games import game_info

    deck = game.window.table.table.controller.deck
    names = {c.name for c in deck.cards.values()}
    assert names and all(n.startswith("Demo ") for n in names), sorted(names)
    assert not any("Example" in n for n in names)
    assert max(len(n) for n in names) <= 17, max(names, key=len)
    assert any(n == "Demo Agent Rook" for n in names)
    # On a table spot at 1366x768 the longest name is drawn whole, at 15 px or more.
    assert tile(game, "Ann/table/1")
    steps = " ".join(game_info("39-clues").how_to_play)
    assert steps.count("made-up deck") == 1 and "card library" in steps
    # The new-game form names it the demo deck, too.
    choices = game.window.table.table.new_game_choices()
    assert "demo deck" in " ".join(choices.source.itemText(i) for i in range(choices.source.count())).lower()


@pytest.mark.parametrize("size", SCREENS)
@pytest.mark.parametrize("count", [2, 4])
def test_a_players_counts_are_each_whole_on_a_line_of_their_own(table, size, count):
    """A player's plate says "Hand 4", "1-sided deck 18", "Discard 0", each whole on one line at
    15 px or more (never "one-sided / deck 18," wrapped across lines); every plate shows the hand,
    the current player's and every 2-player plate all three, and the tooltip says all of them."""
    t = table
    names = list(NAMES[:count])
    t.window.resize(*size)
    choose_game(t)
    t.new_game([(n, 9 + i) for i, n in enumerate(names)])
    t.qtbot.wait(20)
    current = t.window.controller.session.view(None).current
    for name in names:
        plate = t.find(f"plate:{name}")
        texts = plate.drawn_texts()
        assert all(x.fits and x.px >= 15 for x in texts), texts
        counts = [x for x in texts[2:]]
        assert all(re.fullmatch(r"(Hand|1-sided deck|Discard) \d+", x.text) for x in counts), counts
        assert len({x.px for x in counts}) <= 1, counts                 # a column of like lines
        shown = [x.text.split()[0] for x in counts]
        assert shown[:1] == ["Hand"], (name, size, shown)
        if count == 2 or name == current:
            assert shown == ["Hand", "1-sided", "Discard"], (name, size, shown)
        for x in counts:                                              # inside the plate, under the disc
            assert plate.rect().contains(x.rect), (x.rect, plate.rect())
        assert re.search(r"Hand \d+, 1-sided deck \d+, Discard \d+", plate.toolTip()), plate.toolTip()


@pytest.mark.parametrize("size", [(1366, 728), (1920, 1040)])
def test_every_drawn_card_names_its_colour_in_words_and_a_replicator_mission_its_said_colour(table, monkeypatch, size):
    """Far into a 4-player game (every row full, the missions fanned): each whole card with a colour
    says it in its band ("Yellow Agent", or "Yellow" where the band is narrow), not only by its
    band's colour; a mission on a Replicator Location is drawn in the colour said for it (Bonus
    Cards: Replicator), not the colour of the card on top."""
    from desktop.drawn.palette import named_colour
    t = table
    new_game_at(t, size, 4)
    t.click("setup:done")
    send_only_missions(t, monkeypatch)
    t.qtbot.wait(20)
    state = t.window.controller.session.state
    checked = 0
    for place, slot in t.window.table.table.slots.items():
        look = slot.look
        if not (look.present and look.name and look.kind) or getattr(slot, "strip", None) is not None:
            continue
        colour = look.kind.split()[0]
        if colour.lower() not in ("red", "blue", "yellow", "green", "black"):
            continue
        assert look.kind in slot.accessibleName() and look.kind in slot.toolTip(), (place, slot.accessibleName())
        if "/mission/" in place:
            continue                         # a mission's band says its points; its colour is in its words
        words = [" ".join(d.text.split()) for d in slot.drawn_texts() if d.fits]
        assert look.kind in words or colour in words, (place, look.kind, words)
        checked += 1
    assert checked >= 3
    replicated = [m for m in state.missions.values() if m.location_name is None]
    assert replicated                                    # (this game has Replicator missions)
    for mission in replicated:
        look = t.window.table.table.slots[mission.place].look
        assert look.band == look.colour == named_colour(mission.location_colour), (mission, look)
        assert look.kind == f"{mission.location_colour.capitalize()} mission"
