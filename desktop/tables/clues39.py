"""The 39 Clues: Double-Cross table: each player's four table stacks, two-sided deck and missions.

Everything is drawn from the engine's shared view (every card on this table is face up, so
all of it is public; hands are only counted). Clicks on highlighted stacks, decks and
missions go to the shell's action flow (``desktop/table_base.py``); the hand is offered as a
button ("your hand"), like every place that is not drawn here.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QComboBox, QGridLayout, QGroupBox, QHBoxLayout, QLineEdit, QListWidget,
                               QListWidgetItem, QSpinBox, QVBoxLayout, QWidget)

from engine.game import Journal, Option
from engine.games.clues39 import library as cards_lib
from engine.session import PlayerView

from .. import style
from ..private import journal_table
from ..table_base import GameTable, TableShell
from ..widgets import SlotButton, button, label

SPOTS = ("1", "2", "3", "4")
MISSION_COLUMNS = 4         # missions beside the stacks, then on further rows


class CluesTable(GameTable):
    """One box per player: Table 1-4, the two-sided deck, then the mission stacks."""

    def __init__(self, shell: TableShell) -> None:
        super().__init__(shell)
        self.slots: dict[str, SlotButton] = {}
        self.boxes: dict[str, QGroupBox] = {}
        self.grids: dict[str, QGridLayout] = {}
        self.missions: dict[str, list[str]] = {}
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(4)
        for player in self.controller.session.players:
            box = QGroupBox(player)
            box.setObjectName(f"board:{player}")
            grid = QGridLayout(box)
            grid.setContentsMargins(6, 2, 6, 2)
            grid.setSpacing(4)
            for col, spot in enumerate(SPOTS):
                self._slot(grid, f"{player}/table/{spot}", 0, col)
            self._slot(grid, f"{player}/deck/two", 0, len(SPOTS))
            for col in range(len(SPOTS) + 1 + MISSION_COLUMNS):
                grid.setColumnStretch(col, 1)
            self.boxes[player], self.grids[player], self.missions[player] = box, grid, []
            outer.addWidget(box)
        outer.addStretch(1)

    def _slot(self, grid: QGridLayout, place: str, row: int, col: int) -> SlotButton:
        slot = SlotButton(place)
        slot.setMinimumSize(80, 40)
        slot.picked.connect(self.place_clicked)
        self.slots[place] = slot
        grid.addWidget(slot, row, col)
        return slot

    def _sync_missions(self, player: str, places: list[str]) -> None:
        """Mission stacks come and go: one tile per open mission, in mission order."""
        if places == self.missions[player]:
            return
        for place in self.missions[player]:
            slot = self.slots.pop(place)
            slot.hide()
            slot.deleteLater()
        grid = self.grids[player]
        for i, place in enumerate(places):
            self._slot(grid, place, i // MISSION_COLUMNS, len(SPOTS) + 1 + i % MISSION_COLUMNS)
        self.missions[player] = list(places)

    # --- the contract ------------------------------------------------------------------
    def shows(self, place: str) -> bool:
        return place in self.slots or "/mission/" in place

    def field_words(self, option: Option, field: str) -> str:
        words = {"agent_source": "where the Agent comes from", "location_source": "where the Location comes from",
                 "source": "where the card comes from", "mission": "the mission stack",
                 "agent_colour": "the Replicator Agent's colour", "location_colour": "the Replicator Location's colour",
                 "place": "the card to read"}
        return words.get(field, super().field_words(option, field))

    def refresh(self, view: PlayerView, legal: set[str], chosen: set[str]) -> None:
        deck = self.controller.deck
        by_place: dict[str, list] = {}
        for card in view.cards:
            by_place.setdefault(card.place, []).append(card)
        over = view.outcome is not None
        state = self.controller.session.state
        for player, box in self.boxes.items():
            missions = sorted((p for p in by_place if p.startswith(f"{player}/mission/")),
                              key=lambda p: int(p.rsplit("/", 1)[1]))
            self._sync_missions(player, missions)
            count = {what: len(by_place.get(f"{player}/{what}", ())) for what in ("hand", "deck/one", "discard")}
            score = state.scores.get(player, 0) if hasattr(state, "scores") else 0
            playing = player == view.current and not over
            attacking = [c.name for c in by_place.get(f"{player}/play", ()) if c.name]
            box.setTitle(f"{player}: {score} points \u2014 hand {count['hand']}, one-sided deck {count['deck/one']}, "
                         f"discard pile {count['discard']}" + ("   \u25C0 playing now" if playing else "")
                         + (f" \u2014 attacking with {attacking[0]}" if attacking else ""))
            box.setProperty("current", "true" if playing else "false")
            box.style().unpolish(box)
            box.style().polish(box)
        for place, slot in self.slots.items():
            cards = by_place.get(place, [])
            top = cards[-1] if cards else None
            kind = top.kind if top is not None and top.kind else "two"
            index = list(deck.kinds).index(kind) if kind in deck.kinds else 0
            slot.show_card(deck.kinds[kind].name if kind in deck.kinds else "Card", self._where(place),
                           style.kind_colour(index), style.kind_symbol(index),
                           name=top.name if top is not None else None, face_up=bool(top and top.face_up),
                           present=top is not None, legal=place in legal, chosen=place in chosen)
            lines = self._lines(place, cards)
            if lines:
                if place in chosen:
                    lines = ["[picked]", *lines]
                elif slot.legal:
                    lines[0] = "\u25B6 " + lines[0]
                slot.set_lines(lines)
                slot.setAccessibleName(f"{self._where(place)}: " + " ".join(lines))

    def _where(self, place: str) -> str:
        parts = place.split("/")
        if parts[1] == "table":
            return f"Table {parts[2]}"
        if parts[1] == "mission":
            return f"Mission {parts[2]}"
        return "Two-sided deck"

    def _lines(self, place: str, cards: list) -> list[str]:
        """A tile's words: the top card and how many lie there; a mission's Agent, Location, points."""
        where = self._where(place)
        if not cards:
            return [where, "(empty)"]
        top = cards[-1]
        if "/mission/" in place:
            deck = self.controller.deck
            named = [c for c in cards if c.card]
            points = sum(deck.card(c.card).attrs.get("points", 0) for c in named)
            head = f"{named[0].name} at {named[1].name}" if len(named) > 1 else where
            notes = []
            session = self.controller.session
            mission = getattr(session.state, "missions", {}).get(place)
            if mission is not None:
                if session.rules.immune(session.state, mission):
                    notes.append("immune")
                notes.append("retrievable" if mission.touched != session.state.turn else "new this turn")
            return [where, head, ", ".join([f"{len(cards)} cards, {points} points", *notes])]
        if top.name is None:
            count = f"{len(cards)} card{'s' if len(cards) != 1 else ''}"
            # A deck's top card is read when it is played: the tile only counts the deck.
            return [where, count, "(not read yet)"] if "/table/" in place else [where, count]
        extra = f"+{len(cards) - 1} under it" if len(cards) > 1 else ""
        return [top.name, f"{where} {extra}".strip()]

    def setup_widget(self) -> QWidget:
        """How each player lays out their cards, left to right (the rulebook's Set Up)."""
        body = QWidget()
        grid = QGridLayout(body)
        tiles = ["One-sided deck\n(face down, left)", "Table 1", "Table 2", "Table 3", "Table 4",
                 "Two-sided deck\n(face up, right)"]
        for col, text in enumerate(tiles):
            tile = label(text, "heading")
            tile.setObjectName(f"setup:tile{col}")
            tile.setStyleSheet("border: 2px solid #6B6B6B; border-radius: 10px; padding: 8px;")
            grid.addWidget(tile, 0, col)
        words = label("Your opponent shuffles both of your decks. Deal four two-sided cards face up onto "
                      "Table 1 to Table 4, left to right, and draw four one-sided cards into your hand "
                      "(nobody scans a hand). Then show the four table cards to the camera, or pick them.")
        grid.addWidget(words, 1, 0, 1, len(tiles))
        return body

    def journal_widget(self, journal: Journal) -> QWidget:
        """Every card of the game and where it is (the deductions follow in the shell's frame)."""
        rows = [[e.name, e.where] for e in journal.entries]
        table = journal_table(["Card", "Where"], rows)
        table.setObjectName("journal:cards")
        return table


class LibraryEditor(QWidget):
    """The family registers their cards once: type the number, pick from short lists, Register.

    Every check is the library's own (``engine.games.clues39.library``): a refused card is
    explained in words and nothing is saved. Each accepted change is written to the family's
    library file at once (``<Gumshoe folder>/39-clues/library.toml``), or to ``path``.
    """

    def __init__(self, path: Path | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.path = path or cards_lib.user_library_path()
        self.library = cards_lib.load_library(self.path) if self.path.exists() else cards_lib.Library("Our cards")
        vocab = cards_lib.vocabulary()
        layout = QVBoxLayout(self)
        layout.addWidget(label("Your 39 Clues cards: register each printed card once.", "heading"))
        form = QGridLayout()
        self.number = QSpinBox()
        self.number.setObjectName("library:number")
        self.number.setRange(0, cards_lib.MAX_NUMBER)
        self.name = QLineEdit()
        self.name.setObjectName("library:name")
        self.name.setMaxLength(cards_lib.MAX_NAME)
        self.type = QComboBox()
        self.type.setObjectName("library:type")
        for kind in cards_lib.TYPES:
            self.type.addItem(vocab.type_names[kind], kind)
        self.colour = QComboBox()
        self.colour.setObjectName("library:colour")
        self.colour.addItem("(no colour)", None)
        for colour, name in vocab.colours.items():
            self.colour.addItem(name, colour)
        self.points = QSpinBox()
        self.points.setObjectName("library:points")
        self.points.setRange(0, 39)
        self.sides = QComboBox()
        self.sides.setObjectName("library:sides")
        self.sides.addItem("One-sided (the common back)", 1)
        self.sides.addItem("Two-sided (any other back)", 2)
        self.copies = QSpinBox()
        self.copies.setObjectName("library:copies")
        self.copies.setRange(1, cards_lib.MAX_COPIES)
        fields = [("Number", self.number), ("Name", self.name), ("Type", self.type), ("Colour", self.colour),
                  ("Points", self.points), ("Sides", self.sides), ("Copies", self.copies)]
        for i, (text, widget) in enumerate(fields):
            form.addWidget(label(text), i // 4 * 2, i % 4)
            form.addWidget(widget, i // 4 * 2 + 1, i % 4)
        layout.addLayout(form)
        row = QHBoxLayout()
        self.register_button = button("Register this card", "primary", name="library:register")
        self.register_button.clicked.connect(self.register_card)
        self.remove_button = button("Remove the selected card", name="library:remove")
        self.remove_button.clicked.connect(self.remove_selected)
        row.addWidget(self.register_button)
        row.addWidget(self.remove_button)
        row.addStretch(1)
        layout.addLayout(row)
        self.error = label("", "error")
        self.error.setObjectName("library:error")
        self.error.hide()
        layout.addWidget(self.error)
        self.list = QListWidget()
        self.list.setObjectName("library:list")
        layout.addWidget(self.list, 1)
        self._fill()

    def _fill(self) -> None:
        self.list.clear()
        for e in sorted(self.library.entries, key=lambda e: e.number):
            colour = f"{e.colour} " if e.colour else ""
            points = f", {e.points} points" if e.points else ""
            copies = f", {e.copies} copies" if e.copies > 1 else ""
            item = QListWidgetItem(f"{e.number}: {e.name} ({colour}{e.type}{points}, "
                                   f"{'one' if e.sides == 1 else 'two'}-sided{copies})")
            item.setData(Qt.UserRole, e.id)
            self.list.addItem(item)

    def _save(self, library: "cards_lib.Library") -> None:
        cards_lib.save_library(library, self.path)
        self.library = library
        self.error.hide()
        self._fill()

    def register_card(self) -> None:
        """Register the card in the form (refused in words when the library's checks fail)."""
        try:
            new = cards_lib.register(self.library, self.number.value(), self.name.text(), self.type.currentData(),
                                     self.colour.currentData(), points=self.points.value(),
                                     sides=self.sides.currentData(), copies=self.copies.value())
        except cards_lib.LibraryError as exc:
            self.error.setText(exc.message.split(": ", 1)[-1] if exc.message.startswith(self.library.where)
                               else exc.message)
            self.error.show()
            return
        self._save(new)
        self.number.setValue(self.number.value() + 1)      # the next card of a pack, usually
        self.name.clear()
        self.name.setFocus()

    def remove_selected(self) -> None:
        items = self.list.selectedItems()
        if items:
            self._save(cards_lib.remove(self.library, items[0].data(Qt.UserRole)))
