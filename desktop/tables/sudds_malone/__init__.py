"""Sudds & Malone at the table (``desktop/tables/sudds_malone``).

- :mod:`.table`     the table: dice pool, city, Conspiracy, Case display, players' boards, action panels
- :mod:`.board`     its pieces drawn (dice with pips, the city map, the cards, a player's board, the tabs)
                    and how they are laid out for the room there is
- :mod:`.city`      where the map draws each location (``assets/boards/sudds-malone-city.toml``)
- :mod:`.box_form`  learn your box: the form for one printed value, and the shelf screen to review them all
- :mod:`.dice`      the dice pool read by the camera (vision's dice-pool reader)
"""

from .table import SuddsTable

__all__ = ["SuddsTable"]
