"""The game file: an append-only SQLite event store (see DESIGN.md, "Store").

Each accepted action record is committed, together with the events it produced,
in one transaction before ``append`` returns, so pulling the plug never loses an
acknowledged move and never leaves half of one. Resuming a game is replaying
``records()``.

    >>> with EventStore.create("game.gumshoe", {"game": "carmen"}) as store:
    ...     store.append({"action": "roll", "face": 3}, [{"kind": "rolled"}])
    1
    >>> with EventStore.open("game.gumshoe") as store:
    ...     store.records()
    [{'action': 'roll', 'face': 3}]

Every record, every event and the header is stored with its CRC-32 (file format 2):
a byte changed on disk (a failing USB stick, a bad sector) is reported as damage,
naming the record, instead of being read back as another move.

Files that are corrupted, or written by a newer program, raise a ``StoreError``
and are never written to. Older files are copied to ``<name>.v<old>.bak`` before
they are migrated.

Pure standard library (sqlite3, json, zlib): the engine must not depend on Qt.
"""

from __future__ import annotations

import json
import os
import pathlib
import shutil
import sqlite3
import tempfile
import uuid
import zlib
from collections.abc import Callable
from datetime import datetime, timezone
from typing import Any

__all__ = [
    "SCHEMA_VERSION",
    "MIGRATIONS",
    "EventStore",
    "StoreError",
    "StoreCorrupted",
    "StoreTooNew",
    "StoreLocked",
    "StoreReadOnly",
    "read_only_reason",
]

SCHEMA_VERSION: int = 2

# PRAGMA application_id lets us tell our files from any other SQLite database
# (a photo library, a browser profile...) before looking at a single table.
APPLICATION_ID = 0x47534852  # "GSHR"

_MAGIC = b"SQLite format 3\x00"

# Every version of the file format keeps the `meta` key/value table with the
# keys below, so that any version can be identified, summarised and migrated.
# A new file is made in format 1 and migrated (MIGRATIONS), so a new file and
# an updated old one have the same tables.
_SCHEMA_V1 = """
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



def _record_crc(seq: int, at: bytes, record: bytes) -> int:
    # Over the bytes as stored (read back with CAST(... AS BLOB), so a byte that is no
    # longer UTF-8 is still checked), with the number, so a record moved is damage too.
    return zlib.crc32(b"%d\x00%s\x00%s" % (seq, at, record))


def _event_crc(seq: int, idx: int, event: bytes) -> int:
    return zlib.crc32(b"%d\x00%d\x00%s" % (seq, idx, event))


def _header_crc(header: bytes) -> int:
    return zlib.crc32(header)


def _add_checksums(conn: sqlite3.Connection) -> None:
    """Format 1 -> 2: a CRC-32 for every record and event, and the header's in `meta`.

    The checksums are of the rows as they are: a format-1 file was checked (JSON,
    numbering) when it was opened, and this is the last moment its bytes can be vouched for.
    """
    conn.execute("ALTER TABLE records ADD COLUMN crc INTEGER")
    conn.execute("ALTER TABLE events ADD COLUMN crc INTEGER")
    rows = conn.execute("SELECT seq, CAST(at AS BLOB), CAST(record AS BLOB) FROM records").fetchall()
    conn.executemany("UPDATE records SET crc = ? WHERE seq = ?",
                     [(_record_crc(seq, at, record), seq) for seq, at, record in rows])
    rows = conn.execute("SELECT seq, idx, CAST(event AS BLOB) FROM events").fetchall()
    conn.executemany("UPDATE events SET crc = ? WHERE seq = ? AND idx = ?",
                     [(_event_crc(seq, idx, event), seq, idx) for seq, idx, event in rows])
    (header,) = conn.execute("SELECT CAST(value AS BLOB) FROM meta WHERE key = 'header'").fetchone()
    conn.execute("INSERT INTO meta (key, value) VALUES ('header_crc', ?)", (str(_header_crc(header)),))


# MIGRATIONS[v] upgrades an open connection, inside a transaction, from
# version v to v + 1.
MIGRATIONS: dict[int, Callable[[sqlite3.Connection], None]] = {1: _add_checksums}

# How long to wait for another connection before calling the file locked.
# Short: the only other writer we expect is another copy of the app, which
# holds the lock for the whole game.
_BUSY_TIMEOUT_S = 0.5


class StoreError(Exception):
    """Something is wrong with a game file; the message says what, in plain words."""


class StoreCorrupted(StoreError):
    """The file is not a game file, or it is damaged."""


class StoreTooNew(StoreError):
    """The file was written by a newer version of the program."""


class StoreLocked(StoreError):
    """Another program (or another window) has the game open."""


class StoreReadOnly(StoreError):
    """A healthy game file that cannot be written (read-only file, folder or disk).

    It can still be read, viewed and replayed (:meth:`EventStore.read`,
    ``Session.open_readonly``); ``reason`` says in plain words why it cannot be continued.
    """

    def __init__(self, message: str, reason: str = "") -> None:
        super().__init__(message)
        self.reason = reason or message


# Errors SQLite (or Python's sqlite3 module) raises for a damaged or unreadable file: its own
# message may hold a byte that is not UTF-8 (a damaged schema), which the module reports as
# UnicodeDecodeError instead of sqlite3.Error; a deeply nested JSON record raises RecursionError.
_DB_ERRORS = (sqlite3.Error, UnicodeError, RecursionError, MemoryError)


def _say(exc: BaseException) -> str:
    """An exception's message, safe to show (never itself raising)."""
    try:
        text = str(exc)
    except Exception:
        text = type(exc).__name__
    return text.encode("utf-8", "replace").decode("utf-8")[:200] or type(exc).__name__


