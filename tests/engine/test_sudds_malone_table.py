"""A known Sudds & Malone table for rule tests: a fixed deal and rolls, and short action helpers."""

from __future__ import annotations

from typing import Any

from engine.session import Session

LOCS = ("brooklyn", "flatbush", "queens", "east-side", "bensonhurst", "midtown", "downtown", "staten-island")


def FF(i: int) -> str:
    return f"sudds.flimflam.ff-{i:02d}"


def CASE(i: int) -> str:
    return f"sudds.case.case-{i:02d}"


def HUNCH(i: int) -> str:
    return f"sudds.hunch.hunch-{i:02d}"


def SUSPECT(name: str) -> str:
    return f"sudds.suspect.{name}"


# ff-02 .. ff-09 on the locations in board order; ff-01 (Stalk, covers suspect 1) on the Conspiracy.
CITY = {loc: FF(i) for i, loc in enumerate(LOCS, 2)}
DISPLAY = [CASE(1), CASE(2), CASE(3), CASE(4)]


def dice_for(players: tuple[str, ...], value: int = 1, **values: int) -> dict[str, int]:
    n = len(players) + (1 if len(players) == 2 else 0)
    dice = {f"{c}-{i}": value for c in ("white", "black", "grey") for i in range(1, n + 1)}
    dice.update({f"personal-{p}": value for p in players})
    dice.update({k.replace("_", "-"): v for k, v in values.items()})
    return dice


def new_game(players: tuple[str, ...] = ("Ann", "Bob"), deal: bool = True, roll: dict | None = None) -> Session:
    s = Session.new("sudds-malone", list(players), {"box_file": None})
    if deal:
        s.apply({"type": "deal", "player": players[0], "city": CITY, "conspiracy": FF(1), "display": DISPLAY})
        s.apply({"type": "roll", "player": players[0], "dice": roll or dice_for(players)})
    return s


def act(s: Session, kind: str, player: str | None = None, **fields: Any) -> list[str]:
    """Apply an action for whoever must act (or ``player``); returns the public texts."""
    who = player or s.prompt().player
    events = s.apply({"type": kind, "player": who, **fields})
    return [e.text for e in events if e.visibility.scope == "public"]


class LiveBoard:
    """A player's board in the session's current state (each action makes a new state)."""

    def __init__(self, s: Session, player: str) -> None:
        object.__setattr__(self, "_s", s)
        object.__setattr__(self, "_p", player)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._s.state.boards[self._p], name)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self._s.state.boards[self._p], name, value)


def board(s: Session, player: str) -> Any:
    return LiveBoard(s, player)
