"""The Bonnie and Clyde Mystery Rummy table: the board's ten locations, the car, the piles, the players.

Everything is drawn from the engine's shared view and the public state (what lies face up,
how many cards each hand holds, the car, the scores). The card under a location is a face-down
tile until someone captures it; the look is asked behind the privacy gate by the shell (the
engine's ``look`` option is private). Cards laid face up from a hand (a meld, a layoff, Ted
Hinton, a discard) are read by the camera or picked, on the shared screen: a meld or a layoff is
the shell's list read (several cards from the hand). What Ted Hinton does is this table's own
small panel.
"""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QGridLayout, QHBoxLayout, QVBoxLayout, QWidget

from engine.game import Journal, Option
from engine.session import PlayerView

from .. import style
from ..private import journal_table
from ..table_base import GameTable, TableShell
from ..widgets import SlotButton, button, label

HAND_PLAYS = ("meld", "layoff", "hinton", "discard", "note_hand")


def cards_words(n: int) -> str:
    return "1 card" if n == 1 else f"{n} cards"


class BonnieClydeTable(GameTable):
    """The board (ten location tiles, the car on one), the Case File and FBI Files, one line per player."""

    def __init__(self, shell: TableShell) -> None:
        super().__init__(shell)
        rules = self.controller.session.rules
        self.board = rules.board
        self.slots: dict[str, SlotButton] = {}
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(4)
        row = QGridLayout()
        row.setSpacing(4)
        for n in self.board.numbers:
            row.addWidget(self._slot(f"board/{n}"), 0, n - 1)
            row.setColumnStretch(n - 1, 1)
        outer.addLayout(row, 3)           # the board takes the height there is: bigger tiles on a big screen
        piles = QHBoxLayout()
        piles.addWidget(self._slot("casefile"), 1)
        piles.addWidget(self._slot("files"), 1)
        self.car = label("", "heading")
        self.car.setObjectName("bc:car")
        piles.addWidget(self.car, 3)
        outer.addLayout(piles, 2)
        # The score sheet: one row per player, what lies in front of them and the points.
        self.players: dict[str, dict[str, object]] = {}
        self.lines = QWidget()
        grid = QGridLayout(self.lines)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setHorizontalSpacing(14)
        grid.setVerticalSpacing(2)
        for col, words in enumerate(("Player", "In hand", "On the table", "This hand", "Total")):
            grid.addWidget(label(words, "heading", wrap=False), 0, col)
        for i, player in enumerate(self.controller.session.players, 1):
            cells = {}
            for col, part in enumerate(("name", "hand", "table", "points", "total")):
                cell = label("", wrap=part == "table")
                cell.setObjectName(f"bc:player:{player}" if part == "name" else f"bc:player:{player}:{part}")
                cell.setStyleSheet("font-size: 14pt;")
                grid.addWidget(cell, i, col)
                cells[part] = cell
            self.players[player] = cells
        grid.setColumnStretch(2, 1)
        outer.addWidget(self.lines)
        self.panel = self._panel()
        outer.addWidget(self.panel)
        self.panel.hide()
        outer.addStretch(1)
        self.pending: tuple[Option, str] | None = None

    def _slot(self, place: str) -> SlotButton:
        slot = SlotButton(place)
        slot.setMinimumSize(72, 44)
        slot.picked.connect(self.place_clicked)
        self.slots[place] = slot
        return slot

    def _panel(self) -> QWidget:
        """What Ted Hinton does: draw two, take from the FBI Files, or look under a location."""
        panel = QWidget()
        layout = QVBoxLayout(panel)
        layout.setContentsMargins(0, 0, 0, 0)
        self.panel_title = label("", "heading")
        self.panel_title.setObjectName("bc:panel-title")
        layout.addWidget(self.panel_title)
        uses = QGridLayout()
        uses.setContentsMargins(0, 0, 0, 0)
        for column, (use, words) in enumerate((("draw", "Draw 2 cards"), ("take", "Take a card from the FBI Files"))):
            b = button(words, name=f"bc:use:{use}")
            b.clicked.connect(lambda _=False, u=use: self._hinton(u))
            uses.addWidget(b, 0, column)
        self.where = QComboBox()
        self.where.setObjectName("bc:where")
        # The locations' names are long: the box is as wide as its column, not as its longest name.
        self.where.setSizeAdjustPolicy(QComboBox.AdjustToMinimumContentsLengthWithIcon)
        self.where.setMinimumContentsLength(18)
        uses.addWidget(self.where, 1, 0)
        look = button("Look under it", name="bc:use:look")
        look.clicked.connect(lambda: self._hinton("look"))
        uses.addWidget(look, 1, 1)
        cancel = button("Cancel", name="bc:cancel")
        cancel.clicked.connect(self._close)
        uses.addWidget(cancel, 1, 2)
        layout.addLayout(uses)
        return panel

    # --- the contract ------------------------------------------------------------------
    def shows(self, place: str) -> bool:
        return place in self.slots

    def handles(self, option: Option) -> bool:
        return option.action in HAND_PLAYS

    def start(self, option: Option, player: str) -> None:
        """Cards from a hand: the shell's reads. Ted Hinton: this table's panel first."""
        hand = f"{player}/hand"
        if option.action == "discard":
            self.shell.read_cards({"type": "discard", "player": player}, [("card", hand)],
                                  private=False, heading=f"{player}, show the card you discard.")
            return
        if option.action == "note_hand":
            self.shell.read_card_list({"type": "note_hand", "player": player}, "cards", hand, private=True,
                                      heading=f"{player}, show the cards of your hand you want noted in your "
                                              f"journal.", least=1)
            return
        if option.action in ("meld", "layoff"):
            meld = option.action == "meld"
            what = ("three or more Evidence cards of one location" if meld else
                    "one Evidence card, or two of the same location, for a meld on the table")
            self.shell.read_card_list({"type": option.action, "player": player}, "cards", hand, private=False,
                                      heading=f"{player}, lay {what} face up.", least=3 if meld else 1,
                                      most=None if meld else 2, kinds=("evidence",),
                                      demo_cards=self._demo_play(player, meld))
            return
        self.pending = (option, player)
        self.where.clear()
        for place in option.targets.get("location", ()):
            self.where.addItem(self.controller.words(place, player), place)
        self.panel_title.setText(f"{player}, what does Ted Hinton do?")
        self.lines.hide()               # the players' lines come back when Ted Hinton's use is chosen
        self.panel.show()

    def _demo_play(self, player: str, meld: bool) -> list[str]:
        """On the simulated table: the cards the simulated camera holds up for a meld or a layoff
        (a legal one when the simulated hand has it)."""
        if not self.controller.demo:
            return []
        state = self.controller.session.state
        rules = self.controller.session.rules
        groups: dict[int, list[str]] = {}
        for card in self.controller.true_cards_in(f"{player}/hand"):
            if rules.kind_of(card) == "evidence":
                groups.setdefault(rules.location_of[card], []).append(card)
        for number, cards in sorted(groups.items()):
            if meld and len(cards) >= 3:
                return cards[:3]
            if not meld and number in state.melded:
                return cards[:1]
        return []

    def _close(self) -> None:
        self.pending = None
        self.panel.hide()
        self.lines.show()

    def _hinton(self, use: str) -> None:
        if self.pending is None:
            return
        _, player = self.pending
        action = {"type": "hinton", "player": player, "use": use}
        if use == "look":
            if self.where.currentData() is None:
                return
            action["location"] = self.where.currentData()
        self._close()
        self.shell.read_cards(action, [("card", f"{player}/hand")], private=False,
                              heading=f"{player}, show the Ted Hinton card you play.")

    def field_words(self, option: Option, field: str) -> str:
        words = {"location": "the location", "direction": "where the car goes", "pile": "the FBI Files",
                 "player": "who deals"}
        return words.get(field, super().field_words(option, field))

    def refresh(self, view: PlayerView, legal: set[str], chosen: set[str]) -> None:
        session = self.controller.session
        state = session.state
        rules = session.rules
        by_place: dict[str, list] = {}
        for card in view.cards:
            by_place.setdefault(card.place, []).append(card)
        for n in self.board.numbers:
            place = f"board/{n}"
            cards = by_place.get(place, [])
            slot = self.slots[place]
            car = " \u25C6 car" if state.car == n and state.hand_no else ""
            slot.show_card("Location", f"{n} {self.board.name(n)}", style.kind_colour(n % 3), style.kind_symbol(0),
                           name=None, present=bool(cards), legal=place in legal, chosen=place in chosen,
                           face_up=False)
            # A card under it is told by the tile's colour (grey when empty) and the word "empty".
            slot.set_lines([f"{n}{car}", self.board.name(n)] + ([] if cards else ["(empty)"]))
        casefile = by_place.get("casefile", [])
        self.slots["casefile"].show_card("Case File", "Case File", style.kind_colour(1), style.kind_symbol(1),
                                         name=None, present=bool(casefile), legal="casefile" in legal,
                                         chosen="casefile" in chosen, face_up=False)
        self.slots["casefile"].set_lines(["Case File", cards_words(len(casefile))])
        files = by_place.get("files", [])
        top = files[-1] if files else None
        slot = self.slots["files"]
        slot.show_card("FBI Files", "FBI Files", style.kind_colour(2), style.kind_symbol(2),
                       name=top.name if top else None, present=bool(files), legal="files" in legal,
                       chosen="files" in chosen, face_up=bool(top and top.face_up))
        slot.set_lines(["FBI Files", top.name if top and top.name else "(top not read)" if top else "(empty)",
                        cards_words(len(files))])
        self.car.setText(f"The Crime Spree car is on {rules.loc_words(state.car)}. Hand {max(state.hand_no, 1)}, "
                         f"playing to {state.target}.")
        totals = state.scores.totals()
        for player, cells in self.players.items():
            points = rules.table_points(state, player)
            melds = []
            for place, cards in sorted(by_place.items()):
                parts = place.split("/")
                if parts[0] == player and parts[1] in ("played", "sideways"):
                    side = " sideways" if parts[1] == "sideways" else ""
                    melds.append(f"{self.board.name(int(parts[2]))} x{len(cards)}{side}")
            captured = [c.name for c in by_place.get(f"{player}/captured", []) if c.name]
            now = "\u25B6 " if player == view.current and view.outcome is None else ""
            cells["name"].setText(f"{now}{player}")
            cells["hand"].setText(cards_words(len(by_place.get(f"{player}/hand", []))))
            cells["table"].setText(", ".join(melds + captured) or "nothing")
            cells["points"].setText(str(points["points"]))
            cells["total"].setText(str(totals[player]))

    def setup_widget(self) -> QWidget:
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.addWidget(label("Put the board between the players and the Crime Spree car on Kaufman, Texas (1). "
                               "Eight cards from the deck with Bonnie and Clyde, shuffled, go face down under the "
                               "ten locations. The dealer deals the hands and turns up the first card of the FBI "
                               "Files: show it to the camera, or pick it. Nobody scans a hand.", "heading"))
        return body

    def journal_widget(self, journal: Journal) -> QWidget:
        rows = [[e.name, e.card.rsplit(".", 1)[-1], e.where] for e in journal.entries if e.where != "Unknown"]
        table = journal_table(["Card", "Tag", "Where"], rows or [["(nothing seen yet)", "", ""]])
        table.setObjectName("journal:cards")
        return table
