"""The contract between the shell's table screen and one game's table (``docs/desktop.md``).

A game's table draws the game's own board from the shared view and turns clicks on it
into *place* choices; everything else (whose turn, the prompt, messages, undo, the die,
journals, the camera, card entry behind the privacy gate, the log, the end of the game)
is the shell's. The shell runs every action through one flow, driven by the engine's
prompt (:class:`engine.game.Option`):

1. An option whose only field lists places the table shows ("look at one of these
   slots") is live at once: its places are highlighted and a click chooses one.
   Any other option is a button; pressing it starts the option.
2. The option's fields are filled in order: a field with one legal value fills itself;
   a field of places is chosen on the table (highlighted); any other field (a die face,
   a direction, a colour) is chosen with buttons in the shell's action panel.
3. If the option reads cards (``Option.reads``), the shell asks for their identities:
   behind the privacy gate for the acting player when ``Option.private``, on the shared
   screen otherwise (a flip); from the camera, or picked from a list.
4. The action is sent; a refusal is shown in words and changes nothing.

A table may take over an option entirely (``handles``) when its game needs a dialog of
its own; it then builds the action and calls ``shell.send`` (or ``shell.read_cards``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Protocol

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QWidget

from engine.errors import RuleViolation
from engine.game import Journal, Option

if TYPE_CHECKING:
    from .games import GameController


@dataclass(frozen=True)
class ShelfScreen:
    """A game's own screen, opened from the start screen with the game chosen on the shelf
    (a family's card library, the printed values of their box)."""

    #: short id: the start screen's button is named ``start:screen:<name>``
    name: str
    #: the button's words ("Your card library...")
    label: str
    #: builds the screen's widget (shown in a window of its own with a Close button)
    make: Callable[[], QWidget]


class NewGameChoices(QWidget):
    """A game's own part of the new-game form: choices the shelf card's options cannot say
    (one per player, or from the family's own data). The shell places it under the options."""

    #: something changed (the form shows :meth:`problem` again)
    changed = Signal()

    def set_players(self, names: list[str]) -> None:
        """The players' names in seating order, whenever they change."""

    def options(self) -> dict[str, Any]:
        """Added to the shelf options and given to ``Rules.setup``."""
        return {}

    def problem(self) -> str | None:
        """Why the game cannot start yet (None: it can); shown on the form."""
        return None

    def warning(self) -> str | None:
        """Something to know that does not stop the game (shown on the form)."""
        return None


class TableShell(Protocol):
    """What the shell gives a game's table."""

    controller: "GameController"

    def send(self, action: dict) -> bool:
        """Apply an action; on a refusal show why (nothing changes) and return False."""

    def read_cards(self, action: dict, reads: list[tuple[str, str]], *, private: bool, heading: str,
                   choices: dict[str, list[str]] | None = None) -> None:
        """Ask for the identity of the cards at places (card field, place), then send ``action``
        with them: behind the privacy gate for ``action["player"]`` when ``private``.
        ``choices``: card field -> the only cards it may be (one of the cards a player drew and
        saw); the list shows just those, and in a demo any of them that lies there is right."""

    def read_card_list(self, action: dict, field: str, place: str, *, private: bool, heading: str,
                       least: int = 1, most: int | None = None, kinds: tuple[str, ...] | None = None,
                       demo_cards: list[str] | None = None) -> None:
        """Ask for several cards from one place (a meld laid from a hand, hunch cards drawn):
        ``action[field]`` becomes the list of card ids, between ``least`` and ``most`` of them,
        of the card types ``kinds`` (None: any). The camera adds each card it reads; a pick
        adds or removes one. ``demo_cards``: what the simulated camera holds up in a demo."""

    def identify_card(self, heading: str, choices: list[str], on_card: Callable[[str], None],
                      shown: str | None = None) -> None:
        """Ask on the shared screen which of ``choices`` a card turned face up is (camera or pick)
        when the table itself needs it (a card the engine reads as a field, not at a place):
        nothing is sent; ``on_card(card id)`` is called once it is known, and not on Cancel.
        ``shown``: in a demo, the card the simulated table has there (its camera can be shown it)."""

    def say(self, lines: list[str]) -> None:
        """Show public words of what just happened."""

    def complain(self, exc: RuleViolation) -> None:
        """Show a refusal."""

    def camera_frame(self) -> Any:
        """The newest camera frame (a BGR numpy array) for a table that reads something besides
        card tags in it (a game's dice); None when the camera is off. Never drawn on screen."""

    def speak(self, text: str) -> None:
        """Read public words aloud, when the family switched reading aloud on (the prompt
        is read by itself whenever it changes)."""


class GameTable(QWidget):
    """Base of every game's table widget (``desktop/tables/<game>.py``)."""

    #: a place on the board was clicked (only highlighted places emit it)
    place_clicked = Signal(str)
    #: a place that may not be chosen now was clicked: the shell says why (never nothing)
    place_refused = Signal(str)

    #: what every game's table must define itself (checked when the class is made)
    REQUIRED = ("refresh", "shows")

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        missing = [name for name in GameTable.REQUIRED if name not in vars(cls)
                   and not any(name in vars(base) for base in cls.__mro__[1:] if base is not GameTable
                               and issubclass(base, GameTable))]
        if missing:
            raise TypeError(f"{cls.__name__} must define {', '.join(missing)} (see docs/desktop.md)")

    def __init__(self, shell: TableShell) -> None:
        super().__init__()
        self.shell = shell
        self.controller = shell.controller

    # --- must (each table defines these) -----------------------------------------------
    # refresh(self, view: PlayerView, legal: set[str], chosen: set[str]) -> None
    #     Redraw from the shared view; ``legal`` places are highlighted, ``chosen`` ones marked.
    # shows(self, place: str) -> bool
    #     Whether ``place`` can be clicked on this table (the shell highlights it there).

    # --- may ---------------------------------------------------------------------------
    def handles(self, option: Option) -> bool:
        """True to take over ``option`` (the shell then calls :meth:`start`)."""
        return False

    def start(self, option: Option, player: str) -> None:
        """Run an option this table handles itself."""

    def holds_the_screen(self) -> str | None:
        """Why nothing may open over the table now (a countdown the family races), in words the
        shell shows instead of opening the full log, How to play, a journal or the phones' codes;
        None (the default): anything may."""
        return None

    def turn_words(self, view) -> str | None:
        """The turn line's words while it is no one agent's turn (everyone races a clock), in place of
        the shell's "Ann's turn"; None (the default): the shell's words."""
        return None

    def setup_widget(self) -> QWidget | None:
        """A picture of how to lay out the game, shown once before the first move (or None)."""
        return None

    def journal_widget(self, journal: Journal) -> QWidget | None:
        """A game-specific view of a player's journal (None: the shell's generic view)."""
        return None

    def field_words(self, option: Option, field: str) -> str:
        """What the player picks for ``field`` of ``option``, for the prompt line ("the Loot card")."""
        return field.replace("_", " ")

    @classmethod
    def shelf_screens(cls) -> list[ShelfScreen]:
        """The game's own screens, opened from the start screen (none by default)."""
        return []

    @classmethod
    def before_tag_sheets(cls) -> str | None:
        """Called before the start screen draws this game's tag sheets (a game whose cards come
        from the family's own data brings their tag numbers up to date here). A problem in
        words stops the printing and is shown; None: print."""
        return None

    @classmethod
    def new_game_choices(cls) -> NewGameChoices | None:
        """The game's own part of the new-game form (None: the shelf card's options are enough)."""
        return None
