"""Issue 22: a whole game of each registered game, every private read answered on the players'
phones in a real browser (a photo for the first one, picks from the list after), the public moves
on the laptop. The moves are the game's own simulator's (the physical table's truth); each private
one goes through the shell's own private-read entry (``MainWindow.read_cards`` /
``read_card_list``, what a table asks for), so the phone path is the one a family meets.

At every answer only the reader's page holds the question; at the end every page shows exactly
what its player's journal knows."""

from __future__ import annotations

import cv2
import pytest

from engine.games import GAMES
from tests.desktop.driver import Driver
from tests.robustness.games import new_session

from .browser import as_phone, page_errors, require_chromium
from .laptop import start_game

pytestmark = pytest.mark.slow
PLAYERS = ("Ann", "Bob")
MOST_ACTIONS = 1500


def private_reads(option, action: dict) -> list[str] | None:
    """The card fields a phone answers for this move (None: a move for the laptop)."""
    if option is None or not option.private or not option.reads:
        return None
    fields = [f for f in option.reads if action.get(f) not in (None, "", [])]   # "": nothing was there
    return fields or None


def short_game(game: str) -> tuple[int, int]:
    """(seed, moves) of a short whole game of ``game`` with a few private reads, by its simulator."""
    best = None
    for seed in range(1, 13):
        session = new_session(game, len(PLAYERS))
        sim = session.rules.simulator(session.initial, seed)
        moves = reads = 0
        while session.outcome is None and moves < MOST_ACTIONS:
            action = sim.random_action(session)
            reads += private_reads(session.prompt().option(action["type"]), action) is not None
            session.apply(action)
            moves += 1
        if session.outcome is not None and (reads >= 3 or best is None):
            if best is None or (moves < best[1] and reads >= 3):
                best = (seed, moves)
    assert best is not None, f"{game}: no simulated game ended within {MOST_ACTIONS} moves"
    return best


@pytest.fixture(autouse=True)
def chromium():
    """Each test here drives a real browser (skipped, before any window opens, where there is none)."""
    require_chromium()


def until(t: Driver, condition, timeout: float = 15.0) -> None:
    t.qtbot.waitUntil(lambda: bool(condition()), timeout=int(timeout * 1000))


def open_question(browser, handle: str) -> str | None:
    browser.switch_to.window(handle)
    return browser.execute_script("return document.getElementById('question').hidden ? null : "
                                  "document.getElementById('q-heading').textContent")


def page_known(browser, handle: str) -> list[tuple[str, str]]:
    browser.switch_to.window(handle)
    rows = browser.execute_script(
        "return Array.from(document.querySelectorAll('#j-groups tr.known'))"
        ".map(r => [r.cells[0].textContent, r.cells[1].textContent])")
    return sorted(tuple(r) for r in rows)


def where(option, action: dict, card_field: str) -> str:
    """The place a card field of ``action`` is read at: its place field's value (a path's words stand
    for no one place: every card is listed), or the option's one place for it (taking the FBI Files'
    top card names no pile)."""
    place_field = option.reads[card_field]
    if place_field in action:
        return str(action[place_field])
    places = option.targets.get(place_field, ())
    return str(places[0]) if len(places) == 1 else place_field


def photo_file(card: str, folder) -> str | None:
    from vision.registry import RegistryError
    from vision.synthetic import SyntheticTable
    try:
        frame = SyntheticTable(seed=3).frame([card], tag_px=200)
    except RegistryError:
        return None                       # a card without a printed tag: picked from the list
    path = folder / "card.jpg"
    cv2.imwrite(str(path), frame, [cv2.IMWRITE_JPEG_QUALITY, 90])
    return str(path)


