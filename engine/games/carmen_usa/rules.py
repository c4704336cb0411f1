"""Where in the USA is Carmen Sandiego: the question master, the Landmark Boxes, accusations and the finale.

Rulebook: ``shared/rulebooks/where-in-the-usa-is-carmen-sandiego.txt``; our reading of every
ambiguous point is in ``docs/rules/carmen-usa.md`` (each ``RuleViolation`` names the rulebook
section it enforces). The board's spaces are not public, so the app does not count squares: after
a right answer it shows the allowance (5 or 3 spaces) and the agent says which landmark they
reached, if any. The app never knows a face-down Clue Card until someone looks at it or shows it.

>>> from engine.session import Session
>>> s = Session.new("carmen-usa", ["Ann", "Bob", "Cy"],
...                 {"ages": {"Ann": 7, "Bob": 9, "Cy": 11}, "questions": "blue"})
>>> s.prompt().text
'Ann, put your piece on a vacant landmark.'
>>> for p, lm in (("Ann", "denali"), ("Bob", "everglades"), ("Cy", "arches")):
...     _ = s.apply({"type": "place_piece", "player": p, "landmark": lm})
>>> s.prompt().text
'Cy, read a blue question to Ann.'
>>> _ = s.apply({"type": "ask", "player": "Cy", "question": "capital-of.MN"})
>>> [e.text for e in s.apply({"type": "answer", "player": "Ann", "correct": True})]
['Ann answered right without the choices (the answer: Saint Paul). Ann may move up to 5 spaces.']
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
import itertools
from pathlib import Path
from typing import Any, Mapping

from ...cards import Deck, load_game_deck
from ...errors import BadInput, RuleViolation
from ...game import Action, Assist, Deduction, GameState, Journal, JournalEntry, Option, Outcome, Prompt, Rules
from ...knowledge import EVERYONE, PUBLIC, private
from ...sim import Simulator
from ...table import Place
from .data import COLOURS_SETS, Bank, Board, BoardGraph, load_bank, load_board, load_graph
from .odds import type_chances

WARRANT, LOOT, CROOK, CAPITAL = "warrant", "loot", "crook", "capital"
CLUE_KINDS = (WARRANT, LOOT, CROOK)
RESERVED_NAMES = {"box", "out", "hand", "capital", "capitals", "map", "none"}
NONE = "none"                     # "I reached no landmark"
STANDARD, BIGGER = "standard", "bigger"

# Rulebook section names, as printed.
SETUP, READING, MOVEMENT, INCORRECT, LANDMARKS, CLUES, ACCUSING, FALSE, WINNING, CATCHING, BIGGER_SECTION = (
    "Set Up", "Reading and Answering Questions", "Correct Answers/Movement", "Incorrect Answers",
    "Landmarks and Landmark Boxes", "Clue Cards: Warrant, Loot, and Crook", "Making An Accusation",
    "False Accusations", "Winning the Game", "Catching Carmen", "A Bigger Challenge for Gumshoes")

ALLOWANCE_PLAIN, ALLOWANCE_CHOICES = 5, 3
# Actions that never change a card, a token's place or anyone's knowledge: a journal computed
# before them is still right after them (see ``CarmenUsaRules.journal``).
_NO_CARD_CHANGE = frozenset({"ask", "choices", "answer", "pass", "move", "end_turn", "start_clock", "all_placed",
                             "time_up"})
_VERSIONS = itertools.count(1)


# --- actions -----------------------------------------------------------------------
@dataclass(frozen=True)
class PlacePiece(Action):
    """Setup: put your playing piece on a vacant landmark (youngest first)."""
    type = "place_piece"
    landmark: str


@dataclass(frozen=True)
class Ask(Action):
    """The reader takes the top question card of the chosen colour: ``question`` is its id in the bank."""
    type = "ask"
    question: str


@dataclass(frozen=True)
class Choices(Action):
    """The answering agent asks to hear the multiple-choice options."""
    type = "choices"


@dataclass(frozen=True)
class Answer(Action):
    """The answer was marked right or wrong (by the reader, or by the agent tapping a choice)."""
    type = "answer"
    correct: bool


@dataclass(frozen=True)
class Pass(Action):
    """The back-up agent says "I pass"."""
    type = "pass"


@dataclass(frozen=True)
class Move(Action):
    """After a right answer: the landmark the agent's piece reached (``"none"``: no landmark)."""
    type = "move"
    landmark: str


@dataclass(frozen=True)
class Look(Action):
    """Secretly look at the Clue Card in the Landmark Box at ``box``; it is ``card``."""
    type = "look"
    box: str
    card: str
    confirm: bool = False


@dataclass(frozen=True)
class Accuse(Action):
    """Start an accusation with the face-up Warrant of the landmark the agent stands on."""
    type = "accuse"


@dataclass(frozen=True)
class Call(Action):
    """Call out a landmark in an accusation: the card in its box (``box``) is picked up; it is ``card``."""
    type = "call"
    box: str
    card: str
    confirm: bool = False


@dataclass(frozen=True)
class EndTurn(Action):
    type = "end_turn"


@dataclass(frozen=True)
class DrawCapitals(Action):
    """Catch Carmen: the agent takes three Capital Tokens without looking."""
    type = "draw_capitals"


@dataclass(frozen=True)
class StartClock(Action):
    """Catch Carmen: the oldest agent starts the timer."""
    type = "start_clock"


@dataclass(frozen=True)
class AllPlaced(Action):
    """Catch Carmen: the agents placed every real token on the printed map; the timer stops."""
    type = "all_placed"


@dataclass(frozen=True)
class FlipCapital(Action):
    """Catch Carmen, the check after the timer: the token at ``token`` is read: it is ``card``."""
    type = "flip_capital"
    token: str
    card: str
    confirm: bool = False


@dataclass(frozen=True)
class PlaceCapital(Action):
    """Catch Carmen: the token at ``token`` (it reads ``card``) lies on ``state``.

    After "All placed!" this is the check of the token just turned over (``token`` and ``card`` may be
    left out: they are that token's). Games saved before the check existed typed each token while the
    timer ran: still accepted then."""
    type = "place_capital"
    token: str = ""
    card: str = ""
    state: str = ""
    confirm: bool = False


@dataclass(frozen=True)
class TimeUp(Action):
    """Catch Carmen: the timer ran out."""
    type = "time_up"


ACTIONS: dict[str, type[Action]] = {cls.type: cls for cls in (
    PlacePiece, Ask, Choices, Answer, Pass, Move, Look, Accuse, Call, EndTurn,
    DrawCapitals, StartClock, AllPlaced, FlipCapital, PlaceCapital, TimeUp)}

# Phases.
(PLACING, ASKING, ANSWERING, BACKUP, MOVING, LOOKING, DECIDING, ACCUSING_LOOT, ACCUSING_CROOK,
 FINALE_DRAW, FINALE_CLOCK, FINALE_PLACE, FINALE_CHECK, OVER) = (
    "placing", "asking", "answering", "backup", "moving", "looking", "deciding", "accusing_loot",
    "accusing_crook", "finale_draw", "finale_clock", "finale_place", "finale_check", "over")

BOXES = "box"
OUT = Place("out")
POOL = Place("capitals")


@lru_cache(maxsize=None)
def box_place(landmark: str) -> Place:
    return Place(BOXES, slot=landmark)


def hand_place(player: str) -> Place:
    return Place("hand", owner=player)


def capital_place(player: str, n: int) -> Place:
    return Place(CAPITAL, owner=player, slot=str(n))


