"""Each saved record carries a checksum: a damaged one is named, never read back altered
(issue 27, item 6).

Before, a byte flipped inside a move on disk (a failing USB stick, a bad sector) could read back
as another move without a word: a face of 1 read as 0, a card id as another. Now every record,
every event and the header is stored with a CRC-32; reading (the resume list, resuming, viewing,
the replay tool) names the damaged record by its number. Games saved before checksums open, and
are updated (after a backup copy) like any older file format.
"""

from __future__ import annotations

import json
import random
import shutil
import sqlite3
import tempfile
from pathlib import Path

import pytest

from engine import store as store_module
from engine.errors import RuleViolation
from engine.replay import run
from engine.saves import describe_game, open_game, saved_games
from engine.session import Session
from engine.store import SCHEMA_VERSION, EventStore, StoreCorrupted, StoreError

from .game_files import played_moves, write_v1

GAME = ("carmen-cards", ["Ann", "Bob", "Cyd"], {"ages": {"Ann": 8, "Bob": 9, "Cyd": 11}})


def fast_dir() -> Path:
    shm = Path("/dev/shm")
    return Path(tempfile.mkdtemp(dir=shm if shm.is_dir() else None))


def played_game(path: Path, moves: int = 40, seed: int = 5) -> Session:
    """A closed game of real moves (the game's own simulator), some undone and redone."""
    game, players, options = GAME
    s = Session.new(game, players, options, path=path)
    sim = s.rules.simulator(s.initial, seed)
    rng = random.Random(seed)
    while len(s.store) < moves and s.outcome is None:
        s.apply(sim.random_action(s))
        if rng.random() < 0.1:
            s.undo()
            s.redo()
    s.close()
    return s


def stored(path: Path, sql: str) -> list[tuple]:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


def places(data: bytes, texts: dict[int, list[str]]) -> list[tuple[int, set[int]]]:
    """(byte offset, the numbers of the records whose text lies there) for every stored copy of
    every text: a text stored twice (two "end_turn" moves) may be either record."""
    by_text: dict[bytes, set[int]] = {}
    for n, items in texts.items():
        for text in items:
            by_text.setdefault(text.encode("utf-8"), set()).add(n)
    found = []
    for raw, numbers in by_text.items():
        at = data.find(raw)
        while at != -1:
            found.append((at, len(raw), numbers))
            at = data.find(raw, at + 1)
    return found


def flipped_copies(path: Path, texts: dict[int, list[str]], per_text: int, rng: random.Random):
    """Copies of ``path`` with one byte changed inside a stored text: (copy, records it may name)."""
    data = path.read_bytes()
    spots = places(data, texts)
    assert spots, "the texts were not found in the file"
    folder = fast_dir()
    k = 0
    for at, length, numbers in spots:
        chosen = {0, length - 1, *rng.sample(range(length), min(per_text, length))}
        for offset in sorted(chosen):
            damaged = bytearray(data)
            # One bit (a digit becomes a neighbouring digit: still valid JSON) or the whole byte.
            damaged[at + offset] ^= 0x01 if k % 2 else 0xFF
            copy = folder / f"copy-{k}.gumshoe"
            copy.write_bytes(bytes(damaged))
            k += 1
            yield copy, numbers
    shutil.rmtree(folder)


def test_a_flipped_byte_inside_any_move_is_refused_naming_the_record(tmp_path):
    path = tmp_path / "g.gumshoe"
    played_game(path)
    records = {seq: [text] for seq, text in stored(path, "SELECT seq, record FROM records")}
    assert len(records) >= 40
    copies = 0
    for copy, numbers in flipped_copies(path, records, per_text=4, rng=random.Random(1)):
        before = copy.read_bytes()
        for read in (EventStore.open, EventStore.summary, EventStore.read, Session.resume):
            with pytest.raises(StoreCorrupted) as refused:
                read(copy)
            message = str(refused.value)
            assert copy.name in message and "damaged" in message
            assert any(f"record {n} " in message for n in numbers), message
        assert copy.read_bytes() == before                  # refused, never written
        copies += 1
    assert copies > 200


def test_a_flipped_byte_in_an_event_or_the_header_is_refused_by_name(tmp_path):
    path = tmp_path / "g.gumshoe"
    played_game(path, moves=25)
    events: dict[int, list[str]] = {}
    for seq, text in stored(path, "SELECT seq, event FROM events"):
        events.setdefault(seq, []).append(text)
    for copy, numbers in flipped_copies(path, events, per_text=2, rng=random.Random(2)):
        with pytest.raises(StoreCorrupted) as refused:
            EventStore.open(copy)
        assert any(f"an event of record {n} " in str(refused.value) for n in numbers), str(refused.value)
    (header,) = stored(path, "SELECT value FROM meta WHERE key = 'header'")[0]
    for copy, _ in flipped_copies(path, {0: [header]}, per_text=30, rng=random.Random(3)):
        problem = describe_game(copy).problem
        assert problem and "header" in problem, problem
        with pytest.raises(StoreCorrupted, match="header"):
            Session.resume(copy)


