"""The board and the question bank of "Where in the USA is Carmen Sandiego", read from assets.

- ``assets/boards/carmen-usa.toml``: the 24 landmarks (one Landmark Box each), the finale's
  timer by number of agents and a tile-grid map of the 50 states;
- ``assets/questions/carmen-usa-bank.json``: our own questions in three colour sets (written by
  ``assets/questions/make_bank.py``).

>>> board = load_board()
>>> len(board.landmarks), board.landmark("four-corners").name, board.timer_seconds[3]
(24, 'Four Corners', 35)
>>> bank = load_bank()
>>> q = bank.question("capital-of.MN")
>>> q.text, q.answer, len(q.options)
('What is the capital of Minnesota?', 'Saint Paul', 3)
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Mapping

from ...errors import BadInput
from ...paths import assets_dir, read_toml, user_dir

COLOURS_SETS = ("red", "blue", "black")
# Reading and Answering Questions: "the reader reads the three choices below the question".
CHOICES_PER_QUESTION = 3


class BoardDataError(BadInput):
    """The board or question file is missing or malformed (the message names the file)."""


@dataclass(frozen=True)
class Landmark:
    """One landmark and its Landmark Box."""

    id: str
    name: str
    state: str                 # postal abbreviation of the state it lies in (for drawing)
    lat: float
    lon: float
    row: str                   # "top" or "bottom" row of Landmark Boxes
    order: int
    verified: bool


@dataclass(frozen=True)
class Board:
    landmarks: tuple[Landmark, ...]
    timer_seconds: Mapping[int, int]       # agents -> seconds on the Catch Carmen timer
    tokens_per_agent: int
    tiles: Mapping[str, tuple[int, int]]   # state abbreviation -> (row, column) of the tile map
    warnings: tuple[str, ...] = ()          # a family's names file that could not be used, and why

    def landmark(self, landmark_id: str) -> Landmark:
        for lm in self.landmarks:
            if lm.id == landmark_id:
                return lm
        raise KeyError(landmark_id)

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(lm.id for lm in self.landmarks)


@dataclass(frozen=True)
class BoardGraph:
    """A family's own encoding of the board's spaces (the real board's are not public).

    ``spaces``: landmark -> the space it stands on; ``neighbours``: space -> spaces one move away
    (a "Fly to" space and its "Arrive from" space are simply neighbours).

    >>> g = BoardGraph({"a": "s1", "b": "s3"}, {"s1": ("s2",), "s2": ("s1", "s3"), "s3": ("s2",)})
    >>> g.distance("a", "b"), g.distance("a", "a")
    (2, 0)
    """

    spaces: Mapping[str, str]
    neighbours: Mapping[str, tuple[str, ...]]

    def distance(self, a: str, b: str) -> int | None:
        """Fewest moves from landmark ``a`` to landmark ``b`` (None: not connected or not on the graph)."""
        start, goal = self.spaces.get(a), self.spaces.get(b)
        if start is None or goal is None:
            return None
        seen, frontier, steps = {start}, [start], 0
        while frontier:
            if goal in frontier:
                return steps
            steps += 1
            frontier = [n for s in frontier for n in self.neighbours.get(s, ()) if n not in seen]
            seen.update(frontier)
        return None


def load_graph(board: Board, overrides_dir: Path | None = None) -> tuple[BoardGraph | None, str | None]:
    """The family's board graph from ``<user dir>/boards/carmen-usa-graph.toml``, if there is one::

        [landmarks]
        denali = "t1"
        [neighbours]
        t1 = ["t2"]

    Returns (graph or None, a warning when the file could not be used: then no distance is checked).
    Neighbours count both ways.
    """
    path = (overrides_dir or user_dir() / "boards") / "carmen-usa-graph.toml"
    if not path.exists():
        return None, None
    try:
        raw = read_toml(path, BoardDataError)
        spaces, links = raw.get("landmarks"), raw.get("neighbours")
        if not isinstance(spaces, dict) or not isinstance(links, dict):
            raise _fail(path, "needs a [landmarks] table (landmark = space) and a [neighbours] table")
        for lm, space in spaces.items():
            if lm not in board.ids or not isinstance(space, str):
                raise _fail(path, f"[landmarks] {lm!r} must be a landmark of this board, given a space name")
        both: dict[str, set[str]] = {}
        for space, near in links.items():
            if not isinstance(near, list) or not all(isinstance(n, str) for n in near):
                raise _fail(path, f"[neighbours] {space!r} must list space names")
            for n in near:
                both.setdefault(space, set()).add(n)
                both.setdefault(n, set()).add(space)
        return BoardGraph(dict(spaces), {k: tuple(sorted(v)) for k, v in both.items()}), None
    except BoardDataError as exc:
        return None, f"{exc.message}. Moves are not checked against the board."


@dataclass(frozen=True)
class Question:
    id: str
    set: str                   # "red", "blue" or "black"
    template: str
    difficulty: int
    text: str
    answer: str
    options: tuple[str, ...]   # the three choices: the answer and two wrong ones


@dataclass(frozen=True)
class Bank:
    questions: Mapping[str, Question]

    def question(self, qid: str) -> Question:
        return self.questions[qid]

    def of_set(self, colour: str) -> tuple[str, ...]:
        return tuple(q.id for q in self.questions.values() if q.set == colour)


def _fail(path: Path, what: str) -> BoardDataError:
    return BoardDataError(f"{path}: {what}")


def parse_board(path: Path) -> Board:
    raw = read_toml(path, BoardDataError)
    items = raw.get("landmarks")
    if not isinstance(items, list) or len(items) != 24:
        raise _fail(path, "needs exactly 24 [[landmarks]] (one per Landmark Box)")
    landmarks = []
    seen: set[str] = set()
    for n, lm in enumerate(items, 1):
        try:
            item = Landmark(str(lm["id"]), str(lm["name"]), str(lm["state"]), float(lm["lat"]), float(lm["lon"]),
                            str(lm["row"]), int(lm["order"]), bool(lm.get("verified", False)))
        except (KeyError, TypeError, ValueError) as exc:
            raise _fail(path, f"landmark #{n} is missing or has a bad field ({exc})") from None
        if item.id in seen or "/" in item.id or not item.id or item.id == "none":
            raise _fail(path, f"landmark #{n}: id {item.id!r} is empty, repeated or not allowed")
        if item.row not in ("top", "bottom"):
            raise _fail(path, f"landmark {item.id!r}: row must be 'top' or 'bottom'")
        seen.add(item.id)
        landmarks.append(item)
    finale = raw.get("finale", {})
    timer = finale.get("timer_seconds", {})
    try:
        timer_seconds = {int(k): int(v) for k, v in timer.items()}
    except (TypeError, ValueError):
        raise _fail(path, "[finale.timer_seconds] maps a number of agents to seconds") from None
    if sorted(timer_seconds) != [2, 3, 4, 5, 6]:
        raise _fail(path, "[finale.timer_seconds] needs 2, 3, 4, 5 and 6 agents")
    tiles = {}
    for state, rc in (raw.get("tiles") or {}).items():
        if not (isinstance(rc, list) and len(rc) == 2 and all(type(v) is int for v in rc)):
            raise _fail(path, f"[tiles] {state} must be [row, column]")
        tiles[state] = (rc[0], rc[1])
    return Board(tuple(landmarks), timer_seconds, int(finale.get("tokens_per_agent", 3)), tiles)


def parse_bank(path: Path) -> Bank:
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise _fail(path, "file not found") from None
    except (OSError, ValueError) as exc:
        raise _fail(path, f"cannot be read as JSON ({exc})") from None
    out: dict[str, Question] = {}
    for n, q in enumerate(raw.get("questions", []), 1):
        try:
            item = Question(q["id"], q["set"], q["template"], int(q["difficulty"]), q["text"], q["answer"],
                            tuple(q["options"]))
        except (KeyError, TypeError, ValueError) as exc:
            raise _fail(path, f"question #{n} is missing a field ({exc})") from None
        if item.set not in COLOURS_SETS or item.answer not in item.options or item.id in out:
            raise _fail(path, f"question {item.id!r}: bad colour set, answer not among its options, or repeated id")
        if len(set(item.options)) != CHOICES_PER_QUESTION or len(item.options) != CHOICES_PER_QUESTION:
            raise _fail(path, f"question {item.id!r}: needs {CHOICES_PER_QUESTION} different choices, "
                              f"has {len(item.options)}")
        out[item.id] = item
    for colour in COLOURS_SETS:
        if not any(q.set == colour for q in out.values()):
            raise _fail(path, f"no {colour} questions")
    return Bank(out)


def _names(path: Path, board: Board) -> dict[str, str]:
    """A family's landmark names (``[names]``: landmark id -> name), checked against the board."""
    names = read_toml(path, BoardDataError).get("names", {})
    if not isinstance(names, dict):
        raise _fail(path, '[names] must map a landmark id to its name, e.g. "denali" = "Mount McKinley"')
    for key, name in names.items():
        if key not in board.ids:
            raise _fail(path, f"[names] {key!r} is not a landmark of this board")
        if not isinstance(name, str) or not name.strip():
            raise _fail(path, f"[names] {key!r} needs a non-empty name")
    return names


@lru_cache(maxsize=8)
def _board(path: str) -> Board:
    return parse_board(Path(path))


@lru_cache(maxsize=8)
def _bank(path: str) -> Bank:
    return parse_bank(Path(path))


def load_board(folder: Path | None = None, overrides_dir: Path | None = None) -> Board:
    """The shipped board (``folder``: an ``assets`` folder to read instead), with the family's
    landmark names from ``<user dir>/boards/carmen-usa.toml`` when that file exists::

        [names]
        "new-orleans-jazz" = "French Quarter"
    """
    board = _board(str((folder or assets_dir()) / "boards" / "carmen-usa.toml"))
    path = (overrides_dir or user_dir() / "boards") / "carmen-usa.toml"
    if not path.exists():
        return board
    try:
        names = _names(path, board)
    except BoardDataError as exc:
        # Like a deck's corrections: a broken file never stops a game; the shipped names stay.
        return dataclasses.replace(board, warnings=(f"{exc.message}. The shipped landmark names are used.",))
    return dataclasses.replace(board, landmarks=tuple(
        dataclasses.replace(lm, name=names[lm.id].strip()) if lm.id in names else lm for lm in board.landmarks))


def load_bank(folder: Path | None = None) -> Bank:
    """The shipped question bank (``folder``: an ``assets`` folder to read instead)."""
    return _bank(str((folder or assets_dir()) / "questions" / "carmen-usa-bank.json"))
