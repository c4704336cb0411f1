"""One table screen per game; this registry maps a game id to its table class.

The shell (start screen, new game, privacy gate, journals, camera, die, undo, log, the
end of the game) never names a game: it asks this registry for the table of the game
being played, and the engine's registry for what the shelf says about it. Adding a game
is one line here (see ``docs/desktop.md`` for what a table must provide).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

from engine import games as engine_games

if TYPE_CHECKING:
    from ..table_base import GameTable

# game id -> "module:TableClass" (imported on first use).
TABLES: dict[str, str] = {
    "carmen-cards": "desktop.tables.carmen:CarmenTable",
    "39-clues": "desktop.tables.clues39:CluesTable",
    "carmen-usa": "desktop.tables.carmen_usa:CarmenUsaTable",
    "bonnie-clyde": "desktop.tables.bonnie_clyde:BonnieClydeTable",
    "sudds-malone": "desktop.tables.sudds_malone:SuddsTable",
}


def installed_games() -> list[str]:
    """Games a family can play here: rules in the engine and a table in the desktop."""
    return [game for game in engine_games.GAMES if game in TABLES]


def table_class(game_id: str) -> "type[GameTable]":
    try:
        module, cls = TABLES[game_id].split(":")
    except KeyError:
        raise ValueError(f"No table screen for game {game_id!r}.") from None
    return getattr(import_module(module), cls)