def read_only_reason(path: str | os.PathLike) -> str | None:
    """Why a game file cannot be written, in plain words, or None when it can.

    >>> read_only_reason("no-such-folder/g.gumshoe") is None
    True
    """
    path = pathlib.Path(path)
    folder = path.parent if str(path.parent) else pathlib.Path(".")
    try:
        st = os.statvfs(folder) if hasattr(os, "statvfs") else None
    except OSError:
        st = None
    if st is not None and st.f_flag & getattr(os, "ST_RDONLY", 1):
        return "it is on a disk that cannot be written to (read-only)"
    if path.exists() and not os.access(path, os.W_OK):
        return "the file is read-only"
    if folder.exists() and not os.access(folder, os.W_OK | os.X_OK):
        return "its folder is read-only"
    for side in ("-wal", "-shm"):
        extra = path.with_name(path.name + side)
        if extra.exists() and not os.access(extra, os.W_OK):
            return f"its '{extra.name}' file is read-only"
    return None


def _dumps(value: Any) -> str:
    # Compact and canonical, so equal records are equal bytes on disk;
    # allow_nan=False because NaN is not JSON and other readers would choke.
    return json.dumps(
        value, separators=(",", ":"), ensure_ascii=False, sort_keys=True, allow_nan=False
    )


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


def _parse_time(text: str | None) -> datetime | None:
    if text is None:
        return None
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        return None


def _name(path: pathlib.Path) -> str:
    return f"'{path}'"


def _is_locked(exc: sqlite3.Error) -> bool:
    text = str(exc).lower()
    return "locked" in text or "busy" in text


def _fsync_dir(directory: pathlib.Path) -> None:
    # A new file's name is only durable once its directory is synced (POSIX).
    # Windows cannot open directories; NTFS journals the metadata itself.
    if os.name != "posix":
        return
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _check_magic(path: pathlib.Path) -> None:
    """Refuse anything that is not an SQLite file *before* SQLite touches it:
    SQLite treats an empty file as a new database and would write to it."""
    try:
        with open(path, "rb") as f:
            head = f.read(100)
    except FileNotFoundError:
        raise StoreError(f"The game file {_name(path)} does not exist.") from None
    except IsADirectoryError:
        raise StoreError(f"{_name(path)} is a folder, not a game file.") from None
    except PermissionError:
        raise StoreError(f"This program is not allowed to read {_name(path)}.") from None
    except OSError as exc:
        raise StoreError(f"Could not read {_name(path)}: {exc.strerror or exc}.") from None
    if not head:
        raise StoreCorrupted(f"The game file {_name(path)} is empty: it holds no game.")
    if not head.startswith(_MAGIC):
        raise StoreCorrupted(
            f"{_name(path)} is not a Gumshoe game file (it is not an SQLite database)."
        )
    if len(head) < 100:
        raise StoreCorrupted(f"The game file {_name(path)} is cut short: it is damaged.")


