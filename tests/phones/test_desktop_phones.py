"""Issue 22 on the laptop: the switch on the new-game form, the codes, a private look answered on
the player's phone while the shared screen names only who is looking, and every way an answer
can go wrong (another player's link, out of turn, forged, sent twice, replayed later)."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QLabel

from tests.desktop.driver import Driver, visible_texts

from .client import get_json, in_thread, post_json
from .laptop import start_game

GAME = "carmen-cards"


def start(t: Driver, names=("Ann", "Bob"), phones: bool = True, demo: bool = False) -> None:
    start_game(t, GAME, names, phones, demo)
    assert t.window.stack.currentWidget() is t.window.table
    t.deal({})


def wait(t: Driver, future, timeout: float = 20):
    t.qtbot.waitUntil(future.done, timeout=int(timeout * 1000))
    return future.result()


def join(t: Driver, player: str) -> str:
    """The player scans their code: their page opens and gets their snapshot."""
    url = t.window.phones.url(player)
    wait(t, in_thread(get_json, url + "state"))
    t.qtbot.waitUntil(lambda: t.window.phones.on_phone(player))
    t.qtbot.waitUntil(lambda: wait(t, in_thread(get_json, url + "state"))[1]["version"] > 0)
    return url


def state(t: Driver, url: str) -> dict:
    status, body = wait(t, in_thread(get_json, url + "state"))
    assert status == 200
    return body["snapshot"]


def peek_asked(t: Driver) -> str:
    """Ann rolls Loot and picks one of her Loot cards to look at: the shell's private read."""
    t.roll("loot")
    option = next(o for o in t.session.prompt().options if o.private)
    place = str(next(iter(option.targets.values()))[0])
    t.window.table.place_picked(place)
    return place


def both_join_then_ann_peeks(t: Driver, demo: bool = False) -> tuple[str, str, str]:
    """A new game with phones, both players' pages open, then Ann's private look asked:
    (Ann's link, Bob's link, the place she looks at)."""
    start(t, demo=demo)
    ann = join(t, "Ann")
    bob = join(t, "Bob")
    return ann, bob, peek_asked(t)


def answer(t: Driver, url: str, question: str, cards: dict, answer_id: str = "answer-0001", confirm=False):
    return wait(t, in_thread(post_json, url + "answer", {"question": question, "answer": answer_id, "cards": cards,
                                                         "confirm": confirm}))


def test_a_peek_is_answered_on_the_players_phone_and_the_shared_screen_names_only_who_looks(t):
    ann, bob, place = both_join_then_ann_peeks(t)
    card = t.card_at(place)
    assert t.window.stack.currentWidget() is t.window.phone_wait
    assert t.text("phone-wait:text") == "Ann is looking at a card on their phone."
    question = state(t, ann)["question"]
    assert question is not None and question["heading"].startswith("Ann, look at")
    assert card in [c for c, _ in question["reads"][0]["choices"]]
    assert state(t, bob)["question"] is None
    status, reply = answer(t, ann, question["id"], {"card": card})
    assert status == 200 and reply == {"ok": True, "message": "Noted in your journal."}
    t.qtbot.waitUntil(lambda: t.window.stack.currentWidget() is t.window.table)
    assert t.session.journal("Ann").where(card) != "Unknown"
    name = t.name(card)
    ann_page = state(t, ann)
    assert ann_page["question"] is None
    assert any(e["name"] == name and e["known"] for g in ann_page["journal"]["groups"] for e in g["entries"])
    bob_page = state(t, bob)                                                # Bob's page: never
    assert [e["where"] for g in bob_page["journal"]["groups"] for e in g["entries"] if e["name"] == name] == ["Unknown"]
    assert name not in str(bob_page["log"]) and card not in str(bob_page)
    assert not any(name in text for text in visible_texts(t.window))        # the shared screen: never


def test_an_answer_sent_twice_is_applied_once_and_a_replay_later_changes_nothing(t):
    start(t)
    ann = join(t, "Ann")
    place = peek_asked(t)
    card = t.card_at(place)
    question = state(t, ann)["question"]
    first = answer(t, ann, question["id"], {"card": card}, "same-answer-id")
    done = len(t.session.done)
    again = answer(t, ann, question["id"], {"card": card}, "same-answer-id")
    assert first == again and first[1]["ok"]
    assert len(t.session.done) == done                                       # applied once
    replay = answer(t, ann, question["id"], {"card": card}, "another-answer-id")
    assert replay[1] == {"ok": False, "message": "There is no open question for you now. Look at your page again."}
    assert len(t.session.done) == done


