"""Replay an action log (JSON Lines): each player's journal after every step, or the outcome.

Format: ``docs/replay-format.md``. The same files are golden regression tests.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from .errors import RuleViolation
from .game import Assist
from .session import Session, parse_header
from .store import EventStore

# A log line longer than this is not a hand-written or recorded action.
MAX_LINE_CHARS = 100_000


class LogError(ValueError):
    """An action log that cannot be read (not a replay problem: a file problem).

    The message is one line: the file, the line number where it is known, and what is wrong.
    """


def _parse_line(path: Path, n: int, raw: bytes) -> dict | None:
    """One line of a log: None for a blank or ``#`` line, else its JSON object."""
    try:
        line = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise LogError(f"{path}:{n}: not UTF-8 text (byte 0x{raw[exc.start]:02x} at column {exc.start + 1}); "
                       "save the file as UTF-8") from None
    if n == 1:
        line = line.removeprefix("\ufeff")       # a byte-order mark some editors write
    if not line.strip() or line.lstrip().startswith("#"):
        return None
    if len(line) > MAX_LINE_CHARS:
        raise LogError(f"{path}:{n}: the line is too long ({len(line)} characters) to be an action")
    try:
        record = json.loads(line)
    except json.JSONDecodeError as exc:
        raise LogError(f"{path}:{n}: not valid JSON ({exc.msg}, column {exc.colno})") from None
    except RecursionError:
        raise LogError(f"{path}:{n}: not usable JSON (nested too deeply)") from None
    except ValueError as exc:          # e.g. an integer with thousands of digits
        raise LogError(f"{path}:{n}: not usable JSON ({str(exc).split(';')[0]})") from None
    if not isinstance(record, dict):
        raise LogError(f"{path}:{n}: each line must be a JSON object")
    return record


def read_log(path: str | Path) -> tuple[dict, list[tuple[int, dict]]]:
    """The header and (line number, record) pairs. Blank lines and ``#`` lines are skipped.

    A saved game (the app's SQLite file) is read too, without writing to it: its records are
    the same actions; "line" numbers are then the move numbers.
    """
    path = Path(path)
    try:
        with open(path, "rb") as fh:
            is_saved_game = fh.read(16) == b"SQLite format 3\x00"
    except OSError as exc:
        raise LogError(f"{path}: cannot be read ({exc.strerror})") from None
    if is_saved_game:
        header, records = EventStore.read(path)
        return header, list(enumerate(records, 1))
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise LogError(f"{path}: cannot be read ({exc.strerror})") from None
    records = []
    for n, raw in enumerate(data.splitlines(), 1):
        record = _parse_line(path, n, raw)
        if record is not None:
            records.append((n, record))
    if not records or "game" not in records[0][1]:
        raise LogError(f"{path}: the first line must be the header, e.g. "
                       '{"game": "carmen-cards", "players": ["Ann", "Bob"]}')
    return records[0][1], records[1:]


def _start(path: str | Path, head: dict, line: int | None) -> Session:
    """The session a header describes, or ``LogError`` naming the header's line."""
    where = f"{path}:{line}" if line is not None else f"{path}"
    try:
        game, players, options = parse_header(head)
        return Session.new(game, players, options)
    except RuleViolation as exc:
        raise LogError(f"{where}: bad header: {exc.message}") from None
    except (ValueError, TypeError, KeyError) as exc:
        raise LogError(f"{where}: bad header: {exc}") from None


def _header_line(path: str | Path) -> int | None:
    """The line number of a text log's header (None for a saved game file)."""
    try:
        with open(path, "rb") as fh:
            if fh.read(16) == b"SQLite format 3\x00":
                return None
            fh.seek(0)
            for n, raw in enumerate(fh, 1):
                text = raw.decode("utf-8", "replace").strip()
                if text and not text.startswith("#"):
                    return n
    except OSError:
        pass
    return None


@dataclass
class Step:
    line: int
    record: dict
    words: str
    violation: dict | None = None
    verdicts: tuple[str, ...] = ()       # the public events of this step (verdicts, draws, turns)


@dataclass
class Replay:
    session: Session
    steps: list[Step] = field(default_factory=list)

    @property
    def violations(self) -> list[dict]:
        return [s.violation for s in self.steps if s.violation]


def replay(path: str | Path) -> Iterator[tuple[Session, Step]]:
    """Apply each record; a refused action is reported and changes nothing."""
    head, records = read_log(path)
    session = _start(path, head, _header_line(path))
    for n, record in records:
        try:
            logged = len(session.log)
            if record.get("type") == "undo":
                words = "undo: " + session.undo()
            elif record.get("type") == "redo":
                words = "redo: " + session.redo()
            else:
                before = session.state
                session.apply(record)
                words = session.rules.describe(before, session.done[-1])
            verdicts = () if record.get("type") == "undo" else tuple(
                e.text for e in session.log[logged:] if e.visibility.scope == "public")
            yield session, Step(n, record, words, verdicts=verdicts)
        except RuleViolation as exc:
            yield session, Step(n, record, f"refused: {exc.message}",
                                {"line": n, "action": record, "message": exc.message, "section": exc.section,
                                 "kind": type(exc).__name__})


def run(path: str | Path) -> Replay:
    result: Replay | None = None
    for session, step in replay(path):
        if result is None:
            result = Replay(session)
        result.steps.append(step)
    if result is None:
        head, _ = read_log(path)
        result = Replay(_start(path, head, _header_line(path)))
    return result


def outcome_json(result: Replay, assist: Assist = Assist.NOTES) -> dict[str, Any]:
    """The final outcome as one JSON object (see docs/replay-format.md)."""
    s = result.session
    out = s.outcome
    return {
        "game": s.rules.game_id,
        "players": list(s.players),
        "steps": len(result.steps),
        "winners": list(out.winners) if out else [],
        "losers": list(out.losers) if out else [],
        "reason": out.reason if out else None,
        "eliminated": list(s.state.eliminated),
        "journals": {p: s.journal(p, assist).as_places() for p in s.players},
        "violations": result.violations,
    }


def format_journals(session: Session, assist: Assist) -> str:
    lines = []
    for p in session.players:
        j = session.journal(p, assist)
        known = [f"{e.name}: {e.where}" for e in j.entries if e.where != "Unknown"]
        lines.append(f"  {p}: " + ("; ".join(known) if known else "(nothing seen yet)"))
        lines += [f"    * {d.text} ({d.reason})" for d in j.deductions]
    return "\n".join(lines)
