"""Damaged saved games, for every registered game: truncated files and flipped bytes.

Whatever the damage, reading a saved game (the resume list, a preview, the replay CLI) gives
a result or the store's own ``StoreError`` / the engine's ``RuleViolation``, never another
exception, and never changes a byte of the file; opening a damaged game to continue it is
refused, and the file is left exactly as it was ("a damaged file is never written").
"""

from __future__ import annotations

import os
import tempfile
from functools import lru_cache
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.__main__ import main
from engine.errors import RuleViolation
from engine.saves import SavedGame, describe_game, saved_games
from engine.session import Session
from engine.store import EventStore, StoreError

from .conftest import examples
from .games import GAME_IDS, new_session, play

FAST_DIR = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None


@lru_cache(maxsize=None)
def saved_bytes(game: str) -> bytes:
    """A healthy saved game of ``game`` (20 random moves and an undo) as bytes."""
    folder = Path(tempfile.mkdtemp(dir=FAST_DIR))
    path = folder / "g.gumshoe"
    session = new_session(game, path=path)
    for action in play(game, 3, 20).actions:
        session.undo() if action.get("type") == "undo" else session.apply(action)
    session.undo()
    session.close()
    data = path.read_bytes()
    for f in folder.iterdir():
        f.unlink()
    folder.rmdir()
    return data


damage = st.one_of(
    st.tuples(st.just("cut"), st.floats(0, 1)),
    st.tuples(st.just("flip"), st.lists(st.tuples(st.floats(0, 1), st.integers(1, 255)), min_size=1, max_size=8)),
    st.tuples(st.just("zero"), st.floats(0, 1), st.integers(1, 4096)),
    st.tuples(st.just("header"), st.integers(0, 99), st.integers(1, 255)),
)


def damaged(data: bytes, how) -> bytes:
    out = bytearray(data)
    if how[0] == "cut":
        return bytes(out[: int(how[1] * len(out))])
    if how[0] == "flip":
        for where, xor in how[1]:
            i = min(int(where * len(out)), len(out) - 1)
            out[i] ^= xor
    elif how[0] == "zero":
        start = min(int(how[1] * len(out)), len(out) - 1)
        out[start:start + how[2]] = bytes(len(out[start:start + how[2]]))
    else:
        out[how[1]] ^= how[2]
    return bytes(out)


def game_file(data: bytes) -> Path:
    folder = Path(tempfile.mkdtemp(dir=FAST_DIR))
    path = folder / "g.gumshoe"
    path.write_bytes(data)
    return path


def cleanup(path: Path) -> None:
    for f in path.parent.iterdir():
        f.unlink()
    path.parent.rmdir()


@pytest.mark.parametrize("game", GAME_IDS)
@examples(25, 500)
@given(how=damage)
def test_a_damaged_save_is_listed_refused_or_read_and_never_written(game, how):
    data = damaged(saved_bytes(game), how)
    path = game_file(data)
    try:
        listed = describe_game(path)
        assert isinstance(listed, SavedGame) and path.read_bytes() == data
        assert (listed.problem is None) == listed.viewable
        for read in (EventStore.summary, EventStore.read, Session.preview):
            try:
                read(path)
            except (StoreError, RuleViolation):
                pass
            assert path.read_bytes() == data
        assert main(["replay", str(path), "--json"]) in (0, 2)
        assert path.read_bytes() == data
        try:
            session = Session.resume(path)
        except (StoreError, RuleViolation):
            assert path.read_bytes() == data            # refused: not a byte written
        else:
            assert listed.problem is None               # the list offered what opens
            session.close()
    finally:
        cleanup(path)


def test_every_game_saves_and_lists_healthy(tmp_path):
    for game in GAME_IDS:
        (tmp_path / f"{game}.gumshoe").write_bytes(saved_bytes(game))
    games = saved_games(tmp_path)
    assert sorted(g.game for g in games) == sorted(GAME_IDS)
    assert all(g.resumable and g.moves and g.turns for g in games), [g.summary for g in games]
