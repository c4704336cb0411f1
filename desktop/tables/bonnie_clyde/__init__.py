"""Bonnie and Clyde Mystery Rummy at the table (``desktop/tables/bonnie_clyde``).

- :mod:`.table`    the table: the road, the Case File and the FBI Files, the players' rows, Ted
                   Hinton's panel, the flow of a turn and what is seen moving (cards, the car)
- :mod:`.board`    the road drawn: the ten locations' signs, the card under each, the Crime Spree car
- :mod:`.rows`     in front of each player: the hand's count, melds, captured outlaws, points
- :mod:`.setup`    the setup screen's picture: the road with a card under each location and the car,
                   each player's hand with the number of cards to deal (the engine's deal), the piles
- :mod:`.journal`  a player's Evidence Journal as a detective's notebook: a row per location, then
                   the Outlaws and Ted Hinton, alike cards counted (never a card's id)
"""

from .table import BonnieClydeTable

__all__ = ["BonnieClydeTable"]
