"""Issue 22 in a real browser at a phone's size: two players join by their links; Ann's private
look is answered on Ann's page by uploading a photo of the tagged card; Ann's journal shows it
at once, Bob's page and the shared screen never do; Bob's link cannot reach Ann's page; a reload
restores the page; an answer sent twice is applied once."""

from __future__ import annotations

import json
import re
import time

import cv2
import pytest

from tests.desktop.driver import Driver, visible_texts

from .browser import PHONE_SIZE, as_phone, page_errors, require_chromium
from .laptop import start_game

pytestmark = pytest.mark.slow


@pytest.fixture(autouse=True)
def chromium():
    """Each test here drives a real browser (skipped, before any window opens, where there is none)."""
    require_chromium()


def start(t: Driver) -> None:
    start_game(t, "carmen-cards")
    t.deal({})


def until(t: Driver, condition, timeout: float = 10.0) -> float:
    """Pump the laptop's event loop until the browser shows ``condition``; returns seconds taken."""
    began = time.perf_counter()
    t.qtbot.waitUntil(lambda: bool(condition()), timeout=int(timeout * 1000))
    return time.perf_counter() - began


def text_of(browser, handle: str) -> str:
    browser.switch_to.window(handle)
    return browser.execute_script("return document.body.innerText")


def known_rows(browser, handle: str) -> list[str]:
    browser.switch_to.window(handle)
    return browser.execute_script(
        "return Array.from(document.querySelectorAll('#j-groups tr.known')).map(r => r.innerText)")


def question_open(browser, handle: str) -> bool:
    browser.switch_to.window(handle)
    return browser.execute_script("return !document.getElementById('question').hidden")


