"""The actions of Bonnie and Clyde Mystery Rummy (their JSON form is in ``docs/replay-format.md``).

Card fields carry what the camera (or a pick on screen) read: a card played face up is read in
front of everyone, a card looked at under a location or taken from the FBI Files is read
privately. Draws carry no card: the app counts them, it never reads a hand.

>>> Meld("Ann", ["bonnie-clyde.evidence.location-3-a"] * 3).cards[0]
'bonnie-clyde.evidence.location-3-a'
>>> Meld("Ann", ("x", "y", "z")).to_json()["cards"]
('x', 'y', 'z')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...game import Action

FILES_PLACE = "files"


def _card_list(action: Action, value: Any) -> None:
    """Accept a JSON list (or tuple) of card ids; store a tuple so the action stays a value."""
    if isinstance(value, str) or not isinstance(value, (list, tuple)) or not all(isinstance(c, str) for c in value):
        raise TypeError("'cards' must be a list of card ids")
    object.__setattr__(action, "cards", tuple(value))


@dataclass(frozen=True)
class Deal(Action):
    """The dealer dealt the hand and turned up the first card of the FBI Files: it is ``card``."""
    type = "deal"
    card: str
    pile: str = FILES_PLACE
    confirm: bool = False


@dataclass(frozen=True)
class Draw(Action):
    """Draw the top card of the Case File (counted, never read)."""
    type = "draw"


@dataclass(frozen=True)
class TakeDiscard(Action):
    """Take the top card of the FBI Files (everyone saw it). ``revealed``: the card that shows on
    top afterwards, read by the camera, when nobody knows it (after an unseen Ted Hinton take)."""
    type = "take_discard"
    pile: str = FILES_PLACE
    revealed: str = ""
    confirm: bool = False


@dataclass(frozen=True)
class Meld(Action):
    """Play three or more Evidence cards of one location face up in front of you."""
    type = "meld"
    cards: tuple[str, ...]
    confirm: bool = False

    def __post_init__(self) -> None:
        _card_list(self, self.cards)


@dataclass(frozen=True)
class Layoff(Action):
    """Lay off one or two Evidence cards of a location that has a meld on the table."""
    type = "layoff"
    cards: tuple[str, ...]
    confirm: bool = False

    def __post_init__(self) -> None:
        _card_list(self, self.cards)


@dataclass(frozen=True)
class Hinton(Action):
    """Play Ted Hinton (``card``, read face up) to ``use`` it: "draw" 2, "take" a card from the FBI Files,
    or "look" under the location ``location`` (written ``board/<number>``)."""
    type = "hinton"
    card: str
    use: str
    location: str = ""
    confirm: bool = False


@dataclass(frozen=True)
class Look(Action):
    """Look at the card under ``location`` without showing anyone: it is ``card``."""
    type = "look"
    location: str
    card: str
    confirm: bool = False


@dataclass(frozen=True)
class Take(Action):
    """Take the card just looked at into your hand."""
    type = "take"


@dataclass(frozen=True)
class Leave(Action):
    """Leave the card just looked at where it is."""
    type = "leave"


@dataclass(frozen=True)
class MoveCar(Action):
    """After a layoff: move the Crime Spree car one location "up" (toward Gibson) or "down"."""
    type = "move_car"
    direction: str


@dataclass(frozen=True)
class TakeFile(Action):
    """Ted Hinton: take any one card from the FBI Files without showing it: it is ``card``."""
    type = "take_file"
    card: str
    pile: str = FILES_PLACE
    confirm: bool = False


@dataclass(frozen=True)
class NoteHand(Action):
    """Show cards of your own hand to the app privately, so your journal counts them (``cards``,
    or one ``card`` as the shell's card entry reads it)."""
    type = "note_hand"
    cards: tuple[str, ...] = ()
    card: str = ""
    confirm: bool = False

    def __post_init__(self) -> None:
        _card_list(self, self.cards)


@dataclass(frozen=True)
class Discard(Action):
    """Discard ``card`` face up on the FBI Files: this ends your turn."""
    type = "discard"
    card: str
    confirm: bool = False


ACTIONS: dict[str, type[Action]] = {
    cls.type: cls for cls in (Deal, Draw, TakeDiscard, Meld, Layoff, Hinton, Look, Take, Leave, MoveCar,
                              TakeFile, NoteHand, Discard)
}
