"""The game file: round trips, refusing bad files untouched, migrations.

Every "bad file" test hashes the file before and after: the promise to the
family is that Gumshoe never damages a game file further by opening it.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import store as store_module
from engine.store import (
    SCHEMA_VERSION,
    EventStore,
    StoreCorrupted,
    StoreError,
    StoreLocked,
    StoreTooNew,
)

from .game_files import write_v1

HEADER = {"game": "carmen-cards", "players": ["Julie", "Amberley", "Mark"], "seed": None}


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def make_game(path: Path, moves: int = 3) -> Path:
    """A closed game file with `moves` records; move k has k % 3 events."""
    with EventStore.create(path, HEADER) as s:
        for k in range(1, moves + 1):
            s.append({"n": k, "who": "Julie"}, [{"of": k, "i": i} for i in range(k % 3)])
    return path


def files(folder: Path) -> list[str]:
    """File names in `folder`, leaving out SQLite's own -wal/-shm side files."""
    return sorted(p.name for p in folder.iterdir() if not p.name.endswith(("-wal", "-shm")))


def tamper(path: Path, *sql: str) -> None:
    """Edit a closed game file behind the store's back (like a damaged disk would)."""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        for statement in sql:
            conn.execute(statement)
    finally:
        conn.close()  # checkpoints, so the change is in the main file itself


# ----------------------------------------------------------------- round trip


def test_round_trip_in_seq_order_and_reopen_gives_identical_game(tmp_path):
    path = tmp_path / "game.gumshoe"
    with EventStore.create(path, HEADER) as s:
        assert len(s) == 0
        assert s.append({"action": "peek", "who": "Julie"}, [{"kind": "saw", "to": ["Julie"]}]) == 1
        assert s.append({"action": "roll", "face": 4}, []) == 2
        assert s.append({"action": "swap"}, [{"kind": "moved", "i": 0}, {"kind": "moved", "i": 1}]) == 3
        written_records, written_events = s.records(), s.events()
        assert len(s) == 3

    assert written_records == [
        {"action": "peek", "who": "Julie"},
        {"action": "roll", "face": 4},
        {"action": "swap"},
    ]
    assert written_events == [
        (1, {"kind": "saw", "to": ["Julie"]}),
        (3, {"kind": "moved", "i": 0}),
        (3, {"kind": "moved", "i": 1}),
    ]
    with EventStore.open(path) as s:
        assert s.header == HEADER
        assert len(s) == 3
        assert s.records() == written_records
        assert s.events() == written_events
        # Resuming continues the numbering where the game stopped.
        assert s.append({"action": "warrant"}, [{"kind": "flipped"}]) == 4
    with EventStore.open(path) as s:
        assert [r.get("action") for r in s.records()] == ["peek", "roll", "swap", "warrant"]


def test_header_is_kept_and_summary_lists_game_without_writing(tmp_path):
    path = make_game(tmp_path / "game.gumshoe", moves=5)
    before = sha(path)
    info = EventStore.summary(path)
    assert info["header"] == HEADER
    assert info["records"] == 5
    assert info["schema_version"] == SCHEMA_VERSION
    assert info["created_at"] is not None and info["updated_at"] >= info["created_at"]
    assert sha(path) == before
    with EventStore.open(path) as s:
        assert s.header == HEADER
        assert (s.created_at, s.updated_at) == (info["created_at"], info["updated_at"])


def test_updated_at_moves_forward_with_each_move(tmp_path):
    with EventStore.create(tmp_path / "g.gumshoe", HEADER) as s:
        created = s.updated_at
        s.append({"n": 1}, [])
        assert s.updated_at >= created
    assert EventStore.summary(tmp_path / "g.gumshoe")["updated_at"] == s.updated_at


def test_json_is_stored_compactly_with_sorted_keys_and_real_letters(tmp_path):
    path = tmp_path / "g.gumshoe"
    with EventStore.create(path, HEADER) as s:
        s.append({"z": 1, "card": "Gandhi’s Glasses", "a": [1, 2]}, [{"où": "Zürich"}])
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("SELECT record FROM records").fetchone()[0] == (
            '{"a":[1,2],"card":"Gandhi’s Glasses","z":1}'
        )
        assert conn.execute("SELECT event FROM events").fetchone()[0] == '{"où":"Zürich"}'
    finally:
        conn.close()


