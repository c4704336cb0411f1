"""The family's saved games in a folder: list them, open them, move them to a bin and back.

Every function here is safe to call on start: an odd file (damaged, from a newer or older
version, read-only, a game this version does not know) is listed with its problem, never
stops the app. Nothing here writes to a game file; only :func:`open_game` may (it updates
an older file format after making a backup, see :mod:`engine.store`).

>>> from engine.session import Session
>>> s = Session.new("carmen-cards", ["Ann", "Bob"], path="g.gumshoe")
>>> _ = s.apply({"type": "roll", "player": "Ann", "face": 1}); s.close()
>>> [(g.title, g.state, g.moves, g.resumable) for g in saved_games(".")]
[('Ann, Bob', "Ann's turn", 1, True)]
>>> binned = move_to_bin("g.gumshoe")
>>> saved_games("."), binned.parent.name
([], 'bin')
>>> restore_from_bin(binned).name
'g.gumshoe'
"""

from __future__ import annotations

import os
import re
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from .errors import RuleViolation
from .session import HeaderError, Session, parse_header
from .store import EventStore, StoreError, StoreLocked, read_only_reason

SUFFIX = ".gumshoe"
BIN = "bin"
SIDE_FILES = ("-wal", "-shm")
# EventStore.create builds ".<name>.<uuid hex>.tmp" (and SQLite its -wal/-shm/-journal).
_TEMP = re.compile(r"^\..+\.[0-9a-f]{32}\.tmp(?:-wal|-shm|-journal)?$")
#: a temporary file younger than this may belong to a game being created right now
TEMP_MIN_AGE_S = 60.0


@dataclass(frozen=True)
class SavedGame:
    """One saved game as a resume list shows it.

    ``problem`` is set when the game cannot be opened at all (damaged, a newer version's,
    an unknown game); ``read_only`` when it can be viewed and replayed but not continued
    (and why). ``needs_update``: an older file format, updated (after a backup copy) when
    the game is opened; it is resumable all the same.
    """

    path: Path
    game: str | None                 # game id from the file ("carmen-cards")
    game_title: str                  # "Carmen Sandiego card game" (the id if unknown)
    players: tuple[str, ...]
    title: str                       # "Julie, Amberley, Mark"
    when: str                        # "Sat 21 Nov, 18:40" (local time of the last move)
    updated: datetime | None
    moves: int | None                # player actions standing (undone ones not counted)
    turns: int | None                # turns begun: "turn 16"
    state: str = ""                  # "Julie's turn" or "finished: Julie arrested Carmen Sandiego."
    current: str | None = None       # whose turn it is (None when finished or unknown)
    finished: bool = False
    problem: str | None = None
    read_only: str | None = None     # why it cannot be continued, in plain words
    needs_update: bool = False

    @property
    def resumable(self) -> bool:
        """It can be opened to play on (:func:`open_game`)."""
        return self.problem is None and self.read_only is None

    @property
    def viewable(self) -> bool:
        """It can be opened to look at and replay (:func:`open_game` with ``read_only=True``)."""
        return self.problem is None

    @property
    def summary(self) -> str:
        """One plain line: who, when, how far, where it stands (or what is wrong)."""
        if self.problem is not None:
            return f"{self.path.name}: cannot be opened ({self.problem})"
        parts = [self.title or self.path.stem]
        if self.when:
            parts.append(self.when)
        if self.turns is not None:
            parts.append(f"turn {self.turns}" if not self.finished else
                         f"{self.turns} turn{'' if self.turns == 1 else 's'}")
        if self.state:
            parts.append(self.state)
        if self.read_only:
            parts.append(self.read_only)
        elif self.needs_update:
            parts.append("saved by an older version: opening it updates it (a backup copy is kept)")
        return " \u2014 ".join(parts)


def _short(exc: BaseException) -> str:
    try:
        text = str(exc)
    except Exception:
        text = ""
    text = text.encode("utf-8", "replace").decode("utf-8")
    return (text or type(exc).__name__)[:300]


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def _game_title(game: str) -> str:
    try:
        from .games import game_info
        return game_info(game).title
    except Exception:
        return game


def describe_game(path: str | os.PathLike) -> SavedGame:
    """Where one saved game stands, read without writing to it. Never raises."""
    path = Path(path)
    try:
        return _describe(path)
    except Exception as exc:           # the resume list must show every file, whatever it holds
        return SavedGame(path, None, "", (), path.stem, "", None, None, None,
                         problem=f"cannot be read ({_short(exc)})")


def _describe(path: Path) -> SavedGame:
    def broken(problem: str, **known) -> SavedGame:
        fields = dict(game=None, game_title="", players=(), title=path.stem, when="", updated=None,
                      moves=None, turns=None)
        fields.update(known)
        return SavedGame(path, problem=problem, **fields)

    if not path.is_file():
        return broken("it is not a file")
    try:
        info = EventStore.summary(path)
    except StoreLocked:
        return broken("it is open in another window or program; close it there first")
    except StoreError as exc:
        return broken(_short(exc))
    stamp = info.get("updated_at") or info.get("created_at")
    if stamp is None:
        stamp = datetime.fromtimestamp(_mtime(path)).astimezone()
    try:
        when = stamp.astimezone().strftime("%a %d %b, %H:%M")
    except (ValueError, OverflowError, OSError):
        when = ""
    try:
        game, players, _ = parse_header(info.get("header"))
    except HeaderError as exc:
        return broken(f"its header is damaged: {exc.message}", when=when, updated=stamp)
    known = dict(game=game, game_title=_game_title(game), players=players, title=", ".join(players),
                 when=when, updated=stamp)
    try:
        seen = Session.preview(path)
    except StoreError as exc:
        return broken(_short(exc), **known)
    except RuleViolation as exc:
        return broken(f"it cannot be replayed: {exc.message}", **known)
    except Exception as exc:
        return broken(f"it cannot be replayed ({_short(exc)})", **known)
    outcome = seen.outcome
    reason = read_only_reason(path)
    return SavedGame(
        path, **known, moves=len(seen.done), turns=seen.turns,
        state=f"finished: {outcome.reason}" if outcome else f"{seen.current}'s turn",
        current=None if outcome else seen.current,
        finished=outcome is not None,
        read_only=f"it can be viewed but not continued: {reason}" if reason else None,
        needs_update=info.get("records") is None,
    )


