"""Gumshoe's rules engine: pure Python, no Qt, no OpenCV, no serial.

>>> from engine import Session
>>> s = Session.new("carmen-cards", ["Ann", "Bob"])
>>> s.prompt().player
'Ann'
"""

from .cards import Card, Deck, DeckError, load_deck, load_game_deck
from .errors import BadInput, Contradiction, RuleViolation
from .game import Action, Assist, Journal, Option, Outcome, Prompt
from .session import PlayerView, Session
from .table import Place

__all__ = [
    "Action", "Assist", "BadInput", "Card", "Contradiction", "Deck", "DeckError", "Journal", "Option",
    "Outcome", "Place", "PlayerView", "Prompt", "RuleViolation", "Session", "load_deck", "load_game_deck",
]