def _connect_ro(path: pathlib.Path) -> sqlite3.Connection:
    # mode=ro: validation must not change a byte of a file we may reject.
    uri = path.resolve().as_uri() + "?mode=ro"
    try:
        conn = sqlite3.connect(uri, uri=True, timeout=_BUSY_TIMEOUT_S, isolation_level=None)
    except _DB_ERRORS as exc:
        raise StoreCorrupted(f"Could not open {_name(path)}: {_say(exc)}.") from exc
    return conn


def _locked_error(path: pathlib.Path) -> StoreLocked:
    return StoreLocked(
        f"The game file {_name(path)} is open in another window or program. "
        "Close it there first."
    )


def _read_meta(conn: sqlite3.Connection, path: pathlib.Path) -> dict[str, str]:
    """Identify the file and read its meta table (any schema version)."""
    (app_id,) = conn.execute("PRAGMA application_id").fetchone()
    tables = {
        row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
    }
    if app_id != APPLICATION_ID or "meta" not in tables:
        raise StoreCorrupted(
            f"{_name(path)} is an SQLite database, but not a Gumshoe game file."
        )
    # As bytes: a damaged entry that is no longer UTF-8 is named, not an SQLite error.
    raw = {_text(key): value for key, value in
           conn.execute("SELECT CAST(key AS BLOB), CAST(value AS BLOB) FROM meta").fetchall()}
    for key in ("schema_version", "header", "created_at", "updated_at"):
        if key not in raw:
            raise StoreCorrupted(
                f"The game file {_name(path)} is damaged: its '{key}' entry is missing."
            )
    meta: dict[str, Any] = {key: _text(value) for key, value in raw.items()}
    try:
        meta["schema_version"] = int(meta["schema_version"])
    except (TypeError, ValueError):
        raise StoreCorrupted(
            f"The game file {_name(path)} is damaged: its version number is unreadable."
        ) from None
    if 2 <= meta["schema_version"] <= SCHEMA_VERSION:
        # Files of format 2 on vouch for their header (the game, players and options).
        if meta.get("header_crc") != str(_header_crc(raw["header"] or b"")):
            raise StoreCorrupted(
                f"The game file {_name(path)} is damaged: its header (the game, players and "
                "options) is not as it was saved (its checksum does not match)."
            )
    meta["header"] = _decode_dict(raw["header"], "the game header", path)
    return meta


def _text(value: Any) -> str:
    """A meta key or value read as bytes, as text (a damaged one with U+FFFD in it)."""
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return "" if value is None else str(value)


def _check_version(meta: dict[str, Any], path: pathlib.Path) -> int:
    version = meta["schema_version"]
    if version > SCHEMA_VERSION:
        raise StoreTooNew(
            f"The game file {_name(path)} was saved by a newer version of Gumshoe "
            f"(file format {version}; this program reads up to {SCHEMA_VERSION}). "
            "Update Gumshoe to open it; the file has not been changed."
        )
    if version < 0:
        raise StoreCorrupted(
            f"The game file {_name(path)} is damaged: its version number is {version}."
        )
    return version


def _decode_dict(text: Any, what: str, path: pathlib.Path) -> dict:
    try:
        if isinstance(text, bytes):
            text = text.decode("utf-8")     # json.loads would also guess UTF-16 and -32
        value = json.loads(text)
    except (TypeError, ValueError, RecursionError):
        raise StoreCorrupted(
            f"The game file {_name(path)} is damaged: {what} cannot be read."
        ) from None
    if not isinstance(value, dict):
        raise StoreCorrupted(
            f"The game file {_name(path)} is damaged: {what} is not a JSON object."
        )
    return value


def _quick_check(conn: sqlite3.Connection, path: pathlib.Path) -> None:
    rows = [row[0] for row in conn.execute("PRAGMA quick_check")]
    if rows != ["ok"]:
        raise StoreCorrupted(
            f"The game file {_name(path)} is damaged (SQLite integrity check: {rows[0]})."
        )


