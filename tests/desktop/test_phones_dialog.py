"""The phones' screens on the laptop (issue 28, item 10).

- Each code has its address printed with it, in large type, whole on a 1366x768 (and 1280x680)
  screen for two to six players: a phone that cannot scan, or a person typing, gets in.
- "Page open" follows the page: it says so while the page is open on the phone, and stops saying
  so once the page is closed (before, it stayed, and it was only ever updated when the codes were
  drawn again).
- While a player looks at a card on their phone, Enter on the laptop does not cancel the look.
"""

from __future__ import annotations

import asyncio
import threading

import aiohttp
import pytest
from PySide6.QtGui import QFontInfo
from PySide6.QtTest import QTest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLabel, QPushButton

from tests.phones.client import get_json, in_thread

from .in_sight import click_in_sight, why_not_in_sight

NAMES = ["Julie", "Amberley", "Mark", "Bartholomew-Maximil", "Zoe", "Ann"]


class Page:
    """A player's page open on a phone: the live connection its script keeps to the laptop."""

    def __init__(self, url: str) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        asyncio.run_coroutine_threadsafe(self._open(url.replace("http://", "ws://") + "ws"), self.loop).result(20)

    async def _open(self, url: str) -> None:
        self.session = aiohttp.ClientSession()
        self.socket = await self.session.ws_connect(url)

    async def _close(self) -> None:
        await self.socket.close()
        await self.session.close()

    def close(self) -> None:
        """The player closes the page (or the tab, or the phone's browser)."""
        asyncio.run_coroutine_threadsafe(self._close(), self.loop).result(20)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


def codes_screen(window, qtbot, game: str, players: list[str], size=(1366, 768)):
    """A game with the phones switched on, its codes screen shown, in a window of ``size``."""
    from desktop.games import GameController
    from engine.game import Assist
    from engine.games import game_info

    window.phone_hosts = ["127.0.0.1"]             # loopback only in tests
    window.resize(*size)
    options = {o.id: o.default for o in game_info(game).options}
    controller = GameController.new(game, players, {p: 9 + i for i, p in enumerate(players)}, Assist.FULL,
                                    options=options, demo=True)
    window._open(controller)
    assert window.phones.switch_on() is None
    window.show_phones()
    qtbot.waitUntil(lambda: window.phones_screen.isVisible())
    QApplication.processEvents()
    return window.phones_screen


def shown(window, name: str) -> QLabel:
    return next(w for w in window.findChildren(QLabel, name) if w.isVisible())


def page_state(window, player: str) -> QLabel:
    """The words under a player's code saying whether their page is open: the line beside their
    name that speaks of the page (found by what it says, as a person reads it)."""
    holder = shown(window, f"phones:name:{player}").parentWidget()
    return next(w for w in holder.findChildren(QLabel) if w.isVisible()
                and w.text().startswith(("Page", "Not scanned")))


@pytest.mark.parametrize("count", [2, 3, 4, 6])
@pytest.mark.parametrize("size", [(1366, 768), (1280, 680)])
def test_each_code_has_its_address_in_large_type_whole_in_sight(window, qtbot, count, size):
    players = NAMES[:count]
    codes_screen(window, qtbot, "carmen-usa", players, size)
    for player in players:
        address = shown(window, f"phones:address:{player}")
        assert address.text().replace("\n", "") == window.phones.url(player)     # typed as one line
        assert address.textFormat() == Qt.PlainText
        # Larger than the screen's own text (20 px) while there is room; never smaller than it.
        assert QFontInfo(address.font()).pixelSize() >= (24 if count <= 3 else 20), "the address is not in large type"
        metrics = address.fontMetrics()
        assert metrics.horizontalAdvance("l") == metrics.horizontalAdvance("W"), \
            "the address is not in a typewriter face (0 and O, 1 and l told apart)"
        for part in (address, shown(window, f"phones:code:{player}"), shown(window, f"phones:name:{player}"),
                     shown(window, f"phones:state:{player}")):
            assert not why_not_in_sight(part), f"{count} players at {size}: {why_not_in_sight(part)}"


def test_page_open_follows_the_page(window, qtbot):
    codes_screen(window, qtbot, "carmen-cards", ["Ann", "Bob"])
    state = page_state(window, "Ann")
    assert state.text() == "Not scanned yet"
    page = Page(window.phones.url("Ann"))
    try:
        qtbot.waitUntil(lambda: state.text() == "Page open", timeout=5000)
        assert page_state(window, "Bob").text() == "Not scanned yet"
        second = Page(window.phones.url("Ann"))          # the same code opened on another device
        qtbot.waitUntil(lambda: state.text().startswith("Page open on 2 devices"), timeout=5000)
        second.close()
        qtbot.waitUntil(lambda: state.text() == "Page open", timeout=5000)
    finally:
        page.close()
    qtbot.waitUntil(lambda: state.text() != "Page open", timeout=5000)
    assert state.text() == "Page closed: scan the code to open it again"
    page = Page(window.phones.url("Ann"))              # opened again
    qtbot.waitUntil(lambda: state.text() == "Page open", timeout=5000)
    page.close()


def test_enter_does_not_cancel_a_look_on_the_phone(window, qtbot):
    codes_screen(window, qtbot, "carmen-cards", ["Ann", "Bob"])
    click_in_sight(next(b for b in window.findChildren(QPushButton, "phones:done") if b.isVisible()))
    if window.stack.currentWidget() is window.setup:
        click_in_sight(next(b for b in window.findChildren(QPushButton, "setup:done") if b.isVisible()))
    url = window.phones.url("Ann")
    future = in_thread(get_json, url + "state")        # Ann opens her page
    qtbot.waitUntil(future.done, timeout=20000)
    qtbot.waitUntil(lambda: window.phones.on_phone("Ann"))
    session = window.controller.session
    window.controller.apply({"type": "roll", "player": "Ann", "face": 1})     # Loot: Ann looks at one of hers
    option = next(o for o in session.prompt().options if o.private)
    window.table.place_picked(str(next(iter(option.targets.values()))[0]))
    wait = window.phone_wait
    assert window.stack.currentWidget() is wait and window.phones.asking == "Ann"
    qtbot.waitUntil(lambda: wait.isVisible())
    QApplication.processEvents()
    for key in (Qt.Key_Return, Qt.Key_Enter):
        target = QApplication.focusWidget() or window.focusWidget() or wait
        QTest.keyClick(target, key)
        QApplication.processEvents()
        assert window.stack.currentWidget() is wait, "Enter cancelled the look on the phone"
        assert window.phones.asking == "Ann"
    # The buttons still do what they say, clicked.
    click_in_sight(next(b for b in wait.findChildren(QPushButton, "phone-wait:cancel")))
    assert window.stack.currentWidget() is window.table and window.phones.asking is None
