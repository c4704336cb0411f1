"""What every game module provides: state, actions, prompts, outcomes, journals.

A game module (``engine/games/<game>.py``) defines a :class:`Rules` subclass: a set of
:class:`Action` types and functions of (state, action) that either change a copy of
the state and emit events, or raise :class:`~engine.errors.RuleViolation`.
"""

from __future__ import annotations

import dataclasses
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Iterable, Mapping, NamedTuple

from .cards import Deck, load_game_deck
from .errors import BadInput, Contradiction, RuleViolation
from .events import Event
from .knowledge import EVERYONE, PUBLIC, REFEREE, REFEREE_ONLY, Dispute, Knowledge, Visibility
from .table import Place, Table

if TYPE_CHECKING:
    from .sim import Simulator


@dataclass(frozen=True)
class Action:
    """Something a player does (or chance does: a roll). Subclasses add fields.

    Actions are plain values: ``to_json``/``from_json`` give the JSON Lines format of
    ``docs/replay-format.md``.
    """

    type: ClassVar[str] = "action"
    player: str

    def to_json(self) -> dict:
        return {"type": self.type, **dataclasses.asdict(self)}


def action_from_json(raw: Mapping[str, Any], types: Mapping[str, type[Action]]) -> Action:
    """Build an action from its JSON form, with a clear message for anything malformed."""
    if not isinstance(raw, Mapping):
        raise BadInput("An action must be a JSON object.")
    kind = raw.get("type")
    cls = types.get(kind)  # type: ignore[arg-type]
    if cls is None:
        raise BadInput(f"Unknown action {kind!r}; this game knows: {', '.join(sorted(types))}.")
    fields = {f.name: f for f in dataclasses.fields(cls)}
    extra = set(raw) - set(fields) - {"type"}
    if extra:
        raise BadInput(f"Action {kind!r} has unknown field(s): {', '.join(sorted(extra))}.")
    missing = [n for n, f in fields.items() if n not in raw
               and f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING]
    if missing:
        raise BadInput(f"Action {kind!r} is missing: {', '.join(missing)}.")
    return cls(**{k: v for k, v in raw.items() if k != "type"})


class Assist(str, Enum):
    """How much the journal works out for a player."""

    NOTES = "notes"      # what the paper journal would hold
    HINTS = "hints"      # plus eliminated cards, warrants ready, what is known of the center
    FULL = "full"        # plus exact probabilities


@dataclass(frozen=True)
class Option:
    """One legal kind of action now.

    ``targets`` lists the legal values of each field (places as text, die faces...).
    ``reads`` says which card fields are read off which place field: ``{"card": "slot"}``
    means "the identity of the card lying at ``slot``" (from the camera or a pick).
    ``private``: those cards are seen by the acting player alone (a peek: the screen asks
    for them behind the privacy gate); otherwise they are shown to everyone (a flip).
    """

    action: str
    label: str
    targets: Mapping[str, tuple[Any, ...]] = field(default_factory=dict)
    reads: Mapping[str, str] = field(default_factory=dict)
    private: bool = False


@dataclass(frozen=True)
class Prompt:
    """Who must act and what they may do: enough for a screen to highlight legal slots."""

    player: str | None
    text: str
    options: tuple[Option, ...] = ()

    def option(self, action: str) -> Option | None:
        return next((o for o in self.options if o.action == action), None)


@dataclass(frozen=True)
class Outcome:
    winners: tuple[str, ...]
    losers: tuple[str, ...]
    reason: str


class JournalEntry(NamedTuple):
    """One line of a player's journal: a card and where this player knows it to be.

    (A named tuple: a journal has a line per card and is rebuilt after every action.)
    """

    card: str
    name: str
    kind: str
    where: str                 # "Mark / Top", "Table center", "Out of play", "Unknown"
    place: str | None = None   # the machine form of the place, when known