def test_an_untouched_file_opens_and_resumes_identically(tmp_path):
    path = tmp_path / "g.gumshoe"
    live = played_game(path)
    copy = tmp_path / "copy.gumshoe"
    shutil.copyfile(path, copy)
    again = Session.resume(copy)
    assert again.state.current == live.state.current and len(again.done) == len(live.done)
    assert [again.view(p) for p in again.players] == [live.view(p) for p in live.players]
    again.close()
    assert describe_game(copy).resumable
    assert len(run(copy).steps) == len(EventStore.read(copy)[1])


def test_the_write_path_stores_a_checksum_with_every_record_and_event(tmp_path):
    path = tmp_path / "g.gumshoe"
    played_game(path, moves=10)
    assert SCHEMA_VERSION == 2
    assert all(isinstance(crc, int) for (crc,) in stored(path, "SELECT crc FROM records"))
    assert all(isinstance(crc, int) for (crc,) in stored(path, "SELECT crc FROM events"))
    assert stored(path, "SELECT value FROM meta WHERE key = 'header_crc'")


# ------------------------------------------------------------ games saved before checksums


def old_game(path: Path) -> tuple[Path, list]:
    game, players, options = GAME
    actions = [{"type": "roll", "player": "Ann", "face": 1},
               {"type": "peek", "player": "Ann", "slot": "Ann/loot/top", "card": "carmen.loot.hudson-bay"},
               {"type": "end_turn", "player": "Ann"},
               {"type": "roll", "player": "Bob", "face": 3}]
    moves = played_moves(game, players, options, actions)
    write_v1(path, {"game": game, "players": players, "options": options}, moves)
    return path, moves


def test_a_game_saved_before_checksums_is_listed_opened_and_updated(tmp_path):
    path, moves = old_game(tmp_path / "old.gumshoe")
    before = path.read_bytes()
    (listed,) = saved_games(tmp_path)
    assert listed.resumable and listed.needs_update and listed.moves == 4
    assert path.read_bytes() == before                       # listing does not update it
    assert [r for r in EventStore.read(path)[1]] == [r for r, _ in moves]
    assert len(run(path).steps) == 4 and path.read_bytes() == before

    session = open_game(path)                                # updates it, after a backup copy
    backup = session.store.backup_path
    assert len(session.done) == 4 and session.current == "Bob"
    session.apply({"type": "peek", "player": "Bob", "slot": "Bob/henchman/top", "card": "carmen.henchman.robin-banks"})
    session.close()
    # The backup is the old file as it was: format 1, the same moves, no checksums.
    assert backup is not None and stored(backup, "SELECT value FROM meta WHERE key = 'schema_version'") == [("1",)]
    assert stored(backup, "SELECT record FROM records") == [(json.dumps(r, separators=(",", ":"), sort_keys=True),)
                                                           for r, _ in moves]
    assert "crc" not in json.dumps(stored(backup, "SELECT sql FROM sqlite_master"))
    assert EventStore.summary(path)["schema_version"] == SCHEMA_VERSION
    again = Session.resume(path)
    assert len(again.done) == 5
    again.close()
    # The updated file is checked like a new one.
    texts = {seq: [t] for seq, t in stored(path, "SELECT seq, record FROM records")}
    for copy, numbers in flipped_copies(path, texts, per_text=3, rng=random.Random(4)):
        with pytest.raises(StoreCorrupted) as refused:
            Session.resume(copy)
        assert any(f"record {n} " in str(refused.value) for n in numbers)


def test_a_new_file_has_the_same_tables_as_an_updated_old_one(tmp_path):
    """New games are made as format 1 and updated in place, so there is one definition."""
    old, _ = old_game(tmp_path / "old.gumshoe")
    open_game(old).close()
    new = tmp_path / "new.gumshoe"
    Session.new(*GAME, path=new).close()
    schema = "SELECT type, name, sql FROM sqlite_master ORDER BY name"
    assert stored(old, schema) == stored(new, schema)
    keys = "SELECT key FROM meta ORDER BY key"
    assert stored(old, keys) == stored(new, keys)


def test_a_failed_update_to_checksums_leaves_the_old_file(tmp_path, monkeypatch):
    path, _ = old_game(tmp_path / "old.gumshoe")
    before = path.read_bytes()

    def broken(conn):
        store_module._add_checksums(conn)
        raise OSError("the stick was pulled")

    monkeypatch.setitem(store_module.MIGRATIONS, 1, broken)
    with pytest.raises(StoreError, match="has not been changed"):
        open_game(path)
    assert stored(path, "SELECT value FROM meta WHERE key = 'schema_version'") == [("1",)]
    assert "crc" not in json.dumps(stored(path, "SELECT sql FROM sqlite_master"))
    monkeypatch.undo()
    open_game(path).close()
    assert path.read_bytes() != before


def test_a_record_edited_behind_the_stores_back_is_refused_even_as_valid_json(tmp_path):
    """The case that read back altered: a move changed into another valid move."""
    path = tmp_path / "g.gumshoe"
    played_game(path, moves=5)
    conn = sqlite3.connect(path)
    conn.execute("""UPDATE records SET record = '{"face":2,"player":"Ann","type":"roll"}' WHERE seq = 1""")
    conn.commit()
    conn.close()
    with pytest.raises(StoreCorrupted, match="record 1 "):
        Session.resume(path)
    problem = describe_game(path).problem
    assert problem and "record 1 " in problem
    with pytest.raises((StoreError, RuleViolation)):
        open_game(path)
