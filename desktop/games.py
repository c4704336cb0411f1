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

from engine.errors import BadInput, RuleViolation
from engine.events import Event
from engine.game import Assist
from engine.games import GameInfo, game_info
from engine.paths import user_dir
from engine.session import PlayerView, Session
from engine.store import EventStore, StoreError

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
    state: str = ""             # "Julie's turn" or "finished: " and the game's verdict
    finished: bool = False
    game: str = ""              # the game's title on the shelf

    def line(self) -> str:
        """One line of the resume list."""
        if self.problem:
            return f"{self.path.name}: cannot be opened ({self.problem})"
        moves = f" \u2014 {self.moves} moves" if self.moves is not None else ""
        return f"{self.game}: {self.title} \u2014 {self.when}{moves} \u2014 {self.state}"


def _game_title(game: object) -> str:
    try:
        return game_info(str(game)).title
    except (BadInput, ValueError):
        return str(game)


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
        game = _game_title(header.get("game"))
        stamp = info.get("updated_at") or info.get("created_at")
        when = stamp.astimezone().strftime("%a %d %b, %H:%M") if stamp else ""
        try:
            # Replaying is cheap (about 0.1 s for 1,000 moves) and says where the game stands.
            seen = Session.preview(path)
        except (StoreError, RuleViolation, ValueError, KeyError) as exc:
            found.append(SavedGame(path, ", ".join(players), when, None, f"cannot be replayed ({exc})", game=game))
            continue
        finished = seen.outcome is not None
        state = f"finished: {seen.outcome.reason}" if seen.outcome else f"{seen.current}'s turn"
        found.append(SavedGame(path, ", ".join(seen.players), when, len(seen.undo_history()), None, state, finished,
                               game))
    return found


def bin_dir() -> Path:
    return games_dir() / "bin"


def move_to_bin(path: Path) -> Path:
    """Move a saved game (and SQLite's side files) to the bin folder; returns where it went."""
    folder = bin_dir()
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / path.name
    n = 2
    while target.exists():
        target = folder / f"{path.stem}_{n}{path.suffix}"
        n += 1
    path.rename(target)
    for side in ("-wal", "-shm"):
        extra = path.with_name(path.name + side)
        if extra.exists():
            extra.rename(target.with_name(target.name + side))
    return target


def restore_from_bin(binned: Path, original: Path) -> None:
    """Put a game back where it was (refuses to overwrite a file there)."""
    if original.exists():
        raise FileExistsError(f"{original.name} exists again; the binned copy stays in {binned.parent}")
    binned.rename(original)
    for side in ("-wal", "-shm"):
        extra = binned.with_name(binned.name + side)
        if extra.exists():
            extra.rename(original.with_name(original.name + side))


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
        self.game_id = session.rules.game_id
        self.info: GameInfo = game_info(self.game_id)
        self.assist = Assist(session.options.get("assist", Assist.FULL.value))
        # Demo mode: the virtual cards' true identities, dealt from a seed kept in the
        # game's own options so a resumed demo game deals the same cards.
        seed = session.options.get("demo_seed")
        self.simulator = session.rules.simulator(session.initial, seed) if seed is not None else None
        #: after the game: place -> card flipped to complete the story
        self.revealed: dict[str, str] = {}

    # --- opening -------------------------------------------------------------------
    @classmethod
    def new(cls, game_id: str, players: list[str], ages: Mapping[str, int], assist: Assist, *,
            options: Mapping[str, Any] | None = None, demo: bool = False,
            path: Path | None = None) -> "GameController":
        chosen: dict[str, Any] = {**dict(options or {}), "ages": dict(ages), "assist": Assist(assist).value}
        if demo:
            chosen["demo_seed"] = random.SystemRandom().randrange(1 << 30)
        path = path or new_game_path()
        return cls(Session.new(game_id, players, chosen, path=path), path)

    @classmethod
    def resume(cls, path: Path) -> "GameController":
        return cls(Session.resume(path), path)

    def close(self) -> None:
        self.session.close()

    # --- reading ---------------------------------------------------------------------
    @property
    def demo(self) -> bool:
        return self.simulator is not None

    @property
    def deck(self):
        return self.session.rules.deck

    def shared_view(self) -> PlayerView:
        return self.session.view(None)

    def kind_name(self, kind: str) -> str:
        return self.deck.kinds[kind].name

    def kind_index(self, kind: str) -> int:
        return list(self.deck.kinds).index(kind)

    def symbol_words(self, symbol: str) -> str:
        """A die face's symbol in the game's words (a card type's name, or the symbol itself)."""
        return self.kind_name(symbol) if symbol in self.deck.kinds else symbol.replace("-", " ").capitalize()

    def cards_of_kind(self, kind: str | None) -> list[tuple[str, str]]:
        """(card id, name) of every card of one type (every card: ``None``), alphabetical."""
        cards = self.deck.of_kind(kind) if kind is not None else list(self.deck.cards.values())
        return sorted(((c.id, c.name) for c in cards), key=lambda c: c[1])

    def kind_at(self, place: str) -> str | None:
        for card in self.shared_view().cards:
            if card.place == place:
                return card.kind
        return None

    def true_card_at(self, place: str) -> str | None:
        """Demo mode only: what the virtual card at a place really is."""
        if self.simulator is None:
            return None
        return self.simulator.card_at(self.session.state, place)

    def words(self, value: Any, viewer: str | None = None) -> str:
        """A place or a value as a player would say it ("your Top Loot card" to ``viewer``)."""
        return self.session.rules.place_words(self.session.state, str(value), viewer)

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
