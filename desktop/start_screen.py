"""The start screen: resume a saved game, start a new one, print card tags, read the rules."""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QObject, QSettings, Qt, QThread, QTimer, QUrl, Signal
from PySide6.QtGui import QDesktopServices, QGuiApplication
from PySide6.QtWidgets import (QCheckBox, QDialog, QFrame, QGroupBox, QHBoxLayout, QListWidget,
                               QListWidgetItem, QProgressBar, QPushButton, QScrollArea, QSizePolicy,
                               QVBoxLayout, QWidget)

from engine.games import game_info
from engine.paths import user_dir
from engine.store import StoreError

from .drawn.emblem import EMBLEM_ROLE, Emblem, EmblemDelegate, EmblemView, WrappedItemDelegate, game_emblem
from .drawn.motion import set_less_motion
from .games import SUFFIX, SavedGame, games_dir, move_to_bin, restore_from_bin, saved_games
from .table_base import ShelfScreen
from .tables import installed_games, table_class
from .widgets import button, label, literal, plain_tip


def family_settings() -> QSettings:
    """The family's settings (sounds, read aloud, less motion, the window's place and size), kept in
    their own folder beside the saved games, so they survive a restart."""
    return QSettings(str(user_dir() / "settings.ini"), QSettings.IniFormat)


#: the settings' group that names each game open for play in a window (see :func:`mark_playing`)
PLAYING = "playing"
#: how often the saved games are looked at while the start screen is shown (a game closed in
#: another window, a file copied in), in milliseconds: one listing of a folder, nothing read
WATCH_MS = 2000


def mark_playing(path: Path) -> None:
    """A window opened this game to play on it. The mark is taken off when the game is closed;
    a mark still there when Gumshoe starts means Gumshoe stopped while the game was being played
    (a crash, a power cut): that game is offered first, even to ``--demo``."""
    settings = family_settings()
    settings.setValue(f"{PLAYING}/{path.name}", str(path))
    settings.sync()                      # now: a crash in the next second must find it


def unmark_playing(path: Path) -> None:
    settings = family_settings()
    settings.remove(f"{PLAYING}/{path.name}")
    settings.sync()


def keep_widest(b: QPushButton, texts: list[str]) -> int:
    """Make a button as wide as the widest of ``texts`` (it shows one at a time), so its column
    keeps its width whichever it shows; returns that width."""
    b.ensurePolished()                   # the style sheet's padding counts
    widest = 0
    for text in texts:
        b.setText(literal(text))
        widest = max(widest, b.sizeHint().width())
    b.setMinimumWidth(widest)
    return widest


def _newest_first(game: SavedGame) -> float:
    """When a saved game was last played: its last move (a game's moves may wait in the file's
    journal after a crash, so the file's own time can be older), else the file's time."""
    if game.updated is not None:
        return game.updated.timestamp()
    try:
        return game.path.stat().st_mtime
    except OSError:
        return 0.0


def _folder_signature() -> tuple:
    """What changes in the games' folder when a game is made, moved to the bin, or closed in another
    window (its file is written and its journal removed): names, times and sizes only."""
    try:
        entries = list(os.scandir(games_dir()))
    except OSError:
        return ()
    seen = []
    for entry in entries:
        try:
            if entry.name.endswith(SUFFIX):
                stat = entry.stat()
                seen.append((entry.name, stat.st_mtime_ns, stat.st_size))
            elif entry.name.endswith(SUFFIX + "-wal"):
                seen.append((entry.name,))
        except OSError:
            continue
    return tuple(sorted(seen))


#: the Resume button's words for a game that can only be looked at, and for a game of a kind not installed
LOOK = "Look at it (read-only)"
UNKNOWN_KIND = "the saved game chosen above"
TAGS_NOTE = "Print them once and stick one on the face of each card: the camera reads it."

#: the side of a game's emblem on the shelf (smallest, largest) and beside the chosen game's facts, in pixels
SHELF_EMBLEM = (52, 72)
CHOSEN_EMBLEM = 44


