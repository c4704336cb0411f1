"""Learn your box: the small form for one printed value, laid out like the card or board it is on,
and the shelf screen where a family reviews and corrects their whole box file.

The questions and the checks are the engine's (``engine/games/sudds_malone/box.py``): the form only
shows a :class:`Question`'s fields and hands the answer back; a refused answer is shown in words.
"""

from __future__ import annotations

from typing import Any, Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QCheckBox, QComboBox, QGridLayout, QGroupBox, QHBoxLayout, QLineEdit, QListWidget,
                               QListWidgetItem, QSpinBox, QVBoxLayout, QWidget)

from engine.games.sudds_malone.box import BoxError, Question, load_box, parse_reward, save_answer

from ...widgets import button, label

# Where each field sits on the physical thing (frame title -> rows of field names).
LAYOUTS: dict[str, list[tuple[str, list[list[str]]]]] = {
    "flimflam": [("Face of the card", [["cost", "reward"], ["tabs", "cat"]]),
                 ("Back of the card", [["back"], ["cover"]])],
    "case": [("Top of the card", [["cost", "points"], ["cash", "tabs"]]), ("Bottom strip", [["bottom"]])],
    "hunch": [("Hunch card", [["mole", "rat"], ["frog", "players"]])],
    "track": [("Player board column", [["cost", "allowance"], ["reward"]])],
    "calendar": [("Calendar day", [["reward"]])],
    "snitches": [("Snitch tokens", [["evidence", "tab"]])],
    "map": [("The board's map", [["neighbours"]])],
    "count": [("Case deck", [["cases_in_play"]])],
}
# Read from across the table too (issue 23): nothing under 15 px.
SMALL = ('QLabel[role="sm"] { font-size: 16px; } QLabel[role="xs"] { font-size: 15px; } '
         'QLabel[role="smhead"] { font-size: 19px; font-weight: bold; }')


REWARD_WORDS = {"bonus": "a bonus action", "snitch": "a snitch", "fedora": "a fedora", "peek": "a peek",
                "case": "a Case card", "news": "Read the News", "cash_or_points": "$1 or 2 points",
                "evidence": "an evidence of your choice"}


def reward_words(parts) -> str:
    out = []
    for part in parts:
        name, _, n = part.partition(":")
        if name == "points":
            out.append(f"{n} point{'s' if n != '1' else ''}")
        elif name == "cash":
            out.append(f"${n}")
        elif name == "bullets":
            out.append(f"{n} bullet{'s' if n != '1' else ''}")
        else:
            out.append(REWARD_WORDS.get(part, part))
    return " + ".join(out) or "nothing"


def _words(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value) or "(none)"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def reading_words(values: dict[str, Any], names: dict[str, str] | None = None) -> str:
    """A value's current reading in words (location ids by their names, when ``names`` has them)."""
    names = names or {}

    def named(v: Any) -> Any:
        if isinstance(v, (list, tuple)):
            return [names.get(x, x) if isinstance(x, str) else x for x in v]
        return names.get(v, v) if isinstance(v, str) else v

    def say(k: str, v: Any) -> str:
        if k == "reward" and isinstance(v, str) and v:
            try:
                return reward_words(parse_reward(v))
            except ValueError:
                pass                        # a value not yet checked: shown as it is written
        return _words(named(v))

    return "; ".join(f"{k.replace('_', ' ')} {say(k, v)}" for k, v in values.items())


