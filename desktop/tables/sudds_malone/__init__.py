"""Sudds & Malone at the table (``desktop/tables/sudds_malone``).

- :mod:`.table`     the table: dice pool, city, Conspiracy, Case display, players' boards, action panels
- :mod:`.box_form`  learn your box: the form for one printed value, and the shelf screen to review them all
- :mod:`.dice`      the dice pool read by the camera (vision's dice-pool reader)
"""

from .table import SuddsTable

__all__ = ["SuddsTable"]
