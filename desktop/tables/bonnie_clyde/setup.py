"""Bonnie and Clyde's setup picture: how to lay out a hand before the first turn (the shell's setup
screen shows it under the engine's words of who deals).

The road as the table draws it (:class:`.board.RouteBoard`), a face-down card under each of its ten
locations and the Crime Spree car on Kaufman, Texas (1); beneath it each player's hand as a fan of
face-down cards with how many to deal them, in the order they are dealt (from the dealer's left),
the dealer marked; and the Case File and the first card of the FBI Files. Every number is the
engine's own deal (``BonnieClydeRules.deal_plan``: how many cards go under the board, to each
player, and to the Case File), never a figure written here.
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import QHBoxLayout, QSizePolicy, QVBoxLayout, QWidget

from ... import style
from ...drawn import DrawnCard, player_colours
from ...drawn import paint as pt
from ...drawn import text as txt
from ...drawn.items import paint_player_disc
from ...widgets import label
from ..name_room import fit_name
from .board import RouteBoard, _draw, cards_words


class HandFan(QWidget):
    """One player's hand as it is dealt: a fan of face-down cards, their name in their colour, how
    many cards they get, and "deals" on the dealer's."""

    def __init__(self, player: str, colour: str, count: int, *, dealer: bool, order: int,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.player, self.colour, self.count, self.dealer, self.order = player, colour, count, dealer, order
        self.setObjectName(f"bc:setup:hand:{player}")
        self.setSizePolicy(QSizePolicy.Expanding, QSizePolicy.Expanding)
        self.setMinimumSize(150, 90)
        self._texts: list[tuple[txt.DrawnText, bool]] | None = None
        self.setAccessibleName(self.text())

    def text(self) -> str:
        return f"{self.player}: {self.words()}"

    def words(self) -> str:
        return cards_words(self.count) + (", deals" if self.dealer else f", dealt {self._nth()}")

    def _nth(self) -> str:
        return {1: "first", 2: "second", 3: "third", 4: "fourth"}.get(self.order, f"number {self.order}")

    def sizeHint(self) -> QSize:
        return QSize(220, 150)

    def resizeEvent(self, event) -> None:
        self._texts = None
        super().resizeEvent(event)

    def _rooms(self) -> tuple[QRectF, QRectF, QRectF]:
        """The fan's room (top), the name's and the count's (beneath)."""
        r = QRectF(self.rect()).adjusted(6, 4, -6, -4)
        words_h = txt.line_height(20, True) + txt.line_height(17) + 4
        fan = QRectF(r.left(), r.top(), r.width(), max(r.height() - words_h, 20))
        disc = min(txt.line_height(20, True), 30)
        name = QRectF(r.left() + disc + 6, fan.bottom() + 2, r.width() - disc - 6, txt.line_height(20, True))
        count = QRectF(r.left(), name.bottom() + 2, r.width(), r.bottom() - name.bottom() - 2)
        return fan, name, count

    def drawn_texts(self) -> list[txt.DrawnText]:
        return [drawn for drawn, _ in self._layout()]

    def _layout(self) -> list[tuple[txt.DrawnText, bool]]:
        if self._texts is None:
            _, name, count = self._rooms()
            px, lines, family, fits = fit_name(self.player, int(name.width()), int(name.height()), 20, max_lines=1)
            out = [(txt.DrawnText(lines[0], px, name.toAlignedRect(), fits, family=family), True)]
            cpx, clines, cfits = txt.fit(self.words(), int(count.width()), int(count.height()), 17, max_lines=2)
            out.append((txt.DrawnText("\n".join(clines), cpx, count.toAlignedRect(), cfits), self.dealer))
            self._texts = out
        return self._texts

    def paintEvent(self, event) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.Antialiasing)
        frame = QRectF(self.rect()).adjusted(1.5, 1.5, -1.5, -1.5)
        p.setPen(QPen(QColor(self.colour) if self.dealer else QColor("#B8B0A0"), 3 if self.dealer else 1.5))
        p.setBrush(QColor("#FFFDF7"))
        p.drawRoundedRect(frame, 10, 10)
        fan, name, _ = self._rooms()
        # The cards fanned: as many backs as fit, overlapping (a hand is never counted by its drawing).
        ch = fan.height() - 6
        cw = ch * 0.68
        shown = min(self.count, 10)
        step = min(cw * 0.45, (fan.width() - cw) / max(shown - 1, 1))
        left = fan.center().x() - (cw + step * (shown - 1)) / 2
        for i in range(shown):
            pt.paint_back(p, QRectF(left + i * step, fan.top() + 3, cw, ch), style.kind_colour(0))
        disc = QRectF(frame.left() + 6, name.top() + (name.height() - min(name.height(), 30)) / 2,
                      min(name.height(), 30), min(name.height(), 30))
        paint_player_disc(p, disc, self.colour, self.player)
        for drawn, bold in self._layout():
            _draw(p, drawn, style.INK, bold=bold, family=drawn.family, align=Qt.AlignLeft)
        p.end()


