"""Privacy as a difference (issue 27): a private read changes nothing anyone else sees.

A random legal game of any registered game is played by its own simulator. At every action that
carries a private read (a card named in the events only to its reader: a peek, a card taken face
down, hunch cards drawn), a twin of the game is made with that read changed to another card: one
nobody has seen (a suspect instead of a stoolie, say), or one the reader noted elsewhere (their
own misread, confirmed). The twin then follows the game's next moves. At every step both games
must show everyone but the reader the same:

- shared prompt (whose move, what the screen asks),
- offered actions (every option with its legal values, as the shared screen and its buttons show),
- table (the cards the shared screen shows, the game's public table, and every field of the game
  state but the knowledge and the records the game declares private),
- public log and undo/redo history,
- journal, log and screen of every other player, and their phone's page (``phones.snapshot``).

A move of another player accepted in one game must be accepted in its twin too (a refusal is seen
by the whole table). The twin stops following when the reader's own move is refused in it: the
reader knows their card, and in the twin's world would not make that move (or would be refused
behind the privacy gate, as a stoolie they do not hold is; Bonnie and Clyde's "Take it" on an outlaw
away from the car is refused on the shared screen: a known limit, docs/rules/bonnie-clyde.md). It is
dropped when the game ends (the end turns up what was private: kept hunch cards, say).
"""

from __future__ import annotations

import copy
import dataclasses
import json
import random
from typing import Any, Iterable

from engine.errors import RuleViolation
from engine.events import Event
from engine.game import Assist
from engine.knowledge import REFEREE
from engine.session import Session
from phones.snapshot import player_snapshot
from tests.robustness.games import card_fields, private_readers, replace_card, with_confirm

#: Fields of a game's state that may differ between two games that differ only in a private read,
#: because no screen shows them to anyone but their owner: private records (what a reader saw, kept as
#: the referee's file) and the app's own labels (token numbers, which physical card of a pile left
#: unseen; a cache's stamp). A path's "*" is any key of a mapping: "boards.*.hunches" is the field
#: ``hunches`` of every player's board. What an observer knows is compared through their journal.
NOT_SHOWN: dict[str, frozenset[str]] = {
    "sudds-malone": frozenset({"drawn", "boards.*.hunches"}),     # hunch cards drawn and kept, as read
    "bonnie-clyde": frozenset({
        "sightings",                # (player, location) -> the card they saw there
        "groups",                   # each observer's "one of these cards" groups, by token number
        "pending.hinton", "looked",  # token numbers of the Ted Hinton card played and of the card looked at
    }),
    "carmen-usa": frozenset({"cards_version"}),                    # a journal cache's stamp
}
#: how many moves a twin follows the game after its private read
FOLLOW = 14


class Leak(AssertionError):
    """Someone other than the reader sees a difference a private read made."""


def fork(session: Session) -> Session:
    """An independent copy of a game in memory (no file): the same state, history and log."""
    twin = copy.copy(session)
    for name, value in vars(session).items():
        if isinstance(value, (list, dict)):
            setattr(twin, name, type(value)(value))
    twin.store = None
    return twin


def _matches(path: tuple[str, ...], skip: frozenset[str]) -> bool:
    """Whether a field's path is one of ``skip`` (each a dotted path; "*" stands for any key)."""
    for pattern in skip:
        parts = pattern.split(".")
        if len(parts) == len(path) and all(p in ("*", q) for p, q in zip(parts, path)):
            return True
    return False


def plain(value: Any, skip: frozenset[str] = frozenset(), path: tuple[str, ...] = ()) -> Any:
    """A comparable copy of a state's value: containers and objects as plain data, ``skip`` paths left out."""
    if isinstance(value, (str, int, float, bool, type(None))):
        return value
    if isinstance(value, dict):
        items = sorted(((str(k), v) for k, v in value.items()), key=lambda kv: kv[0])
    elif isinstance(value, (list, tuple)):
        return [plain(v, skip, path) for v in value]
    elif isinstance(value, (set, frozenset)):
        return sorted(repr(v) for v in value)
    else:
        names = getattr(type(value), "__slots__", None) or list(vars(value))
        items = [(n, getattr(value, n, None)) for n in names if not n.startswith("__")]
    return {k: plain(v, skip, (*path, k)) for k, v in items if not _matches((*path, k), skip)}


