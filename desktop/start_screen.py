"""The start screen: resume a saved game, start a new one, print card tags, read the rules."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, QSettings, Qt, QThread, QUrl, Signal
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import (QCheckBox, QGroupBox, QHBoxLayout, QListWidget, QListWidgetItem, QProgressBar,
                               QScrollArea, QVBoxLayout, QWidget)

from engine.paths import user_dir

from .games import saved_games
from .widgets import button, label

RULES_SUMMARY = """\
<p><b>The goal.</b> Carmen Sandiego is hiding among the Henchman cards, and one Loot card with its
matching Location card is lying in the center of the table. Find both, then arrest her.</p>
<p><b>Your cards.</b> Everyone has face-down columns of Loot, Location and Henchman cards and never
turns them over except to look in secret or to make a warrant.</p>
<p><b>A turn.</b> Roll the die: it shows which type of card you may look at. Look at your own cards
of that type first; only when you have seen all of them may you look at someone else's.
Gumshoe keeps your notes for you in your private Evidence Journal.</p>
<p><b>A warrant</b> (at the start or the end of your turn): flip a Loot and a Location you believe
belong together, from anyone's columns. If they match, flip a Henchman you know is not Carmen;
all three leave the game and you may swap one of your cards with the center card of the same
type, without looking. If they do not match, the gumshoe on your left may swap a Loot or Location
with the center, and your turn ends. Flip Carmen by mistake and she escapes: everyone loses.</p>
<p><b>Winning.</b> When you know the center Loot and Location match and where Carmen is, call the
warrant for Carmen's arrest. Flip the center pair, then the Henchman you think is Carmen. Right:
you win. Wrong Henchman: you are out of the game. The last gumshoe standing also wins.</p>
<p>Gumshoe is only the referee and the note-keeper: you still play with your real cards and die.</p>
"""


class TagPrinter(QObject):
    """Draws the sticker sheets off the GUI thread (a few seconds of image work)."""

    progress = Signal(int, int)
    finished = Signal(str, str)     # (pdf path or "", error message or "")

    def __init__(self, output: Path) -> None:
        super().__init__()
        self.output = output

    def run(self) -> None:
        try:
            from vision.sheets import print_tags
            result = print_tags("carmen", self.output, progress=lambda done, total: self.progress.emit(done, total))
        except Exception as exc:        # any failure must reach the screen, not kill the thread silently
            self.finished.emit("", f"The tag sheets could not be made: {exc}")
            return
        self.finished.emit(str(result.path), "")


class StartScreen(QWidget):
    resume_requested = Signal(Path)
    new_game_requested = Signal()
    demo_requested = Signal()
    test_die_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._thread: QThread | None = None
        self._printer: TagPrinter | None = None
        self.pdf_path: str | None = None
        outer = QVBoxLayout(self)
        outer.setContentsMargins(24, 16, 24, 16)
        outer.addWidget(label("Gumshoe", "title"))
        outer.addWidget(label("Referee and Evidence Journal for the Carmen Sandiego card game"))
        body = QHBoxLayout()
        outer.addLayout(body, 1)

        left = QVBoxLayout()
        body.addLayout(left, 1)
        play = QGroupBox("Play")
        p = QVBoxLayout(play)
        self.new_button = button("New game", "primary", name="start:new", big=True)
        self.new_button.clicked.connect(self.new_game_requested)
        p.addWidget(self.new_button)
        self.demo_button = button("Try it with the simulated table (no cards or camera needed)")
        self.demo_button.setObjectName("start:demo")
        self.demo_button.clicked.connect(self.demo_requested)
        p.addWidget(self.demo_button)
        left.addWidget(play)

        resume = QGroupBox("Resume a game")
        r = QVBoxLayout(resume)
        # After a crash or a power cut the newest game is unfinished: say so and offer it first.
        self.last_game = label("", "banner")
        self.last_game.setObjectName("start:last-game")
        self.last_game.hide()
        r.addWidget(self.last_game)
        self.saved = QListWidget()
        self.saved.setObjectName("start:saved")
        self.saved.setWordWrap(True)          # a long line wraps instead of hiding behind a scroll bar
        self.saved.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        self.saved.itemActivated.connect(self._resume_item)
        r.addWidget(self.saved, 1)
        self.resume_button = button("Resume the selected game")
        self.resume_button.setObjectName("start:resume")
        self.resume_button.clicked.connect(lambda: self._resume_item(self.saved.currentItem()))
        r.addWidget(self.resume_button)
        left.addWidget(resume, 1)

        tags = QGroupBox("Card tags")
        t = QVBoxLayout(tags)
        t.addWidget(label("Print the stickers once, stick one on the face of each card, and the camera "
                          "can read your cards."))
        row = QHBoxLayout()
        self.print_button = button("Make the tag sheets (PDF)")
        self.print_button.setObjectName("start:print")
        self.print_button.clicked.connect(self.print_tags)
        self.open_pdf_button = button("Open the PDF")
        self.open_pdf_button.setObjectName("start:open-pdf")
        self.open_pdf_button.clicked.connect(self.open_pdf)
        self.open_pdf_button.hide()
        row.addWidget(self.print_button)
        row.addWidget(self.open_pdf_button)
        t.addLayout(row)
        self.print_progress = QProgressBar()
        self.print_progress.hide()
        t.addWidget(self.print_progress)
        self.print_status = label("")
        self.print_status.setObjectName("start:print-status")
        t.addWidget(self.print_status)
        left.addWidget(tags)

        self.sound = QCheckBox("Sounds (a card read, verdicts, the end of the game)")
        self.sound.setObjectName("start:sound")
        # Kept in the family's own folder beside the saved games, so it survives a restart.
        self.settings = QSettings(str(user_dir() / "settings.ini"), QSettings.IniFormat)
        self.sound.setChecked(self.settings.value("sound", True, type=bool))
        self.sound.toggled.connect(lambda on: self.settings.setValue("sound", on))
        left.addWidget(self.sound)
        self.test_die_button = button("Test your die reader…")
        self.test_die_button.setObjectName("start:test-die")
        self.test_die_button.setToolTip("Roll the USB die reader a few times and see what each roll shows")
        self.test_die_button.clicked.connect(self.test_die_requested)
        left.addWidget(self.test_die_button)

        rules = QGroupBox("How to play, in short")
        rl = QVBoxLayout(rules)
        text = label(RULES_SUMMARY)
        text.setObjectName("start:rules")
        text.setTextFormat(Qt.RichText)
        text.setAlignment(Qt.AlignTop | Qt.AlignLeft)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(text)
        rl.addWidget(scroll)
        body.addWidget(rules, 1)
        self.refresh()

    def refresh(self) -> None:
        self.saved.clear()
        games = saved_games()
        for game in games:
            if game.problem:
                text = f"{game.path.name}: cannot be opened ({game.problem})"
            else:
                moves = f" \u2014 {game.moves} moves" if game.moves is not None else ""
                text = f"{game.title} \u2014 {game.when}{moves} \u2014 {game.state}"
            item = QListWidgetItem(text)
            item.setData(Qt.UserRole, str(game.path))
            if game.problem:
                item.setFlags(item.flags() & ~Qt.ItemIsEnabled)
            self.saved.addItem(item)
        if not games:
            item = QListWidgetItem("No saved games yet.")
            item.setFlags(Qt.NoItemFlags)
            self.saved.addItem(item)
        self.resume_button.setEnabled(any(not g.problem for g in games))
        newest = games[0] if games else None
        if newest is not None and not newest.problem and not newest.finished:
            self.last_game.setText(f"Your last game ({newest.title}) was not finished: {newest.state}. "
                                   f"Resume it where it stopped?")
            self.last_game.show()
            self.saved.setCurrentRow(0)
            self.resume_button.setText("Resume the last game")
            self.resume_button.setProperty("role", "primary")
        else:
            self.last_game.hide()
            self.resume_button.setText("Resume the selected game")
            self.resume_button.setProperty("role", "")
        self.resume_button.style().unpolish(self.resume_button)
        self.resume_button.style().polish(self.resume_button)

    def _resume_item(self, item: QListWidgetItem | None) -> None:
        if item is not None and item.data(Qt.UserRole):
            self.resume_requested.emit(Path(item.data(Qt.UserRole)))

    # --- tag sheets ----------------------------------------------------------------
    def print_tags(self) -> None:
        if self._thread is not None:
            return
        output = user_dir() / "tags" / "carmen-tags.pdf"
        self.print_button.setEnabled(False)
        self.print_progress.show()
        self.print_progress.setValue(0)
        self.print_status.setText("Drawing the stickers\u2026")
        self._thread = QThread(self)
        self._printer = TagPrinter(output)
        self._printer.moveToThread(self._thread)
        self._thread.started.connect(self._printer.run)
        self._printer.progress.connect(self._show_progress)
        self._printer.finished.connect(self._printed)
        self._thread.start()

    def _show_progress(self, done: int, total: int) -> None:
        self.print_progress.setMaximum(total)
        self.print_progress.setValue(done)

    def _printed(self, path: str, error: str) -> None:
        assert self._thread is not None
        self._thread.quit()
        self._thread.wait()
        self._thread = self._printer = None
        self.print_button.setEnabled(True)
        self.print_progress.hide()
        if error:
            self.print_status.setText(error)
            return
        self.pdf_path = path
        self.print_status.setText(f"Saved: {path}\nPrint at 100% (no \u201cfit to page\u201d) and check the ruler.")
        self.open_pdf_button.show()

    def open_pdf(self) -> None:
        if self.pdf_path:
            QDesktopServices.openUrl(QUrl.fromLocalFile(self.pdf_path))