class ShelfScreenWindow(QDialog):
    """A game's own screen (``GameTable.shelf_screens``) in a window over the start screen."""

    def __init__(self, screen: ShelfScreen, title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName(f"screen:{screen.name}")
        self.setWindowTitle(title)          # the game's and the screen's names: never a player's
        layout = QVBoxLayout(self)
        self.body = screen.make()
        layout.addWidget(self.body, 1)
        row = QHBoxLayout()
        row.addStretch(1)
        close = button("Close", name="screen:close")
        close.clicked.connect(self.accept)
        row.addWidget(close)
        layout.addLayout(row)
        if parent is not None:
            self.resize(parent.window().size())

class TagPrinter(QObject):
    """Draws the sticker sheets off the GUI thread (a few seconds of image work)."""

    progress = Signal(int, int)
    finished = Signal(str, str)     # (pdf path or "", error message or "")

    def __init__(self, game: str, output: Path) -> None:
        super().__init__()
        self.game = game
        self.output = output

    def run(self) -> None:
        try:
            from vision.sheets import print_tags
            result = print_tags(self.game, self.output, progress=lambda done, total: self.progress.emit(done, total))
        except Exception as exc:        # any failure must reach the screen, not kill the thread silently
            self.finished.emit("", f"The tag sheets could not be made: {exc}")
            return
        self.finished.emit(str(result.path), "")


class StartScreen(QWidget):
    """The game shelf (from the engine's registry), the saved games, tag sheets and settings."""

    #: a saved game, and whether it can only be looked at (read-only)
    resume_requested = Signal(Path, bool)
    #: a game id
    new_game_requested = Signal(str)
    demo_requested = Signal(str)
    test_die_requested = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._thread: QThread | None = None
        self._printer: TagPrinter | None = None
        self.pdf_path: str | None = None
        self._has_die_reader = False
        self.games = installed_games()
        outer = QVBoxLayout(self)
        outer.setContentsMargins(16, 8, 16, 8)
        outer.setSpacing(6)
        head = QHBoxLayout()
        head.addWidget(label("Gumshoe", "title", wrap=False))
        sub = label("The referee and Evidence Journal for your detective card and board games: "
                    "you still play with your real cards and dice.")
        head.addWidget(sub, 1)
        outer.addLayout(head)
        self.problem = label("", "error")
        self.problem.setObjectName("start:problem")
        self.problem.hide()
        outer.addWidget(self.problem)
        body = QHBoxLayout()
        outer.addLayout(body, 1)

        # --- the shelf and the chosen game ---
        shelf_box = QGroupBox("Choose a game")
        shelf_layout = QVBoxLayout(shelf_box)
        self.shelf = QListWidget()
        self.shelf.setObjectName("start:shelf")
        self.shelf.setWordWrap(True)
        self.shelf.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        # Each game beside its emblem (our own drawing on a tile in the game's colour).
        self.shelf.setItemDelegate(EmblemDelegate(self.shelf, *SHELF_EMBLEM))
        self.emblems: dict[str, Emblem] = {}
        for game in self.games:
            info = game_info(game)
            self.emblems[game] = game_emblem(game, info.title)
            # A title breaks between words, never at its hyphen ("Double-" / "Cross").
            title = info.title.replace("-", "\u2011")
            item = QListWidgetItem(f"{title}\n{info.player_words}, ages {info.ages}")
            item.setData(Qt.UserRole, game)
            item.setData(EMBLEM_ROLE, self.emblems[game])
            self.shelf.addItem(item)
        self.shelf.currentItemChanged.connect(lambda *_: self._show_game())
        self.shelf.itemActivated.connect(lambda _item: self.new_game_requested.emit(self.game()))
        shelf_layout.addWidget(self.shelf, 1)
        self.new_button = button("New game", "primary", name="start:new", big=True)
        self.new_button.clicked.connect(lambda: self.new_game_requested.emit(self.game()))
        shelf_layout.addWidget(self.new_button)
        self.demo_button = button("Try it on the simulated table")
        self.demo_button.setObjectName("start:demo")
        self.demo_button.setToolTip("No cards or camera needed: the app plays the cards for you")
        self.demo_button.clicked.connect(lambda: self.demo_requested.emit(self.game()))
        shelf_layout.addWidget(self.demo_button)
        self.screen_window: ShelfScreenWindow | None = None
        body.addWidget(shelf_box, 3)

        about = QGroupBox("How to play, in short")
        about_layout = QVBoxLayout(about)
        self.game_title = label("", "heading")
        self.game_title.setObjectName("start:game-name")
        about_layout.addWidget(self.game_title)
        # The chosen game's emblem beside its facts (the short line): the name keeps the width.
        facts = QHBoxLayout()
        self.game_emblem = EmblemView(CHOSEN_EMBLEM)
        self.game_emblem.setObjectName("start:emblem")
        facts.addWidget(self.game_emblem, 0, Qt.AlignVCenter)
        self.game_facts = label("")
        self.game_facts.setObjectName("start:game-title")
        facts.addWidget(self.game_facts, 1)
        about_layout.addLayout(facts)
        self.pitch = label("")
        self.pitch.setObjectName("start:pitch")
        about_layout.addWidget(self.pitch)
        self.rules = label("")
        self.rules.setObjectName("start:rules")
        # The rules in short in the screen's own type size, smaller type read badly from a
        # sofa (issue 23); a long game's rules scroll instead.
        self.rules.setStyleSheet("QLabel { padding-right: 6px; }")
        self.rules.setAlignment(Qt.AlignTop | Qt.AlignLeft)
        # The only scroll area on this screen: a game's rules in short may be longer than a
        # small laptop's column (never a scroll bar inside another).
        rules_scroll = QScrollArea()
        rules_scroll.setWidgetResizable(True)
        rules_scroll.setFrameShape(QFrame.NoFrame)
        rules_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        rules_scroll.setWidget(self.rules)
        about_layout.addWidget(rules_scroll, 1)
        # The chosen game's own screens (a card library, the box's printed values), under its rules
        # in short: the shelf's buttons (New game, the simulated table) never move when another
        # game is chosen, and a game's own buttons are always at the same place, under its rules.
        self.own_screens: list[tuple[QPushButton, list]] = []
        every = [table_class(game).shelf_screens() for game in self.games]
        for i in range(max(map(len, every), default=0)):
            slot = button("", name=f"start:screen-place:{i}")
            # As wide as the longest name it can show: the columns keep their widths too.
            widest = keep_widest(slot, [screens[i].label for screens in every if i < len(screens)])
            rules_scroll.setMinimumWidth(max(rules_scroll.minimumWidth(), widest))   # shown or not
            shown: list = [None]            # the screen this place opens for the chosen game
            slot.clicked.connect(lambda _=False, shown=shown: shown[0] is not None and self.open_screen(shown[0]))
            # Its room is kept when the chosen game has fewer screens: a place never moves.
            policy = slot.sizePolicy()
            policy.setRetainSizeWhenHidden(True)
            slot.setSizePolicy(policy)
            slot.hide()
            about_layout.addWidget(slot)
            self.own_screens.append((slot, shown))
        body.addWidget(about, 4)

        # --- saved games, tags, settings ---
        right = QVBoxLayout()
        body.addLayout(right, 5)
        resume = QGroupBox("Saved games")
        r = QVBoxLayout(resume)
        # After a crash or a power cut the newest game is unfinished: say so and offer it first.
        self.last_game = label("", "banner")
        self.last_game.setObjectName("start:last-game")
        self.last_game.hide()
        r.addWidget(self.last_game)
        self._offered: Path | None = None      # the game the banner offers
        self._crashed = False                   # ... because Gumshoe stopped while it was played
        self._any_problem = False               # a game listed that cannot be opened (or is open elsewhere)
        self._stopped: list[Path] = []          # games Gumshoe stopped in, until the family chooses what to play
        for chosen in (self.resume_requested, self.new_game_requested, self.demo_requested):
            chosen.connect(self._crash_answered)
        self.saved = QListWidget()
        self.saved.setObjectName("start:saved")
        self.saved.setWordWrap(True)          # a long line wraps instead of hiding behind a scroll bar
        self.saved.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        self.saved.setItemDelegate(WrappedItemDelegate(self.saved))    # every line of a long entry shows
        self.saved.itemActivated.connect(self._resume_item)
        self.saved.currentItemChanged.connect(lambda *_: self._saved_buttons())
        r.addWidget(self.saved, 1)
        # Resume names the kind of game it resumes: the saved game chosen here, whatever game is
        # chosen on the shelf (the shelf's buttons start new games). Always two lines, so the
        # buttons under it never move.
        self.resume_button = button("")
        self.resume_button.setObjectName("start:resume")
        lines = 2 * self.resume_button.fontMetrics().lineSpacing()
        self.resume_button.setStyleSheet(f"QPushButton {{ min-height: {lines}px; }}")
        # As wide as its widest words, so choosing another saved game moves no column.
        keep_widest(self.resume_button, [f"{LOOK}:\n{kind}" for kind in
                                         [game_info(game).title for game in self.games] + [UNKNOWN_KIND]])
        self.resume_button.clicked.connect(lambda: self._resume_item(self.saved.currentItem()))
        r.addWidget(self.resume_button)
        row = QHBoxLayout()
        self.delete_button = button("Move to the bin")
        self.delete_button.setObjectName("start:delete")
        self.delete_button.clicked.connect(self.delete_selected)
        self.undelete_button = button("Undo")
        self.undelete_button.setObjectName("start:undelete")
        self.undelete_button.setToolTip("Take the last game back out of the bin")
        self.undelete_button.clicked.connect(self.undelete)
        keep = self.undelete_button.sizePolicy()
        keep.setRetainSizeWhenHidden(True)
        self.undelete_button.setSizePolicy(keep)
        self.undelete_button.hide()
        row.addWidget(self.delete_button)
        row.addWidget(self.undelete_button)
        row.addStretch(1)
        r.addLayout(row)
        # A game closed in another window, or moved in or out of the folder, shows as it is now.
        self._signature: tuple = ()
        self._watch = QTimer(self)
        self._watch.setInterval(WATCH_MS)
        self._watch.timeout.connect(self._look_again)
        app = QGuiApplication.instance()
        if app is not None:
            app.applicationStateChanged.connect(self._activated)
        right.addWidget(resume, 1)
        self._binned: list[tuple[Path, Path]] = []      # (where it was, where it is now)

        tags = QGroupBox("Card tags")
        t = QVBoxLayout(tags)
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
        # What the sheets are for, then (in the same place, so the column fits a 1366x768 screen)
        # how the drawing goes and where the PDF is.
        self.print_status = label(TAGS_NOTE)
        self.print_status.setObjectName("start:print-status")
        t.addWidget(self.print_status)
        right.addWidget(tags)

        settings_row = QHBoxLayout()
        self.sound = QCheckBox("Sounds")
        self.sound.setObjectName("start:sound")
        self.sound.setToolTip("A tick for a card read, the verdicts, the end of the game")
        # Kept in the family's own folder beside the saved games, so it survives a restart.
        self.settings = family_settings()
        self.sound.setChecked(self.settings.value("sound", True, type=bool))
        self.sound.toggled.connect(lambda on: self.settings.setValue("sound", on))
        settings_row.addWidget(self.sound)
        self.read_aloud = QCheckBox("Read aloud")
        self.read_aloud.setObjectName("start:read-aloud")
        self.read_aloud.setToolTip("The computer's voice reads what the table is asked (questions, whose turn)")
        self.read_aloud.setChecked(self.settings.value("read_aloud", False, type=bool))
        self.read_aloud.toggled.connect(lambda on: self.settings.setValue("read_aloud", on))
        settings_row.addWidget(self.read_aloud)
        self.less_motion = QCheckBox("Less motion")
        self.less_motion.setObjectName("start:less-motion")
        self.less_motion.setToolTip("Cards, dice and pieces jump to where they go instead of moving there")
        self.less_motion.setChecked(self.settings.value("less_motion", False, type=bool))
        set_less_motion(self.less_motion.isChecked())
        self.less_motion.toggled.connect(self._set_less_motion)
        settings_row.addWidget(self.less_motion)
        self.test_die_button = button("Test your die reader\u2026")
        self.test_die_button.setObjectName("start:test-die")
        self.test_die_button.setToolTip("Roll the USB die reader a few times and see what each roll shows")
        self.test_die_button.clicked.connect(lambda: self.test_die_requested.emit(self.game()))
        right.addLayout(settings_row)
        right.addWidget(self.test_die_button)
        if self.games:
            self.shelf.setCurrentRow(0)
        self.refresh()

    def _set_less_motion(self, on: bool) -> None:
        self.settings.setValue("less_motion", on)
        set_less_motion(on)

    # --- the shelf -----------------------------------------------------------------------
    def game(self) -> str:
        item = self.shelf.currentItem()
        return item.data(Qt.UserRole) if item is not None else self.first_game()

    def first_game(self) -> str:
        return self.games[0]

    def select_game(self, game: str) -> None:
        self.shelf.setCurrentRow(self.games.index(game))

    def focus_first(self) -> None:
        # isHidden, not isVisible: the start screen is drawn before the window first shows.
        if not self.last_game.isHidden():
            self.resume_button.setFocus()
        else:
            self.new_button.setFocus()

    def set_die_reader(self, present: bool) -> None:
        self._has_die_reader = present
        self._show_game()

    def show_problem(self, text: str) -> None:
        self.problem.setText(text)
        self.problem.show()

    def _show_game(self) -> None:
        if not self.games:
            return
        info = game_info(self.game())
        self.game_emblem.set_emblem(self.emblems[self.game()])
        self.game_title.setText(info.title)
        self.game_facts.setText(f"{info.player_words}, ages {info.ages}, about {info.minutes} minutes")
        self.pitch.setText(info.pitch)
        self.rules.setText("\n".join(f"\u2022 {step}" for step in info.how_to_play))
        self.test_die_button.setEnabled(self._has_die_reader and info.uses_die)
        self.print_status.setText(TAGS_NOTE)
        self.open_pdf_button.hide()
        screens = table_class(self.game()).shelf_screens()
        for i, (slot, shown) in enumerate(self.own_screens):
            screen = screens[i] if i < len(screens) else None
            shown[0] = screen
            slot.setObjectName(f"start:screen:{screen.name}" if screen else f"start:screen-place:{i}")
            slot.setText(literal(screen.label) if screen else "")
            slot.setVisible(screen is not None)

    def open_screen(self, screen: ShelfScreen) -> ShelfScreenWindow:
        """Open one of the chosen game's own screens (modal: the shelf waits until it is closed)."""
        info = game_info(self.game())
        self.screen_window = ShelfScreenWindow(screen, f"{info.title}: {screen.label.rstrip('.…')}", self)
        self.screen_window.finished.connect(lambda _r: self._show_game())
        self.screen_window.open()
        return self.screen_window

    # --- saved games -----------------------------------------------------------------------
    def refresh(self, *, keep_choice: bool = False) -> None:
        """List the saved games again. The banner offers the game Gumshoe stopped in (a crash), else
        the last game played if it is not finished, and that game is chosen; with ``keep_choice``
        (the list looked at again while shown) the family's own choice stays."""
        kept = self._selected_path() if keep_choice else None
        scrolled = self.saved.verticalScrollBar().value()
        self.saved.clear()
        games = sorted(saved_games(), key=_newest_first, reverse=True)
        self._signature = _folder_signature()
        self._any_problem = any(g.problem for g in games)
        crashed = self._stopped_in(games)
        unfinished = [g for g in games if g.problem or not g.finished]
        finished = [g for g in games if not g.problem and g.finished]
        for heading, group in (("Not finished", unfinished), ("Finished", finished)):
            if not group:
                continue
            head = QListWidgetItem(heading)
            head.setFlags(Qt.NoItemFlags)
            font = head.font()
            font.setBold(True)
            head.setFont(font)
            self.saved.addItem(head)
            for game in group:
                item = QListWidgetItem(f"{game.game_title}: {game.summary}" if game.game_title else game.summary)
                item.setData(Qt.UserRole, str(game.path))
                item.setData(Qt.UserRole + 1, bool(game.problem))
                item.setData(Qt.UserRole + 2, bool(game.read_only))
                item.setData(Qt.UserRole + 3, game.game_title)
                self.saved.addItem(item)
        if not games:
            item = QListWidgetItem("No saved games yet.")
            item.setFlags(Qt.NoItemFlags)
            self.saved.addItem(item)
        offered = crashed or (games[0] if games and games[0].resumable and not games[0].finished else None)
        self._crashed = crashed is not None
        self._offered = offered.path if offered is not None else None
        if offered is None:
            self.last_game.hide()
        else:
            # Short (two lines at most on a small laptop): the game itself is the chosen line under it.
            self.last_game.setText("Gumshoe stopped during your last game. Nothing was lost."
                                   if crashed else "Your last game was not finished.")
            self.last_game.show()
        self._choose(kept if kept is not None else self._offered)
        if keep_choice:
            self.saved.verticalScrollBar().setValue(scrolled)
        else:
            self.saved.scrollToTop()
            if self.saved.currentItem() is not None:
                self.saved.scrollToItem(self.saved.currentItem())
        self._saved_buttons()

    def _stopped_in(self, games: list[SavedGame]) -> SavedGame | None:
        """The newest game a window had open for play when Gumshoe stopped (its mark is still
        there and nobody has it open now). Marks of games gone or finished are taken off."""
        settings = family_settings()
        settings.beginGroup(PLAYING)
        marked = set(settings.childKeys())
        settings.endGroup()
        by_name = {g.path.name: g for g in games}
        for name in marked:
            game = by_name.get(name)
            if game is None or game.finished:
                unmark_playing(games_dir() / name)
        # A game open in another window cannot be opened (its file is locked): not offered.
        stopped = [g for g in games if g.path.name in marked and g.resumable and not g.finished]
        self._stopped = [g.path for g in stopped]
        return stopped[0] if stopped else None

    def _crash_answered(self, *_chosen) -> None:
        """The family chose what to play (that game again, or another): the next start is an
        ordinary one. A game resumed is marked again as it opens."""
        for path in self._stopped:
            unmark_playing(path)
        self._stopped = []

    def after_a_crash(self) -> bool:
        """Whether Gumshoe stopped while a game was being played (a crash, a power cut): the start
        screen then offers that game first, even to ``--demo``."""
        return self._crashed

    def _choose(self, path: Path | None) -> None:
        for row in range(self.saved.count()):
            if path is not None and self.saved.item(row).data(Qt.UserRole) == str(path):
                self.saved.setCurrentRow(row)
                return
        self.saved.setCurrentRow(-1)

    # --- looking at the folder again while the start screen is shown ------------------------
    def showEvent(self, event) -> None:
        super().showEvent(event)
        self._watch.start()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if self.saved.currentItem() is not None:          # the chosen game stays whole in sight
            self.saved.scrollToItem(self.saved.currentItem())

    def hideEvent(self, event) -> None:
        super().hideEvent(event)
        self._watch.stop()

    def _look_again(self) -> None:
        if _folder_signature() != self._signature:
            self.refresh(keep_choice=True)

    def _activated(self, state) -> None:
        """Back to Gumshoe from another program or window: a game that was open there (or broken)
        is looked at again; SQLite's lock goes with a window that crashed, leaving no file changed."""
        if state == Qt.ApplicationActive and self.isVisible():
            if self._any_problem:
                self.refresh(keep_choice=True)
            else:
                self._look_again()

    def _selected_path(self) -> Path | None:
        item = self.saved.currentItem()
        return Path(item.data(Qt.UserRole)) if item is not None and item.data(Qt.UserRole) else None

    def _saved_buttons(self) -> None:
        item = self.saved.currentItem()
        path = self._selected_path()
        openable = path is not None and not item.data(Qt.UserRole + 1)
        self.resume_button.setEnabled(openable)
        self.delete_button.setEnabled(path is not None)
        offered = openable and path == self._offered
        viewing = openable and bool(item.data(Qt.UserRole + 2))
        kind = item.data(Qt.UserRole + 3) if path is not None else ""
        self.resume_button.setText(literal(
            "Resume\n(choose a saved game on the list)" if path is None else
            "Resume\n(this game cannot be opened)" if not openable else
            f"{LOOK if viewing else 'Resume the last game' if offered else 'Resume'}:\n{kind or UNKNOWN_KIND}"))
        self.resume_button.setToolTip(plain_tip(item.text()) if path is not None else "")
        self.resume_button.setProperty("role", "primary" if offered else "")
        self.resume_button.style().unpolish(self.resume_button)
        self.resume_button.style().polish(self.resume_button)

    def _resume_item(self, item: QListWidgetItem | None) -> None:
        if item is not None and item.data(Qt.UserRole) and not item.data(Qt.UserRole + 1):
            self.resume_requested.emit(Path(item.data(Qt.UserRole)), bool(item.data(Qt.UserRole + 2)))

    def delete_selected(self) -> None:
        """Move the selected saved game to the bin folder (Undo brings it back)."""
        path = self._selected_path()
        if path is None:
            return
        try:
            self._binned.append((path, move_to_bin(path)))
        except (StoreError, OSError) as exc:
            self.show_problem(f"That game could not be moved to the bin: {exc}")
            return
        self.problem.hide()
        self.undelete_button.show()
        self.refresh()

    def undelete(self) -> None:
        if not self._binned:
            return
        _original, binned = self._binned.pop()
        try:
            restore_from_bin(binned)
        except (StoreError, OSError) as exc:
            self.show_problem(f"That game could not be taken out of the bin: {exc}")
        self.undelete_button.setVisible(bool(self._binned))
        self.refresh()

    # --- tag sheets ----------------------------------------------------------------
    def print_tags(self) -> None:
        if self._thread is not None:
            return
        game = self.game()
        problem = table_class(game).before_tag_sheets()
        if problem:
            self.print_status.setText(problem)
            return
        output = user_dir() / "tags" / f"{game}-tags.pdf"
        self.print_button.setEnabled(False)
        self.print_progress.show()
        self.print_progress.setValue(0)
        self.print_status.setText("Drawing the stickers\u2026")
        self._thread = QThread(self)
        self._printer = TagPrinter(game, output)
        self._printer.moveToThread(self._thread)
        self._thread.started.connect(self._printer.run)
        self._printer.progress.connect(self._show_progress)
        self._printer.finished.connect(self._printed)
        self._thread.start()

    def finish_printing(self) -> None:
        """The app is closing: the sheets being drawn are finished first (a second or two). A thread
        still running when the window is destroyed ends the app with a crash."""
        if self._thread is None or self._printer is None:
            return
        self._printer.progress.disconnect(self._show_progress)
        self._printer.finished.disconnect(self._printed)
        self._thread.quit()          # the thread ends as soon as the sheets are drawn
        self._thread.wait()
        self._thread = self._printer = None

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