class SetupPicture(QWidget):
    """The road with a card under each location and the car on its start, the players' hands in the
    order they are dealt, the Case File and the FBI Files; a line of words saying the deal."""

    def __init__(self, controller, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("bc:setup")
        session = controller.session
        rules, state = session.rules, session.state
        plan = rules.deal_plan(state)
        board = rules.board
        outlaws = controller.deck.kinds["outlaw"].count
        dealer = plan["dealer"]
        order = [state.left_of(dealer)]
        while len(order) < len(state.players):
            order.append(state.left_of(order[-1]))
        self.hands = {p: len(plan["hands"][p]) for p in order}
        self.under = len(plan["board"])
        self.casefile = len(plan["casefile"])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        self.road = RouteBoard({n: board.name(n) for n in board.numbers})
        self.road.setObjectName("bc:setup:road")
        self.road.setAttribute(Qt.WA_TransparentForMouseEvents)     # a picture: nothing to click
        for stop in self.road.stops.values():
            stop.setFocusPolicy(Qt.NoFocus)
        layout.addWidget(self.road, 5)
        self.words = label(self.deal_words(dealer, order, outlaws, board.name(1)))
        self.words.setObjectName("bc:setup:words")
        layout.addWidget(self.words)
        row = QHBoxLayout()
        row.setSpacing(8)
        colours = player_colours(session.players)
        self.fans = [HandFan(p, colours[p], self.hands[p], dealer=p == dealer, order=i + 1)
                     for i, p in enumerate(order)]
        for fan in self.fans:
            row.addWidget(fan, 2)
        self.piles: dict[str, DrawnCard] = {}
        for place, caption, n, notes in (                       # one name a pile: the rulebook's
                ("casefile", "Case File", 1, (cards_words(self.casefile), "face down")),
                ("files", "FBI Files", 2, ("1 card", "face up"))):
            card = DrawnCard(f"setup/{place}")
            card.setObjectName(f"bc:setup:{place}")
            card.setAttribute(Qt.WA_TransparentForMouseEvents)
            card.setFocusPolicy(Qt.NoFocus)
            card.setMinimumSize(110, 90)
            card.set_look(pt.CardLook(caption=caption, symbol=style.kind_symbol(n),
                                      colour=style.kind_colour(n), notes=notes,
                                      count=self.casefile if place == "casefile" else 1))
            self.piles[place] = card
            row.addWidget(card, 1)
        layout.addLayout(row, 4)

    def deal_words(self, dealer: str, order: list[str], outlaws: int, start: str) -> str:
        per = {self.hands[p] for p in order}
        each = cards_words(per.pop()) + " to each player" if len(per) == 1 else "their cards to each player"
        return (f"Take {self.under - outlaws} cards at random with Bonnie and Clyde, shuffle these "
                f"{self.under} and put one face down under each location; the car goes on {start}. "
                f"{dealer} shuffles the rest and deals {each}, one at a time from their left ({order[0]} "
                f"first), then turns up the next card: the first of the FBI Files. The other "
                f"{self.casefile} are the Case File.")
