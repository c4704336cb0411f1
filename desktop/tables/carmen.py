"""The Carmen Sandiego card game's table: each gumshoe's columns, the center, the piles, the die.

Everything here is drawn from the engine's shared view (``desktop/drawn``): each gumshoe's
three columns as face-down cards fanned under their name in their colour, the center cards,
the draw piles, the die with the face rolled this turn. A swap, a draw or a card going out of
play is seen moving from one place to the other. Clicks (or Tab and Enter) on highlighted
cards go to the shell's action flow (``desktop/table_base.py``). Also the picture of the deal,
and the journal with each Location beside the Loot stolen there.
"""

from __future__ import annotations

from PySide6.QtCore import QRect, QRectF, Qt
from PySide6.QtGui import QColor, QPainter
from PySide6.QtWidgets import QGridLayout, QHBoxLayout, QLabel, QSizePolicy, QVBoxLayout, QWidget

from engine.game import Journal, Option
from engine.session import PlayerView

from .. import style
from ..drawn import DrawnCard, DrawnDie, PlayerName, player_colours
from ..drawn.moves import TableMotion
from ..drawn import paint as pt
from ..drawn import text as txt
from ..drawn.paint import GLOW, CardLook
from ..drawn.palette import readable_ink
from ..games import GameController
from ..private import journal_table
from ..table_base import GameTable, TableShell
from ..widgets import label, plain_tip

CARD_W, CARD_H, GAP = 108, 132, 12
#: a card under another in a column shows this much of itself (its place, and its type if it can), at least
LEAST_STRIP = 46
#: and a column's last card, seen whole, is at least this high
LEAST_CARD = 62
#: the center's column beside two or four gumshoes
CENTER_WIDTH = 180
#: a draw pile: its count and its type's symbol
PILE_HEIGHT = 52


class Cascade(QWidget):
    """One gumshoe's columns: in each, the cards overlap from the top down (each shows its top
    strip, the last one is seen whole), like cards laid in a fan on the table.

    A cascade that ``matches`` another (the center beside the gumshoes) deals its cards at that
    one's card height, so every card on the table is one size; the room left spreads its strips."""

    def __init__(self, cards: list[list[DrawnCard]], parent: QWidget | None = None, *,
                 matches: "Cascade | None" = None) -> None:
        super().__init__(parent)
        self.columns = cards
        self.matches = matches
        self.followers: list[Cascade] = []
        if matches is not None:
            matches.followers.append(self)
        for column in cards:
            for card in column:
                card.setParent(self)
        self.setSizePolicy(QSizePolicy.Expanding, QSizePolicy.Expanding)
        self.rows = max(len(c) for c in cards)
        self.setMinimumSize(len(cards) * 96, LEAST_CARD + (self.rows - 1) * LEAST_STRIP + 2 * GLOW)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self.place_cards()
        for follower in self.followers:
            follower.place_cards()

    def fan(self, n: int) -> tuple[float, float]:
        """The step from one card to the next and a card's height, for ``n`` cards in this height."""
        room = self.height()
        if self.matches is not None:
            high = self.matches.fan(self.matches.rows)[1]
            high = min(high, room - (n - 1) * LEAST_STRIP) if n > 1 else min(high, room)
            # The strips share what is left, no deeper than most of a card (it stays a fan).
            step = min((room - high) / (n - 1), high * 0.7) if n > 1 else 0
            return max(step, 0.0), high
        step = (room - 2 * GLOW - LEAST_CARD * 1.2) / (n - 1) if n > 1 else 0
        step = max(LEAST_STRIP, min(step, 86))
        return step, room - step * (n - 1)

    def place_cards(self) -> None:
        width = self.width() / len(self.columns)
        for i, column in enumerate(self.columns):
            n = len(column)
            step, high = self.fan(n)
            # Fanned: each card a little to the right of the one it lies on.
            shift = min(6.0, width * 0.04)
            for j, card in enumerate(column):
                x = i * width + j * shift - (n - 1) * shift / 2
                card.setGeometry(int(x), int(j * step), int(width), int(high))
                card.set_exposed(step - 4 if j < n - 1 else None)
                card.raise_()


