"""Whole games driven by clicks, as a family would play them."""

from __future__ import annotations

import html

import pytest

PLAYERS = [("Mark", 12), ("Julie", 8), ("Amberley", 10)]     # seating order; Julie is youngest

C = "carmen."
DEAL = {
    "center/loot": C + "loot.statue-of-libertys-torch",
    "center/location": C + "location.new-york",
    "Amberley/henchman/bottom": C + "henchman.carmen-sandiego",
    "Julie/loot/top": C + "loot.gandhis-glasses",
    "Mark/location/top": C + "location.new-delhi",
    "Julie/henchman/top": C + "henchman.yul-b-sorry",
    "Julie/location/top": C + "location.london",
    "Amberley/loot/top": C + "loot.pizarros-sword",
}


@pytest.fixture
def game(table):
    table.new_game(PLAYERS)
    table.deal(DEAL)
    return table


def first_legal(t) -> str:
    slots = sorted(t.legal_slots())
    assert slots, "no slot is highlighted"
    return slots[0]


def plain_turn(t, kind: str) -> None:
    t.roll(kind)
    t.peek(first_legal(t))
    t.end_turn()


def test_youngest_starts_and_only_legal_slots_are_highlighted(game):
    t = game
    assert t.text("turn") == "Julie's turn"
    assert t.prompt == "Julie, roll the die (or call a warrant)."
    assert t.legal_slots() == set()
    t.roll("loot")
    assert t.prompt == "Julie, look at one of your own Loot cards: Top or Bottom."
    assert t.legal_slots() == {"Julie/loot/top", "Julie/loot/bottom"}
    # A slot that is not legal changes nothing, and the click is answered with the rule (issue 28).
    t.click("slot:Mark/loot/top")
    assert t.window.stack.currentWidget() is t.window.table
    assert t.visible("error") and "(Rulebook: " in t.text("error"), t.text("error") if t.visible("error") else ""
    assert t.session.public_log()[-1] == "Julie rolled Loot."


def test_complete_game_from_new_game_to_carmen_arrested(game):
    t = game
    t.roll("henchman")
    t.peek("Julie/henchman/top")
    assert "Julie looked at their own Top Henchman card" in t.log()[-1]
    t.end_turn()
    assert t.text("turn") == "Amberley's turn"   # next in seating order: Julie's left
    plain_turn(t, "loot")                        # Amberley
    plain_turn(t, "location")                    # Mark sees his own Location cards
    assert t.text("turn") == "Julie's turn"

    t.warrant("Julie/loot/top", "Mark/location/top")
    assert "They match" in t.banner
    assert t.prompt == "Julie, flip a Henchman you know is not Carmen."
    t.flip_henchman("Julie/henchman/top")
    assert "arrested Yul B. Sorry" in t.banner
    # Out of play: the latest first by name, as many as the room holds; all of them in its tooltip.
    assert t.text("piles").startswith("Out of play: Yul B. Sorry")
    tip = html.unescape(t.find("piles").toolTip())
    assert "Gandhi's Glasses" in tip and "New Delhi" in tip
    t.click("action:decline_swap")
    t.roll("henchman")                           # a warrant at the start: the normal turn follows
    t.peek(first_legal(t))
    t.end_turn()
    assert any("draws" in line for line in t.log()), "the empty slots were refilled from the piles"
    plain_turn(t, "loot")
    plain_turn(t, "location")

    t.final_warrant()
    assert "The center cards match" in t.banner
    assert "Amberley/henchman/bottom" in t.legal_slots()
    t.flip_henchman("Amberley/henchman/bottom")
    # Issue 10: the end of the game has its own screen with the verdict and the story.
    assert t.window.stack.currentWidget() is t.window.end
    assert "Julie arrested Carmen Sandiego." in t.text("end:verdict")
    t.click("end:back")
    assert "Julie has arrested Carmen and wins the game!" in t.banner
    assert t.text("turn") == "Game over"
    assert not t.find("roll").isEnabled()
    assert t.session.outcome.winners == ("Julie",)
    assert t.visible("action:") is False and t.legal_slots() == set()


def test_a_failed_warrant_lets_the_left_gumshoe_swap_and_ends_the_turn(game):
    t = game
    t.warrant("Julie/loot/top", "Julie/location/top")       # Gandhi's Glasses and London
    assert "No match" in t.banner
    assert t.prompt.startswith("Amberley, the warrant failed")
    assert t.text("turn") == "Julie's turn \u2014 Amberley to act"
    assert t.legal_slots() == {"Amberley/loot/top", "Amberley/loot/bottom",
                               "Amberley/location/top", "Amberley/location/bottom"}
    t.click("slot:Amberley/loot/bottom")
    assert t.text("turn") == "Amberley's turn"
    assert "Amberley swapped their own Bottom Loot card with the center Loot card." in t.log()
    # The flipped cards went back face down; everyone saw them, so the shared table says so.
    assert " ".join(t.find("slot:Julie/loot/top").text().split()) == "Gandhi's Glasses (seen by all) Top"


