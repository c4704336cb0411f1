"""Sudds & Malone at the table (``desktop/tables/sudds_malone``).

- :mod:`.table`        the table: its pieces built, drawn from the engine's public table, the movements,
                       the contract with the shell, the journal and learning your box
- :mod:`.panel`        what the action panels share: opened and drawn again, the choices in a grid, the
                       row of buttons, what is sent (and the panel's helpers: ``ChoiceButton``, ``points``)
- :mod:`.deal`         the drawn deal's panel (Game Setup 4-5 and 8)
- :mod:`.dice_panels`  the dice panels: roll, take a die, Moxie's re-roll
- :mod:`.office`       The Office's panel (the columns to improve)
- :mod:`.investigate`  the city's panels: Investigate, Flimflam, the peeks and a stoolie used
- :mod:`.cases`        the Case cards' panels: Take Cases (and the display refilled), Close Cases
- :mod:`.hunches`      the hunches' panels: a hunch card kept or bought
- :mod:`.limits`       End of Turn limits: what is over a board's limits put back
- :mod:`.reveal`       End of Game: the Conspiracy revealed and the final scoring
- :mod:`.board`        the layout: the drawn pieces laid out for the room there is (``BoardArea``)
- :mod:`.pieces`       what the drawn pieces share: colours, fitting words, marks, ``PaintedOnce``, ``Words``
- :mod:`.pool`         the dice pool drawn (dice with pips)
- :mod:`.citymap`      the city map drawn (locations, roads, snitches, badges)
- :mod:`.cards`        the Conspiracy's cards and the Case display's cards
- :mod:`.sheet`        a player's board drawn as a sheet, and the tab per player
- :mod:`.choices`      a panel's choices drawn as pieces of the table (a column, a snitch, a card)
- :mod:`.city`         where the map draws each location (``assets/boards/sudds-malone-city.toml``)
- :mod:`.box_form`     learn your box: the form for one printed value, and the shelf screen to review them all
- :mod:`.dice`         the dice pool read by the camera (vision's dice-pool reader)
- :mod:`.dice_colours` the shelf screen that teaches the camera the dice's colours
"""

from .table import SuddsTable

__all__ = ["SuddsTable"]