def test_another_player_sending_the_same_answer_id_gets_no_one_elses_reply(t):
    """Issue 27: answers were remembered by id alone, so Bob re-sending the id of Ann's answer got
    her cached "Noted in your journal"."""
    ann, bob, place = both_join_then_ann_peeks(t)
    question = state(t, ann)["question"]
    assert answer(t, ann, question["id"], {"card": t.card_at(place)}, "ann-s-answer-id")[1]["ok"]
    done = len(t.session.done)
    status, reply = answer(t, bob, question["id"], {"card": t.card_at(place)}, "ann-s-answer-id")
    assert reply == {"ok": False, "message": "There is no open question for you now. Look at your page again."}
    assert len(t.session.done) == done


def test_another_players_link_out_of_turn_and_forged_answers_change_nothing(t):
    ann, bob, place = both_join_then_ann_peeks(t)
    card = t.card_at(place)
    question = state(t, ann)["question"]
    before = (len(t.session.done), t.session.journal("Ann"))
    # Bob's link answering Ann's question (he has seen its id somehow): refused.
    status, reply = answer(t, bob, question["id"], {"card": card}, "bob-answer-1")
    assert not reply["ok"] and "no open question for you" in reply["message"]
    # Ann's link, a card that cannot lie there, a field the question has not, an old question id.
    location = t.session.rules.deck.of_kind("location")[0].id
    assert "cannot lie at" in answer(t, ann, question["id"], {"card": location}, "ann-answer-1")[1]["message"]
    assert "does not fit" in answer(t, ann, question["id"], {"card": card, "slot": "Bob/loot/top"},
                                    "ann-answer-2")[1]["message"]
    assert "no open question" in answer(t, ann, "made-up-question", {"card": card}, "ann-answer-3")[1]["message"]
    assert "nothing to confirm" in answer(t, ann, question["id"], {"card": card}, "ann-answer-4",
                                          confirm=True)[1]["message"]
    assert (len(t.session.done), t.session.journal("Ann")) == before
    assert t.window.stack.currentWidget() is t.window.phone_wait            # still waiting for Ann
    # Before anyone is asked, Bob's phone can answer nothing.
    t.click("phone-wait:cancel")
    assert "no open question" in answer(t, bob, question["id"], {"card": card}, "bob-answer-2")[1]["message"]


def test_cancel_and_answering_on_the_laptop_instead(t):
    start(t)
    ann = join(t, "Ann")
    place = peek_asked(t)
    t.click("phone-wait:cancel")
    assert t.window.stack.currentWidget() is t.window.table
    assert state(t, ann)["question"] is None                                # the question left the phone
    t.window.table.place_picked(place)
    assert t.window.stack.currentWidget() is t.window.phone_wait
    t.click("phone-wait:laptop")
    assert t.window.stack.currentWidget() is t.window.gate                  # the laptop flow, as before
    assert state(t, ann)["question"] is None
    t.click("gate:reveal")
    t.choose("card", t.card_at(place))
    t.click("entry:submit")
    assert t.session.journal("Ann").where(t.card_at(place)) != "Unknown"
    assert any(e["known"] for g in state(t, ann)["journal"]["groups"] for e in g["entries"])


def test_a_player_without_a_phone_uses_the_laptop(t):
    start(t)
    join(t, "Bob")                          # Bob scanned his code; Ann did not
    peek_asked(t)
    assert t.window.stack.currentWidget() is t.window.gate