def public_state(session: Session) -> dict[str, Any]:
    """Every field of the game state but what players know and what the game shows nobody else."""
    skip = NOT_SHOWN.get(session.rules.game_id, frozenset())
    out = {}
    for name, value in vars(session.state).items():
        if name in ("knowledge", "events", "deck"):
            continue
        if name == "table":
            # Token numbers are the app's labels, not what lies on the table: which physical card of a
            # pile left unseen is nobody's business. Each place's cards: their backs and which are face up.
            out[name] = {str(place): [(value.kind(t), value.face_up(t)) for t in stack]
                         for place, stack in sorted(value.stacks.items(), key=lambda kv: str(kv[0]))}
            continue
        if name not in skip:
            out[name] = plain(value, skip, (name,))
    table = getattr(session.rules, "public_table", None)
    if table is not None:
        out["public_table"] = plain(table(session.state))
    return out


def _cards(cards: tuple) -> list:
    """The cards a screen shows, place by place; inside a place in no particular order (the order of
    the tokens in a hand is the app's labelling, and a pile's top card is in the prompt and the log)."""
    return sorted(cards, key=lambda c: (c.place, c.kind or "", c.face_up, c.card or ""))


def shown_to_others(session: Session, readers: Iterable[str]) -> dict[str, Any]:
    """What the shared screen and every player but ``readers`` see, part by part."""
    shared = session.view(None)
    parts: dict[str, Any] = {
        "shared prompt": (shared.prompt.player, shared.prompt.text),
        "offered actions": shared.prompt.options,
        "table (cards shown)": (_cards(shared.cards), shared.current, shared.eliminated, shared.layout),
        "public log": (shared.log, shared.undo_history, tuple(session.redo_history()), shared.outcome),
    }
    for p in session.players:
        if p in readers:
            continue
        view = session.view(p, Assist.FULL)
        parts[f"{p}'s journal"] = view.journal
        parts[f"{p}'s log"] = view.log
        parts[f"{p}'s screen"] = _cards(view.cards)
        # Their phone's page (its turn line and prompt are the shared screen's words; notes only: cheap).
        parts[f"{p}'s phone"] = player_snapshot(session, p, Assist.NOTES)
    # Last, so that a difference a screen shows is named by that screen.
    parts["table (game state)"] = public_state(session)
    return parts


def alternatives(session: Session, action: dict, key: str, index: int | None, card: str, reader: str,
                 rng: random.Random) -> list[dict]:
    """The same action with the private read changed: to a card of the same kind nobody has seen
    (one of another role first: a stoolie for a suspect), to a card the reader noted elsewhere (their
    own misread, confirmed), or to another card the reader knows (one of the hunch cards they drew)."""
    rules, state = session.rules, session.state
    deck = rules.deck
    kind, role = deck.card(card).kind, deck.card(card).role
    in_play = rules.cards_in_play(state)
    same = [c.id for c in deck.of_kind(kind) if c.id != card and (in_play is None or c.id in in_play)]
    already = set(action[key]) if index is not None else set()
    same = [c for c in same if c not in already]
    ref, mine = state.knowledge[REFEREE], state.knowledge[reader]
    unseen = [c for c in same if ref.token_of(c) is None]
    rng.shuffle(unseen)
    unseen.sort(key=lambda c: deck.card(c).role == role)        # another role first
    noted = [c for c in same if mine.token_of(c) is not None]
    rng.shuffle(noted)
    where = (key, index, card)
    known = [replace_card(action, where, c) for c in noted[:2]]
    misreads = [m for a in known if (m := with_confirm(session, a)) is not None]
    fresh = [replace_card(action, where, c) for c in unseen[:3]]
    return (misreads + fresh + known) if rng.random() < 0.4 else (fresh + misreads + known)


