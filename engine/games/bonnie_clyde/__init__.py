"""Bonnie and Clyde Mystery Rummy (game id ``bonnie-clyde``).

``rules`` holds the rules and scoring, ``journal`` each player's journal, ``board`` the board's
ten locations as data, ``sim`` the simulated table used by tests, benchmarks and the demo.
"""

from .actions import ACTIONS
from .board import Board, Location, load_board
from .rules import BonnieClydeRules, BonnieClydeState

__all__ = ["ACTIONS", "Board", "BonnieClydeRules", "BonnieClydeState", "Location", "load_board"]
