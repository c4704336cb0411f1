"""Issue 23: the table screen read from across the room: what happened in large type (newest on
top, the whole log one click away), a journal button per player in their colour, and the
journal and the privacy gate on a notebook page."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel

from desktop.drawn import palette
from desktop.drawn.text import LEAST_PX

from .test_game_flow import DEAL, PLAYERS


def test_what_happened_shows_the_newest_events_on_top_and_the_whole_log_is_one_click_away(table):
    t = table
    t.new_game(PLAYERS)
    t.deal(DEAL)
    t.roll("loot")
    t.peek("Julie/loot/top")
    recent = t.recent()
    assert recent[0] == t.log()[-1] == "Julie looked at their own Top Loot card."      # newest on top
    assert recent[1] == t.log()[-2] == "Julie rolled Loot."
    texts = t.find("recent").drawn_texts()
    assert texts[0].px >= 20 and all(x.px >= LEAST_PX and x.fits for x in texts)
    assert texts[0].px > texts[1].px                                   # the newest stands out
    t.end_turn()
    assert t.recent()[0] == t.log()[-1] != recent[0]
    assert not t.visible("log")
    t.click("recent")
    assert t.visible("log") and t.log()[0].startswith("Deal 2 cards")  # every event, oldest first
    assert len(t.log()) > len(t.recent())
    t.click("log:close")
    assert not t.visible("log")


def test_each_player_has_a_journal_button_with_their_name_and_colour(table):
    t = table
    t.new_game(PLAYERS)
    colours = []
    for seat, (name, _) in enumerate(PLAYERS):
        b = t.find(f"journal:{name}")
        assert b.text() == name and b.colour == palette.player_colour(seat)
        assert [x.text for x in b.drawn_texts()] == [name] and b.drawn_texts()[0].px >= LEAST_PX
        colours.append(b.colour)
    assert len(set(colours)) == len(PLAYERS)


def test_the_journal_and_the_gate_are_a_notebook_page(table):
    t = table
    t.new_game(PLAYERS)
    t.click("journal:Julie")
    page = t.find("notebook")
    assert page.isAncestorOf(t.find("gate:reveal"))
    t.click("gate:reveal")
    pages = [w for w in t.window.findChildren(type(page), "notebook") if w.isVisible()]
    assert pages and pages[0].isAncestorOf(t.find("journal"))
    assert "Julie's Evidence Journal" in [w.text() for w in t.find("journal").findChildren(QLabel)]
