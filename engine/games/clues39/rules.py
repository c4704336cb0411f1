"""The 39 Clues: Double-Cross, refereed: mission stacks, retrieving, sabotage, stealing, to 39.

Rulebook: ``shared/rulebooks/the-39-clues-double-cross.txt``; our reading of every ambiguous
point is in ``docs/rules/39-clues.md`` (each ``RuleViolation`` names the rulebook section).

Every card the app knows was seen by everyone: the table stacks and the two-sided deck lie
face up, mission stacks and discard piles are public, and a card from a hand is read as it is
played. Hands are never scanned: the app counts them. So every observation here is public and
every journal is built from public facts (deck and discard counts, what each deck has played).

>>> from engine.session import Session
>>> s = Session.new("39-clues", ["Ann", "Bob"])
>>> s.prompt().text
'Ann, show the cards dealt to your table (Table 1, Table 2, Table 3, Table 4).'
"""

from __future__ import annotations

import dataclasses
import types
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any, Mapping, NamedTuple

from ...cards import Deck
from ...errors import BadInput, RuleViolation
from ...game import (Action, Assist, Deduction, GameState, Journal, JournalEntry, Option, Outcome, Prompt,
                     Rules)
from ...knowledge import EVERYONE
from ...table import Place
from . import library as lib
from .library import (AGENT, BLACK, FOUNDER, LOCATION, MONEY, ONE, PRESTIGE, REPLICATOR, SCORING, SECRET,
                      TWO, LibraryError)

GAME_ID = "39-clues"
TARGET = 39
HAND = 4
SPOTS = ("1", "2", "3", "4")
RESERVED_NAMES = {"deck", "hand", "table", "mission", "discard", "play"}

# Rulebook sections, as printed in the rulebook (docs/rules/39-clues.md cites them too).
MISSION_S, TYPES_S, SETUP_S, START_S, DEAL_S, PLAY_S, CREATE_S, TWO_RULES_S, AVAILABLE_S = (
    "Your Mission", "Card Types", "Set Up", "Starting", "Deal", "Play", "Creating a Mission Stack",
    "Two Important Rules on Mission Stacks", "Cards Available for Play")
SABOTAGE_S, STEAL_S, MONEY_S, PRESTIGE_S, REPLICATOR_S, SEPARATE_S = (
    "Interference: Sabotage", "Interference: Stealing", "Bonus Cards: Money", "Bonus Cards: Prestige",
    "Bonus Cards: Replicator", "Always Keep Your Cards Separate")


# --- actions -----------------------------------------------------------------------------
@dataclass(frozen=True)
class Reveal(Action):
    """Read the face-up card lying at ``place`` (the table cards after setup or a deal)."""
    type = "reveal"
    place: str
    card: str
    confirm: bool = False


@dataclass(frozen=True)
class Deal(Action):
    """DEAL: the top four two-sided cards, one onto each table spot (then read them)."""
    type = "deal"


@dataclass(frozen=True)
class Discard(Action):
    """After dealing: put a hand card on your discard pile (at most two; replaced at the end of the turn)."""
    type = "discard"
    card: str
    source: str = ""


@dataclass(frozen=True)
class StartMission(Action):
    """Send an Agent on a mission: the Agent and a Location on it (a Replicator declares its colour)."""
    type = "mission"
    agent: str
    location: str
    agent_source: str = ""
    location_source: str = ""
    agent_colour: str = ""
    location_colour: str = ""
    colour: str = ""            # the declared colour of whichever card is a Replicator


@dataclass(frozen=True)
class AddCard(Action):
    """Add a Secret or Founder of the Location's colour (or black) to your mission stack."""
    type = "add"
    mission: str
    card: str
    source: str = ""


@dataclass(frozen=True)
class Retrieve(Action):
    """Retrieve your mission with an Agent or Location of the starting Agent's colour."""
    type = "retrieve"
    mission: str
    card: str
    source: str = ""


@dataclass(frozen=True)
class Sabotage(Action):
    """Send an opponent's mission to their discard pile with your Agent of the Location's colour."""
    type = "sabotage"
    mission: str
    card: str
    source: str = ""


@dataclass(frozen=True)
class Steal(Action):
    """Play the same Location an opponent's mission uses: you score its points."""
    type = "steal"
    mission: str
    card: str
    source: str = ""


@dataclass(frozen=True)
class UseMoney(Action):
    """Play a Money card: your next card may be any card you dealt to the table, even a covered one."""
    type = "money"
    card: str
    source: str = ""


@dataclass(frozen=True)
class Block(Action):
    """The target of a sabotage or steal plays Prestige: both cards go to their owners' discard piles."""
    type = "block"
    card: str
    source: str = ""


@dataclass(frozen=True)
class Allow(Action):
    """The target does not block: the sabotage or steal happens."""
    type = "allow"


@dataclass(frozen=True)
class EndTurn(Action):
    """End the turn: draw back to four hand cards."""
    type = "end_turn"


ACTIONS: dict[str, type[Action]] = {cls.type: cls for cls in (
    Reveal, Deal, Discard, StartMission, AddCard, Retrieve, Sabotage, Steal, UseMoney, Block, Allow, EndTurn)}

PLAYS = ("mission", "add", "retrieve", "sabotage", "steal", "money")

# Phases
READ_SETUP, START, READ_DEAL, DEALT, PLAYING, BLOCKING, OVER = (
    "read_setup", "start", "read_deal", "dealt", "play", "block", "over")


@dataclass(frozen=True)
class Mission:
    """One mission stack (its cards lie at ``place`` on the table, Agent at the bottom)."""

    place: str
    owner: str
    number: int
    agent_colour: str                   # the starting Agent's colour (declared for a Replicator)
    location_colour: str                # the Location's colour (declared for a Replicator)
    location_name: str | None           # None when the Location is a Replicator
    touched: int                        # the turn the last card was added


@dataclass(frozen=True)
class Attack:
    """A sabotage or steal waiting for the target's answer (Prestige or not)."""

    kind: str                           # "sabotage" or "steal"
    attacker: str
    mission: str
    card: str
    token: int


class CluesState(GameState):
    """The table plus the turn's bookkeeping."""

    def __init__(self, players: tuple[str, ...], deck: Deck, owner: Mapping[str, str]) -> None:
        super().__init__(players, deck)
        self.owner = types.MappingProxyType(dict(owner))    # card id -> whose deck (never changes)
        self.phase = READ_SETUP
        self.turn = 0
        self.scores: dict[str, int] = {p: 0 for p in players}
        self.missions: dict[str, Mission] = {}
        self.next_mission: dict[str, int] = {p: 1 for p in players}
        self.money = 0                  # covered table cards the current player may still play
        self.plays = 0                  # cards played this turn
        self.discards = 0               # hand cards discarded in this deal turn
        self.pending: Attack | None = None


# --- places --------------------------------------------------------------------------------
def deck_one(p: str) -> Place:
    return Place("deck", p, "one")


def deck_two(p: str) -> Place:
    return Place("deck", p, "two")


def hand(p: str) -> Place:
    return Place("hand", p)


def spot(p: str, s: str) -> Place:
    return Place("table", p, s)


def discard(p: str) -> Place:
    return Place("discard", p)


def playing(p: str) -> Place:
    return Place("play", p)


def _norm(name: str) -> str:
    """A Location's name as compared for stealing: case and spacing aside."""
    return " ".join(name.casefold().split())


class _PlayerPlaces(NamedTuple):
    hand: Place
    one: Place
    two: Place
    discard: Place
    spots: tuple[Place, ...]


@lru_cache(maxsize=64)
def _places(p: str) -> _PlayerPlaces:
    return _PlayerPlaces(hand(p), deck_one(p), deck_two(p), discard(p), tuple(spot(p, s) for s in SPOTS))


