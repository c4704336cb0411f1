"""Issue 28, item 4, on the phones: on a demo's simulated table each player's page shows what that
player really holds, above their journal; another player's page never does."""

from __future__ import annotations

from desktop.private import hand_words
from tests.desktop.driver import visible_texts

from .test_desktop_phones import join, state
from .laptop import start_game


def test_each_phone_shows_its_players_simulated_hand_and_no_one_elses(t):
    start_game(t, "bonnie-clyde", ("Ann", "Bob"), phones=True, demo=True)
    c = t.window.controller
    t.click("action:deal")                       # Ann, written first, deals (the setup said so)
    t.choose("card", c.true_card_at("files"))
    t.click("entry:submit")
    ann, bob = join(t, "Ann"), join(t, "Bob")
    words = {p: hand_words([c.deck.name_of(x) for x in c.true_cards_in(f"{p}/hand")]) for p in ("Ann", "Bob")}
    assert state(t, ann)["hand"] == words["Ann"] and state(t, bob)["hand"] == words["Bob"]
    assert words["Ann"] not in str(state(t, bob)) and words["Bob"] not in str(state(t, ann))
    assert not [text for text in visible_texts(t.window) if text in words.values()]     # not on the laptop
