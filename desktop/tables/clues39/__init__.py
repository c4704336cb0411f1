"""The 39 Clues: Double-Cross at the table (``desktop/tables/clues39``).

- :mod:`.table`     the table: a row per player (plate, Table 1-4, the two-sided deck, the missions)
- :mod:`.board`     its pieces drawn (a player's plate, a mission whole or fanned to a strip) and how a
                    player's row of cards is laid out for the room there is
- :mod:`.library`   the family's card library screen (register, correct, import and export)
- :mod:`.stickers`  the library screen's stickers and camera (print to attach later, show a card)
- :mod:`.decks`     the new-game form's part: each player's decks
- :mod:`.tags`      the cards' tag numbers, so the camera reads them
"""

from .decks import DeckChoices, DeckPicker
from .library import LibraryEditor
from .table import CluesTable

__all__ = ["CluesTable", "DeckChoices", "DeckPicker", "LibraryEditor"]
