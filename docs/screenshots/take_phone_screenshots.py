"""The phone page (issue 22) as a player sees it at 390x844, saved here as PNGs: each game's
journal after a stretch of play, and a private question (the card to photograph or choose).

    .venv/bin/python docs/screenshots/take_phone_screenshots.py

Each game is played by its own simulator (as the robustness tests do) until the first player
has seen a few cards; the page is served by the real phone server on loopback and shot by
Debian's headless chromium (tests/phones/browser.py).
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("GUMSHOE_HOME", tempfile.mkdtemp(prefix="gumshoe-phone-shots-"))

from engine.errors import RuleViolation  # noqa: E402
from engine.games import GAMES  # noqa: E402
from phones import PhoneQuestion, PlayerLinks, ReadSpec, player_snapshot  # noqa: E402
from phones.server import PhoneServer  # noqa: E402
from tests.phones.browser import phone_browser  # noqa: E402
from tests.robustness.games import new_session  # noqa: E402

SHORT = {"carmen-cards": "carmen", "carmen-usa": "usa", "bonnie-clyde": "bc", "39-clues": "clues",
         "sudds-malone": "sm"}


def played(game: str, seed: int = 4, most: int = 160):
    """A game after the step at which its first player knew the most cards (up to ``most`` steps)."""
    session = new_session(game, 3)
    sim = session.rules.simulator(session.initial, seed)
    best, best_known = 0, -1
    actions = []
    for step in range(most):
        if session.outcome is not None:
            break
        try:
            action = sim.random_action(session)
            session.apply(action)
        except RuleViolation:
            break
        actions.append(action)
        known = sum(e.where != "Unknown" for e in session.journal(session.players[0]).entries)
        if known > best_known:
            best, best_known = step + 1, known
    replay = new_session(game, 3)
    for action in actions[:best]:
        replay.apply(action)
    return replay


def a_question(session) -> PhoneQuestion:
    """The first player's private look at one of the cards before them (as the shell asks it)."""
    player = session.players[0]
    deck = session.rules.deck
    view = session.view(player)
    place = next((c.place for c in view.cards if c.place.startswith(player + "/") and c.kind), None)
    kind = next((c.kind for c in view.cards if c.place == place), None) or next(iter(deck.kinds))
    where = session.rules.place_words(session.state, place, player) if place else "the card you drew"
    names = [c.name for c in deck.of_kind(kind)]
    # As the shell lists them: alike cards with their sticker's letters (desktop.card_entry.card_names).
    choices = tuple(sorted(((c.id, c.name if names.count(c.name) == 1 else f"{c.name} ({c.key.rsplit('-', 1)[-1]})")
                            for c in deck.of_kind(kind)), key=lambda c: c[1]))
    return PhoneQuestion.new(player, f"{player}, look at {where}",
                             "Keep it hidden from the others. Photograph it, or choose it from the list.",
                             (ReadSpec("card", where, choices),))


def shoot(browser, url: str, path: Path, scroll_to: str | None = None) -> None:
    browser.get(url)
    deadline = time.monotonic() + 10
    while "Evidence Journal" not in browser.execute_script("return document.body.innerText"):
        if time.monotonic() > deadline:
            raise RuntimeError(f"the page at {url} did not fill in")
        time.sleep(0.1)
    if scroll_to:
        browser.execute_script(f"document.getElementById('{scroll_to}').scrollIntoView()")
    time.sleep(0.3)
    browser.get_screenshot_as_file(str(path))
    print("saved", path.relative_to(ROOT))


def main() -> int:
    browser = phone_browser()
    # Twice the CSS pixels (a phone draws three times as many): sharp enough, small enough files.
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True})
    try:
        for game in sorted(GAMES):
            session = played(game)
            player = session.players[0]
            links = PlayerLinks(session.players)
            server = PhoneServer(links, game, lambda *args: None)
            server.start(["127.0.0.1"])
            try:
                short = SHORT.get(game, game)
                server.publish(player, player_snapshot(session, player, "full"))
                time.sleep(0.1)
                shoot(browser, server.url(player), HERE / f"60-phone-{short}-journal.png", scroll_to="journal")
                question = a_question(session)
                server.publish(player, player_snapshot(session, player, "full", question), question)
                time.sleep(0.1)
                shoot(browser, server.url(player), HERE / f"61-phone-{short}-question.png")
            finally:
                server.stop()
    finally:
        browser.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
