"""Look and feel: large type readable across a table and colour-blind-safe colours.

Colours are from the Okabe-Ito palette, which stays distinguishable for the common
kinds of colour blindness; every colour is also paired with words (the card type is
always written on a slot), so nothing depends on colour alone.
"""

from __future__ import annotations

from PySide6.QtGui import QFont
from PySide6.QtWidgets import QApplication

# Okabe-Ito
ORANGE, SKY_BLUE, GREEN, YELLOW, BLUE, VERMILLION, PURPLE, BLACK = (
    "#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7", "#000000")

# Card types of the current game get colours by their order in the deck file, so a new
# game's deck needs no code change here.
KIND_COLOURS = (ORANGE, SKY_BLUE, PURPLE, YELLOW)
# Each card type also gets a symbol, so types can be told apart without colour.
KIND_SYMBOLS = ("\u25C6", "\u25CF", "\u25B2", "\u25A0")     # diamond, disc, triangle, square
HIGHLIGHT = BLUE            # a legal slot: thick blue border plus an arrow in the text
CHOSEN = VERMILLION         # a slot already picked for a warrant
BACKGROUND = "#FAF7F0"
INK = "#1A1A1A"

BASE_POINT_SIZE = 15

STYLESHEET = f"""
QWidget {{ background: {BACKGROUND}; color: {INK}; }}
QPushButton {{
    background: #FFFFFF; border: 2px solid #6B6B6B; border-radius: 8px;
    padding: 8px 16px; min-height: 34px;
}}
QPushButton:hover {{ background: #EFEFEF; }}
QPushButton:focus {{ border: 3px solid {BLUE}; }}
QPushButton:disabled {{ color: #8A8A8A; border-color: #C8C8C8; }}
QPushButton[role="primary"] {{ background: {BLUE}; color: white; border-color: {BLUE}; font-weight: bold; }}
QPushButton[role="primary"]:focus {{ border: 3px solid {BLACK}; }}
QPushButton[role="primary"]:disabled {{ background: #D6D6D6; color: #6B6B6B; border-color: #C8C8C8; }}
QPushButton[scale="big"] {{ font-size: 20pt; }}
QPushButton[role="danger"] {{ background: {VERMILLION}; color: white; border-color: {VERMILLION}; font-weight: bold; }}
QLabel[role="title"] {{ font-size: 30pt; font-weight: bold; }}
QLabel[role="turn"] {{ font-size: 24pt; font-weight: bold; }}
QLabel[role="heading"] {{ font-size: 20pt; font-weight: bold; }}
QLabel[role="prompt"] {{ font-size: 20pt; font-weight: bold; color: {INK}; }}
QLabel[role="banner"] {{ font-size: 16pt; font-weight: bold; background: {YELLOW};
    border: 2px solid {INK}; border-radius: 8px; padding: 4px 10px; }}
QLabel[role="error"] {{ font-size: 16pt; font-weight: bold; background: #FFE3D6;
    border: 2px solid {VERMILLION}; border-radius: 8px; padding: 4px 10px; }}
QLabel[role="gate"] {{ font-size: 32pt; font-weight: bold; }}
QLabel[role="howto"] {{ font-size: 16pt; }}
QLabel[role="howto-step"] {{ font-size: 16pt; font-weight: bold; color: {BLUE}; margin-top: 6px; }}
QListWidget, QTableWidget, QLineEdit {{ background: white; border: 2px solid #6B6B6B; border-radius: 6px; }}
QListWidget:focus, QTableWidget:focus, QLineEdit:focus {{ border: 3px solid {BLUE}; }}
QListWidget::item {{ padding: 6px; }}
QListWidget::item:selected {{ background: {BLUE}; color: white; }}
QGroupBox {{ font-weight: bold; border: 2px solid #9A9A9A; border-radius: 10px; margin-top: 16px; padding: 4px; }}
QGroupBox::title {{ subcontrol-origin: margin; left: 12px; padding: 0 6px; }}
QGroupBox[current="true"] {{ border: 4px solid {GREEN}; }}
"""


def apply_style(app: QApplication) -> None:
    font = QFont(app.font())
    font.setPointSize(BASE_POINT_SIZE)
    app.setFont(font)
    app.setStyleSheet(STYLESHEET)


def kind_colour(kind_index: int) -> str:
    return KIND_COLOURS[kind_index % len(KIND_COLOURS)]


def kind_symbol(kind_index: int) -> str:
    return KIND_SYMBOLS[kind_index % len(KIND_SYMBOLS)]
