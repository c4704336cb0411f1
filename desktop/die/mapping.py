"""From a die reader's face number to an engine action, or a plain reason why not.

Pure (engine only, no Qt): the die faces are data (``assets/dice/*.toml``), so the same
face number means one thing on one game's die and something else on another's. A roll
that arrives when the game is not waiting for one is reported and ignored, never applied.

>>> from engine.games import GAMES, game_info
>>> from engine.session import Session
>>> game = next(g for g in GAMES if game_info(g).uses_die)
>>> s = Session.new(game, ["Julie", "Mark"], {"ages": {"Julie": 8, "Mark": 12}})
>>> roll_action_for(s, "Julie", 4)
{'type': 'roll', 'player': 'Julie', 'face': 4}
>>> _ = s.apply(roll_action_for(s, "Julie", 4))
>>> roll_action_for(s, "Julie", 2) is None            # she already rolled this turn
True
>>> explain_roll(s, "Julie", 2).reason
'Location rolled, but no roll is expected now (Julie, look at one of your own Loot cards: Top or Center or Bottom.)'
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.dice import DieError, DieSpec, load_die
from engine.games import game_info
from engine.session import Session


@dataclass(frozen=True)
class RollDecision:
    """What to do with a roll from the reader: ``action`` to apply, or ``None`` and a reason."""

    face: int
    symbol: str | None           # what the face shows on this game's die ("loot"), if it has the face
    label: str                   # the symbol in the game's words ("Loot")
    action: dict | None
    reason: str                  # why it is ignored; empty when it is applied


def die_of(session: Session) -> DieSpec:
    """The die this game's rules use (rules may carry their own), else the one its shelf data names."""
    die = getattr(session.rules, "die", None)
    if isinstance(die, DieSpec):
        return die
    name = game_info(session.rules.game_id).die
    if name is None:
        raise DieError(f"{session.rules.title} is played without a die.")
    return load_die(name)


def face_label(session: Session, face: int) -> tuple[str | None, str]:
    """``(symbol, words)`` for a face: ``("loot", "Loot")``; ``(None, "face 9")`` if the die lacks it."""
    try:
        symbol = die_of(session).shows(face)
    except DieError:
        return None, f"face {face}"
    kinds = getattr(session.rules.deck, "kinds", {})
    kind = kinds.get(symbol)
    return symbol, (kind.name if kind is not None else symbol.capitalize())


def explain_roll(session: Session, player: str | None, face: int) -> RollDecision:
    """Decide about a roll. ``player=None`` means "whoever the game is waiting for".

    Nothing here changes the session: the caller applies ``decision.action`` (the same
    action an on-screen roll makes), so undo, the event store and the journals treat a
    reader roll exactly like any other.
    """
    symbol, label = face_label(session, face)
    die = die_of(session)

    def ignored(reason: str) -> RollDecision:
        return RollDecision(face, symbol, label, None, reason)

    if symbol is None:
        return ignored(f"The {die.name} has no face {face} (faces are 1-{len(die.faces)}); the roll is ignored.")
    if session.outcome is not None:
        return ignored(f"{label} rolled, but the game is over.")
    prompt = session.prompt()
    if prompt.option("roll") is None:
        return ignored(f"{label} rolled, but no roll is expected now ({prompt.text})")
    roller = prompt.player if player is None else player
    if roller is None:
        return ignored(f"{label} rolled, but nobody is due to roll.")
    if prompt.player is not None and roller != prompt.player:
        return ignored(f"{label} rolled, but it is {prompt.player}'s turn to roll, not {roller}'s.")
    return RollDecision(face, symbol, label, {"type": "roll", "player": roller, "face": face}, "")


def roll_action_for(session: Session, player: str | None, face: int) -> dict | None:
    """The engine action for this roll, or ``None`` when it must be ignored
    (``explain_roll(...).reason`` says why, in words for the table)."""
    return explain_roll(session, player, face).action
