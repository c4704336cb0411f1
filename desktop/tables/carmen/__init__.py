"""The Carmen Sandiego card game at the table (``desktop/tables/carmen``).

- :mod:`.table`    the table: each gumshoe's columns by their name, the center of the table (its
                   cards, the draw piles, the die, what is out of play), the journal's pairs
- :mod:`.columns`  a gumshoe's three columns of cards, laid for the room there is
- :mod:`.deal`     the setup screen's picture of the deal
"""

from .table import CarmenTable

__all__ = ["CarmenTable"]