def test_create_refuses_to_overwrite_any_existing_file(tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("grandma's shopping list\n")
    game = make_game(tmp_path / "game.gumshoe")
    for path in (notes, game):
        before = sha(path)
        with pytest.raises(StoreError, match="already exists") as err:
            EventStore.create(path, {"game": "other"})
        assert path.name in str(err.value)
        assert sha(path) == before
    # ...and it leaves no temporary file behind (SQLite's -wal/-shm aside).
    assert sorted(files(tmp_path)) == ["game.gumshoe", "notes.txt"]


def test_open_missing_file_is_a_clear_error_and_creates_nothing(tmp_path):
    path = tmp_path / "nope.gumshoe"
    with pytest.raises(StoreError, match="does not exist") as err:
        EventStore.open(path)
    assert "nope.gumshoe" in str(err.value)
    assert not path.exists()


def test_a_record_json_cannot_hold_is_refused_and_nothing_is_written(tmp_path):
    path = tmp_path / "g.gumshoe"
    with EventStore.create(path, HEADER) as s:
        s.append({"n": 1}, [{"of": 1}])
        with pytest.raises(TypeError):
            s.append({"n": 2, "card": object()}, [])
        with pytest.raises(ValueError):
            s.append({"n": 2}, [{"p": float("nan")}])
        assert len(s) == 1
        assert s.append({"n": 2}, []) == 2
    with EventStore.open(path) as s:
        assert s.records() == [{"n": 1}, {"n": 2}]
        assert s.events() == [(1, {"of": 1})]


def test_second_opener_is_told_the_game_is_open_elsewhere(tmp_path):
    path = make_game(tmp_path / "g.gumshoe")
    with EventStore.open(path):
        with pytest.raises(StoreLocked, match="open in another") as err:
            EventStore.open(path)
        assert "g.gumshoe" in str(err.value)
    with EventStore.open(path) as s:  # free again once closed
        assert len(s) == 3


def test_closed_store_refuses_to_append(tmp_path):
    s = EventStore.create(tmp_path / "g.gumshoe", HEADER)
    s.close()
    s.close()  # twice is fine
    with pytest.raises(StoreError, match="closed"):
        s.append({"n": 1}, [])


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text()
    | st.floats(allow_nan=False, allow_infinity=False),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)
json_dicts = st.dictionaries(st.text(), json_values, max_size=5)


@settings(max_examples=25, deadline=None)
@given(moves=st.lists(st.tuples(json_dicts, st.lists(json_dicts, max_size=3)), max_size=6))
def test_any_json_records_come_back_exactly_after_reopen(moves):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "g.gumshoe"
        with EventStore.create(path, {"game": "any"}) as s:
            for record, events in moves:
                s.append(record, events)
        with EventStore.open(path) as s:
            assert s.records() == [r for r, _ in moves]
            assert s.events() == [
                (seq, e) for seq, (_, events) in enumerate(moves, start=1) for e in events
            ]


# ----------------------------------------------------------- corrupted files


def _random_bytes(path: Path) -> None:
    path.write_bytes(os.urandom(8192))


def _text_file(path: Path) -> None:
    path.write_text("Julie: Lima / Pizarro's Sword\nMark: top card unknown\n")


def _empty_file(path: Path) -> None:
    path.write_bytes(b"")


def _truncated(size: int):
    def make(path: Path) -> None:
        make_game(path, moves=300)
        data = path.read_bytes()
        assert len(data) > size
        path.write_bytes(data[:size])

    make.__name__ = f"truncated_to_{size}"
    return make


def _other_app(path: Path) -> None:
    tamper(path, "CREATE TABLE photos (id INTEGER PRIMARY KEY, file TEXT)",
           "INSERT INTO photos (file) VALUES ('holiday.jpg')")


