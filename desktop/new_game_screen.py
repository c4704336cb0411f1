"""New game: the players in seating order, their ages, the assist level and the game's own options.

The player count, the options and their choices come from the game's shelf data
(``assets/games/<id>.toml``): nothing here names a game.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QCheckBox, QComboBox, QFormLayout, QGridLayout, QGroupBox, QHBoxLayout, QLineEdit, QSpinBox, \
    QVBoxLayout, QWidget

from engine.game import Assist
from engine.games import GameInfo, game_info
from engine.names import MAX_PLAYER_NAME, name_problem

from .table_base import NewGameChoices
from .tables import table_class
from .widgets import button, label

ASSIST_CHOICES = (
    (Assist.NOTES, "Notes only \u2014 like a paper journal"),
    (Assist.HINTS, "Hints \u2014 also what can be ruled out"),
    (Assist.FULL, "Full \u2014 also the odds, worked out exactly"),
)
MAX_PLAYERS = 6
NAME_LENGTH = MAX_PLAYER_NAME      # the engine refuses longer names; the field stops there


class NewGameScreen(QWidget):
    #: game id, players in seating order, ages, assist, the game's options, demo
    start_requested = Signal(str, list, dict, object, dict, bool)
    cancelled = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.demo = False
        self.info: GameInfo | None = None
        self.option_boxes: list[tuple[str, QComboBox]] = []
        self.choices: NewGameChoices | None = None      # the game's own part of the form
        # A narrow centered column: short fields read better than ones stretched across a wide screen.
        page = QHBoxLayout(self)
        column = QWidget()
        column.setMaximumWidth(900)
        page.addStretch(1)
        page.addWidget(column, 4)
        page.addStretch(1)
        outer = QVBoxLayout(column)
        outer.setContentsMargins(24, 16, 24, 16)
        self.title = label("New game", "title")
        outer.addWidget(self.title)
        outer.addWidget(label("Write the players in the order they sit around the table, going to the left. "
                              "Ages tell who is youngest (many games start with the youngest)."))

        form = QFormLayout()
        self.count = QSpinBox()
        self.count.setObjectName("new:count")
        self.count.setRange(2, MAX_PLAYERS)
        self.count.setValue(3)
        self.count.setMaximumWidth(120)
        self.count.valueChanged.connect(self._show_rows)
        form.addRow("How many players?", self.count)
        outer.addLayout(form)

        box = QGroupBox("Players")
        grid = QGridLayout(box)
        grid.addWidget(label("Name", wrap=False), 0, 1)
        grid.addWidget(label("Age", wrap=False), 0, 2)
        self.names: list[QLineEdit] = []
        self.ages: list[QSpinBox] = []
        self.row_labels = []
        for i in range(MAX_PLAYERS):
            number = label(f"{i + 1}.", wrap=False)
            name = QLineEdit()
            name.setObjectName(f"new:name{i}")
            name.setPlaceholderText(f"Player {i + 1}")
            name.setMaxLength(NAME_LENGTH)
            name.textChanged.connect(self._update_first)
            age = QSpinBox()
            age.setObjectName(f"new:age{i}")
            age.setRange(3, 120)
            age.setValue(10)
            age.setMinimumWidth(110)
            age.valueChanged.connect(self._update_first)
            grid.addWidget(number, i + 1, 0)
            grid.addWidget(name, i + 1, 1)
            grid.addWidget(age, i + 1, 2)
            self.names.append(name)
            self.ages.append(age)
            self.row_labels.append(number)
        outer.addWidget(box)

        self.form2 = form2 = QFormLayout()
        self.assist = QComboBox()
        self.assist.setObjectName("new:assist")
        for value, text in ASSIST_CHOICES:
            self.assist.addItem(text, value)
        self.assist.setCurrentIndex(1)
        form2.addRow("Journal help:", self.assist)
        # Off by default: the laptop flow stays as it is for families without phones.
        self.phones = QCheckBox("Phones: each player's phone is their private screen (they scan a code)")
        self.phones.setObjectName("new:phones")
        # Across the whole form: a game's own long row labels must not squeeze its words out of sight.
        form2.addRow(self.phones)
        outer.addLayout(form2)
        self.choices_place = QVBoxLayout()
        self.choices_place.setContentsMargins(0, 0, 0, 0)
        outer.addLayout(self.choices_place)
        self.warning = label("", "banner")
        self.warning.setObjectName("new:warning")
        self.warning.hide()
        outer.addWidget(self.warning)
        self.error = label("", "error")
        self.error.setObjectName("new:error")
        self.error.hide()
        outer.addWidget(self.error)
        outer.addStretch(1)
        row = QHBoxLayout()
        # Who goes first, beside the button that starts: the form keeps its height for the game's own part.
        self.first = label("", "heading")
        self.first.setObjectName("new:first")
        back = button("Back")
        back.clicked.connect(self.cancelled)
        self.start_button = button("Deal and start", "primary")
        self.start_button.setObjectName("new:start")
        self.start_button.setMinimumHeight(60)
        self.start_button.clicked.connect(self._start)
        row.addWidget(self.first, 1)
        row.addWidget(back)
        row.addWidget(self.start_button)
        outer.addLayout(row)
        self._show_rows()

    def reset(self, game: str, demo: bool) -> None:
        self.demo = demo
        self.info = info = game_info(game)
        # The title breaks between words, never at its hyphen ("Double-" / "Cross"), as on the shelf.
        title = info.title.replace("-", "\u2011")
        self.title.setText(f"{title} on the simulated table" if demo else f"New game: {title}")
        self.error.hide()
        self.phones.setChecked(False)
        self.form2.setRowVisible(self.phones, info.hidden_cards)   # nothing private to show on a phone
        low, high = info.players
        self.count.setRange(low, high)
        self.count.setValue(max(low, min(self.count.value(), high)))
        for _, box in self.option_boxes:
            self.form2.removeRow(box)
        self.option_boxes = []
        for option in info.options:
            box = QComboBox()
            box.setObjectName(f"new:option:{option.id}")
            for value, text in zip(option.choices, option.labels):
                box.addItem(text, value)
            box.setCurrentIndex(option.choices.index(option.default))
            self.form2.addRow(f"{option.label}:", box)
            self.option_boxes.append((option.id, box))
        if self.choices is not None:
            self.choices.hide()
            self.choices.deleteLater()
        self.choices = table_class(game).new_game_choices()
        if self.choices is not None:
            self.choices.setObjectName("new:choices")
            self.choices_place.addWidget(self.choices)
            self.choices.changed.connect(self._show_warning)
        if demo and not any(n.text() for n in self.names):
            for edit, name, age in zip(self.names, ("Julie", "Amberley", "Mark"), (8, 10, 12)):
                edit.setText(name)
            for spin, age in zip(self.ages, (8, 10, 12)):
                spin.setValue(age)
        self._update_first()         # the game's own rule of who starts (and its part of the form)
        self.names[0].setFocus()

    def _show_rows(self) -> None:
        n = self.count.value()
        for i in range(MAX_PLAYERS):
            for w in (self.names[i], self.ages[i], self.row_labels[i]):
                w.setVisible(i < n)
        self._update_first()

    def players(self) -> tuple[list[str], dict[str, int]]:
        n = self.count.value()
        names = [self.names[i].text().strip() for i in range(n)]
        ages = {names[i]: self.ages[i].value() for i in range(n) if names[i]}
        return names, ages

    def _update_first(self) -> None:
        self._update_choices()
        names, ages = self.players()
        named = [x for x in names if x]
        # Who starts is the game's own rule (its shelf file's ``first``): the youngest, the first
        # written, or a rule of the game itself that the app applies once it has begun.
        words = self.info.first if self.info is not None else GameInfo.first
        if not named and ("{youngest}" in words or "{first}" in words):
            self.first.setText("")
            return
        youngest = min(named, key=lambda p: (ages[p], names.index(p))) if named else ""
        self.first.setText(words.format(youngest=youngest, first=named[0] if named else ""))

    def _update_choices(self) -> None:
        if self.choices is not None:
            self.choices.set_players([n for n in self.players()[0]])
        self._show_warning()

    def _show_warning(self) -> None:
        text = self.choices.warning() if self.choices is not None else None
        self.warning.setText(text or "")
        self.warning.setVisible(bool(text))

    def _start(self) -> None:
        names, ages = self.players()
        if not all(names):
            self.error.setText("Every player needs a name.")
            self.error.show()
            return
        for i, name in enumerate(names, 1):
            problem = name_problem(name)
            if problem:
                self.show_error(f"Player {i}'s name cannot be used: {problem}.")
                return
        problem = self.choices.problem() if self.choices is not None else None
        if problem:
            self.show_error(problem)
            return
        self.error.hide()
        options = {key: box.currentData() for key, box in self.option_boxes}
        if self.choices is not None:
            options.update(self.choices.options())
        assert self.info is not None
        self.start_requested.emit(self.info.id, names, ages, self.assist.currentData(), options, self.demo)

    def show_error(self, text: str) -> None:
        self.error.setText(text)
        self.error.show()