def _load(conn: sqlite3.Connection, path: pathlib.Path) -> tuple[list[dict], list[tuple[int, dict]]]:
    """Read and check every record and event of a current-version file."""
    tables = {
        row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
    }
    for table in ("records", "events"):
        if table not in tables:
            raise StoreCorrupted(
                f"The game file {_name(path)} is damaged: its '{table}' table is missing."
            )
    records: list[dict] = []
    for expected, (seq, at, text, crc) in enumerate(conn.execute(_RECORDS_SQL), start=1):
        if seq != expected:
            raise StoreCorrupted(
                f"The game file {_name(path)} is damaged: record {expected} is missing "
                f"(the next one stored is record {seq})."
            )
        records.append(_checked_record(seq, at, text, crc, path))
    events: list[tuple[int, dict]] = []
    last = (0, -1)
    for seq, idx, text, crc in conn.execute(_EVENTS_SQL):
        if not (isinstance(seq, int) and 1 <= seq <= len(records)):
            raise StoreCorrupted(
                f"The game file {_name(path)} is damaged: it has events for record {seq}, "
                "which is not stored."
            )
        expected_idx = last[1] + 1 if seq == last[0] else 0
        if idx != expected_idx:
            raise StoreCorrupted(
                f"The game file {_name(path)} is damaged: an event of record {seq} is missing."
            )
        events.append((seq, _checked_event(seq, idx, text, crc, path)))
        last = (seq, idx)
    return records, events


# Texts as bytes: the checksum is of the bytes stored, and a byte that is no longer UTF-8
# must be named with its record, not stop SQLite's own decoding halfway through the rows.
_RECORDS_SQL = "SELECT seq, CAST(at AS BLOB), CAST(record AS BLOB), crc FROM records ORDER BY seq"
_EVENTS_SQL = "SELECT seq, idx, CAST(event AS BLOB), crc FROM events ORDER BY seq, idx"


def _checked_record(seq: Any, at: Any, text: Any, crc: Any, path: pathlib.Path) -> dict:
    if not (isinstance(at, bytes) and isinstance(text, bytes) and isinstance(seq, int)
            and crc == _record_crc(seq, at, text)):
        raise StoreCorrupted(
            f"The game file {_name(path)} is damaged: record {seq} is not as it was saved "
            "(its checksum does not match)."
        )
    return _decode_dict(text, f"record {seq}", path)


def _checked_event(seq: int, idx: Any, text: Any, crc: Any, path: pathlib.Path) -> dict:
    if not (isinstance(text, bytes) and isinstance(idx, int) and crc == _event_crc(seq, idx, text)):
        raise StoreCorrupted(
            f"The game file {_name(path)} is damaged: an event of record {seq} is not as it "
            "was saved (its checksum does not match)."
        )
    return _decode_dict(text, f"an event of record {seq}", path)


def _inspect(path: pathlib.Path) -> tuple[dict[str, Any], int | None, sqlite3.Connection]:
    """Check a file read-only; return its meta table, record count and the
    read-only connection (the caller closes it; open() backs up through it)."""
    meta, records, conn = _inspect_records(path)
    return meta, None if records is None else len(records), conn


def _inspect_records(path: pathlib.Path) -> tuple[dict[str, Any], list[dict] | None, sqlite3.Connection]:
    """Like :func:`_inspect`, with the records themselves (None for an older layout).

    Every record and event is decoded and checked (current version only: an
    older layout is checked after migration instead). SQLite may create the
    -wal/-shm side files, but never changes the game file itself.
    """
    _check_magic(path)
    if read_only_reason(path) is not None:
        # SQLite cannot open a WAL file read-only where it may not create its -shm file
        # ("disk I/O error", "unable to open database file"): read a private copy instead.
        return _inspect_copy(path)
    return _inspect_at(path, path)


def _inspect_at(path: pathlib.Path, shown: pathlib.Path,
                migrate: bool = False) -> tuple[dict[str, Any], list[dict] | None, sqlite3.Connection]:
    """Read the file at ``path`` (``shown`` names it in messages). With ``migrate``
    (``path`` is a private copy) an older layout is updated in the copy and read."""
    conn = _connect_ro(path) if not migrate else _connect_copy(path, shown)
    try:
        try:
            conn.execute("BEGIN")  # one consistent snapshot for all the reads
            _quick_check(conn, shown)
            meta = _read_meta(conn, shown)
            version = _check_version(meta, shown)
            if migrate and version < SCHEMA_VERSION:
                _migrate(conn, shown, version, None)
                meta = _read_meta(conn, shown)
                version = SCHEMA_VERSION
            # Decoding everything costs ~10 ms per 1,000 moves; a resume list
            # that marks a damaged game beats one that fails when it is picked.
            records = _load(conn, shown)[0] if version == SCHEMA_VERSION else None
            conn.execute("COMMIT")
        except _DB_ERRORS as exc:
            if isinstance(exc, sqlite3.Error) and _is_locked(exc):
                raise _locked_error(shown) from exc
            raise StoreCorrupted(
                f"The game file {_name(shown)} is damaged and cannot be read ({_say(exc)})."
            ) from exc
        return meta, records, conn
    except BaseException:
        conn.close()
        raise


