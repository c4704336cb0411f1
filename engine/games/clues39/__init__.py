"""The 39 Clues: Double-Cross: the family's card library and the rules.

- :mod:`.library`: the family's registered cards (a file in the user's folder), validation,
  import/export, the small editing API, decks built per player, tag ids.
- :mod:`.rules`: :class:`CluesRules`, every rule of the rulebook (``docs/rules/39-clues.md``).
- :mod:`.sim`: the simulated table (true identities, a random legal player).
"""

from __future__ import annotations

from .library import (DeckCheck, Entry, Library, LibraryError, build_decks, card_ids, edit, export_library,
                      game_options, import_library, load_library, register, remove, sample_library,
                      save_library, split_by_owner, tag_cards, user_library, user_library_path)
from .rules import CluesRules, CluesState

__all__ = ["CluesRules", "CluesState", "DeckCheck", "Entry", "Library", "LibraryError", "build_decks",
           "card_ids", "edit", "export_library", "game_options", "import_library", "load_library", "register",
           "remove", "sample_library", "save_library", "split_by_owner", "tag_cards", "user_library",
           "user_library_path"]