class BoxForm(QWidget):
    """One question: its fields where they sit on the card; ``save(answer)`` returns an error or None."""

    def __init__(self, question: Question, save: Callable[[dict], str | None], *, later: Callable[[], None] | None = None,
                 names: dict[str, str] | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("box:form")
        self.setStyleSheet(SMALL)
        self.question = question
        self._save = save
        self.names = names or {}
        self.inputs: dict[str, Callable[[], Any]] = {}
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(4)
        title = label(question.title, "smhead")
        title.setObjectName("box:title")
        outer.addWidget(title)
        outer.addWidget(label(question.help, "sm"))
        fields = {f.name: f for f in question.fields}
        kind = question.key.split(".")[0]
        frames = QHBoxLayout()
        placed: set[str] = set()
        for frame_title, rows in LAYOUTS.get(kind, [("", [[f.name for f in question.fields]])]):
            box = QGroupBox(frame_title)
            box.setStyleSheet("QGroupBox { background: #FFFFFF; border: 3px solid #444; border-radius: 12px; }")
            grid = QGridLayout(box)
            grid.setContentsMargins(8, 4, 8, 4)
            for r, row in enumerate(rows):
                for c, name in enumerate(n for n in row if n in fields):
                    grid.addWidget(self._field(fields[name]), r, c)
                    placed.add(name)
            frames.addWidget(box, 1)
        outer.addLayout(frames)
        for f in question.fields:           # a field the layout does not place (never, today)
            if f.name not in placed:
                outer.addWidget(self._field(f))
        buttons = QHBoxLayout()
        self.error = label("", "sm")
        self.error.setObjectName("box:error")
        buttons.addWidget(self.error, 1)
        if later is not None:
            b = button("Later", name="box:later")
            b.clicked.connect(lambda _=False: later())
            buttons.addWidget(b)
        ok = button("This is what our box says", "primary", name="box:save")
        ok.clicked.connect(self.submit)
        buttons.addWidget(ok)
        outer.addLayout(buttons)

    def _field(self, f) -> QWidget:
        cell = QWidget()
        lay = QVBoxLayout(cell)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(1)
        lay.addWidget(label(f.label, "sm"))
        name = f"box:field:{f.name}"
        if f.kind == "int":
            w = QSpinBox()
            w.setRange(-50, 100)
            w.setValue(int(f.current or 0))
            self.inputs[f.name] = w.value
        elif f.kind == "choice":
            w = QComboBox()
            for choice in f.choices:
                w.addItem(_words(choice), choice)
            if f.current in f.choices:
                w.setCurrentIndex(list(f.choices).index(f.current))
            self.inputs[f.name] = w.currentData
        elif f.kind == "list" and self.question.key.startswith("map."):
            w = QWidget()
            row = QGridLayout(w)
            row.setContentsMargins(0, 0, 0, 0)
            boxes = []
            for i, choice in enumerate(f.choices):
                check = QCheckBox(self.names.get(choice, str(choice)))
                check.setObjectName(f"box:check:{choice}")
                check.setChecked(choice in (f.current or ()))
                row.addWidget(check, i // 4, i % 4)
                boxes.append((choice, check))
            self.inputs[f.name] = lambda boxes=boxes: [c for c, check in boxes if check.isChecked()]
        elif f.kind == "list":
            w = QLineEdit(", ".join(str(v) for v in (f.current or ())))
            w.setToolTip("Words separated by commas: " + ", ".join(str(c) for c in f.choices))
            self.inputs[f.name] = lambda w=w: [p.strip() for p in w.text().split(",") if p.strip()]
        else:
            w = QLineEdit("" if f.current is None else str(f.current))
            self.inputs[f.name] = lambda w=w: w.text().strip()
        w.setObjectName(name)
        lay.addWidget(w)
        return cell

    def answer(self) -> dict[str, Any]:
        return {name: get() for name, get in self.inputs.items()}

    def submit(self) -> None:
        problem = self._save(self.answer())
        self.error.setText(problem or "Saved in your box file.")


class BoxReview(QWidget):
    """The shelf screen: every value of the family's box on one list; pick one to check or correct it."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        from engine.cards import load_game_deck
        self.setObjectName("box:review")
        self.setStyleSheet(SMALL)
        deck = load_game_deck("sudds-malone")
        self.card_ids = {k: tuple(c.key for c in deck.of_kind(k)) for k in ("flimflam", "case", "hunch")}
        self.form: BoxForm | None = None
        outer = QVBoxLayout(self)
        outer.addWidget(label("Your Sudds & Malone box: what the app uses for every printed value. "
                              "'rulebook' values are in the rulebook; 'our reading' values are a guess until you "
                              "check them against your box; 'family' values are yours.", "sm"))
        self.problem = label("", "sm")
        self.problem.setObjectName("box:problem")
        outer.addWidget(self.problem)
        row = QHBoxLayout()
        self.only = QComboBox()
        self.only.setObjectName("box:filter")
        self.only.addItem("Every value", "all")
        self.only.addItem("Not checked yet", "todo")
        self.only.currentIndexChanged.connect(self.reload)
        row.addWidget(label("Show:", "sm"))
        row.addWidget(self.only, 1)
        outer.addLayout(row)
        body = QHBoxLayout()
        self.rows = QListWidget()
        self.rows.setObjectName("box:rows")
        self.rows.setStyleSheet("font-size: 16px;")
        # Long values wrap: no sideways scrolling to read what a value is.
        self.rows.setWordWrap(True)
        self.rows.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        self.rows.currentItemChanged.connect(lambda item, _old: self.open_key(item.data(Qt.UserRole)) if item else None)
        body.addWidget(self.rows, 1)
        self.form_holder = QVBoxLayout()
        hint = label("Pick a value on the left to check it against your box, or to correct it. What you save "
                     "is kept in your Gumshoe folder and used from the next move on.", "sm")
        hint.setObjectName("box:hint")
        self.form_holder.addWidget(hint)
        self.form_holder.addStretch(1)
        body.addLayout(self.form_holder, 1)
        outer.addLayout(body, 1)
        self.reload()

    def reload(self) -> None:
        try:
            self.box = load_box(card_ids=self.card_ids)
            self.problem.setText("")
        except BoxError as exc:
            self.problem.setText(f"Your box file cannot be used: {exc}")
            self.box = load_box(card_ids=self.card_ids, user_file=None)
        keep = self.rows.currentItem().data(Qt.UserRole) if self.rows.currentItem() else None
        self.rows.blockSignals(True)
        self.rows.clear()
        todo = self.only.currentData() == "todo"
        for row in self.box.review():
            if todo and row.source != "our reading":
                continue
            item = QListWidgetItem(f"{row.title} \u2014 {reading_words(dict(row.values), dict(self.box.locations))} "
                                   f"({row.source})")
            item.setData(Qt.UserRole, row.key)
            self.rows.addItem(item)
            if row.key == keep:
                self.rows.setCurrentItem(item)
        self.rows.blockSignals(False)

    def open_key(self, key: str) -> None:
        while self.form_holder.count():
            w = self.form_holder.takeAt(0).widget()     # the hint and its stretch, or the last form
            if w is not None:
                w.hide()
                w.deleteLater()
        self.form = BoxForm(self.box.question(key), lambda answer, key=key: self._save(key, answer),
                            names=dict(self.box.locations))
        self.form_holder.addWidget(self.form)

    def _save(self, key: str, answer: dict) -> str | None:
        try:
            save_answer(self.box, key, answer)
        except BoxError as exc:
            return str(exc)
        self.reload()
        return None