def test_the_codes_screen_shows_one_code_per_player_with_the_name_as_plain_text(t):
    start(t, names=("<b>Ann & Co", "<i>Bob"), phones=False)
    t.click("phones")
    assert t.window.stack.currentWidget() is t.window.phones_screen
    assert "Switch the phones on" == t.text("phones:switch")
    t.click("phones:switch")
    names = [t.find(f"phones:name:{p}", QLabel) for p in ("<b>Ann & Co", "<i>Bob")]
    assert [n.text() for n in names] == ["<b>Ann & Co", "<i>Bob"]
    from PySide6.QtCore import Qt
    assert all(n.textFormat() == Qt.PlainText for n in names)
    assert not t.find("phones:code:<i>Bob", QLabel).pixmap().isNull()
    assert "allow it" in t.text("phones:intro")                             # the firewall note
    old = t.window.phones.url("<i>Bob")
    t.click("phones:new-codes")
    assert t.window.phones.url("<i>Bob") != old
    t.click("phones:switch")
    assert not t.window.phones.on
    t.click("phones:done")
    assert t.window.stack.currentWidget() is t.window.table


def test_a_game_saved_with_phones_resumes_with_or_without_them(t):
    start(t)
    ann = join(t, "Ann")
    place = peek_asked(t)
    card = t.card_at(place)
    answer(t, ann, state(t, ann)["question"]["id"], {"card": card})
    path = t.window.controller.path
    t.window.leave_game()
    assert t.window.phones is None                                           # the server stopped with the game
    assert wait(t, in_thread(_refused, ann))
    t.window.resume_game(path)
    assert t.window.stack.currentWidget() is t.window.table and not t.window.phones.on
    assert t.session.journal("Ann").where(card) != "Unknown"
    t.click("phones")
    t.click("phones:switch")
    ann2 = join(t, "Ann")
    assert ann2 != ann                                                       # new codes for the resumed game
    assert any(e["name"] == t.name(card) and e["known"] for g in state(t, ann2)["journal"]["groups"]
               for e in g["entries"])


def _refused(url: str) -> bool:
    try:
        get_json(url + "state")
    except OSError:
        return True
    return False


def test_on_the_simulated_table_only_the_players_phone_is_told_the_card_and_a_wrong_pick_is_refused(t):
    ann, bob, place = both_join_then_ann_peeks(t, demo=True)
    truth = t.window.controller.true_card_at(place)
    question = state(t, ann)["question"]
    assert f"On the simulated table this card is: {t.name(truth)}" in question["text"]
    assert t.name(truth) not in str(state(t, bob)["log"]) and state(t, bob)["question"] is None
    assert not any(t.name(truth) in text for text in visible_texts(t.window))
    wrong = next(c for c, _ in question["reads"][0]["choices"] if c != truth)
    status, reply = answer(t, ann, question["id"], {"card": wrong}, "demo-wrong-1")
    assert not reply["ok"] and "simulated table" in reply["message"]
    assert t.session.journal("Ann").where(wrong) == "Unknown"
    status, reply = answer(t, ann, question["id"], {"card": truth}, "demo-right-1")
    assert reply["ok"] and t.session.journal("Ann").where(truth) != "Unknown"


def test_a_phone_lists_a_card_once_with_its_copies_and_takes_any_copy(tmp_path):
    """Issue 28 (card entry, on the phone as on the laptop): one line per distinct card ("Ted Hinton
    ×15", "Alma, Arkansas ×6"), in natural order; a line picked is sent as the copy the engine says
    lies there; a photo's very copy (its tag tells it) is accepted and kept."""
    from desktop.games import GameController
    from desktop.phones import question_for_cards
    from engine.game import Assist

    c = GameController.new("bonnie-clyde", ["Ann", "Bob"], {"Ann": 9, "Bob": 10}, Assist.FULL,
                           path=tmp_path / "g.gumshoe")
    question, demo_problem, to_copies = question_for_cards(
        c, {"type": "look", "player": "Ann", "location": "board/4"}, [("card", "board/4")], "Ann, look", "", None)
    assert demo_problem is None                          # a real game: no simulated truth to check
    words = [w for _, w in question.read("card").choices]
    assert len(words) == len(set(words)) and "Ted Hinton \u00d715" in words and "Alma, Arkansas \u00d76" in words
    line = next(card for card, w in question.read("card").choices if w == "Alma, Arkansas \u00d76")
    sent = to_copies(question.cards_from_answer({"card": line}))["card"]
    assert sent in c.deck.copies(line)
    other = next(copy for copy in c.deck.copies(line) if copy != line)
    assert question.cards_in_photo("card", [other]) == [other]             # the camera's own copy
    assert to_copies(question.cards_from_answer({"card": other}))["card"] == other
    c.close()