def _connect_copy(path: pathlib.Path, shown: pathlib.Path) -> sqlite3.Connection:
    try:
        return sqlite3.connect(path, timeout=_BUSY_TIMEOUT_S, isolation_level=None)
    except _DB_ERRORS as exc:
        raise StoreCorrupted(f"Could not open {_name(shown)}: {_say(exc)}.") from exc


def _inspect_copy(path: pathlib.Path, *, migrate: bool = False
                  ) -> tuple[dict[str, Any], list[dict] | None, sqlite3.Connection]:
    """Read a game through a private copy (with its -wal file, so moves not yet
    checkpointed after a crash are read too): the game file itself is never opened
    by SQLite, so nothing can be written to it. With ``migrate`` an older layout is
    updated in the copy only."""
    with tempfile.TemporaryDirectory(prefix="gumshoe-read-") as tmp:
        copy = pathlib.Path(tmp) / "game.gumshoe"
        try:
            shutil.copyfile(path, copy)
            wal = path.with_name(path.name + "-wal")
            if wal.exists():
                shutil.copyfile(wal, copy.with_name(copy.name + "-wal"))
        except PermissionError:
            raise StoreError(f"This program is not allowed to read {_name(path)}.") from None
        except OSError as exc:
            raise StoreError(f"Could not read {_name(path)}: {exc.strerror or exc}.") from None
        meta, records, conn = _inspect_at(copy, path, migrate=migrate)
        conn.close()
    # The copy is gone; callers only close the connection they get back.
    return meta, records, sqlite3.connect(":memory:")


def _migrate(conn: sqlite3.Connection, path: pathlib.Path, version: int,
             backup: pathlib.Path | None) -> None:
    """Run the migrations from ``version`` inside the caller's transaction."""
    for v in range(version, SCHEMA_VERSION):
        if v not in MIGRATIONS:
            raise StoreError(
                f"The game file {_name(path)} uses file format {version}, which "
                "this version of Gumshoe can no longer update."
            )
        try:
            MIGRATIONS[v](conn)
        except Exception as exc:
            raise StoreError(
                f"Could not update the game file {_name(path)} from file format "
                f"{v} ({_say(exc)}); it has not been changed"
                + (f" and a copy is in '{backup}'." if backup else ".")
            ) from exc
        conn.execute(
            "UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(v + 1),)
        )


def _backup_path(path: pathlib.Path, version: int) -> pathlib.Path:
    # Never overwrite an earlier backup: it may be the only copy of an old game.
    candidate = path.with_name(f"{path.name}.v{version}.bak")
    n = 2
    while candidate.exists():
        candidate = path.with_name(f"{path.name}.v{version}.{n}.bak")
        n += 1
    return candidate


