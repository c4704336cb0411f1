"""A simulated table: the true identity of every token, and a random legal player.

The engine itself never knows face-down cards. For tests, benchmarks and the app's demo
mode we need the physical truth: :class:`Truth` deals real identities to the tokens
(seeded), and :func:`random_action` picks a legal action from the prompt and fills in
the card identities a camera would read.

>>> import random
>>> from engine.session import Session
>>> s = Session.new("carmen-cards", ["Ann", "Bob"])
>>> truth = Truth.deal(s.state, random.Random(1))
>>> len(truth.cards) == len(s.state.table.tokens)
True
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from .errors import RuleViolation
from .game import GameState, action_from_json
from .table import Place


@dataclass(frozen=True)
class Truth:
    """token -> the card it really is."""

    cards: Mapping[int, str]

    @classmethod
    def deal(cls, state: GameState, rng: random.Random) -> "Truth":
        """Shuffle each kind's cards onto that kind's tokens, as a real shuffle would.

        Deterministic for a given ``rng`` seed and deck (a resumed demo game deals the same
        truth again): keep it so.
        """
        out: dict[int, str] = {}
        for kind in state.deck.kinds:
            tokens = sorted(state.table.tokens_where(kind=kind))
            cards = [c.id for c in state.deck.of_kind(kind)]
            rng.shuffle(cards)
            out.update(zip(tokens, cards))
        return cls(out)

    def card_at(self, state: GameState, place: str) -> str:
        return self.cards[state.table.top(Place.parse(place, state.players))]  # type: ignore[index]


def random_action(session: Any, truth: Truth, rng: random.Random,
                  weights: Mapping[str, float] | None = None) -> dict:
    """A random legal action (as JSON) for whoever must act, with true card identities."""
    prompt = session.prompt()
    if prompt.player is None or not prompt.options:
        raise RuleViolation("Nobody can act: the game is over.")
    weights = weights or {}
    options = list(prompt.options)
    option = rng.choices(options, [weights.get(o.action, 1.0) for o in options])[0]
    action: dict[str, Any] = {"type": option.action, "player": prompt.player}
    for name, values in option.targets.items():
        action[name] = rng.choice(values)
    for card_field, place_field in option.reads.items():
        action[card_field] = truth.card_at(session.state, action[place_field])
    return action


class Simulator:
    """The physical table of one game: the truth of every face-down card and a random player.

    Used by the tests (property and robustness suites run every registered game through
    ``rules.simulator(...)``), the benchmarks and the app's demo mode. The default deals
    each kind's cards onto that kind's tokens (:meth:`Truth.deal`) and picks uniformly
    among the prompt's options, weighted by :attr:`weights`; a game whose table differs
    subclasses it and returns it from ``Rules.simulator``.

    Dealing is the first use of the seeded generator, so the same seed gives the same
    truth (a resumed demo game shows the same cards).
    """

    #: action type -> relative weight when choosing among the prompt's options
    weights: Mapping[str, float] = {}

    def __init__(self, rules: Any, initial: GameState, seed: int) -> None:
        self.rules = rules
        self.rng = random.Random(seed)
        self.truth = self.deal(initial)

    def deal(self, initial: GameState) -> Truth:
        return Truth.deal(initial, self.rng)

    def card_at(self, state: GameState, place: str) -> str | None:
        """What the card lying at ``place`` really is (None when no card lies there)."""
        token = state.table.top(Place.parse(place, state.players))
        return None if token is None else self.truth.cards.get(token)

    def cards_in(self, state: GameState, place: str) -> list[str]:
        """What every card lying at ``place`` really is, bottom to top (a hand, a pile)."""
        tokens = state.table.at(Place.parse(place, state.players))
        return [self.truth.cards[t] for t in tokens if t in self.truth.cards]

    def hand(self, state: GameState, player: str) -> list[str]:
        """What ``player`` really holds in their hand(s) (``Rules.hand_places``): a demo shows it to
        that player alone, as a real player sees the cards in their hand."""
        return [c for place in self.rules.hand_places(state, player) for c in self.cards_in(state, place)]

    def prepare(self, state: GameState, action: dict) -> dict:
        """Called before an action made outside this simulator (a family's clicks in the demo) is
        applied: a simulated table whose truth must follow the engine's choice of token (a card
        played from a hand that has no order) adjusts it here. Returns the action unchanged."""
        return action

    def shown_cards(self, session: Any, action: Mapping[str, Any],
                    reads: Sequence[tuple[str, str]]) -> dict[str, str]:
        """The cards the simulated player shows for the card ``reads`` ((card field, place) pairs) of
        ``action`` (its other fields filled in): for each, a card really at that place that the
        action can use (``Rules.candidates``), a combination the rules accept when there is one
        (the Ted Hinton of a hand, not its top card; an Agent for a mission's Agent)."""
        state = session.state
        player = action.get("player")
        options: list[list[str]] = []
        for card_field, place in reads:
            there = [self.card_at(state, place), *reversed(self.cards_in(state, place))]
            there = list(dict.fromkeys(c for c in there if c is not None))
            fits = self.rules.candidates(state, place, player, action, card_field)
            options.append([c for c in there if c in fits] or there[:1])
        if not all(options):
            return {f: opts[0] for (f, _), opts in zip(reads, options) if opts}
        first: dict[str, str] | None = None
        for n, combo in enumerate(itertools.product(*options)):
            if len(set(combo)) != len(combo) or n > 200:
                continue
            cards = {f: c for (f, _), c in zip(reads, combo)}
            first = first or cards
            try:
                self.rules.apply(state.clone(), action_from_json({**action, **cards}, self.rules.actions))
            except (RuleViolation, TypeError, KeyError, ValueError):
                continue
            return cards
        return first or {f: opts[0] for (f, _), opts in zip(reads, options)}

    def random_action(self, session: Any) -> dict:
        """A random legal action (as JSON) for whoever must act, with true card identities."""
        return random_action(session, self.truth, self.rng, self.weights)

    def play(self, session: Any, max_actions: int = 2000) -> int:
        """Apply random legal actions until the game ends or ``max_actions``; returns how many."""
        for n in range(max_actions):
            if session.outcome is not None:
                return n
            session.apply(self.random_action(session))
        return max_actions


# Warrants called at random mostly fail; keep them rare so games run long enough.
CARMEN_WEIGHTS = {"warrant": 0.08, "final_warrant": 0.03, "decline_swap": 0.5}


def play_random_game(session: Any, seed: int, max_actions: int = 2000,
                     weights: Mapping[str, float] | None = CARMEN_WEIGHTS) -> Truth:
    """Play legal random actions until the game ends or ``max_actions``; returns the truth."""
    rng = random.Random(seed)
    truth = Truth.deal(session.initial, rng)
    for _ in range(max_actions):
        if session.outcome is not None:
            break
        session.apply(random_action(session, truth, rng, weights))
    return truth