class OutOfPlay(QLabel):
    """The cards out of play by name, the latest first, as many as its room holds ("and 4 more")."""

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("piles")
        self.setTextFormat(Qt.PlainText)
        self.setWordWrap(True)
        self.setAlignment(Qt.AlignLeft | Qt.AlignTop)
        self.setSizePolicy(QSizePolicy.Ignored, QSizePolicy.Ignored)
        self.setMinimumHeight(self.fontMetrics().lineSpacing() * 2)
        self.cards: list[str] = []

    def hasHeightForWidth(self) -> bool:
        return False        # it fits its words to the room it gets: it never asks for more height

    def set_cards(self, cards: list[str]) -> None:
        self.cards = list(cards)
        self.setToolTip(plain_tip("Out of play: " + ", ".join(cards) + ".") if cards else "")
        self._fit()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._fit()

    def _fit(self) -> None:
        """The longest wording that fits: every name (the latest first), fewer names and a count,
        then the count alone in fewer words."""
        latest = list(reversed(self.cards))
        n = len(latest)
        wordings = [("Out of play: " + ", ".join(latest[:shown]) + (f" and {n - shown} more" if shown < n else "")
                     + ".") for shown in range(n, 0, -1)]
        wordings += [f"Out of play: {n} cards.", f"Out: {n}"] if n else ["Out of play: none yet.", "Out: none"]
        for text in wordings:
            self.setText(text)
            if QLabel.heightForWidth(self, max(self.width(), 1)) <= self.height():
                break


