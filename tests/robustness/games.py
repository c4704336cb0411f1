"""Every game in the engine's registry, played at random by its own simulator, with misreads.

The suite never names a game: it iterates over ``engine.games.GAMES``, so a game added to the
registry is fuzzed and privacy-checked without touching these files.
"""

from __future__ import annotations

import dataclasses
import json
import random
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable, Iterator

from engine.errors import RuleViolation
from engine.events import Event
from engine.games import GAMES, game_info
from engine.session import Session

from .conftest import LONG

GAME_IDS = sorted(GAMES)
NAMES = ("Ann", "Bob", "Cyd", "Dee", "Eve", "Fay", "Gus", "Hal")
MISREAD_RATE = 0.10


def setup_for(game: str, n_players: int | None = None) -> tuple[list[str], dict]:
    """Players (the game's smallest table with at least 3 seats where allowed) and its default options."""
    info = game_info(game)
    low, high = info.players
    n = n_players if n_players is not None else max(low, min(3, high))
    return list(NAMES[:n]), {o.id: o.default for o in info.options}


def new_session(game: str, n_players: int | None = None, **kw: Any) -> Session:
    players, options = setup_for(game, n_players)
    return Session.new(game, players, options, **kw)


def card_fields(action: dict, deck: Any) -> list[tuple[str, int | None, str]]:
    """(field, index in a list or None, card id) for every card id the action names."""
    out = []
    for key, value in action.items():
        if key in ("type", "player"):
            continue
        if isinstance(value, str) and value in deck:
            out.append((key, None, value))
        elif isinstance(value, list):
            out += [(key, i, v) for i, v in enumerate(value) if isinstance(v, str) and v in deck]
    return out


def replace_card(action: dict, where: tuple[str, int | None, str], card: str) -> dict:
    key, index, _ = where
    new = dict(action)
    if index is None:
        new[key] = card
    else:
        new[key] = list(new[key])
        new[key][index] = card
    return new


def other_card(deck: Any, card: str, rng: random.Random) -> str | None:
    """Another card of the same kind: what a camera misread or a wrong tap would give."""
    kind = deck.card(card).kind
    others = [c.id for c in deck.of_kind(kind) if c.id != card]
    return rng.choice(others) if others else None


def with_confirm(session: Session, action: dict) -> dict | None:
    """The action with ``confirm: true`` if the game's action has that field (the family says
    the new sighting is right)."""
    cls = session.rules.actions.get(action.get("type"))
    if cls is None or "confirm" not in {f.name for f in dataclasses.fields(cls)}:
        return None
    return {**action, "confirm": True}


def try_apply(session: Session, *candidates: dict | None) -> tuple[dict, list[Event]] | None:
    """Apply the first candidate the rules accept (each refusal changes nothing)."""
    for action in candidates:
        if action is None:
            continue
        try:
            return action, session.apply(action)
        except RuleViolation:
            continue
    return None


def _mentions(event: Event, card: str, name: str) -> bool:
    return card in json.dumps(dict(event.data), sort_keys=True, default=str) or card in event.text \
        or (len(name) > 3 and name in event.text)


def private_readers(deck: Any, card: str, events: list[Event]) -> frozenset[str] | None:
    """Who saw ``card`` privately in these events; None when it was named in public (or nowhere)."""
    name = deck.name_of(card)
    if any(e.visibility.scope == "public" and _mentions(e, card, name) for e in events):
        return None
    readers = frozenset(p for e in events if e.visibility.scope == "private" and _mentions(e, card, name)
                        for p in e.visibility.players)
    return readers or None


@dataclass
class Played:
    """A random legal game with misreads: the accepted actions and, for each, the private reads."""

    game: str
    seed: int
    players: tuple[str, ...]
    options: dict
    actions: list[dict] = field(default_factory=list)
    # step -> [(field, index, card, readers)] for cards only ``readers`` saw
    private: dict[int, list[tuple[str, int | None, str, frozenset[str]]]] = field(default_factory=dict)
    misreads: int = 0