def answer_on_the_page(t: Driver, browser, handle: str, action: dict, fields: list[str], photo: str | None) -> None:
    browser.switch_to.window(handle)
    if photo is not None:
        browser.find_element("css selector", f'.read[data-field="{fields[0]}"] input[type=file]').send_keys(photo)
        return                            # a single card read by the photo is sent by the page itself
    for field in fields:
        cards = action[field] if isinstance(action[field], list) else [action[field]]
        deck = t.window.controller.deck
        for card in cards:
            # A line stands for every copy of a card (issue 28): the line of any of its copies.
            boxes = [b for copy in (card, *deck.copies(card)) for b in browser.find_elements(
                "css selector", f'.read[data-field="{field}"] input[value="{copy}"]')]
            box = boxes[0]
            browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", box)
            box.click()
    button = browser.find_element("css selector", "#q-send")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
    button.click()


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_whole_game_with_every_private_read_answered_on_the_phones(t, browser, tmp_path, game):
    seed, _ = short_game(game)
    start_game(t, game, PLAYERS)
    phones = t.window.phones
    handles = {}
    for i, player in enumerate(PLAYERS):
        if i:
            browser.switch_to.new_window("window")
            as_phone(browser)
        browser.get(phones.url(player))
        handles[player] = browser.current_window_handle
    until(t, lambda: all(phones.on_phone(p) for p in PLAYERS))
    controller = t.window.controller
    session = controller.session
    sim = session.rules.simulator(session.initial, seed)
    answered = photos = 0
    for _ in range(MOST_ACTIONS):
        if session.outcome is not None:
            break
        action = sim.random_action(session)
        option = session.prompt().option(action["type"])
        fields = private_reads(option, action)
        if fields is None:
            controller.apply(action)
            continue
        player = action["player"]
        partial = {k: v for k, v in action.items() if k not in fields}
        heading = f"{player}, look (phones test)"
        lists = [f for f in fields if isinstance(action[f], list)]
        if lists:
            field = lists[0]
            place = where(option, action, field)
            t.window.read_card_list(partial, {"field": field, "place": place, "private": True, "heading": heading,
                                              "least": len(action[field]), "most": len(action[field]),
                                              "kinds": None, "demo_cards": []})
        else:
            reads = [(f, where(option, action, f)) for f in fields]
            t.window.read_cards(partial, reads, True, heading, {})
        assert t.window.stack.currentWidget() is t.window.phone_wait
        until(t, lambda: open_question(browser, handles[player]) == heading)
        others = [p for p in PLAYERS if p != player]
        assert all(open_question(browser, handles[p]) is None for p in others)
        # A single card is photographed (its tag tells its very copy, as the simulated deal holds it;
        # a line of the list stands for every copy): picked from the list where it has no tag.
        photo = photo_file(action[fields[0]], tmp_path) if len(fields) == 1 and not lists else None
        done = len(session.done)
        answer_on_the_page(t, browser, handles[player], action, fields, photo)
        until(t, lambda: len(session.done) == done + 1)
        photos += photo is not None
        answered += 1
        until(t, lambda: t.window.stack.currentWidget() is not t.window.phone_wait)
        if session.outcome is None and t.window.stack.currentWidget() is not t.window.table:
            t.window.show_table()
    assert session.outcome is not None, f"{game}: the game did not end"
    if game != "39-clues":                    # its moves have no private read
        assert answered >= 1 and photos >= 1
    # Every page shows exactly what its player's journal knows (pages catch up within a moment).
    for player in PLAYERS:
        journal = session.journal(player, controller.assist)
        known = sorted((e.name, e.where) for e in journal.entries if e.where != "Unknown")
        until(t, lambda: page_known(browser, handles[player]) == known, timeout=10)
        assert page_errors(browser) == []
    print(f"{game} seed {seed}: {len(session.done)} moves, {answered} private reads answered on phones")


def test_the_private_read_finder_does_not_count_a_public_move():
    """The helper itself: a public move (no option, or not private) is the laptop's."""
    class Option:
        private = False
        reads = {"card": "slot"}
    assert private_reads(Option(), {"card": "x"}) is None
    Option.private = True
    assert private_reads(Option(), {"card": "x"}) == ["card"]
    assert private_reads(Option(), {"card": None}) is None
    assert private_reads(Option(), {"card": ""}) is None