@dataclass(frozen=True)
class Deduction:
    """Something worked out from the notes, with a one-line reason."""

    kind: str
    text: str
    reason: str
    data: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Journal:
    player: str
    assist: Assist
    entries: tuple[JournalEntry, ...]
    deductions: tuple[Deduction, ...] = ()

    def where(self, card: str) -> str:
        return next(e.where for e in self.entries if e.card == card)

    def as_places(self) -> dict[str, str]:
        """card id -> where, the form used by the replay CLI's JSON output."""
        return {e.card: e.where for e in self.entries}


class GameState:
    """Everything at the table that the rules need. Subclasses add game fields.

    Game fields must be immutable values or flat containers of them (list, dict, set):
    :meth:`clone` copies containers one level deep, and objects with a ``clone``.
    """

    def __init__(self, players: tuple[str, ...], deck: Deck) -> None:
        self.players = players
        self.deck = deck
        self.table = Table()
        self.knowledge: dict[str, Knowledge] = {p: Knowledge() for p in (*players, EVERYONE, REFEREE)}
        self.eliminated: list[str] = []
        self.current: str = players[0]
        self.outcome: Outcome | None = None
        self.events: list[Event] = []

    def clone(self) -> "GameState":
        new = object.__new__(type(self))
        for name, value in vars(self).items():
            if name == "knowledge":
                value = {k: v.clone() for k, v in value.items()}
            elif hasattr(value, "clone"):
                value = value.clone()
            elif isinstance(value, (list, dict, set)):
                value = type(value)(value)
            setattr(new, name, value)
        new.events = []
        return new

    # --- seating ---------------------------------------------------------------
    @property
    def active(self) -> list[str]:
        return [p for p in self.players if p not in self.eliminated]

    def left_of(self, player: str, *, skip_eliminated: bool = True) -> str:
        """The next gumshoe to the left (seating order), skipping eliminated ones."""
        i = self.players.index(player)
        for step in range(1, len(self.players) + 1):
            p = self.players[(i + step) % len(self.players)]
            if not skip_eliminated or p not in self.eliminated:
                return p
        return player

    # --- changes, each with its event ------------------------------------------
    def emit(self, type: str, text: str, visibility: Visibility = PUBLIC, **data: Any) -> None:
        self.events.append(Event(type, visibility, text, data))

    def observe(self, token: int, card: str, seen_by: Visibility, *, confirm: bool = False) -> None:
        """Record that the observers of ``seen_by`` saw ``token`` is ``card``.

        A card of another kind than the token's back is refused. Each observer's journal
        changes only through what that observer saw (or what everyone saw together): never
        because of another player's private sighting, not even to drop a note it contradicts.
        A sighting that disagrees with an earlier note (the card noted at another token, or
        this token noted as another card) is a misread or a mix-up:

        - if everyone seeing this now holds that earlier note themselves (for a flip in front
          of everyone: it was seen by everyone together), they are asked
          (:class:`Contradiction`) unless ``confirm``; confirmed, the new sighting replaces
          their old note (theirs only);
        - a clash with a note only someone else holds is not asked about (the question would
          tell of that secret) and changes nobody else's notes: the referee holds the two
          disagreeing records (:attr:`Knowledge.disputes` of :data:`REFEREE`) until a card is
          flipped in front of everyone, which settles every dispute about that token or card.
        """
        if card not in self.deck:
            raise BadInput(f"{card!r} is not a card of {self.deck.name}.", "Contents")
        info = self.deck.card(card)
        kind = self.table.kind(token)
        if kind is not None and info.kind != kind:
            want = self.deck.kinds[kind].name
            raise RuleViolation(
                f"{info.name} is a {self.deck.kinds[info.kind].name} card, but that slot holds a {want} card. "
                f"Show the card that lies in that slot.", "Setup")
        # For a public sighting ask only about what everyone saw together: players who each
        # peeked at the card privately must not learn that the others did too.
        viewers = ([self.knowledge[EVERYONE]] if seen_by.scope == "public"
                   else [self.knowledge[p] for p in sorted(seen_by.players) if p in self.knowledge])
        clashes = [k.clashes(token, card) for k in viewers]
        if viewers and all(clashes):
            old_token, old_card = clashes[0][0]
            if not confirm:
                what = (f"this card was noted before as {self.deck.name_of(old_card)}" if old_token == token
                        else f"{info.name} is already noted at another place")
                raise Contradiction(
                    f"The card reads as {info.name}, but {what}. If the cards were mixed up, confirm "
                    f"{info.name} and the old note will be dropped.", "Game Play")
            self.emit("record_corrected", f"A record was corrected: {info.name}.", REFEREE_ONLY,
                      token=token, card=card, dropped_token=old_token, dropped_card=old_card,
                      by=sorted(seen_by.players) if seen_by.scope == "private" else "everyone")
        ref = self.knowledge[REFEREE]
        if seen_by.scope == "public":
            for d in ref.settle(token, card):
                self.emit("dispute_settled", f"A disputed record was settled: {info.name}.", REFEREE_ONLY,
                          **d.to_json())
        else:
            # Notes that only players who did not see this hold: theirs stay as they are.
            held: dict[tuple[int, str], list[str]] = {}
            for p in self.players:
                if not seen_by.shown_to(p):
                    for old in self.knowledge[p].clashes(token, card):
                        held.setdefault(old, []).append(p)
            seers = tuple(sorted(seen_by.players))
            for (old_token, old_card), holders in held.items():
                d = Dispute(token, card, seers, old_token, old_card, tuple(holders))
                ref.hold(d)
                self.emit("record_disputed", f"Two notes disagree about {info.name}; the referee holds both.",
                          REFEREE_ONLY, **d.to_json())
        # Each observer learns it (Knowledge.learn replaces that observer's own clashing note).
        for observer, k in self.knowledge.items():
            if seen_by.shown_to(observer):
                k.learn(token, card)

    def reveal(self, token: int, card: str, *, confirm: bool = False) -> None:
        """Turn a token face up: everyone now knows it."""
        self.observe(token, card, PUBLIC, confirm=confirm)
        self.table.set_face_up(token, True)

    def shuffle(self, place: Place) -> None:
        """The tokens at a place were shuffled: nobody knows which is which any more."""
        for token in self.table.at(place):
            self.table.set_face_up(token, False)
            for k in self.knowledge.values():
                k.forget(token)
        self.emit("shuffled", f"The cards at {place} were shuffled.", place=str(place))

    def token_at(self, place_text: str) -> int:
        """The single token at a place written as text (``BadInput`` when there is none)."""
        try:
            place = Place.parse(place_text, self.players)
        except ValueError as exc:
            raise BadInput(str(exc)) from None
        token = self.table.top(place)
        if token is None:
            raise BadInput(f"There is no card at {place_text}.")
        return token


