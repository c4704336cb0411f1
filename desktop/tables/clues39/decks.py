"""The new-game form's part for this game: each player's decks, from the family's library or the example."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QDialog, QHBoxLayout, QListWidget, QListWidgetItem, QVBoxLayout, QWidget

from engine.games.clues39 import library as cards_lib

from ...table_base import NewGameChoices
from ...widgets import button, label

# --- the new-game form: a deck for each player ----------------------------------------------
OWNERS, PICK, EXAMPLE = "owners", "pick", "example"


class DeckChoices(NewGameChoices):
    """Each player's two decks: the family's cards split by owner, picked per player, or the example.

    ``options()`` gives ``{"decks": {player: [card, ...]}}`` (plain JSON: the saved game keeps its
    cards even if the library changes later); ``problem()`` is the library's check in words
    (a deck without four one-sided or four two-sided cards), ``warning()`` a deck under 44 cards.
    """

    def __init__(self, library: "cards_lib.Library | None" = None) -> None:
        super().__init__()
        self.broken: str | None = None
        self.library: cards_lib.Library | None = library
        if library is None:
            try:
                self.library = cards_lib.user_library()
            except cards_lib.LibraryError as exc:
                self.broken = exc.message
        self.example = cards_lib.sample_library()
        self.players: list[str] = []
        self.picks: dict[int, list[str]] = {}          # seat -> short ids, kept when a name changes
        self.picker: DeckPicker | None = None
        self._check: cards_lib.DeckCheck | None = None
        self._problem: str | None = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        row = QHBoxLayout()
        row.addWidget(label("Decks:", wrap=False))
        self.source = QComboBox()
        self.source.setObjectName("clues:source")
        if self.broken or (self.library is not None and self.library.entries):
            self.source.addItem("Our cards, each copy to its owner", OWNERS)
            self.source.addItem("Our cards, each player picks theirs", PICK)
        self.source.addItem("The demo deck (made-up cards, to try the app)", EXAMPLE)
        self.source.currentIndexChanged.connect(self._update)
        row.addWidget(self.source, 1)
        layout.addLayout(row)
        self.pick_row = QHBoxLayout()
        layout.addLayout(self.pick_row)
        self.pick_buttons: list = []
        self.summary = label("")
        self.summary.setObjectName("clues:summary")
        layout.addWidget(self.summary)
        self._update()

    def mode(self) -> str:
        return self.source.currentData()

    def set_players(self, names: list[str]) -> None:
        self.players = list(names)
        self._update()

    def _names(self) -> list[str]:
        return [n or f"Player {i + 1}" for i, n in enumerate(self.players)]

    def _update(self) -> None:
        names = self._names()
        while len(self.pick_buttons) < len(names):
            i = len(self.pick_buttons)
            b = button("", name=f"clues:pick:{i}")
            b.clicked.connect(lambda _=False, seat=i: self.open_picker(seat))
            self.pick_row.addWidget(b)
            self.pick_buttons.append(b)
        for i, b in enumerate(self.pick_buttons):
            b.setText(f"{names[i]}'s cards\u2026" if i < len(names) else "")
            b.setVisible(self.mode() == PICK and i < len(names))
        self._check, self._problem = None, None
        if not names:
            self.summary.setText("")
        elif self.broken and self.mode() != EXAMPLE:
            self._problem = (f"Your card library file cannot be used: {self.broken} Fix it on the library screen, "
                             f"or play with the demo deck.")
        else:
            try:
                self._check = self._build(names)
            except cards_lib.LibraryError as exc:
                self._problem = exc.message
        decks: dict[str, list[int]] = {}
        if self._check is not None:
            decks = {name: [c["sides"] for c in cards] for name, cards in self._check.decks.items()}
        elif self.mode() == PICK and self.library is not None:
            sides = {key: e.sides for key, e, _ in self.library.physical()}
            decks = {name: [sides[k] for k in self.picks.get(i, []) if k in sides] for i, name in enumerate(names)}
        parts = [f"{name} {cards.count(1)} + {cards.count(2)}" for name, cards in decks.items()]
        # The counts; the problem itself when there are none to show (the form shows it again at Start).
        self.summary.setText("Cards (one-sided + two-sided): " + "  \u00b7  ".join(parts) if parts
                             else self._problem or "")
        self.changed.emit()

    def _build(self, names: list[str]) -> "cards_lib.DeckCheck":
        if len(set(names)) != len(names):
            raise cards_lib.LibraryError("Two players have the same name; add an initial to tell them apart.")
        if self.mode() == EXAMPLE:
            return cards_lib.split_by_owner(self.example, names)
        assert self.library is not None
        if self.mode() == OWNERS:
            return cards_lib.split_by_owner(self.library, names)
        return cards_lib.build_decks(self.library, {name: self.picks.get(i, []) for i, name in enumerate(names)})

    def options(self) -> dict[str, Any]:
        return self._check.options() if self._check is not None else {}

    def problem(self) -> str | None:
        return self._problem

    def warning(self) -> str | None:
        return " ".join(self._check.warnings) if self._check is not None and self._check.warnings else None

    # --- picking a player's cards --------------------------------------------------------
    def open_picker(self, seat: int) -> "DeckPicker":
        assert self.library is not None
        taken = {key: self._names()[s] for s, keys in self.picks.items() if s != seat and s < len(self.players)
                 for key in keys}
        self.picker = DeckPicker(self.library, self._names()[seat], self.picks.get(seat, []), taken, self)
        self.picker.accepted.connect(lambda: self._picked(seat))
        self.picker.open()
        return self.picker

    def _picked(self, seat: int) -> None:
        assert self.picker is not None
        self.picks[seat] = self.picker.chosen()
        self._update()


class DeckPicker(QDialog):
    """One player's cards, ticked in a list of the library (cards in another player's deck are greyed)."""

    def __init__(self, library: "cards_lib.Library", player: str, chosen: list[str], taken: dict[str, str],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("clues:picker")
        self.setWindowTitle("The 39 Clues: a player's cards")    # never a player's name in a window title
        self.player = player
        layout = QVBoxLayout(self)
        layout.addWidget(label(f"Tick {player}'s cards: both the one-sided and the two-sided ones.", "heading"))
        self.list = QListWidget()
        self.list.setObjectName("clues:picker:list")
        for key, e, k in sorted(library.physical(), key=lambda x: (x[1].number, x[2])):
            copy = f" (copy {k})" if e.copies > 1 else ""
            owner = e.owner_of(k)
            whose = f", {owner}'s" if owner else ""
            text = f"{e.number}: {e.name}{copy} ({'one' if e.sides == 1 else 'two'}-sided{whose})"
            if key in taken:
                text += f" \u2014 in {taken[key]}'s deck"
            item = QListWidgetItem(text)
            item.setData(Qt.UserRole, key)
            item.setData(Qt.UserRole + 1, owner)
            flags = Qt.ItemIsUserCheckable | Qt.ItemIsSelectable
            item.setFlags(flags if key in taken else flags | Qt.ItemIsEnabled)
            item.setCheckState(Qt.Checked if key in chosen else Qt.Unchecked)
            self.list.addItem(item)
        layout.addWidget(self.list, 1)
        row = QHBoxLayout()
        own = button(f"Tick {player}'s own cards", name="clues:picker:own")
        own.clicked.connect(self.tick_own)
        free = button("Tick every card nobody has", name="clues:picker:free")
        free.clicked.connect(self.tick_free)
        clear = button("Untick all", name="clues:picker:none")
        clear.clicked.connect(lambda: self._tick(lambda item: False))
        done = button("Done", "primary", name="clues:picker:done")
        done.clicked.connect(self.accept)
        for b in (own, free, clear):
            row.addWidget(b)
        row.addStretch(1)
        row.addWidget(done)
        layout.addLayout(row)
        if parent is not None:
            self.resize(parent.window().size())

    def _tick(self, rule) -> None:
        """``rule(item)``: True ticks, False unticks, None leaves the card as it is."""
        for i in range(self.list.count()):
            item = self.list.item(i)
            verdict = rule(item)
            if item.flags() & Qt.ItemIsEnabled and verdict is not None:
                item.setCheckState(Qt.Checked if verdict else Qt.Unchecked)

    def tick_own(self) -> None:
        self._tick(lambda item: True if item.data(Qt.UserRole + 1) == self.player else None)

    def tick_free(self) -> None:
        self._tick(lambda item: True if not item.data(Qt.UserRole + 1) else None)

    def chosen(self) -> list[str]:
        return [self.list.item(i).data(Qt.UserRole) for i in range(self.list.count())
                if self.list.item(i).checkState() == Qt.Checked and self.list.item(i).flags() & Qt.ItemIsEnabled]
