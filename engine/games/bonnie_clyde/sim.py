"""The simulated Bonnie and Clyde table: the true card of every token, hand by hand, and a random player.

Each hand is a new shuffle, so the truth is dealt again for every hand (seeded by the game's
seed and the hand number, so undo and resume see the same cards): Bonnie and Clyde and eight
other cards on the ten board tokens, the rest anywhere. Cards in a hand that nobody has
identified are alike to everyone; when the engine names such a card for a token, the truth
swaps it with the token that really was that card (:meth:`BonnieClydeSimulator.prepare`).

>>> from engine.session import Session
>>> s = Session.new("bonnie-clyde", ["Ann", "Bob"])
>>> sim = s.rules.simulator(s.initial, seed=7)
>>> sim.play(s, max_actions=4000) < 4000 and s.outcome is not None
True
"""

from __future__ import annotations

import random
from typing import Any, Mapping

from ...game import GameState
from ...errors import RuleViolation
from ...knowledge import EVERYONE, REFEREE
from ...sim import Simulator, Truth
from ...table import Place
from .rules import (CASEFILE, DEAL, DECIDE, DRAW, EVIDENCE, FILES, FILES_PILE, HINTON, LOOK, MOVE, PLAY_PHASE,
                    BonnieClydeRules, BonnieClydeState, board_place, hand_place)