class CarmenUsaState(GameState):
    """The table plus where in the turn we are."""

    def __init__(self, players: tuple[str, ...], deck: Deck, order: tuple[str, ...], colour: str,
                 variant: str, boxes: dict[str, int]) -> None:
        super().__init__(players, deck)
        self.order = order                       # youngest to oldest
        self.colour = colour                     # the question colour chosen at setup
        self.variant = variant                   # "standard" or "bigger"
        self.boxes = boxes                       # landmark -> its box's token (fixed)
        self.phase = PLACING
        self.to_place = list(order)              # agents still to put their piece down
        self.pieces: dict[str, str | None] = {p: None for p in players}
        self.reader = order[-1]
        self.answerer = order[0]
        self.first: str | None = None            # the agent whose wrong answer the back-up may take
        self.backup: str | None = None
        self.question: str | None = None
        self.asked: list[str] = []               # questions of this colour already read
        self.choices = False                     # the answerer heard the choices
        self.first_choices = False               # the first agent had heard them (back-up: 3 spaces)
        self.allowance = 0
        self.turned_up_warrant = False           # this turn, the agent turned up a Warrant
        self.look_at: str | None = None          # the landmark whose card must be looked at
        self.looked: set[int] = set()            # boxes somebody looked at (everyone saw them look)
        self.looked_by: set[tuple[str, int]] = set()     # (agent, box token): everyone saw that agent look
        self.accuse_colour: str | None = None
        self.accuse_from: str | None = None      # landmark the Warrant was picked up from
        self.held: dict[int, str] = {}           # token in the accuser's hand -> landmark it came from
        self.warrants_out: list[str] = []        # colours whose Warrant left play
        self.winner: str | None = None
        self.to_draw: list[str] = []
        self.placer: str | None = None
        self.flipped: int | None = None          # a token turned over (to be put on, or checked on, a state)
        self.misplaced: list[tuple[str, str]] = []  # the check: (capital token, state it lay on) not its own
        # A new number whenever cards, places or knowledge may have changed: equal numbers mean
        # equal journals (given the same whose-turn facts). Unique across games and undo.
        self.cards_version = next(_VERSIONS)


def _check_name(name: Any) -> None:
    if (not isinstance(name, str) or not name.strip() or "/" in name or name.startswith("~")
            or name.lower() in RESERVED_NAMES):
        raise BadInput(f"{name!r} cannot be an agent's name (no '/', and not one of: "
                       f"{', '.join(sorted(RESERVED_NAMES))}).")


