"""The end of a game: the verdict, then the story (where every card was, who knew what, since when).

Everything here names private looks, so it is shown only once the game is over. Cards that
nobody ever saw can be flipped in front of the camera (or picked) to complete the picture.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QListWidget, QTabWidget, QVBoxLayout, QWidget

from engine.story import Story, tell

from .games import GameController
from .private import journal_table
from .widgets import button, label, literal


def score_line(scores: tuple[tuple[str, int], ...]) -> str:
    """The final scores in one line, highest first.

    >>> score_line((("Bob", 48), ("Ann", 31), ("Cy", 1)))
    'Final score: Bob 48 points, Ann 31 points, Cy 1 point.'
    >>> score_line(())
    ''
    """
    if not scores:
        return ""
    return "Final score: " + ", ".join(f"{p} {n} point{'' if abs(n) == 1 else 's'}" for p, n in scores) + "."


class EndScreen(QWidget):
    back_requested = Signal()
    leave_requested = Signal()
    #: [(field, place)] of the cards still unknown, to be flipped now
    reveal_requested = Signal(list)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.story: Story | None = None
        outer = QVBoxLayout(self)
        outer.setContentsMargins(16, 8, 16, 8)
        outer.addWidget(label("Game over", "title"))
        self.verdict = label("", "banner")
        self.verdict.setObjectName("end:verdict")
        outer.addWidget(self.verdict)
        # The final score, in the game's own points, for a game that keeps one (hidden otherwise).
        self.scores = label("", "heading")
        self.scores.setObjectName("end:scores")
        outer.addWidget(self.scores)
        row = QHBoxLayout()
        self.unknown = label("")
        self.unknown.setObjectName("end:unknown")
        row.addWidget(self.unknown, 1)
        self.reveal_button = button("Flip them now", "primary")
        self.reveal_button.setObjectName("end:reveal")
        self.reveal_button.clicked.connect(self._reveal)
        row.addWidget(self.reveal_button)
        outer.addLayout(row)
        self.tabs = QTabWidget()
        self.tabs.setObjectName("end:tabs")
        outer.addWidget(self.tabs, 1)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        back = button("Back to the table")
        back.setObjectName("end:back")
        back.clicked.connect(self.back_requested)
        leave = button("Back to the start screen", "primary")
        leave.setObjectName("end:leave")
        leave.clicked.connect(self.leave_requested)
        buttons.addWidget(back)
        buttons.addWidget(leave)
        outer.addLayout(buttons)

    def show_game(self, controller: GameController) -> None:
        self.story = story = tell(controller.session, controller.revealed)
        winners = ", ".join(story.winners)
        self.verdict.setText(story.verdict + (f" Winner: {winners}." if winners and winners not in story.verdict else ""))
        self.scores.setText(score_line(story.scores))
        self.scores.setVisible(bool(story.scores))
        n = len(story.unknown_places)
        self.unknown.setText(f"{n} card{'s' if n != 1 else ''} on the table nobody ever saw. Flip them one by "
                             f"one to complete the story." if n else "Every card on the table has been seen.")
        self.reveal_button.setText("Flip the first one" if n and not controller.revealed else "Flip the next one")
        self.reveal_button.setVisible(bool(n))
        while self.tabs.count():
            page = self.tabs.widget(0)
            self.tabs.removeTab(0)
            page.deleteLater()
        cards = journal_table(["Card", "Where it ended", "Known by"],
                              [[f.name, f.place, ", ".join(f.known_by) or "nobody"] for f in story.cards])
        cards.setObjectName("end:cards")
        self.tabs.addTab(cards, "Every card")
        for player, learned in story.timelines.items():
            rows = [[f"move {item.move}", item.name, item.where] for item in learned]
            table = journal_table(["When", "Learned", "Where it lay"], rows or [["", "nothing", ""]])
            table.setObjectName(f"end:timeline:{player}")
            self.tabs.addTab(table, literal(f"{player} knew"))
        conclusions = QWidget()
        layout = QVBoxLayout(conclusions)
        for player, deductions in story.conclusions.items():
            layout.addWidget(label(f"{player}'s journal concluded:", "heading"))
            items = QListWidget()
            items.setObjectName(f"end:concluded:{player}")
            items.setWordWrap(True)
            for d in deductions:
                items.addItem(f"{d.text} \u2014 {d.reason}")
            if not deductions:
                items.addItem("Nothing beyond the notes.")
            layout.addWidget(items)
        self.tabs.addTab(conclusions, "Journals concluded")

    def _reveal(self) -> None:
        if self.story is not None and self.story.unknown_places:
            self.reveal_requested.emit([("card", self.story.unknown_places[0])])