def test_carmen_flipped_too_early_and_everyone_loses(game):
    t = game
    t.warrant("Julie/loot/top", "Mark/location/top")
    t.flip_henchman("Amberley/henchman/bottom")
    assert "Carmen was flipped too early and escaped." in t.text("end:verdict")
    t.click("end:back")
    assert t.text("turn") == "Game over"
    assert t.session.outcome.winners == ()
    assert not t.find("roll").isEnabled()
    assert t.visible("action:") is False


def test_undo_asks_first_in_public_words_and_takes_back_a_peek(game):
    t = game
    t.roll("loot")
    t.peek("Julie/loot/top")
    assert t.prompt == "Julie, end your turn (or call a warrant)."
    t.click("undo")
    question = t.text("undo:question")
    assert question == "Undo \u201cJulie looked at their own Top Loot card\u201d?"
    assert "Gandhi" not in question
    t.click("undo:no")          # "No, keep it" changes nothing
    assert t.prompt == "Julie, end your turn (or call a warrant)."
    t.click("undo")
    t.click("undo:yes")
    assert t.banner == "Undone: Julie looked at their own Top Loot card."
    assert t.prompt == "Julie, look at one of your own Loot cards: Top or Bottom."
    assert t.session.journal("Julie").where(C + "loot.gandhis-glasses") == "Unknown"


def test_a_card_recorded_elsewhere_gets_a_question_not_a_silent_record(game):
    t = game
    t.roll("loot")
    t.peek("Julie/loot/top")                             # Gandhi's Glasses, in Julie's journal
    t.end_turn()
    for _ in range(2):                                   # Amberley's and Mark's turns
        t.roll("henchman")
        t.peek(sorted(t.legal_slots())[0])
        t.end_turn()
    t.roll("loot")                                       # Julie misreads her Bottom Loot as Gandhi's Glasses
    t.click("slot:Julie/loot/bottom")
    t.click("gate:reveal")
    t.choose("card", C + "loot.gandhis-glasses")
    t.click("entry:submit")
    assert "already noted at another place" in t.text("question")
    assert t.window.stack.currentWidget() is t.window.gate          # still private: nothing recorded
    t.click("question:yes")
    assert t.window.stack.currentWidget() is t.window.table
    assert t.prompt == "Julie, end your turn (or call a warrant)."


def test_the_journal_is_behind_a_gate_and_closes_when_the_turn_changes(game):
    t = game
    t.roll("loot")
    t.peek("Julie/loot/top")
    t.click("journal:Julie")
    assert "Pass the laptop to Julie" in t.text("gate:text")
    assert not t.visible("journal")
    t.click("gate:reveal")
    pairs = t.find("journal:pairs")
    rows = [[pairs.item(r, c).text() for c in range(4)] for r in range(pairs.rowCount())]
    assert ["New Delhi", "Unknown", "Gandhi's Glasses", "Julie / Top"] in rows
    t.click("journal:hide")
    assert t.window.stack.currentWidget() is t.window.table
    # Left open, it closes itself when the turn moves on (a die reader or another window acts).
    t.click("journal:Julie")
    t.click("gate:reveal")
    t.window.controller.apply({"type": "end_turn", "player": "Julie"})
    assert t.window.stack.currentWidget() is t.window.table
    assert not t.visible("journal")


def test_a_wrong_henchman_in_the_final_warrant_puts_the_caller_out(game):
    t = game
    t.final_warrant()                                    # the center pair matches...
    t.flip_henchman("Julie/henchman/top")                # ...but Yul B. Sorry is not Carmen
    assert "Yul B. Sorry is not Carmen. Julie is out of the game." in t.banner
    assert t.text("name:Julie") == "Julie (out of the game)"
    # The exposed center cards are replaced by the gumshoes to the left, in turn.
    assert t.prompt == "Amberley, replace an exposed center card with one of your Loot or Location cards."
    t.click("slot:Amberley/loot/top")
    assert t.prompt == "Mark, replace an exposed center card with one of your Location cards."
    assert t.legal_slots() == {"Mark/location/top", "Mark/location/bottom"}
    t.click("slot:Mark/location/bottom")
    assert t.text("turn") == "Amberley's turn"           # play goes on from the caller's left
    assert t.session.state.eliminated == ["Julie"]
