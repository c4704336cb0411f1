"""The simulated table of "Where in the USA": true cards in the boxes and a random (legal) family.

Used by the property tests, the robustness suite, the benchmarks and the app's demo mode.
The random agents answer right about two times in three, look at what they reach, and when they
accuse they call the true Loot and Crook often enough for games to end. In Catch Carmen they say
"All placed!" nine times in ten before time runs out, and put a token on its own state nineteen
times in twenty.
"""

from __future__ import annotations

from typing import Any

from ...errors import RuleViolation
from ...game import GameState
from ...sim import Simulator, Truth


class CarmenUsaSimulator(Simulator):
    def deal(self, initial: GameState) -> Truth:
        """The 24 Clue Cards shuffled onto the Landmark Boxes; the Capital Tokens shuffled face down."""
        rules = self.rules
        boxes = sorted(initial.boxes.values())                       # type: ignore[attr-defined]
        clues = [c.id for c in rules.clues]
        self.rng.shuffle(clues)
        capitals = [c.id for c in rules.deck.of_kind("capital")]
        self.rng.shuffle(capitals)
        tokens = sorted(initial.table.tokens_where(kind="capital"))
        return Truth({**dict(zip(boxes, clues)), **dict(zip(tokens, capitals))})

    def _box_of(self, state: Any, card: str) -> str | None:
        for tok, c in self.truth.cards.items():
            if c == card:
                place = state.table.place_of(tok)
                return str(place) if place.area == "box" else None
        return None

    def random_action(self, session: Any) -> dict:
        prompt = session.prompt()
        if prompt.player is None or not prompt.options:
            raise RuleViolation("Nobody can act: the game is over.")
        rng, state, rules = self.rng, session.state, self.rules
        by = {o.action: o for o in prompt.options}
        act: dict[str, Any] = {"player": prompt.player}

        def pick(name: str) -> dict:
            opt = by[name]
            act["type"] = name
            for field, values in opt.targets.items():
                act[field] = rng.choice(values)
            for card_field, place_field in opt.reads.items():
                act[card_field] = self.card_at(state, act[place_field])
            return act

        if any(name in by for name in ("place_piece", "ask", "look", "draw_capitals", "start_clock", "flip_capital")):
            return pick(prompt.options[0].action)
        if "answer" in by:
            r = rng.random()
            if "pass" in by and r < 0.25:
                return pick("pass")
            if "choices" in by and r < 0.5:
                return pick("choices")
            act.update(type="answer", correct=rng.random() < 0.65)
            return act
        if "move" in by or "end_turn" in by:
            if "accuse" in by and rng.random() < 0.7:
                return pick("accuse")
            if "end_turn" in by:
                return pick("end_turn")
            pick("move")
            if rng.random() < 0.15:
                act["landmark"] = "none"
            return act
        if "call" in by:
            pick("call")
            want = "loot" if state.phase == "accusing_loot" else "crook"
            box = self._box_of(state, rules.card_of[(want, state.accuse_colour)])
            if box is not None and rng.random() < 0.6:
                act["box"], act["card"] = box, self.card_at(state, box)
            return act
        if "all_placed" in by:                  # the real tokens go down on the printed map meanwhile
            if rng.random() < 0.1:              # the clock ran out (sent by the clock, not an offered action)
                act["type"] = "time_up"
                return act
            return pick("all_placed")
        if "place_capital" in by:               # the check: where the token turned over lies
            pick("place_capital")
            card = act.get("card") or rules.public_card(state, state.flipped)
            if rng.random() < 0.95:
                act["state"] = rules.state_of[card]
            return act
        return pick(prompt.options[0].action)
