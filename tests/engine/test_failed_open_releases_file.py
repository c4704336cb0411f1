"""A game that cannot be resumed is released at once (issue 27, item 4).

Before the fix, ``Session.resume`` opened the file for writing (SQLite's EXCLUSIVE lock) and
then failed to replay it, without closing it: until the garbage collector ran, the resume list
called the game "open in another window or program" and it could not be binned or opened again.
Each test keeps the refusal (as a screen does, to show its message), so nothing but an explicit
close can release the file.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.errors import RuleViolation
from engine.games import GAMES, game_info
from engine.saves import describe_game, move_to_bin, open_game
from engine.session import Session
from engine.store import EventStore, StoreError


def players_and_options(game: str) -> tuple[list[str], dict]:
    info = game_info(game)
    return ["Ann", "Bob", "Cyd", "Dee"][:max(2, info.players[0])], {o.id: o.default for o in info.options}


def unreplayable(path: Path, game: str, record: dict) -> Path:
    """A healthy file of ``game`` whose first stored move the rules refuse (written behind their back)."""
    players, options = players_and_options(game)
    with EventStore.create(path, {"game": game, "players": players, "options": options}) as store:
        store.append(record, [])
    return path


def assert_released(path: Path, why: str) -> None:
    """What a family notices: the list names the real problem, and the file can be binned."""
    listed = describe_game(path)
    assert listed.problem is not None
    assert "another window" not in listed.problem and why in listed.problem
    EventStore.summary(path)                 # not StoreLocked
    EventStore.open(path).close()            # nobody holds the write lock
    binned = move_to_bin(path)
    assert binned.exists() and not path.exists()


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_refused_resume_leaves_the_game_listed_with_its_problem_not_locked(tmp_path, game):
    path = unreplayable(tmp_path / "g.gumshoe", game, {"type": "undo"})
    with pytest.raises(RuleViolation) as refused:
        open_game(path)
    assert "cannot be replayed" in refused.value.message
    assert_released(path, "cannot be replayed")


@pytest.mark.parametrize("record", [{"type": "no-such-action", "player": "Ann"}, {"type": "redo"}])
def test_a_move_the_rules_refuse_releases_the_file(tmp_path, record):
    path = unreplayable(tmp_path / "g.gumshoe", "carmen-cards", record)
    with pytest.raises(RuleViolation) as refused:
        Session.resume(path)
    assert_released(path, "cannot be replayed")
    assert refused.value is not None


@pytest.mark.parametrize("header, why", [
    ({"game": "chess", "players": ["Ann", "Bob"]}, "Unknown game"),
    ({"game": "carmen-cards", "players": "AB"}, "list of names"),
    ({"game": "carmen-cards", "players": ["Ann", "Bob"], "options": {"ages": 5}}, "could not be set up"),
])
def test_a_header_that_cannot_start_a_game_releases_the_file(tmp_path, header, why):
    path = tmp_path / "g.gumshoe"
    EventStore.create(path, header).close()
    with pytest.raises((RuleViolation, StoreError)) as refused:
        Session.resume(path)
    assert why in str(refused.value)
    assert_released(path, why)