class TwinWatch:
    """The game and the twins following it (each: twin session, its readers, what it changed, moves left)."""

    def __init__(self, session: Session, label: str, seed: int) -> None:
        self.s = session
        self.label = label
        self.rng = random.Random(seed)
        self.twins: list[list[Any]] = []
        self.inputs: list[dict] = []
        self.made = 0              # twins made (the test demands some)
        self.compared = 0          # comparisons made
        self.stopped = 0           # twins stopped by a refusal of the reader's own move

    def fail(self, what: str) -> None:
        tail = "\n".join(json.dumps(a) for a in self.inputs[-8:])
        raise Leak(f"[{self.label}, after {len(self.inputs)} inputs] {what}\nlast inputs:\n{tail}")

    def compare(self, twin: Session, readers: frozenset[str], changed: str) -> None:
        a, b = shown_to_others(self.s, readers), shown_to_others(twin, readers)
        self.compared += 1
        for part in a:
            if a[part] != b[part]:
                self.fail(f"LEAK: {part} differ(s) between two games that differ only in "
                          f"{', '.join(sorted(readers))}'s private read ({changed}):\n  game: "
                          f"{_short(a[part], b[part])}\n  twin: {_short(b[part], a[part])}")

    def _twin_for(self, action: dict, events: list[Event], before: Session) -> None:
        deck = self.s.rules.deck
        for key, index, card in card_fields(action, deck):
            readers = private_readers(deck, card, events)     # None: named in public, or nowhere
            if not readers:
                continue
            reader = action.get("player") if action.get("player") in readers else sorted(readers)[0]
            for alt in alternatives(before, action, key, index, card, reader, self.rng):
                twin = fork(before)
                try:
                    alt_events = twin.apply(alt)
                except RuleViolation:
                    continue
                new = alt[key] if index is None else alt[key][index]
                if (private_readers(deck, new, alt_events) or frozenset()) != readers:
                    continue        # the rules show this card to others (Bonnie under the car): not private
                changed = f"{action['type']} {key}: {card} or {new}" + (" (confirmed)" if alt.get("confirm") else "")
                self.made += 1
                self.compare(twin, readers, changed)
                self.twins.append([twin, readers, changed, FOLLOW])
                return

    def step(self, action: dict) -> list[Event]:
        """Apply ``action`` to the game and its twins, make a twin if it carries a private read, compare."""
        self.inputs.append(action)
        before = fork(self.s)
        events = self.s.apply(action)
        kept = []
        for entry in self.twins:
            twin, readers, changed, left = entry
            try:
                twin.apply(action)
            except RuleViolation as exc:
                if action.get("player") in readers:
                    self.stopped += 1
                    continue        # the reader's own move: they know their card (see the module's words)
                self.fail(f"LEAK: {action} is accepted in the game but refused in the game that differs only "
                          f"in {', '.join(sorted(readers))}'s private read ({changed}), in front of everyone: "
                          f"{exc}")
            if self.s.outcome is not None or twin.outcome is not None:
                continue            # the end turns up what was private
            self.compare(twin, readers, changed)
            if left > 1:
                entry[3] = left - 1
                kept.append(entry)
        self.twins = kept
        if self.s.outcome is None:
            self._twin_for(action, events, before)
        return events


def _short(value: Any, other: Any) -> str:
    """The first part of ``value`` that differs from ``other`` (a long view cut to what matters)."""
    if isinstance(value, tuple) and isinstance(other, tuple) and len(value) == len(other):
        for x, y in zip(value, other):
            if x != y:
                return _short(x, y)
    if dataclasses.is_dataclass(value) and type(value) is type(other):
        for f in dataclasses.fields(value):
            x, y = getattr(value, f.name), getattr(other, f.name)
            if x != y:
                return f"{f.name}: {_short(x, y)}"
    if isinstance(value, tuple) and isinstance(other, tuple):
        extra = [x for x in value if x not in other]
        if extra:
            return f"... {_short(extra[0], None)} ..."
    if isinstance(value, dict) and isinstance(other, dict):
        for k in value:
            if value.get(k) != other.get(k):
                return f"{k}: {_short(value[k], other.get(k))}"
    text = repr(value)
    return text if len(text) < 600 else text[:600] + "..."


def new_game(game: str, players: Iterable[str], **options: Any) -> Session:
    """A new game with the shelf's default options (``options`` override them)."""
    from engine.games import game_info
    defaults = {o.id: o.default for o in game_info(game).options}
    return Session.new(game, list(players), {**defaults, **options})


def play_with_twins(session: Session, seed: int, *, max_actions: int, label: str) -> TwinWatch:
    """Play a random legal game with the game's own simulator, checking every private read's twin."""
    sim = session.rules.simulator(session.initial, seed)
    w = TwinWatch(session, label, seed)
    for _ in range(max_actions):
        if session.outcome is not None:
            break
        w.step(sim.random_action(session))
    return w