class CarmenUsaRules(Rules):
    game_id = "carmen-usa"
    title = "Where in the USA is Carmen Sandiego"
    actions = ACTIONS

    def __init__(self, deck: Deck, board: Board | None = None, bank: Bank | None = None) -> None:
        super().__init__(deck)
        for kind in (*CLUE_KINDS, CAPITAL):
            if kind not in deck.kinds:
                raise RuleViolation(f"The deck {deck.source} has no {kind!r} cards.", SETUP)
        self.board = board or load_board()
        self.bank = bank or load_bank()
        self.graph: BoardGraph | None
        self.graph, warning = load_graph(self.board)
        self.warnings = tuple(self.board.warnings) + ((warning,) if warning else ())
        self.clues = tuple(c for k in CLUE_KINDS for c in deck.of_kind(k))
        if len(self.clues) != len(self.board.landmarks):
            raise RuleViolation("There must be one Clue Card for each Landmark Box.", SETUP)
        self.colour_of = {c.id: str(c.attrs.get("colour", "")) for c in self.clues}
        self.colours = tuple(dict.fromkeys(self.colour_of[c.id] for c in deck.of_kind(WARRANT)))
        self.card_of = {(c.kind, self.colour_of[c.id]): c.id for c in self.clues}
        for colour in self.colours:
            for kind in CLUE_KINDS:
                if (kind, colour) not in self.card_of:
                    raise RuleViolation(f"The {colour} set has no {kind} card.", SETUP)
        self.state_of = {c.id: str(c.attrs.get("state", "")) for c in deck.of_kind(CAPITAL)}
        self.state_names = {c.attrs.get("state"): str(c.attrs.get("state_name")) for c in deck.of_kind(CAPITAL)}
        self.landmark_name = {lm.id: lm.name for lm in self.board.landmarks}
        self.sets = {colour: self.bank.of_set(colour) for colour in COLOURS_SETS}
        # Finished journal lines, shared by every agent and every action (see ``journal``).
        self._entry_cache: dict[tuple, JournalEntry] = {}
        self._journal_cache: dict[tuple, Journal] = {}
        self._box_text = {lm: str(box_place(lm)) for lm in self.board.ids}
        self._ids = self.board.ids
        self._sets_of = tuple((colour, self.card_of[(WARRANT, colour)], self.card_of[(LOOT, colour)],
                               self.card_of[(CROOK, colour)]) for colour in self.colours)
        self._box_cache: dict[tuple, Deduction] = {}
        self._line_cache: dict[tuple, tuple[tuple, Deduction]] = {}
        self._odds_cache: dict[tuple, tuple[dict[str, Fraction], str, dict[str, str]]] = {}

    @classmethod
    def load(cls, decks_dir: Path | None = None) -> "CarmenUsaRules":
        assets = decks_dir.parent if decks_dir is not None else None
        return cls(load_game_deck(cls.game_id, decks_dir), load_board(assets), load_bank(assets))

    def simulator(self, initial: GameState, seed: int) -> Simulator:
        from .sim import CarmenUsaSimulator
        return CarmenUsaSimulator(self, initial, seed)

    # --- setup ---------------------------------------------------------------------
    def setup(self, players: tuple[str, ...], options: Mapping[str, Any]) -> CarmenUsaState:
        """24 Clue Cards face down, one per Landmark Box; the 50 Capital Tokens set aside.

        ``options``: ``ages`` (name -> age: the youngest places first and answers first),
        ``questions`` (``red``, ``blue`` or ``black``) and ``challenge`` (``standard`` or
        ``bigger``: Loot goes back face down too). Players are listed in seating order, each
        one's left neighbour next.
        """
        if not 2 <= len(players) <= 6:
            raise RuleViolation("Where in the USA is Carmen Sandiego is for 2 to 6 agents.", SETUP)
        for name in players:
            _check_name(name)
        if len(set(players)) != len(players):
            raise BadInput("Two agents have the same name; add an initial to tell them apart.")
        colour = options.get("questions", "red")
        if colour not in COLOURS_SETS:
            raise BadInput(f"The question colour must be red, blue or black, not {colour!r}.")
        variant = options.get("challenge", STANDARD)
        if variant not in (STANDARD, BIGGER):
            raise BadInput(f"The challenge must be 'standard' or 'bigger', not {variant!r}.")
        ages = options.get("ages") or {}
        unknown = set(ages) - set(players)
        if unknown:
            raise BadInput(f"Ages given for someone not playing: {', '.join(sorted(unknown))}.")
        order = tuple(sorted(players, key=lambda p: (ages.get(p, float("inf")), players.index(p))))
        if not ages:
            order = tuple(players)
        state = CarmenUsaState(tuple(players), self.deck, order, colour, variant, {})
        t = state.table
        for lm in self.board.landmarks:
            state.boxes[lm.id] = t.add(None, box_place(lm.id))     # one back for all Clue Cards
        for _ in range(self.deck.kinds[CAPITAL].count):
            t.add(CAPITAL, POOL)
        state.reader = self._right_of(state, order[0])
        words = "the bigger challenge: Loot goes back face down too" if variant == BIGGER else "standard rules"
        state.emit("setup", f"Shuffle the 24 Clue Cards and put one face down on each Landmark Box. Questions: "
                            f"{colour}; {words}. {order[0]} puts a piece down first.",
                   colour=colour, variant=variant, order=list(order))
        return state

    # --- helpers -----------------------------------------------------------------
    @staticmethod
    def _right_of(state: CarmenUsaState, player: str) -> str:
        i = state.players.index(player)
        return state.players[(i - 1) % len(state.players)]

    def kind_of(self, card: str) -> str:
        return self.deck.card(card).kind

    def card_name(self, card: str) -> str:
        return self.deck.name_of(card)

    def _landmark(self, text: str) -> str:
        if text not in self.landmark_name:
            raise BadInput(f"There is no landmark {text!r} on this board.")
        return text

    def _box(self, state: CarmenUsaState, text: str) -> tuple[str, int | None]:
        """A box written ``box/<landmark>``: its landmark and the token in it (None: empty)."""
        try:
            place = Place.parse(text, state.players)
        except ValueError as exc:
            raise BadInput(str(exc)) from None
        if place.area != BOXES or place.owner is not None or place.slot not in self.landmark_name:
            raise BadInput(f"{text!r} is not a Landmark Box (write box/<landmark>).")
        return place.slot, state.table.top(place)

    def _actor(self, state: CarmenUsaState) -> str | None:
        phase = state.phase
        if phase == OVER:
            return None
        if phase == PLACING:
            return state.to_place[0]
        if phase == ASKING:
            return state.reader
        if phase == ANSWERING:
            return state.answerer
        if phase == BACKUP:
            return state.backup
        if phase == FINALE_DRAW:
            return state.to_draw[0]
        if phase == FINALE_CLOCK:
            return state.order[-1]
        if phase in (FINALE_PLACE, FINALE_CHECK):
            return state.placer
        return state.current

    def public_card(self, state: CarmenUsaState, token: int) -> str | None:
        return state.knowledge[EVERYONE].card_at(token)

    def can_accuse(self, state: CarmenUsaState, player: str) -> str | None:
        """Why ``player`` may not accuse now (None: they may)."""
        if state.phase not in (MOVING, DECIDING) or state.current != player:
            return "You may accuse only on your own turn, after a right answer."
        where = state.pieces.get(player)
        if where is None:
            return "Accuse from a landmark: your piece is not on one."
        tok = state.table.top(box_place(where))
        card = None if tok is None or not state.table.face_up(tok) else self.public_card(state, tok)
        if card is None or self.kind_of(card) != WARRANT:
            return f"There is no face-up Warrant at {self.landmark_name[where]}."
        if state.turned_up_warrant:
            return "You turned up this Warrant this turn: accuse with it on a later turn."
        return None

    # --- the rules -------------------------------------------------------------------
    def apply(self, state: GameState, action: Action) -> None:
        assert isinstance(state, CarmenUsaState)
        if state.phase == OVER:
            raise RuleViolation("The game is over.", WINNING)
        actor = self._actor(state)
        if action.player not in state.players:
            raise BadInput(f"{action.player!r} is not playing in this game.")
        if isinstance(action, Pass) and state.phase != BACKUP:
            raise RuleViolation("Only a back-up agent may pass, right after a wrong answer (there is no back-up "
                                "agent when only two agents play).", INCORRECT)
        if action.player != actor and not (isinstance(action, (TimeUp, AllPlaced)) and state.phase == FINALE_PLACE):
            raise RuleViolation(f"It is {actor}'s move now, not {action.player}'s.", READING)
        handler = getattr(self, f"_do_{action.type}", None)
        if handler is None or not isinstance(action, ACTIONS[action.type]):
            raise BadInput(f"This game has no action {action.type!r}.")
        if action.type not in _NO_CARD_CHANGE:
            state.cards_version = next(_VERSIONS)
        handler(state, action)

    def _need(self, state: CarmenUsaState, *phases: str, why: str, section: str) -> None:
        if state.phase not in phases:
            raise RuleViolation(why, section)

    def _do_place_piece(self, state: CarmenUsaState, a: PlacePiece) -> None:
        self._need(state, PLACING, why="The pieces are already on the board.", section=SETUP)
        lm = self._landmark(a.landmark)
        taken = [p for p, where in state.pieces.items() if where == lm]
        if taken:
            raise RuleViolation(f"{taken[0]} is already at {self.landmark_name[lm]}: at the start only one piece "
                                f"may stand on a landmark.", SETUP)
        state.pieces[a.player] = lm
        state.to_place.pop(0)
        state.emit("piece", f"{a.player} put a piece on {self.landmark_name[lm]}.", player=a.player, landmark=lm)
        if not state.to_place:
            self._start_turn(state, state.order[0], state.reader)

    def _start_turn(self, state: CarmenUsaState, answerer: str, reader: str) -> None:
        state.current = state.answerer = answerer
        state.reader = reader
        state.phase = ASKING
        state.first = state.backup = state.question = None
        state.choices = state.first_choices = state.turned_up_warrant = False
        state.allowance = 0
        state.look_at = None
        state.emit("turn", f"{answerer}'s turn: {reader} reads a question.", player=answerer, reader=reader)

    def _end_turn(self, state: CarmenUsaState, player: str) -> None:
        self._start_turn(state, state.left_of(player), player)

    def _do_ask(self, state: CarmenUsaState, a: Ask) -> None:
        self._need(state, ASKING, why="A question is already being answered.", section=READING)
        if a.question not in self.bank.questions:
            raise BadInput(f"There is no question {a.question!r} in the question bank.")
        q = self.bank.question(a.question)
        if q.set != state.colour:
            raise RuleViolation(f"This game uses the {state.colour} questions, not {q.set}.", SETUP)
        if a.question in state.asked:
            raise RuleViolation("That question was read already: take the next card.", READING)
        state.asked.append(a.question)
        if len(state.asked) == len(self.sets[state.colour]):
            state.asked = []
            state.emit("reshuffle", f"Every {state.colour} question has been read: they are shuffled again.")
        state.question = a.question
        state.phase = ANSWERING
        state.emit("question", f"{a.player} reads to {state.answerer}: {q.text}", question=q.id,
                   reader=a.player, answerer=state.answerer)
        # Correct Answers/Movement: "Correct answers are shown in bold" on the card, for the reader
        # alone; everyone hears the answer when the reader judges it (the "answer" event).
        state.emit("answer_card", f"On your card: {q.text} The answer: {q.answer}.", private(a.player),
                   question=q.id, answer=q.answer)

    def _do_choices(self, state: CarmenUsaState, a: Choices) -> None:
        self._need(state, ANSWERING, BACKUP, why="There is no question to hear the choices of.", section=READING)
        if state.choices:
            raise RuleViolation(f"{a.player} has heard the choices already: answer, "
                                f"{'or pass' if state.phase == BACKUP else 'right or wrong'}.", READING)
        # Incorrect Answers: a back-up agent may ask to hear again the choices the first agent heard.
        again = state.phase == BACKUP and state.first_choices
        state.choices = True
        q = self.bank.question(state.question or "")
        state.emit("choices", f"The choices{' again' if again else ''}: {'; '.join(q.options)}.",
                   options=list(q.options), again=again)

    def _do_answer(self, state: CarmenUsaState, a: Answer) -> None:
        self._need(state, ANSWERING, BACKUP, why="There is no question to answer now.", section=READING)
        if type(a.correct) is not bool:
            raise BadInput("An answer is marked right (true) or wrong (false).")
        q = self.bank.question(state.question or "")
        with_choices = state.choices or (state.phase == BACKUP and state.first_choices)
        how = "with the choices" if with_choices else "without the choices"
        if state.phase == BACKUP:
            state.current = a.player            # a back-up's answer counts as their turn
        if a.correct:
            state.allowance = ALLOWANCE_CHOICES if with_choices else ALLOWANCE_PLAIN
            state.phase = MOVING
            state.emit("answer", f"{a.player} answered right {how} (the answer: {q.answer}). "
                                 f"{a.player} may move up to {state.allowance} spaces.",
                       correct=True, choices=with_choices, allowance=state.allowance, answer=q.answer)
            return
        state.emit("answer", f"{a.player} answered wrong {how} (the answer: {q.answer}).",
                   correct=False, choices=with_choices, answer=q.answer)
        if state.phase == ANSWERING and len(state.players) > 2:
            state.first, state.backup = a.player, state.left_of(a.player)
            state.first_choices, state.choices = state.choices, False
            state.phase = BACKUP
            state.emit("backup", f"{state.backup} may answer the same question as back-up agent, or pass.",
                       backup=state.backup)
            return
        self._end_turn(state, a.player)

    def _do_pass(self, state: CarmenUsaState, a: Pass) -> None:
        self._need(state, BACKUP, why="Only a back-up agent may pass.", section=INCORRECT)
        first = state.first or state.answerer
        state.emit("pass", f"{a.player} passes: {first} reads {a.player} a new question.")
        self._start_turn(state, a.player, first)

    def _do_move(self, state: CarmenUsaState, a: Move) -> None:
        self._need(state, MOVING, why="Move only after a right answer.", section=MOVEMENT)
        here = state.pieces.get(a.player)
        if a.landmark == NONE:
            state.pieces[a.player] = None
            state.emit("move", f"{a.player} moved and reached no landmark.", landmark=None)
            self._end_turn(state, a.player)
            return
        lm = self._landmark(a.landmark)
        if lm == here:
            raise RuleViolation(f"Move off {self.landmark_name[lm]} this turn: you may not stay on a landmark.",
                                ACCUSING)
        if not self._reachable(state, here, lm):
            raise RuleViolation(f"{self.landmark_name[lm]} is {self.graph.distance(here, lm)} spaces from "
                                f"{self.landmark_name[here or '']}: too far for {state.allowance}.", MOVEMENT)
        state.pieces[a.player] = lm
        name = self.landmark_name[lm]
        state.emit("move", f"{a.player} reached {name}.", landmark=lm)
        tok = state.table.top(box_place(lm))
        if tok is None:
            state.emit("empty_box", f"The Landmark Box at {name} is empty: its card left play.")
            self._end_turn(state, a.player)
            return
        # Whether the agent looks is decided by public facts only (they looked at this card before, or
        # it was shown to everyone), never by their notes: a note dropped after their own two reads
        # clashed (a private question) would otherwise put a look on the shared screen (issue 27).
        if not state.table.face_up(tok) and (a.player, tok) not in state.looked_by \
                and state.knowledge[EVERYONE].card_at(tok) is None:
            state.look_at = lm
            state.phase = LOOKING
            return
        if self.can_accuse(state, a.player) is None:
            state.phase = DECIDING
            return
        self._end_turn(state, a.player)

    def _reachable(self, state: CarmenUsaState, here: str | None, lm: str) -> bool:
        """With a family's board graph, whether ``lm`` is within the allowance of the landmark the
        piece stands on (between landmarks, or without a graph, the app cannot tell: True)."""
        if self.graph is None or here is None:
            return True
        d = self.graph.distance(here, lm)
        return d is None or d <= state.allowance

    def _do_look(self, state: CarmenUsaState, a: Look) -> None:
        self._need(state, LOOKING, why="Look at a card only when you reach its landmark.", section=LANDMARKS)
        lm, tok = self._box(state, a.box)
        if lm != state.look_at or tok is None:
            raise RuleViolation(f"Look at the card at the landmark you reached "
                                f"({self.landmark_name.get(state.look_at or '', '?')}).", LANDMARKS)
        if a.card not in self.deck or self.kind_of(a.card) not in CLUE_KINDS:
            raise BadInput(f"{a.card!r} is not a Clue Card of this game.")
        kind = self.kind_of(a.card)
        name = self.landmark_name[lm]
        face_down = kind == CROOK or (kind == LOOT and state.variant == BIGGER)
        state.looked.add(tok)
        state.looked_by.add((a.player, tok))
        if face_down:
            state.observe(tok, a.card, private(a.player), confirm=a.confirm)
            state.emit("look", f"{a.player} looked at the card at {name} and put it back face down.",
                       landmark=lm)
            state.emit("seen", f"{a.player} saw {self.card_name(a.card)} at {name}.", private(a.player),
                       landmark=lm, card=a.card)
        else:
            state.reveal(tok, a.card, confirm=a.confirm)
            state.emit("turn_up", f"{a.player} looked at the card at {name} and turned it face up: "
                                  f"{self.card_name(a.card)}.", landmark=lm, card=a.card)
            if kind == WARRANT:
                state.turned_up_warrant = True
            elif self.colour_of[a.card] in state.warrants_out:
                state.table.move(tok, OUT, face_up=True)
                state.emit("loot_out", f"Its Warrant has left play, so {self.card_name(a.card)} leaves play too.",
                           card=a.card)
        state.look_at = None
        self._end_turn(state, a.player)

    def _do_end_turn(self, state: CarmenUsaState, a: EndTurn) -> None:
        self._need(state, DECIDING, why="Your turn ends by itself once you have moved and looked.",
                   section=READING)
        state.emit("no_accusation", f"{a.player} does not accuse.")
        self._end_turn(state, a.player)

    def _do_accuse(self, state: CarmenUsaState, a: Accuse) -> None:
        why = self.can_accuse(state, a.player)
        if why is not None:
            raise RuleViolation(why, ACCUSING)
        lm = state.pieces[a.player]
        assert lm is not None
        tok = state.table.top(box_place(lm))
        assert tok is not None
        card = self.public_card(state, tok)
        assert card is not None
        state.accuse_colour = self.colour_of[card]
        state.accuse_from = lm
        state.held = {tok: lm}
        state.table.move(tok, hand_place(a.player), face_up=True)
        state.pieces[a.player] = lm
        state.phase = ACCUSING_LOOT
        state.emit("accuse", f"{a.player} accuses with {self.card_name(card)} from {self.landmark_name[lm]}: "
                             f"now call out where its Loot is.", card=card, landmark=lm)

    def _do_call(self, state: CarmenUsaState, a: Call) -> None:
        self._need(state, ACCUSING_LOOT, ACCUSING_CROOK, why="Call out landmarks only during an accusation.",
                   section=ACCUSING)
        lm, tok = self._box(state, a.box)
        name = self.landmark_name[lm]
        if tok is None:
            raise RuleViolation(f"There is no card at {name}: call out a landmark that has one.", ACCUSING)
        if a.card not in self.deck or self.kind_of(a.card) not in CLUE_KINDS:
            raise BadInput(f"{a.card!r} is not a Clue Card of this game.")
        colour = state.accuse_colour
        want = LOOT if state.phase == ACCUSING_LOOT else CROOK
        if want == LOOT and self._known_crook(state, tok):
            raise RuleViolation(f"Everyone knows the card at {name} is a Crook, and no Crook's landmark may be "
                                f"called before you hold a Warrant and a Loot of the same colour: call out "
                                f"where the {colour} Loot is.", ACCUSING)
        was_face_up = state.table.face_up(tok)
        state.observe(tok, a.card, PUBLIC, confirm=a.confirm)      # picked up and shown to everyone
        kind = self.kind_of(a.card)
        shown = "" if was_face_up else " (shown to everyone)"
        if want == LOOT and kind == CROOK and self.colour_of[a.card] == colour:
            # It matches the Warrant, so this is no false accusation; but a Crook may not be called
            # before the Loot: the call does not count, and the Crook goes back face down.
            state.table.set_face_up(tok, False)
            state.emit("call", f"{a.player} called {name}: {self.card_name(a.card)}{shown}. It is this "
                               f"Warrant's Crook, called before its Loot: it goes back face down and the "
                               f"accusation goes on. Now call out where the {colour} Loot is.",
                       landmark=lm, card=a.card, match=False, early=True)
            return
        if kind == want and self.colour_of[a.card] == colour:
            state.held[tok] = lm
            state.table.move(tok, hand_place(a.player), face_up=True)
            if want == LOOT:
                state.phase = ACCUSING_CROOK
                state.emit("call", f"{a.player} called {name}: {self.card_name(a.card)}{shown}. It matches! "
                                   f"Now call out where the Crook is.", landmark=lm, card=a.card, match=True)
                return
            state.emit("call", f"{a.player} called {name}: {self.card_name(a.card)}{shown}. It matches!",
                       landmark=lm, card=a.card, match=True)
            self._true_accusation(state, a.player)
            return
        state.emit("call", f"{a.player} called {name}: {self.card_name(a.card)}{shown}. It does not match: "
                           f"the accusation is over.", landmark=lm, card=a.card, match=False)
        self._false_accusation(state, a.player, tok, a.card)

    def _known_crook(self, state: CarmenUsaState, tok: int) -> bool:
        """Whether everyone knows the card in this box is a Crook: it was shown to everyone, or
        (standard rules) an agent looked at it and put it back face down."""
        card = self.public_card(state, tok)
        if card is not None:
            return self.kind_of(card) == CROOK
        return state.variant == STANDARD and tok in state.looked and not state.table.face_up(tok)

    def _false_accusation(self, state: CarmenUsaState, player: str, tok: int, card: str) -> None:
        colour = state.accuse_colour
        assert colour is not None
        kind = self.kind_of(card)
        # The card that did not match goes back: a Warrant or Loot face up, a Crook face down.
        state.table.set_face_up(tok, kind != CROOK)
        if kind == LOOT and self.colour_of[card] in state.warrants_out:
            state.table.move(tok, OUT, face_up=True)
            state.emit("loot_out", f"{self.card_name(card)}'s Warrant has left play, so it leaves play too.",
                       card=card)
        state.warrants_out.append(colour)
        for held in list(state.held):
            held_card = self.public_card(state, held)
            state.table.move(held, OUT, face_up=True)
            state.emit("card_out", f"{self.card_name(held_card or '')} leaves play.", card=held_card)
        state.held = {}
        state.accuse_colour = state.accuse_from = None
        left = len(self.colours) - len(state.warrants_out)
        if left == 0:
            state.emit("verdict", "All eight Warrants have left play: Carmen Sandiego wins! V.I.L.E. triumphs.",
                       carmen=True)
            self._finish(state, Outcome((), state.players, "All the Warrants left play: Carmen Sandiego wins."))
            return
        state.emit("verdict", f"The {colour} Warrant has left play ({left} Warrants still in play).",
                   colour=colour, warrants_left=left)
        self._end_turn(state, player)

    def _true_accusation(self, state: CarmenUsaState, player: str) -> None:
        state.winner = player
        state.emit("verdict", f"{player} found the whole {state.accuse_colour} set: a true accusation! "
                              f"{player} wins. Now everyone works together to catch Carmen.", winner=player)
        state.phase = FINALE_DRAW
        state.to_draw = list(state.order)
        state.current = state.order[0]

    def _do_draw_capitals(self, state: CarmenUsaState, a: DrawCapitals) -> None:
        self._need(state, FINALE_DRAW, why="Capital Tokens are drawn only to catch Carmen.", section=CATCHING)
        n = self.board.tokens_per_agent
        if state.table.count(POOL) < n:
            raise RuleViolation("There are not enough Capital Tokens left to draw.", CATCHING)
        for i in range(1, n + 1):
            state.table.move(state.table.top(POOL), capital_place(a.player, i), face_up=False)
        state.to_draw.pop(0)
        state.emit("draw", f"{a.player} takes {n} Capital Tokens without looking.", player=a.player)
        if not state.to_draw:
            state.phase = FINALE_CLOCK
            seconds = self.board.timer_seconds[len(state.players)]
            state.emit("clock_ready", f"Set the timer to {seconds} seconds; {state.order[-1]} starts it.",
                       seconds=seconds)

    def _do_start_clock(self, state: CarmenUsaState, a: StartClock) -> None:
        self._need(state, FINALE_CLOCK, why="The timer is started once, after everyone has drawn.",
                   section=CATCHING)
        state.phase = FINALE_PLACE
        state.placer = state.order[0]
        state.current = state.placer
        state.emit("clock", f"{a.player} starts the timer: Catch Carmen! {state.placer} goes first.",
                   seconds=self.board.timer_seconds[len(state.players)])

    def _do_all_placed(self, state: CarmenUsaState, a: AllPlaced) -> None:
        """The timer times the agents placing their real tokens on the printed map; it stops when
        they say every token is placed, and each token is checked afterwards (no clock)."""
        self._need(state, FINALE_PLACE, why="Say \"All placed!\" while the timer runs.", section=CATCHING)
        if state.flipped is not None:
            raise RuleViolation("Put the token you flipped on its state first.", CATCHING)
        state.phase = FINALE_CHECK
        state.placer = state.current = next(p for p in state.order if self._tokens_of(state, p))
        state.emit("all_placed", f"{a.player}: all placed, in time! Now check each token where it lies, at "
                                 f"your own pace: {state.placer} first.", player=a.player)

    def _do_flip_capital(self, state: CarmenUsaState, a: FlipCapital) -> None:
        self._need(state, FINALE_CHECK, why="Tokens are turned over to be checked after \"All placed!\".",
                   section=CATCHING)
        if state.flipped is not None:
            raise RuleViolation("Say which state the token you turned over lies on first.", CATCHING)
        token = state.token_at(a.token)
        if token not in self._tokens_of(state, a.player):
            raise RuleViolation("Check one of your own Capital Tokens.", CATCHING)
        if a.card not in self.state_of:
            raise BadInput(f"{a.card!r} is not a Capital Token.")
        state.reveal(token, a.card, confirm=a.confirm)
        state.flipped = token
        state.emit("flip", f"{a.player}'s token: {self.card_name(a.card)}. Which state does it lie on?",
                   card=a.card)

    def _tokens_of(self, state: CarmenUsaState, player: str) -> list[int]:
        return [t for i in range(1, self.board.tokens_per_agent + 1) for t in state.table.at(capital_place(player, i))]

    def _do_place_capital(self, state: CarmenUsaState, a: PlaceCapital) -> None:
        self._need(state, FINALE_PLACE, FINALE_CHECK, why="Capital Tokens are placed after the timer starts.",
                   section=CATCHING)
        if state.phase == FINALE_CHECK:
            self._check_capital(state, a)
            return
        token = state.token_at(a.token)
        if token not in self._tokens_of(state, a.player):
            raise RuleViolation("Flip one of your own Capital Tokens.", CATCHING)
        if state.flipped is not None and token != state.flipped:
            raise RuleViolation("Place the token you flipped first.", CATCHING)
        if a.card not in self.state_of:
            raise BadInput(f"{a.card!r} is not a Capital Token.")
        if a.state not in self.state_names:
            raise BadInput(f"{a.state!r} is not a state (use its two-letter abbreviation).")
        state.reveal(token, a.card, confirm=a.confirm)
        capital = self.card_name(a.card)
        if self.state_of[a.card] != a.state:
            state.flipped = token
            state.emit("wrong_state", f"{capital} is not in {self.state_names[a.state]}: try again!",
                       card=a.card, state=a.state, correct=False)
            return
        state.flipped = None
        state.table.move(token, Place("map", slot=a.state), face_up=True)
        state.emit("placed", f"{a.player} put {capital} on {self.state_names[a.state]}.", card=a.card,
                   state=a.state, correct=True)
        nxt = self._next_placer(state, a.player)
        if nxt is None:
            state.emit("caught", "Every capital is on its state in time: Carmen Sandiego is caught!", caught=True)
            self._finish(state, Outcome((state.winner or a.player,), tuple(p for p in state.players if p != state.winner),
                                        f"{state.winner} made a true accusation, and the agents caught Carmen "
                                        f"Sandiego in time!"))
            return
        state.placer = state.current = nxt

    def _check_capital(self, state: CarmenUsaState, a: PlaceCapital) -> None:
        """The check after "All placed!": the token turned over lies on ``a.state``. A token on
        another state's place was not placed correctly (Catching Carmen: "correctly place all the
        tokens before time runs out"); the verdict comes once every token is checked."""
        if state.flipped is None:
            raise RuleViolation("Turn a token over first: which capital it is, then the state it lies on.",
                                CATCHING)
        token = state.token_at(a.token) if a.token else state.flipped
        if token != state.flipped:
            raise RuleViolation("Say where the token you turned over lies first.", CATCHING)
        if a.state not in self.state_names:
            raise BadInput(f"{a.state!r} is not a state (use its two-letter abbreviation).")
        card = self.public_card(state, token)
        if a.card and a.card != card:
            raise RuleViolation(f"That token was read as {self.card_name(card or '')}.", CATCHING)
        capital, where = self.card_name(card), self.state_names[a.state]
        state.flipped = None
        state.table.move(token, Place("map", slot=a.state), face_up=True)
        if self.state_of[card] == a.state:
            state.emit("checked", f"{capital} lies on {where}: right.", card=card, state=a.state, correct=True)
        else:
            state.misplaced.append((card, a.state))
            state.emit("checked", f"{capital} lies on {where}, but it is the capital of "
                                  f"{self.state_names[self.state_of[card]]}.", card=card, state=a.state,
                       correct=False)
        nxt = next((p for p in state.order if self._tokens_of(state, p)), None)
        if nxt is not None:
            state.placer = state.current = nxt
            return
        winner = state.winner or a.player
        losers = tuple(p for p in state.players if p != state.winner)
        if not state.misplaced:
            state.emit("caught", "Every capital lies on its state, placed in time: Carmen Sandiego is caught!",
                       caught=True)
            self._finish(state, Outcome((winner,), losers, f"{state.winner} made a true accusation, and the "
                                                           f"agents caught Carmen Sandiego in time!"))
            return
        wrong = "; ".join(f"{self.card_name(c)} on {self.state_names[st]}" for c, st in state.misplaced)
        state.emit("escaped", f"Not every token lay on its state ({wrong}): Carmen Sandiego escapes to steal "
                              f"again.", caught=False)
        capitals = ", ".join(self.card_name(c) for c, _ in state.misplaced)
        self._finish(state, Outcome((winner,), losers, f"{state.winner} made a true accusation, but Carmen "
                                                       f"escaped: {capitals} lay on the wrong state."))

    def _next_placer(self, state: CarmenUsaState, after: str) -> str | None:
        p = after
        for _ in range(len(state.players)):
            p = state.left_of(p)
            if self._tokens_of(state, p):
                return p
        return None

    def _do_time_up(self, state: CarmenUsaState, a: TimeUp) -> None:
        self._need(state, FINALE_PLACE, why="The timer runs only while Capital Tokens are being placed.",
                   section=CATCHING)
        state.emit("escaped", "Time ran out: Carmen Sandiego escapes to steal again.", caught=False)
        self._finish(state, Outcome((state.winner or a.player,), tuple(p for p in state.players if p != state.winner),
                                    f"{state.winner} made a true accusation, but Carmen escaped: time ran out."))

    def _finish(self, state: CarmenUsaState, outcome: Outcome) -> None:
        state.outcome = outcome
        state.phase = OVER
        state.emit("game_over", outcome.reason, winners=list(outcome.winners), losers=list(outcome.losers))

    # --- prompt ----------------------------------------------------------------------
    def prompt(self, state: GameState) -> Prompt:
        assert isinstance(state, CarmenUsaState)
        phase = state.phase
        if phase == OVER:
            assert state.outcome is not None
            return Prompt(None, f"Game over: {state.outcome.reason}")
        p = self._actor(state)
        assert p is not None
        if phase == PLACING:
            free = tuple(lm for lm in self.board.ids if lm not in state.pieces.values())
            return Prompt(p, f"{p}, put your piece on a vacant landmark.",
                          (Option("place_piece", "Put my piece here", {"landmark": free}),))
        if phase == ASKING:
            left = tuple(q for q in self.sets[state.colour] if q not in state.asked)
            return Prompt(p, f"{p}, read a {state.colour} question to {state.answerer}.",
                          (Option("ask", "Read the next question", {"question": left}),))
        if phase in (ANSWERING, BACKUP):
            heard = state.choices or (phase == BACKUP and state.first_choices)
            # Two options, each with its one value: a screen shows them as two buttons.
            opts = [Option("answer", "Right answer", {"correct": (True,)}),
                    Option("answer", "Wrong answer", {"correct": (False,)})]
            if not state.choices:
                again = phase == BACKUP and state.first_choices
                opts.append(Option("choices", "Hear the choices again" if again else "Hear the choices"))
            if phase == BACKUP:
                opts.append(Option("pass", "I pass"))
                worth = ALLOWANCE_CHOICES if heard else ALLOWANCE_PLAIN
                return Prompt(p, f"{p}, as back-up agent: answer {state.reader}'s question ({worth} spaces if right"
                                 f"{'' if heard else ', 3 with the choices'}) or pass.", tuple(opts))
            # The question itself is on the question card a screen shows (said once, not in every line).
            return Prompt(p, f"{p}, answer {state.reader}'s {state.colour} question{' (choose one)' if heard else ''}.",
                          tuple(opts))
        if phase == MOVING:
            here = state.pieces.get(p)
            targets = tuple(lm for lm in self.board.ids if lm != here and self._reachable(state, here, lm)) + (NONE,)
            opts = [Option("move", "I moved", {"landmark": targets})]
            if self.can_accuse(state, p) is None:
                opts.append(Option("accuse", "Accuse from here"))
            off = f" (move off {self.landmark_name[here]})" if here else ""
            # Every landmark glows unless the family gave their board's spaces (the app does not count
            # them): the words ask for the move on the real board, and claim no landmark is in reach.
            return Prompt(p, f"{p}, move up to {state.allowance} spaces on the board{off}, then press \"I moved\" "
                             f"and touch the landmark you reached.", tuple(opts))
        if phase == LOOKING:
            lm = state.look_at or ""
            return Prompt(p, f"{p}, secretly look at the card at {self.landmark_name.get(lm, lm)}.",
                          (Option("look", "Look at the card", {"box": (str(box_place(lm)),)}, {"card": "box"},
                                 private=True),))
        if phase == DECIDING:
            return Prompt(p, f"{p}, you may accuse with this Warrant, or end your turn.",
                          (Option("accuse", "Accuse"), Option("end_turn", "End my turn")))
        if phase in (ACCUSING_LOOT, ACCUSING_CROOK):
            table, boxes_of = state.table, state.boxes
            boxes = tuple(str(box_place(lm)) for lm in self.board.ids if table.count(box_place(lm))
                          and not (phase == ACCUSING_LOOT and self._known_crook(state, boxes_of[lm])))
            what = "Loot" if phase == ACCUSING_LOOT else "Crook"
            return Prompt(p, f"{p}, call out the landmark of the {state.accuse_colour} {what}.",
                          (Option("call", f"The {what} is here", {"box": boxes}, {"card": "box"}),))
        if phase == FINALE_DRAW:
            return Prompt(p, f"{p}, take {self.board.tokens_per_agent} Capital Tokens without looking.",
                          (Option("draw_capitals", "Take my tokens"),))
        if phase == FINALE_CLOCK:
            seconds = self.board.timer_seconds[len(state.players)]
            return Prompt(p, f"{p}, start the {seconds}-second timer and say \"Catch Carmen!\"",
                          (Option("start_clock", "Start the timer"),))
        if phase == FINALE_PLACE:
            # The timer times the real tokens being placed on the printed map: nothing is typed now.
            return Prompt(p, "Catch Carmen! Everyone: flip your tokens, read each capital aloud and put it on its "
                             "state on the game board's map. Then press All placed!",
                          (Option("all_placed", "All placed!"),))
            # "time_up" is not offered among the main actions (pressed by mistake it would end the
            # game): the table's own clock sends it, or a family racing their own timer confirms it.
        if state.flipped is not None:
            capital = self.card_name(self.public_card(state, state.flipped) or "")
            return Prompt(p, f"{p}, which state does your {capital} token lie on? Tap it on the map.",
                          (Option("place_capital", "It lies on this state", {"state": tuple(sorted(self.state_names))}),))
        places = tuple(str(state.table.place_of(t)) for t in self._tokens_of(state, p))
        return Prompt(p, f"No hurry now: {p}, turn over one of your tokens where it lies and say its capital.",
                      (Option("flip_capital", "Turn a token over", {"token": places}, {"card": "token"}),))

    def hand_places(self, state: GameState, player: str) -> tuple[str, ...]:
        """None: an accuser's cards lie face up for everyone, and Capital Tokens are taken without
        looking."""
        return ()

    def private_note(self, state: GameState, player: str) -> str | None:
        """The reader's card while a question waits for its judgement: the question and its answer
        (printed in bold on the real card, Correct Answers/Movement), for the reader alone."""
        assert isinstance(state, CarmenUsaState)
        if state.phase not in (ANSWERING, BACKUP) or state.question is None or player != state.reader:
            return None
        q = self.bank.question(state.question)
        listener = state.backup if state.phase == BACKUP else state.answerer
        return f"You read to {listener}: {q.text} The answer (only you see it): {q.answer}"

    # --- journal ---------------------------------------------------------------------
    def where_words(self, state: CarmenUsaState, place: Place, viewer: str | None = None) -> str:
        if place.area == BOXES:
            return self.landmark_name.get(place.slot or "", str(place))
        if place.area == "hand":
            return "your hand" if place.owner == viewer else f"{place.owner}'s hand"
        if place.area == "out":
            return "Out of play"
        if place.area == "map":
            return f"on {self.state_names.get(place.slot, place.slot)}"
        if place.area == CAPITAL:
            return f"{'your' if place.owner == viewer else str(place.owner) + chr(39) + 's'} Capital Token {place.slot}"
        return str(place)

    def _box_tokens(self, state: CarmenUsaState) -> list[tuple[str, int]]:
        """(landmark, the token of its Clue Card) in board order (each card has its own box)."""
        boxes = state.boxes
        return [(lm, boxes[lm]) for lm in self._ids]

    def journal(self, state: GameState, player: str, assist: Assist) -> Journal:
        """This agent's journal: where each Clue Card is (as far as they know), every box, and
        (with more assist) the colours out, accusations ready and the exact Crook odds.

        Journals are rebuilt after every action for every agent; most actions (questions, answers)
        change nothing in them, and most lines are the same for every agent, so finished journals
        and lines are kept (small caches keyed by everything they depend on).
        """
        assert isinstance(state, CarmenUsaState)
        key = (player, assist, state.cards_version, state.phase, state.current, state.pieces.get(player),
               state.turned_up_warrant)
        done = self._journal_cache.get(key)
        if done is None:
            if len(self._journal_cache) > 4096:
                self._journal_cache.clear()
            done = self._journal_cache[key] = self._journal(state, player, assist)
        return done

    def _journal(self, state: CarmenUsaState, player: str, assist: Assist) -> Journal:
        know = state.knowledge[player]
        where = state.table.where
        cache = self._entry_cache
        entries = []
        for card in self.clues:
            tok = know.where.get(card.id)
            place = None if tok is None else where[tok]
            key = (card.id, place, player if place is not None and place.owner is not None else None)
            entry = cache.get(key)
            if entry is None:
                if place is None:
                    entry = JournalEntry(card.id, card.name, card.kind, "Unknown")
                else:
                    entry = JournalEntry(card.id, card.name, card.kind, self.where_words(state, place, player),
                                         str(place))
                cache[key] = entry
            entries.append(entry)
        deductions = self._boxes(state, player)
        if assist != Assist.NOTES:
            deductions += self._hints(state, player)
        if assist == Assist.FULL:
            deductions += self._crook_odds(state, player)
        return Journal(player, assist, tuple(entries), tuple(deductions))

    _HOW = {"public": "face up", "shown": "shown to everyone at an accusation", "seen": "seen by you",
            "crook": "a Crook (someone looked and put it back face down)",
            "crook-or-loot": "a Crook or a Loot (someone looked and put it back face down)",
            "unknown": "unknown", "empty": "empty: its card left play",
            "held": "picked up in the accusation"}

    def _boxes(self, state: CarmenUsaState, player: str) -> list[Deduction]:
        """One line for the 24 Landmark Boxes: the text names the boxes known in any way; the data
        lists every box: landmark, place, the card when known, and how it is known, one of
        ``empty`` (its card left play), ``held`` (picked up in the accusation under way),
        ``public`` (face up), ``shown`` (shown to everyone, face down), ``seen`` (looked at by this
        agent), ``crook`` / ``crook-or-loot`` (someone looked and put it back face down), ``unknown``.
        """
        known_cards = state.knowledge[player].known
        public = state.knowledge[EVERYONE].known
        where, up, looked = state.table.where, state.table.up, state.looked
        down_how = "crook-or-loot" if state.variant == BIGGER else "crook"
        rows = []
        for lm, tok in self._box_tokens(state):
            area = where[tok].area
            card = known_cards.get(tok)
            if area == "hand":
                rows.append((lm, "held", card))
            elif area != BOXES:
                rows.append((lm, "empty", None))
            elif tok in up:
                rows.append((lm, "public", card))
            elif card is not None:
                rows.append((lm, "shown" if public.get(tok) == card else "seen", card))
            else:
                rows.append((lm, down_how if tok in looked else "unknown", None))
        key = tuple(rows)
        line = self._box_cache.get(key)
        if line is None:
            known = []
            for lm, how, card in key:
                if how == "unknown":
                    continue
                what = f"{self.card_name(card)} ({self._HOW[how]})" if card else self._HOW[how]
                known.append(f"{self.landmark_name[lm]}: {what}")
            unknown = sum(1 for _, how, _ in key if how == "unknown")
            text = ("; ".join(known) + "." if known else "No box known yet.") + \
                (f" {unknown} boxes unknown." if known and unknown else "")
            if len(self._box_cache) > 8192:
                self._box_cache.clear()
            line = self._box_cache[key] = Deduction(
                "boxes", text, "What you saw, or what everyone saw at the table.",
                {"boxes": [{"landmark": lm, "place": str(box_place(lm)), "how": how, "card": card}
                           for lm, how, card in key]})
        return [line]

    def _hints(self, state: CarmenUsaState, player: str) -> list[Deduction]:
        out = []
        if state.warrants_out:
            key = ("out", *state.warrants_out)
            line = self._box_cache.get(key)
            if line is None:
                names = ", ".join(f"{c} ({self.deck.card(self.card_of[(WARRANT, c)]).attrs.get('crook', c)})"
                                  for c in state.warrants_out)
                line = self._box_cache[key] = Deduction(
                    "colours_out", f"Warrants out of play: {names}.",
                    "A false accusation removes its Warrant; no accusation can use it again.",
                    {"colours": list(state.warrants_out)})
            out.append(line)
        where = state.knowledge[player].where
        table = state.table
        for colour, warrant_id, loot_id, crook_id in self._sets_of:
            crook_tok = where.get(crook_id)
            if crook_tok is None:
                continue
            loot_tok, warrant_tok = where.get(loot_id), where.get(warrant_id)
            if loot_tok is None or warrant_tok is None or colour in state.warrants_out:
                continue
            w, l, c = table.where[warrant_tok], table.where[loot_tok], table.where[crook_tok]
            if w.area != BOXES or warrant_tok not in table.up or l.area != BOXES or c.area != BOXES:
                continue
            now = state.pieces.get(player) == w.slot and self.can_accuse(state, player) is None
            text = (f"Accusation ready for the {colour} set: Warrant at {self.landmark_name[w.slot or '']}, "
                    f"Loot at {self.landmark_name[l.slot or '']}, Crook at {self.landmark_name[c.slot or '']}"
                    + (" - you can accuse now." if now else "."))
            out.append(Deduction("accusation_ready", text,
                                 "You know where all three cards of this colour are, and its Warrant is face up.",
                                 {"colour": colour, "warrant": str(w), "loot": str(l), "crook": str(c), "now": now}))
        return out

    def _unknown_crook(self, state: CarmenUsaState, player: str) -> tuple:
        """What the chances of a Crook this agent has not located depend on: the unknown boxes
        (each with the card types it may hold) and how many cards of each type are unknown."""
        know = state.knowledge[player].known
        looked_kinds = (CROOK, LOOT) if state.variant == BIGGER else (CROOK,)
        where, looked = state.table.where, state.looked
        boxes = [(lm, tok in looked) for lm, tok in self._box_tokens(state)
                 if tok not in know and where[tok].area == BOXES]
        remaining = dict.fromkeys(CLUE_KINDS, 0)
        where = state.knowledge[player].where
        for c in self.clues:
            if c.id not in where:
                remaining[c.kind] += 1
        return tuple(boxes), looked_kinds, tuple(remaining[k] for k in CLUE_KINDS)

    def _odds_for(self, sig: tuple) -> tuple[dict[str, Fraction], str, dict[str, str]]:
        """landmark -> chance for an unlocated Crook, with its words and data (cached by ``sig``)."""
        hit = self._odds_cache.get(sig)
        if hit is not None:
            return hit
        boxes, looked_kinds, rem = sig
        remaining = dict(zip(CLUE_KINDS, rem))
        any_kind, down = frozenset(CLUE_KINDS), frozenset(looked_kinds)
        classes: dict[frozenset[str], int] = {}
        for _, looked in boxes:
            kinds = down if looked else any_kind
            classes[kinds] = classes.get(kinds, 0) + 1
        chances: dict[str, Fraction] = {}
        ranked: list[tuple[str, bool]] = []
        if remaining[CROOK] and sum(rem) == len(boxes):
            per_class = type_chances(classes, remaining)
            # At most three different chances (one per class of box): work each out once.
            p_of = {looked: per_class[down if looked else any_kind][CROOK] / remaining[CROOK]
                    for looked in {looked for _, looked in boxes}}
            chances = {lm: p_of[looked] for lm, looked in boxes if p_of[looked]}
            order = sorted(p_of, key=lambda looked: -p_of[looked])
            ranked = [(lm, looked) for looked in order if p_of[looked]
                      for lm in sorted(lm for lm, x in boxes if x == looked)]
            text_of = {looked: (f"{p.numerator}/{p.denominator}", f"({float(p):.0%})") for looked, p in p_of.items()}
        words = "; ".join(f"{self.landmark_name[lm]} {text_of[x][0]} {text_of[x][1]}" for lm, x in ranked)
        data = {self._box_text[lm]: text_of[x][0] for lm, x in ranked}
        if len(self._odds_cache) > 4096:
            self._odds_cache.clear()
        hit = self._odds_cache[sig] = (chances, words, data)
        return hit

    def crook_chances(self, state: CarmenUsaState, player: str) -> dict[str, dict[str, Fraction]]:
        """colour -> landmark -> exact chance that its Crook lies there, for ``player``.

        Colours are interchangeable within a type, so every Crook this agent has not located has
        the same chances (see :mod:`.odds`).
        """
        where = state.knowledge[player].where
        shared = None
        out: dict[str, dict[str, Fraction]] = {}
        for colour in self.colours:
            tok = where.get(self.card_of[(CROOK, colour)])
            if tok is None:
                if shared is None:
                    shared = self._odds_for(self._unknown_crook(state, player))[0]
                out[colour] = dict(shared)
            else:
                place = state.table.where[tok]
                out[colour] = {place.slot or str(place): Fraction(1)} if place.area == BOXES else {}
        return out

    def _crook_odds(self, state: CarmenUsaState, player: str) -> list[Deduction]:
        out = []
        bigger = state.variant == BIGGER
        reason = ("Every arrangement of the cards you have not seen that fits what you know is equally likely "
                  "(a card put back face down is a Crook" + (" or a Loot)." if bigger else ")."))
        where = state.knowledge[player].where
        unlocated = None
        for colour in self.colours:
            crook_id = self.card_of[(CROOK, colour)]
            tok = where.get(crook_id)
            if tok is not None:
                place = state.table.where[tok]
                if place.area != BOXES:
                    continue
                key = ("certain", crook_id, place.slot, bigger)
                line = self._box_cache.get(key)
                if line is None:
                    line = self._box_cache[key] = Deduction(
                        "crook_odds", f"{self.card_name(crook_id)} is at {self.landmark_name[place.slot or '']} "
                                      f"(certain).", reason, {"colour": colour, "odds": {str(place): "1/1"}})
                out.append(line)
                continue
            if unlocated is None:
                unlocated = self._odds_for(self._unknown_crook(state, player))
            if not unlocated[2]:
                continue                    # no arrangement fits (a misread): no odds to show
            key = ("odds", crook_id, id(unlocated))      # the cached odds object stands for its inputs
            line = self._line_cache.get(key)
            if line is None or line[0] is not unlocated:
                if len(self._line_cache) > 8192:
                    self._line_cache.clear()
                line = self._line_cache[key] = (unlocated, Deduction(
                    "crook_odds", f"Where {self.card_name(crook_id)} can be: {unlocated[1]}.", reason,
                    {"colour": colour, "odds": unlocated[2]}))
            out.append(line[1])
        return out

    def layout(self, state: GameState) -> Mapping[str, tuple[str, ...]]:
        """Landmark Boxes (top and bottom rows, west to east), card types, colours, the finale's timer and map."""
        assert isinstance(state, CarmenUsaState)
        rows = {r: tuple(lm.id for lm in sorted(self.board.landmarks, key=lambda x: x.order) if lm.row == r)
                for r in ("top", "bottom")}
        return {"top": rows["top"], "bottom": rows["bottom"], "kinds": CLUE_KINDS, "colours": self.colours,
                "questions": (state.colour,), "challenge": (state.variant,),
                "timer_seconds": (str(self.board.timer_seconds.get(len(state.players), 0)),),
                "tiles": tuple(f"{s}:{r}:{c}" for s, (r, c) in sorted(self.board.tiles.items()))}

    def place_words(self, state: GameState, place: str, viewer: str | None = None) -> str:
        """'the card at Mount Rushmore', 'your Capital Token 1', 'Minnesota on the map'; also the
        other values an action takes: a landmark ('Mount Rushmore'), 'none' ('No landmark'), a
        state's letters ('Minnesota')."""
        assert isinstance(state, CarmenUsaState)
        if place in self.landmark_name:
            return self.landmark_name[place]
        if place == NONE:
            return "No landmark"
        if place in self.state_names:
            return self.state_names[place]
        try:
            where = Place.parse(place, state.players)
        except ValueError:
            return place
        if where.area == BOXES:
            return f"the card at {self.landmark_name.get(where.slot or '', where.slot)}"
        if where.area == "map":
            return f"{self.state_names.get(where.slot, where.slot)} on the map"
        return self.where_words(state, where, viewer)

    # --- undo history ------------------------------------------------------------------
    def describe(self, state: GameState, action: Action) -> str:
        """Public words for an action, judged on the state before it (no private identity)."""
        assert isinstance(state, CarmenUsaState)
        a = action
        lmn = self.landmark_name
        try:
            if isinstance(a, PlacePiece):
                return f"{a.player} put a piece on {lmn[a.landmark]}"
            if isinstance(a, Ask):
                return f"{a.player} read a question to {state.answerer}"
            if isinstance(a, Choices):
                return f"{a.player} asked for the choices"
            if isinstance(a, Answer):
                return f"{a.player} answered {'right' if a.correct else 'wrong'}"
            if isinstance(a, Pass):
                return f"{a.player} passed"
            if isinstance(a, Move):
                return f"{a.player} reached {lmn[a.landmark]}" if a.landmark != NONE else f"{a.player} moved"
            if isinstance(a, Look):
                return f"{a.player} looked at the card at {lmn[Place.parse(a.box, state.players).slot or '']}"
            if isinstance(a, Accuse):
                return f"{a.player} made an accusation"
            if isinstance(a, Call):
                return f"{a.player} called {lmn[Place.parse(a.box, state.players).slot or '']}"
            if isinstance(a, EndTurn):
                return f"{a.player} ended the turn"
            if isinstance(a, DrawCapitals):
                return f"{a.player} took Capital Tokens"
            if isinstance(a, StartClock):
                return f"{a.player} started the timer"
            if isinstance(a, AllPlaced):
                return f"{a.player}: all placed"
            if isinstance(a, FlipCapital):
                return f"{a.player} turned a token over"
            if isinstance(a, PlaceCapital):
                return f"{a.player} put {self.card_name(a.card)} on {self.state_names.get(a.state, a.state)}"
            if isinstance(a, TimeUp):
                return "Time ran out"
        except (KeyError, ValueError):
            pass
        return f"{a.player}: {a.type}"
