"""Bonnie and Clyde Mystery Rummy: the rules, hand and game scoring, and each player's journal.

Rulebook: ``shared/rulebooks/bonnie-and-clyde-mystery-rummy.txt``; our reading of every
ambiguous point is in ``docs/rules/bonnie-clyde.md`` (each ``RuleViolation`` cites the section).

What the app knows: every card played face up (melds, layoffs, Ted Hinton, discards, the first
card of the FBI Files) is read in front of everyone; a look under a location, a card taken from
the FBI Files with Ted Hinton and a player's own hand cards (if they choose to note them) are
read privately; draws are counted, never read. So the app knows every hand's size exactly.

>>> from engine.session import Session
>>> s = Session.new("bonnie-clyde", ["Ann", "Bob"])
>>> s.prompt().text
'Ann, deal: a card face down under each location, 10 cards to each player, then turn up the first card of the FBI Files.'
>>> _ = s.apply({"type": "deal", "player": "Ann", "card": "bonnie-clyde.evidence.location-3-a"})
>>> s.prompt().text
'Bob, draw a card from the Case File or take Joplin, Missouri from the FBI Files.'
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Mapping

from ...cards import Card, Deck, load_game_deck
from ...errors import BadInput, RuleViolation
from ...game import (Action, Assist, Deduction, GameState, Journal, JournalEntry, Option, Outcome, Prompt,
                     Rules)
from ...knowledge import EVERYONE, PUBLIC, Knowledge, private
from ...paths import assets_dir
from ...scores import Scoreboard
from ...table import Place
from .actions import (ACTIONS, Deal, Discard, Draw, Hinton, Layoff, Leave, Look, Meld, MoveCar, NoteHand, Take,
                      TakeDiscard, TakeFile)
from .board import Board, load_board

EVIDENCE, HINTON, OUTLAW = "evidence", "hinton", "outlaw"
RESERVED_NAMES = {"casefile", "files", "board", "out"}
HAND_SIZE = {2: 10, 3: 9, 4: 8}
TARGETS = (100, 200)
SIDEWAYS_POINTS, NORMAL_POINTS, OUTLAW_POINTS = 4, 2, 10

# Rulebook sections, as headed in the rulebook.
SETUP = "Setup and the Deal"
TURN = "The Turn"
DRAW_RULE = "Draw"
PLAY = "Play"
HINTON_RULE = "Play: Ted Hinton"
EVIDENCE_RULE = "Play: Evidence Cards"
CAR_ON = "Play: a meld or layoff of the Location the car is on"
CAR_OFF = "Play: a meld or layoff of a Location the car is not on"
DISCARD_RULE = "Discard"
ENDING = "Ending a Hand"
SCORING = "Scoring"

# Phases of a turn.
DEAL, DRAW, PLAY_PHASE, LOOK, DECIDE, MOVE, FILES, OVER = (
    "deal", "draw", "play", "look", "decide", "move", "files", "over")

CASEFILE = Place("casefile")
FILES_PILE = Place("files")
UP, DOWN = "up", "down"
HINTON_USES = ("draw", "take", "look")


# Places are made once and shared (the journal looks them up on every action).
@lru_cache(maxsize=None)
def board_place(number: int) -> Place:
    return Place("board", slot=str(number))


@lru_cache(maxsize=None)
def hand_place(player: str) -> Place:
    return Place("hand", owner=player)


@lru_cache(maxsize=None)
def played_place(player: str, number: int, sideways: bool) -> Place:
    return Place("sideways" if sideways else "played", owner=player, slot=str(number))


@lru_cache(maxsize=None)
def captured_place(player: str) -> Place:
    return Place("captured", owner=player)


@lru_cache(maxsize=None)
def hinton_place(player: str) -> Place:
    return Place("hinton", owner=player)


class BonnieClydeState(GameState):
    """The table plus where in the hand and the turn we are, and the scores across hands."""

    def __init__(self, players: tuple[str, ...], deck: Deck, target: int, dealer: str) -> None:
        super().__init__(players, deck)
        self.target = target
        self.phase = DEAL
        self.hand_no = 0
        self.dealer: str | None = None
        self.next_dealer = dealer
        self.current = dealer
        self.car = 1
        self.turn = 0                         # counts turns over the whole game (journal "when")
        self.hinton_used = False
        self.pending: dict | None = None      # the play being finished: its look, then the car
        self.looked: int | None = None        # the token looked at, waiting for take or leave
        self.melded: set[int] = set()         # locations with a meld on the table this hand
        self.not_outlaw: set[int] = set()     # board tokens everyone knows are not Bonnie or Clyde
        # observer -> groups of (tokens, cards): "these tokens are these cards in some order"
        # (after a Ted Hinton take from the FBI Files, for those who did not see which).
        self.groups: dict[str, tuple[tuple[frozenset[int], frozenset[str]], ...]] = {}
        self.board_log: dict[int, tuple[tuple[int, str], ...]] = {}   # location -> public history
        # (player, location) -> (turn, card): what a player saw under a location, kept by location
        # so that a card taken into a hand is never linked to what later leaves that hand.
        self.sightings: dict[tuple[str, int], tuple[int, str]] = {}
        self.origin: dict[int, int] = {}      # board token -> the location it was dealt under (public)
        self.captures: dict[int, tuple[str, str]] = {}   # location -> (player, outlaw) captured there
        self.scores = Scoreboard(players)
        self.results: tuple[dict, ...] = ()   # each scored hand, line by line
        self.ended: dict | None = None        # how the last hand ended (until the next deal)
        self.moves = 0                        # actions accepted so far (the simulated table keys its truth by it)


class BonnieClydeRules(Rules):
    game_id = "bonnie-clyde"
    title = "Bonnie and Clyde Mystery Rummy"
    actions = ACTIONS

    def __init__(self, deck: Deck, board: Board | None = None) -> None:
        self.board = board or load_board()
        super().__init__(self._named(deck, self.board))
        for kind, count in ((EVIDENCE, 60), (HINTON, 15), (OUTLAW, 2)):
            if len(self.deck.of_kind(kind)) != count:
                raise RuleViolation(f"The deck {deck.source} needs {count} {kind} cards.", "Contents")
        self.bonnie = self.deck.with_role("bonnie").id
        self.clyde = self.deck.with_role("clyde").id
        self.outlaws = (self.bonnie, self.clyde)
        self.location_of: dict[str, int] = {}
        for c in self.deck.of_kind(EVIDENCE):
            number = c.attrs.get("location")
            if not isinstance(number, int) or number not in self.board.numbers:
                raise RuleViolation(f"Evidence card {c.id} needs a location number 1-10.", "Contents")
            self.location_of[c.id] = number
        for number in self.board.numbers:
            if sum(1 for n in self.location_of.values() if n == number) != 6:
                raise RuleViolation(f"The deck needs six Evidence cards for location {number}.", "Contents")
        self.order = tuple(self.deck.cards)
        self._labels: dict[Place, str] = {}
        # The journal's line for each card before anything is known of it, and each card's line number.
        self.unknown_entries = tuple(JournalEntry(c.id, c.name, c.kind, "Unknown") for c in self.deck.cards.values())
        self.entry_index = {cid: i for i, cid in enumerate(self.order)}
        self.odds_cache: dict[tuple, Deduction] = {}
        self.files_cache: dict[tuple, str] = {}
        self.board_places = tuple(board_place(n) for n in self.board.numbers)
        self._entries: dict[tuple[str, int], tuple[Place, JournalEntry]] = {}
        self.journal_cache: dict[tuple, Any] = {}

    def entry(self, card: str, place: Place) -> JournalEntry:
        """The journal line "``card`` lies at ``place``", made once per card and place."""
        key = (card, id(place))
        hit = self._entries.get(key)
        if hit is None or hit[0] is not place:
            info = self.deck.cards[card]
            hit = self._entries[key] = (place, JournalEntry(card, info.name, info.kind, self.label(place), str(place)))
        return hit[1]

    @staticmethod
    def _named(deck: Deck, board: Board) -> Deck:
        """Evidence cards carry their location's name from the board (a family's correction too)."""
        cards: dict[str, Card] = {}
        for cid, c in deck.cards.items():
            number = c.attrs.get("location")
            if c.kind == EVIDENCE and isinstance(number, int) and number in board.numbers:
                loc = board.location(number)
                c = Card(c.id, c.deck, c.kind, c.key, loc.name, c.pair, c.role, loc.verified, c.attrs)
            cards[cid] = c
        return Deck(deck.id, deck.game, deck.name, deck.kinds, cards, deck.source)

    @classmethod
    def load(cls, decks_dir: Path | None = None) -> "BonnieClydeRules":
        """The deck and the board (with the family's corrections of either)."""
        boards = (decks_dir.parent if decks_dir is not None else assets_dir()) / "boards" / "bonnie-clyde.toml"
        return cls(load_game_deck(cls.game_id, decks_dir), load_board(boards))

    def simulator(self, initial: GameState, seed: int):
        from .sim import BonnieClydeSimulator
        return BonnieClydeSimulator(self, initial, seed)

    # --- words ------------------------------------------------------------------------
    def loc_words(self, number: int) -> str:
        return f"{self.board.name(number)} ({number})"

    def label(self, place: Place) -> str:
        """Where a card lies, as the journal writes it (the same words for every player)."""
        text = self._labels.get(place)
        if text is None:
            text = self._labels[place] = self._label(place)
        return text

    def _label(self, place: Place) -> str:
        if place.area == "hand":
            return f"{place.owner}'s hand"
        if place.area == "board":
            return f"Under {self.loc_words(int(place.slot or 0))}"
        if place.area in ("played", "sideways"):
            side = ", sideways" if place.area == "sideways" else ""
            return f"{place.owner}'s table ({self.board.name(int(place.slot or 0))}{side})"
        if place.area == "captured":
            return f"{place.owner}'s table (captured)"
        if place.area == "hinton":
            return f"{place.owner}'s Ted Hinton in play"
        if place.area == "files":
            return "FBI Files"
        return "Case File"

    def place_words(self, state: GameState, place: str, viewer: str | None = None) -> str:
        """'your hand', "Bob's hand", 'the card under Sherman, Texas (2)', 'the FBI Files'; the other
        values a prompt offers read as words too ('up (toward Gibson, Louisiana)', 'draw 2 cards')."""
        values = {UP: f"up (toward {self.board.name(len(self.board.locations))})",
                  DOWN: f"down (toward {self.board.name(1)})", "draw": "draw 2 cards from the Case File",
                  "take": "take a card from the FBI Files", "look": "look under a location"}
        if place in values:
            return values[place]
        if place in state.players:
            # A player is named only as who deals, chosen on the shared screen: a name, never "you".
            assert isinstance(state, BonnieClydeState)
            if state.phase == DEAL and state.dealer and place == state.next_dealer:
                return f"{place} (on {state.dealer}'s left)"
            return place
        try:
            where = Place.parse(place, state.players)
        except ValueError:
            return str(place)
        if where.area == "hand":
            return "your hand" if where.owner == viewer else f"{where.owner}'s hand"
        if where.area == "board":
            return f"the card under {self.loc_words(int(where.slot or 0))}"
        if where.area == "files":
            return "the FBI Files"
        if where.area == "casefile":
            return "the Case File"
        text = self.label(where)
        return text.replace(f"{where.owner}'s", "your", 1) if where.owner == viewer else text

    def names(self, cards: Iterable[str]) -> str:
        """'3 Joplin, Missouri' or 'Joplin, Missouri and Ted Hinton'."""
        cards = list(cards)
        names = [self.deck.name_of(c) for c in cards]
        if len(set(names)) == 1 and len(names) > 1:
            return f"{len(names)} {names[0]}"
        return " and ".join(names)

    # --- setup ------------------------------------------------------------------------
    def setup(self, players: tuple[str, ...], options: Mapping[str, Any]) -> BonnieClydeState:
        """All 77 cards in the box; the first action deals the hand (``options``: target, dealer)."""
        if not 2 <= len(players) <= 4:
            raise RuleViolation("Bonnie and Clyde Mystery Rummy is for 2 to 4 players.", SETUP)
        for name in players:
            if (not isinstance(name, str) or not name.strip() or "/" in name or name.startswith("~")
                    or name.lower() in RESERVED_NAMES):
                raise BadInput(f"{name!r} cannot be a player's name (no '/', not 'casefile', 'files', 'board').")
        if len(set(players)) != len(players):
            raise BadInput("Two players have the same name; add an initial to tell them apart.")
        target = options.get("target", 100)
        if target not in TARGETS or isinstance(target, bool):
            raise BadInput(f"The target score must be 100 or 200, not {target!r}.")
        dealer = options.get("dealer", players[0])
        if dealer not in players:
            raise BadInput(f"The dealer {dealer!r} is not playing.")
        state = BonnieClydeState(tuple(players), self.deck, int(target), dealer)
        for _ in self.deck.cards:
            state.table.add(None, CASEFILE)
        state.emit("setup", f"A game to {target} points. {dealer} deals the first hand.", target=target, dealer=dealer,
                   players=list(players))
        return state

    def deal_plan(self, state: BonnieClydeState) -> dict[str, Any]:
        """Which token goes where when the next hand is dealt (the same on every replay).

        The 77 cards are gathered in token order; the 10 board cards are set aside first (8 from
        the deck with Bonnie and Clyde), then the hands one card at a time from the dealer's left,
        then the first card of the FBI Files; the rest is the Case File.
        """
        stack = sorted(state.table.tokens)
        board = stack[-10:]
        rest = stack[:-10]
        dealer = state.next_dealer
        order = []
        p = dealer
        for _ in state.players:
            p = state.left_of(p)
            order.append(p)
        per = HAND_SIZE[len(state.players)]
        hands: dict[str, list[int]] = {p: [] for p in state.players}
        for i in range(per):
            for p in order:
                hands[p].append(rest.pop())
        turned = rest.pop()
        return {"board": board, "hands": hands, "turned": turned, "casefile": rest, "dealer": dealer}

    # --- helpers ----------------------------------------------------------------------
    def hand(self, state: GameState, player: str) -> list[int]:
        return state.table.at(hand_place(player))

    def kind_of(self, card: str) -> str:
        return self.deck.card(card).kind

    def _check_card(self, card: Any) -> str:
        if not isinstance(card, str) or card not in self.deck:
            raise BadInput(f"{card!r} is not a card of {self.title}.", "Contents")
        return card

    # --- which physical card a read card is ----------------------------------------------
    # The cards of one hand (or the cards of the FBI Files that someone took from unseen) are
    # alike to whoever has not identified them. When a card is read coming out of such a place,
    # the engine picks its token from public knowledge only, then each observer's notes are
    # relabelled within that place so that they agree with it (see :meth:`_fit`): every journal
    # changes only through what its player knew, never through another player's private look.
    def may_be(self, state: BonnieClydeState, observer: str, token: int, card: str, *, moved: bool = False) -> bool:
        """Whether ``observer``'s notes allow ``token`` to be ``card`` (``moved``: even though the
        card is noted elsewhere, as when a misread is being corrected)."""
        k = state.knowledge[observer]
        known = k.known.get(token)
        if known is not None:
            return known == card
        at = k.where.get(card)
        if at is not None and at != token and not moved:
            return False
        for tokens, cards in state.groups.get(observer, ()):
            if (token in tokens) != (card in cards):
                return False
        return True

    def public_token(self, state: BonnieClydeState, tokens: list[int], card: str) -> int | None:
        """The token among ``tokens`` the card is, judged on what everyone saw together."""
        everyone = state.knowledge[EVERYONE]
        at = everyone.where.get(card)
        if at in tokens:
            return at
        found = next((t for t in tokens if self.may_be(state, EVERYONE, t, card)), None)
        if found is None and at is not None:
            # Everyone saw this card elsewhere: a misread or a mix-up. The reveal asks to confirm.
            found = next((t for t in tokens if self.may_be(state, EVERYONE, t, card, moved=True)), None)
        return found

    def own_token(self, state: BonnieClydeState, player: str, tokens: list[int], card: str) -> int | None:
        """The token among ``tokens`` a card the player reads privately is, judged on their own notes."""
        own = state.knowledge[player]
        at = own.where.get(card)
        if at in tokens:
            return at
        return next((t for t in tokens if self.may_be(state, player, t, card)), None)

    def cards_at(self, state: GameState, place: str, viewer: str | None = None,
                 action: Mapping[str, Any] | None = None) -> frozenset[str]:
        """:meth:`Rules.cards_at` with this game's rules: Bonnie and Clyde lie only under the board
        (or captured), never in a hand, a pile or a meld; the card turned up at a deal is any other
        card (the deck is shuffled anew). (:meth:`fits`: Ted Hinton is played with a Ted Hinton card,
        a meld or a layoff with Evidence.)

        >>> from engine.session import Session
        >>> s = Session.new("bonnie-clyde", ["Ann", "Bob"])
        >>> s.apply({"type": "deal", "player": "Ann", "card": "bonnie-clyde.evidence.location-1-a"}) and None
        >>> hand = s.rules.candidates(s.state, "Bob/hand", "Bob")
        >>> s.rules.bonnie in hand, len({s.rules.deck.name_of(c) for c in hand})
        (False, 11)
        """
        assert isinstance(state, BonnieClydeState)
        if state.phase == DEAL and place == str(FILES_PILE):
            return frozenset(c for c in self.deck.cards if c not in self.outlaws)
        out = super().cards_at(state, place, viewer, action)
        try:
            area = Place.parse(place, state.players).area
        except ValueError:
            area = ""
        return out if area in ("board", "captured") else out - set(self.outlaws)

    def fits(self, state: GameState, card: str, action: Mapping[str, Any] | None, field: str | None) -> bool:
        """A Ted Hinton card for Ted Hinton, Evidence for a meld or a layoff."""
        kind = {"hinton": HINTON, "meld": EVIDENCE, "layoff": EVIDENCE}.get(str((action or {}).get("type")))
        return kind is None or self.kind_of(card) == kind

    def token_candidates(self, state: GameState, token: int, viewer: str | None = None) -> frozenset[str]:
        """As :meth:`Rules.token_candidates`, within what ``viewer`` (or everyone) knows of the cards
        that left a place unseen ("one of these cards")."""
        assert isinstance(state, BonnieClydeState)
        observer = viewer if viewer in state.knowledge else EVERYONE
        return frozenset(c for c in super().token_candidates(state, token, viewer)
                         if self.may_be(state, observer, token, c) and self.may_be(state, EVERYONE, token, c))

    def _fit(self, state: BonnieClydeState, token: int, card: str, tokens: list[int],
             skip: str | None = None) -> None:
        """Relabel each observer's notes within ``tokens`` (one place) so that ``token`` may be ``card``."""
        for observer in state.knowledge:
            if observer == skip or self.may_be(state, observer, token, card):
                continue
            other = next((t for t in tokens if t != token and self.may_be(state, observer, t, card)), None)
            if other is not None:
                self._relabel(state, observer, token, other)

    @staticmethod
    def _relabel(state: BonnieClydeState, observer: str, a: int, b: int) -> None:
        """Exchange what ``observer`` knows of tokens ``a`` and ``b`` (two cards of one place)."""
        k = state.knowledge[observer]
        ca, cb = k.known.pop(a, None), k.known.pop(b, None)
        for c in (ca, cb):
            if c is not None:
                k.where.pop(c, None)
        if ca is not None:
            k.known[b], k.where[ca] = ca, b
        if cb is not None:
            k.known[a], k.where[cb] = cb, a
        ea, eb = k.excluded.pop(a, None), k.excluded.pop(b, None)
        if ea is not None:
            k.excluded[b] = ea
        if eb is not None:
            k.excluded[a] = eb
        groups = state.groups.get(observer)
        if groups:
            swap = {a: b, b: a}
            state.groups[observer] = tuple((frozenset(swap.get(t, t) for t in toks), cards) for toks, cards in groups)

    def _from_hand(self, state: BonnieClydeState, player: str, card: str, used: set[int]) -> int:
        """The token of ``player``'s hand that a card they show to everyone is (notes fitted)."""
        hand = [t for t in self.hand(state, player) if t not in used]
        if not hand:
            raise RuleViolation("You have no more cards in your hand.", PLAY)
        tok = self.public_token(state, hand, card)
        if tok is None:
            raise RuleViolation(f"{self.deck.name_of(card)} cannot be in your hand: every card everyone saw go "
                                f"into it is known. Check the card.", PLAY)
        self._fit(state, tok, card, hand)
        return tok

    def note_token(self, state: BonnieClydeState, player: str, card: str, used: set[int]) -> int:
        """The token of ``player``'s hand that a card they note privately is (notes fitted)."""
        hand = [t for t in self.hand(state, player) if t not in used]
        tok = self.own_token(state, player, hand, card)
        if tok is None:
            raise RuleViolation("Every card in your hand is already in your journal.", PLAY)
        self._fit(state, tok, card, hand, skip=player)
        return tok

    def _see(self, state: BonnieClydeState, token: int, card: str, player: str, confirm: bool) -> None:
        """A private look by ``player`` (the journal remembers the turn)."""
        state.observe(token, card, private(player), confirm=confirm)
        self._sync_groups(state)

    def _show(self, state: BonnieClydeState, token: int, card: str, confirm: bool, face_up: bool = True) -> None:
        """A card shown to everyone (played face up, or known to all)."""
        state.observe(token, card, PUBLIC, confirm=confirm)
        state.table.set_face_up(token, face_up)
        self._sync_groups(state)

    def _sync_groups(self, state: BonnieClydeState) -> None:
        """Shrink each observer's "one of these" groups by what that observer now knows."""
        if not state.groups:
            return
        changed = True
        while changed:
            changed = False
            for obs, groups in list(state.groups.items()):
                k = state.knowledge[obs]
                kept = []
                for tokens, cards in groups:
                    known = {t: k.card_at(t) for t in tokens if k.card_at(t) is not None}
                    if known:
                        if not set(known.values()) <= cards:
                            changed = True          # a note disagrees: the group is dropped
                            continue
                        tokens = tokens - set(known)
                        cards = cards - set(known.values())
                        changed = True
                    if any(k.token_of(c) is not None and k.token_of(c) not in tokens for c in cards):
                        changed = True
                        continue
                    if len(tokens) != len(cards) or not tokens:
                        continue
                    if len(tokens) == 1:
                        k.learn(next(iter(tokens)), next(iter(cards)))
                        changed = True
                        continue
                    kept.append((tokens, cards))
                if kept:
                    state.groups[obs] = tuple(kept)
                else:
                    state.groups.pop(obs, None)

    def _to_files(self, state: BonnieClydeState, token: int) -> None:
        top = state.table.top(FILES_PILE)
        if top is not None:
            state.table.set_face_up(top, False)     # only the top card of the FBI Files shows
        state.table.move(token, FILES_PILE, face_up=True)

    def _expose_top(self, state: BonnieClydeState, revealed: str = "", confirm: bool = False) -> None:
        """The card now on top of the FBI Files shows: read it (``revealed``) unless everyone knows it."""
        top = state.table.top(FILES_PILE)
        if top is None:
            return
        if state.knowledge[EVERYONE].card_at(top) is not None:
            state.table.set_face_up(top, True)
            return
        if not revealed:
            state.emit("files_top", "The new top card of the FBI Files was not read: show it to the camera when "
                                    "it is taken.")
            return
        card = self._check_card(revealed)
        pile = state.table.at(FILES_PILE)
        if not self.may_be(state, EVERYONE, top, card):
            raise RuleViolation("That card cannot be the new top of the FBI Files. Check the card.", DRAW_RULE)
        self._fit(state, top, card, pile)
        self._show(state, top, card, confirm)
        state.emit("files_top", f"{self.deck.name_of(card)} now lies on top of the FBI Files.", card=card)

    def _log_board(self, state: BonnieClydeState, number: int, text: str) -> None:
        state.board_log[number] = state.board_log.get(number, ()) + ((state.turn, text),)

    def _keeps_one(self, state: BonnieClydeState, player: str, playing: int) -> None:
        if len(self.hand(state, player)) - playing < 1:
            raise RuleViolation("Keep at least one card in your hand: your turn ends with a discard, and "
                                "you go out by discarding your last card.", f"{DISCARD_RULE} (our reading)")

    # --- the rules --------------------------------------------------------------------
    def apply(self, state: GameState, action: Action) -> None:
        assert isinstance(state, BonnieClydeState)
        if state.phase == OVER:
            raise RuleViolation("The game is over.", SCORING)
        if action.player not in state.players:
            raise BadInput(f"{action.player!r} is not playing in this game.")
        handler = getattr(self, f"_do_{action.type}", None)
        if handler is None or not isinstance(action, ACTIONS.get(action.type, ())):
            raise BadInput(f"{self.title} has no action {action.type!r}.")
        # Every hand begins with a new Setup, whose dealer is chosen at random: anyone may deal.
        any_dealer = state.phase == DEAL and action.type == "deal"
        if action.player != state.current and not any_dealer:
            raise RuleViolation(f"It is {state.current}'s turn, not {action.player}'s.", TURN)
        state.moves += 1
        handler(state, action)

    def _do_deal(self, state: BonnieClydeState, a: Deal) -> None:
        if state.phase != DEAL:
            raise RuleViolation("The cards are dealt only at the start of a hand.", SETUP)
        card = self._check_card(a.card)
        if a.pile != "files":
            raise BadInput("The first card is turned up on the FBI Files ('files').")
        if card in self.outlaws:
            raise RuleViolation("Bonnie and Clyde lie under the board, not in the deck: turn up another card.",
                                SETUP)
        if state.hand_no > 0:
            self._gather(state)
        state.next_dealer = a.player
        plan = self.deal_plan(state)
        t = state.table
        state.origin = {}
        for number, tok in zip(self.board.numbers, plan["board"]):
            t.move(tok, board_place(number))
            state.origin[tok] = number
        for p, toks in plan["hands"].items():
            for tok in toks:
                t.move(tok, hand_place(p))
        t.move(plan["turned"], FILES_PILE, face_up=True)
        state.hand_no += 1
        state.dealer = a.player
        state.car = 1
        state.melded, state.not_outlaw, state.groups = set(), set(), {}
        state.board_log, state.sightings, state.ended, state.captures = {}, {}, None, {}
        self._show(state, plan["turned"], card, a.confirm)
        first = state.left_of(a.player)
        per = HAND_SIZE[len(state.players)]
        state.emit("deal", f"Hand {state.hand_no}: {a.player} deals. Eight cards with Bonnie and Clyde lie face "
                           f"down under the ten locations; {per} cards to each player; the FBI Files start with "
                           f"{self.deck.name_of(card)}; the car is on {self.loc_words(1)}.",
                   hand=state.hand_no, dealer=a.player, card=card, per=per)
        self._start_turn(state, first)

    def _gather(self, state: BonnieClydeState) -> None:
        """A new hand: every card back together and shuffled (nobody knows any card any more)."""
        t = state.table
        tokens = sorted(t.tokens)
        # Rebuilt in one go (77 single moves cost a millisecond): one stack, every card face down.
        t.stacks = {CASEFILE: tokens}
        t.where = {tok: CASEFILE for tok in tokens}
        t.up = set()
        state.knowledge = {k: Knowledge() for k in state.knowledge}
        state.emit("shuffled", "All the cards are gathered and shuffled for a new hand; the car goes back to "
                               f"{self.loc_words(1)}.")

    def _start_turn(self, state: BonnieClydeState, player: str) -> None:
        state.current = player
        state.phase = DRAW
        state.turn += 1
        state.hinton_used, state.pending, state.looked = False, None, None
        state.emit("turn", f"{player}'s turn.", player=player, turn=state.turn)

    def _need_play(self, state: BonnieClydeState, what: str) -> None:
        if state.phase == DRAW:
            raise RuleViolation(f"Draw first: from the Case File or the top of the FBI Files. Then {what}.",
                                DRAW_RULE)
        if state.phase in (LOOK, DECIDE, MOVE, FILES):
            raise RuleViolation("Finish the play you started first.", PLAY)
        if state.phase != PLAY_PHASE:
            raise RuleViolation("That is not possible now.", TURN)

    def _do_draw(self, state: BonnieClydeState, a: Draw) -> None:
        if state.phase != DRAW:
            raise RuleViolation("You draw once, at the start of your turn.", DRAW_RULE)
        tok = state.table.top(CASEFILE)
        if tok is None:
            raise RuleViolation("The Case File is empty: take the top card of the FBI Files.", DRAW_RULE)
        state.table.move(tok, hand_place(a.player))
        left = state.table.count(CASEFILE)
        state.emit("draw", f"{a.player} drew a card from the Case File ({left} left).", player=a.player, left=left)
        self._casefile_check(state, a.player)
        state.phase = PLAY_PHASE

    def _casefile_check(self, state: BonnieClydeState, player: str) -> None:
        if state.table.count(CASEFILE) == 0:
            state.emit("last_card", f"That was the last card of the Case File: the hand ends after {player}'s "
                                    f"discard.", player=player)

    def _do_take_discard(self, state: BonnieClydeState, a: TakeDiscard) -> None:
        if state.phase != DRAW:
            raise RuleViolation("You draw once, at the start of your turn.", DRAW_RULE)
        tok = state.table.top(FILES_PILE)
        if tok is None:
            raise RuleViolation("The FBI Files are empty: draw from the Case File.", DRAW_RULE)
        card = state.knowledge[EVERYONE].card_at(tok)
        state.table.move(tok, hand_place(a.player), face_up=False)
        what = self.deck.name_of(card) if card else "the top card"
        state.emit("take_discard", f"{a.player} took {what} from the FBI Files.", player=a.player, card=card)
        self._expose_top(state, a.revealed, a.confirm)
        state.phase = PLAY_PHASE

    def _evidence_set(self, state: BonnieClydeState, cards: tuple[str, ...], rule: str) -> int:
        for c in cards:
            self._check_card(c)
        if len(set(cards)) != len(cards):
            raise BadInput("The same card is listed twice: each physical card has its own tag.")
        if any(self.kind_of(c) != EVIDENCE for c in cards):
            raise RuleViolation("Only Evidence cards are melded or laid off.", rule)
        numbers = {self.location_of[c] for c in cards}
        if len(numbers) != 1:
            raise RuleViolation("All the cards must show the same location.", rule)
        return numbers.pop()

    def _play_evidence(self, state: BonnieClydeState, player: str, cards: tuple[str, ...], number: int,
                       confirm: bool) -> bool:
        used: set[int] = set()
        tokens = []
        for c in cards:
            tok = self._from_hand(state, player, c, used)
            self._show(state, tok, c, confirm)
            used.add(tok)
            tokens.append(tok)
        sideways = state.car == number
        for tok in tokens:
            state.table.move(tok, played_place(player, number, sideways), face_up=True)
        return sideways

    def _do_meld(self, state: BonnieClydeState, a: Meld) -> None:
        self._need_play(state, "meld")
        if len(a.cards) < 3:
            raise RuleViolation("A meld is three or more Evidence cards of the same location.", EVIDENCE_RULE)
        number = self._evidence_set(state, a.cards, EVIDENCE_RULE)
        self._keeps_one(state, a.player, len(a.cards))
        sideways = self._play_evidence(state, a.player, a.cards, number, a.confirm)
        state.melded.add(number)
        how = f"sideways (the car is there: {SIDEWAYS_POINTS} points each)" if sideways else \
            f"normally ({NORMAL_POINTS} points each)"
        state.emit("meld", f"{a.player} melded {self.names(a.cards)} {how}.", player=a.player,
                   cards=list(a.cards), location=number, sideways=sideways)
        state.pending = {"kind": "meld", "location": number, "sideways": sideways}
        self._start_look(state, number)

    def _do_layoff(self, state: BonnieClydeState, a: Layoff) -> None:
        self._need_play(state, "lay off")
        if not 1 <= len(a.cards) <= 2:
            raise RuleViolation("A layoff is one card, or two of the same location at once (three or more "
                                "together are a meld).", EVIDENCE_RULE)
        number = self._evidence_set(state, a.cards, EVIDENCE_RULE)
        if number not in state.melded:
            raise RuleViolation(f"Nobody has a meld of {self.board.name(number)} on the table to lay off on.",
                                EVIDENCE_RULE)
        self._keeps_one(state, a.player, len(a.cards))
        sideways = self._play_evidence(state, a.player, a.cards, number, a.confirm)
        how = f"sideways ({SIDEWAYS_POINTS} points each)" if sideways else f"normally ({NORMAL_POINTS} points each)"
        state.emit("layoff", f"{a.player} laid off {self.names(a.cards)} {how}.", player=a.player,
                   cards=list(a.cards), location=number, sideways=sideways)
        state.pending = {"kind": "layoff", "location": number, "sideways": sideways}
        self._start_look(state, number)

    def _start_look(self, state: BonnieClydeState, number: int) -> None:
        if state.table.top(board_place(number)) is None:
            state.emit("no_card", f"There is no card under {self.loc_words(number)} any more.", location=number)
            self._after_look(state)
        else:
            state.phase = LOOK

    def _do_look(self, state: BonnieClydeState, a: Look) -> None:
        if state.phase != LOOK:
            raise RuleViolation("You look under a location only after a meld, a layoff or Ted Hinton.", PLAY)
        assert state.pending is not None
        number = state.pending["location"]
        if a.location != str(board_place(number)):
            raise RuleViolation(f"Look under {self.loc_words(number)}, the location you played.",
                                CAR_ON if state.pending.get("sideways") else CAR_OFF)
        card = self._check_card(a.card)
        tok = state.table.top(board_place(number))
        assert tok is not None
        self._see(state, tok, card, a.player, a.confirm)
        state.sightings[(a.player, number)] = (state.turn, card)
        state.emit("look", f"{a.player} looked at the card under {self.loc_words(number)}.", player=a.player,
                   location=number)
        state.emit("seen", f"You saw {self.deck.name_of(card)} under {self.loc_words(number)}.", private(a.player),
                   player=a.player, location=number, card=card)
        self._log_board(state, number, f"{a.player} looked")
        if card in self.outlaws and state.pending["kind"] != "hinton" and state.pending["sideways"]:
            self._show(state, tok, card, a.confirm)
            state.table.move(tok, captured_place(a.player), face_up=True)
            name = self.deck.name_of(card)
            state.emit("capture", f"{a.player} found {name} under {self.loc_words(number)}, where the car is, and "
                                  f"captured {'her' if card == self.bonnie else 'him'}! (10 points)",
                       player=a.player, card=card, location=number)
            self._log_board(state, number, f"{a.player} captured {name}")
            state.captures[number] = (a.player, card)
            self._after_look(state)
            return
        state.looked = tok
        state.phase = DECIDE

    def _looked_card(self, state: BonnieClydeState, player: str) -> str | None:
        return None if state.looked is None else state.knowledge[player].card_at(state.looked)

    def _do_take(self, state: BonnieClydeState, a: Take) -> None:
        if state.phase != DECIDE or state.looked is None or state.pending is None:
            raise RuleViolation("There is no card you just looked at to take.", PLAY)
        number = state.pending["location"]
        if self._looked_card(state, a.player) in self.outlaws:
            section = HINTON_RULE if state.pending["kind"] == "hinton" else CAR_OFF
            raise RuleViolation("That card must stay where it is: Bonnie and Clyde are taken only at the car's "
                                "location.", section)
        state.table.move(state.looked, hand_place(a.player), face_up=False)
        state.emit("take", f"{a.player} took the card under {self.loc_words(number)} into {a.player}'s hand.",
                   player=a.player, location=number)
        self._log_board(state, number, f"{a.player} took it")
        state.looked = None
        self._after_look(state)

    def _do_leave(self, state: BonnieClydeState, a: Leave) -> None:
        if state.phase != DECIDE or state.looked is None or state.pending is None:
            raise RuleViolation("There is no card you just looked at to leave.", PLAY)
        number = state.pending["location"]
        if state.pending["kind"] != "hinton" and state.pending["sideways"]:
            state.not_outlaw.add(state.looked)
            state.emit("leave", f"{a.player} left the card under {self.loc_words(number)}: at the car's location "
                                f"Bonnie or Clyde would have been captured, so it is neither.",
                       player=a.player, location=number, not_outlaw=True)
            self._log_board(state, number, f"{a.player} left it (so it is not Bonnie or Clyde)")
        else:
            state.emit("leave", f"{a.player} left the card under {self.loc_words(number)} where it was.",
                       player=a.player, location=number, not_outlaw=False)
            self._log_board(state, number, f"{a.player} left it")
        state.looked = None
        self._after_look(state)

    def _after_look(self, state: BonnieClydeState) -> None:
        pending = state.pending
        assert pending is not None
        if pending["kind"] == "meld":
            self._move_car(state, UP, state.current)
        elif pending["kind"] == "layoff":
            if state.car in (1, len(self.board.locations)):
                self._move_car(state, UP if state.car == 1 else DOWN, state.current)
            else:
                state.phase = MOVE
                return
        else:
            self._finish_hinton(state)
        state.pending = None
        state.phase = PLAY_PHASE

    def _move_car(self, state: BonnieClydeState, direction: str, player: str) -> None:
        top = len(self.board.locations)
        new = state.car + (1 if direction == UP else -1)
        if not 1 <= new <= top:
            state.emit("car", f"The car stays on {self.loc_words(state.car)}: it never leaves the board.",
                       car=state.car)
            return
        state.car = new
        state.emit("car", f"{player} moved the Crime Spree car {'up' if direction == UP else 'down'} to "
                          f"{self.loc_words(new)}.", car=new, direction=direction)

    def _do_move_car(self, state: BonnieClydeState, a: MoveCar) -> None:
        if state.phase != MOVE:
            raise RuleViolation("You choose where the car goes only after a layoff.", CAR_OFF)
        if a.direction not in (UP, DOWN):
            raise BadInput("The car moves 'up' (toward Gibson) or 'down' (toward Kaufman).")
        new = state.car + (1 if a.direction == UP else -1)
        if not 1 <= new <= len(self.board.locations):
            raise RuleViolation("The car cannot leave the board.", CAR_OFF)
        self._move_car(state, a.direction, a.player)
        state.pending = None
        state.phase = PLAY_PHASE

    def _do_hinton(self, state: BonnieClydeState, a: Hinton) -> None:
        self._need_play(state, "play Ted Hinton")
        card = self._check_card(a.card)
        if self.kind_of(card) != HINTON:
            raise RuleViolation(f"{self.deck.name_of(card)} is not a Ted Hinton card.", HINTON_RULE)
        if state.hinton_used:
            raise RuleViolation("You may play only one Ted Hinton card per turn.", HINTON_RULE)
        if a.use not in HINTON_USES:
            raise BadInput("Ted Hinton is used to 'draw' 2, 'take' a card from the FBI Files, or 'look' under a location.")
        number = 0
        if a.use == "draw" and state.table.count(CASEFILE) == 0:
            raise RuleViolation("The Case File is empty: there is nothing to draw.", f"{HINTON_RULE} (our reading)")
        if a.use == "take" and state.table.count(FILES_PILE) == 0:
            raise RuleViolation("The FBI Files are empty.", HINTON_RULE)
        if a.use == "look":
            try:
                where = Place.parse(a.location, state.players)
                number = int(where.slot or "") if where.area == "board" and where.owner is None else 0
            except ValueError:
                number = 0
            if number not in self.board.numbers:
                raise BadInput("Name the location to look under as board/<number>, e.g. board/2.")
            if state.table.top(board_place(number)) is None:
                raise RuleViolation(f"There is no card under {self.loc_words(number)} any more.", HINTON_RULE)
            self._keeps_one(state, a.player, 1)
        tok = self._from_hand(state, a.player, card, set())
        self._show(state, tok, card, a.confirm)
        state.table.move(tok, hinton_place(a.player), face_up=True)
        state.hinton_used = True
        if a.use == "draw":
            drawn = 0
            for _ in range(2):
                top = state.table.top(CASEFILE)
                if top is None:
                    break
                state.table.move(top, hand_place(a.player))
                drawn += 1
            left = state.table.count(CASEFILE)
            state.emit("hinton", f"{a.player} played Ted Hinton and drew {drawn} card{'s' if drawn > 1 else ''} from "
                                 f"the Case File ({left} left).", player=a.player, card=card, use="draw",
                       drawn=drawn, left=left)
            self._casefile_check(state, a.player)
            self._to_files(state, tok)
            return
        if a.use == "take":
            state.emit("hinton", f"{a.player} played Ted Hinton to take a card from the FBI Files without showing it.",
                       player=a.player, card=card, use="take")
            state.pending = {"kind": "hinton", "location": 0, "sideways": False, "hinton": tok}
            state.phase = FILES
            return
        state.emit("hinton", f"{a.player} played Ted Hinton to look at the card under {self.loc_words(number)}.",
                   player=a.player, card=card, use="look", location=number)
        state.pending = {"kind": "hinton", "location": number, "sideways": False, "hinton": tok}
        state.phase = LOOK

    def _finish_hinton(self, state: BonnieClydeState) -> None:
        assert state.pending is not None
        self._to_files(state, state.pending["hinton"])

    def _do_take_file(self, state: BonnieClydeState, a: TakeFile) -> None:
        if state.phase != FILES or state.pending is None:
            raise RuleViolation("You take a card from the FBI Files only with Ted Hinton.", HINTON_RULE)
        card = self._check_card(a.card)
        pile = state.table.at(FILES_PILE)
        tok = self.public_token(state, pile, card)
        if tok is None:
            raise RuleViolation("That card is not in the FBI Files: show the card you took.", HINTON_RULE)
        self._fit(state, tok, card, pile)
        # Everyone else knows only that one of these cards left unseen (each by their own notes).
        for obs in (*[p for p in state.players if p != a.player], EVERYONE):
            k = state.knowledge[obs]
            tokens = set(pile)
            cards = {k.card_at(t) for t in pile if k.card_at(t) is not None}
            merged = []
            for g_tokens, g_cards in state.groups.get(obs, ()):
                if g_tokens & tokens:
                    tokens |= g_tokens
                    cards |= g_cards
                else:
                    merged.append((g_tokens, g_cards))
            for t in pile:
                k.forget(t)
            if len(cards) == len(tokens):
                merged.append((frozenset(tokens), frozenset(cards)))
            state.groups[obs] = tuple(merged)
        state.observe(tok, card, private(a.player), confirm=a.confirm)
        state.table.move(tok, hand_place(a.player), face_up=False)
        state.emit("take_file", f"{a.player} took a card from the FBI Files without showing it.", player=a.player,
                   left=len(pile) - 1)
        state.emit("took_file", f"You took {self.deck.name_of(card)} from the FBI Files.", private(a.player),
                   player=a.player, card=card)
        self._finish_hinton(state)
        self._sync_groups(state)
        state.pending = None
        state.phase = PLAY_PHASE

    def _do_note_hand(self, state: BonnieClydeState, a: NoteHand) -> None:
        if state.phase not in (DRAW, PLAY_PHASE):
            raise RuleViolation("Finish the play you started first.", PLAY)
        cards = a.cards + ((a.card,) if a.card else ())
        if not cards:
            raise BadInput("Show at least one card of your hand.")
        for c in cards:
            self._check_card(c)
        if len(set(cards)) != len(cards):
            raise BadInput("The same card is listed twice: each physical card has its own tag.")
        own = state.knowledge[a.player]
        used: set[int] = set()
        fresh = []
        for c in cards:
            tok = self.note_token(state, a.player, c, used)
            used.add(tok)
            if own.card_at(tok) != c:
                fresh.append((tok, c))
        for tok, c in fresh:
            self._see(state, tok, c, a.player, a.confirm)
        state.emit("note_hand", f"{a.player} noted {len(cards)} card{'s' if len(cards) > 1 else ''} of their own "
                                f"hand in their journal.", player=a.player, count=len(cards))
        state.emit("noted", f"Noted in your hand: {', '.join(self.deck.name_of(c) for c in cards)}.",
                   private(a.player), player=a.player, cards=list(cards))

    def _do_discard(self, state: BonnieClydeState, a: Discard) -> None:
        self._need_play(state, "discard")
        card = self._check_card(a.card)
        # Any one card of the hand, the card just taken from the FBI Files included (Discard).
        tok = self._from_hand(state, a.player, card, set())
        self._show(state, tok, card, a.confirm)
        self._to_files(state, tok)
        state.emit("discard", f"{a.player} discarded {self.deck.name_of(card)}.", player=a.player, card=card)
        if not self.hand(state, a.player):
            self._end_hand(state, a.player, went_out=True)
        elif state.table.count(CASEFILE) == 0:
            self._end_hand(state, a.player, went_out=False)
        else:
            self._start_turn(state, state.left_of(a.player))

    # --- scoring ----------------------------------------------------------------------
    def table_points(self, state: GameState, player: str) -> dict[str, int]:
        """What lies in front of ``player`` now: sideways and normal Evidence, captured outlaws."""
        t = state.table
        side = sum(len(s) for p, s in t.stacks.items() if p.owner == player and p.area == "sideways")
        normal = sum(len(s) for p, s in t.stacks.items() if p.owner == player and p.area == "played")
        outlaws = t.count(captured_place(player))
        return {"sideways": side, "normal": normal, "outlaws": outlaws,
                "points": side * SIDEWAYS_POINTS + normal * NORMAL_POINTS + outlaws * OUTLAW_POINTS}

    def score_hand(self, state: BonnieClydeState, ender: str, went_out: bool) -> dict[str, Any]:
        """The hand's scoring, line by line (as the rulebook's Scoring section lists it)."""
        lines: list[dict[str, Any]] = []
        points: dict[str, int] = {}
        # Captured outlaws lie face up: named as everyone saw them captured. (The referee's notes may
        # follow a player's private misread of that card, confirmed behind the gate: the scores, shown
        # to all, must not change with it.)
        everyone = state.knowledge[EVERYONE]
        captured = {p: sorted(c for t in state.table.at(captured_place(p)) if (c := everyone.card_at(t)))
                    for p in state.players}
        shut_out = set(self.outlaws) <= set(captured[ender])
        for p in state.players:
            tp = self.table_points(state, p)
            total = 0
            if tp["sideways"]:
                lines.append({"player": p, "item": "sideways", "cards": tp["sideways"],
                              "points": tp["sideways"] * SIDEWAYS_POINTS,
                              "text": f"{p}: {tp['sideways']} sideways Evidence x {SIDEWAYS_POINTS} = "
                                      f"{tp['sideways'] * SIDEWAYS_POINTS}"})
                total += tp["sideways"] * SIDEWAYS_POINTS
            if tp["normal"]:
                lines.append({"player": p, "item": "normal", "cards": tp["normal"],
                              "points": tp["normal"] * NORMAL_POINTS,
                              "text": f"{p}: {tp['normal']} Evidence x {NORMAL_POINTS} = {tp['normal'] * NORMAL_POINTS}"})
                total += tp["normal"] * NORMAL_POINTS
            for c in captured[p]:
                lines.append({"player": p, "item": "capture", "card": c, "points": OUTLAW_POINTS,
                              "text": f"{p}: captured {self.deck.name_of(c)} = {OUTLAW_POINTS}"})
                total += OUTLAW_POINTS
            if p == ender and went_out:
                lines.append({"player": p, "item": "bonus", "car": state.car, "points": state.car,
                              "text": f"{p}: went out with the car on {self.loc_words(state.car)}: bonus {state.car}"})
                total += state.car
            if shut_out and p != ender:
                lines.append({"player": p, "item": "shut_out", "points": -total,
                              "text": f"{p}: shut out ({ender} captured Bonnie and Clyde and ended the hand): "
                                      f"{total} -> 0"})
                total = 0
            points[p] = total
        if not went_out:
            lines.append({"player": ender, "item": "no_bonus", "points": 0,
                          "text": f"{ender}: the Case File ran out, so no bonus"})
        return {"hand": state.hand_no, "ender": ender, "went_out": went_out, "car": state.car,
                "shut_out": shut_out, "lines": lines, "points": points}

    def _end_hand(self, state: BonnieClydeState, ender: str, went_out: bool) -> None:
        result = self.score_hand(state, ender, went_out)
        state.scores = state.scores.record(state.hand_no, result["points"])
        totals = state.scores.totals()
        result["totals"] = totals
        state.results = state.results + (result,)
        how = "went out" if went_out else "ended the hand (the Case File ran out)"
        text = "\n".join([f"Hand {state.hand_no} is over: {ender} {how}."] + [ln["text"] for ln in result["lines"]]
                         + ["Hand: " + ", ".join(f"{p} {result['points'][p]}" for p in state.players),
                            "Total: " + ", ".join(f"{p} {totals[p]}" for p in state.players)])
        state.emit("hand_scored", text, hand=state.hand_no, ender=ender, went_out=went_out, car=state.car,
                   shut_out=result["shut_out"], lines=result["lines"], points=result["points"], totals=totals)
        state.ended = {"ender": ender, "went_out": went_out}
        state.pending, state.looked = None, None
        best = max(totals.values())
        leaders = [p for p in state.players if totals[p] == best]
        if best >= state.target and len(leaders) == 1:
            winner = leaders[0]
            state.outcome = Outcome((winner,), tuple(p for p in state.players if p != winner),
                                    f"{winner} wins with {best} points.")
            state.phase = OVER
            state.emit("game_over", f"{winner} wins with {best} points!", winners=[winner], totals=totals)
            return
        why = (f"{' and '.join(leaders)} tie with {best}: another hand." if best >= state.target
               else f"Nobody has {state.target} points yet: another hand.")
        state.phase = DEAL
        # Only a suggestion: the next hand's Setup chooses its dealer at random at the table.
        state.next_dealer = state.left_of(state.dealer or state.players[0])
        state.current = state.next_dealer
        state.emit("next_hand", f"{why} Any player may deal it ({state.next_dealer} sits on "
                                        f"{state.dealer}'s left).",
                   dealer=state.next_dealer)

    # --- prompt -----------------------------------------------------------------------
    def prompt(self, state: GameState) -> Prompt:
        assert isinstance(state, BonnieClydeState)
        p = state.current
        if state.phase == OVER:
            assert state.outcome is not None
            return Prompt(None, f"Game over: {state.outcome.reason}")
        if state.phase == DEAL:
            per = HAND_SIZE[len(state.players)]
            # Any player may deal (chosen at random at the table); the suggested dealer is listed first.
            start = state.players.index(p)
            dealers = state.players[start:] + state.players[:start]
            targets = {"player": dealers, "pile": ("files",)}
            who = f"{p}, deal" if state.hand_no == 0 else f"Hand {state.hand_no + 1}: {p} or any other player deals"
            return Prompt(p, f"{who}: a card face down under each location, {per} cards to each player, then "
                             f"turn up the first card of the FBI Files.",
                          (Option("deal", "Deal and turn up the first card", targets, {"card": "pile"}),))
        note = Option("note_hand", "Note cards of my hand in my journal (privately)", private=True)
        if state.phase == DRAW:
            opts = [Option("draw", "Draw from the Case File")] if state.table.count(CASEFILE) else []
            top = state.table.top(FILES_PILE)
            words = "the top card of the FBI Files"
            if top is not None:
                pile = state.table.at(FILES_PILE)
                if len(pile) > 1 and state.knowledge[EVERYONE].card_at(pile[-2]) is None:
                    # the card beneath was never seen by everyone: read it when it shows
                    opts.append(Option("take_discard", "Take the top card of the FBI Files", {"pile": ("files",)},
                                       {"revealed": "pile"}))
                else:
                    opts.append(Option("take_discard", "Take the top card of the FBI Files"))
                card = state.knowledge[EVERYONE].card_at(top)
                words = self.deck.name_of(card) + " from the FBI Files" if card else words
            text = f"{p}, draw a card from the Case File or take {words}." if len(opts) == 2 else \
                f"{p}, draw: {opts[0].label.lower()}." if opts else f"{p} has nothing to draw."
            return Prompt(p, text, (*opts, note))
        if state.phase == PLAY_PHASE:
            opts = []
            if state.melded:
                on = ", ".join(self.board.name(n) for n in sorted(state.melded))
                opts.append(Option("layoff", f"Lay off on a meld ({on})"))
            opts.insert(0, Option("meld", "Meld three or more Evidence of one location"))
            if not state.hinton_used:
                uses = [u for u in HINTON_USES if (u != "draw" or state.table.count(CASEFILE))
                        and (u != "take" or state.table.count(FILES_PILE))]
                looks = tuple(str(board_place(n)) for n in self.board.numbers if state.table.count(board_place(n)))
                if not looks and "look" in uses:
                    uses.remove("look")
                opts.append(Option("hinton", "Play Ted Hinton", {"use": tuple(uses), "location": looks}))
            opts += [Option("discard", "Discard a card (ends your turn)"), note]
            return Prompt(p, f"{p}, play Evidence or Ted Hinton if you like, then discard a card.", tuple(opts))
        if state.phase == LOOK:
            assert state.pending is not None
            number = state.pending["location"]
            place = str(board_place(number))
            return Prompt(p, f"{p}, look at the card under {self.loc_words(number)} without showing anyone.",
                          (Option("look", "Look at the card", {"location": (place,)}, {"card": "location"},
                                  private=True),))
        if state.phase == DECIDE:
            assert state.pending is not None
            number = state.pending["location"]
            return Prompt(p, f"{p}, take the card from under {self.loc_words(number)} into your hand, or leave it.",
                          (Option("take", "Take it"), Option("leave", "Leave it")))
        if state.phase == MOVE:
            return Prompt(p, f"{p}, move the Crime Spree car one location up or down.",
                          (Option("move_car", "Move the car", {"direction": (UP, DOWN)}),))
        return Prompt(p, f"{p}, take any one card from the FBI Files without showing anyone.",
                      (Option("take_file", "Take this card", {"pile": ("files",)}, {"card": "pile"}, private=True),))

    def layout(self, state: GameState) -> Mapping[str, tuple[str, ...]]:
        """The board's locations (number and name) and its places, for a screen."""
        return {"locations": tuple(self.loc_words(n) for n in self.board.numbers),
                "board": tuple(str(board_place(n)) for n in self.board.numbers),
                "piles": (str(CASEFILE), str(FILES_PILE))}

    # --- undo history -----------------------------------------------------------------
    def describe(self, state: GameState, action: Action) -> str:
        """Public words for an action, judged on the state before it (no private identity)."""
        n = self.deck.name_of
        p = action.player
        try:
            if isinstance(action, Deal):
                return f"{p} dealt; the FBI Files started with {n(action.card)}"
            if isinstance(action, Draw):
                return f"{p} drew from the Case File"
            if isinstance(action, TakeDiscard):
                top = state.table.top(FILES_PILE)
                card = state.knowledge[EVERYONE].card_at(top) if top is not None else None
                return f"{p} took {n(card) if card else 'the top card'} from the FBI Files"
            if isinstance(action, Meld):
                return f"{p} melded {self.names(action.cards)}"
            if isinstance(action, Layoff):
                return f"{p} laid off {self.names(action.cards)}"
            if isinstance(action, Hinton):
                what = {"draw": "to draw 2", "files": "to take from the FBI Files"}.get(action.use, "to look")
                return f"{p} played Ted Hinton {what}"
            if isinstance(action, Look):
                where = Place.parse(action.location, state.players)
                return f"{p} looked under {self.loc_words(int(where.slot or 0))}"
            if isinstance(action, Take):
                return f"{p} took the card looked at"
            if isinstance(action, Leave):
                return f"{p} left the card looked at"
            if isinstance(action, MoveCar):
                return f"{p} moved the car {action.direction}"
            if isinstance(action, TakeFile):
                return f"{p} took a card from the FBI Files unseen"
            if isinstance(action, NoteHand):
                return f"{p} noted cards of their hand"
            if isinstance(action, Discard):
                return f"{p} discarded {n(action.card)}"
        except (KeyError, ValueError, TypeError):
            pass
        return f"{p}: {action.type}"

    # --- journal ----------------------------------------------------------------------
    def final_scores(self, state: GameState) -> dict[str, int]:
        """Each player's total over the hands scored (Scoring: the first to the target wins)."""
        return state.scores.totals()

    def journal(self, state: GameState, player: str, assist: Assist) -> Journal:
        assert isinstance(state, BonnieClydeState)
        from .journal import build_journal
        return build_journal(self, state, player, assist)

    def outlaw_odds(self, state: BonnieClydeState, know: Knowledge) -> dict[str, dict[int, Fraction]]:
        """For Bonnie and for Clyde: the exact chance they lie under each location, for this knowledge.

        A world gives every card the observer has not identified to a place they have not
        identified. Bonnie and Clyde can only lie under the board (they were dealt there and
        leave it only when captured, face up); a card taken from the board, or left at the car's
        location after a look, is neither. Every other unseen card may lie anywhere unseen, so
        each placement of the unknown outlaws on distinct unseen board cards they may be is
        completed by the same number of worlds: we count those placements
        (:func:`count_placements`; the same answer as :func:`engine.worlds.card_marginals` on
        :meth:`outlaw_problem`, which the tests and the benchmark check by brute force).
        """
        tokens, cands, _ = self.outlaw_problem(state, know)
        unknown = [o for o in self.outlaws if know.token_of(o) is None]
        marg = count_placements(tokens, cands, unknown)
        out: dict[str, dict[int, Fraction]] = {}
        where = state.table.where
        for outlaw in self.outlaws:
            tok = know.token_of(outlaw)
            if tok is not None:
                place = where[tok]
                out[outlaw] = {int(place.slot or 0): Fraction(1)} if place.area == "board" else {}
                continue
            out[outlaw] = {int(where[t].slot or 0): p for t, p in marg[outlaw].items()}
        return out

    def outlaw_problem(self, state: BonnieClydeState, know: Knowledge
                       ) -> tuple[list[int], dict[int, set[str]], set[str]]:
        """The worlds behind :meth:`outlaw_odds` as a matching problem: unseen board tokens, the
        cards each may be (the unknown outlaws unless excluded, and interchangeable other cards),
        and those cards."""
        stacks, known = state.table.stacks, know.known
        tokens = [t for place in self.board_places for t in stacks.get(place, ()) if t not in known]
        unknown = [o for o in self.outlaws if know.token_of(o) is None]
        fillers = [f"~other-{i}" for i in range(max(0, len(tokens) - len(unknown)))]
        cands = {t: set(fillers) | (set() if t in state.not_outlaw else set(unknown)) for t in tokens}
        return tokens, cands, set(unknown) | set(fillers)


def count_placements(tokens: list[int], candidates: Mapping[int, set[str]], outlaws: list[str]
                     ) -> dict[str, dict[int, Fraction]]:
    """Exact chances by counting every placement of ``outlaws`` on distinct tokens that may hold them.

    >>> count_placements([1, 2, 3], {1: {"B", "C"}, 2: {"B", "C"}, 3: set()}, ["B", "C"])["B"]
    {1: Fraction(1, 2), 2: Fraction(1, 2)}
    """
    spots = [[t for t in tokens if o in candidates[t]] for o in outlaws]
    hits: dict[str, dict[int, int]] = {o: {} for o in outlaws}
    total = 0
    if len(outlaws) == 1:
        for t in spots[0]:
            hits[outlaws[0]][t] = 1
        total = len(spots[0])
    elif len(outlaws) == 2:
        first, second = hits[outlaws[0]], hits[outlaws[1]]
        for t in spots[0]:
            for u in spots[1]:
                if t != u:
                    total += 1
                    first[t] = first.get(t, 0) + 1
                    second[u] = second.get(u, 0) + 1
    return {o: {t: Fraction(n, total) for t, n in h.items()} for o, h in hits.items()}