class CardKeys(NamedTuple):
    """What the journal's indexes file a card under (computed once per card)."""

    type: str
    location: str | None            # a Location's compared name
    agent: str | None               # an Agent's colour
    usable: tuple[str, str | None] | None   # (type, colour) of Agents, Locations, Replicators

    @classmethod
    def of(cls, a: Mapping[str, Any]) -> "CardKeys":
        kind = a["type"]
        return cls(kind, _norm(a["name"]) if kind == LOCATION else None, a["colour"] if kind == AGENT else None,
                   (kind, a["colour"]) if kind in (AGENT, LOCATION, REPLICATOR) else None)


class _PerPlayer(dict):
    """player -> an index computed the first time it is asked for."""

    def __init__(self, make: Any) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, player: str) -> Any:
        value = self[player] = self.make(player)
        return value


class Facts:
    """The public facts of one state the journals use; per-player indexes are built on demand."""

    def __init__(self, players: tuple[str, ...], keys: Mapping[str, CardKeys]) -> None:
        self.keys = keys
        self.entries: tuple[JournalEntry, ...] = ()
        self.unplayed: dict[str, list[str]] = {p: [] for p in players}
        self.counts: dict[str, dict[str, int]] = {}
        self.tops: dict[str, dict[str, str]] = {p: {} for p in players}
        self.missions: dict[str, tuple[int, bool]] = {}
        self.count_deductions: dict[str, tuple[Deduction, Deduction]] = {}   # (as others see it, as "you")
        self.by_type: dict[str, dict[str, list[str]]] = _PerPlayer(self._by_type)
        # cards a player could use, not played yet or on a table stack top:
        self.locations: dict[str, dict[str, list[str]]] = _PerPlayer(lambda p: self._index(p)[0])   # by name
        self.agents: dict[str, dict[str, list[str]]] = _PerPlayer(lambda p: self._index(p)[1])      # by colour
        self.usable: dict[str, dict[tuple[str, str | None], list[str]]] = _PerPlayer(lambda p: self._index(p)[2])
        self._indexes: dict[str, tuple[dict, dict, dict]] = {}

    def _by_type(self, p: str) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for card in self.unplayed[p]:
            out.setdefault(self.keys[card].type, []).append(card)
        return out

    def _index(self, p: str) -> tuple[dict, dict, dict]:
        got = self._indexes.get(p)
        if got is None:
            locations: dict[str, list[str]] = {}
            agents: dict[str, list[str]] = {}
            usable: dict[tuple[str, str | None], list[str]] = {}
            for card in (*self.unplayed[p], *self.tops[p]):
                keys = self.keys[card]
                if keys.location is not None:
                    locations.setdefault(keys.location, []).append(card)
                elif keys.agent is not None:
                    agents.setdefault(keys.agent, []).append(card)
                if keys.usable is not None:
                    usable.setdefault(keys.usable, []).append(card)
            got = self._indexes[p] = (locations, agents, usable)
        return got

    def add_unplayed(self, p: str, card: str) -> None:
        self.unplayed[p].append(card)

    def add_top(self, p: str, card: str, where: str) -> None:
        self.tops[p][card] = where

    def retrievers(self, p: str, agent_colour: str) -> list[str]:
        """Cards of ``p`` (unplayed or on a stack top) that retrieve a mission started by that colour."""
        out = []
        for (kind, colour), cards in self.usable[p].items():
            if (kind == REPLICATOR or (kind == AGENT and (colour == agent_colour or BLACK in (colour, agent_colour)))
                    or (kind == LOCATION and colour == agent_colour)):
                out += cards
        return out


