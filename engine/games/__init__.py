"""One module per game; this registry maps a game id to its rules and its shelf card.

Adding a game is one line in :data:`GAMES` plus its data file ``assets/games/<id>.toml``
(what the start screen's shelf says about it: title, players, ages, pitch, how to play,
the devices it uses and its setup options).

>>> "carmen-cards" in GAMES
True
>>> info = game_info("carmen-cards")
>>> info.title, info.players, info.uses_die
('Carmen Sandiego card game', (2, 4), True)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from importlib import import_module
from pathlib import Path
from typing import Any, Mapping

from ..errors import BadInput
from ..game import Rules
from ..paths import assets_dir, read_toml

# game id -> "module:RulesClass" (imported on first use, so one game's bug cannot stop another).
GAMES: dict[str, str] = {
    "carmen-cards": "engine.games.carmen:CarmenRules",
    "bonnie-clyde": "engine.games.bonnie_clyde.rules:BonnieClydeRules",
    "sudds-malone": "engine.games.sudds_malone:SuddsRules",
    "carmen-usa": "engine.games.carmen_usa:CarmenUsaRules",
    "39-clues": "engine.games.clues39:CluesRules",
}


class GameDataError(BadInput):
    """A game's shelf file (``assets/games/<id>.toml``) is missing or malformed."""


@dataclass(frozen=True)
class GameOption:
    """A choice made when a game is set up (a variant, a target score), as the new-game form asks it."""

    id: str
    label: str
    choices: tuple[Any, ...]
    labels: tuple[str, ...]
    default: Any


@dataclass(frozen=True)
class StepRule:
    """The rule of one step of a game (an action a prompt offers): ``words`` in our own words,
    ``section`` the rulebook section they interpret."""

    words: str
    section: str


@dataclass(frozen=True)
class GameInfo:
    """What the shelf says about a game, from ``assets/games/<id>.toml``."""

    id: str
    title: str
    players: tuple[int, int]
    ages: str
    minutes: int
    pitch: str
    how_to_play: tuple[str, ...]
    die: str | None                 # the die file's id when the game uses one die (the die panel)
    hidden_cards: bool              # players look at cards privately (peek flow, journals)
    options: tuple[GameOption, ...] = ()
    #: action -> the rule of that step in our own words, with the rulebook section it comes from
    #: (the table's "How to play" tells first the rules of the steps offered now)
    step_rules: Mapping[str, StepRule] = field(default_factory=dict, hash=False)
    #: who goes first, as the new-game form says it: ``{youngest}`` is the youngest player's name,
    #: ``{first}`` the name written first (``[game] first`` in the file; the youngest by default)
    first: str = "{youngest} is the youngest and goes first."

    @property
    def uses_die(self) -> bool:
        return self.die is not None

    @property
    def player_words(self) -> str:
        low, high = self.players
        return f"{low} players" if low == high else f"{low}-{high} players"


def _text(raw: dict, key: str, where: str) -> str:
    value = raw.get(key)
    if not isinstance(value, str) or not value.strip():
        raise GameDataError(f"{where}: '{key}' must be a non-empty text.")
    return value


def _parse_info(game_id: str, raw: dict, where: str) -> GameInfo:
    head = raw.get("game")
    if not isinstance(head, dict):
        raise GameDataError(f"{where}: a [game] table is missing.")
    if head.get("id") != game_id:
        raise GameDataError(f"{where}: [game] id is {head.get('id')!r}, expected {game_id!r}.")
    players = head.get("players")
    if (not isinstance(players, list) or len(players) != 2 or not all(type(n) is int for n in players)
            or not 1 <= players[0] <= players[1] <= 12):
        raise GameDataError(f"{where}: 'players' must be [fewest, most], for example [2, 4].")
    steps = head.get("how_to_play")
    if not isinstance(steps, list) or not steps or not all(isinstance(s, str) and s.strip() for s in steps):
        raise GameDataError(f"{where}: 'how_to_play' must be a list of short texts.")
    minutes = head.get("minutes", 0)
    if type(minutes) is not int or minutes < 0:
        raise GameDataError(f"{where}: 'minutes' must be a whole number.")
    die = head.get("die")
    if die is not None and not isinstance(die, str):
        raise GameDataError(f"{where}: 'die' must be the id of a die file.")
    hidden = head.get("hidden_cards", False)
    if not isinstance(hidden, bool):
        raise GameDataError(f"{where}: 'hidden_cards' must be true or false.")
    options = []
    for i, opt in enumerate(raw.get("options", []) or []):
        at = f"{where}: options[{i}]"
        if not isinstance(opt, dict):
            raise GameDataError(f"{at} must be a table.")
        choices = opt.get("choices")
        if not isinstance(choices, list) or len(choices) < 2:
            raise GameDataError(f"{at}: 'choices' must list at least two values.")
        labels = opt.get("labels", [str(c) for c in choices])
        if not isinstance(labels, list) or len(labels) != len(choices) or not all(isinstance(s, str) for s in labels):
            raise GameDataError(f"{at}: 'labels' must give one text per choice.")
        default = opt.get("default", choices[0])
        if default not in choices:
            raise GameDataError(f"{at}: the default {default!r} is not one of the choices.")
        options.append(GameOption(_text(opt, "id", at), _text(opt, "label", at), tuple(choices), tuple(labels),
                                  default))
    step_rules = {}
    table = raw.get("step_rules", {})
    if not isinstance(table, dict):
        raise GameDataError(f"{where}: [step_rules] must be a table: one entry per action.")
    for action, rule in table.items():
        at = f"{where}: step_rules.{action}"
        if not isinstance(rule, dict):
            raise GameDataError(f"{at} must be a table with 'words' and 'section'.")
        step_rules[action] = StepRule(_text(rule, "words", at), _text(rule, "section", at))
    first = head.get("first", GameInfo.first)
    if not isinstance(first, str) or not first.strip():
        raise GameDataError(f"{where}: 'first' must be a non-empty text (who goes first).")
    try:
        first.format(youngest="", first="")
    except (KeyError, IndexError, ValueError):
        raise GameDataError(f"{where}: 'first' may name only {{youngest}} or {{first}}.") from None
    return GameInfo(game_id, _text(head, "title", where), (players[0], players[1]), _text(head, "ages", where),
                    minutes, _text(head, "pitch", where), tuple(steps), die, hidden, tuple(options), step_rules,
                    first)


@lru_cache(maxsize=None)
def _cached_info(game_id: str, folder: str) -> GameInfo:
    path = Path(folder) / f"{game_id}.toml"
    return _parse_info(game_id, read_toml(path, GameDataError), str(path))


def game_info(game_id: str, folder: Path | None = None) -> GameInfo:
    """The shelf card of a registered game (``GameDataError`` when its file is broken)."""
    if game_id not in GAMES:
        raise BadInput(f"Unknown game {game_id!r}; known games: {', '.join(sorted(GAMES))}.")
    return _cached_info(game_id, str(folder or assets_dir() / "games"))


def rules_class(game_id: str) -> type[Rules]:
    try:
        target = GAMES[game_id]
    except (KeyError, TypeError):
        raise ValueError(f"Unknown game {game_id!r}; known games: {', '.join(sorted(GAMES))}") from None
    module, cls = target.split(":")
    return getattr(import_module(module), cls)


def rules_for(game_id: str, decks_dir: Path | None = None) -> Rules:
    """The rules of a game, with its data loaded (deck, family's name corrections, boards...)."""
    return rules_class(game_id).load(decks_dir)