def play(game: str, seed: int, steps: int) -> Played:
    """Play ``steps`` random legal actions (the game's own simulator) with 10% misread cards and
    an occasional undo; record every accepted action and which card reads were private."""
    session = new_session(game)
    rng = random.Random(seed * 7919 + 17)
    sim = session.rules.simulator(session.initial, seed)
    deck = session.rules.deck
    out = Played(game, seed, session.players, dict(session.options))
    for _ in range(steps):
        if session.outcome is not None:
            break
        if out.actions and rng.random() < 0.03:
            session.undo()
            out.actions.append({"type": "undo"})
            continue
        try:
            action = sim.random_action(session)
        except RuleViolation:
            break
        candidates: list[dict | None] = []
        fields = card_fields(action, deck)
        if fields and rng.random() < MISREAD_RATE:
            wrong = other_card(deck, fields[0][2], rng)
            if wrong is not None:
                misread = replace_card(action, fields[0], wrong)
                candidates += [misread, with_confirm(session, misread)]
        candidates += [action, with_confirm(session, action)]
        done = try_apply(session, *candidates)
        if done is None:
            break                      # the simulator lost track of the table after a misread
        applied, events = done
        if applied is not action and card_fields(applied, deck) != fields:
            out.misreads += 1
        reads = []
        for key, index, card in card_fields(applied, deck):
            readers = private_readers(deck, card, events)
            if readers:
                reads.append((key, index, card, readers))
        if reads:
            out.private[len(out.actions)] = reads
        out.actions.append(applied)
    return out


SEEDS = tuple(range(40 if LONG else 2))
STEPS = 400 if LONG else 90


@lru_cache(maxsize=None)
def played(game: str, seed: int) -> Played:
    return play(game, seed, STEPS)


def replay_actions(game: str, players: tuple[str, ...], options: dict, actions: list[dict]) -> Session:
    session = Session.new(game, list(players), options)
    for a in actions:
        if a.get("type") == "undo":
            session.undo()
        else:
            session.apply(a)
    return session


def replay_with_others_reads_changed(game: str, seed: int, player: str,
                                     rng_key: str) -> Iterator[tuple[int, dict, Session, Session, bool]]:
    """Replays the played game ``(game, seed)`` twice, side by side: as played, and with every card
    that players other than ``player`` read privately changed to another card of its kind.

    Yields ``(step, action, as_played, changed, read_changed)`` after each step, where
    ``read_changed`` says whether this step's changed action was the one applied. Stops when what
    everyone saw differs (a changed card later shown to all or scored, or no candidate applies):
    the privacy property holds for identical public events only.
    """
    base = played(game, seed)
    rng = random.Random(rng_key)
    a = Session.new(game, list(base.players), base.options)
    b = Session.new(game, list(base.players), base.options)
    deck = a.rules.deck
    for step, action in enumerate(base.actions):
        read_changed = False
        if action.get("type") == "undo":
            a.undo()
            b.undo()
        else:
            a.apply(action)
            other = action
            for key, index, card, readers in base.private.get(step, ()):
                if player not in readers:
                    wrong = other_card(deck, card, rng)
                    if wrong is not None:
                        other = replace_card(other, (key, index, card), wrong)
            tried = [other, with_confirm(b, other)] if other is not action else []
            done = try_apply(b, *tried, action, with_confirm(b, action))
            if done is None or a.public_log() != b.public_log():
                return
            read_changed = done[0] is other and other is not action
        yield step, action, a, b, read_changed


def steps_alike(game: str, seed: int, player: str, rng_key: str, seen: Callable[[Session, str], Any],
                what: str) -> tuple[int, int]:
    """Asserts that what ``seen(session, player)`` gives is the same in both replays of
    ``replay_with_others_reads_changed`` at every step (``what`` names it in the failure).
    Returns (steps compared, private reads changed)."""
    compared = changed = 0
    for step, action, as_played, other, read_changed in replay_with_others_reads_changed(game, seed, player, rng_key):
        changed += read_changed
        assert seen(as_played, player) == seen(other, player), (
            f"{game} seed {seed}: {player}'s {what} changed at step {step} because of another "
            f"player's private read ({action})")
        compared += 1
    return compared, changed
