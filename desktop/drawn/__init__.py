"""A drawing toolkit shared by every game's table: painted cards, dice, pieces and names in
each player's colour, the marks of legal and chosen targets, and movement.

- ``palette``: a colour per player (and colour words printed on cards), checked under
  simulated red-green colour blindness.
- ``paint``: QPainter drawings (card back and face, symbols, dice with pips, pieces, glow,
  chosen mark, focus ring), straight onto the widget so a 2x screen gets 2x detail.
- ``items``: widgets that paint themselves and can be clicked and reached by keyboard
  (Tab, the arrows, Enter), and tell what text they drew (``drawn_texts``) for the tests.
- ``motion``: one movement at a time, in order (about a third of a second each), and the
  "less motion" switch that draws the end state at once.
- ``text``: text fitted to its room, never below 15 px (24 px for a legal choice).

Nothing here names a game.
"""

from .items import Clickable, DrawnCard, Piece, DrawnDie, EventList, NotebookPage, PlayerButton, PlayerName, move_focus
from .motion import FlightLayer, MotionQueue, Step, flight_step, less_motion, set_less_motion
from .paint import CardLook
from .palette import player_colour, player_colours
from .text import KEY_PX, LEAST_PX, DrawnText

__all__ = ["Clickable", "DrawnCard", "Piece", "DrawnDie", "EventList", "NotebookPage", "PlayerButton", "PlayerName", "move_focus",
           "FlightLayer", "MotionQueue", "Step", "flight_step", "less_motion", "set_less_motion", "CardLook",
           "player_colour", "player_colours", "KEY_PX", "LEAST_PX", "DrawnText"]
