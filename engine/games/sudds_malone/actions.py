"""The actions of Sudds & Malone (their JSON form is in docs/replay-format.md).

``confirm: true`` on an action that reads a face-down card answers the engine's question when the
card read is already noted elsewhere in that player's journal (a misread or a mix-up).

Card ids are full ids (``sudds.case.case-07``). Chance is an input: the deal, every roll and
every card drawn face up or looked at arrives in an action, as the camera or a pick reads it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from ...game import Action


@dataclass(frozen=True)
class Deal(Action):
    """Game Setup 4-5 and 8: the Flimflam card on each location (read off its back), the one
    turned onto the Conspiracy, and the 4 Case cards of the display."""
    type = "deal"
    city: Mapping[str, str] = field(default_factory=dict)
    conspiracy: str = ""
    display: tuple[str, ...] = ()


@dataclass(frozen=True)
class Roll(Action):
    """The badge holder rolled every die: die id -> value 1-6."""
    type = "roll"
    dice: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class TakeDie(Action):
    """Take a die; ``shift`` bullets change it by +1 or -1 each (6 and 1 wrap); ``news``: Read the News."""
    type = "take_die"
    die: str = ""
    shift: int = 0
    news: bool = False


@dataclass(frozen=True)
class Improve(Action):
    """The Office: move up these columns, one step each, in this order."""
    type = "improve"
    tracks: tuple[str, ...] = ()


@dataclass(frozen=True)
class CalendarMove(Action):
    """Calendar: move the allowed days (the engine counts them)."""
    type = "calendar"


@dataclass(frozen=True)
class Investigate(Action):
    """Move along ``path``; pay the snitches at ``snitches``; ``found``: the suspect or stoolie
    taken at the last location (read privately); ``draw``: the new Flimflam put there.
    ``face``: the last location's Flimflam card as it is turned face up onto the Conspiracy (read
    on the shared screen); "" keeps the card noted there (games saved before the face was read)."""
    type = "investigate"
    path: tuple[str, ...] = ()
    snitches: tuple[str, ...] = ()
    found: str = ""
    draw: str = ""
    face: str = ""
    confirm: bool = False


@dataclass(frozen=True)
class TakeFlimflam(Action):
    """Flimflam: take the Flimflam cards covering these Conspiracy positions."""
    type = "take_flimflam"
    positions: tuple[int, ...] = ()


@dataclass(frozen=True)
class TakeCases(Action):
    """Take Cases: each pick a display card id or "deck"; ``refill``: cards turned up after."""
    type = "take_cases"
    picks: tuple[str, ...] = ()
    refill: tuple[str, ...] = ()


@dataclass(frozen=True)
class Moxie(Action):
    """Moxie: take bullets (then the die is re-rolled)."""
    type = "moxie"


@dataclass(frozen=True)
class Reroll(Action):
    """The Moxie die was re-rolled and shows ``value``."""
    type = "reroll"
    value: int = 0


@dataclass(frozen=True)
class PlaceSnitch(Action):
    """A snitch reward: put the snitch showing ``evidence`` on ``location``."""
    type = "place_snitch"
    location: str = ""
    evidence: str = ""


@dataclass(frozen=True)
class Peek(Action):
    """A peek: secretly look at the Conspiracy suspect at ``position``; it is ``card``."""
    type = "peek"
    position: int = 0
    card: str = ""
    confirm: bool = False


@dataclass(frozen=True)
class PickEvidence(Action):
    """Choose a glass, notebook or telephone (Read the News, a Flimflam reward)."""
    type = "pick_evidence"
    evidence: str = ""


@dataclass(frozen=True)
class CashOrPoints(Action):
    """A "$1 or 2 points" day: ``choice`` is "cash" or "points"."""
    type = "cash_or_points"
    choice: str = ""


@dataclass(frozen=True)
class TakeCase(Action):
    """A Case card reward: ``source`` a display card id or "deck"; ``refill`` the card turned up."""
    type = "take_case"
    source: str = ""
    refill: str = ""


@dataclass(frozen=True)
class Bonus(Action):
    """A bonus action: ``action`` is a column (office, calendar, ...) or "news"."""
    type = "bonus"
    action: str = ""


@dataclass(frozen=True)
class CloseCase(Action):
    """Close a Case card from your hand (``card`` read as it is played), paying ``pay``."""
    type = "close_case"
    card: str = ""
    pay: tuple[str, ...] = ()


@dataclass(frozen=True)
class GainHunch(Action):
    """Use these cards above your file cabinet and snitches (by location) as an A-B-C set;
    ``drawn``: the hunch cards drawn (read privately)."""
    type = "hunch"
    cards: tuple[str, ...] = ()
    snitches: tuple[str, ...] = ()
    drawn: tuple[str, ...] = ()
    confirm: bool = False


@dataclass(frozen=True)
class BuyHunch(Action):
    """Pay $1 to draw one more hunch card (read privately)."""
    type = "buy_hunch"
    card: str = ""
    confirm: bool = False


@dataclass(frozen=True)
class KeepHunch(Action):
    """Keep this drawn hunch card; the others go to the bottom of the hunch deck."""
    type = "keep_hunch"
    card: str = ""


@dataclass(frozen=True)
class UseStoolie(Action):
    """Reveal the stoolie ``stoolie`` (the taker's pick, behind the privacy gate) and pay $1; the peek
    follows as its own step. Older games: with ``position`` and ``card``, the peek in the same move."""
    type = "use_stoolie"
    position: int = 0
    card: str = ""
    stoolie: str = ""
    confirm: bool = False


@dataclass(frozen=True)
class EndTurn(Action):
    type = "end_turn"


@dataclass(frozen=True)
class Discard(Action):
    """End of turn limits: put back exactly the extras."""
    type = "discard"
    above: tuple[str, ...] = ()
    hand: tuple[str, ...] = ()
    bullets: int = 0
    evidence: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Reveal(Action):
    """End of Game: the 4 Conspiracy suspects turned face up, positions 1-4."""
    type = "reveal"
    cards: tuple[str, ...] = ()
    confirm: bool = False


ACTIONS: dict[str, type[Action]] = {cls.type: cls for cls in (
    Deal, Roll, TakeDie, Improve, CalendarMove, Investigate, TakeFlimflam, TakeCases, Moxie, Reroll, PlaceSnitch,
    Peek, PickEvidence, CashOrPoints, TakeCase, Bonus, CloseCase, GainHunch, BuyHunch, KeepHunch, UseStoolie,
    EndTurn, Discard, Reveal)}