class CarmenTable(GameTable):
    """Each gumshoe's fanned columns by their name, and the center of the table."""

    def __init__(self, shell: TableShell) -> None:
        super().__init__(shell)
        self.slot_buttons: dict[str, DrawnCard] = {}
        self.names: dict[str, PlayerName] = {}
        self.piles: dict[str, DrawnCard] = {}
        self.center_column: QWidget | None = None
        self.cascades: list[Cascade] = []         # the gumshoes' columns, in seat order
        c = self.controller
        session = c.session
        kinds = list(c.deck.kinds)
        positions = list(session.layout()["slots"])
        colours = player_colours(session.players)
        grid_all = QGridLayout(self)
        grid_all.setContentsMargins(0, 0, 0, 0)
        grid_all.setHorizontalSpacing(10)
        grid_all.setVerticalSpacing(4)
        columns = 2 if len(session.players) > 1 else 1
        for i, player in enumerate(session.players):
            area = QWidget()
            area.setObjectName(f"board:{player}")
            box = QVBoxLayout(area)
            box.setContentsMargins(0, 0, 0, 0)
            box.setSpacing(0)
            name = PlayerName(player, colours[player], largest=20)
            self.names[player] = name
            box.addWidget(name)
            cards = [[self._slot(f"{player}/{kind}/{position}") for position in positions] for kind in kinds]
            cascade = Cascade(cards)
            self.cascades.append(cascade)
            box.addWidget(cascade, 1)
            grid_all.addWidget(area, i // columns, i % columns)
        n = len(session.players)
        # Two or four gumshoes fill their rows: the center stands beside them as a column, so
        # the table stays low enough for a laptop; with three it takes the free fourth cell.
        tall = n % columns == 0
        center = QWidget()
        center.setObjectName("center")
        column = QVBoxLayout(center) if tall else None
        grid = QGridLayout() if tall else QGridLayout(center)
        for part in (column, grid):
            if part is not None:
                part.setContentsMargins(0, 0, 0, 0)
                part.setSpacing(2)
        title = label("Center of the table" if not tall else "Center", wrap=False)
        title.setStyleSheet("font-weight: bold;")
        for kind in kinds:
            self._slot(f"center/{kind}")
            pile = DrawnCard(f"pile/{kind}")
            pile.setObjectName(f"pile:{kind}")
            pile.setFocusPolicy(Qt.NoFocus)
            pile.setMinimumWidth(50)
            pile.setFixedHeight(PILE_HEIGHT)
            pile.setSizePolicy(QSizePolicy.Ignored, QSizePolicy.Fixed)
            self.piles[kind] = pile
        self.die = DrawnDie()
        self.pile_label = OutOfPlay()
        # The die, and what is out of play beside it (in a column) or under it (in a cell).
        side = QHBoxLayout() if tall else QVBoxLayout()
        self.die.setMinimumWidth(96)             # its face's words under it ("Henchman")
        side.addWidget(self.die, 1 if tall else 3)
        side.addWidget(self.pile_label, 1 if tall else 2)
        if tall:
            # A column: the center cards fanned (they take what the rest leaves), the piles, the die.
            column.addWidget(title)
            column.addWidget(Cascade([[self.slot_buttons[f"center/{kind}"] for kind in kinds]],
                                     matches=self.cascades[0]), 3)
            for i, kind in enumerate(kinds):
                grid.addWidget(self.piles[kind], 0, i)
            column.addLayout(grid)
            column.addLayout(side, 1)
            # Narrow: the gumshoes' columns get the width (a legal card's place is 24 px type).
            center.setMaximumWidth(CENTER_WIDTH)
            self.center_column = center
            grid_all.addWidget(center, 0, columns, n // columns, 1)
            grid_all.setColumnStretch(0, 3)
            grid_all.setColumnStretch(1, 3)
            grid_all.setColumnStretch(columns, 1)
        else:
            # Each type's center card over its draw pile; the die and what is out of play beside them.
            grid.addWidget(title, 0, 0, 1, len(kinds) + 1)
            for i, kind in enumerate(kinds):
                grid.addWidget(self.slot_buttons[f"center/{kind}"], 1, i)
                grid.addWidget(self.piles[kind], 2, i)
                grid.setColumnStretch(i, 3)
            grid.addLayout(side, 1, len(kinds), 2, 1)
            grid.setColumnStretch(len(kinds), 3)
            grid.setRowStretch(1, 3)
            grid.setRowStretch(2, 1)
            grid_all.addWidget(center, n // columns, n % columns)
        for row in range(grid_all.rowCount()):
            grid_all.setRowStretch(row, 1)
        self.motion = TableMotion(self, self._anchor, words=self._move_words)
        self._rolled: str | None = None

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        # The center column grows with a big screen (a laptop keeps its width for the columns).
        if self.center_column is not None:
            self.center_column.setMaximumWidth(max(CENTER_WIDTH, self.width() // 5))

    def _slot(self, place: str) -> DrawnCard:
        slot = DrawnCard(place)
        slot.picked.connect(self.place_clicked)
        slot.refused.connect(self.place_refused)
        self.slot_buttons[place] = slot
        return slot

    # --- movements -------------------------------------------------------------------
    def _anchor(self, place: str) -> QWidget | None:
        if place in self.slot_buttons:
            return self.slot_buttons[place]
        if place.startswith("pile/"):
            return self.piles.get(place.split("/", 1)[1])
        if place == "out":
            return self.pile_label
        return None

    @staticmethod
    def _move_words(src: str, dst: str) -> str:
        if src.startswith("pile/"):
            return "draw"
        if dst == "out":
            return "out of play"
        return "swap" if "center/" in (src + dst) else "move"

    # --- the contract ----------------------------------------------------------------
    def shows(self, place: str) -> bool:
        return place in self.slot_buttons

    def field_words(self, option: Option, field: str) -> str:
        kinds = self.controller.deck.kinds
        return f"the {kinds[field].name} card to flip (highlighted)" if field in kinds else super().field_words(option, field)

    def refresh(self, view: PlayerView, legal: set[str], chosen: set[str]) -> None:
        c = self.controller
        over = view.outcome is not None
        self.motion.remember()
        for player, name in self.names.items():
            out = player in view.eliminated
            playing = player == view.current and not over
            name.set_state(note="(out of the game)" if out else "\u25C0 playing now" if playing else "",
                           current=playing)
        by_place = {card.place: card for card in view.cards}
        for place, slot in self.slot_buttons.items():
            parts = place.split("/")
            kind = parts[1]
            # A center card is named by its type (it lies under "Center of the table").
            position = parts[2].capitalize() if len(parts) == 3 else c.kind_name(kind)
            card = by_place.get(place)
            slot.show_card(c.kind_name(kind) if len(parts) == 3 else "", position,
                           style.kind_colour(c.kind_index(kind)),
                           style.kind_symbol(c.kind_index(kind)), name=card.name if card else None,
                           face_up=bool(card and card.face_up), present=card is not None,
                           legal=place in legal, chosen=place in chosen)
        counts = {k: sum(1 for x in view.cards if x.place == f"pile/{k}") for k in c.deck.kinds}
        for kind, pile in self.piles.items():
            count = counts[kind]
            pile.set_look(CardLook(caption=str(count), colour=style.kind_colour(c.kind_index(kind)),
                                   symbol=style.kind_symbol(c.kind_index(kind)), present=count > 0, count=count))
            pile.setAccessibleName(f"{c.kind_name(kind)} draw pile: {count} cards")
        self.pile_label.set_cards([x.name for x in view.cards if x.place == "out" and x.name])
        self._refresh_die(over)
        self.motion.follow(c.session.state)

    def _refresh_die(self, over: bool) -> None:
        c = self.controller
        rolled = getattr(c.session.state, "rolled", None)
        if rolled is None or over:
            self.die.set_face(caption="Not rolled" if not over else "")
        elif rolled != self._rolled:
            index = c.kind_index(rolled)
            face = dict(symbol=style.kind_symbol(index), symbol_colour=style.kind_colour(index),
                        caption=c.kind_name(rolled))
            if self.isVisible() and self._rolled is None:
                # The die tumbles through the card types before it lands on the one rolled.
                faces = [(None, style.kind_symbol(i), style.kind_colour(i)) for i in range(len(c.deck.kinds))]
                self.motion.queue.play([self.die.roll_step(faces, **face)])
            else:
                self.die.set_face(**face)
        self._rolled = None if over else rolled

    def setup_widget(self) -> QWidget:
        """The deal as card shapes (nobody looks at their cards yet)."""
        return DealDiagram(self.controller)

    def journal_widget(self, journal: Journal) -> QWidget:
        """Each Location beside the Loot stolen there (a pair to catch), then the Henchmen."""
        kinds = self.controller.deck.kinds
        pairs, others = journal_pairs(journal)
        body = QWidget()
        row = QHBoxLayout(body)
        row.setContentsMargins(0, 0, 0, 0)
        table = journal_table([kinds["location"].name, "Where", kinds["loot"].name, "Where"], pairs)
        table.setObjectName("journal:pairs")
        row.addWidget(table, 3)
        table = journal_table([kinds["henchman"].name, "Where"], others)
        table.setObjectName("journal:henchmen")
        row.addWidget(table, 2)
        return body


def journal_pairs(journal: Journal) -> tuple[list[list[str]], list[list[str]]]:
    """Rows of (Location, where, Loot, where) and of (Henchman, where).

    The engine lists each Location followed by the Loot stolen there, then the rest.
    """
    pairs, others = [], []
    entries = list(journal.entries)
    i = 0
    while i < len(entries):
        e = entries[i]
        nxt = entries[i + 1] if i + 1 < len(entries) else None
        if e.kind == "location" and nxt is not None and nxt.kind == "loot":
            pairs.append([e.name, e.where, nxt.name, nxt.where])
            i += 2
            continue
        if e.kind in ("location", "loot"):
            pairs.append([e.name, e.where, "", ""] if e.kind == "location" else ["", "", e.name, e.where])
        else:
            others.append([e.name, e.where])
        i += 1
    return pairs, others


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