class CluesRules(Rules):
    game_id = GAME_ID
    title = "The 39 Clues: Double-Cross"
    actions = ACTIONS

    def __init__(self, deck: Deck, vocab: lib.Vocabulary | None = None) -> None:
        super().__init__(deck)
        self.vocab = vocab or lib.vocabulary()
        self.colours = tuple(sorted(self.vocab.colours))
        self._cache: tuple[Any, Any] | None = None
        self._labels: dict[Place, tuple[str, str]] = {}
        self._statics: tuple[Any, list, dict] | None = None
        self._entries: dict[tuple[str, Any], JournalEntry] = {}
        self._memo: dict[str, tuple[Place, JournalEntry]] = {}
        self._unplayed: dict[tuple[str, tuple[str, ...]], Deduction] = {}

    @classmethod
    def load(cls, decks_dir: Any = None) -> "CluesRules":
        """The rules with the family's library (or the shipped example collection) as the deck.

        The deck a game really uses comes from its setup options (see :meth:`setup`).
        """
        try:
            library = lib.user_library() or lib.sample_library()
        except LibraryError:
            # A broken library file must not stop a saved game from reopening (its decks are in
            # its options); the library's own screen and game_options() report the fault.
            library = lib.sample_library()
        physical = {p: [] for p in ("library",)}
        for key, e, _ in library.physical():
            physical["library"].append(dataclasses.replace(e, id=key, copies=1, owners=()))
        deck, _ = lib.game_deck(physical)
        return cls(deck)

    # --- setup -------------------------------------------------------------------------
    def setup(self, players: tuple[str, ...], options: Mapping[str, Any]) -> CluesState:
        """Two decks per player, four table cards, four hand cards; then the table is read.

        ``options["decks"]`` maps each player to their cards (as :func:`library.build_decks`
        writes them). Without it, the shipped example collection is split among the players.
        """
        if not 2 <= len(players) <= 4:
            raise RuleViolation("The 39 Clues: Double-Cross is for 2 to 4 players.", MISSION_S)
        for name in players:
            if (not isinstance(name, str) or not name.strip() or "/" in name or name.startswith("~")
                    or name.lower() in RESERVED_NAMES):
                raise BadInput(f"{name!r} cannot be a player's name (no '/', not 'deck', 'hand', 'table'...).")
        if len(set(players)) != len(players):
            raise BadInput("Two players have the same name; add an initial to tell them apart.")
        raw = options.get("decks")
        if raw is None:
            raw = lib.split_by_owner(lib.sample_library(), players).options()["decks"]
        try:
            decks = lib.check_options_decks(raw, tuple(players), self.vocab)
        except LibraryError as exc:
            raise BadInput(f"The decks for this game cannot be used: {exc.message}") from None
        deck, owner = lib.game_deck(decks)
        self.deck = deck            # the game's own cards: a saved game keeps them even if the library changes
        state = CluesState(tuple(players), deck, owner)
        t = state.table
        for p in players:
            ones = [e for e in decks[p] if e.sides == 1]
            twos = [e for e in decks[p] if e.sides == 2]
            for _ in ones:
                t.add(ONE, deck_one(p))
            for _ in twos:
                t.add(TWO, deck_two(p), face_up=True)
            for s in SPOTS:
                t.move(t.top(deck_two(p)), spot(p, s), face_up=True)
            for _ in range(HAND):
                t.move(t.top(deck_one(p)), hand(p), face_up=False)
        for p in players:
            shuffler = state.left_of(p)
            n = len(decks[p])
            warn = f" {lib.check_deck(p, [{'sides': e.sides} for e in decks[p]])[0]}" if n < lib.MIN_CARDS else ""
            state.emit("setup", f"{shuffler} shuffled {p}'s two decks. {p} dealt four two-sided cards to the "
                                f"table and drew four one-sided cards.{warn}", player=p, shuffled_by=shuffler,
                       cards=n, one_sided=sum(1 for e in decks[p] if e.sides == 1))
        state.current = players[0]
        return state

    def simulator(self, initial: GameState, seed: int) -> Any:
        from .sim import CluesSimulator
        return CluesSimulator(self, initial, seed)

    # --- small helpers ---------------------------------------------------------------------
    def info(self, state: CluesState, card: str) -> Mapping[str, Any]:
        return state.deck.card(card).attrs

    def cname(self, state: CluesState, card: str) -> str:
        return state.deck.name_of(card)

    def colour_name(self, colour: str | None) -> str:
        return self.vocab.colours.get(colour or "", colour or "no colour")

    def type_name(self, kind: str) -> str:
        return self.vocab.type_names[kind]

    def plural(self, kind: str) -> str:
        """'Agents', 'Money cards'."""
        name = self.type_name(kind)
        return f"{name} cards" if kind in (MONEY, PRESTIGE) else f"{name}s"

    def words(self, state: CluesState, card: str) -> str:
        """'Demo Agent Rook (red Agent, no. 1)'."""
        a = self.info(state, card)
        colour = f"{self.colour_name(a['colour']).lower()} " if a["colour"] else ""
        pts = f", {a['points']} point{'s' if a['points'] != 1 else ''}" if a["points"] else ""
        return f"{state.deck.name_of(card)} ({colour}{self.type_name(a['type'])}{pts}, no. {a['number']})"

    def known_at(self, state: CluesState, card: str) -> Place | None:
        tok = state.knowledge[EVERYONE].token_of(card)
        return None if tok is None else state.table.where.get(tok)

    def unread(self, state: CluesState, player: str | None = None) -> list[Place]:
        """Table spots whose top card lies face up but has not been read yet."""
        known = state.knowledge[EVERYONE].known
        out = []
        for p in ([player] if player else state.players):
            for place in _places(p).spots:
                tok = state.table.top(place)
                if tok is not None and tok not in known:
                    out.append(place)
        return out

    def _actor(self, state: CluesState) -> str | None:
        if state.phase == OVER:
            return None
        if state.phase == READ_SETUP:
            unread = self.unread(state)
            return unread[0].owner if unread else None
        if state.phase == BLOCKING:
            assert state.pending is not None
            return state.missions[state.pending.mission].owner
        return state.current

    def mission_of(self, state: CluesState, text: str) -> Mission:
        m = state.missions.get(str(text))
        if m is None:
            raise BadInput(f"There is no mission stack at {text!r}.")
        return m

    def mission_cards(self, state: CluesState, m: Mission) -> list[str]:
        known = state.knowledge[EVERYONE].known
        return [known[t] for t in state.table.at(Place.parse(m.place, state.players))]

    def points(self, state: CluesState, m: Mission) -> int:
        return sum(self.info(state, c)["points"] for c in self.mission_cards(state, m)
                   if self.info(state, c)["type"] in SCORING)

    def immune(self, state: CluesState, m: Mission) -> bool:
        """All cards of one colour and no Replicator: sabotage cannot touch it (Interference: Sabotage)."""
        colours = set()
        for c in self.mission_cards(state, m):
            a = self.info(state, c)
            if a["type"] == REPLICATOR:
                return False
            colours.add(a["colour"])
        return len(colours) == 1

    def sources(self, state: CluesState, p: str) -> tuple[str, ...]:
        """Where player ``p`` may take a card from now (Cards Available for Play)."""
        t = state.table
        out = []
        if t.count(hand(p)):
            out.append(str(hand(p)))
        for s in SPOTS:
            if t.count(spot(p, s)):
                out.append(str(spot(p, s)))
        if t.count(deck_two(p)):
            out.append(str(deck_two(p)))
        return tuple(out)

    def cards_at(self, state: GameState, place: str, viewer: str | None = None,
                 action: Mapping[str, Any] | None = None) -> frozenset[str]:
        """:meth:`Rules.cards_at` with this game's rules: only the cards of the player whose place it
        is; of a table stack or the two-sided deck only the top card (any card of a table stack after
        Money). (:meth:`fits`: for a card played, only the cards of the type the action needs, an
        Agent or Replicator to start a mission, a Secret or Founder of the Location's colour to add,
        a Prestige to block...)

        >>> from engine.session import Session
        >>> s = Session.new("39-clues", ["Ann", "Bob"])
        >>> len(s.rules.candidates(s.state, "Ann/table/1")) > 1                  # not read yet
        True
        >>> agents = s.rules.candidates(s.state, "Ann/hand", "Ann", {"type": "mission"}, "agent")
        >>> {s.state.owner[c] for c in agents}, sorted({s.rules.info(s.state, c)["type"] for c in agents})
        ({'Ann'}, ['agent', 'replicator'])
        """
        assert isinstance(state, CluesState)
        try:
            where = Place.parse(place, state.players)
        except ValueError:
            return frozenset()
        tokens = state.table.at(where)
        act = dict(action or {})
        covered = (where.area == "table" and state.money > 0 and act.get("type") in PLAYS
                   and act.get("player") == where.owner == state.current)
        if where.area in ("table", "deck") and where.slot != "one" and not covered:
            tokens = tokens[-1:]
        out: set[str] = set()
        for token in tokens:
            out |= self.token_candidates(state, token, viewer)
        return frozenset(c for c in out if state.owner.get(c) == where.owner)

    def fits(self, state: GameState, card: str, action: Mapping[str, Any] | None, field: str | None) -> bool:
        """Whether ``card`` is of the type (and colour) the card ``field`` of ``action`` needs."""
        assert isinstance(state, CluesState)
        action = action or {}
        kind = action.get("type")
        a = self.info(state, card)
        t = a["type"]
        mission = state.missions.get(str(action.get("mission", "")))
        if kind == "mission":
            if field == "agent":
                return t in (AGENT, REPLICATOR)
            if field == "location":
                return t in (LOCATION, REPLICATOR)
            return True
        if kind == "add":
            return t in (SECRET, FOUNDER) and (mission is None or a["colour"] in (mission.location_colour, BLACK))
        if kind == "retrieve":
            return self.can_retrieve(mission, a) if mission is not None else t in (AGENT, LOCATION, REPLICATOR)
        if kind == "sabotage":
            return t == AGENT and (mission is None or a["colour"] == mission.location_colour)
        if kind == "steal":
            return t == LOCATION and (mission is None or mission.location_name is None
                                      or self.same_location(state.deck.name_of(card), mission.location_name))
        if kind == "money":
            return t == MONEY
        if kind == "block":
            return t == PRESTIGE
        return True

    def _check_card(self, state: CluesState, player: str, card: str) -> Mapping[str, Any]:
        if not isinstance(card, str) or card not in state.deck:
            raise BadInput(f"{card!r} is not one of the cards in this game.")
        owner = state.owner[card]
        if owner != player:
            raise RuleViolation(f"{self.cname(state, card)} belongs to {owner}: you play only your own cards.",
                                SEPARATE_S)
        return self.info(state, card)

    def _take(self, state: CluesState, player: str, card: str, source: str, *, money: bool = True) -> int:
        """The token of ``card`` taken from where ``player`` may play it, or ``RuleViolation``.

        The card is read (public) as it is played; a covered table card uses a Money credit.
        """
        self._check_card(state, player, card)
        where = self.known_at(state, card)
        name = self.cname(state, card)
        if where is not None:
            if where.area == "table" and where.owner == player:
                tok = state.knowledge[EVERYONE].token_of(card)
                if state.table.top(where) != tok:
                    if not (money and state.money > 0):
                        raise RuleViolation(f"{name} is covered by another card on your table: only top cards "
                                            f"can be played (a Money card lets you take a covered one).",
                                            AVAILABLE_S)
                    state.money -= 1
                    state.emit("money_used", f"{player} used Money to take {name} from under other cards.",
                               player=player, card=card)
                got = where
            elif where.area in ("mission", "play"):
                raise RuleViolation(f"{name} is already played: cards on a mission stay there until the stack "
                                    f"is retrieved.", AVAILABLE_S)
            elif where.area == "discard":
                raise RuleViolation(f"{name} is in your discard pile: discarded cards cannot be played.",
                                    AVAILABLE_S)
            else:
                raise RuleViolation(f"{name} cannot be played from there.", AVAILABLE_S)
            tok = state.knowledge[EVERYONE].token_of(card)
        else:
            if state.deck.card(card).kind == ONE:
                got = hand(player)
                if not state.table.count(got):
                    raise RuleViolation("You have no cards in your hand.", AVAILABLE_S)
            else:
                got = deck_two(player)
                if not state.table.count(got):
                    raise RuleViolation("Your two-sided deck is empty.", AVAILABLE_S)
            tok = state.table.top(got)
        if source and source != str(got):
            if where is not None:
                why = f"it lies on {self.place_words(state, str(got), player)}"
            elif got.area == "hand":
                why = "a one-sided card is played from your hand"
            else:
                why = "a two-sided card is played from the top of your two-sided deck"
            raise RuleViolation(f"{name} is not at {self.place_words(state, source, player)}: {why}.", AVAILABLE_S)
        if where is None:
            state.reveal(tok, card)
        return tok

    # --- the rules ----------------------------------------------------------------------
    def apply(self, state: GameState, action: Action) -> None:
        assert isinstance(state, CluesState)
        if state.phase == OVER:
            raise RuleViolation("The game is over.", MISSION_S)
        if not isinstance(action.player, str) or action.player not in state.players:
            raise BadInput(f"{action.player!r} is not playing in this game.")
        handler = getattr(self, f"_do_{action.type}", None)
        if handler is None or not isinstance(action, ACTIONS.get(action.type, ())):
            raise BadInput(f"The 39 Clues game has no action {action.type!r}.")
        if state.phase == READ_SETUP:
            if not isinstance(action, Reveal):
                raise RuleViolation("First show the four cards each player dealt to the table.", SETUP_S)
        else:
            actor = self._actor(state)
            if action.player != actor:
                if state.phase == BLOCKING:
                    raise RuleViolation(f"{actor} must first say whether they block with Prestige.", PRESTIGE_S)
                raise RuleViolation(f"It is {actor}'s turn, not {action.player}'s.", START_S)
        for name in ("card", "agent", "location", "source", "agent_source", "location_source", "mission",
                     "place", "agent_colour", "location_colour"):
            if hasattr(action, name) and not isinstance(getattr(action, name), str):
                raise BadInput(f"'{name}' must be text.")
        handler(state, action)
        self._refill_empty_decks(state)

    def _do_reveal(self, state: CluesState, a: Reveal) -> None:
        if state.phase not in (READ_SETUP, READ_DEAL):
            raise RuleViolation("Every card on the table has been read already.", SETUP_S)
        try:
            place = Place.parse(a.place, state.players)
        except ValueError as exc:
            raise BadInput(str(exc)) from None
        if place not in self.unread(state):
            raise RuleViolation(f"Show a card that was just dealt to the table: "
                                f"{', '.join(self.place_words(state, str(p), a.player) for p in self.unread(state))}.",
                                SETUP_S if state.phase == READ_SETUP else DEAL_S)
        if place.owner != a.player:
            raise RuleViolation(f"That card is {place.owner}'s: {place.owner} shows it.", SETUP_S)
        self._check_card(state, a.player, a.card)
        if self.known_at(state, a.card) is not None:
            raise RuleViolation(f"{self.cname(state, a.card)} is already at "
                                f"{self.place_words(state, str(self.known_at(state, a.card)))}: show the card "
                                f"that lies at {self.place_words(state, a.place, a.player)}.", SETUP_S)
        if state.deck.card(a.card).kind != TWO:
            raise RuleViolation(f"{self.cname(state, a.card)} is a one-sided card: the table is dealt from "
                                f"the two-sided deck.", SETUP_S)
        state.reveal(state.table.top(place), a.card, confirm=a.confirm)
        state.emit("read", f"{self.place_words(state, a.place)}: {self.words(state, a.card)}.",
                   place=a.place, card=a.card)
        if self.unread(state):
            return
        if state.phase == READ_SETUP:
            self._choose_starter(state)
        else:
            state.phase = DEALT

    def _choose_starter(self, state: CluesState) -> None:
        """Lowest numbered table card starts; a tie goes to the next lowest (then seating order)."""
        def numbers(p: str) -> list[int]:
            known = state.knowledge[EVERYONE].known
            return sorted(self.info(state, known[state.table.top(spot(p, s))])["number"]
                          for s in SPOTS if state.table.top(spot(p, s)) is not None)
        first = min(state.players, key=lambda p: (numbers(p), state.players.index(p)))
        low = numbers(first)[0] if numbers(first) else None
        state.emit("starter", f"{first} has the lowest numbered card on the table ({low}) and goes first.",
                   player=first, numbers={p: numbers(p) for p in state.players})
        self._begin_turn(state, first)

    def _begin_turn(self, state: CluesState, player: str) -> None:
        state.current = player
        state.phase = START
        state.turn += 1
        state.money = state.plays = state.discards = 0
        state.emit("turn", f"{player}'s turn: deal or play.", player=player, turn=state.turn)

    def _do_deal(self, state: CluesState, a: Deal) -> None:
        if state.phase != START:
            raise RuleViolation("You choose to deal or to play at the start of your turn, never both.", DEAL_S)
        dealt = 0
        for s in SPOTS:
            self._refill_deck(state, a.player, TWO)
            tok = state.table.top(deck_two(a.player))
            if tok is None:
                break
            state.table.move(tok, spot(a.player, s), face_up=True)
            dealt += 1
        state.emit("deal", f"{a.player} dealt {dealt} card{'s' if dealt != 1 else ''} from the two-sided deck "
                           f"onto the table." + ("" if dealt == 4 else " (The two-sided cards ran out.)"),
                   player=a.player, dealt=dealt)
        state.phase = READ_DEAL if self.unread(state, a.player) else DEALT

    def _do_discard(self, state: CluesState, a: Discard) -> None:
        if state.phase != DEALT:
            raise RuleViolation("You may discard hand cards only after dealing, before your turn ends.", DEAL_S)
        if state.discards >= 2:
            raise RuleViolation("After dealing you may discard one or two hand cards, not more.", DEAL_S)
        self._check_card(state, a.player, a.card)
        if state.deck.card(a.card).kind != ONE:
            raise RuleViolation("Only cards from your hand can be discarded; your hand holds one-sided cards.",
                                DEAL_S)
        tok = self._take(state, a.player, a.card, a.source or str(hand(a.player)), money=False)
        state.table.move(tok, discard(a.player), face_up=True)
        state.discards += 1
        state.emit("discard", f"{a.player} discarded {self.words(state, a.card)} from the hand.",
                   player=a.player, card=a.card)

    def _start_play(self, state: CluesState, player: str) -> None:
        if state.phase == START:
            state.phase = PLAYING
        elif state.phase != PLAYING:
            if state.phase in (READ_DEAL, DEALT):
                raise RuleViolation("You dealt this turn: you cannot also play. End your turn.", PLAY_S)
            raise RuleViolation("That cannot be played now.", PLAY_S)

    def _do_mission(self, state: CluesState, a: StartMission) -> None:
        self._start_play(state, a.player)
        ag = self._check_card(state, a.player, a.agent)
        lo = self._check_card(state, a.player, a.location)
        if a.agent == a.location:
            raise RuleViolation("The Agent and the Location must be two different cards.", CREATE_S)
        if ag["type"] not in (AGENT, REPLICATOR):
            raise RuleViolation(f"A mission starts with an Agent; {self.cname(state, a.agent)} is a "
                                f"{self.type_name(ag['type'])}.", CREATE_S)
        if lo["type"] not in (LOCATION, REPLICATOR):
            raise RuleViolation(f"An Agent is sent to a Location; {self.cname(state, a.location)} is a "
                                f"{self.type_name(lo['type'])}.", CREATE_S)
        agent_colour = self._colour(ag, a.agent_colour or (a.colour if ag["type"] == REPLICATOR else ""),
                                    "Agent", state, a.agent)
        location_colour = self._colour(lo, a.location_colour or (a.colour if lo["type"] == REPLICATOR else ""),
                                       "Location", state, a.location)
        if a.colour and REPLICATOR not in (ag["type"], lo["type"]):
            raise RuleViolation("Only a Replicator takes a declared colour: neither card is a Replicator.",
                                REPLICATOR_S)
        n = state.next_mission[a.player]
        place = Place("mission", a.player, str(n))
        for card, src in ((a.agent, a.agent_source), (a.location, a.location_source)):
            tok = self._take(state, a.player, card, src)
            state.table.move(tok, place, face_up=True)
        state.next_mission[a.player] = n + 1
        m = Mission(str(place), a.player, n, agent_colour, location_colour,
                    None if lo["type"] == REPLICATOR else state.deck.name_of(a.location), state.turn)
        state.missions[m.place] = m
        state.plays += 2
        declared = []
        if ag["type"] == REPLICATOR:
            declared.append(f"the Replicator is a {self.colour_name(agent_colour).lower()} Agent")
        if lo["type"] == REPLICATOR:
            declared.append(f"the Replicator is a {self.colour_name(location_colour).lower()} Location")
        state.emit("mission", f"{a.player} sent {self.cname(state, a.agent)} to {self.cname(state, a.location)} "
                              f"(mission {n})" + (f"; {' and '.join(declared)}" if declared else "") + ".",
                   player=a.player, mission=m.place, agent=a.agent, location=a.location,
                   agent_colour=agent_colour, location_colour=location_colour)

    def _colour(self, a: Mapping[str, Any], declared: str, role: str, state: CluesState, card: str) -> str:
        if a["type"] == REPLICATOR:
            if declared not in self.vocab.colours:
                raise RuleViolation(f"Say which colour of {role} the Replicator is: "
                                    f"{', '.join(self.colours)}.", REPLICATOR_S)
            return declared
        if declared and declared != a["colour"]:
            raise RuleViolation(f"{self.cname(state, card)} is {self.colour_name(a['colour']).lower()}; only a "
                                f"Replicator takes a declared colour.", REPLICATOR_S)
        return a["colour"]

    def _own_mission(self, state: CluesState, player: str, text: str) -> Mission:
        m = self.mission_of(state, text)
        if m.owner != player:
            raise RuleViolation(f"That is {m.owner}'s mission stack, not yours.", CREATE_S)
        return m

    def _do_add(self, state: CluesState, a: AddCard) -> None:
        self._start_play(state, a.player)
        m = self._own_mission(state, a.player, a.mission)
        c = self._check_card(state, a.player, a.card)
        if c["type"] not in (SECRET, FOUNDER):
            raise RuleViolation(f"Only Secrets and Founders are added to a mission stack; "
                                f"{self.cname(state, a.card)} is a {self.type_name(c['type'])}.", CREATE_S)
        if c["colour"] not in (m.location_colour, BLACK):
            raise RuleViolation(f"{self.cname(state, a.card)} is {self.colour_name(c['colour']).lower()}: this "
                                f"mission's Location is {self.colour_name(m.location_colour).lower()}, so add "
                                f"{self.colour_name(m.location_colour).lower()} or black cards.", CREATE_S)
        tok = self._take(state, a.player, a.card, a.source)
        state.table.move(tok, Place.parse(m.place, state.players), face_up=True)
        state.missions[m.place] = dataclasses.replace(m, touched=state.turn)
        state.plays += 1
        state.emit("add", f"{a.player} added {self.words(state, a.card)} to mission {m.number} "
                          f"({self.points(state, state.missions[m.place])} points).",
                   player=a.player, mission=m.place, card=a.card)

    def can_retrieve(self, m: Mission, a: Mapping[str, Any]) -> bool:
        """Agent or Location of the starting Agent's colour; black Agents retrieve and are retrieved by any Agent."""
        if a["type"] == REPLICATOR:
            return True
        if a["type"] == AGENT:
            return a["colour"] == m.agent_colour or BLACK in (a["colour"], m.agent_colour)
        if a["type"] == LOCATION:
            return a["colour"] == m.agent_colour
        return False

    def _do_retrieve(self, state: CluesState, a: Retrieve) -> None:
        self._start_play(state, a.player)
        m = self._own_mission(state, a.player, a.mission)
        c = self._check_card(state, a.player, a.card)
        if m.touched == state.turn:
            raise RuleViolation("You added cards to this mission this turn: you can retrieve it on your next "
                                "turn.", TWO_RULES_S)
        if not self.can_retrieve(m, c):
            colour = self.colour_name(m.agent_colour).lower()
            raise RuleViolation(f"To retrieve this mission use an Agent or Location that is {colour} like the "
                                f"Agent who started it (a black Agent retrieves any mission); "
                                f"{self.cname(state, a.card)} cannot.", CREATE_S)
        tok = self._take(state, a.player, a.card, a.source)
        pts = self.points(state, m)
        cards = self.mission_cards(state, m)
        for t in state.table.at(Place.parse(m.place, state.players)):
            state.table.move(t, discard(a.player), face_up=True)
        state.table.move(tok, discard(a.player), face_up=True)
        del state.missions[m.place]
        state.plays += 1
        state.scores[a.player] += pts
        state.emit("retrieve", f"{a.player} retrieved mission {m.number} with {self.cname(state, a.card)}: "
                               f"{pts} point{'s' if pts != 1 else ''} (score {state.scores[a.player]}).",
                   player=a.player, mission=m.place, card=a.card, cards=cards)
        state.emit("scored", f"{a.player} scores {pts}.", player=a.player, points=pts, how="retrieve",
                   cards=cards)
        self._check_win(state, a.player)

    def _opponent_mission(self, state: CluesState, player: str, text: str, section: str) -> Mission:
        m = self.mission_of(state, text)
        if m.owner == player:
            raise RuleViolation("That is your own mission stack: interfere with an opponent's.", section)
        return m

    def _do_sabotage(self, state: CluesState, a: Sabotage) -> None:
        self._start_play(state, a.player)
        m = self._opponent_mission(state, a.player, a.mission, SABOTAGE_S)
        c = self._check_card(state, a.player, a.card)
        where = self.known_at(state, a.card)
        if where is not None and where.area == "mission":
            raise RuleViolation("Agents already in play on a mission cannot be used for sabotage.", SABOTAGE_S)
        if c["type"] == REPLICATOR:
            raise RuleViolation("The Replicator cannot be used for sabotage.", REPLICATOR_S)
        if c["type"] != AGENT:
            raise RuleViolation(f"Sabotage needs an Agent; {self.cname(state, a.card)} is a "
                                f"{self.type_name(c['type'])}.", SABOTAGE_S)
        if c["colour"] != m.location_colour:
            raise RuleViolation(f"To sabotage this mission your Agent must be "
                                f"{self.colour_name(m.location_colour).lower()} like its Location.", SABOTAGE_S)
        if self.immune(state, m):
            raise RuleViolation("This mission's cards are all one colour: it is immune to sabotage "
                                "(it can still be stolen).", SABOTAGE_S)
        self._attack(state, "sabotage", a.player, m, a.card, a.source)

    def same_location(self, a: str, b: str) -> bool:
        """Two Locations are "the same" when their printed names match (case and spacing aside)."""
        return _norm(a) == _norm(b)

    def _do_steal(self, state: CluesState, a: Steal) -> None:
        self._start_play(state, a.player)
        m = self._opponent_mission(state, a.player, a.mission, STEAL_S)
        c = self._check_card(state, a.player, a.card)
        if c["type"] == REPLICATOR:
            raise RuleViolation("The Replicator cannot be used for stealing.", REPLICATOR_S)
        if c["type"] != LOCATION:
            raise RuleViolation(f"Stealing needs a Location; {self.cname(state, a.card)} is a "
                                f"{self.type_name(c['type'])}.", STEAL_S)
        if m.location_name is None:
            raise RuleViolation("This mission's Location is a Replicator: no Location is the same as it, so it "
                                "cannot be stolen.", STEAL_S)
        if not self.same_location(state.deck.name_of(a.card), m.location_name):
            raise RuleViolation(f"To steal this mission play the same Location: {m.location_name}.", STEAL_S)
        self._attack(state, "steal", a.player, m, a.card, a.source)

    def _may_hold(self, state: CluesState, p: str, kind: str) -> bool:
        """Could ``p`` have a card of this type available now? (Public facts: not played yet, or a stack
        top; with Money, a covered table card too: Bonus Cards: Money.)"""
        f = self.facts(state)
        if bool(f.by_type[p].get(kind)) or any(self.info(state, c)["type"] == kind for c in f.tops[p]):
            return True
        if state.money and p == state.current:
            known = state.knowledge[EVERYONE]
            covered = (known.known.get(tok) for s in SPOTS for tok in state.table.at(spot(p, s))[:-1])
            return any(card is not None and self.info(state, card)["type"] == kind for card in covered)
        return False

    def could_block(self, state: CluesState, p: str) -> bool:
        """Could ``p`` have a Prestige card available now? (Counted from public facts only.)"""
        for s in SPOTS:
            tok = state.table.top(spot(p, s))
            card = state.knowledge[EVERYONE].known.get(tok) if tok is not None else None
            if card and self.info(state, card)["type"] == PRESTIGE:
                return True
        for card, owner in state.owner.items():
            if owner == p and self.info(state, card)["type"] == PRESTIGE and self.known_at(state, card) is None:
                kind = state.deck.card(card).kind
                if (kind == ONE and state.table.count(hand(p))) or (kind == TWO and state.table.count(deck_two(p))):
                    return True
        return False

    def _attack(self, state: CluesState, kind: str, player: str, m: Mission, card: str, source: str) -> None:
        tok = self._take(state, player, card, source)
        state.table.move(tok, playing(player), face_up=True)
        state.plays += 1
        verb = "sabotage" if kind == "sabotage" else "steal"
        state.emit(kind, f"{player} plays {self.cname(state, card)} to {verb} {m.owner}'s mission {m.number}.",
                   player=player, mission=m.place, card=card, target=m.owner)
        state.pending = Attack(kind, player, m.place, card, tok)
        if self.could_block(state, m.owner):
            state.phase = BLOCKING
        else:
            state.emit("no_block", f"{m.owner} has no Prestige card that could be available: no block.",
                       player=m.owner)
            self._resolve(state)

    def _resolve(self, state: CluesState) -> None:
        att = state.pending
        assert att is not None
        m = state.missions[att.mission]
        cards = self.mission_cards(state, m)
        pts = self.points(state, m)
        for t in state.table.at(Place.parse(m.place, state.players)):
            state.table.move(t, discard(m.owner), face_up=True)
        state.table.move(att.token, discard(att.attacker), face_up=True)
        del state.missions[m.place]
        state.pending = None
        state.phase = PLAYING
        if att.kind == "sabotage":
            state.emit("sabotaged", f"{att.attacker} sabotaged {m.owner}'s mission {m.number}: its cards go to "
                                    f"{m.owner}'s discard pile and nobody scores.",
                       player=att.attacker, target=m.owner, mission=m.place, cards=cards)
            return
        state.scores[att.attacker] += pts
        state.emit("stolen", f"{att.attacker} stole {m.owner}'s mission {m.number}: {pts} point"
                             f"{'s' if pts != 1 else ''} (score {state.scores[att.attacker]}).",
                   player=att.attacker, target=m.owner, mission=m.place, cards=cards)
        state.emit("scored", f"{att.attacker} scores {pts}.", player=att.attacker, points=pts, how="steal",
                   cards=cards)
        self._check_win(state, att.attacker)

    def _do_block(self, state: CluesState, a: Block) -> None:
        if state.phase != BLOCKING or state.pending is None:
            raise RuleViolation("Prestige is played only to block a sabotage or a steal.", PRESTIGE_S)
        c = self._check_card(state, a.player, a.card)
        if c["type"] != PRESTIGE:
            raise RuleViolation(f"Only a Prestige card blocks; {self.cname(state, a.card)} is a "
                                f"{self.type_name(c['type'])}.", PRESTIGE_S)
        tok = self._take(state, a.player, a.card, a.source, money=False)
        from_hand = state.table.place_of(tok).area == "hand"
        att = state.pending
        state.table.move(tok, discard(a.player), face_up=True)
        state.table.move(att.token, discard(att.attacker), face_up=True)
        m = state.missions[att.mission]
        state.pending = None
        state.phase = PLAYING
        state.emit("blocked", f"{a.player} blocked the {att.kind} with {self.cname(state, a.card)}: mission "
                              f"{m.number} stays; both cards go to their owners' discard piles.",
                   player=a.player, attacker=att.attacker, mission=m.place, card=a.card, attack_card=att.card)
        if from_hand:
            self._draw(state, a.player)

    def _do_allow(self, state: CluesState, a: Allow) -> None:
        if state.phase != BLOCKING:
            raise RuleViolation("There is nothing to block now.", PRESTIGE_S)
        state.emit("no_block", f"{a.player} does not block.", player=a.player)
        self._resolve(state)

    def _do_money(self, state: CluesState, a: UseMoney) -> None:
        self._start_play(state, a.player)
        c = self._check_card(state, a.player, a.card)
        if c["type"] != MONEY:
            raise RuleViolation(f"{self.cname(state, a.card)} is a {self.type_name(c['type'])}, not a Money card.",
                                MONEY_S)
        tok = self._take(state, a.player, a.card, a.source)
        state.table.move(tok, discard(a.player), face_up=True)
        state.money += 1
        state.plays += 1
        state.emit("money", f"{a.player} played {self.cname(state, a.card)}: the next card may be any card "
                            f"on {a.player}'s table, even a covered one.", player=a.player, card=a.card)

    def _do_end_turn(self, state: CluesState, a: EndTurn) -> None:
        if state.phase == START:
            raise RuleViolation("Deal or play first: each turn you do one of them.", PLAY_S)
        if state.phase == READ_DEAL:
            raise RuleViolation("Show the cards you dealt first.", DEAL_S)
        if state.phase not in (PLAYING, DEALT):
            raise RuleViolation("Finish what is under way first.", PLAY_S)
        self._draw(state, a.player)
        self._begin_turn(state, state.left_of(a.player))

    def _draw(self, state: CluesState, p: str) -> None:
        drawn = 0
        while state.table.count(hand(p)) < HAND:
            self._refill_deck(state, p, ONE)
            tok = state.table.top(deck_one(p))
            if tok is None:
                break
            state.table.move(tok, hand(p), face_up=False)
            drawn += 1
        if drawn:
            state.emit("draw", f"{p} drew {drawn} card{'s' if drawn != 1 else ''} from the one-sided deck.",
                       player=p, drawn=drawn)

    def _refill_deck(self, state: CluesState, p: str, kind: str) -> None:
        """An empty deck: the opponent shuffles that kind of the owner's discards into a new deck."""
        places = _places(p)
        where = places.one if kind == ONE else places.two
        if state.table.count(where):
            return
        cards = [t for t in state.table.at(places.discard) if state.table.kind(t) == kind]
        if not cards:
            return
        for t in cards:
            state.table.move(t, where)
        for t in cards:
            state.table.set_face_up(t, False)
            for k in state.knowledge.values():
                k.forget(t)
            if kind == TWO:
                state.table.set_face_up(t, True)
        what = "one-sided" if kind == ONE else "two-sided"
        n = len(cards)
        state.emit("reshuffle", f"{p}'s {what} deck ran out: {state.left_of(p)} shuffled the {n} {what} "
                                f"card{'s' if n != 1 else ''} of {p}'s discard pile into a new deck.",
                   player=p, kind=kind, cards=len(cards), shuffled_by=state.left_of(p))

    def _refill_empty_decks(self, state: CluesState) -> None:
        if state.phase == OVER:
            return
        for p in state.players:
            self._refill_deck(state, p, ONE)
            self._refill_deck(state, p, TWO)

    def _check_win(self, state: CluesState, p: str) -> None:
        if state.scores[p] >= TARGET:
            state.outcome = Outcome((p,), tuple(q for q in state.players if q != p),
                                    f"{p} collected {state.scores[p]} points: the first to {TARGET} wins.")
            state.phase = OVER
            state.pending = None
            state.emit("game_over", state.outcome.reason, winners=[p],
                       losers=list(state.outcome.losers), scores=dict(state.scores))

    # --- prompt ----------------------------------------------------------------------------
    def prompt(self, state: GameState) -> Prompt:
        assert isinstance(state, CluesState)
        if state.phase == OVER:
            assert state.outcome is not None
            return Prompt(None, f"Game over: {state.outcome.reason}")
        p = self._actor(state)
        assert p is not None
        if state.phase in (READ_SETUP, READ_DEAL):
            places = self.unread(state, p)
            names = ", ".join(f"Table {pl.slot}" for pl in places)
            verb = "dealt to your table" if state.phase == READ_SETUP else "you dealt"
            return Prompt(p, f"{p}, show the cards {verb} ({names}).",
                          (Option("reveal", "Read this card", {"place": tuple(str(pl) for pl in places)},
                                  {"card": "place"}),))
        if state.phase == BLOCKING:
            att = state.pending
            assert att is not None
            m = state.missions[att.mission]
            return Prompt(p, f"{p}, {att.attacker} wants to {att.kind} your mission {m.number} with "
                             f"{self.cname(state, att.card)}. Block it with Prestige?",
                          (Option("block", "Block with Prestige", {"source": self.sources(state, p)},
                                  {"card": "source"}),
                           Option("allow", "Do not block")))
        if state.phase == DEALT:
            opts = []
            if state.discards < 2 and state.table.count(hand(p)):
                opts.append(Option("discard", "Discard a hand card", {"source": (str(hand(p)),)},
                                   {"card": "source"}))
            opts.append(Option("end_turn", "End my turn"))
            return Prompt(p, f"{p}, you may discard one or two hand cards, then end your turn.", tuple(opts))
        src = self.sources(state, p)
        own = tuple(m.place for m in state.missions.values() if m.owner == p)
        ready = tuple(m.place for m in state.missions.values() if m.owner == p and m.touched != state.turn)
        theirs = [m for m in state.missions.values() if m.owner != p]
        opts = []
        if state.phase == START:
            opts.append(Option("deal", "Deal four cards"))
        if src:
            reads = {"agent": "agent_source", "location": "location_source"}
            both = {"agent_source": src, "location_source": src}
            opts.append(Option("mission", "Start a mission (Agent + Location)", both, reads))
            if self._may_hold(state, p, REPLICATOR):
                # The same action with a Replicator: its colour is declared (Bonus Cards: Replicator).
                opts.append(Option("mission", "Start a mission with a Replicator (say its colour)",
                                   {**both, "colour": self.colours}, reads))
            if own:
                opts.append(Option("add", "Add a Secret or Founder", {"mission": own, "source": src},
                                   {"card": "source"}))
            if ready:
                opts.append(Option("retrieve", "Retrieve a mission", {"mission": ready, "source": src},
                                   {"card": "source"}))
            sab = tuple(m.place for m in theirs if not self.immune(state, m))
            if sab:
                opts.append(Option("sabotage", "Sabotage a mission", {"mission": sab, "source": src},
                                   {"card": "source"}))
            steal = tuple(m.place for m in theirs if m.location_name is not None)
            if steal:
                opts.append(Option("steal", "Steal a mission", {"mission": steal, "source": src},
                                   {"card": "source"}))
            covered = any(state.table.count(pl) > 1 for pl in _places(p).spots)
            if covered and self._may_hold(state, p, MONEY):
                opts.append(Option("money", "Play Money", {"source": src}, {"card": "source"}))
        if state.phase == PLAYING:
            opts.append(Option("end_turn", "End my turn"))
        text = (f"{p}, deal four cards or play." if state.phase == START
                else f"{p}, play another card or end your turn.")
        if state.money:
            text += f" (Money: you may take {state.money} covered table card{'s' if state.money > 1 else ''}.)"
        return Prompt(p, text, tuple(opts))

    # --- journal ---------------------------------------------------------------------------
    def label(self, state: CluesState, place: Place) -> str:
        o = place.owner
        if place.area == "table":
            return f"{o} / Table {place.slot}"
        if place.area == "mission":
            return f"{o} / Mission {place.slot}"
        if place.area == "discard":
            return f"{o} / Discard pile"
        if place.area == "play":
            return f"{o} / Being played"
        if place.area == "hand":
            return f"{o} / Hand"
        return f"{o} / {'One-sided' if place.slot == ONE else 'Two-sided'} deck"

    def facts(self, state: CluesState) -> "Facts":
        """Everything public the journals are built from, computed once per state.

        Every line is the same for every player (all of it is public); only "you" differs.
        """
        if self._cache is not None and self._cache[0] is state:
            return self._cache[1]
        known = state.knowledge[EVERYONE]
        kwhere = known.where
        where = state.table.where
        unread = {p.owner for p in self.unread(state)}
        entries: list[JournalEntry] = []
        static = self._static(state)
        f = Facts(state.players, self._keys(state))
        unplayed = f.unplayed
        cache, memo = self._entries, self._memo
        for cid, name, kind, owner, fixed, unknown in static:
            tok = kwhere.get(cid)
            if tok is None:
                unplayed[owner].append(cid)
                entries.append(unknown if owner in unread and kind == TWO else fixed)
                continue
            place = where[tok]
            seen = memo.get(cid)
            if seen is not None and seen[0] is place:       # the card has not moved: the same line
                entries.append(seen[1])
                continue
            entry = cache.get((cid, place))
            if entry is None:
                lt = self._labels.get(place)
                if lt is None:
                    lt = self._labels[place] = (self.label(state, place), str(place))
                entry = cache[(cid, place)] = JournalEntry(cid, name, kind, lt[0], lt[1])
            memo[cid] = (place, entry)
            entries.append(entry)
        f.entries = tuple(entries)
        t = state.table
        for p in state.players:
            places = _places(p)
            f.counts[p] = {"hand": t.count(places.hand), "one_sided_deck": t.count(places.one),
                           "two_sided_deck": t.count(places.two), "discard": t.count(places.discard),
                           "score": state.scores[p]}
            for s, pl in zip(SPOTS, places.spots):
                tok = t.top(pl)
                card = known.known.get(tok) if tok is not None else None
                if card:
                    f.add_top(p, card, f"Table {s}")
        for m in state.missions.values():
            f.missions[m.place] = (self.points(state, m), self.immune(state, m))
        for p in state.players:
            c = f.counts[p]
            f.count_deductions[p] = tuple(Deduction(
                "counts", f"{who}: {c['score']} points; hand {c['hand']}, one-sided deck {c['one_sided_deck']}, "
                          f"two-sided deck {c['two_sided_deck']}, discard pile {c['discard']}.",
                "Counted from every card dealt, drawn, played and discarded.", {"player": p, **c})
                for who in (p, "You"))
        self._cache = (state, f)
        return f

    def _static(self, state: CluesState) -> list[tuple[str, str, str, str, JournalEntry, JournalEntry]]:
        """Per card, in deck order: id, name, kind, owner, and its line when not seen since the last
        shuffle ("Ann / Deck or hand", "Ann / Two-sided deck") and while its table spot is unread."""
        if self._statics is None or self._statics[0] is not state.deck:
            rows = []
            for c in state.deck.cards.values():
                owner = state.owner[c.id]
                where = "Deck or hand" if c.kind == ONE else "Two-sided deck"
                fixed = JournalEntry(c.id, c.name, c.kind, f"{owner} / {where}")
                rows.append((c.id, c.name, c.kind, owner, fixed, JournalEntry(c.id, c.name, c.kind, "Unknown")))
            self._statics = (state.deck, rows, {c.id: CardKeys.of(c.attrs) for c in state.deck.cards.values()})
            self._entries, self._memo = {}, {}
        return self._statics[1]

    def _keys(self, state: CluesState) -> Mapping[str, CardKeys]:
        self._static(state)
        assert self._statics is not None
        return self._statics[2]

    def final_scores(self, state: GameState) -> dict[str, int]:
        """Each player's points from completed missions and steals."""
        return dict(state.scores)

    def journal(self, state: GameState, player: str, assist: Assist) -> Journal:
        assert isinstance(state, CluesState)
        f = self.facts(state)
        deductions: tuple[Deduction, ...] = ()
        if assist != Assist.NOTES:
            deductions = tuple(self._hints(state, player, f, assist == Assist.FULL))
        return Journal(player, assist, f.entries, deductions)

    def counts(self, state: CluesState, p: str) -> dict[str, int]:
        """Score, hand, deck and discard counts of one player (public bookkeeping)."""
        return dict(self.facts(state).counts[p])

    def _hints(self, state: CluesState, viewer: str, f: "Facts", full: bool) -> list[Deduction]:
        out = [f.count_deductions[p][p == viewer] for p in state.players]
        mine = f.unplayed[viewer]
        if mine:
            key = (viewer, tuple(mine))
            ded = self._unplayed.get(key)
            if ded is None:
                if len(self._unplayed) > 4096:
                    self._unplayed.clear()
                by_type = f.by_type[viewer]
                parts = [f"{self.plural(t)}: " + ", ".join(state.deck.name_of(c) for c in by_type[t])
                         for t in lib.TYPES if t in by_type]
                ded = self._unplayed[key] = Deduction(
                    "unplayed", "Still in your decks or hand: " + "; ".join(parts) + ".",
                    "Every other card of yours is on the table, on a mission or in your discard pile.",
                    {"cards": list(mine)})
            out.append(ded)
        tops = f.tops[viewer]
        for m in state.missions.values():
            pts, immune = f.missions[m.place]
            if m.owner == viewer:
                out += self._own_mission_hints(state, viewer, m, pts, immune, f, full)
                continue
            colour = self.colour_name(m.location_colour).lower()
            ways = []
            if m.location_name is not None:
                steal = f.locations[viewer].get(_norm(m.location_name), ())
                if steal:
                    ways.append(("stolen", f"stolen with a {m.location_name} Location", steal))
            if not immune:
                sab = f.agents[viewer].get(m.location_colour, ())
                if sab:
                    ways.append(("sabotaged", f"sabotaged with a {colour} Agent", sab))
            for kind, how, cards in ways:
                now = [f"{state.deck.name_of(c)} on your {tops[c]}" for c in cards if c in tops]
                later = sum(1 for c in cards if c not in tops)
                bits = []
                if now:
                    bits.append("available now: " + ", ".join(now))
                if later:
                    bits.append(f"{later} still in your decks or hand")
                out.append(Deduction(
                    "threat", f"{m.owner}'s {colour} mission {m.number} ({m.location_name or 'a Replicator'}, "
                              f"{pts} points) can be {how}: {'; '.join(bits)}.",
                    "Immune stacks (all one colour, no Replicator) cannot be sabotaged but can be stolen."
                    if immune else "Counted from your cards that are not played yet and your table.",
                    {"mission": m.place, "how": kind, "cards": list(cards)}))
        return out

    def _own_mission_hints(self, state: CluesState, viewer: str, m: Mission, pts: int, immune: bool,
                           f: "Facts", full: bool) -> list[Deduction]:
        out = []
        colour = self.colour_name(m.location_colour).lower()
        status = "immune to sabotage" if immune else "open to sabotage"
        retrievers = f.retrievers(viewer, m.agent_colour)
        tops = f.tops[viewer]
        retr_now = [c for c in retrievers if c in tops]
        retr_later = [c for c in retrievers if c not in tops]
        if m.touched == state.turn or state.current != viewer or state.phase not in (START, PLAYING):
            when = "on your next turn"
        else:
            when = "now"
        parts = []
        if retr_now:
            parts.append("with " + ", ".join(f"{state.deck.name_of(c)} ({tops[c]})" for c in retr_now))
        pool = len(f.unplayed[viewer])
        if retr_later:
            parts.append(f"{len(retr_later)} of your {pool} unplayed cards can retrieve it")
        text = (f"Your mission {m.number} ({colour}, {pts} points, {status}) can be retrieved {when}"
                + (": " + "; ".join(parts) if parts else ": none of your remaining cards can retrieve it") + ".")
        data: dict[str, Any] = {"mission": m.place, "points": pts, "immune": immune, "when": when,
                                "now": retr_now, "later": retr_later}
        if full and pool:
            chance = Fraction(len(retr_later), pool)
            data["chance"] = f"{chance.numerator}/{chance.denominator}"
            text += f" Chance a given unplayed card of yours can: {chance.numerator}/{chance.denominator}."
        out.append(Deduction("retrieve", text, "A mission is retrieved by an Agent or Location of its starting "
                                               "Agent's colour; black Agents and Replicators retrieve any.", data))
        for q in state.players:
            if q == viewer:
                continue
            threats = []
            if m.location_name is not None:
                n = len(f.locations[q].get(_norm(m.location_name), ()))
                if n:
                    threats.append(f"stolen by {q} ({n} {m.location_name} Location{'s' if n > 1 else ''} not "
                                   f"played yet or on {q}'s table)")
            if not immune:
                n = len(f.agents[q].get(m.location_colour, ()))
                if n:
                    threats.append(f"sabotaged by {q} ({n} {colour} Agent{'s' if n > 1 else ''})")
            if threats:
                out.append(Deduction("danger", f"Your mission {m.number} could be " + " or ".join(threats) + ".",
                                     "Counted from the cards each opponent has not played yet and their table.",
                                     {"mission": m.place, "by": q}))
        return out

    def layout(self, state: GameState) -> Mapping[str, tuple[str, ...]]:
        """Each player's places, left to right as the rulebook lays them out, and the table spots."""
        return {"areas": ("deck/one", "table/1", "table/2", "table/3", "table/4", "deck/two", "hand", "discard"),
                "table": SPOTS,
                "missions": tuple(state.missions) if isinstance(state, CluesState) else ()}

    def place_words(self, state: GameState, place: str, viewer: str | None = None) -> str:
        """'your two-sided deck', "Bob's Table 2 stack", "Ann's mission 1"."""
        if place in self.vocab.colours:
            return self.vocab.colours[place]
        try:
            where = Place.parse(place, state.players)
        except ValueError:
            return place
        if where.owner is None:
            return place
        whose = "your" if where.owner == viewer else f"{where.owner}'s"
        kind = {"hand": "hand", "discard": "discard pile", "play": "card being played"}
        if where.area == "table":
            return f"{whose} Table {where.slot} stack"
        if where.area == "mission":
            return f"{whose} mission {where.slot}"
        if where.area == "deck":
            return f"{whose} {'one-sided' if where.slot == ONE else 'two-sided'} deck"
        return f"{whose} {kind.get(where.area, where.area)}"

    # --- undo history ------------------------------------------------------------------------
    def describe(self, state: GameState, action: Action) -> str:
        """Public words for an action (every card named here is shown to everyone as it is played)."""
        assert isinstance(state, CluesState)
        p = action.player

        def n(card: str) -> str:
            return state.deck.name_of(card) if card in state.deck else "?"
        if isinstance(action, Reveal):
            return f"{p} showed {n(action.card)}"
        if isinstance(action, Deal):
            return f"{p} dealt"
        if isinstance(action, Discard):
            return f"{p} discarded {n(action.card)}"
        if isinstance(action, StartMission):
            return f"{p} sent {n(action.agent)} to {n(action.location)}"
        if isinstance(action, AddCard):
            return f"{p} added {n(action.card)} to a mission"
        if isinstance(action, Retrieve):
            return f"{p} retrieved a mission with {n(action.card)}"
        if isinstance(action, Sabotage):
            return f"{p} tried to sabotage with {n(action.card)}"
        if isinstance(action, Steal):
            return f"{p} tried to steal with {n(action.card)}"
        if isinstance(action, UseMoney):
            return f"{p} played {n(action.card)}"
        if isinstance(action, Block):
            return f"{p} blocked with {n(action.card)}"
        if isinstance(action, Allow):
            return f"{p} did not block"
        if isinstance(action, EndTurn):
            return f"{p} ended the turn"
        return f"{p}: {action.type}"