def _bad_record_json(path: Path) -> None:
    make_game(path)
    tamper(path, "UPDATE records SET record = '{\"n\": 2, ' WHERE seq = 2")


def _bad_event_json(path: Path) -> None:
    make_game(path)
    tamper(path, "UPDATE events SET event = 'not json' WHERE seq = 2 AND idx = 1")


def _record_not_a_dict(path: Path) -> None:
    make_game(path)
    tamper(path, "UPDATE records SET record = '[1,2]' WHERE seq = 1")


def _gap_in_seq(path: Path) -> None:
    with EventStore.create(path, HEADER) as s:
        for k in range(1, 5):
            s.append({"n": k}, [])  # no events, so only the numbering shows the gap
    tamper(path, "DELETE FROM records WHERE seq = 2")


def _missing_event(path: Path) -> None:
    make_game(path, moves=5)
    tamper(path, "DELETE FROM events WHERE seq = 2 AND idx = 0")


def _orphan_events(path: Path) -> None:
    make_game(path, moves=2)
    tamper(path, "INSERT INTO events (seq, idx, event) VALUES (7, 0, '{}')")


def _missing_table(path: Path) -> None:
    make_game(path)
    tamper(path, "DROP TABLE events")


def _bad_header(path: Path) -> None:
    make_game(path)
    tamper(path, "UPDATE meta SET value = '{oops' WHERE key = 'header'")


def _no_header(path: Path) -> None:
    make_game(path)
    tamper(path, "DELETE FROM meta WHERE key = 'header'")


def _damaged_page(path: Path) -> None:
    make_game(path, moves=300)
    data = bytearray(path.read_bytes())
    page = 4096
    # Scribble over the B-tree header of the third page (a table page).
    data[2 * page: 2 * page + 64] = b"\xa5" * 64
    path.write_bytes(bytes(data))


@pytest.mark.parametrize(
    "damage",
    [
        _random_bytes, _text_file, _empty_file, _truncated(50), _truncated(4096 + 10),
        _truncated(20_000), _other_app, _bad_record_json, _bad_event_json,
        _record_not_a_dict, _gap_in_seq, _missing_event, _orphan_events, _missing_table,
        _bad_header, _no_header, _damaged_page,
    ],
    ids=lambda f: f.__name__.strip("_"),
)
def test_corrupted_file_is_refused_by_name_and_left_untouched(tmp_path, damage):
    path = tmp_path / "julies-game.gumshoe"
    damage(path)
    before = sha(path)
    with pytest.raises(StoreCorrupted) as err:
        EventStore.open(path)
    assert "julies-game.gumshoe" in str(err.value)
    with pytest.raises(StoreCorrupted):
        EventStore.summary(path)
    assert sha(path) == before
    assert not list(tmp_path.glob("*.bak"))


# ------------------------------------------------------------ schema versions


def test_file_from_a_newer_program_is_refused_untouched(tmp_path):
    path = make_game(tmp_path / "future.gumshoe")
    tamper(path, f"UPDATE meta SET value = '{SCHEMA_VERSION + 1}' WHERE key = 'schema_version'")
    before = sha(path)
    with pytest.raises(StoreTooNew, match="newer version") as err:
        EventStore.open(path)
    assert "future.gumshoe" in str(err.value)
    with pytest.raises(StoreTooNew):
        EventStore.summary(path)
    assert sha(path) == before
    assert files(tmp_path) == ["future.gumshoe"]


@pytest.fixture
def v0_file(tmp_path, monkeypatch):
    """A fake file of format 0 (format 1's tables), a migration 0 -> 1 that adds a meta key,
    and the real migrations from format 1 on."""
    path = write_v1(tmp_path / "old.gumshoe", HEADER,
                    [({"n": k, "who": "Julie"}, [{"of": k, "i": i} for i in range(k % 3)]) for k in range(1, 5)])
    tamper(path, "UPDATE meta SET value = '0' WHERE key = 'schema_version'")
    calls = []

    def migrate_0_to_1(conn):
        calls.append(1)
        conn.execute("INSERT INTO meta (key, value) VALUES ('migrated', 'yes')")

    monkeypatch.setattr(store_module, "MIGRATIONS", {**store_module.MIGRATIONS, 0: migrate_0_to_1})
    return path, calls


