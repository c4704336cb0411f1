"""Issue 22: every phone page is built from its player's own view, in every registered game.

As ``tests/robustness/test_game_privacy.py`` does for the journal: a random legal game of each
game of ``engine.games.GAMES`` (its own simulator, 10% misread cards, the occasional undo) is
replayed for each player P with every card that *other* players read privately changed to
another card. While what everyone saw stays the same, P's phone page must stay identical at every
step: nothing another player saw privately reaches P's phone. (The page also shows the shared
screen's prompt, word for word: what the shared screen may say is the robustness suite's matter.) Then the pages are served and read
back through each player's own link: each link returns its own player's page and nothing else.
"""

from __future__ import annotations

import json
import time
import urllib.request

import pytest

from engine.game import Assist
from engine.session import Session
from phones import PlayerLinks, player_snapshot
from phones.server import PhoneServer
from tests.robustness.games import GAME_IDS, SEEDS, played, replay_actions, steps_alike


def page(session: Session, player: str) -> str:
    return json.dumps(player_snapshot(session, player, Assist.FULL), sort_keys=True)


def private_part(session: Session, player: str) -> str:
    """The page less the shared screen's own words (whose turn, the prompt), which the page shows
    as the shared screen does: those are checked to be exactly the shared screen's."""
    snapshot = player_snapshot(session, player, Assist.FULL)
    assert snapshot["prompt"] == (session.prompt().text if session.outcome is None else session.outcome.reason)
    del snapshot["prompt"], snapshot["turn"]
    return json.dumps(snapshot, sort_keys=True)


def compare_player(game: str, seed: int, player: str) -> tuple[int, int]:
    """(steps compared, private reads changed) for one player's phone page in one game."""
    return steps_alike(game, seed, player, f"phones/{game}/{seed}/{player}", private_part, "phone page")


@pytest.mark.parametrize("game", GAME_IDS)
def test_a_phone_page_depends_only_on_its_players_sightings_and_public_events(game):
    compared = changed = 0
    for seed in SEEDS:
        for player in played(game, seed).players:
            c, n = compare_player(game, seed, player)
            compared += c
            changed += n
    assert compared > 0
    if any(played(game, s).private for s in SEEDS):
        assert changed > 0, f"{game}: private reads were found but none could be changed"


@pytest.mark.parametrize("game", GAME_IDS)
def test_each_link_serves_exactly_its_own_players_page(game):
    base = played(game, SEEDS[0])
    session = replay_actions(game, base.players, base.options, base.actions)
    links = PlayerLinks(session.players)
    server = PhoneServer(links, game, lambda *args: None)
    server.start(["127.0.0.1"])
    try:
        for player in session.players:
            server.publish(player, player_snapshot(session, player, Assist.FULL))
        time.sleep(0.1)
        for player in session.players:
            with urllib.request.urlopen(server.url(player) + "state", timeout=10) as response:
                served = json.loads(response.read())["snapshot"]
            assert json.dumps(served, sort_keys=True) == page(session, player)
            # What this player knows of each card is what their own journal says, line for line.
            journal = session.journal(player, Assist.FULL)
            known = sorted((e.name, e.where) for e in journal.entries if e.where != "Unknown")
            shown = sorted((e["name"], e["where"]) for g in served["journal"]["groups"] for e in g["entries"]
                           if e["known"])
            assert shown == known
    finally:
        server.stop()
