"""A simulated Sudds & Malone table: the true deal and a random legal player.

Suspects are dealt as Game Setup 2-3 does (4 of the 9 suspects to the Conspiracy, the rest
and the 3 stoolies to the city), and the hunch deck is shuffled onto its cards. Cards the app never
sees until they are drawn face up (the Flimflam deck, the Case deck) are decided when drawn, uniformly
among the cards the table cannot place: the same as a shuffled deck, since no one has seen
its order (deferred decisions). A face-down Flimflam card is known by its back only: its face is decided
when it is turned up, among the unseen cards with that back (``flimflam_face``).
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from typing import Any

from ...errors import RuleViolation
from ...game import GameState
from ...sim import Simulator, Truth
from ...table import Place
from .actions import ACTIONS
from .box import EVIDENCE, LEVELS, PLAIN_EVIDENCE, TRACKS
from .state import (AFTER, DEAL, DIE, HUNCH_PILE, LIMIT, OVER, PENDING, REVEAL, ROLL, SuddsState, city_place,
                    conspiracy_place, drawn_place)


class SuddsSimulator(Simulator):
    """True suspects; random legal actions for whoever must act."""

    def deal(self, initial: GameState) -> Truth:
        rules = self.rules
        suspects = sorted(c for c, r in rules.role.items() if r != "stoolie")
        stoolies = sorted(c for c, r in rules.role.items() if r == "stoolie")
        self.rng.shuffle(suspects)
        con, rest = suspects[:4], suspects[4:] + stoolies
        self.rng.shuffle(rest)
        cards = {}
        for pos, card in enumerate(con, 1):
            cards[initial.table.top(conspiracy_place(pos))] = card
        for loc, card in zip(rules.box.locations, rest):
            cards[initial.table.top(city_place(loc))] = card
        hunches = list(initial.hunches_in_play)
        self.rng.shuffle(hunches)
        cards.update(zip(initial.table.at(HUNCH_PILE), hunches))
        return Truth(cards)

    def align_drawn(self, state: SuddsState) -> None:
        """Hunch cards just drawn lie in the order their player showed them: they were shown as a set, so
        nobody saw another order (a deferred decision, like the decks' order)."""
        for p in state.players:
            tokens = state.table.at(drawn_place(p))
            read = [state.knowledge[p].card_at(t) for t in tokens]
            true = [self.truth.cards.get(t) for t in tokens]
            if read != true and None not in read and sorted(read) == sorted(true):     # type: ignore[type-var]
                self.truth = Truth({**self.truth.cards, **dict(zip(tokens, read))})

    def flimflam_face(self, state: SuddsState, location: str) -> str:
        """The face of the Flimflam card at ``location`` as it is turned up ("" when none lies there).

        The family named it by its back at the deal (or the draw); every unseen card with that back is alike
        until turned up, so the face is decided now, uniformly among them (the card noted there included),
        as a shuffled deck would: nobody saw which was which. The engine then exchanges its notes
        (``SuddsRules.face_swap``), so the truth of every face-down card is again the engine's note.
        """
        cards = self.rules.face_candidates(state, location)
        return self.rng.choice(cards) if cards else ""

    def _top_hunches(self, state: SuddsState, n: int) -> list[str]:
        """The true cards on top of the hunch deck, the top one first."""
        stack = state.table.at(HUNCH_PILE)
        return [self.truth.cards[t] for t in reversed(stack[-n:])] if n else []

    # --- one random legal action ----------------------------------------------------------------
    def random_action(self, session: Any) -> dict:
        state = session.state
        assert isinstance(state, SuddsState)
        if state.phase == OVER:
            raise RuleViolation("Nobody can act: the game is over.")
        p = self.rules._actor(state)
        for _ in range(12):
            action = self._candidate(state, p)
            if self._legal(state, action):
                return action
        action = self._fallback(state, p)
        if not self._legal(state, action):
            raise RuleViolation(f"the simulator found no legal action for {p} in phase {state.phase}: {action}")
        return action

    def _legal(self, state: SuddsState, action: dict) -> bool:
        from ...game import action_from_json
        try:
            self.rules.apply(state.clone(), action_from_json(action, ACTIONS))
        except RuleViolation:
            return False
        return True

    def _fallback(self, state: SuddsState, p: str) -> dict:
        if state.phase == DIE:
            return {"type": "take_die", "player": p, "die": self.rules.legal_dice(state, p)[0], "news": True}
        if state.phase == AFTER:
            return {"type": "end_turn", "player": p}
        return self._candidate(state, p)

    def _candidate(self, state: SuddsState, p: str) -> dict:
        rng, rules = self.rng, self.rules
        b = state.boards[p]
        base = {"player": p}
        if state.phase == DEAL:
            ffs = list(state.ff_deck)
            rng.shuffle(ffs)
            display = rng.sample(sorted(state.cases_in_play), 4)
            return {"type": "deal", **base, "city": dict(zip(rules.box.locations, ffs)), "conspiracy": ffs[8],
                    "display": display}
        if state.phase == ROLL:
            return {"type": "roll", **base, "dice": {d: rng.randint(1, 6) for d in state.dice}}
        if state.phase == REVEAL:
            return {"type": "reveal", **base,
                    "cards": [self.truth.cards[state.table.top(conspiracy_place(i))] for i in (1, 2, 3, 4)]}
        if state.phase == DIE:
            stoolie = self._stoolie(state, p)
            if stoolie and rng.random() < 0.3:
                return stoolie
            die = rng.choice(rules.legal_dice(state, p))
            shift = 0
            if b.bullets and rng.random() < 0.25:
                shift = rng.choice([-1, 1]) * rng.randint(1, min(2, b.bullets))
            return {"type": "take_die", **base, "die": die, "shift": shift, "news": rng.random() < 0.1}
        if state.phase == LIMIT:
            over = rules.over_limits(state, p)
            ev: Counter = Counter()
            have = Counter({k: n for k, n in b.evidence.items() if n})
            for _ in range(over.get("evidence", 0)):
                k = rng.choice(sorted(have.elements()))
                have[k] -= 1
                ev[k] += 1
            hand = rng.sample(b.hand_known, min(len(b.hand_known), over.get("hand", 0)))
            pool = sorted(rules.case_pool(state))
            hand += rng.sample(pool, over.get("hand", 0) - len(hand))
            return {"type": "discard", **base, "above": rng.sample(b.above, over.get("above", 0)), "hand": hand,
                    "bullets": over.get("bullets", 0), "evidence": dict(ev)}
        if state.phase == AFTER:
            choices = [{"type": "end_turn", **base}]
            close = self._close(state, p)
            if close:
                choices += [close] * 3
            hunch = self._hunch(state, p)
            if hunch:
                choices += [hunch] * 3
            stoolie = self._stoolie(state, p)
            if stoolie:
                choices.append(stoolie)
            return rng.choice(choices)
        head = rules._head(state)
        assert state.phase == PENDING and head is not None
        kind = head["kind"]
        if kind == "action":
            return self._action(state, p, head["track"])
        if kind == "reroll":
            return {"type": "reroll", **base, "value": rng.randint(1, 6)}
        if kind == "snitch":
            free = [x for x in rules.box.locations if x not in state.snitch_at]
            return {"type": "place_snitch", **base, "location": rng.choice(free), "evidence": rng.choice(b.snitches)}
        if kind == "peek":
            pos = rng.choice(rules._uncovered(state))
            return {"type": "peek", **base, "position": pos,
                    "card": self.truth.cards[state.table.top(conspiracy_place(pos))]}
        if kind == "evidence":
            return {"type": "pick_evidence", **base, "evidence": rng.choice(PLAIN_EVIDENCE)}
        if kind == "cash_or_points":
            return {"type": "cash_or_points", **base, "choice": rng.choice(["cash", "points"])}
        if kind == "case":
            source = rng.choice([*state.display, *(["deck"] if state.case_deck else [])])
            refill = ""
            if source != "deck" and state.case_deck:
                refill = rng.choice(sorted(rules.case_pool(state)))
            return {"type": "take_case", **base, "source": source, "refill": refill}
        if kind == "bonus":
            can = [t for t in TRACKS if rules._cannot(state, p, t) is None] + ["news"]
            return {"type": "bonus", **base, "action": rng.choice(can)}
        # the hunch draw
        if b.cash and state.table.count(HUNCH_PILE) and rng.random() < 0.3:
            return {"type": "buy_hunch", **base, "card": self._top_hunches(state, 1)[0]}
        return {"type": "keep_hunch", **base, "card": rng.choice(state.drawn)}

    def _action(self, state: SuddsState, p: str, track: str) -> dict:
        rng, rules = self.rng, self.rules
        b = state.boards[p]
        base = {"player": p}
        if track == "office":
            n = rules.box.allowance("office", b.office_level)
            levels, cash, ups = dict(b.levels), b.cash, []
            for _ in range(rng.randint(0, n)):
                options = [t for t in TRACKS if levels[t] < LEVELS and rules.box.step_cost(t, levels[t] + 1) <= cash]
                if not options:
                    break
                t = rng.choice(options)
                levels[t] += 1
                cash -= rules.box.step_cost(t, levels[t])
                ups.append(t)
            return {"type": "improve", **base, "tracks": ups}
        if track == "calendar":
            return {"type": "calendar", **base}
        if track == "investigate":
            n = rules.box.allowance("investigate", b.levels["investigate"])
            here, path = b.location, []
            for _ in range(rng.randint(1, max(1, n))):
                options = [x for x in rules.box.neighbours[here]
                           if x not in path and x != b.location and x not in b.visited]
                if not options:
                    break
                here = rng.choice(options)
                path.append(here)
            cash, snitches = b.cash, []
            for loc in path:
                s = state.snitch_at.get(loc)
                if s and not s[2] and (s[0] == p or cash >= 1) and rng.random() < 0.7:
                    cash -= s[0] != p
                    snitches.append(loc)
            final = path[-1]
            token = state.table.top(city_place(final))
            found = self.truth.cards[token] if token is not None else ""
            moving = state.city.get(final)
            face = self.flimflam_face(state, final)
            returned = state.covers.get(rules.ff(moving).cover) if moving else None
            deck = [moving if c == face else c for c in state.ff_deck]
            deck += [returned] if returned else []
            return {"type": "investigate", **base, "path": path, "snitches": snitches, "found": found,
                    "draw": rng.choice(deck) if deck else "", "face": face}
        if track == "flimflam":
            n = rules.box.allowance("flimflam", b.levels["flimflam"])
            positions = sorted(state.covers)
            rng.shuffle(positions)
            take, cash, bullets, want = [], b.cash, b.bullets, rng.randint(1, max(1, n))
            for pos in positions:                    # only cards still affordable, up to the count wanted
                cost = rules.ff(state.covers[pos]).cost
                if len(take) < want and cost == "cash" and cash:
                    cash -= 1
                    take.append(pos)
                elif len(take) < want and cost == "bullet" and bullets:
                    bullets -= 1
                    take.append(pos)
            return {"type": "take_flimflam", **base, "positions": take or positions[:1]}
        if track == "cases":
            n = rules.box.allowance("cases", b.levels["cases"])
            display, deck, picks = list(state.display), state.case_deck, []
            for _ in range(rng.randint(1, max(1, n))):
                options = display + (["deck"] if deck else [])
                if not options:
                    break
                pick = rng.choice(options)
                if pick == "deck":
                    deck -= 1
                else:
                    display.remove(pick)
                picks.append(pick)
            need = min(4 - len(display), deck)
            refill = rng.sample(sorted(rules.case_pool(state)), need)
            return {"type": "take_cases", **base, "picks": picks, "refill": refill}
        return {"type": "moxie", **base}

    def _close(self, state: SuddsState, p: str) -> dict | None:
        rules = self.rules
        b = state.boards[p]
        candidates = list(b.hand_known)
        if b.hand_unknown:
            pool = sorted(rules.case_pool(state))
            candidates += self.rng.sample(pool, min(len(pool), b.hand_unknown))
        self.rng.shuffle(candidates)
        for card in candidates:
            pay = self._payment(rules.case(card).cost, Counter(b.evidence))
            if pay is not None:
                return {"type": "close_case", "player": p, "card": card, "pay": pay}
        return None

    @staticmethod
    def _payment(cost: tuple[str, ...], have: Counter) -> list[str] | None:
        left, pay = Counter(have), []
        for need in cost:
            if need == "any":
                continue
            if left[need]:
                left[need] -= 1
                pay.append(need)
            elif left["fedora"]:
                left["fedora"] -= 1
                pay.append("fedora")
            else:
                return None
        for need in cost:
            if need == "any":
                spare = [e for e in EVIDENCE if left[e]]
                if not spare:
                    return None
                left[spare[0]] -= 1
                pay.append(spare[0])
        return pay

    def _hunch(self, state: SuddsState, p: str) -> dict | None:
        rules = self.rules
        b = state.boards[p]
        if not b.above or not state.table.count(HUNCH_PILE):
            return None
        mine = [loc for loc, s in state.snitch_at.items() if s[0] == p]
        for n in (1, 2, 3):
            for cards in combinations(b.above, n):
                for k in range(0, min(len(mine), 3 - n) + 1):
                    if rules.makes_set(rules.hunch_items(list(cards), k)):
                        drawn = self._top_hunches(state, min(3, state.table.count(HUNCH_PILE)))
                        return {"type": "hunch", "player": p, "cards": list(cards), "snitches": mine[:k],
                                "drawn": drawn}
        return None

    def _stoolie(self, state: SuddsState, p: str) -> dict | None:
        """Reveal a stoolie the player holds (their own knowledge decides, as behind the privacy gate);
        the peek comes as the next step."""
        know = state.knowledge[p]
        stoolies = [c for t in state.table.at(Place("found", owner=p))
                    if self.rules.role.get(c := know.card_at(t) or "") == "stoolie"]
        if not stoolies or state.boards[p].cash < 1 or not self.rules._uncovered(state):
            return None
        return {"type": "use_stoolie", "player": p, "stoolie": stoolies[0]}
