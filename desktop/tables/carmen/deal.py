"""The picture of the deal on the setup screen: each gumshoe's face-down columns, the center
cards and the draw piles, drawn as the table's cards."""

from __future__ import annotations

from PySide6.QtCore import QRect, QRectF, Qt
from PySide6.QtGui import QColor, QPainter
from PySide6.QtWidgets import QSizePolicy, QWidget

from ... import style
from ...drawn import paint as pt
from ...drawn import text as txt
from ...drawn.palette import readable_ink
from ...games import GameController

#: a card of the picture at its natural size, and the gap between two
CARD_W, CARD_H, GAP = 108, 132, 12


class DealDiagram(QWidget):
    """Each gumshoe's face-down columns, the center cards and the draw piles, drawn as the table's
    cards (type colour, symbol, words) at the size the window allows; the words are fitted at
    that size (never below the least type size), not drawn small and scaled down."""

    #: a heading's largest type size; the card words follow the table's cards (desktop/drawn/paint.py)
    HEADING_PX = 24
    #: the card words' largest type size
    CARD_PX = 22
    #: the most the drawing grows past its natural size on a big screen
    MOST_SCALE = 1.4

    def __init__(self, controller: GameController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("deal-diagram")
        self.controller = controller
        view = controller.shared_view()
        self.kinds = list(controller.deck.kinds)
        self.positions = list(controller.session.layout()["slots"])
        self.players = list(controller.session.players)
        self.piles = {k: sum(1 for c in view.cards if c.place == f"pile/{k}") for k in self.kinds}
        self.columns = 2 if len(self.players) > 2 else len(self.players)
        self.rows = (len(self.players) + self.columns - 1) // self.columns
        # Laid out at this size and scaled to fit the window (a laptop shows it whole).
        self.natural = (self.columns * self._block_w() + 30 + len(self.kinds) * (CARD_W + GAP) + 20,
                        max(self.rows * self._block_h(), 2 * CARD_H + 120) + 20)
        self.setMinimumSize(320, 200)
        self.setSizePolicy(QSizePolicy.Expanding, QSizePolicy.Expanding)

    def _block_w(self) -> int:
        return len(self.kinds) * (CARD_W + GAP) + 30

    def _block_h(self) -> int:
        return len(self.positions) * (CARD_H + GAP) + 50

    def scale(self) -> float:
        return min(self.width() / self.natural[0], self.height() / self.natural[1], self.MOST_SCALE)

    def items(self) -> tuple[list[tuple[QRectF, str]], list[tuple[QRectF, str, tuple[str, ...], int]]]:
        """Where each heading and each card goes at the widget's present size (its coordinates):
        a card as its rect, its type, its words (its place, its type) and how many cards it stands for."""
        s = self.scale()
        card_w, card_h, gap = CARD_W * s, CARD_H * s, GAP * s
        name = self.controller.kind_name
        headings: list[tuple[QRectF, str]] = []
        cards: list[tuple[QRectF, str, tuple[str, ...], int]] = []
        head_h = 30 * s
        for i, player in enumerate(self.players):
            x0 = (10 + (i % self.columns) * self._block_w()) * s
            y0 = (10 + (i // self.columns) * self._block_h()) * s
            headings.append((QRectF(x0, y0, self._block_w() * s - gap, head_h), player))
            for c, kind in enumerate(self.kinds):
                for r, position in enumerate(self.positions):
                    cards.append((QRectF(x0 + c * (card_w + gap), y0 + head_h + 2 * s + r * (card_h + gap),
                                         card_w, card_h), kind, (position.capitalize(), name(kind)), 1))
        x0 = (10 + self.columns * self._block_w() + 20) * s
        room_w = max(len(self.kinds) * (card_w + gap), self.width() - x0 - 4)
        headings.append((QRectF(x0, 10 * s, room_w, head_h), "Center of the table (face down)"))
        for c, kind in enumerate(self.kinds):
            cards.append((QRectF(x0 + c * (card_w + gap), 42 * s, card_w, card_h), kind, (name(kind),), 1))
        y = (42 + CARD_H + 30) * s
        headings.append((QRectF(x0, y, room_w, head_h), "Draw piles (face down)"))
        for c, kind in enumerate(self.kinds):
            cards.append((QRectF(x0 + c * (card_w + gap), y + 32 * s, card_w, card_h), kind,
                          (f"{self.piles[kind]} cards", name(kind)), self.piles[kind]))
        return headings, cards

    def card_words(self) -> tuple[int, str] | None:
        """One type size (and face) for every card's words, the largest at which each line fits
        its card on one line; None when even the least size does not (the cards then show their
        colour and symbol alone)."""
        _, cards = self.items()
        if not cards:
            return None
        width = int(cards[0][0].width()) - 12
        lines = {line for _, _, words, _ in cards for line in words}
        for family in ("", txt.narrow_family()):
            fitted = [txt.fit(line, width, 1000, self.CARD_PX, bold=True, family=family, max_lines=1) for line in lines]
            if all(ok for _, _, ok in fitted):
                return min(px for px, _, _ in fitted), family
        return None

    def _heading(self, rect: QRectF, words: str) -> txt.DrawnText:
        for family in ("", txt.narrow_family()):
            px, lines, fits = txt.fit(words, int(rect.width()), int(rect.height()), self.HEADING_PX, bold=True,
                                      family=family, max_lines=1)
            if fits:
                return txt.DrawnText(lines[0], px, rect.toAlignedRect(), True, family=family)
        return txt.DrawnText(words, txt.LEAST_PX, rect.toAlignedRect(), False)

    def _card_texts(self, rect: QRectF, words: tuple[str, ...], px: int, family: str) -> list[txt.DrawnText]:
        """The card's place at its top and its type at its bottom (one line: its name alone)."""
        h = txt.line_height(px, True, family)
        inner = rect.adjusted(6, 6, -6, -6).toAlignedRect()
        if len(words) * h > inner.height():
            return []
        top = txt.DrawnText(words[0], px, QRect(inner.left(), inner.top(), inner.width(), h), True, family=family)
        if len(words) == 1:
            return [top]
        return [top, txt.DrawnText(words[1], px, QRect(inner.left(), inner.bottom() - h, inner.width(), h), True,
                                   family=family)]

    def drawn_texts(self) -> list[txt.DrawnText]:
        headings, cards = self.items()
        out = [self._heading(rect, words) for rect, words in headings]
        size = self.card_words()
        if size is not None:
            for rect, _, words, _ in cards:
                out += self._card_texts(rect, words, *size)
        return out

    def paintEvent(self, event) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.Antialiasing)
        headings, cards = self.items()
        p.setPen(QColor(style.INK))
        for rect, words in headings:
            drawn = self._heading(rect, words)
            txt.draw_lines(p, drawn.rect, (drawn.text,), drawn.px, bold=True, align=Qt.AlignLeft,
                           family=drawn.family)
        size = self.card_words()
        for rect, kind, words, count in cards:
            index = self.controller.kind_index(kind)
            colour = style.kind_colour(index)
            # The table's own card backs: a pile shows its thickness, every card its type's symbol.
            card = rect
            if count > 1:
                pt.paint_pile_edges(p, card, colour, count)     # in the gap beside the card
            pt.paint_back(p, card, colour)
            texts = self._card_texts(card, words, *size) if size is not None else []
            p.setPen(QColor(readable_ink(colour)))
            for drawn in texts:
                txt.draw_lines(p, drawn.rect, (drawn.text,), drawn.px, bold=True, family=drawn.family)
            top = texts[0].rect.bottom() + 4 if texts else card.top() + 8
            bottom = texts[-1].rect.top() - 4 if len(texts) > 1 else card.bottom() - 8
            pt.paint_symbol(p, QRectF(card.left() + 8, top, card.width() - 16, bottom - top),
                            style.kind_symbol(index), colour)
        p.end()
