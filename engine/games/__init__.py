"""One module per game; this registry maps a game id to its rules.

>>> sorted(GAMES)
['carmen-cards']
"""

from __future__ import annotations

from importlib import import_module
from pathlib import Path

from ..cards import load_game_deck
from ..game import Rules

# game id -> "module:RulesClass" (imported on first use, so one game's bug cannot stop another).
GAMES: dict[str, str] = {
    "carmen-cards": "engine.games.carmen:CarmenRules",
}


def rules_for(game_id: str, decks_dir: Path | None = None) -> Rules:
    """The rules of a game, with its deck loaded (and the family's name corrections)."""
    try:
        target = GAMES[game_id]
    except KeyError:
        raise ValueError(f"Unknown game {game_id!r}; known games: {', '.join(sorted(GAMES))}") from None
    module, cls = target.split(":")
    rules_cls = getattr(import_module(module), cls)
    return rules_cls(load_game_deck(game_id, decks_dir))