def meta_value(path: Path, key: str):
    conn = sqlite3.connect(path)
    try:
        row = conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row and row[0]
    finally:
        conn.close()


def test_older_file_is_backed_up_then_migrated(v0_file):
    path, calls = v0_file
    original = sha(path)
    with EventStore.open(path) as s:
        assert len(s) == 4 and s.records()[0] == {"n": 1, "who": "Julie"}
        backup = path.with_name("old.gumshoe.v0.bak")
        assert s.backup_path == backup
        assert s.append({"n": 5}, []) == 5
    assert calls == [1]
    assert meta_value(path, "schema_version") == str(SCHEMA_VERSION)
    assert meta_value(path, "migrated") == "yes"
    # The backup is the game as it was: old format, same moves, openable by SQLite.
    assert meta_value(backup, "schema_version") == "0"
    assert meta_value(backup, "migrated") is None
    conn = sqlite3.connect(backup)
    assert conn.execute("SELECT COUNT(*) FROM records").fetchone() == (4,)
    conn.close()
    assert sha(path) != original
    # Opening again: already current, no second migration or backup.
    with EventStore.open(path):
        pass
    assert calls == [1]
    assert sorted(p.name for p in path.parent.glob("*.bak")) == ["old.gumshoe.v0.bak"]


def test_existing_backup_is_never_overwritten(v0_file):
    path, _ = v0_file
    precious = path.with_name("old.gumshoe.v0.bak")
    precious.write_bytes(b"an earlier backup the family wants to keep")
    with EventStore.open(path) as s:
        assert s.backup_path == path.with_name("old.gumshoe.v0.2.bak")
    assert precious.read_bytes() == b"an earlier backup the family wants to keep"
    assert meta_value(path.with_name("old.gumshoe.v0.2.bak"), "schema_version") == "0"


def test_failed_migration_leaves_the_file_at_its_old_version(v0_file, monkeypatch):
    path, _ = v0_file

    def broken(conn):
        conn.execute("INSERT INTO meta (key, value) VALUES ('half', 'done')")
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(store_module, "MIGRATIONS", {**store_module.MIGRATIONS, 0: broken})
    with pytest.raises(StoreError, match="old.gumshoe"):
        EventStore.open(path)
    assert meta_value(path, "schema_version") == "0"
    assert meta_value(path, "half") is None
    assert path.with_name("old.gumshoe.v0.bak").exists()


def test_older_file_without_a_migration_is_refused_untouched(v0_file, monkeypatch):
    path, _ = v0_file
    monkeypatch.setattr(store_module, "MIGRATIONS", {})
    before = sha(path)
    with pytest.raises(StoreError, match="format 0") as err:
        EventStore.open(path)
    assert "old.gumshoe" in str(err.value)
    assert sha(path) == before
    assert not list(path.parent.glob("*.bak"))


def test_newer_file_with_moves_still_in_its_wal_is_left_untouched(tmp_path):
    """A newer Gumshoe crashed (moves only in the -wal file); this one must not
    even fold the -wal into the file, let alone change it."""
    path = make_game(tmp_path / "future.gumshoe")
    script = (
        "import os, sqlite3, sys\n"
        "conn = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
        "conn.execute(\"UPDATE meta SET value = '99' WHERE key = 'schema_version'\")\n"
        "os._exit(0)  # no close, no checkpoint: like a crash\n"
    )
    subprocess.run([sys.executable, "-c", script, str(path)], check=True)
    wal = path.with_name(path.name + "-wal")
    assert wal.stat().st_size > 0
    before = (sha(path), sha(wal))
    with pytest.raises(StoreTooNew, match="future.gumshoe"):
        EventStore.open(path)
    with pytest.raises(StoreTooNew):
        EventStore.summary(path)
    assert (sha(path), sha(wal)) == before
