"""Issue 29, Where in the USA item 1, on the phones: the answer printed in bold on the question card
is for the reader alone (Correct Answers/Movement). With phones, the question and its answer go to
the reader's page; the answering agent's page and the laptop show the question only, and the laptop
offers no reveal (it says the answer is on the reader's phone)."""

from __future__ import annotations

from tests.desktop.driver import visible_texts

from .laptop import start_game
from .test_desktop_phones import join, state


def test_the_question_and_its_answer_go_to_the_readers_phone_only(t):
    start_game(t, "carmen-usa", ("Ann", "Bob", "Cy"), phones=True)
    ann, bob, cy = join(t, "Ann"), join(t, "Bob"), join(t, "Cy")
    for landmark in ("big-bend", "everglades", "mammoth-cave"):
        t.click(f"slot:{landmark}")
    t.click("action:ask")
    session = t.window.controller.session
    reader, answerer = session.state.reader, session.state.answerer
    question = session.rules.bank.question(session.state.question)
    pages = {"Ann": ann, "Bob": bob, "Cy": cy}
    note = state(t, pages[reader])["note"]
    assert question.text in note and question.answer in note
    for player in ("Ann", "Bob", "Cy"):
        if player != reader:
            page = state(t, pages[player])
            assert page["note"] is None
            # A short answer ("4") also stands for a count elsewhere on the page: only a longer one is
            # searched for in the whole page (the note is the one field the answer would travel in).
            assert len(question.answer) < 3 or question.answer not in str(page)
    assert not [text for text in visible_texts(t.window) if question.answer in text]     # not on the laptop
    assert not t.window.findChild(type(t.find("usa:question")), "usa:question").reveal.isVisible()
    assert f"on {reader}'s phone" in " ".join(t.find("usa:question").drawn_texts()[-1].text.split())
    assert answerer != reader
    t.click("action:answer")                      # judged: the note leaves the reader's page
    assert state(t, pages[reader])["note"] is None
