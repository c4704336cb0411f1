"""Saved games on disk, and the game controller every screen talks to.

The controller owns the engine ``Session``: screens never change game state
themselves, they send actions here and redraw when ``changed`` fires. Every
accepted action is already in the SQLite store when ``changed`` fires (the
engine commits before ``apply`` returns).
"""

from __future__ import annotations

import errno
import os
import random
import sqlite3
from datetime import datetime
from pathlib import Path
from typing import Any, Mapping

from PySide6.QtCore import QObject, Signal

from engine.errors import BadInput, Contradiction, RuleViolation
from engine.events import Event
from engine.game import Assist, Option
from engine.games import GameInfo, game_info
from engine.paths import user_dir
from engine.session import PlayerView, Session
from engine import saves as engine_saves
from engine.saves import SavedGame
from engine.store import StoreError
from engine.table import Place

SUFFIX = ".gumshoe"


class MoveNotSaved(Exception):
    """A move (or an undo) the engine refused because it could not be written to the game file.

    Nothing changed: the game and its file are as they were before the move, and the move can be
    made again once the disk has room (or the memory stick is back). ``message`` says so in a
    family's words, with the likely cause."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _why_not_saved(exc: StoreError) -> str:
    """The likely cause of a failed save, as the end of the sentence 'could not save this move: ...'."""
    cause: BaseException | None = exc
    while isinstance(cause, StoreError) and (cause.__cause__ or cause.__context__) is not None:
        cause = cause.__cause__ or cause.__context__
    name = getattr(cause, "sqlite_errorname", "") or ""
    number = getattr(cause, "errno", None)
    if name == "SQLITE_FULL" or number in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
        return "the disk is full"
    if name.startswith("SQLITE_READONLY") or number in (errno.EROFS, errno.EACCES, errno.EPERM):
        return "the game's folder can no longer be written to"
    if name.startswith(("SQLITE_IOERR", "SQLITE_CANTOPEN")) or isinstance(cause, (OSError, sqlite3.Error)):
        return "the disk could not be written to (it may be full, or a memory stick was pulled out)"
    return "the game file could not be written to"


def move_not_saved(exc: StoreError, what: str = "this move") -> MoveNotSaved:
    """The words for a refused save, the same on every screen (the table, a private look, a phone)."""
    why = _why_not_saved(exc)
    fix = ("free some space" if why == "the disk is full" else
           "check the disk (put the memory stick back, or free some space)")
    return MoveNotSaved(f"Gumshoe could not save {what}: {why}. Nothing was lost: the game is as it was "
                        f"before. {fix[0].upper()}{fix[1:]}, then try again.")


def games_dir() -> Path:
    """The family's saved games (it may not exist yet, or be read-only: listing copes)."""
    return user_dir() / "games"


def new_game_path() -> Path:
    """A fresh file name for a new game; ``StoreError`` in plain words when the folder cannot be made."""
    try:
        games_dir().mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreError(f"Games cannot be saved in {games_dir()}: {exc.strerror or exc}. "
                         f"Check that the folder can be written to.") from None
    stamp = datetime.now().strftime("%Y-%m-%d_%H-%M-%S")
    path = games_dir() / f"{stamp}{SUFFIX}"
    n = 2
    while path.exists():
        path = games_dir() / f"{stamp}_{n}{SUFFIX}"
        n += 1
    return path


def saved_games() -> list[SavedGame]:
    """Saved games in the family's folder, newest first, each with where it stands or its
    problem (read without writing to any file; never raises)."""
    return engine_saves.saved_games(games_dir())


def clean_temp_files() -> None:
    """Leftovers of a game creation that was killed (started again, they are not needed)."""
    engine_saves.clean_temp_files(games_dir())


def move_to_bin(path: Path) -> Path:
    return engine_saves.move_to_bin(path)