class BonnieClydeSimulator(Simulator):
    """Weights keep random games moving: mostly draws from the Case File, melds when possible."""

    weights: Mapping[str, float] = {"draw": 0.75, "take_discard": 0.25, "note_hand": 0.04, "meld": 3.0,
                                    "layoff": 2.0, "hinton": 1.0, "discard": 1.2}

    def __init__(self, rules: BonnieClydeRules, initial: GameState, seed: int) -> None:
        self.seed = seed
        self.hands: dict[int, dict[int, str]] = {}
        self.by_move: dict[int, tuple[int, dict[int, str]]] = {}   # actions done -> (hand, the truth then)
        super().__init__(rules, initial, seed)

    # --- the truth ----------------------------------------------------------------------
    def deal(self, initial: GameState) -> Truth:
        return Truth(self.hand_truth(initial, 1))

    def hand_truth(self, state: GameState, hand: int) -> dict[int, str]:
        """token -> card for hand number ``hand`` (dealt once, then kept)."""
        truth = self.hands.get(hand)
        if truth is None:
            rng = random.Random(f"{self.seed}/{hand}")
            rules: BonnieClydeRules = self.rules
            tokens = sorted(state.table.tokens)
            board, rest = tokens[-10:], tokens[:-10]
            others = [c for c in rules.deck.cards if c not in rules.outlaws]
            rng.shuffle(others)
            under = [*rules.outlaws, *others[:8]]
            rng.shuffle(under)
            truth = dict(zip(board, under))
            truth.update(zip(rest, others[8:]))
            self.hands[hand] = truth
        return truth

    def truth_of(self, state: GameState) -> dict[int, str]:
        """The truth of the cards on the table now (the hand being played or just scored), with the
        cards of each place labelled as the referee's notes name them (see :meth:`prepare`)."""
        assert isinstance(state, BonnieClydeState)
        hand = max(state.hand_no, 1)
        kept = self.by_move.get(state.moves)
        if kept is not None and kept[0] == hand:
            return kept[1]
        # An action this table did not prepare (a family's clicks in the demo, a replayed log):
        # start from the latest truth of this hand and follow the referee's notes.
        earlier = [m for m, (h, _) in self.by_move.items() if m < state.moves and h == hand]
        truth = dict(self.by_move[max(earlier)][1]) if earlier else dict(self.hand_truth(state, hand))
        ref = state.knowledge[REFEREE]
        self._follow(truth, state.table.stacks, ref)
        inverse = {c: t for t, c in truth.items()}
        for t, c in list(ref.known.items()):
            x = inverse.get(c)
            if truth[t] != c and x is not None and x not in ref.known:
                truth[t], truth[x] = truth[x], truth[t]        # alike cards: the referee's naming wins
                inverse[truth[t]], inverse[truth[x]] = t, x
        self.by_move[state.moves] = (hand, truth)
        return truth

    @staticmethod
    def _follow(truth: dict[int, str], stacks: Mapping[Any, list[int]], ref: Any) -> None:
        """Within each place, give the tokens the referee names their cards; the other cards of that
        place stay where they are when they can, the displaced ones go to the tokens left over."""
        for tokens in stacks.values():
            named = {t: ref.known[t] for t in tokens if t in ref.known}
            if not named or all(truth[t] == c for t, c in named.items()):
                continue
            here = [truth[t] for t in tokens]
            if not set(named.values()) <= set(here) or len(set(named.values())) != len(named):
                continue            # a misread: the referee's notes cannot all be true here
            spare = [c for c in here if c not in named.values()]
            keep = {t: truth[t] for t in tokens if t not in named and truth[t] in spare}
            loose = [c for c in spare if c not in keep.values()]
            for t in tokens:
                truth[t] = named[t] if t in named else keep[t] if t in keep else loose.pop()

    def card_at(self, state: GameState, place: str) -> str | None:
        """What lies at ``place`` (the top card); before a deal, the FBI Files' place holds the card
        that the deal will turn up."""
        assert isinstance(state, BonnieClydeState)
        if state.phase == DEAL and place == str(FILES_PILE):
            return self.hand_truth(state, state.hand_no + 1)[self.rules.deal_plan(state)["turned"]]
        token = state.table.top(Place.parse(place, state.players))
        return None if token is None else self.truth_of(state).get(token)

    def cards_in(self, state: GameState, place: str) -> list[str]:
        assert isinstance(state, BonnieClydeState)
        truth = self.truth_of(state)
        return [truth[t] for t in state.table.at(Place.parse(place, state.players))]

    def prepare(self, state: GameState, action: dict) -> dict:
        """Make the truth follow the engine's choice of token for each card read out of a place.

        Cards of one place that the referee has not identified are alike (a hand is not in any
        order): when the engine names such a token as a card, the truth exchanges it with the
        token of the same place that really is that card. Worked out on a copy of the state with
        the action applied; returns the action unchanged.
        """
        assert isinstance(state, BonnieClydeState)
        after = state.clone()
        try:
            self.rules.apply(after, self.rules.actions[action["type"]](
                **{k: v for k, v in action.items() if k != "type"}))
        except (RuleViolation, TypeError, KeyError):
            return action
        if after.hand_no != state.hand_no:
            truth = dict(self.hand_truth(after, after.hand_no))          # a new deal: a new shuffle
        else:
            truth = dict(self.truth_of(state))
            self._follow(truth, state.table.stacks, after.knowledge[REFEREE])
        self.by_move[after.moves] = (max(after.hand_no, 1), truth)       # what undo and redo come back to
        self.truth = Truth(truth)
        return action

    # --- a random legal player ------------------------------------------------------------
    def random_action(self, session: Any) -> dict:
        state = session.state
        assert isinstance(state, BonnieClydeState)
        rules: BonnieClydeRules = self.rules
        rng = self.rng
        p = state.current
        if state.phase == DEAL:
            nxt = self.hand_truth(state, state.hand_no + 1)
            plan = rules.deal_plan(state)
            dealer = rng.choice(state.players)           # every hand's Setup picks its dealer at random
            return self.prepare(state, {"type": "deal", "player": dealer, "card": nxt[plan["turned"]]})
        truth = self.truth_of(state)
        hand = state.table.at(hand_place(p))
        cards = [truth[t] for t in hand]
        if state.phase == DRAW:
            choices = []
            if state.table.count(CASEFILE):
                choices.append(({"type": "draw", "player": p}, self.weights["draw"]))
            pile = state.table.at(FILES_PILE)
            if pile:
                take = {"type": "take_discard", "player": p}
                if len(pile) > 1 and state.knowledge[EVERYONE].card_at(pile[-2]) is None:
                    take["revealed"] = truth[pile[-2]]
                choices.append((take, self.weights["take_discard"]))
            note = self._note(state, p, hand, truth)
            if note:
                choices.append((note, self.weights["note_hand"]))
            return self.prepare(state, self._pick(choices))
        if state.phase == LOOK:
            assert state.pending is not None
            place = str(board_place(state.pending["location"]))
            return self.prepare(state, {"type": "look", "player": p, "location": place,
                                        "card": self.card_at(state, place)})
        if state.phase == DECIDE:
            assert state.looked is not None
            choice = "leave" if truth[state.looked] in rules.outlaws or rng.random() < 0.5 else "take"
            return self.prepare(state, {"type": choice, "player": p})
        if state.phase == MOVE:
            dirs = [d for d, step in (("up", 1), ("down", -1)) if 1 <= state.car + step <= 10]
            return self.prepare(state, {"type": "move_car", "player": p, "direction": rng.choice(dirs)})
        if state.phase == FILES:
            pile = state.table.at(FILES_PILE)
            return self.prepare(state, {"type": "take_file", "player": p, "card": truth[rng.choice(pile)]})
        assert state.phase == PLAY_PHASE
        return self.prepare(state, self._pick(self._plays(state, p, hand, cards, truth)))

    def _pick(self, choices: list[tuple[dict, float]]) -> dict:
        return self.rng.choices([c for c, _ in choices], [w for _, w in choices])[0]

    def _note(self, state: BonnieClydeState, p: str, hand: list[int], truth: dict[int, str]) -> dict | None:
        own = state.knowledge[p]
        unnoted = [truth[t] for t in hand if own.card_at(t) is None]
        if not unnoted:
            return None
        k = self.rng.randint(1, min(3, len(unnoted)))
        return {"type": "note_hand", "player": p, "cards": self.rng.sample(unnoted, k)}

    def _plays(self, state: BonnieClydeState, p: str, hand: list[int], cards: list[str],
               truth: dict[int, str]) -> list[tuple[dict, float]]:
        rules: BonnieClydeRules = self.rules
        rng = self.rng
        w = self.weights
        out: list[tuple[dict, float]] = []
        by_loc: dict[int, list[str]] = {}
        for c in cards:
            if rules.kind_of(c) == EVIDENCE:
                by_loc.setdefault(rules.location_of[c], []).append(c)
        for number, group in by_loc.items():
            if len(group) >= 3 and len(cards) > 3:
                k = rng.randint(3, min(len(group), len(cards) - 1))
                out.append(({"type": "meld", "player": p, "cards": rng.sample(group, k)}, w["meld"]))
            if number in state.melded and len(cards) > 1:
                k = rng.randint(1, min(2, len(group), len(cards) - 1))
                out.append(({"type": "layoff", "player": p, "cards": rng.sample(group, k)}, w["layoff"]))
        hintons = [c for c in cards if rules.kind_of(c) == HINTON]
        if hintons and not state.hinton_used:
            uses = []
            if state.table.count(CASEFILE):
                uses.append(("draw", ""))
            if state.table.count(FILES_PILE):
                uses.append(("take", ""))
            looks = [str(board_place(n)) for n in rules.board.numbers if state.table.count(board_place(n))]
            if looks and len(cards) > 1:
                uses.append(("look", rng.choice(looks)))
            if uses:
                use, where = rng.choice(uses)
                out.append(({"type": "hinton", "player": p, "card": rng.choice(hintons), "use": use,
                             "location": where}, w["hinton"]))
        note = self._note(state, p, hand, truth)
        if note:
            out.append((note, w["note_hand"]))
        out.append(({"type": "discard", "player": p, "card": rng.choice(cards)}, w["discard"]))
        return out