def saved_games(folder: str | os.PathLike) -> list[SavedGame]:
    """Every ``*.gumshoe`` file in ``folder``, newest first, each with where it stands or
    its problem. Never raises: a folder that cannot be read gives an empty list."""
    folder = Path(folder)
    try:
        paths = [p for p in folder.glob(f"*{SUFFIX}") if not p.name.startswith(".")]
    except OSError:
        return []
    paths.sort(key=lambda p: (_mtime(p), p.name), reverse=True)
    return [describe_game(p) for p in paths]


def open_game(path: str | os.PathLike, *, read_only: bool = False) -> Session:
    """Open a saved game: to play on (an older format is updated, after a backup copy), or
    with ``read_only`` to view and replay it without ever writing to it.

    Raises ``StoreError`` (``StoreReadOnly`` when the game can only be viewed: its
    ``reason`` says why) or ``RuleViolation`` (the moves cannot be replayed).
    """
    if read_only:
        return Session.open_readonly(path)
    return Session.resume(path)


def clean_temp_files(folder: str | os.PathLike, min_age_s: float = TEMP_MIN_AGE_S) -> list[Path]:
    """Delete temporary files left by a game creation that was killed (``.<name>.<id>.tmp``
    and their ``-wal``/``-shm``/``-journal`` files) older than ``min_age_s``. Returns what
    was removed; never raises (a read-only folder just keeps them)."""
    folder = Path(folder)
    removed: list[Path] = []
    now = time.time()
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in entries:
        if not _TEMP.match(entry.name):
            continue
        try:
            if not entry.is_file(follow_symlinks=False):
                continue
            if now - entry.stat(follow_symlinks=False).st_mtime < min_age_s:
                continue
            os.unlink(entry.path)
        except OSError:
            continue
        removed.append(Path(entry.path))
    return removed


def _free_name(folder: Path, name: str) -> Path:
    target = folder / name
    stem = name[: -len(SUFFIX)] if name.endswith(SUFFIX) else name
    n = 2
    while any(os.path.lexists(target.with_name(target.name + s)) for s in ("", *SIDE_FILES)):
        target = folder / f"{stem} ({n}){SUFFIX}"
        n += 1
    return target


def _move(path: Path, target: Path, what: str) -> Path:
    """Move a game file (and any -wal/-shm beside it: moves not yet checkpointed) to ``target``."""
    try:
        EventStore.summary(path)
    except StoreLocked:
        raise StoreError(f"'{path.name}' is open in a window or another program; close it first.") from None
    except StoreError:
        pass                         # a damaged game may be binned (and restored) too
    moved: list[tuple[Path, Path]] = []
    try:
        for side in ("", *SIDE_FILES):
            src = path.with_name(path.name + side)
            if side and not src.exists():
                continue
            dst = target.with_name(target.name + side)
            os.rename(src, dst)
            moved.append((src, dst))
    except OSError as exc:
        for src, dst in reversed(moved):         # put back what was moved: all or nothing
            try:
                os.rename(dst, src)
            except OSError:
                pass
        reason = read_only_reason(path)
        raise StoreError(f"Could not {what} '{path.name}': "
                         f"{reason if reason else (exc.strerror or _short(exc))}.") from None
    return target


def move_to_bin(path: str | os.PathLike) -> Path:
    """Move a saved game into the ``bin`` folder beside it (a slip can be undone with
    :func:`restore_from_bin`); returns its new path. ``StoreError`` says why not."""
    path = Path(path)
    if not path.is_file():
        raise StoreError(f"'{path.name}' is not a saved game file.")
    bin_dir = path.parent / BIN
    try:
        bin_dir.mkdir(exist_ok=True)
    except OSError as exc:
        reason = read_only_reason(path)
        raise StoreError(f"Could not move '{path.name}' to the bin: "
                         f"{reason if reason else (exc.strerror or _short(exc))}.") from None
    return _move(path, _free_name(bin_dir, path.name), "move to the bin")


def restore_from_bin(path: str | os.PathLike) -> Path:
    """Put a game from the bin back among the saved games (renamed if its old name is taken)."""
    path = Path(path)
    if not path.is_file():
        raise StoreError(f"'{path.name}' is not in the bin any more.")
    games = path.parent.parent if path.parent.name == BIN else path.parent
    return _move(path, _free_name(games, path.name), "restore")


def binned_games(folder: str | os.PathLike) -> list[SavedGame]:
    """The games in ``folder``'s bin, newest first (as :func:`saved_games`)."""
    return saved_games(Path(folder) / BIN)