class Rules(ABC):
    """Base of every game module: class attributes name the game and its actions."""

    game_id: ClassVar[str]
    title: ClassVar[str]
    actions: ClassVar[Mapping[str, type[Action]]]

    def __init__(self, deck: Deck) -> None:
        self.deck = deck

    @classmethod
    def load(cls, decks_dir: Path | None = None) -> "Rules":
        """The rules with their data loaded: the game's deck and the family's name corrections.

        A game with more data (boards, a second deck, a question bank) overrides this.
        """
        return cls(load_game_deck(cls.game_id, decks_dir))

    def simulator(self, initial: GameState, seed: int) -> "Simulator":
        """The physical table for tests, benchmarks and the demo: true identities, a random player.

        A game whose table is not "each kind's cards shuffled onto that kind's tokens"
        returns its own :class:`~engine.sim.Simulator` subclass.
        """
        from .sim import Simulator
        return Simulator(self, initial, seed)

    def place_words(self, state: GameState, place: str, viewer: str | None = None) -> str:
        """A place as a player would say it ("your Top Loot card"); ``viewer`` reads "your"."""
        return place

    def cards_in_play(self, state: GameState) -> frozenset[str] | None:
        """The deck's cards this game's setup put on the table, when it leaves some in the box (by the
        number of players, say); None: every card. The screens' card lists offer only these."""
        return None

    # --- which cards can lie at a place (the screens' card lists) ------------------------
    def candidates(self, state: GameState, place: str, viewer: str | None = None,
                   action: Mapping[str, Any] | None = None, field: str | None = None) -> frozenset[str]:
        """The cards that can lie at ``place`` now, as ``viewer`` knows the table (None: the shared
        screen, only what everyone saw together); with ``action`` (the action being put together,
        its other fields filled in) and its card ``field``, only the cards that field can be (the
        Ted Hinton a player plays, the Agent a mission starts with). A screen lists these (a card
        lying face up that everyone saw is the only one: it need not be asked for).

        Built only from public facts and ``viewer``'s own notes, never from another player's
        private look (a list shown to one player must not tell what another saw). A misread or a
        mix-up can make the real card missing here: the camera still reads any card, and the
        engine then asks whether it really is that card.

        The default: for each card at ``place``, the cards of its type (a type every one of whose
        cards is carried by tokens of that type is not a candidate for an untyped token), in play,
        that ``viewer`` does not know to lie elsewhere or not to be this card; a card ``viewer``
        knows (or that lies face up, seen by everyone) is only itself. An empty place: any card in
        play not known to lie elsewhere. A game narrows this where its rules say more.

        >>> from engine.session import Session
        >>> s = Session.new("carmen-cards", ["Ann", "Bob"])
        >>> len(s.rules.candidates(s.state, "Ann/loot/top"))
        13
        """
        return frozenset(c for c in self.cards_at(state, place, viewer, action) if self.fits(state, c, action, field))

    def fits(self, state: GameState, card: str, action: Mapping[str, Any] | None, field: str | None) -> bool:
        """Whether ``card`` is a card the card ``field`` of ``action`` can be (the type a play needs);
        default: any card. Only for cards a player chooses to play: a card read to check a claim
        (a warrant) is whatever lies there."""
        return True

    def cards_at(self, state: GameState, place: str, viewer: str | None = None,
                 action: Mapping[str, Any] | None = None) -> frozenset[str]:
        """The cards that can lie at ``place`` now as ``viewer`` knows the table, whatever the action
        needs of them (see :meth:`candidates`; ``action`` may say which cards of a stack it reaches)."""
        try:
            where = Place.parse(place, state.players)
        except ValueError:
            return frozenset()
        tokens = state.table.at(where)
        if not tokens:
            return frozenset(c for c in self.cards_with_back(state, None) if not self._known_elsewhere(state, c, None, viewer))
        out: set[str] = set()
        for token in tokens:
            out |= self.token_candidates(state, token, viewer)
        return frozenset(out)

    def token_candidates(self, state: GameState, token: int, viewer: str | None = None) -> frozenset[str]:
        """The cards one token can be, as ``viewer`` knows the table (see :meth:`candidates`)."""
        everyone = state.knowledge[EVERYONE]
        own = state.knowledge[viewer] if viewer in state.knowledge else everyone
        if state.table.face_up(token) and everyone.card_at(token) is not None:
            return frozenset({everyone.card_at(token)})
        known = own.card_at(token) or everyone.card_at(token)
        if known is not None:
            return frozenset({known})
        excluded = own.excluded.get(token, frozenset()) | everyone.excluded.get(token, frozenset())
        return frozenset(c for c in self.cards_with_back(state, state.table.kind(token))
                         if c not in excluded and not self._known_elsewhere(state, c, token, viewer))

    @staticmethod
    def _known_elsewhere(state: GameState, card: str, token: int | None, viewer: str | None) -> bool:
        for observer in (EVERYONE, viewer):
            if observer in state.knowledge:
                at = state.knowledge[observer].token_of(card)
                if at is not None and at != token:
                    return True
        return False

    def cards_with_back(self, state: GameState, kind: str | None) -> list[str]:
        """The cards in play a token with this back may be: its type's cards (``kind``), or for a
        back every type shares (None) the cards of each type not all carried by typed tokens (a
        Capital token is never under a Clue Card's back)."""
        in_play = self.cards_in_play(state)
        cards = [c for c in state.deck.cards.values() if in_play is None or c.id in in_play]
        if kind is not None:
            return [c.id for c in cards if c.kind == kind]
        typed: dict[str, int] = {}
        for token_kind in state.table.kinds.values():
            if token_kind is not None:
                typed[token_kind] = typed.get(token_kind, 0) + 1
        total: dict[str, int] = {}
        for c in cards:
            total[c.kind] = total.get(c.kind, 0) + 1
        return [c.id for c in cards if typed.get(c.kind, 0) < total[c.kind]]

    def face_up_card(self, state: GameState, place: str, action: Mapping[str, Any] | None = None,
                     field: str | None = None) -> str | None:
        """The card a read of ``place`` (for the card ``field`` of ``action``) can only be because it
        lies face up there and everyone saw it: a screen fills it in instead of asking again. None
        when the read has a choice, or the card is not known to everyone, or lies face down.

        >>> from engine.session import Session
        >>> s = Session.new("carmen-cards", ["Ann", "Bob"])
        >>> s.rules.face_up_card(s.state, "Ann/loot/top") is None
        True
        """
        only = self.cards_at(state, place, None, action)
        if len(only) != 1:
            return None
        card = next(iter(only))
        token = state.knowledge[EVERYONE].token_of(card)
        try:
            here = Place.parse(place, state.players)
        except ValueError:
            return None
        if token is None or not state.table.face_up(token) or state.table.where.get(token) != here:
            return None
        return card

    def choose_copy(self, state: GameState, place: str, copies: Iterable[str], knower: str | None = None,
                    taken: Iterable[str] = ()) -> str:
        """Which of interchangeable copies (:meth:`engine.cards.Deck.copies`) to record for a card
        read at ``place`` when a player picked it from a list (a camera reads the copy itself):
        the copy ``knower`` (the player showing it; None: everyone) has noted at that place, else
        a copy nobody has noted anywhere as far as ``knower`` and everyone know, else the first.
        ``taken``: copies already used for other cards of the same action."""
        copies = [c for c in copies if c not in set(taken)] or list(copies)
        try:
            tokens = list(state.table.at(Place.parse(place, state.players)))
        except ValueError:
            tokens = []
        notes = [state.knowledge[o] for o in (knower, EVERYONE) if o in state.knowledge]
        # The top card of a pile first (a card taken from it is its top), then any card lying there.
        for there in (tokens[-1:], tokens):
            for c in copies:
                if any(k.token_of(c) in there for k in notes):
                    return c
        for c in copies:
            if all(k.token_of(c) is None for k in notes):
                return c
        return copies[0]

    def hand_places(self, state: GameState, player: str) -> tuple[str, ...]:
        """The places whose cards ``player`` holds in their hand and may look at whenever they like
        (a demo's simulated table shows them to that player alone). Default: the places of area
        "hand" that belong to ``player``."""
        return tuple(str(p) for p in state.table.places(area="hand", owner=player))

    def final_scores(self, state: GameState) -> Mapping[str, int] | None:
        """Each player's score now, for a game that keeps one (the end screen lists them, highest
        first); None (the default): a game won or lost without points."""
        return None

    def private_note(self, state: GameState, player: str) -> str | None:
        """Words only ``player`` may read now, beyond their journal (the answer on the question
        card they read out), shown on their phone's page; None (the default): nothing."""
        return None

    @abstractmethod
    def setup(self, players: tuple[str, ...], options: Mapping[str, Any]) -> GameState:
        """The table after the deal (identities unknown), or ``RuleViolation`` for a bad setup."""

    @abstractmethod
    def apply(self, state: GameState, action: Action) -> None:
        """Change ``state`` (a private copy) and emit events, or raise ``RuleViolation``."""

    @abstractmethod
    def prompt(self, state: GameState) -> Prompt:
        """Who must act now and the legal actions with their targets."""

    @abstractmethod
    def journal(self, state: GameState, player: str, assist: Assist) -> Journal:
        """This player's Evidence Journal, computed only from what they may know."""

    @abstractmethod
    def layout(self, state: GameState) -> Mapping[str, tuple[str, ...]]:
        """The fixed shape of the table a screen draws (e.g. card types and column positions)."""

    @abstractmethod
    def describe(self, state: GameState, action: Action) -> str:
        """A public sentence for the undo history (never a private card identity)."""
