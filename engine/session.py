"""A game in progress: actions in, events out; undo and redo by replay; views per player.

>>> s = Session.new("carmen-cards", ["Ann", "Bob"])
>>> events = s.apply({"type": "roll", "player": "Ann", "face": 3})
>>> [e.text for e in events]
['Ann rolled Henchman.']
>>> s.undo()
'Ann rolled Henchman'
>>> s.undo_history()
[]
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from .errors import BadInput, RuleViolation
from .events import Event
from .fields import field_problem, kind_of, type_problem
from .game import Action, Assist, GameState, Journal, Outcome, Prompt, Rules, action_from_json
from .games import rules_for
from .knowledge import EVERYONE, PUBLIC, REFEREE
from .names import check_player_names, name_problem
from .store import EventStore, read_only_reason

UNDO, REDO = "undo", "redo"


# What a game's rules raise on a value of the wrong shape (a text where a number belongs...).
_BAD_VALUE = (KeyError, ValueError, TypeError, AttributeError, IndexError, RecursionError)


MAX_ACTION_TEXT = 1000


def _unfit(action: Action) -> str:
    """The refusal for a value the rules could not use although every field has its declared
    type (engine.fields): Python's own words ("list index out of range") would say nothing to
    a family, so say which action, plainly."""
    return f"The action '{action.type}' cannot be used: one of its values is not one this game knows here."


def _unusable_text(value: Any, depth: int = 0) -> str | None:
    """Why an action's texts cannot be used (a control, line-break or invisible
    direction-changing character, or a text too long to be a place, card or answer), else None.
    Such a text would otherwise reach messages shown on the screen."""
    if depth > 20:
        return "it is nested too deeply"
    if isinstance(value, str):
        if len(value) > MAX_ACTION_TEXT:
            return f"a text of {len(value)} characters is longer than any action needs"
        problem = name_problem(value, MAX_ACTION_TEXT)
        if problem and problem not in ("it is empty",):
            return f"a text in it {problem.removeprefix('it ')}"
        return None
    if isinstance(value, Mapping):
        for k, v in value.items():
            problem = _unusable_text(k, depth + 1) or _unusable_text(v, depth + 1)
            if problem:
                return problem
    elif isinstance(value, (list, tuple)):
        for v in value:
            problem = _unusable_text(v, depth + 1)
            if problem:
                return problem
    return None


class HeaderError(BadInput, ValueError):
    """A saved game's or action log's header that cannot start a game (says why, plainly)."""


def parse_header(head: Any) -> tuple[str, tuple[str, ...], dict]:
    """``(game, players, options)`` of a saved game's or an action log's header.

    ``BadInput`` says in plain words what is wrong (the game unknown, the players not a list
    of names, the options not a table); the players' names are checked by the game's setup.

    >>> parse_header({"game": "carmen-cards", "players": ["Ann", "Bob"]})
    ('carmen-cards', ('Ann', 'Bob'), {})
    >>> parse_header({"game": "carmen-cards", "players": "AB"})
    Traceback (most recent call last):
    ...
    engine.session.HeaderError: The players must be a list of names, not text.
    """
    from .games import GAMES
    if not isinstance(head, Mapping):
        raise HeaderError("The header must be a table like {\"game\": ..., \"players\": [...]}.")
    if "game" not in head:
        raise HeaderError("The header has no 'game' (a game id like \"carmen-cards\").")
    game = head.get("game")
    if not isinstance(game, str):
        raise HeaderError(f"The header's 'game' must be a game id (text), not {kind_of(game)}.")
    if game not in GAMES:
        shown = game if len(game) <= 40 else game[:40] + "…"
        raise HeaderError(f"Unknown game {shown!r}; known games: {', '.join(sorted(GAMES))}.")
    if "players" not in head:
        raise HeaderError("The header has no 'players' (a list of names like [\"Ann\", \"Bob\"]).")
    players = head.get("players")
    if isinstance(players, (str, bytes)) or not isinstance(players, (list, tuple)):
        raise HeaderError(f"The players must be a list of names, not {kind_of(players)}.")
    for p in players:
        if not isinstance(p, str):
            raise HeaderError(f"Every player's name must be text, not {kind_of(p)} ({str(p)[:20]}).")
    options = head.get("options")
    if options is None:
        options = {}
    if not isinstance(options, Mapping):
        raise HeaderError(f"The header's 'options' must be a table, not {kind_of(options)}.")
    problem = _app_options_problem(options)
    if problem:
        raise HeaderError(f"The game could not be set up with these options: {problem}.")
    return game, tuple(players), dict(options)


def _app_options_problem(options: Mapping[str, Any]) -> str | None:
    """What is wrong with the options every game may carry (the youngest starts, the journal's
    assist level, a demo's shuffle), in words; None when they are fine or absent. A game's own
    options are checked by its setup."""
    ages = options.get("ages")
    if ages is not None:
        if not isinstance(ages, Mapping):
            return f"'ages' must be a table of each player's age (like {{\"Ann\": 8}}), not {kind_of(ages)}"
        for name, age in ages.items():
            if isinstance(age, bool) or not isinstance(age, (int, float)) or age != age or abs(age) == float("inf"):
                shown = name if len(str(name)) <= 24 else str(name)[:24] + "…"
                return f"'ages' must give each age as a number: {shown!r} has {kind_of(age)}"
    assist = options.get("assist")
    if assist is not None and assist not in {a.value for a in Assist}:
        return ("'assist' must be one of " + ", ".join(repr(a.value) for a in Assist)
                + f", not {repr(assist)[:20] if isinstance(assist, str) else kind_of(assist)}")
    seed = options.get("demo_seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        return f"'demo_seed' must be a whole number, not {kind_of(seed)}"
    return None


@dataclass(frozen=True)
class CardView:
    """A token as one viewer may see it: a card name only if face up or known to them."""

    place: str
    kind: str | None
    face_up: bool
    card: str | None
    name: str | None


@dataclass(frozen=True)
class PlayerView:
    """Everything one player may see; nothing another player saw privately."""

    player: str | None            # None: the shared screen everyone sees
    current: str
    eliminated: tuple[str, ...]
    layout: Mapping[str, tuple[str, ...]]
    prompt: Prompt
    cards: tuple[CardView, ...]
    log: tuple[str, ...]
    undo_history: tuple[str, ...]
    journal: Journal | None
    outcome: Outcome | None


class Session:
    """One game: the rules, the accepted actions, the current state and the event store."""

    def __init__(self, rules: Rules, players: list[str] | tuple[str, ...], options: Mapping[str, Any] | None = None,
                 *, store: EventStore | None = None) -> None:
        self.rules = rules
        self.players = tuple(players)
        self.options = dict(options or {})
        try:
            self.initial = rules.setup(self.players, self.options)
        except (TypeError, ValueError, KeyError, AttributeError, IndexError) as exc:
            # An option of the wrong shape in a hand-written log or a damaged file.
            if isinstance(exc, RuleViolation):
                raise
            # Python's own words ("'int' object is not iterable") would say nothing to a family.
            named = ", ".join(sorted(str(k)[:24] for k in self.options))[:120]
            raise HeaderError(f"The game could not be set up with these options ({named}): one of them "
                              f"is not what {rules.title} expects." if named else
                              f"{rules.title} could not be set up for these players.") from None
        self.state: GameState = self.initial
        self.done: list[Action] = []
        self.undone: list[Action] = []
        self._public_done: list[str] = []       # public words for each done action
        self._public_undone: list[str] = []
        self._turn_of: list[str] = []           # whose turn it was after each done action
        self.log: list[Event] = list(self.initial.events)
        self.store = store
        #: why this game may be looked at but not continued (``open_readonly``), else None
        self.read_only: str | None = None

    # --- opening -------------------------------------------------------------------
    @classmethod
    def new(cls, game: str, players: list[str] | tuple[str, ...], options: Mapping[str, Any] | None = None,
            *, path: str | Path | None = None) -> "Session":
        """A new game; with ``path``, every accepted action is saved there before it is shown.

        Players' names are checked (``engine.names``: length, no control or invisible
        characters) and the spaces around them dropped; a bad name is ``BadInput``.
        """
        game, _, options = parse_header({"game": game, "players": list(players) if isinstance(
            players, (list, tuple)) else players, "options": options})
        players = check_player_names(players)
        rules = rules_for(game)
        session = cls(rules, players, options)     # validates the setup before a file is made
        if path is not None:
            session.store = EventStore.create(path, {"game": game, "players": list(players),
                                                     "options": dict(options or {})})
        return session

    @classmethod
    def resume(cls, path: str | Path) -> "Session":
        """Reopen a saved game: replaying its records gives the identical state."""
        store = EventStore.open(path)
        try:
            session = cls._replayed(store.header, store.records())
        except BaseException:
            # The store holds the file's write lock until closed: a refused game must be
            # released now, not when the garbage collector gets to the exception's frames
            # (until then the resume list calls it "open in another window").
            store.close()
            raise
        session.store = store
        return session

    @classmethod
    def preview(cls, path: str | Path) -> "Session":
        """A saved game replayed without opening it for writing (a resume list's look at it)."""
        return cls._replayed(*EventStore.read(path))

    @classmethod
    def open_readonly(cls, path: str | Path) -> "Session":
        """A saved game for viewing and replay only: the file is read, never written.

        ``read_only`` says why it cannot be continued (the file, its folder or its disk is
        read-only; or it was opened for viewing). ``apply``, ``undo`` and ``redo`` then raise
        ``RuleViolation`` with that reason and change nothing.
        """
        session = cls._replayed(*EventStore.read(path))
        reason = read_only_reason(path)
        session.read_only = (f"This game can only be viewed: {reason}." if reason
                             else "This game is open for viewing only.")
        return session

    @classmethod
    def _replayed(cls, head: Mapping[str, Any], records: list[dict]) -> "Session":
        game, players, options = parse_header(head)
        session = cls(rules_for(game), players, options)
        for n, record in enumerate(records, 1):
            try:
                session._replay(record)
            except RuleViolation as exc:
                raise BadInput(f"Move {n} of the saved game cannot be replayed: {exc.message}") from None
        return session

    def close(self) -> None:
        if self.store is not None:
            self.store.close()

    # --- playing -------------------------------------------------------------------
    def apply(self, action: Action | Mapping[str, Any]) -> list[Event]:
        """Apply an action: its events, or ``RuleViolation`` (and nothing changes)."""
        self._check_writable()
        action = self._parse(action)
        words = self._describe(self.state, action)
        new = self._step(self.state, action)
        self._commit(action.to_json(), new.events)
        self.state = new
        self.done.append(action)
        self._public_done.append(words)
        self._turn_of.append(new.current)
        self.undone.clear()
        self._public_undone.clear()
        self.log.extend(new.events)
        return list(new.events)

    def check(self, action: Action | Mapping[str, Any]) -> None:
        """Whether ``action`` would be accepted now: returns quietly, or raises the
        ``RuleViolation`` that :meth:`apply` would raise. Nothing changes and nothing is saved
        (a screen asks it to say why a click cannot be used).

        >>> s = Session.new("carmen-cards", ["Ann", "Bob"], {"ages": {"Ann": 8, "Bob": 9}})
        >>> s.check({"type": "roll", "player": "Ann", "face": 1})
        >>> s.check({"type": "roll", "player": "Bob", "face": 1})
        Traceback (most recent call last):
        ...
        engine.errors.RuleViolation: It is Ann's move now, not Bob's. ...
        >>> len(s.done)
        0
        """
        self._step(self.state, self._parse(action))

    def undo(self) -> str:
        """Take back the last action; returns what was undone, in public words."""
        self._check_writable()
        if not self.done:
            raise RuleViolation("There is nothing to undo.")
        words = self._public_done[-1]
        self._commit({"type": UNDO}, [Event("undo", PUBLIC, f"Undone: {words}.")])
        self._undo()
        return words

    def redo(self) -> str:
        """Apply again the last undone action."""
        self._check_writable()
        if not self.undone:
            raise RuleViolation("There is nothing to redo.")
        action = self.undone[-1]
        new = self._step(self.state, action)
        self._commit({"type": REDO}, new.events)
        self._redo(new)
        return self._public_done[-1]

    def _check_writable(self) -> None:
        if self.read_only is not None:
            raise RuleViolation(self.read_only)

    def _parse(self, action: Action | Mapping[str, Any]) -> Action:
        if isinstance(action, Action):
            if type(action) is not self.rules.actions.get(action.type):
                raise BadInput(f"{type(action).__name__} is not an action of {self.rules.title}.")
            return action
        problem = _unusable_text(action)
        if problem:
            raise BadInput(f"The action cannot be used: {problem}.")
        if isinstance(action, Mapping):
            # Each field against its declared type, so the rules never meet a list where a
            # card id belongs (and never answer in Python's words).
            problem = type_problem(action)
            cls = self.rules.actions.get(action["type"]) if problem is None else None
            if cls is not None:
                problem = field_problem(cls, action)
            if problem:
                raise BadInput(problem)
        try:
            return action_from_json(action, self.rules.actions)
        except TypeError as exc:
            raise BadInput(f"Malformed action: {exc}") from None

    def _step(self, state: GameState, action: Action) -> GameState:
        new = state.clone()
        try:
            self.rules.apply(new, action)
        except _BAD_VALUE as exc:
            # A value the rules could not use (wrong type in a hand-written log, say).
            if isinstance(exc, RuleViolation):
                raise
            raise BadInput(_unfit(action)) from None
        return new

    def _describe(self, state: GameState, action: Action) -> str:
        try:
            return self.rules.describe(state, action)
        except _BAD_VALUE as exc:
            if isinstance(exc, RuleViolation):
                raise
            raise BadInput(_unfit(action)) from None

    def _commit(self, record: dict, events: list[Event]) -> None:
        if self.store is not None:
            try:
                self.store.append(record, [e.to_json() for e in events])
            except (ValueError, TypeError) as exc:     # raised before anything is written
                raise BadInput("The action holds a value a saved game cannot hold (something that is not a "
                               "number, or lists nested too deeply).") from None

    def _undo(self) -> None:
        action = self.done.pop()
        self._turn_of.pop()
        self.undone.append(action)
        self._public_undone.append(self._public_done.pop())
        self._rebuild()

    def _redo(self, new: GameState) -> None:
        self.done.append(self.undone.pop())
        self._public_done.append(self._public_undone.pop())
        self._turn_of.append(new.current)
        self.state = new
        self.log.extend(new.events)

    def _rebuild(self) -> None:
        state = self.initial
        log = list(state.events)
        for action in self.done:
            state = self._step(state, action)
            log.extend(state.events)
        self.state, self.log = state, log

    def _replay(self, record: Mapping[str, Any]) -> None:
        if not isinstance(record, Mapping):
            raise BadInput("A move must be a JSON object.")
        kind = record.get("type")
        if kind == UNDO:
            if not self.done:
                raise BadInput("it takes back a move, but there is none before it")
            self._undo()
        elif kind == REDO:
            if not self.undone:
                raise BadInput("it repeats an undone move, but none was undone")
            self._redo(self._step(self.state, self.undone[-1]))
        else:
            action = self._parse(record)
            words = self._describe(self.state, action)
            self.state = self._step(self.state, action)
            self.done.append(action)
            self._public_done.append(words)
            self._turn_of.append(self.state.current)
            self.undone.clear()
            self._public_undone.clear()
            self.log.extend(self.state.events)

    # --- looking -------------------------------------------------------------------
    @property
    def outcome(self) -> Outcome | None:
        return self.state.outcome

    @property
    def current(self) -> str:
        """Whose turn it is (another player may have to act inside it: see ``prompt``)."""
        return self.state.current

    @property
    def warnings(self) -> tuple[str, ...]:
        """Problems that did not stop the game, in plain words, for the screen to show (a
        family's name-corrections file that was not used, with its file and line)."""
        return tuple(getattr(self.rules.deck, "warnings", ()))

    @property
    def turns(self) -> int:
        """How many turns have begun (1 before the first move): what a family counts as the
        game's length, unlike the number of stored records (each roll, look, end of turn,
        undo and redo is one record).

        >>> s = Session.new("carmen-cards", ["Ann", "Bob"])
        >>> _ = s.apply({"type": "roll", "player": "Ann", "face": 3})
        >>> s.turns, len(s.done)
        (1, 1)
        """
        turns, last = 1, self.initial.current
        for who in self._turn_of:
            if who != last:
                turns, last = turns + 1, who
        return turns

    @property
    def eliminated(self) -> tuple[str, ...]:
        return tuple(self.state.eliminated)

    def layout(self) -> Mapping[str, tuple[str, ...]]:
        """The table's fixed shape for a screen (e.g. card types and column positions)."""
        return self.rules.layout(self.state)

    def prompt(self) -> Prompt:
        return self.rules.prompt(self.state)

    def journal(self, player: str, assist: Assist | str = Assist.FULL) -> Journal:
        if player not in self.players:
            raise BadInput(f"{player!r} is not playing in this game.")
        return self.rules.journal(self.state, player, Assist(assist))

    def public_log(self) -> list[str]:
        """What the shared screen shows: public events only."""
        return [e.text for e in self.log if e.visibility.scope == "public"]

    def log_for(self, player: str) -> list[str]:
        """Public events plus this player's own private ones."""
        return [e.text for e in self.log if e.visibility.shown_to(player)]

    def undo_history(self) -> list[str]:
        """Public words for every action that undo can take back, oldest first."""
        return list(self._public_done)

    def redo_history(self) -> list[str]:
        return list(reversed(self._public_undone))

    def view(self, player: str | None = None, assist: Assist | str = Assist.FULL) -> PlayerView:
        """What ``player`` may see (``None``: the shared screen)."""
        # The shared screen shows what everyone saw together (flipped cards, even face down again).
        observer = self.state.knowledge[player if player is not None else EVERYONE]
        cards = []
        table = self.state.table
        for place, stack in sorted(table.stacks.items(), key=lambda kv: str(kv[0])):
            for tok in stack:
                card = None
                if table.face_up(tok):
                    # What everyone saw when it was turned up (the referee's record only as a fallback).
                    card = (self.state.knowledge[EVERYONE].card_at(tok)
                            or self.state.knowledge[REFEREE].card_at(tok))
                else:
                    card = observer.card_at(tok)
                cards.append(CardView(str(place), table.kind(tok), table.face_up(tok), card,
                                      self.rules.deck.name_of(card) if card else None))
        return PlayerView(
            player, self.state.current, self.eliminated, self.layout(), self.prompt(), tuple(cards),
            tuple(self.log_for(player) if player else self.public_log()),
            tuple(self.undo_history()),
            self.journal(player, assist) if player else None,
            self.state.outcome)

    def referee_view(self) -> dict[str, str]:
        """Place -> card for every card anyone has seen. For checking claims only: never show it."""
        ref = self.state.knowledge[REFEREE]
        return {str(self.state.table.place_of(t)): c for t, c in ref.known.items()}
