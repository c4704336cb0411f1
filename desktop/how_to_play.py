"""The table's "How to play": the rules of the steps the table is in now first, then the game in short.

A family stuck at the table asks "what may I do now, and why?": the answer starts with what the
table asks now (the prompt everyone sees) and the rule of each action offered, in our own words
with the rulebook section (the game's shelf file, ``[step_rules]``); then the game's short rules
(``how_to_play``). Only public words: the prompt and the offered actions are what the shared
screen shows anyway.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QFrame, QScrollArea, QVBoxLayout, QWidget

from engine.game import Prompt
from engine.games import GameInfo

from .widgets import button, label, sentence


#: the dialog's own edge and paper (``howto:frame``)
FRAME_STYLE = ("QFrame#howto\\:frame { background: #FFFDF5; border: 4px solid #1F1F1F; border-radius: 10px; }"
               " QFrame#howto\\:frame QLabel { border: none; background: transparent; }")


def now_lines(info: GameInfo, prompt: Prompt) -> list[tuple[str, str]]:
    """(heading, words) for each step offered now, in the prompt's order, each action once.

    >>> from engine.game import Option
    >>> from engine.games import StepRule
    >>> info = GameInfo("example", "Example", (2, 4), "8+", 20, "A game.", ("Play.",), None, False, (),
    ...                 {"roll": StepRule("Roll the die once.", "Play")})
    >>> now_lines(info, Prompt("Ann", "Ann, roll the die.", (Option("roll", "Roll the die"),)))
    [('Roll the die', 'Roll the die once. (Rulebook: Play)')]
    """
    seen: set[str] = set()
    lines = []
    for option in prompt.options:
        rule = info.step_rules.get(option.action)
        if rule is None or option.action in seen:
            continue
        seen.add(option.action)
        lines.append((option.label, f"{rule.words} (Rulebook: {rule.section})"))
    return lines


class HowToPlay(QDialog):
    """The rules for now and the game in short, in large type, over the table until closed."""

    def __init__(self, info: GameInfo, prompt: Prompt, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("howto:dialog")
        self.setWindowTitle(f"How to play: {info.title}")
        # Framed in its own border and paper: without a window manager's frame (or on a table the
        # same colour) the rules would otherwise run into the table under them.
        frame = QFrame(self)
        frame.setObjectName("howto:frame")
        frame.setStyleSheet(FRAME_STYLE)
        edge = QVBoxLayout(self)
        edge.setContentsMargins(0, 0, 0, 0)
        edge.addWidget(frame)
        outer = QVBoxLayout(frame)
        outer.setContentsMargins(18, 14, 18, 14)
        scroll = QScrollArea()
        scroll.setObjectName("howto:scroll")
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.NoFrame)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        body = QWidget()
        rows = QVBoxLayout(body)
        rows.addWidget(self._words("Now", "heading"))
        rows.addWidget(self._words(sentence(prompt.text), "howto", name="howto:now"))
        for heading, words in now_lines(info, prompt):
            rows.addWidget(self._words(sentence(heading), "howto-step"))
            rows.addWidget(self._words(words, "howto", name="howto:step"))
        rows.addSpacing(12)
        rows.addWidget(self._words(f"{info.title} in short", "heading"))
        for step in info.how_to_play:
            rows.addWidget(self._words(f"\u2022 {step}", "howto"))
        rows.addStretch(1)
        scroll.setWidget(body)
        outer.addWidget(scroll, 1)
        close = button("Close", "primary", name="howto:close")
        close.clicked.connect(self.accept)
        outer.addWidget(close, 0, Qt.AlignRight)
        close.setDefault(True)

    @staticmethod
    def _words(text: str, role: str, name: str = "") -> QWidget:
        words = label(text, role)          # plain text: card and player names are never markup
        words.setTextInteractionFlags(Qt.TextSelectableByMouse)
        if name:
            words.setObjectName(name)
        return words
