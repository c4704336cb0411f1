"""The cards' tag numbers: the family's library cards (or the example collection's) and a game's cards."""

from __future__ import annotations

from typing import Iterable

from engine.games.clues39 import library as cards_lib


def sync_tags(game_cards: Iterable[tuple[str, str]] = ()) -> str | None:
    """Give the family's library cards (or the example collection's) and a game's cards their tag
    numbers (vision's per-family file in the user folder); the problem in words, or None."""
    from vision.registry import RegistryError, sync_family_cards
    try:
        try:
            sync_family_cards(cards_lib.GAME_ID, cards_lib.tag_cards(), listed=True)
        except cards_lib.LibraryError:
            pass            # a broken library is reported by its own screen; the game's cards still get tags
        cards = list(game_cards)
        if cards:
            sync_family_cards(cards_lib.GAME_ID, cards, listed=False)
    except (RegistryError, OSError) as exc:
        return f"Your cards' tag numbers could not be saved ({exc}); pick the cards on the screen."
    return None
