"""The Carmen Sandiego card game.

Rulebook: ``shared/rulebooks/carmen-sandiego-card-game.txt``; our reading of every
ambiguous point is in ``docs/rules/carmen-cards.md`` (sections are cited in each
``RuleViolation``). The app never knows a face-down card until someone looks at it or
flips it: every identity arrives in an action (from the camera or a private pick).

>>> from engine.session import Session
>>> s = Session.new("carmen-cards", ["Julie", "Amberley", "Mark"], {"ages": {"Julie": 8, "Amberley": 10, "Mark": 12}})
>>> s.prompt().text
'Julie, roll the die (or call a warrant).'
>>> _ = s.apply(Roll("Julie", face=1))
>>> s.prompt().text
'Julie, look at one of your own Loot cards: Top or Bottom.'
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Mapping

from ..cards import Deck
from ..dice import DieError, DieSpec, load_die
from ..errors import BadInput, RuleViolation
from ..game import (Action, Assist, Deduction, GameState, Journal, JournalEntry, Option, Outcome, Prompt,
                    Rules)
from ..knowledge import EVERYONE, PUBLIC, private
from ..sim import CARMEN_WEIGHTS, Simulator
from ..table import Place
from ..worlds import card_marginals

LOOT, LOCATION, HENCHMAN = "loot", "location", "henchman"
KINDS = (LOOT, LOCATION, HENCHMAN)
MASTERMIND = "mastermind"          # the deck's role for Carmen herself
RESERVED_NAMES = {"center", "pile", "out"}

# Rulebook section names, as printed in the rulebook.
SETUP, PLAY, DICE, LEADS, DOTS, MORE, CLOSING, CATCHING, END = (
    "Setup", "Game Play", "It's Getting Dicey", "Chasing Leads", "Connecting the Dots",
    "Picking More Cards", "Closing in", "Catching Carmen", "End of the Game")


# --- actions -----------------------------------------------------------------------
@dataclass(frozen=True)
class Roll(Action):
    """Chance: the die shows ``face`` (1-6; the die file says which card type it shows)."""
    type = "roll"
    face: int


@dataclass(frozen=True)
class Peek(Action):
    """Secretly look at the card at ``slot``; it is ``card``."""
    type = "peek"
    slot: str
    card: str
    confirm: bool = False


@dataclass(frozen=True)
class Warrant(Action):
    """Flip the Loot at ``loot`` and the Location at ``location`` (they read as the cards given)."""
    type = "warrant"
    loot: str
    location: str
    loot_card: str
    location_card: str
    confirm: bool = False


@dataclass(frozen=True)
class FinalWarrant(Action):
    """The warrant for Carmen: flip the center Loot and Location (then a Henchman)."""
    type = "final_warrant"
    loot_card: str
    location_card: str
    loot: str = "center/loot"
    location: str = "center/location"
    confirm: bool = False


@dataclass(frozen=True)
class FlipHenchman(Action):
    """After a matching pair: flip the Henchman at ``slot``; it is ``card``."""
    type = "flip_henchman"
    slot: str
    card: str
    confirm: bool = False


@dataclass(frozen=True)
class Swap(Action):
    """Exchange the card at ``slot`` with the center card of the same type, unseen."""
    type = "swap"
    slot: str


@dataclass(frozen=True)
class DeclineSwap(Action):
    """Do not use an optional swap."""
    type = "decline_swap"


@dataclass(frozen=True)
class EndTurn(Action):
    type = "end_turn"


ACTIONS: dict[str, type[Action]] = {
    cls.type: cls for cls in (Roll, Peek, Warrant, FinalWarrant, FlipHenchman, Swap, DeclineSwap, EndTurn)
}

# Phases: who acts and what is legal.
START, PEEK, END_OF_TURN, HENCHMAN_FLIP, MATCH_SWAP, PENALTY_SWAP, REPLACE, OVER = (
    "start", "peek", "end", "henchman", "match_swap", "penalty_swap", "replace", "over")


class CarmenState(GameState):
    """The table plus where in the turn we are."""

    def __init__(self, players: tuple[str, ...], deck: Deck, slots: tuple[str, ...]) -> None:
        super().__init__(players, deck)
        self.slots = slots                  # column positions, top first
        self.phase = START
        self.rolled: str | None = None      # card type the die showed this turn
        self.looked = False                 # this turn's one look is done
        # (player, token): that gumshoe has had an opportunity to look at that card (Chasing Leads),
        # a public fact: everyone saw them look at it.
        self.had_look: set[tuple[str, int]] = set()
        self.warrant_used = False
        self.warrant_at_start = False
        self.final = False                  # the warrant under way is the final one
        self.swapper: str | None = None     # who swaps now (penalty or replacement)
        self.exposed: list[str] = []        # center card types waiting for a replacement
        self.accuser: str | None = None
        self.last_matcher: str | None = None
        self.turn = 1


def column(player: str, kind: str, slot: str) -> Place:
    return Place(kind, player, slot)


CENTER = {k: Place("center", slot=k) for k in KINDS}
PILE = {k: Place("pile", slot=k) for k in KINDS}
OUT = Place("out")


class CarmenRules(Rules):
    game_id = "carmen-cards"
    title = "Carmen Sandiego card game"
    actions = ACTIONS

    def __init__(self, deck: Deck, die: DieSpec | None = None) -> None:
        super().__init__(deck)
        for kind in KINDS:
            if kind not in deck.kinds:
                raise RuleViolation(f"The deck {deck.source} has no {kind!r} cards.", SETUP)
        self.die = die or load_die("carmen")
        self.mastermind = deck.with_role(MASTERMIND).id
        self.kind_name = {k: deck.kinds[k].name for k in KINDS}
        # The journal's line order, like the paper one: each Location beside its Loot, then Henchmen.
        order = []
        for loc in deck.of_kind(LOCATION):
            order.append(loc)
            if loc.pair:
                order.append(deck.card(loc.pair))
        seen = {c.id for c in order}
        order += [c for c in deck.of_kind(LOOT) if c.id not in seen] + deck.of_kind(HENCHMAN)
        self.journal_order = tuple(order)
        self._labels: dict[Place, str] = {}

    # --- setup ---------------------------------------------------------------------
    def setup(self, players: tuple[str, ...], options: Mapping[str, Any]) -> CarmenState:
        """Deal: 2 gumshoes get 3 of each type, 3-4 get 2; one of each face down in the center.

        ``options["ages"]`` (name -> age) makes the youngest start; otherwise the first
        listed starts. Players are listed in seating order, each one's left neighbour next.
        """
        if not 2 <= len(players) <= 4:
            raise RuleViolation("The Carmen Sandiego card game is for 2 to 4 gumshoes.", SETUP)
        for name in players:
            if not name or not name.strip() or "/" in name or name.startswith("~") or name.lower() in RESERVED_NAMES:
                raise BadInput(f"{name!r} cannot be a gumshoe's name (no '/', not 'center', 'pile' or 'out').")
        if len(set(players)) != len(players):
            raise BadInput("Two gumshoes have the same name; add an initial to tell them apart.")
        per = 3 if len(players) == 2 else 2
        slots = ("top", "center", "bottom") if per == 3 else ("top", "bottom")
        needed = 1 + per * len(players)
        for kind in KINDS:
            if self.deck.kinds[kind].count < needed:
                raise RuleViolation(f"The deck has too few {self.deck.kinds[kind].plural} to deal.", SETUP)
        state = CarmenState(tuple(players), self.deck, slots)
        t = state.table
        for kind in KINDS:
            for _ in range(self.deck.kinds[kind].count):
                t.add(kind, PILE[kind])
            t.move(t.top(PILE[kind]), CENTER[kind])
            for p in players:
                for slot in slots:
                    t.move(t.top(PILE[kind]), column(p, kind, slot))
        ages = options.get("ages") or {}
        if ages:
            unknown = set(ages) - set(players)
            if unknown:
                raise BadInput(f"Ages given for someone not playing: {', '.join(sorted(unknown))}.")
            # Youngest first; ties go to whoever sits first in the list.
            state.current = min(players, key=lambda p: (ages.get(p, float("inf")), players.index(p)))
        state.emit("setup", f"Deal {per} cards of each type face down to each gumshoe and one of each type "
                            f"face down in the center. {state.current} goes first.",
                   per=per, players=list(players), first=state.current)
        return state

    def simulator(self, initial: GameState, seed: int) -> Simulator:
        return CarmenSimulator(self, initial, seed)

    def place_words(self, state: GameState, place: str, viewer: str | None = None) -> str:
        """'your Top Loot card' (to ``viewer``), "Mark's Top Loot card", 'the center Loot card',
        'the Loot draw pile', 'out of play'."""
        try:
            where = Place.parse(place, state.players)
        except ValueError:
            return place
        if where.area == "pile":
            return f"the {self.kind_name.get(where.slot or '', '')} draw pile"
        if where.area == "out":
            return "out of play"
        text = self.slot_words(where, viewer)
        return text.replace("their own ", "your ", 1) if where.owner == viewer else text

    # --- helpers -----------------------------------------------------------------
    def label(self, state: CarmenState, place: Place) -> str:
        """Where a card lies, as the journal writes it."""
        text = self._labels.get(place)
        if text is None:
            text = self._labels[place] = self._label(place)
        return text

    def _label(self, place: Place) -> str:
        if place.owner is not None:
            return f"{place.owner} / {(place.slot or '').capitalize()}"
        if place.area == "center":
            return "Table center"
        if place.area == "pile":
            return f"{self.deck.kinds[place.slot].name} pile"
        return "Out of play"

    def slot_words(self, place: Place, viewer: str | None = None) -> str:
        """'your Top Loot card', "Mark's Top Loot card", 'the center Loot card'."""
        kind = self.kind_name.get(place.area if place.owner else place.slot or "", "")
        if place.owner is None:
            return f"the center {kind} card"
        whose = "their own" if place.owner == viewer else f"{place.owner}'s"
        return f"{whose} {(place.slot or '').capitalize()} {kind} card"

    def column_tokens(self, state: CarmenState, player: str, kind: str) -> list[int]:
        return [tok for slot in state.slots for tok in state.table.at(column(player, kind, slot))]

    def all_column_tokens(self, state: CarmenState, kind: str, *, exclude: str | None = None) -> list[int]:
        return [tok for p in state.players if p != exclude for tok in self.column_tokens(state, p, kind)]

    def places(self, state: CarmenState, tokens: list[int]) -> tuple[str, ...]:
        return tuple(str(state.table.place_of(t)) for t in tokens)

    def has_cards(self, state: CarmenState, player: str) -> bool:
        return any(self.column_tokens(state, player, k) for k in KINDS)

    def peek_targets(self, state: CarmenState, player: str, kind: str) -> tuple[list[int], bool]:
        """Legal slots for a look, and whether they are the player's own unseen cards.

        "Unseen" is public (Chasing Leads: "until you have had an opportunity to look at your new card"):
        a card counts as seen once everyone saw its owner look at it, or saw it face up. Never the
        player's own notes: a note dropped after their own two reads clashed (a private question)
        would otherwise change the shared prompt and tell the table of the mix-up (issue 27).
        """
        public = state.knowledge[EVERYONE]
        own = self.column_tokens(state, player, kind)
        unseen = [t for t in own if (player, t) not in state.had_look and public.card_at(t) is None]
        if unseen:
            return unseen, True
        others = self.all_column_tokens(state, kind, exclude=player)
        return (others or own), False

    def _token(self, state: CarmenState, place_text: str) -> tuple[int, Place]:
        try:
            named = Place.parse(place_text, state.players)
        except ValueError:
            named = None
        if named is not None and named.owner is not None and named.area in KINDS and named.slot not in state.slots:
            # The column positions depend on the number of gumshoes (Setup): 3 cards for 2, else 2.
            where = " and ".join(slot.capitalize() for slot in state.slots)
            raise RuleViolation(f"With {len(state.players)} gumshoes each column has {where} only: there is no "
                                f"{str(named.slot).capitalize()} {self.kind_name[named.area]} card.", SETUP)
        token = state.token_at(place_text)
        return token, state.table.place_of(token)

    def _actor(self, state: CarmenState) -> str | None:
        if state.phase == OVER:
            return None
        if state.phase in (PENALTY_SWAP, REPLACE):
            return state.swapper
        return state.current

    # --- the rules -------------------------------------------------------------------
    def apply(self, state: GameState, action: Action) -> None:
        assert isinstance(state, CarmenState)
        if state.phase == OVER:
            raise RuleViolation("The game is over.", END)
        actor = self._actor(state)
        if action.player != actor:
            if action.player not in state.players:
                raise BadInput(f"{action.player!r} is not playing in this game.")
            if action.player in state.eliminated:
                raise RuleViolation(f"{action.player} is out of the game and cannot play.", END)
            raise RuleViolation(f"It is {actor}'s move now, not {action.player}'s.", DICE)
        handler = getattr(self, f"_do_{action.type}", None)
        if handler is None or not isinstance(action, ACTIONS[action.type]):
            raise BadInput(f"The Carmen game has no action {action.type!r}.")
        handler(state, action)

    def _do_roll(self, state: CarmenState, a: Roll) -> None:
        if state.phase != START:
            raise RuleViolation("You roll the die only once, at the start of your turn.", DICE)
        try:
            kind = self.die.shows(a.face)
        except DieError as exc:
            raise BadInput(str(exc)) from None
        if kind not in KINDS:
            raise BadInput(f"The die face {a.face} shows {kind!r}, which is not a card type of this game.")
        state.rolled = kind
        state.emit("roll", f"{a.player} rolled {self.kind_name[kind]}.", face=a.face, kind=kind)
        targets, _ = self.peek_targets(state, a.player, kind)
        if targets:
            state.phase = PEEK
        else:
            state.phase = END_OF_TURN
            state.emit("no_peek", f"No gumshoe has a {self.kind_name[kind]} card to look at.")

    def _do_peek(self, state: CarmenState, a: Peek) -> None:
        if state.phase != PEEK:
            if state.looked:
                raise RuleViolation("You look at one card on each turn, and you have had your look: end your turn "
                                    "(or call a warrant).", PLAY)
            if state.phase == END_OF_TURN:
                raise RuleViolation("There was no card of that type to look at this turn: end your turn (or call "
                                    "a warrant).", PLAY)
            raise RuleViolation("Roll the die first: it says which type of card you may look at.", DICE)
        token, place = self._token(state, a.slot)
        kind = state.rolled
        assert kind is not None
        targets, own_first = self.peek_targets(state, a.player, kind)
        if token not in targets:
            if place.owner is None:
                raise RuleViolation("You may look only at cards in front of a gumshoe, not the center or the piles.", LEADS)
            if state.table.kind(token) != kind:
                raise RuleViolation(f"You rolled {self.kind_name[kind]}: look at a {self.kind_name[kind]} card.", DICE)
            if own_first:
                raise RuleViolation(
                    f"Look at your own {self.kind_name[kind]} cards first: you have not seen "
                    f"{'them all' if len(targets) > 1 else 'your ' + self.label(state, state.table.place_of(targets[0])).split(' / ')[1]} yet.",
                    LEADS)
            raise RuleViolation("You have seen all your own cards of this type: look at another gumshoe's.", LEADS)
        state.observe(token, a.card, private(a.player), confirm=a.confirm)
        state.had_look.add((a.player, token))
        state.emit("peek", f"{a.player} looked at {self.slot_words(place, a.player)}.", place=str(place))
        state.emit("seen", f"{a.player} saw {self.deck.name_of(a.card)} ({self.label(state, place)}).",
                   private(a.player), place=str(place), card=a.card)
        state.looked = True
        state.phase = END_OF_TURN

    def _check_warrant_time(self, state: CarmenState) -> None:
        if state.phase not in (START, END_OF_TURN):
            raise RuleViolation("A warrant is called at the beginning or the end of your turn.", DOTS)
        if state.warrant_used:
            raise RuleViolation("You have already called a warrant this turn.", DOTS)

    def _flip_pair(self, state: CarmenState, a: Warrant | FinalWarrant, area: str) -> tuple[int, int, bool]:
        loot, loot_place = self._token(state, a.loot)
        loc, loc_place = self._token(state, a.location)
        for place, kind in ((loot_place, LOOT), (loc_place, LOCATION)):
            ok_area = place.area == "center" if area == "center" else place.owner is not None
            if not ok_area or state.table.kind(loot if kind == LOOT else loc) != kind:
                where = "the center" if area == "center" else "a gumshoe's column"
                raise RuleViolation(f"Pick a {self.kind_name[kind]} card from {where}.",
                                    CATCHING if area == "center" else DOTS)
        state.warrant_at_start = state.phase == START
        state.warrant_used = True
        state.accuser = a.player
        state.reveal(loot, a.loot_card, confirm=a.confirm)
        state.reveal(loc, a.location_card, confirm=a.confirm)
        match = self.deck.card(a.loot_card).pair == a.location_card
        return loot, loc, match

    def _do_warrant(self, state: CarmenState, a: Warrant) -> None:
        self._check_warrant_time(state)
        loot, loc, match = self._flip_pair(state, a, "column")
        names = f"{self.deck.name_of(a.loot_card)} and {self.deck.name_of(a.location_card)}"
        state.emit("warrant", f"{a.player} called a warrant and flipped {names}.", PUBLIC,
                   loot=a.loot, location=a.location, loot_card=a.loot_card, location_card=a.location_card)
        if match:
            for tok in (loot, loc):
                state.table.move(tok, OUT, face_up=True)
            state.last_matcher = a.player
            state.emit("verdict", f"They match! {names} are out of play. Now flip a Henchman.", match=True)
            self._to_henchman_flip(state)
            return
        for tok in (loot, loc):
            state.table.set_face_up(tok, False)     # back face down where they were; now known to all
        state.emit("verdict", f"No match: {names} do not go together. The cards go back face down.", match=False)
        left = state.left_of(a.player)
        if left != a.player and (self.column_tokens(state, left, LOOT) or self.column_tokens(state, left, LOCATION)):
            state.phase, state.swapper = PENALTY_SWAP, left
        else:
            self._end_turn(state, state.left_of(a.player))

    def _to_henchman_flip(self, state: CarmenState) -> None:
        if self._henchman_targets(state):
            state.phase = HENCHMAN_FLIP
        else:
            state.emit("no_henchman", "There is no Henchman card left to flip.")
            self._after_match(state)

    def _henchman_targets(self, state: CarmenState) -> list[int]:
        targets = self.all_column_tokens(state, HENCHMAN)
        if state.final:
            targets += state.table.at(CENTER[HENCHMAN])
        return targets

    def _do_final_warrant(self, state: CarmenState, a: FinalWarrant) -> None:
        self._check_warrant_time(state)
        state.final = True
        loot, loc, match = self._flip_pair(state, a, "center")
        names = f"{self.deck.name_of(a.loot_card)} and {self.deck.name_of(a.location_card)}"
        state.emit("final_warrant", f"{a.player} called a warrant for Carmen's arrest and flipped the center "
                                    f"cards: {names}.", loot_card=a.loot_card, location_card=a.location_card)
        if match:
            state.emit("verdict", f"The center cards match: {names}. Now flip the Henchman you think is Carmen.",
                       match=True)
            state.phase = HENCHMAN_FLIP
            return
        state.emit("verdict", f"The center cards do not match: {names}. {a.player} stays in the game; "
                              f"the exposed center cards will be replaced.", match=False)
        state.exposed = [LOOT, LOCATION]
        self._next_replacer(state, a.player)

    def _do_flip_henchman(self, state: CarmenState, a: FlipHenchman) -> None:
        if state.phase != HENCHMAN_FLIP:
            raise RuleViolation("You flip a Henchman only after flipping a matching Loot and Location.", DOTS)
        token, place = self._token(state, a.slot)
        if token not in self._henchman_targets(state):
            raise RuleViolation("Pick a Henchman card from a gumshoe's column"
                                + (" or the center." if state.final else "."), DOTS)
        state.reveal(token, a.card, confirm=a.confirm)
        name = self.deck.name_of(a.card)
        is_carmen = a.card == self.mastermind
        if state.final:
            if is_carmen:
                state.emit("verdict", f"It is {name}! {a.player} has arrested Carmen and wins the game!",
                           card=a.card, carmen=True)
                self._finish(state, Outcome((a.player,), tuple(p for p in state.players if p != a.player),
                                            f"{a.player} arrested Carmen Sandiego."))
                return
            state.table.move(token, OUT, face_up=True)
            state.eliminated.append(a.player)
            state.emit("verdict", f"{name} is not Carmen. {a.player} is out of the game.", card=a.card, carmen=False)
            state.emit("eliminated", f"{a.player} is out of the game.", player=a.player)
            if place.owner is None:
                state.exposed = [LOOT, LOCATION, HENCHMAN]
            else:
                state.exposed = [LOOT, LOCATION]
            if len(state.active) == 1:
                winner = state.active[0]
                state.emit("verdict", f"{winner} is the last gumshoe standing and wins!", winner=winner)
                self._finish(state, Outcome((winner,), tuple(state.eliminated), f"{winner} is the last gumshoe standing."))
                return
            self._next_replacer(state, a.player)
            return
        if is_carmen:
            state.emit("verdict", f"Oh no, {name}! The cover is blown: Carmen steals the loot and escapes. "
                                  f"Everyone loses.", card=a.card, carmen=True)
            self._finish(state, Outcome((), state.players, "Carmen was flipped too early and escaped."))
            return
        state.table.move(token, OUT, face_up=True)
        state.emit("arrest", f"{a.player} arrested {name}. All three cards are out of play.", card=a.card)
        self._after_match(state)

    def _swap_targets(self, state: CarmenState, player: str, phase: str | None = None) -> list[int]:
        """Cards the player may exchange with the center in this phase (default: the current one)."""
        phase = phase or state.phase
        centers = {k for k in KINDS if state.table.count(CENTER[k])}
        if phase == MATCH_SWAP:
            if self.has_cards(state, player):
                return [t for k in KINDS if k in centers for t in self.column_tokens(state, player, k)]
            return [t for k in KINDS if k in centers for t in self.all_column_tokens(state, k, exclude=player)]
        if phase == PENALTY_SWAP:
            return [t for k in (LOOT, LOCATION) if k in centers for t in self.column_tokens(state, player, k)]
        if phase == REPLACE:
            return [t for k in state.exposed for t in self.column_tokens(state, player, k)]
        return []

    def _after_match(self, state: CarmenState) -> None:
        if self._swap_targets(state, state.current, MATCH_SWAP):
            state.phase = MATCH_SWAP
        else:
            self._resume_after_warrant(state)

    def _resume_after_warrant(self, state: CarmenState) -> None:
        if state.warrant_at_start:
            state.phase = START      # the normal turn follows: roll the die
        else:
            self._end_turn(state, state.left_of(state.current))

    def _do_swap(self, state: CarmenState, a: Swap) -> None:
        if state.phase not in (MATCH_SWAP, PENALTY_SWAP, REPLACE):
            raise RuleViolation("You may swap with the center only after a warrant.", CLOSING)
        token, place = self._token(state, a.slot)
        if token not in self._swap_targets(state, a.player):
            raise RuleViolation(self._swap_rule_text(state), CLOSING if state.phase == MATCH_SWAP else
                                (DOTS if state.phase == PENALTY_SWAP else END))
        kind = state.table.kind(token)
        assert kind is not None
        center = state.table.top(CENTER[kind])
        if place.owner == a.player or center is None:
            if center is None:       # an exposed center Henchman went out of play: just fill the gap
                state.table.move(token, CENTER[kind])
            else:
                state.table.swap(token, center)
                state.table.set_face_up(center, False)
            state.emit("swap", f"{a.player} swapped {self.slot_words(place, a.player)} with the center "
                               f"{self.kind_name[kind]} card.", place=str(place), kind=kind)
        else:
            # Out of cards: another gumshoe's card goes to the center, the center card comes to you.
            dest = column(a.player, kind, state.slots[0])
            state.table.move(center, dest, face_up=False)
            state.table.move(token, CENTER[kind])
            state.emit("swap", f"{a.player} has no cards left, so moved {self.slot_words(place)} to the center "
                               f"and took the center {self.kind_name[kind]} card.", place=str(place), kind=kind)
        if state.phase == MATCH_SWAP:
            self._resume_after_warrant(state)
        elif state.phase == PENALTY_SWAP:
            self._end_turn(state, state.left_of(state.current))
        else:
            state.exposed.remove(kind)
            self._next_replacer(state, a.player)

    def _swap_rule_text(self, state: CarmenState) -> str:
        if state.phase == PENALTY_SWAP:
            return "Swap one of your own Loot or Location cards with the center card of the same type."
        if state.phase == REPLACE:
            kinds = " or ".join(self.kind_name[k] for k in state.exposed)
            return f"Replace an exposed center card: give one of your own {kinds} cards."
        return ("Swap one of your own cards with the center card of the same type "
                "(another gumshoe's only when you have no cards left).")

    def _do_decline_swap(self, state: CarmenState, a: DeclineSwap) -> None:
        if state.phase == MATCH_SWAP:
            state.emit("no_swap", f"{a.player} chose not to swap with the center.")
            self._resume_after_warrant(state)
        elif state.phase == PENALTY_SWAP:
            state.emit("no_swap", f"{a.player} chose not to swap with the center.")
            self._end_turn(state, state.left_of(state.current))
        elif state.phase == REPLACE:
            raise RuleViolation("Exposed center cards must be replaced: give one of your own cards.", END)
        else:
            raise RuleViolation("There is no swap to decline now.", CLOSING)

    def _next_replacer(self, state: CarmenState, after: str) -> None:
        """The next gumshoe to the left who can replace an exposed center card."""
        if state.exposed:
            candidate = after
            for _ in range(len(state.players)):
                candidate = state.left_of(candidate)
                if any(self.column_tokens(state, candidate, k) for k in state.exposed):
                    state.phase, state.swapper = REPLACE, candidate
                    return
            for kind in state.exposed:       # nobody can: the cards go back face down, known to all
                tok = state.table.top(CENTER[kind])
                if tok is not None:
                    state.table.set_face_up(tok, False)
            state.emit("no_replacement", "Nobody has a card to replace the exposed center cards; "
                                         "they are turned face down again.")
            state.exposed = []
        accuser = state.accuser or state.current
        self._end_turn(state, state.left_of(accuser))

    def _do_end_turn(self, state: CarmenState, a: EndTurn) -> None:
        if state.phase == START:
            raise RuleViolation("Roll the die and look at a card before ending your turn.", DICE)
        if state.phase == PEEK:
            raise RuleViolation("Look at a card first: the die says which type.", DICE)
        if state.phase != END_OF_TURN:
            raise RuleViolation("Finish the warrant first.", DOTS)
        self._end_turn(state, state.left_of(a.player))

    def _end_turn(self, state: CarmenState, next_player: str) -> None:
        self._replenish(state)
        state.current = next_player
        state.phase, state.rolled, state.swapper, state.looked = START, None, None, False
        state.warrant_used = state.warrant_at_start = state.final = False
        state.exposed, state.accuser = [], None
        state.turn += 1
        state.emit("turn", f"{next_player}'s turn.", player=next_player)

    def _replenish(self, state: CarmenState) -> None:
        """Back to the starting count per column, from the last matcher to the left."""
        first = state.last_matcher or state.current
        order = [first] + [state.players[(state.players.index(first) + i) % len(state.players)]
                           for i in range(1, len(state.players))]
        for player in order:
            if player in state.eliminated:
                continue
            drawn = []
            for kind in KINDS:
                for slot in state.slots:
                    place = column(player, kind, slot)
                    if state.table.count(place) == 0 and state.table.count(PILE[kind]):
                        state.table.move(state.table.top(PILE[kind]), place, face_up=False)
                        drawn.append((kind, slot))
            if drawn:
                words = ", ".join(f"a {self.kind_name[k]} card ({s.capitalize()})" for k, s in drawn)
                state.emit("draw", f"{player} draws {words}.", player=player,
                           draws=[{"kind": k, "slot": s} for k, s in drawn])

    def _finish(self, state: CarmenState, outcome: Outcome) -> None:
        state.outcome = outcome
        state.phase = OVER
        state.emit("game_over", outcome.reason, winners=list(outcome.winners), losers=list(outcome.losers))

    # --- prompt ----------------------------------------------------------------------
    def prompt(self, state: GameState) -> Prompt:
        assert isinstance(state, CarmenState)
        if state.phase == OVER:
            assert state.outcome is not None
            return Prompt(None, f"Game over: {state.outcome.reason}")
        p = self._actor(state)
        assert p is not None
        warrants = []
        if state.phase in (START, END_OF_TURN) and not state.warrant_used:
            loots, locs = self.all_column_tokens(state, LOOT), self.all_column_tokens(state, LOCATION)
            if loots and locs:
                warrants.append(Option("warrant", "I have a warrant!",
                                       {"loot": self.places(state, loots), "location": self.places(state, locs)},
                                       {"loot_card": "loot", "location_card": "location"}))
            if state.table.count(CENTER[LOOT]) and state.table.count(CENTER[LOCATION]):
                warrants.append(Option("final_warrant", "I have a warrant for Carmen's arrest!",
                                       {"loot": (str(CENTER[LOOT]),), "location": (str(CENTER[LOCATION]),)},
                                       {"loot_card": "loot", "location_card": "location"}))
        if state.phase == START:
            roll = Option("roll", "Roll the die", {"face": tuple(f for f, _ in self.die.faces)})
            if state.warrant_used:
                return Prompt(p, f"{p}, now roll the die.", (roll,))
            return Prompt(p, f"{p}, roll the die (or call a warrant).", (roll, *warrants))
        if state.phase == PEEK:
            kind = state.rolled
            assert kind is not None
            targets, own = self.peek_targets(state, p, kind)
            slots = self.places(state, targets)
            if own and len(slots) == 1:
                text = f"{p}, look at your {str(Place.parse(slots[0], state.players).slot).capitalize()} " \
                       f"{self.kind_name[kind]} card."
            elif own:
                where = " or ".join(str(Place.parse(s, state.players).slot).capitalize() for s in slots)
                text = f"{p}, look at one of your own {self.kind_name[kind]} cards: {where}."
            else:
                text = f"{p}, look at another gumshoe's {self.kind_name[kind]} card."
            return Prompt(p, text, (Option("peek", "Look at this card", {"slot": slots}, {"card": "slot"},
                                               private=True),))
        if state.phase == END_OF_TURN:
            return Prompt(p, f"{p}, end your turn (or call a warrant).",
                          (Option("end_turn", "End my turn"), *warrants))
        if state.phase == HENCHMAN_FLIP:
            targets = self.places(state, self._henchman_targets(state))
            text = (f"{p}, flip the Henchman you think is Carmen." if state.final
                    else f"{p}, flip a Henchman you know is not Carmen.")
            return Prompt(p, text, (Option("flip_henchman", "Flip this Henchman", {"slot": targets}, {"card": "slot"}),))
        targets = self.places(state, self._swap_targets(state, p))
        swap = Option("swap", "Swap with the center", {"slot": targets})
        decline = Option("decline_swap", "No swap")
        if state.phase == MATCH_SWAP:
            return Prompt(p, f"{p}, you may swap one of your cards with the center card of the same type.",
                          (swap, decline))
        if state.phase == PENALTY_SWAP:
            return Prompt(p, f"{p}, the warrant failed: you may swap one of your Loot or Location cards "
                             f"with the center.", (swap, decline))
        kinds = " or ".join(self.kind_name[k] for k in state.exposed)
        return Prompt(p, f"{p}, replace an exposed center card with one of your {kinds} cards.", (swap,))

    # --- journal ---------------------------------------------------------------------
    def journal(self, state: GameState, player: str, assist: Assist) -> Journal:
        assert isinstance(state, CarmenState)
        known = self._known_places(state, player)
        entries = []
        for card in self.journal_order:
            place = known.get(card.id)
            if place is None:
                entries.append(JournalEntry(card.id, card.name, card.kind, "Unknown"))
            else:
                entries.append(JournalEntry(card.id, card.name, card.kind, self.label(state, place), str(place)))
        deductions: list[Deduction] = []
        if assist != Assist.NOTES:
            deductions += self._hints(state, player, known)
        if assist == Assist.FULL:
            deductions += self._carmen_odds(state, player)
        return Journal(player, assist, tuple(entries), tuple(deductions))

    def _known_places(self, state: CarmenState, player: str) -> dict[str, Place]:
        """card id -> where this player knows it lies."""
        where = state.table.where
        return {card: where[tok] for tok, card in state.knowledge[player].known.items()}

    def _hints(self, state: CarmenState, player: str, known: dict[str, Place]) -> list[Deduction]:
        out = []
        gone = [c for c in self.journal_order if (pl := known.get(c.id)) and pl.area == "out"]
        if gone:
            out.append(Deduction("eliminated", "Out of play: " + ", ".join(c.name for c in gone) + ".",
                                 "These cards were flipped face up and set aside.", {"cards": [c.id for c in gone]}))
        safe = [c for c in self.deck.of_kind(HENCHMAN) if c.id != self.mastermind
                and (pl := known.get(c.id)) and pl.owner is not None]
        for loot in self.deck.of_kind(LOOT):
            if not loot.pair:
                continue
            a, b = known.get(loot.id), known.get(loot.pair)
            if a and b and a.owner and b.owner:
                pair = f"{loot.name} ({self.label(state, a)}) and {self.deck.name_of(loot.pair)} ({self.label(state, b)})"
                if safe:
                    h = safe[0]
                    hp = known[h.id]
                    out.append(Deduction("warrant_ready", f"Warrant ready: {pair}, with {h.name} ({self.label(state, hp)}).",
                                         "You have seen both cards of this pair and a Henchman who is not Carmen.",
                                         {"loot": str(a), "location": str(b), "henchman": str(hp)}))
                else:
                    out.append(Deduction("pair_found", f"Pair found: {pair}.",
                                         "No Henchman is known to be safe yet: an unknown one could be Carmen.",
                                         {"loot": str(a), "location": str(b)}))
        center = {}
        for kind in (LOOT, LOCATION, HENCHMAN):
            tok = state.table.top(CENTER[kind])
            center[kind] = None if tok is None else state.knowledge[player].card_at(tok)
        parts = [f"{self.kind_name[k]}: {self.deck.name_of(c) if c else 'unknown'}" for k, c in center.items()]
        reason = "A center card is named here once you have seen it."
        if center[LOOT] and center[LOCATION]:
            matches = self.deck.card(center[LOOT]).pair == center[LOCATION]
            reason = ("The center Loot and Location match: find Carmen for the final warrant."
                      if matches else "The center Loot and Location do not match yet.")
        out.append(Deduction("center", "Table center: " + "; ".join(parts) + ".", reason,
                             {k: c for k, c in center.items()}))
        carmen = known.get(self.mastermind)
        if carmen is not None and center[LOOT] and center[LOCATION] \
                and self.deck.card(center[LOOT]).pair == center[LOCATION] and carmen.area != "out":
            out.append(Deduction("final_ready", f"Final warrant ready: Carmen is at {self.label(state, carmen)}.",
                                 "You know Carmen's place and the matching pair in the center.", {"carmen": str(carmen)}))
        return out

    def _carmen_odds(self, state: CarmenState, player: str) -> list[Deduction]:
        know = state.knowledge[player]
        carmen = self.deck.card(self.mastermind)
        known_at = know.token_of(carmen.id)
        if known_at is not None:
            place = state.table.place_of(known_at)
            return [Deduction("carmen_odds", f"Carmen is at {self.label(state, place)} (certain).",
                              "You have seen her card.", {"odds": {str(place): "1/1"}})]
        tokens = [t for t in state.table.tokens_where(kind=HENCHMAN)
                  if know.card_at(t) is None and state.table.place_of(t).area != "out"]
        unknown_cards = {c.id for c in self.deck.of_kind(HENCHMAN) if know.token_of(c.id) is None}
        cands = {t: unknown_cards - know.excluded.get(t, frozenset()) for t in tokens}
        odds = card_marginals(tokens, cands, unknown_cards, carmen.id)
        # Tokens of one pile are grouped: the pile is one place to the family.
        grouped: dict[Place, Fraction] = {}
        for t, p in odds.items():
            place = state.table.place_of(t)
            grouped[place] = grouped.get(place, Fraction(0)) + p
        ranked = sorted(grouped.items(), key=lambda kv: (-kv[1], str(kv[0])))
        text = "; ".join(f"{self.label(state, place)} {p.numerator}/{p.denominator} ({float(p):.0%})"
                         for place, p in ranked if p)
        return [Deduction("carmen_odds", f"Where Carmen can be: {text}.",
                          f"{len(unknown_cards)} Henchman cards are unknown to you; every arrangement of them "
                          f"you cannot rule out is equally likely.",
                          {"odds": {str(place): f"{p.numerator}/{p.denominator}" for place, p in ranked}})]

    def layout(self, state: GameState) -> Mapping[str, tuple[str, ...]]:
        """Card types (column order) and column positions, top first."""
        assert isinstance(state, CarmenState)
        return {"kinds": KINDS, "slots": state.slots}

    # --- undo history ------------------------------------------------------------------
    def describe(self, state: GameState, action: Action) -> str:
        """Public words for an action, judged on the state before it (no private identity)."""
        assert isinstance(state, CarmenState)
        n = self.deck.name_of
        try:
            if isinstance(action, Roll):
                return f"{action.player} rolled {self.kind_name.get(self.die.shows(action.face), '?')}"
            if isinstance(action, Peek):
                return f"{action.player} looked at {self.slot_words(Place.parse(action.slot, state.players), action.player)}"
            if isinstance(action, Warrant):
                return f"{action.player}'s warrant: {n(action.loot_card)} and {n(action.location_card)}"
            if isinstance(action, FinalWarrant):
                return f"{action.player}'s warrant for Carmen: {n(action.loot_card)} and {n(action.location_card)}"
            if isinstance(action, FlipHenchman):
                return f"{action.player} flipped {n(action.card)}"
            if isinstance(action, Swap):
                return f"{action.player} swapped {self.slot_words(Place.parse(action.slot, state.players), action.player)} with the center"
            if isinstance(action, DeclineSwap):
                return f"{action.player} chose not to swap"
            if isinstance(action, EndTurn):
                return f"{action.player} ended the turn"
        except (KeyError, ValueError, DieError):
            pass
        return f"{action.player}: {action.type}"


class CarmenSimulator(Simulator):
    """Random warrants mostly fail: keep them rare so random games run long enough."""

    weights = CARMEN_WEIGHTS