def _make_backup(src: sqlite3.Connection, path: pathlib.Path, version: int) -> pathlib.Path:
    """Copy the file before a migration. The SQLite backup API (not a byte
    copy) so moves still in the -wal file after a crash are in the copy."""
    while True:
        target = _backup_path(path, version)
        try:
            fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            continue  # someone took the name between exists() and open()
        os.close(fd)
        break
    try:
        dst = sqlite3.connect(target)
        try:
            src.backup(dst)
        finally:
            dst.close()
        fd = os.open(target, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        _fsync_dir(target.parent)
    except BaseException as exc:
        try:
            target.unlink(missing_ok=True)
        except OSError:
            pass
        if isinstance(exc, (*_DB_ERRORS, OSError)):
            raise StoreError(
                f"Could not make a backup copy of {_name(path)} before updating it ({_say(exc)}); "
                "the file has not been changed."
            ) from exc
        raise
    return target


class EventStore:
    """One game file, open for appending. Use ``create`` or ``open``.

    >>> store = EventStore.create("game.gumshoe", {"game": "carmen", "players": ["Julie"]})
    >>> store.append({"action": "peek"}, [{"kind": "saw", "to": ["Julie"]}])
    1
    >>> len(store), store.header["game"]
    (1, 'carmen')
    >>> store.close()
    """

    path: pathlib.Path
    header: dict
    created_at: datetime | None
    updated_at: datetime | None
    backup_path: pathlib.Path | None

    def __init__(self, path: pathlib.Path, conn: sqlite3.Connection, meta: dict, count: int,
                 backup_path: pathlib.Path | None = None) -> None:
        # Private: callers use create() or open(), which check the file first.
        self.path = path
        self._conn: sqlite3.Connection | None = conn
        self.header = meta["header"]
        self.created_at = _parse_time(meta["created_at"])
        self.updated_at = _parse_time(meta["updated_at"])
        self.backup_path = backup_path
        self._count = count

    # ----------------------------------------------------------------- opening

    @classmethod
    def create(cls, path: str | os.PathLike, header: dict) -> "EventStore":
        """Start a new game file; refuse if ``path`` exists.

        >>> EventStore.create("game.gumshoe", {"game": "carmen"}).close()

        The file is built under a temporary name and then linked into place,
        so a crash during creation never leaves a half-made file at ``path``.
        """
        if not isinstance(header, dict):
            raise TypeError(f"the header must be a dict, not {type(header).__name__}")
        path = pathlib.Path(path)
        header_text = _dumps(header)
        if os.path.lexists(path):
            raise StoreError(
                f"{_name(path)} already exists; a new game will not overwrite it."
            )
        folder = path.parent if str(path.parent) else pathlib.Path(".")
        if not folder.is_dir():
            raise StoreError(
                f"Could not create the game file {_name(path)}: its folder does not exist."
            )
        reason = read_only_reason(path)
        if reason is not None:
            raise StoreReadOnly(
                f"A new game cannot be saved as {_name(path)}: {reason.replace('its folder', 'the folder')}. "
                "Choose a folder you can write to.", reason
            )
        tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex}.tmp")
        now = _now()
        try:
            conn = sqlite3.connect(tmp, isolation_level=None)
            try:
                conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                conn.execute("PRAGMA journal_mode = WAL")
                conn.execute("PRAGMA synchronous = FULL")
                conn.execute("BEGIN IMMEDIATE")
                for statement in _SCHEMA_V1.split(";"):
                    if statement.strip():
                        conn.execute(statement)
                conn.executemany(
                    "INSERT INTO meta (key, value) VALUES (?, ?)",
                    [
                        ("schema_version", "1"),
                        ("header", header_text),
                        ("created_at", now),
                        ("updated_at", now),
                    ],
                )
                # Made in format 1 and updated, so new and updated files have the same tables
                # (not _migrate: a full disk here is "could not create", not "could not update").
                for version in range(1, SCHEMA_VERSION):
                    MIGRATIONS[version](conn)
                conn.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(SCHEMA_VERSION),))
                conn.execute("COMMIT")
            finally:
                conn.close()  # checkpoints: the whole file is in `tmp` itself now
            _link_into_place(tmp, path)
        except _DB_ERRORS as exc:
            raise StoreError(f"Could not create the game file {_name(path)}: {_say(exc)}.") from exc
        except FileExistsError:
            raise StoreError(
                f"{_name(path)} already exists; a new game will not overwrite it."
            ) from None
        except OSError as exc:
            raise StoreError(
                f"Could not create the game file {_name(path)}: {exc.strerror or exc}."
            ) from exc
        finally:
            for leftover in (tmp, *(tmp.with_name(tmp.name + s) for s in ("-wal", "-shm", "-journal"))):
                try:
                    leftover.unlink()
                except OSError:
                    # Gone already, or the disk turned read-only: never hide the real error
                    # (a leftover is cleaned by engine.saves.clean_temp_files on the next start).
                    pass
        try:
            _fsync_dir(path.parent)
        except OSError as exc:
            raise StoreError(
                f"Could not save the new game file {_name(path)}: {exc.strerror or exc}."
            ) from exc
        return cls.open(path)

    @classmethod
    def open(cls, path: str | os.PathLike) -> "EventStore":
        """Open an existing game file for appending, after checking all of it.

        >>> EventStore.create("g.gumshoe", {"game": "carmen"}).close()
        >>> with EventStore.open("g.gumshoe") as store:
        ...     store.records()
        []

        Raises StoreCorrupted, StoreTooNew or StoreLocked (all StoreError);
        in those cases the file is left exactly as it was.
        """
        path = pathlib.Path(path)
        meta, _, ro = _inspect(path)
        reason = read_only_reason(path)
        if reason is not None:
            ro.close()
            raise StoreReadOnly(
                f"The game {_name(path)} can be viewed but not continued: {reason}.", reason
            )
        backup = None
        try:
            version = meta["schema_version"]
            if version < SCHEMA_VERSION:
                missing = [v for v in range(version, SCHEMA_VERSION) if v not in MIGRATIONS]
                if missing:
                    raise StoreError(
                        f"The game file {_name(path)} uses file format {version}, which "
                        "this version of Gumshoe can no longer update."
                    )
                backup = _make_backup(ro, path, version)
        finally:
            ro.close()
        return cls._open_rw(path, backup)

    @classmethod
    def _open_rw(cls, path: pathlib.Path, backup: pathlib.Path | None) -> "EventStore":
        # mode=rw: never let SQLite create a fresh empty file if ours vanished.
        uri = path.resolve().as_uri() + "?mode=rw"
        try:
            conn = sqlite3.connect(uri, uri=True, timeout=_BUSY_TIMEOUT_S, isolation_level=None)
        except _DB_ERRORS as exc:
            raise StoreError(f"Could not open {_name(path)} for writing: {_say(exc)}.") from exc
        try:
            # EXCLUSIVE: the write lock is kept until close(), so a second
            # window opening the same game gets StoreLocked instead of both
            # appending moves from two diverging games.
            conn.execute("PRAGMA locking_mode = EXCLUSIVE")
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = FULL")
            conn.execute("BEGIN IMMEDIATE")  # takes the lock; re-check under it
            meta = _read_meta(conn, path)
            version = _check_version(meta, path)
            _migrate(conn, path, version, backup)
            if version != SCHEMA_VERSION:
                meta = _read_meta(conn, path)
            records, _ = _load(conn, path)
            conn.execute("COMMIT")
        except BaseException as exc:
            try:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")  # a failed migration leaves the old file
            finally:
                conn.close()
            if isinstance(exc, _DB_ERRORS):
                if isinstance(exc, sqlite3.Error) and _is_locked(exc):
                    raise _locked_error(path) from exc
                reason = read_only_reason(path)
                if reason is not None:
                    raise StoreReadOnly(
                        f"The game {_name(path)} can be viewed but not continued: {reason}.", reason
                    ) from exc
                raise StoreCorrupted(
                    f"The game file {_name(path)} is damaged and cannot be read ({_say(exc)})."
                ) from exc
            raise
        return cls(path, conn, meta, len(records), backup)

    @staticmethod
    def summary(path: str | os.PathLike) -> dict:
        """What a "resume game" list shows, read without writing to the file.

        >>> with EventStore.create("g.gumshoe", {"game": "carmen"}) as store:
        ...     store.append({"action": "roll"}, [])
        1
        >>> EventStore.summary("g.gumshoe")["records"]
        1

        Returns ``{"path", "header", "records", "schema_version", "created_at",
        "updated_at"}``; ``records`` is None for an older file not yet updated.
        Raises StoreError (StoreLocked while the game is open elsewhere).
        """
        path = pathlib.Path(path)
        meta, count, ro = _inspect(path)
        ro.close()
        return {
            "path": path,
            "header": meta["header"],
            "records": count,
            "schema_version": meta["schema_version"],
            "created_at": _parse_time(meta["created_at"]),
            "updated_at": _parse_time(meta["updated_at"]),
        }

    @staticmethod
    def read(path: str | os.PathLike) -> tuple[dict, list[dict]]:
        """``(header, records)`` of a file, read without writing to it (for a preview).

        >>> with EventStore.create("g.gumshoe", {"game": "carmen"}) as store:
        ...     store.append({"action": "roll"}, [])
        1
        >>> EventStore.read("g.gumshoe")
        ({'game': 'carmen'}, [{'action': 'roll'}])

        Raises StoreError like :meth:`summary`. A read-only file is read too, and a file
        in an older layout is read through an updated private copy; neither is changed.
        """
        path = pathlib.Path(path)
        meta, records, ro = _inspect_records(path)
        ro.close()
        if records is None:
            # An older layout: updated in a private copy only (the file itself is updated,
            # after a backup, when the game is opened to be continued).
            meta, records, ro = _inspect_copy(path, migrate=True)
            ro.close()
            assert records is not None
        return meta["header"], records

    # ----------------------------------------------------------------- writing

    def append(self, record: dict, events: list[dict]) -> int:
        """Store one accepted action and its events atomically; return its seq.

        >>> with EventStore.create("g.gumshoe", {"game": "carmen"}) as store:
        ...     store.append({"action": "peek"}, [{"kind": "saw"}])
        ...     store.append({"action": "swap"}, [{"kind": "moved"}, {"kind": "moved"}])
        1
        2

        The move is committed and synced to disk when this returns.
        """
        conn = self._require_open()
        if not isinstance(record, dict):
            raise TypeError(f"a record must be a dict, not {type(record).__name__}")
        if not all(isinstance(e, dict) for e in events):
            raise TypeError("every event must be a dict")
        # Encode before the transaction: a value JSON cannot hold fails here,
        # with nothing written.
        record_text = _dumps(record)
        event_texts = [_dumps(e) for e in events]
        seq = self._count + 1
        now = _now()
        # "surrogatepass": a text SQLite cannot store fails below, inside the transaction.
        record_crc = _record_crc(seq, now.encode(), record_text.encode("utf-8", "surrogatepass"))
        event_rows = [(seq, i, text, _event_crc(seq, i, text.encode("utf-8", "surrogatepass")))
                      for i, text in enumerate(event_texts)]
        try:
            conn.execute("BEGIN IMMEDIATE")
            conn.execute(
                "INSERT INTO records (seq, at, record, crc) VALUES (?, ?, ?, ?)",
                (seq, now, record_text, record_crc),
            )
            conn.executemany("INSERT INTO events (seq, idx, event, crc) VALUES (?, ?, ?, ?)", event_rows)
            conn.execute("UPDATE meta SET value = ? WHERE key = 'updated_at'", (now,))
            conn.execute("COMMIT")
        except _DB_ERRORS as exc:
            try:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
            except _DB_ERRORS:
                pass
            raise StoreError(
                f"Could not save move {seq} to {_name(self.path)} ({_say(exc)}). "
                "The move was not recorded."
            ) from exc
        self._count = seq
        self.updated_at = _parse_time(now)
        return seq

    # ----------------------------------------------------------------- reading

    def records(self) -> list[dict]:
        """All action records, oldest first (read back from the file).

        >>> with EventStore.create("g.gumshoe", {"game": "carmen"}) as store:
        ...     _ = store.append({"action": "peek"}, [])
        ...     [r["action"] for r in store.records()]
        ['peek']
        """
        conn = self._require_open()
        try:
            return [
                _checked_record(seq, at, text, crc, self.path)
                for seq, at, text, crc in conn.execute(_RECORDS_SQL)
            ]
        except _DB_ERRORS as exc:
            raise StoreCorrupted(
                f"The game file {_name(self.path)} is damaged and cannot be read ({_say(exc)})."
            ) from exc

    def events(self) -> list[tuple[int, dict]]:
        """``(seq, event)`` for every event, in the order they happened.

        >>> with EventStore.create("g.gumshoe", {"game": "carmen"}) as store:
        ...     _ = store.append({"action": "peek"}, [{"kind": "saw", "to": ["Julie"]}])
        ...     store.events()[0]
        (1, {'kind': 'saw', 'to': ['Julie']})
        """
        conn = self._require_open()
        try:
            return [
                (seq, _checked_event(seq, idx, text, crc, self.path))
                for seq, idx, text, crc in conn.execute(_EVENTS_SQL)
            ]
        except _DB_ERRORS as exc:
            raise StoreCorrupted(
                f"The game file {_name(self.path)} is damaged and cannot be read ({_say(exc)})."
            ) from exc

    def __len__(self) -> int:
        return self._count

    # ---------------------------------------------------------------- closing

    def close(self) -> None:
        """Release the file (safe to call twice)."""
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    @property
    def closed(self) -> bool:
        return self._conn is None

    def __enter__(self) -> "EventStore":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self._conn is None else f"{self._count} records"
        return f"<EventStore {str(self.path)!r} {state}>"

    def _require_open(self) -> sqlite3.Connection:
        if self._conn is None:
            raise StoreError(f"The game file {_name(self.path)} has been closed.")
        return self._conn


def _link_into_place(tmp: pathlib.Path, path: pathlib.Path) -> None:
    """Give the finished file its name, failing (FileExistsError) if taken."""
    try:
        os.link(tmp, path)  # atomic, and never replaces an existing file
    except FileExistsError:
        raise
    except OSError:
        # Filesystems without hard links (FAT, some network shares).
        if os.name == "nt":
            os.rename(tmp, path)  # on Windows rename refuses an existing target
        else:
            if os.path.lexists(path):
                raise FileExistsError(path) from None
            os.rename(tmp, path)
