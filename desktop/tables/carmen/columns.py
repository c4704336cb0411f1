"""Each gumshoe's three columns of cards, laid as on the table (``Cascade``).

A column's cards lie one under the other, each whole, when the room allows it (a laptop or a
big screen): no row of a gumshoe's cards is ever hidden behind another. Only a window too low
for that fans them: each card then shows its top strip (where it lies) under the next one."""

from __future__ import annotations

from PySide6.QtWidgets import QSizePolicy, QWidget

from ...drawn import DrawnCard
from ...drawn.paint import GLOW

#: a card laid whole is at least this high (its place at 30 px over its type, or a remembered name)
LEAST_WHOLE = 72
#: the room between two cards laid whole, one under the other
ROW_GAP = 6
#: a card is no taller than this many times its width (a card's shape; the room left stays free)
TALLEST = 1.4
#: fanned (a window too low to lay them whole): a card under another shows this much of itself
LEAST_STRIP = 46
#: and a column's last card, seen whole, is at least this high
LEAST_CARD = 62


class Cascade(QWidget):
    """One gumshoe's columns of cards, from the top down: each card whole under the one before
    when there is room (``whole``), else overlapping like cards laid in a fan (each shows its top
    strip, the last one is seen whole)."""

    def __init__(self, cards: list[list[DrawnCard]], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.columns = cards
        for column in cards:
            for card in column:
                card.setParent(self)
        self.setSizePolicy(QSizePolicy.Expanding, QSizePolicy.Expanding)
        self.rows = max(len(c) for c in cards)
        self.setMinimumSize(len(cards) * 96, LEAST_CARD + (self.rows - 1) * LEAST_STRIP + 2 * GLOW)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self.place_cards()

    def whole(self, n: int) -> bool:
        """Whether ``n`` cards fit one under the other, each whole, in this height."""
        return (self.height() - (n - 1) * ROW_GAP) / n >= LEAST_WHOLE

    def fan(self, n: int) -> tuple[float, float]:
        """The step from one card to the next and a card's height, for ``n`` cards in this height."""
        room = self.height()
        if self.whole(n):
            width = self.width() / len(self.columns)
            high = min((room - (n - 1) * ROW_GAP) / n, (width - 2 * GLOW) * TALLEST + 2 * GLOW)
            return high + ROW_GAP, high
        step = (room - 2 * GLOW - LEAST_CARD * 1.2) / (n - 1) if n > 1 else 0
        step = max(LEAST_STRIP, min(step, 86))
        return step, room - step * (n - 1)

    def place_cards(self) -> None:
        width = self.width() / len(self.columns)
        for i, column in enumerate(self.columns):
            n = len(column)
            step, high = self.fan(n)
            fanned = step < high
            # Fanned: each card a little to the right of the one it lies on.
            shift = min(6.0, width * 0.04) if fanned else 0.0
            for j, card in enumerate(column):
                x = i * width + j * shift - (n - 1) * shift / 2
                card.setGeometry(int(x), int(j * step), int(width), int(high))
                card.set_exposed(step - 4 if fanned and j < n - 1 else None)
                card.raise_()
