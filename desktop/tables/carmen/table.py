"""The Carmen Sandiego card game's table: each gumshoe's columns, the center, the piles, the die.

Everything here is drawn from the engine's shared view (``desktop/drawn``): each gumshoe's
three columns of face-down cards under their name in their colour (``.columns``), the center
cards with their draw piles, the die with the face rolled this turn. A card everyone saw that
went back face down (a failed warrant) shows its back with its name on a label. A swap, a draw
or a card going out of play is seen moving from one place to the other. Clicks (or Tab and
Enter) on highlighted cards go to the shell's action flow (``desktop/table_base.py``). Also the
journal with each Location beside the Loot stolen there; the picture of the deal is ``.deal``.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QGridLayout, QHBoxLayout, QLabel, QSizePolicy, QVBoxLayout, QWidget

from engine.game import Journal, Option
from engine.session import PlayerView

from ... import style
from ...drawn import DrawnCard, DrawnDie, PlayerName, player_colours
from ...drawn.moves import TableMotion
from ...drawn.paint import CardLook
from ...private import journal_table
from ...table_base import GameTable, TableShell
from ...widgets import label, plain_tip
from .columns import Cascade
from .deal import DealDiagram

#: the center's column beside two or four gumshoes: a gumshoe's share of the width, and its share
CENTER_SHARE = (10, 6)
#: but first each of a gumshoe's columns gets this width (a legal "Bottom" at 24 px), when there is
#: room for it and a center column this wide (a card beside its pile)
GUMSHOE_COLUMN, CENTER_LEAST = 124, 180
#: a draw pile: its count and its type's symbol
PILE_HEIGHT = 52
#: and its width beside its center card (in the center's column)
PILE_WIDTH = 64


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
    """Each gumshoe's columns by their name, and the center of the table."""

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
        # "Center of the table": a column's middle card is its "Center" (the rulebook's top, center, bottom).
        title = label("Center of the table", wrap=tall)
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
            # A column: each center card whole, its draw pile beside it (they take what the rest
            # leaves), then the die.
            column.addWidget(title)
            for i, kind in enumerate(kinds):
                grid.addWidget(self.slot_buttons[f"center/{kind}"], i, 0)
                self.piles[kind].setFixedWidth(PILE_WIDTH)
                self.piles[kind].setSizePolicy(QSizePolicy.Fixed, QSizePolicy.Fixed)
                grid.addWidget(self.piles[kind], i, 1, Qt.AlignVCenter)
                grid.setRowStretch(i, 1)
            grid.setColumnStretch(0, 1)
            column.addLayout(grid, 3)
            column.addLayout(side, 1)
            # The gumshoes' columns get most of the width (a legal card's place is 24 px type); the
            # center's column room for a card and its pile side by side (each card about as wide
            # as a gumshoe's).
            self.center_column = center
            grid_all.addWidget(center, 0, columns, n // columns, 1)
            grid_all.setColumnStretch(0, CENTER_SHARE[0])
            grid_all.setColumnStretch(1, CENTER_SHARE[0])
            grid_all.setColumnStretch(columns, CENTER_SHARE[1])
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
        if self.center_column is not None:
            # A laptop's 1280 px: the center column gives up its share before a gumshoe's cards
            # get too narrow for a legal place's words at 24 px.
            spacing = self.layout().horizontalSpacing() * 2
            room = self.width() - spacing - 2 * len(self.cascades[0].columns) * GUMSHOE_COLUMN
            self.center_column.setMaximumWidth(max(CENTER_LEAST, room))

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