def restore_from_bin(binned: Path) -> Path:
    return engine_saves.restore_from_bin(binned)


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
            # A new shuffle each demo; GUMSHOE_DEMO_SEED replays one (tests, a reported problem).
            fixed = os.environ.get("GUMSHOE_DEMO_SEED", "")
            chosen["demo_seed"] = int(fixed) if fixed.isdigit() else random.SystemRandom().randrange(1 << 30)
        path = path or new_game_path()
        return cls._around(Session.new(game_id, players, chosen, path=path), path)

    @classmethod
    def resume(cls, path: Path, *, read_only: bool = False) -> "GameController":
        """Open a saved game to play on (an older file is updated, after a backup), or with
        ``read_only`` to look at it and replay it (a read-only file, folder or disk)."""
        return cls._around(engine_saves.open_game(path, read_only=read_only), path)

    @classmethod
    def _around(cls, session: Session, path: Path | None) -> "GameController":
        """The controller of an open session; if it cannot be made (a demo's simulated deal
        refused, say), the session's file is closed with it, never left locked."""
        try:
            return cls(session, path)
        except BaseException:
            session.close()
            raise

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
        """(card id, name) of every card of one type in play (every card: ``None``), alphabetical."""
        cards = self.deck.of_kind(kind) if kind is not None else list(self.deck.cards.values())
        in_play = self.session.rules.cards_in_play(self.session.state)
        return sorted(((c.id, c.name) for c in cards if in_play is None or c.id in in_play), key=lambda c: c[1])

    def cards_with_back(self, kind: str | None) -> list[str]:
        """Every card in play a card with this back (a type; None: a back types share) may be
        (``Rules.cards_with_back``): what a camera may read there."""
        return self.session.rules.cards_with_back(self.session.state, kind)

    def in_play(self, card_id: str) -> bool:
        """Whether this game's setup put the card on the table (a game may leave some in the box)."""
        cards = self.session.rules.cards_in_play(self.session.state)
        return cards is None or card_id in cards

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

    def true_cards_in(self, place: str) -> list[str]:
        """Demo mode only: what every virtual card at a place (a hand) really is."""
        if self.simulator is None:
            return []
        return self.simulator.cards_in(self.session.state, place)

    def candidates(self, place: str, viewer: str | None = None, action: Mapping[str, Any] | None = None,
                   field: str | None = None) -> frozenset[str]:
        """The cards that can lie at ``place`` now as ``viewer`` knows the table (None: the shared
        screen), for the card ``field`` of ``action`` (``Rules.candidates``): what a list offers."""
        return self.session.rules.candidates(self.session.state, place, viewer, action, field)

    def face_up_card(self, place: str, action: Mapping[str, Any] | None = None, field: str | None = None) -> str | None:
        """The card at ``place`` that everyone saw and that lies face up there, when a read of it can
        only be that card (``Rules.face_up_card``): it is filled in, never asked for again."""
        return self.session.rules.face_up_card(self.session.state, place, action, field)

    def fits(self, card: str, action: Mapping[str, Any], field: str) -> bool:
        """Whether ``card`` is a card the card ``field`` of ``action`` can be (``Rules.fits``)."""
        return self.session.rules.fits(self.session.state, card, action, field)

    def refusal(self, action: Mapping[str, Any]) -> RuleViolation | None:
        """Why the engine would refuse ``action`` now (tried on a copy of the game), or None."""
        from engine.game import action_from_json
        try:
            self.session.rules.apply(self.session.state.clone(), action_from_json(action, self.session.rules.actions))
        except RuleViolation as exc:
            return exc
        return None

    def choose_copy(self, place: str, copies: list[str], knower: str | None = None,
                    taken: list[str] | tuple[str, ...] = ()) -> str:
        """Which of interchangeable copies a card picked from a list is (``Rules.choose_copy``); on the
        simulated table, the copy really lying there."""
        if self.simulator is not None:
            there = [c for c in [self.true_card_at(place), *reversed(self.true_cards_in(place))]
                     if c in copies and c not in taken]
            if there:
                return there[0]
        return self.session.rules.choose_copy(self.session.state, place, copies, knower, taken)

    def simulated_hand(self, player: str) -> list[str]:
        """Demo mode only: what ``player`` really holds in their hand(s) on the simulated table."""
        if self.simulator is None:
            return []
        return self.simulator.hand(self.session.state, player)

    def shown_cards(self, action: Mapping[str, Any], reads: list[tuple[str, str]]) -> dict[str, str]:
        """Demo mode only: the cards the simulated player shows the camera for these reads (card
        field, place) of ``action``: the cards there that the action needs."""
        if self.simulator is None:
            return {}
        return self.simulator.shown_cards(self.session, action, reads)

    def words(self, value: Any, viewer: str | None = None) -> str:
        """A place or a value as a player would say it ("your Top Loot card" to ``viewer``)."""
        return self.session.rules.place_words(self.session.state, str(value), viewer)

    # --- playing ---------------------------------------------------------------------
    def apply(self, action: Mapping[str, Any]) -> list[Event]:
        """Send an action to the engine; returns its events, or raises RuleViolation (a rule forbids
        it) or MoveNotSaved (it could not be written to the file); either way nothing changed."""
        before = self.session.current
        if self.simulator is not None:
            # The simulated table follows the engine's choice of token for a card from a hand.
            self.simulator.prepare(self.session.state, dict(action))
        try:
            events = self.session.apply(dict(action))
        except StoreError as exc:
            raise move_not_saved(exc) from exc
        self._after(before)
        self.applied.emit(events)
        return events

    def why_not(self, option: Option, player: str, chosen: Mapping[str, Any]) -> str | None:
        """Why ``option`` cannot be played now by ``player`` with the values ``chosen`` (a place
        clicked that is not highlighted): the engine's own words and rule, or None when it gives
        none that can be shown to everyone. The other fields take their first legal value and a
        card read at a place is a stand-in of the kind lying there; nothing changes.

        Only a rule's refusal is told: a contradiction with someone's notes is never (it would
        speak of their private reads), nor a refusal naming the stand-in card."""
        action: dict[str, Any] = {"type": option.action, "player": player}
        for name, values in option.targets.items():
            action[name] = chosen[name] if name in chosen else (values[0] if values else None)
        stand_ins = {}
        for card_field, place_field in option.reads.items():
            stand_ins[card_field] = self._stand_in_card(str(action.get(place_field, "")))
            action[card_field] = stand_ins[card_field]
        try:
            self.session.check(action)
        except (Contradiction, BadInput):
            return None
        except RuleViolation as exc:
            if any(card and self.deck.name_of(card) in exc.message for card in stand_ins.values()):
                return None
            return exc.message + (f" (Rulebook: {exc.section})" if exc.section else "")
        return None

    def _stand_in_card(self, place: str) -> str:
        """A card of the kind lying at ``place`` (the deck's first), to ask the rules about a place."""
        state = self.session.state
        try:
            token = state.table.top(Place.parse(place, state.players))
        except (ValueError, KeyError):
            token = None
        kind = state.table.kind(token) if token is not None else None
        cards = self.deck.of_kind(kind) if kind else list(self.deck.cards.values())
        return cards[0].id if cards else ""

    def undo(self) -> str:
        before = self.session.current
        try:
            words = self.session.undo()
        except StoreError as exc:
            raise move_not_saved(exc, "taking the move back") from exc
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


__all__ = ["GameController", "SavedGame", "saved_games", "clean_temp_files", "move_to_bin", "restore_from_bin",
           "public_texts", "RuleViolation"]
