"""Issue 22: a phone's answer is checked against the question before the laptop uses it: only the
question's own fields, only cards that can lie there, the right number of cards."""

from __future__ import annotations

import pytest

from phones import AnswerRefused, PhoneQuestion, ReadSpec

CHOICES = (("deck.a", "Atlas"), ("deck.b", "Bell"), ("deck.c", "Crow"))


def one() -> PhoneQuestion:
    return PhoneQuestion.new("Ann", "Ann, look at your Top card", "", (ReadSpec("card", "your Top card", CHOICES),))


def several(least=2, most=2) -> PhoneQuestion:
    return PhoneQuestion.new("Ann", "Ann, look at the cards you drew", "",
                             (ReadSpec("cards", "the cards you drew", CHOICES, many=True, least=least, most=most),))


def test_every_question_has_its_own_unguessable_id():
    ids = {one().id for _ in range(50)}
    assert len(ids) == 50 and all(len(i) >= 16 for i in ids)


@pytest.mark.parametrize("cards, words", [
    (None, "does not fit"),
    ({}, "does not fit"),
    ({"card": "deck.a", "player": "Bob"}, "does not fit"),       # a field the question has not
    ({"slot": "deck.a"}, "does not fit"),
    ({"card": "deck.z"}, "cannot lie at your Top card"),
    ({"card": ["deck.a"]}, "cannot lie at your Top card"),
    ({"card": 3}, "cannot lie at your Top card"),
])
def test_a_forged_single_answer_is_refused_in_words(cards, words):
    with pytest.raises(AnswerRefused, match=words):
        one().cards_from_answer(cards)


def test_a_list_answer_takes_the_right_number_of_listed_cards_once_each():
    q = several()
    assert q.cards_from_answer({"cards": ["deck.b", "deck.a"]}) == {"cards": ["deck.b", "deck.a"]}
    with pytest.raises(AnswerRefused, match="Choose 2 cards \\(now 1\\)"):
        q.cards_from_answer({"cards": ["deck.b"]})
    with pytest.raises(AnswerRefused, match="cannot all be"):
        q.cards_from_answer({"cards": ["deck.b", "deck.b"]})
    with pytest.raises(AnswerRefused, match="cannot all be"):
        q.cards_from_answer({"cards": ["deck.b", "other"]})
    with pytest.raises(AnswerRefused, match="does not fit"):
        q.cards_from_answer({"cards": "deck.b"})
    with pytest.raises(AnswerRefused, match="1 or more"):
        several(1, None).cards_from_answer({"cards": []})


def test_a_photo_answers_a_field_only_with_cards_that_can_lie_there():
    q = one()
    assert q.cards_in_photo("card", ["deck.b", "deck.b"]) == ["deck.b"]
    with pytest.raises(AnswerRefused, match="more than one card"):
        q.cards_in_photo("card", ["deck.a", "deck.b"])
    with pytest.raises(AnswerRefused, match="cannot lie at your Top card"):
        q.cards_in_photo("card", ["other.card"])
    with pytest.raises(AnswerRefused, match="No card tag could be read"):
        q.cards_in_photo("card", [])
    with pytest.raises(AnswerRefused, match="not for this question"):
        q.cards_in_photo("slot", ["deck.a"])
    assert several().cards_in_photo("cards", ["deck.a", "deck.c", "other"]) == ["deck.a", "deck.c"]


def test_the_links_are_long_random_and_new_on_every_renewal():
    from phones import PlayerLinks
    links = PlayerLinks(["Ann", "Bob"])
    first = links.secret("Ann")
    assert len(first) >= 32                     # 24 random bytes: 192 bits
    links.renew()
    assert links.secret("Ann") != first and links.player_of(first) is None
    assert links.player_of(links.secret("Ann")[:-1]) is None and links.player_of("") is None


def test_the_qr_code_reads_back_as_the_link():
    import numpy as np
    import zxingcpp
    from phones.qr import qr_modules
    link = "http://192.168.1.20:40123/p/" + "x" * 32 + "/"
    modules = qr_modules(link)
    image = np.pad(np.where(modules, 0, 255).astype(np.uint8), 4, constant_values=255)
    image = np.kron(image, np.ones((6, 6), np.uint8))
    assert [r.text for r in zxingcpp.read_barcodes(image)] == [link]


@pytest.mark.parametrize("module", ["phones.links", "phones.questions", "phones.qr"])
def test_the_docstring_examples_hold(module):
    import doctest
    import importlib
    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted > 0 and result.failed == 0
