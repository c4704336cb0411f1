"""The Sudds & Malone table: player boards, the dice pool, the city, the Conspiracy, the decks."""

from __future__ import annotations

from typing import Any

from ...cards import Deck
from ...game import GameState
from ...table import Place
from .box import EVIDENCE, TRACKS

COLOURS = ("white", "black", "grey")
PERSONAL = "personal"
LIMITS = {"above": 4, "hand": 5, "bullets": 6, "evidence": 7}   # End of Turn
START_BULLETS, BOARD_BULLETS = 2, 4                          # Game Setup 17
SOURCES = ("start", "office", "calendar", "flimflam", "cases", "investigate", "moxie", "cats",
           "tokens", "matchbooks", "hunches")

# Phases of play.
DEAL, ROLL, DIE, PENDING, AFTER, LIMIT, REVEAL, OVER = (
    "deal", "roll", "die", "pending", "after", "limits", "reveal", "over")


def conspiracy_place(position: int) -> Place:
    return Place("conspiracy", slot=str(position))


def city_place(location: str) -> Place:
    return Place("city", slot=location)


def found_place(player: str) -> Place:
    return Place("found", owner=player)


BOX_PLACE = Place("box")
HUNCH_PILE = Place("pile", slot="hunch")


def drawn_place(player: str) -> Place:
    """Hunch cards just drawn, in the player's hand until one is kept."""
    return Place("drawn", owner=player)


def hunches_place(player: str) -> Place:
    """Kept hunch cards, face down in front of the player."""
    return Place("hunches", owner=player)


class Board:
    """One player's board and supply: cash, evidence, bullets, tracks, cards, snitches, score."""

    __slots__ = ("cash", "evidence", "bullets", "levels", "office_level", "snitches", "score", "sources",
                 "above", "filed", "hand_known", "hand_unknown", "hunches", "colours", "calendar",
                 "calendar_done", "location", "dice", "visited")

    def __init__(self, score: int, snitches: tuple[str, ...]) -> None:
        self.cash = 1
        self.evidence = {e: 1 for e in EVIDENCE}
        self.bullets = START_BULLETS
        self.levels = {t: 1 for t in TRACKS}
        self.office_level = 1                 # the Office level this turn's improvements use
        self.snitches = list(snitches)        # evidence shown by each snitch still in the supply
        self.score = score
        self.sources = {s: 0 for s in SOURCES}
        self.sources["start"] = score
        self.above: list[str] = []            # Case and Flimflam cards above the file cabinet
        self.filed: list[str] = []            # Case cards below it
        self.hand_known: list[str] = []       # Case cards in hand the table saw (taken from the display)
        self.hand_unknown = 0                 # Case cards drawn face down
        self.hunches: list[str] = []          # kept hunch cards as their owner read them (private)
        self.colours: set[str] = set()        # die colours used this round
        self.calendar: tuple[int, int] | None = (1, 0)   # (week, day 0=Sunday..6=Saturday); None: removed
        self.calendar_done = False
        self.location = "east-side"
        self.dice: list[str] = []             # dice taken this round
        self.visited: list[str] = []          # locations this turn (the start included): no second visit

    def clone(self) -> "Board":
        b = Board.__new__(Board)
        for name in self.__slots__:
            v = getattr(self, name)
            setattr(b, name, type(v)(v) if isinstance(v, (list, dict, set)) else v)
        return b

    @property
    def hand(self) -> int:
        return len(self.hand_known) + self.hand_unknown

    @property
    def evidence_total(self) -> int:
        return sum(self.evidence.values())

    def to_json(self) -> dict[str, Any]:
        return {"cash": self.cash, "evidence": dict(self.evidence), "bullets": self.bullets,
                "levels": dict(self.levels), "snitches": list(self.snitches), "score": self.score,
                "above": list(self.above), "filed": list(self.filed), "hand": self.hand,
                "calendar": list(self.calendar) if self.calendar else None, "location": self.location,
                "dice": list(self.dice)}


class SuddsState(GameState):
    """Everything at the table the rules need. Private things (kept hunches, drawn hunches,
    suspects taken) are held here as the referee's file; journals read only their owner's."""

    def __init__(self, players: tuple[str, ...], deck: Deck, snitches: tuple[str, ...]) -> None:
        super().__init__(players, deck)
        self.phase = DEAL
        self.round = 1
        self.badge = players[0]
        self.turn = 0                                   # turns taken this round
        self.dice: dict[str, int | None] = {}           # die id -> value (None before the roll)
        self.taken: dict[str, str] = {}                 # die id -> player who took it this round
        self.boards = {p: Board(i + 1, snitches) for i, p in enumerate(players)}
        self.board_bullets = BOARD_BULLETS
        self.city: dict[str, str | None] = {}           # location -> Flimflam card id face down there
        self.covers: dict[int, str] = {}                # Conspiracy position -> Flimflam card face up on it
        self.ff_deck: list[str] = []                    # Flimflam cards in the deck (order unknown)
        self.display: list[str] = []
        self.case_deck = 0                              # Case cards in the deck (identities unknown)
        self.cases_in_play: tuple[str, ...] = ()
        self.hunches_in_play: tuple[str, ...] = ()     # the hunch deck: tokens at HUNCH_PILE
        self.snitch_at: dict[str, tuple[str, str, bool]] = {}   # location -> (owner, evidence, flipped)
        self.pending: list[dict[str, Any]] = []
        self.drawn: list[str] = []                      # hunch cards drawn and not yet kept (as read)
        self.hunch_set: dict[str, Any] = {}             # the set being used for the hunch under way
        self.doing: str | None = None                   # the column whose action is under way
        self.arrival = {p: i for i, p in enumerate(players)}    # when each score disk last arrived
        self.arrivals = len(players)
        self.final: dict[str, dict[str, int]] = {}      # end-of-game points by source
        self.conspiracy: tuple[str, ...] = ()           # revealed at the end

    def clone(self) -> "SuddsState":
        new = super().clone()
        assert isinstance(new, SuddsState)
        new.boards = {p: b.clone() for p, b in self.boards.items()}
        new.pending = [dict(x) for x in self.pending]
        return new

    def order(self) -> tuple[str, ...]:
        """Turn order this round: the badge holder first, then clockwise (seating order)."""
        i = self.players.index(self.badge)
        return self.players[i:] + self.players[:i]

    def add_score(self, player: str, points: int, source: str) -> None:
        if not points:
            return
        b = self.boards[player]
        b.score += points
        b.sources[source] += points
        self.arrivals += 1
        self.arrival[player] = self.arrivals
