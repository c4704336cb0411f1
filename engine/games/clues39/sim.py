"""The simulated 39 Clues table: every card's true identity, and a random legal player.

The engine never knows a hand; the simulator does. When the random player plays a card from
its hand, the engine takes the hand's top token and learns its identity from the action, so
the simulator first exchanges its notes of two hand tokens (a hand has no order: nothing
physical changes) to keep token and card together.
"""

from __future__ import annotations

from typing import Any

from ...errors import RuleViolation
from ...game import GameState, action_from_json
from ...knowledge import EVERYONE
from ...sim import Simulator, Truth
from ...table import Place
from .library import AGENT, BLACK, FOUNDER, LOCATION, MONEY, ONE, PRESTIGE, REPLICATOR, SECRET, TWO
from .rules import (BLOCKING, DEALT, PLAYING, READ_DEAL, READ_SETUP, SPOTS, START, CluesState, deck_one, deck_two,
                    hand, spot)

# How eagerly the random player does each thing (a game should reach 39 in a few hundred actions).
WEIGHTS = {"retrieve": 6.0, "steal": 4.0, "sabotage": 2.0, "add": 4.0, "mission": 3.0, "money": 0.5}


class CluesSimulator(Simulator):
    """Each player's one-sided cards shuffled onto their one-sided tokens, two-sided likewise."""

    deal_rate = 0.3         # at the start of a turn, deal instead of playing
    stop_rate = 0.3         # after a play, end the turn
    block_rate = 0.8        # block with an available Prestige
    discard_rate = 0.3

    def deal(self, initial: GameState) -> Truth:
        assert isinstance(initial, CluesState)
        out: dict[int, str] = {}
        t = initial.table
        for p in initial.players:
            for kind, places in ((ONE, [deck_one(p), hand(p)]), (TWO, [deck_two(p)] + [spot(p, s) for s in SPOTS])):
                tokens = sorted(tok for pl in places for tok in t.at(pl))
                cards = [c for c, o in initial.owner.items() if o == p and initial.deck.card(c).kind == kind]
                self.rng.shuffle(cards)
                out.update(zip(tokens, cards))
        return Truth(out)

    # --- what the random player may use -------------------------------------------------
    def _available(self, state: CluesState, p: str) -> list[tuple[int, str, str]]:
        """(token, card, source place) of every card ``p`` could play now."""
        t = state.table
        out = [(tok, self.truth.cards[tok], str(hand(p))) for tok in t.at(hand(p))]
        for s in SPOTS:
            stack = t.at(spot(p, s))
            covered = state.money > 0 and p == state.current and state.phase in (START, PLAYING)
            chosen = stack if covered else stack[-1:]
            out += [(tok, self.truth.cards[tok], str(spot(p, s))) for tok in chosen]
        top = t.top(deck_two(p))
        if top is not None:
            out.append((top, self.truth.cards[top], str(deck_two(p))))
        return out

    def _from_hand_first(self, state: CluesState, p: str, tokens: list[int]) -> None:
        """Let the hand's top tokens hold the cards of ``tokens`` (in the order the engine takes them)."""
        stack = state.table.at(hand(p))
        cards = self.truth.cards
        assert isinstance(cards, dict)
        wanted = [cards[tok] for tok in tokens]
        for i, card in enumerate(wanted):
            target = stack[-1 - i]
            holder = next(tok for tok in stack if cards[tok] == card)
            cards[target], cards[holder] = cards[holder], cards[target]

    def prepare(self, state: GameState, action: dict) -> dict:
        """A card a family plays from a simulated hand (the demo's clicks): the engine takes the hand's
        top token for it, so the truth first lets the top tokens hold the cards played, in the order
        the engine takes them (as :meth:`random_action` does for its own plays)."""
        assert isinstance(state, CluesState)
        p = action.get("player")
        if p not in state.players:
            return action
        fields = ("agent", "location") if action.get("type") == "mission" else ("card",)
        stack = state.table.at(hand(p))
        tokens: list[int] = []
        for name in fields:
            card = action.get(name)
            if (not isinstance(card, str) or card not in state.deck or state.deck.card(card).kind != ONE
                    or state.knowledge[EVERYONE].token_of(card) is not None):
                continue
            tok = next((t for t in stack if self.truth.cards.get(t) == card and t not in tokens), None)
            if tok is not None:
                tokens.append(tok)
        if tokens:
            self._from_hand_first(state, p, tokens)
        return action

    def _legal(self, session: Any, action: dict) -> bool:
        try:
            session.rules.apply(session.state.clone(), action_from_json(action, session.rules.actions))
        except RuleViolation:
            return False
        return True

    def random_action(self, session: Any) -> dict:
        state = session.state
        assert isinstance(state, CluesState)
        prompt = session.prompt()
        p = prompt.player
        if p is None:
            raise RuleViolation("Nobody can act: the game is over.")
        rng = self.rng
        if state.phase in (READ_SETUP, READ_DEAL):
            place = rng.choice(prompt.option("reveal").targets["place"])
            return {"type": "reveal", "player": p, "place": place,
                    "card": self.truth.cards[state.table.top(Place.parse(place, state.players))]}
        if state.phase == BLOCKING:
            prestige = [(tok, c, src) for tok, c, src in self._available(state, p)
                        if state.deck.card(c).attrs["type"] == PRESTIGE]
            if prestige and rng.random() < self.block_rate:
                tok, card, src = rng.choice(prestige)
                if src == str(hand(p)):
                    self._from_hand_first(state, p, [tok])
                return {"type": "block", "player": p, "card": card, "source": src}
            return {"type": "allow", "player": p}
        if state.phase == DEALT:
            hand_toks = state.table.at(hand(p))
            if prompt.option("discard") and hand_toks and rng.random() < self.discard_rate:
                tok = rng.choice(hand_toks)
                card = self.truth.cards[tok]
                self._from_hand_first(state, p, [tok])
                return {"type": "discard", "player": p, "card": card, "source": str(hand(p))}
            return {"type": "end_turn", "player": p}
        if state.phase == START and rng.random() < self.deal_rate:
            return {"type": "deal", "player": p}
        if state.phase == PLAYING and rng.random() < self.stop_rate:
            return {"type": "end_turn", "player": p}
        plays = self._plays(state, p)
        rng.shuffle(plays)
        plays.sort(key=lambda kv: -kv[0] * rng.random())
        for _, action, hand_tokens in plays[:12]:
            if self._legal(session, action):
                if hand_tokens:
                    self._from_hand_first(state, p, hand_tokens)
                return action
        return {"type": "deal" if state.phase == START else "end_turn", "player": p}

    def _plays(self, state: CluesState, p: str) -> list[tuple[float, dict, list[int]]]:
        """(weight, action, hand tokens it takes in order) for plausible plays."""
        avail = self._available(state, p)
        a = {c: state.deck.card(c).attrs for _, c, _ in avail}
        colours = sorted(state.deck.card(c).attrs["colour"] for c in state.deck.cards
                         if state.deck.card(c).attrs["colour"]) or [BLACK]
        hand_place = str(hand(p))
        out: list[tuple[float, dict, list[int]]] = []

        def hand_toks(*items: tuple[int, str, str]) -> list[int]:
            return [tok for tok, _, src in items if src == hand_place]
        for x in avail:
            tok, c, src = x
            kind = a[c]["type"]
            if kind == MONEY and any(state.table.count(spot(p, s)) > 1 for s in SPOTS) and state.money == 0:
                out.append((WEIGHTS["money"], {"type": "money", "player": p, "card": c, "source": src}, hand_toks(x)))
            if kind in (AGENT, REPLICATOR):
                for y in avail:
                    if y[0] == tok or a[y[1]]["type"] not in (LOCATION, REPLICATOR) or (y[2] == src != hand_place):
                        continue
                    act = {"type": "mission", "player": p, "agent": c, "location": y[1], "agent_source": src,
                           "location_source": y[2]}
                    if kind == REPLICATOR:
                        act["agent_colour"] = self.rng.choice(colours)
                    if a[y[1]]["type"] == REPLICATOR:
                        act["colour" if kind != REPLICATOR else "location_colour"] = self.rng.choice(colours)
                    out.append((WEIGHTS["mission"], act, hand_toks(x, y)))
            for m in state.missions.values():
                if m.owner == p:
                    if kind in (SECRET, FOUNDER) and a[c]["colour"] in (m.location_colour, BLACK):
                        out.append((WEIGHTS["add"], {"type": "add", "player": p, "mission": m.place, "card": c,
                                                     "source": src}, hand_toks(x)))
                    if m.touched != state.turn and kind in (AGENT, LOCATION, REPLICATOR):
                        out.append((WEIGHTS["retrieve"], {"type": "retrieve", "player": p, "mission": m.place,
                                                          "card": c, "source": src}, hand_toks(x)))
                else:
                    if kind == AGENT and a[c]["colour"] == m.location_colour:
                        out.append((WEIGHTS["sabotage"], {"type": "sabotage", "player": p, "mission": m.place,
                                                          "card": c, "source": src}, hand_toks(x)))
                    if kind == LOCATION and m.location_name is not None:
                        out.append((WEIGHTS["steal"], {"type": "steal", "player": p, "mission": m.place,
                                                       "card": c, "source": src}, hand_toks(x)))
        return out


def known_cards(state: CluesState) -> dict[int, str]:
    """token -> card for every card everyone has seen (what the engine knows)."""
    return dict(state.knowledge[EVERYONE].known)