def test_two_phones_a_photo_answers_a_private_look_and_nothing_leaks(t, browser, tmp_path):
    start(t)
    phones = t.window.phones
    ann_url, bob_url = phones.url("Ann"), phones.url("Bob")
    browser.get(ann_url)
    ann = browser.current_window_handle
    assert browser.execute_script("return [window.innerWidth, window.innerHeight]") == list(PHONE_SIZE)
    browser.switch_to.new_window("window")
    as_phone(browser)
    browser.get(bob_url)
    bob = browser.current_window_handle
    until(t, lambda: "Ann's Evidence Journal" in text_of(browser, ann))
    until(t, lambda: "Bob's Evidence Journal" in text_of(browser, bob))

    # Ann rolls Loot and looks at one of her Loot cards: the question goes to her phone.
    t.roll("loot")
    option = next(o for o in t.session.prompt().options if o.private)
    place = str(next(iter(option.targets.values()))[0])
    t.window.table.place_picked(place)
    assert t.window.stack.currentWidget() is t.window.phone_wait
    until(t, lambda: question_open(browser, ann))
    assert not question_open(browser, bob)
    card = t.card_at(place)
    name = t.name(card)

    # She photographs the card; the laptop reads it and notes it in her journal.
    from vision.synthetic import SyntheticTable
    photo = tmp_path / "card.jpg"
    cv2.imwrite(str(photo), SyntheticTable(seed=11).frame([card], tag_px=220), [cv2.IMWRITE_JPEG_QUALITY, 88])
    browser.switch_to.window(ann)
    before = len(t.session.done)
    began = time.perf_counter()
    browser.find_element("css selector", "input[type=file]").send_keys(str(photo))
    t.qtbot.waitUntil(lambda: len(t.session.done) == before + 1, timeout=10_000)
    applied = time.perf_counter()
    until(t, lambda: any(name in row for row in known_rows(browser, ann)), timeout=5)
    shown = time.perf_counter()
    assert shown - applied < 1.0, f"Ann's page showed the card {shown - applied:.2f} s after it was noted"
    print(f"photo uploaded -> on Ann's page: {shown - began:.2f} s; noted -> shown: {shown - applied:.3f} s")
    assert t.session.journal("Ann").where(card) != "Unknown"
    until(t, lambda: t.window.stack.currentWidget() is t.window.table)

    # Bob's page and the shared screen never show it.
    assert not any(name in row for row in known_rows(browser, bob))
    assert name not in browser.execute_script(
        "return document.getElementById('log-lines').innerText + document.getElementById('question').innerText")
    assert not any(name in text for text in visible_texts(t.window))

    for handle in (ann, bob):
        browser.switch_to.window(handle)
        assert page_errors(browser) == []           # no script error, nothing the page policy blocked

    # Bob's link reaches Bob's page only: no parameter, no path next to it opens Ann's.
    browser.switch_to.window(bob)
    fetched = browser.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const base = location.pathname;
        Promise.all([fetch(base + 'state?player=Ann').then(r => r.text()),
                     fetch(base.replace(/\\/$/, '') + 'Ann/state').then(r => r.status),
                     fetch(base + '../Ann/state').then(r => r.status)]).then(done);""")
    bob_state = json.loads(fetched[0])["snapshot"]
    assert bob_state["player"] == "Bob"
    assert [e["known"] for g in bob_state["journal"]["groups"] for e in g["entries"] if e["name"] == name] == [False]
    assert fetched[1:] == [404, 404]
    assert len(page_errors(browser)) == 2           # those two 404s, and nothing else

    # A reload (a phone waking up) comes back to the same page.
    browser.switch_to.window(ann)
    browser.refresh()
    until(t, lambda: any(name in row for row in known_rows(browser, ann)))

    # Bob's turn: his own look; his answer is sent twice (a retried send) and applied once.
    t.click("action:end_turn")
    t.roll("loot")
    option = next(o for o in t.session.prompt().options if o.private)
    bob_place = str(next(iter(option.targets.values()))[0])
    t.window.table.place_picked(bob_place)
    until(t, lambda: question_open(browser, bob))
    assert not question_open(browser, ann)
    before = len(t.session.done)
    browser.switch_to.window(bob)
    bob_card = t.card_at(bob_place)
    # Sent from the page's own script, the laptop's loop kept running meanwhile (it answers them).
    browser.execute_script("""
        const card = arguments[0];
        window.replies = null;
        fetch(location.pathname + 'state').then(r => r.json()).then(state => {
          const q = state.snapshot.question;
          const body = JSON.stringify({question: q.id, answer: 'twice-sent-answer', cards: {card: card}});
          const send = () => fetch(location.pathname + 'answer', {method: 'POST', body: body,
                                   headers: {'Content-Type': 'application/json'}}).then(r => r.json());
          Promise.all([send(), send()]).then(r => { window.replies = r; });
        });""", bob_card)
    until(t, lambda: browser.execute_script("return window.replies"))
    replies = browser.execute_script("return window.replies")
    assert [r["ok"] for r in replies] == [True, True]
    assert len(t.session.done) == before + 1
    until(t, lambda: any(t.name(bob_card) in row for row in known_rows(browser, bob)))
    ann_knows = t.session.journal("Ann").where(bob_card) != "Unknown"
    assert any(t.name(bob_card) in row for row in known_rows(browser, ann)) == ann_knows
    for handle in (ann, bob):
        browser.switch_to.window(handle)
        assert page_errors(browser) == []


def test_a_page_left_open_after_new_codes_says_so_and_never_locks_its_phone_out(browser):
    """Issue 27: after New codes, the old tab tells its player to scan the new code and stops
    asking; its retries would otherwise count as wrong links from that phone and lock it out."""
    from engine.session import Session
    from phones import PlayerLinks, player_snapshot
    from phones.guard import GuessLimiter
    from phones.server import PhoneServer

    session = Session.new("carmen-cards", ["Ann", "Bob"])
    server = PhoneServer(PlayerLinks(session.players), "carmen-cards", lambda *a: None)
    server.limiter = GuessLimiter(limit=2)           # two wrong links and the phone would be turned away
    server.start(["127.0.0.1"])
    try:
        server.publish("Bob", player_snapshot(session, "Bob", "full"))
        browser.get(server.url("Bob"))
        in_browser(browser, lambda: "Bob's Evidence Journal" in page_text(browser))
        server.renew_links()
        in_browser(browser, lambda: browser.find_element("id", "status").text ==
                   "These codes were replaced: scan your new code.")
        time.sleep(6)                                # longer than the page's longest wait before a retry
        assert browser.find_element("id", "status").text == "These codes were replaced: scan your new code."
        server.publish("Bob", player_snapshot(session, "Bob", "full"))
        browser.switch_to.new_window("tab")         # the new code, scanned on the same phone
        browser.get(server.url("Bob"))
        in_browser(browser, lambda: "Bob's Evidence Journal" in page_text(browser))
    finally:
        server.stop()


def page_text(browser) -> str:
    return browser.execute_script("return document.body.innerText")


def in_browser(browser, condition, timeout: float = 10.0) -> None:
    """Wait until the browser shows ``condition`` (no laptop window to pump here)."""
    end = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < end, "the page never showed it"
        time.sleep(0.1)


EVIL_PAGE = """<!doctype html><title>a game site</title><body><script>
const laptop = "127.0.0.1:%(port)d", link = "/p/%(secret)s/";
for (let n = 0; n < 30; n++) {
  const img = new Image();
  img.src = "http://" + laptop + "/p/guess" + String(n).padStart(4, "0") + "aaaaaaaaaaaaaaaaaaaaaaaa/state";
  document.body.appendChild(img);
}
fetch("http://" + laptop + link + "answer", {method: "POST", mode: "no-cors", headers: {"Content-Type": "text/plain"},
      body: JSON.stringify({question: "%(question)s", answer: "forged-answer-1", cards: {card: "%(card)s"}})})
  .catch(() => {}).finally(() => { window.posted = true; });
