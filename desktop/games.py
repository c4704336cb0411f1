"""Saved games on disk, and the game controller every screen talks to.

The controller owns the engine ``Session``: screens never change game state
themselves, they send actions here and redraw when ``changed`` fires. Every
accepted action is already in the SQLite store when ``changed`` fires (the
engine commits before ``apply`` returns).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Mapping

from PySide6.QtCore import QObject, Signal

from engine.errors import RuleViolation
from engine.events import Event
from engine.game import Assist
from engine.paths import user_dir
from engine.session import PlayerView, Session
from engine.sim import Truth
from engine.store import EventStore, StoreError

GAME_ID = "carmen-cards"
SUFFIX = ".gumshoe"


def games_dir() -> Path:
    folder = user_dir() / "games"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def new_game_path() -> Path:
    stamp = datetime.now().strftime("%Y-%m-%d_%H-%M-%S")
    path = games_dir() / f"{stamp}{SUFFIX}"
    n = 2
    while path.exists():
        path = games_dir() / f"{stamp}_{n}{SUFFIX}"
        n += 1
    return path


@dataclass(frozen=True)
class SavedGame:
    path: Path
    title: str                  # "Julie, Amberley, Mark"
    when: str                   # "Sat 21 Nov, 18:40"
    moves: int | None
    problem: str | None = None  # a file that cannot be opened says why, instead of vanishing
    state: str = ""             # "Julie's turn" or "finished: Julie arrested Carmen Sandiego."
    finished: bool = False


def saved_games() -> list[SavedGame]:
    """Saved games, newest first, read without writing to any file."""
    found = []
    for path in sorted(games_dir().glob(f"*{SUFFIX}"), key=lambda p: p.stat().st_mtime, reverse=True):
        try:
            info = EventStore.summary(path)
        except (StoreError, OSError) as exc:
            found.append(SavedGame(path, path.stem, "", None, str(exc)))
            continue
        header = info.get("header") or {}
        players = header.get("players") or []
        stamp = info.get("updated_at") or info.get("created_at")
        when = stamp.astimezone().strftime("%a %d %b, %H:%M") if stamp else ""
        state, finished = "", False
        try:
            # Replaying is cheap (about 0.1 s for 1,000 moves) and says where the game stands.
            seen = Session.preview(path)
            finished = seen.outcome is not None
            state = f"finished: {seen.outcome.reason}" if seen.outcome else f"{seen.current}'s turn"
        except (StoreError, RuleViolation, ValueError, KeyError) as exc:
            found.append(SavedGame(path, ", ".join(players), when, info.get("records"), f"cannot be replayed ({exc})"))
            continue
        found.append(SavedGame(path, ", ".join(players), when, info.get("records"), None, state, finished))
    return found


class GameController(QObject):
    """One game in play: the session, its file, the assist level, and demo truth."""

    changed = Signal()
    #: the events of each accepted action (sounds follow them)
    applied = Signal(list)
    #: (previous current player, new current player): private screens close on a new turn
    turn_changed = Signal(str, str)

    def __init__(self, session: Session, path: Path | None) -> None:
        super().__init__()
        self.session = session
        self.path = path
        self.assist = Assist(session.options.get("assist", Assist.FULL.value))
        # Demo mode: the virtual cards' true identities, dealt from a seed kept in the
        # game's own options so a resumed demo game deals the same cards.
        seed = session.options.get("demo_seed")
        self.truth = Truth.deal(session.initial, random.Random(seed)) if seed is not None else None

    # --- opening -------------------------------------------------------------------
    @classmethod
    def new(cls, players: list[str], ages: Mapping[str, int], assist: Assist, *, demo: bool = False,
            path: Path | None = None) -> "GameController":
        options: dict[str, Any] = {"ages": dict(ages), "assist": Assist(assist).value}
        if demo:
            options["demo_seed"] = random.SystemRandom().randrange(1 << 30)
        path = path or new_game_path()
        return cls(Session.new(GAME_ID, players, options, path=path), path)

    @classmethod
    def resume(cls, path: Path) -> "GameController":
        return cls(Session.resume(path), path)

    def close(self) -> None:
        self.session.close()

    # --- reading ---------------------------------------------------------------------
    @property
    def demo(self) -> bool:
        return self.truth is not None

    @property
    def deck(self):
        return self.session.rules.deck

    def shared_view(self) -> PlayerView:
        return self.session.view(None)

    def kind_name(self, kind: str) -> str:
        return self.deck.kinds[kind].name

    def kind_index(self, kind: str) -> int:
        return list(self.deck.kinds).index(kind)

    def cards_of_kind(self, kind: str) -> list[tuple[str, str]]:
        """(card id, name) of every card of one type, alphabetical for quick finding."""
        return sorted(((c.id, c.name) for c in self.deck.of_kind(kind)), key=lambda c: c[1])

    def kind_at(self, place: str) -> str | None:
        for card in self.shared_view().cards:
            if card.place == place:
                return card.kind
        return None

    def true_card_at(self, place: str) -> str | None:
        """Demo mode only: what the virtual card at a place really is."""
        if self.truth is None:
            return None
        return self.truth.card_at(self.session.state, place)

    def slot_words(self, place: str, viewer: str | None = None) -> str:
        """'Julie's Top Loot card', 'your Top Loot card' (to ``viewer``), 'the center Loot card'."""
        parts = place.split("/")
        if parts[0] == "center" and len(parts) == 2:
            return f"the center {self.kind_name(parts[1])} card"
        if len(parts) == 3:
            owner, kind, slot = parts
            whose = "your" if owner == viewer else f"{owner}'s"
            return f"{whose} {slot.capitalize()} {self.kind_name(kind)} card"
        return place

    # --- playing ---------------------------------------------------------------------
    def apply(self, action: Mapping[str, Any]) -> list[Event]:
        """Send an action to the engine; raises RuleViolation (nothing changed) or returns events."""
        before = self.session.current
        events = self.session.apply(dict(action))
        self._after(before)
        self.applied.emit(events)
        return events

    def undo(self) -> str:
        before = self.session.current
        words = self.session.undo()
        self._after(before)
        return words

    def _after(self, before: str) -> None:
        self.changed.emit()
        now = self.session.current
        if now != before:
            self.turn_changed.emit(before, now)


def public_texts(events: list[Event]) -> list[str]:
    """Only what everyone may read: a peek's events include a private 'you saw X' line."""
    return [e.text for e in events if e.visibility.scope == "public"]


__all__ = ["GameController", "SavedGame", "saved_games", "public_texts", "RuleViolation"]
