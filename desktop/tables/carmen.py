"""The Carmen Sandiego card game's table: each gumshoe's columns, the center, the piles.

Everything here is drawn from the engine's shared view; clicks on highlighted slots go to
the shell's action flow (``desktop/table_base.py``). Also the picture of the deal, and the
journal with each Location beside the Loot stolen there.
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPen
from PySide6.QtWidgets import QGridLayout, QGroupBox, QHBoxLayout, QSizePolicy, QWidget

from engine.game import Journal, Option
from engine.session import PlayerView

from .. import style
from ..games import GameController
from ..private import journal_table
from ..table_base import GameTable, TableShell
from ..widgets import SlotButton, label, literal

CARD_W, CARD_H, GAP = 108, 132, 12


class CarmenTable(GameTable):
    """A grid of slots per gumshoe (a column per card type) and the center of the table."""

    def __init__(self, shell: TableShell) -> None:
        super().__init__(shell)
        self.slot_buttons: dict[str, SlotButton] = {}
        self.player_boxes: dict[str, QGroupBox] = {}
        c = self.controller
        session = c.session
        kinds = list(c.deck.kinds)
        positions = list(session.layout()["slots"])
        grid_all = QGridLayout(self)
        grid_all.setContentsMargins(0, 0, 0, 0)
        grid_all.setSpacing(4)
        columns = 2 if len(session.players) > 1 else 1
        for i, player in enumerate(session.players):
            box = QGroupBox(literal(player))
            box.setObjectName(f"board:{player}")
            grid = QGridLayout(box)
            grid.setContentsMargins(6, 4, 6, 4)
            grid.setSpacing(6)
            for col, kind in enumerate(kinds):
                grid.setColumnStretch(col, 1)          # equal columns, whatever the card names
                for r, position in enumerate(positions):
                    self._slot(grid, f"{player}/{kind}/{position}", r, col)
            self.player_boxes[player] = box
            grid_all.addWidget(box, i // columns, i % columns)
        center_box = QGroupBox("Center of the table")
        center_box.setObjectName("center")
        grid = QGridLayout(center_box)
        grid.setContentsMargins(6, 4, 6, 4)
        n = len(session.players)
        # Four gumshoes fill a 2x2 grid: the center stands beside it as a column, so the
        # table stays low enough for a laptop; otherwise it takes the next free cell or row.
        tall = n == 4
        if tall:
            center_box.setTitle("Center")
        for i, kind in enumerate(kinds):
            if tall:
                self._slot(grid, f"center/{kind}", i, 0)
            else:
                grid.setColumnStretch(i, 1)
                self._slot(grid, f"center/{kind}", 0, i)
        self.pile_label = label("")
        self.pile_label.setObjectName("piles")
        if tall:
            grid.addWidget(self.pile_label, len(kinds), 0)
            grid_all.addWidget(center_box, 0, columns, 2, 1)
            grid_all.setColumnStretch(0, 2)
            grid_all.setColumnStretch(1, 2)
            grid_all.setColumnStretch(columns, 1)
        else:
            grid.addWidget(self.pile_label, 1, 0, 1, len(kinds))
            if n % columns:
                grid_all.addWidget(center_box, n // columns, n % columns)
            else:
                grid_all.addWidget(center_box, n // columns, 0, 1, columns)

    def _slot(self, grid: QGridLayout, place: str, row: int, col: int) -> None:
        slot = SlotButton(place)
        slot.picked.connect(self.place_clicked)
        self.slot_buttons[place] = slot
        grid.addWidget(slot, row, col)

    # --- the contract ----------------------------------------------------------------
    def shows(self, place: str) -> bool:
        return place in self.slot_buttons

    def field_words(self, option: Option, field: str) -> str:
        kinds = self.controller.deck.kinds
        return f"the {kinds[field].name} card to flip (highlighted)" if field in kinds else super().field_words(option, field)

    def refresh(self, view: PlayerView, legal: set[str], chosen: set[str]) -> None:
        c = self.controller
        over = view.outcome is not None
        for player, box in self.player_boxes.items():
            out = player in view.eliminated
            playing = player == view.current and not over
            box.setTitle(literal(f"{player} (out of the game)" if out else f"{player}  \u25C0 playing now" if playing
                                 else player))
            box.setProperty("current", "true" if playing else "false")
            box.style().unpolish(box)
            box.style().polish(box)
        by_place = {card.place: card for card in view.cards}
        for place, slot in self.slot_buttons.items():
            parts = place.split("/")
            kind = parts[1]
            position = parts[2].capitalize() if len(parts) == 3 else "Center"
            card = by_place.get(place)
            slot.show_card(c.kind_name(kind), position, style.kind_colour(c.kind_index(kind)),
                           style.kind_symbol(c.kind_index(kind)), name=card.name if card else None,
                           face_up=bool(card and card.face_up), present=card is not None,
                           legal=place in legal, chosen=place in chosen)
        piles = [f"{c.kind_name(k)} {sum(1 for x in view.cards if x.place == f'pile/{k}')}" for k in c.deck.kinds]
        out = [x.name for x in view.cards if x.place == "out" and x.name]
        self.pile_label.setText("Draw piles: " + ", ".join(piles) + ". Out of play: "
                                + (", ".join(out) if out else "none yet") + ".")

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
    """Each gumshoe's face-down columns, the center cards and the draw piles, as card shapes."""

    def __init__(self, controller: GameController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        view = controller.shared_view()
        self.kinds = list(controller.deck.kinds)
        self.positions = list(controller.session.layout()["slots"])
        self.players = list(controller.session.players)
        self.piles = {k: sum(1 for c in view.cards if c.place == f"pile/{k}") for k in self.kinds}
        block_w = len(self.kinds) * (CARD_W + GAP) + 30
        block_h = len(self.positions) * (CARD_H + GAP) + 50
        columns = 2 if len(self.players) > 2 else len(self.players)
        rows = (len(self.players) + columns - 1) // columns
        # Drawn at this size and scaled down to fit the window (a laptop shows it whole).
        self.natural = (columns * block_w + 30 + len(self.kinds) * (CARD_W + GAP) + 20,
                        max(rows * block_h, 2 * CARD_H + 120) + 20)
        self.setMinimumSize(320, 200)
        self.setSizePolicy(QSizePolicy.Expanding, QSizePolicy.Expanding)

    def _card(self, p: QPainter, x: float, y: float, kind: str, text: str) -> None:
        colour = QColor(style.kind_colour(self.controller.kind_index(kind)))
        p.setPen(QPen(QColor("#333333"), 2))
        p.setBrush(colour)
        p.drawRoundedRect(QRectF(x, y, CARD_W, CARD_H), 8, 8)
        p.setPen(QColor("#111111"))
        p.drawText(QRectF(x + 2, y + 2, CARD_W - 4, CARD_H - 4), Qt.AlignCenter | Qt.TextWordWrap, text)

    def paintEvent(self, event) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.Antialiasing)
        scale = min(self.width() / self.natural[0], self.height() / self.natural[1], 1.0)
        p.scale(scale, scale)
        small = QFont(self.font())
        small.setPointSize(11)
        bold = QFont(self.font())
        bold.setBold(True)
        block_w = len(self.kinds) * (CARD_W + GAP) + 30
        block_h = len(self.positions) * (CARD_H + GAP) + 50
        columns = 2 if len(self.players) > 2 else len(self.players)
        for i, player in enumerate(self.players):
            x0 = 10 + (i % columns) * block_w
            y0 = 10 + (i // columns) * block_h
            p.setFont(bold)
            p.setPen(QColor("#111111"))
            p.drawText(QRectF(x0, y0, block_w, 28), Qt.AlignLeft | Qt.AlignVCenter, player)
            p.setFont(small)
            for c, kind in enumerate(self.kinds):
                for r, position in enumerate(self.positions):
                    self._card(p, x0 + c * (CARD_W + GAP), y0 + 32 + r * (CARD_H + GAP), kind,
                               f"{self.controller.kind_name(kind)}\n{position.capitalize()}")
        x0 = 10 + columns * block_w + 20
        p.setFont(bold)
        p.setPen(QColor("#111111"))
        p.drawText(QRectF(x0, 10, 400, 28), Qt.AlignLeft | Qt.AlignVCenter, "Center of the table (face down)")
        p.setFont(small)
        for c, kind in enumerate(self.kinds):
            self._card(p, x0 + c * (CARD_W + GAP), 42, kind, self.controller.kind_name(kind))
        y = 42 + CARD_H + 30
        p.setFont(bold)
        p.setPen(QColor("#111111"))
        p.drawText(QRectF(x0, y, 400, 28), Qt.AlignLeft | Qt.AlignVCenter, "Draw piles (face down)")
        p.setFont(small)
        for c, kind in enumerate(self.kinds):
            for layer in range(3, 0, -1):      # a little stack of cards
                self._card(p, x0 + c * (CARD_W + GAP) + layer * 3, y + 32 + layer * 3, kind, "")
            self._card(p, x0 + c * (CARD_W + GAP), y + 32, kind,
                       f"{self.controller.kind_name(kind)}\n{self.piles[kind]} cards")
        p.end()