const socket = new WebSocket("ws://" + laptop + link + "ws");
socket.onopen = () => { window.socket = "open"; };
socket.onerror = () => { window.socket = "refused"; };
</script></body>"""


def test_another_sites_page_on_the_phone_cannot_answer_or_get_the_phone_turned_away(browser):
    """Issue 27 in a real browser: a page on another site (it knows Ann's link) sends thirty wrong
    links as images, posts an answer and opens the WebSocket: nothing reaches the laptop's game,
    and the phone's own page still opens."""
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    from .test_server_security import LOOT, Laptop, loot_question

    laptop = Laptop()
    question = loot_question()
    laptop.publish("Ann", question)
    page = (EVIL_PAGE % {"port": laptop.server.port, "secret": laptop.links.secret("Ann"), "question": question.id,
                         "card": LOOT}).encode()

    class Site(BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            self.wfile.write(page)

        def log_message(self, *args):
            pass

    site = ThreadingHTTPServer(("127.0.0.1", 0), Site)
    threading.Thread(target=site.serve_forever, daemon=True).start()
    try:
        browser.get(f"http://localhost:{site.server_address[1]}/")          # another site
        in_browser(browser, lambda: browser.execute_script("return window.posted && window.socket"))
        assert browser.execute_script("return window.socket") == "refused"
        time.sleep(0.5)
        assert laptop.answers == []
        assert not laptop.server.limiter.blocked("127.0.0.1")
        browser.get(laptop.url("Ann"))                                       # the phone's own page
        in_browser(browser, lambda: "Ann's Evidence Journal" in page_text(browser))
    finally:
        site.shutdown()
        laptop.server.stop()


def test_not_now_on_the_phone_puts_the_look_off_and_the_table_comes_back(t, browser):
    """A player may put a look off on their phone, as on the laptop's Cancel (a stoolie they turn
    out not to hold, say): nothing is noted, the laptop's table comes back, the page says so."""
    start(t)
    browser.get(t.window.phones.url("Ann"))
    ann = browser.current_window_handle
    until(t, lambda: "Ann's Evidence Journal" in text_of(browser, ann))
    t.roll("loot")
    option = next(o for o in t.session.prompt().options if o.private)
    t.window.table.place_picked(str(next(iter(option.targets.values()))[0]))
    until(t, lambda: question_open(browser, ann))
    before = (len(t.session.done), t.session.journal("Ann"))
    browser.find_element("css selector", "#q-later").click()
    until(t, lambda: t.window.stack.currentWidget() is t.window.table)
    until(t, lambda: not question_open(browser, ann))
    assert "Nothing was noted" in text_of(browser, ann)
    assert (len(t.session.done), t.session.journal("Ann")) == before
    assert page_errors(browser) == []


def test_the_readers_phone_shows_the_question_and_its_answer_until_it_is_judged(t, browser):
    """Issue 29 (Where in the USA, item 1): the answer printed in bold on the question card is for the
    reader alone: the reader's page shows the question and its answer at the top, the answering
    agent's page does not, and the note leaves once the reader has judged the answer."""
    start_game(t, "carmen-usa", ("Ann", "Bob"))
    for landmark in ("big-bend", "everglades"):
        t.click(f"slot:{landmark}")
    browser.get(t.window.phones.url("Ann"))
    ann = browser.current_window_handle
    browser.switch_to.new_window("window")
    as_phone(browser)
    browser.get(t.window.phones.url("Bob"))
    bob = browser.current_window_handle
    until(t, lambda: "Ann's Evidence Journal" in text_of(browser, ann))
    until(t, lambda: "Bob's Evidence Journal" in text_of(browser, bob))
    ann_before = text_of(browser, ann)
    t.click("action:ask")
    session = t.session
    assert session.state.reader == "Bob" and session.state.answerer == "Ann"
    q = session.rules.bank.question(session.state.question)

    def times_shown(text: str) -> int:  # the answer as a word of its own ("4" is not in "24 Clue Cards")
        return len(re.findall(rf"(?<!\w){re.escape(q.answer)}(?!\w)", text))

    def note(handle: str) -> str:
        browser.switch_to.window(handle)
        return browser.execute_script("const n = document.getElementById('note'); return n.hidden ? '' : n.innerText")

    until(t, lambda: q.answer in note(bob))
    ann_after = text_of(browser, ann)
    assert q.text in note(bob) and note(ann) == "" and "only you see it" not in ann_after
    assert times_shown(ann_after) <= times_shown(ann_before), "the answer reached the answering agent's page"
    t.click("action:answer")
    until(t, lambda: note(bob) == "")
    for handle in (ann, bob):
        browser.switch_to.window(handle)
        assert page_errors(browser) == []
