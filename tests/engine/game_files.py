"""Game files written behind the store's back, for the tests.

``write_v1`` writes file format 1 (the first release: no record checksums) with the same SQL
the store of that version ran, so a test opens a file a family really has on disk.
``reseal`` makes the checksums of a file edited with SQL match again: the file a buggy or
hostile writer would leave, whose content (not its checksums) a test is about.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from engine import store
from engine.session import Session
from engine.store import APPLICATION_ID

# The tables of file format 1 as families have them on disk, verbatim. A copy on purpose, not
# engine.store._SCHEMA_V1: if the store's definition ever changed, new files would no longer
# match updated old ones, and test_a_new_file_has_the_same_tables_as_an_updated_old_one says so.
SCHEMA_V1 = """
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE records (
    seq    INTEGER PRIMARY KEY,
    at     TEXT NOT NULL,
    record TEXT NOT NULL
);
CREATE TABLE events (
    seq   INTEGER NOT NULL REFERENCES records(seq),
    idx   INTEGER NOT NULL,
    event TEXT NOT NULL,
    PRIMARY KEY (seq, idx)
) WITHOUT ROWID;
"""


def _dumps(value) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, sort_keys=True, allow_nan=False)


def write_v1(path: Path, header: dict, moves: list[tuple[dict, list[dict]]]) -> Path:
    """A closed format-1 game file holding ``moves`` (record, events), as Gumshoe 1 saved it."""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("BEGIN IMMEDIATE")
        for statement in SCHEMA_V1.split(";"):
            if statement.strip():
                conn.execute(statement)
        now = "2026-01-10T18:40:00.000+00:00"
        conn.executemany("INSERT INTO meta (key, value) VALUES (?, ?)",
                         [("schema_version", "1"), ("header", _dumps(header)), ("created_at", now),
                          ("updated_at", now)])
        conn.execute("COMMIT")
        for seq, (record, events) in enumerate(moves, 1):
            conn.execute("BEGIN IMMEDIATE")
            conn.execute("INSERT INTO records (seq, at, record) VALUES (?, ?, ?)", (seq, now, _dumps(record)))
            conn.executemany("INSERT INTO events (seq, idx, event) VALUES (?, ?, ?)",
                             [(seq, i, _dumps(e)) for i, e in enumerate(events)])
            conn.execute("COMMIT")
    finally:
        conn.close()
    return path


def played_moves(game: str, players: list[str], options: dict, actions: list[dict]) -> list[tuple[dict, list[dict]]]:
    """(record, events) for each action, as the session saves them."""
    session = Session.new(game, players, options)
    moves = []
    for action in actions:
        events = session.apply(action)
        moves.append((session.done[-1].to_json(), [e.to_json() for e in events]))
    return moves


def reseal(path: Path) -> None:
    """Recompute every checksum of a (current format) file, as the store computes them."""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        rows = conn.execute("SELECT seq, CAST(at AS BLOB), CAST(record AS BLOB) FROM records").fetchall()
        conn.executemany("UPDATE records SET crc = ? WHERE seq = ?",
                         [(store._record_crc(seq, at, record), seq) for seq, at, record in rows])
        rows = conn.execute("SELECT seq, idx, CAST(event AS BLOB) FROM events").fetchall()
        conn.executemany("UPDATE events SET crc = ? WHERE seq = ? AND idx = ?",
                         [(store._event_crc(seq, idx, event), seq, idx) for seq, idx, event in rows])
        (header,) = conn.execute("SELECT CAST(value AS BLOB) FROM meta WHERE key = 'header'").fetchone()
        conn.execute("UPDATE meta SET value = ? WHERE key = 'header_crc'", (str(store._header_crc(header)),))
    finally:
        conn.close()
