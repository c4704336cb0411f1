"""Sudds & Malone (game id ``sudds-malone``): a package, as the game is large.

- :mod:`.box`      the box as data (map, tracks, calendar, cards), checked on load; "learn your box"
- :mod:`.actions`  the action types (their JSON form: docs/replay-format.md)
- :mod:`.state`    player boards, the dice pool, the city, the Conspiracy
- :mod:`.rules`    the rules (:class:`SuddsRules`)
- :mod:`.view`     prompts, journals, public words
- :mod:`.odds`     the Conspiracy's make-up from what one player saw, exactly (and by brute force)
- :mod:`.scoring`  End of Game scoring
- :mod:`.sim`      the simulated table for tests, benchmarks and the demo
"""

from .rules import SuddsRules

__all__ = ["SuddsRules"]
