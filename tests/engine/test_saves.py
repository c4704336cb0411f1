"""The resume list (engine.saves): every odd saved game is listed with its problem and never
stops the app; read-only and older-format games; stale temporary files; the bin.

Issue 11, defects 1, 2, 7, 8, 10 and 13. Each test here failed on the code before the fix.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import time
from pathlib import Path

import pytest

from engine import saves, store
from engine.errors import RuleViolation
from engine.saves import (SavedGame, clean_temp_files, describe_game, move_to_bin, open_game, restore_from_bin,
                          saved_games)
from engine.session import Session
from engine.store import EventStore, StoreError, StoreReadOnly

from .game_files import played_moves, reseal, write_v1
from .readonly_fs import read_only_fs, run_unprivileged, shared_tmp


SCRIPT = [{"type": "roll", "player": "Ann", "face": 1},
          {"type": "peek", "player": "Ann", "slot": "Ann/loot/top", "card": "carmen.loot.hudson-bay"},
          {"type": "end_turn", "player": "Ann"},
          {"type": "roll", "player": "Bob", "face": 3}]


def make_game(path: Path, moves: int = 1) -> Path:
    s = Session.new("carmen-cards", ["Ann", "Bob"], path=path)
    for action in SCRIPT[:moves]:
        s.apply(action)
    s.close()
    return path


def tamper(path: Path, sql: str, *args) -> None:
    """Odd content with matching checksums (a buggy writer's file): the content is the test."""
    conn = sqlite3.connect(path)
    conn.execute(sql, args)
    conn.commit()
    conn.close()
    reseal(path)


def damage_schema_byte(path: Path) -> None:
    data = bytearray(path.read_bytes())
    i = data.index(b"PRIMARY KEY (seq, idx)")
    data[i + 12] = 0xED
    path.write_bytes(bytes(data))


ODD = {
    "first move is an undo": lambda p: tamper(p, "UPDATE records SET record='{\"type\":\"undo\"}' WHERE seq=1"),
    "first move is a redo": lambda p: tamper(p, "UPDATE records SET record='{\"type\":\"redo\"}' WHERE seq=1"),
    "players is a number": lambda p: tamper(p, "UPDATE meta SET value=? WHERE key='header'",
                                            json.dumps({"game": "carmen-cards", "players": 2})),
    "players is text": lambda p: tamper(p, "UPDATE meta SET value=? WHERE key='header'",
                                        json.dumps({"game": "carmen-cards", "players": "AB"})),
    "header has no game": lambda p: tamper(p, "UPDATE meta SET value=? WHERE key='header'",
                                           json.dumps({"players": ["Ann", "Bob"]})),
    "unknown game": lambda p: tamper(p, "UPDATE meta SET value=? WHERE key='header'",
                                     json.dumps({"game": "chess", "players": ["Ann", "Bob"]})),
    "game is a list": lambda p: tamper(p, "UPDATE meta SET value=? WHERE key='header'",
                                       json.dumps({"game": ["carmen-cards"], "players": ["Ann", "Bob"]})),
    "a move is deeply nested": lambda p: tamper(p, "UPDATE records SET record=? WHERE seq=1",
                                                "[" * 100_000 + "]" * 100_000),
    "a move is not an object": lambda p: tamper(p, "UPDATE records SET record='[1, 2]' WHERE seq=1"),
    "one bad byte in the schema": damage_schema_byte,
    "cut short": lambda p: p.write_bytes(p.read_bytes()[:3000]),
}


@pytest.mark.parametrize("case", sorted(ODD))
def test_an_odd_saved_game_is_listed_with_its_problem(tmp_path, case):
    """Defect 1 (and 2): the list shows the odd file with a plain problem, beside a good game."""
    make_game(tmp_path / "good.gumshoe")
    odd = make_game(tmp_path / "odd.gumshoe")
    ODD[case](odd)
    before = odd.read_bytes()
    games = {g.path.name: g for g in saved_games(tmp_path)}
    assert set(games) == {"good.gumshoe", "odd.gumshoe"}
    assert games["good.gumshoe"].resumable and games["good.gumshoe"].problem is None
    bad = games["odd.gumshoe"]
    assert bad.problem and not bad.resumable and not bad.viewable
    assert "Traceback" not in bad.problem and "odd.gumshoe" in bad.summary
    assert odd.read_bytes() == before                       # listing never writes
    with pytest.raises((StoreError, RuleViolation)):
        open_game(odd)
    assert odd.read_bytes() == before


def test_store_errors_with_a_non_utf8_byte_are_store_errors(tmp_path):
    """Defect 2: SQLite's own message holding a non-UTF-8 byte is a StoreError, not UnicodeDecodeError."""
    p = make_game(tmp_path / "g.gumshoe")
    damage_schema_byte(p)
    for fn in (EventStore.summary, EventStore.read, EventStore.open):
        with pytest.raises(StoreError, match="damaged"):
            fn(p)


def test_the_list_counts_player_moves_and_turns_not_records(tmp_path):
    """Where each game stands: whose turn, turns and moves as a player counts them (undo and
    redo are records in the file, not moves)."""
    p = tmp_path / "g.gumshoe"
    s = Session.new("carmen-cards", ["Ann", "Bob"], path=p)
    s.apply({"type": "roll", "player": "Ann", "face": 1})
    s.apply({"type": "peek", "player": "Ann", "slot": "Ann/loot/top", "card": "carmen.loot.hudson-bay"})
    s.undo()
    s.redo()
    s.apply({"type": "end_turn", "player": "Ann"})
    s.apply({"type": "roll", "player": "Bob", "face": 3})
    s.undo()
    s.close()
    assert EventStore.summary(p)["records"] == 7
    (g,) = saved_games(tmp_path)
    assert (g.game, g.players, g.moves, g.turns, g.current) == ("carmen-cards", ("Ann", "Bob"), 3, 2, "Bob")
    assert g.state == "Bob's turn" and g.game_title == "Carmen Sandiego card game"
    assert "turn 2" in g.summary and "Bob's turn" in g.summary


def test_an_older_format_game_is_resumable_and_opening_it_updates_it(tmp_path):
    """Defect 10: a game saved in an older file format (format 1, before record checksums) is
    listed as resumable; opening it runs the migration, after a backup copy."""
    moves = played_moves("carmen-cards", ["Ann", "Bob"], {}, SCRIPT[:2])
    p = write_v1(tmp_path / "old.gumshoe", {"game": "carmen-cards", "players": ["Ann", "Bob"], "options": {}}, moves)
    before = p.read_bytes()
    (g,) = saved_games(tmp_path)
    assert g.resumable and g.needs_update and g.problem is None
    assert g.moves == 2 and g.state == "Ann's turn" and "older version" in g.summary
    assert p.read_bytes() == before                          # listing does not migrate
    s = open_game(p)
    assert len(s.done) == 2 and s.store.backup_path is not None and s.store.backup_path.exists()
    s.close()
    assert EventStore.summary(p)["schema_version"] == store.SCHEMA_VERSION == 2


def test_new_game_on_a_read_only_disk_is_a_store_error():
    """Defect 7: a new game on a read-only file system: StoreError in plain words, no OSError."""
    with read_only_fs() as folder:
        with pytest.raises(StoreError, match="read-only"):
            Session.new("carmen-cards", ["Ann", "Bob"], path=folder / "new.gumshoe")
        assert list(folder.iterdir()) == []


def test_a_game_on_a_read_only_disk_is_listed_read_only_and_can_be_viewed():
    """Defect 8 (read-only file system): listed as read-only (not damaged), viewable, replayed
    the same; continuing it says why not; nothing is written."""
    with read_only_fs(lambda f: make_game(f / "g.gumshoe", moves=3)) as folder:
        (g,) = saved_games(folder)
        assert g.problem is None and g.viewable and not g.resumable
        assert "read-only" in g.read_only and g.moves == 3 and g.state == "Bob's turn"
        with pytest.raises(StoreReadOnly, match="viewed but not continued"):
            open_game(g.path)
        s = open_game(g.path, read_only=True)
        assert len(s.done) == 3 and s.current == "Bob" and "read-only" in s.read_only
        with pytest.raises(RuleViolation, match="only be viewed"):
            s.apply({"type": "roll", "player": "Bob", "face": 1})
        assert len(s.done) == 3


READ_ONLY_CHECK = """
from engine.saves import saved_games, open_game
from engine.store import StoreReadOnly
(g,) = saved_games({folder!r})
print("problem", g.problem)
print("read_only", g.read_only)
print("moves", g.moves, g.state)
try:
    open_game(g.path)
except StoreReadOnly as e:
    print("refused", e.reason)
s = open_game(g.path, read_only=True)
print("viewed", len(s.done), s.read_only)
"""


@pytest.mark.parametrize("how", ["file", "folder"])
def test_a_read_only_game_file_or_folder_is_not_called_damaged(how):
    """Defect 8: a read-only file ("disk I/O error") or folder ("attempt to write a readonly
    database") used to be listed as damaged."""
    base = shared_tmp()
    try:
        folder = base / "games"
        folder.mkdir()
        p = make_game(folder / "g.gumshoe", moves=3)
        before = p.read_bytes()
        if how == "file":
            os.chown(folder, 65534, 65534) if os.geteuid() == 0 else None
            p.chmod(0o444)
        else:
            p.chmod(0o644)
            folder.chmod(0o555)
        out = run_unprivileged(READ_ONLY_CHECK.format(folder=str(folder)))
        assert out.returncode == 0, out.stderr
        lines = out.stdout
        assert "problem None" in lines
        assert "read_only it can be viewed but not continued" in lines and "read-only" in lines
        assert "moves 3 Bob's turn" in lines
        assert "refused" in lines and "viewed 3 This game can only be viewed" in lines
        assert p.read_bytes() == before
    finally:
        for sub in base.rglob("*"):
            sub.chmod(0o755) if sub.is_dir() else None
        base.chmod(0o755)
        shutil.rmtree(base, ignore_errors=True)


def test_stale_temp_files_of_a_killed_game_creation_are_cleaned(tmp_path):
    """Defect 13: '.g.gumshoe.<id>.tmp' and its -wal/-shm left by a kill are removed on start;
    fresh ones (a game being created now) and everything else are kept."""
    game = make_game(tmp_path / "g.gumshoe")
    stale = [tmp_path / f".g.gumshoe.{'a' * 32}.tmp{s}" for s in ("", "-wal", "-shm", "-journal")]
    fresh = tmp_path / f".h.gumshoe.{'b' * 32}.tmp"
    other = [tmp_path / "notes.tmp", tmp_path / ".hidden.tmp", tmp_path / "g.gumshoe.v1.bak"]
    for f in (*stale, fresh, *other):
        f.write_bytes(b"x")
    old = time.time() - 3600
    for f in (*stale, *other):
        os.utime(f, (old, old))
    removed = clean_temp_files(tmp_path)
    assert sorted(removed) == sorted(stale)
    assert fresh.exists() and game.exists() and all(f.exists() for f in other)
    assert clean_temp_files(tmp_path / "missing") == []


def test_a_saved_game_goes_to_the_bin_and_comes_back(tmp_path):
    """Delete a saved game: moved to a bin folder, so a slip can be undone."""
    p = make_game(tmp_path / "g.gumshoe", moves=2)
    data = p.read_bytes()
    binned = move_to_bin(p)
    assert binned.parent == tmp_path / "bin" and not p.exists()
    assert saved_games(tmp_path) == [] and [g.moves for g in saves.binned_games(tmp_path)] == [2]
    make_game(tmp_path / "g.gumshoe")                # the name was taken again meanwhile
    back = restore_from_bin(binned)
    assert back != p and back.parent == tmp_path and back.read_bytes() == data
    assert sorted(g.moves for g in saved_games(tmp_path)) == [1, 2]
    assert saves.binned_games(tmp_path) == []


def test_a_game_open_in_a_window_is_not_binned(tmp_path):
    p = make_game(tmp_path / "g.gumshoe")
    s = Session.resume(p)
    try:
        with pytest.raises(StoreError, match="open"):
            move_to_bin(p)
        assert p.exists()
        (g,) = saved_games(tmp_path)
        assert "open in another window" in g.problem
    finally:
        s.close()


def test_the_list_is_game_agnostic_and_never_raises(tmp_path):
    """Any folder content: a directory named like a game, an empty file, not SQLite."""
    (tmp_path / "dir.gumshoe").mkdir()
    (tmp_path / "empty.gumshoe").write_bytes(b"")
    (tmp_path / "text.gumshoe").write_text("hello")
    games = saved_games(tmp_path)
    assert {g.path.name for g in games} == {"dir.gumshoe", "empty.gumshoe", "text.gumshoe"}
    assert all(g.problem and isinstance(g, SavedGame) for g in games)
    assert saved_games(tmp_path / "nope") == []


CREATE_FOREVER = """
import sys, uuid
from engine.store import EventStore
folder = sys.argv[1]
print("ready", flush=True)
while True:
    EventStore.create(f"{folder}/{uuid.uuid4().hex}.gumshoe", {"game": "carmen-cards", "players": ["Ann", "Bob"]}).close()
"""


def test_whatever_a_kill_during_game_creation_leaves_is_cleaned(tmp_path):
    """Defect 13 for real: SIGKILL a process that creates games; every temporary file left is
    recognised and removed; every finished game file is kept and opens."""
    import signal
    import subprocess
    import sys
    root = Path(__file__).resolve().parents[2]
    for delay in (0.05, 0.13, 0.21, 0.29):
        proc = subprocess.Popen([sys.executable, "-c", CREATE_FOREVER, str(tmp_path)], cwd=root,
                                stdout=subprocess.PIPE, text=True)
        assert proc.stdout.readline().strip() == "ready"
        time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        proc.stdout.close()
    games = set(tmp_path.glob("*.gumshoe"))
    removed = set(clean_temp_files(tmp_path, min_age_s=0))
    left = set(tmp_path.iterdir()) - games
    assert not {p for p in left if p.name.startswith(".")}, sorted(p.name for p in left)
    assert all(p.name.startswith(".") and ".tmp" in p.name for p in removed)
    for g in sorted(games)[:5]:
        assert describe_game(g).problem is None or "open" in describe_game(g).problem


def test_viewing_a_writable_game_never_writes_and_refuses_moves(tmp_path):
    """Session.open_readonly: for viewing and replay; the file is never written."""
    p = make_game(tmp_path / "g.gumshoe", moves=3)
    before = p.read_bytes()
    s = open_game(p, read_only=True)
    assert s.read_only == "This game is open for viewing only." and len(s.done) == 3
    for attempt in (lambda: s.apply({"type": "roll", "player": "Bob", "face": 1}), s.undo, s.redo):
        with pytest.raises(RuleViolation, match="viewing only"):
            attempt()
    assert len(s.done) == 3 and p.read_bytes() == before
    resumed = open_game(p)                       # not locked by the viewer
    resumed.close()


def test_the_replay_cli_warns_of_an_unused_corrections_file(tmp_path, monkeypatch, capsys):
    from engine.__main__ import main
    (tmp_path / "decks").mkdir()
    (tmp_path / "decks" / "carmen-cards.toml").write_bytes(b'[names]\n"hudson-bay" = "Hudson\x92s"\n')
    monkeypatch.setenv("GUMSHOE_HOME", str(tmp_path))
    log = tmp_path / "g.jsonl"
    log.write_text('{"game": "carmen-cards", "players": ["Ann", "Bob"]}\n{"type": "roll", "player": "Ann", "face": 1}\n')
    assert main(["replay", str(log)]) == 0
    err = capsys.readouterr().err
    assert err.startswith("warning: Your name corrections were not used") and "line 2" in err
