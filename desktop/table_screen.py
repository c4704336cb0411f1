"""The table screen's frame, shared by every game: the game's own table sits in its middle.

Around the game's table (``desktop/tables/<game>.py``) the shell shows whose turn it is,
the engine's prompt in large type in a room of fixed height, one message at a time under the
actions (so the table never moves and has no empty band over it), undo that asks first in public words, the die (for a game that uses one), the
buttons for the actions the prompt allows, the journal buttons, the camera panel and the
public log. It runs every action through the one flow described in ``desktop/table_base.py``.
The shell never names a game.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QEvent, QRect, Qt, Signal
from PySide6.QtGui import QFont, QFontInfo, QFontMetrics, QKeySequence, QShortcut
from PySide6.QtWidgets import (QDialog, QFrame, QGridLayout, QGroupBox, QHBoxLayout, QLabel, QListWidget, QScrollArea,
                               QSizePolicy, QStackedWidget, QVBoxLayout, QWidget)

from engine.dice import DieSpec, load_die
from engine.errors import RuleViolation
from engine.game import Option

from .die.mapping import explain_roll
from .die.widgets import DieStatusLight
from .drawn import EventList, PlayerButton, player_colours
from .drawn.text import ELLIPSIS, KEY_PX, LEAST_PX
from .games import GameController, MoveNotSaved, public_texts
from .how_to_play import HowToPlay
from .more_actions import MoreActions
from .table_base import GameTable
from .tables import table_class
from .widgets import WrappingButton, button, clear_layout, label, plain_tip, sentence, shorten_names

SIDE_WIDTH = 320
BOTTOM_HEIGHT = 96         # what happened: its height; the journals and the camera fit beside it
MESSAGE_LINES = 2          # the message area shows the newest lines; the log keeps them all
MESSAGE_ROOM_LINES = 4     # two messages longer than this many lines: the newest shows alone
#: the lines a message keeps beside many actions (what happened, or a refusal's reason), at LEAST_PX
MESSAGE_LEAST_LINES = (2, 4)
# Under a long message the actions keep this much: their title and a scroll bar. Small, so that on
# a 720p laptop the newest event still shows whole under a game's die and its three choices.
ACTIONS_LEAST = 40
PROMPT_LINES = 2           # the prompt's room, whatever it says: the table never moves for it
COMPACT_FROM = 6           # this many action buttons or more: lower buttons, so the column fits a laptop
ACTION_POINT_SIZE = 18     # the legal choices read from across the table (24 px)
TABLE_SHARE = 2 / 3        # the action column may widen into the table, which keeps at least this share
LOG_LEAST = 280            # what happened keeps this width when long names widen the journal buttons


@dataclass
class OptionFlow:
    """An action being put together: the option, who acts, and the fields chosen so far."""

    option: Option
    player: str
    chosen: dict[str, Any] = field(default_factory=dict)

    @property
    def next_field(self) -> str | None:
        return next((f for f in self.option.targets if f not in self.chosen), None)


class TableScreen(QWidget):
    #: a card entry is needed: (action so far, [(card field, place)], private, heading, choices)
    read_requested = Signal(dict, list, bool, str, dict)
    #: several cards from one place: (action so far, the read: field, place, private, heading,
    #: least, most, kinds, demo_cards)
    list_read_requested = Signal(dict, dict)
    #: one card identified for the table itself: (heading, the cards it can be, what to do with it,
    #: the card the simulated table shows there in a demo or None)
    identify_requested = Signal(str, list, object, object)
    journal_requested = Signal(str)
    #: the players' phones: their codes, switching them on or off (desktop/phones.py)
    phones_requested = Signal()
    leave_requested = Signal()
    #: the game just ended (the shell shows the end of the game)
    game_over = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller: GameController | None = None
        self.table: GameTable | None = None
        self.flow: OptionFlow | None = None
        self.die: DieSpec | None = None
        self.rolled_buttons: dict[str, Any] = {}
        self._rng = random.SystemRandom()
        self._was_over = False
        #: reads the prompt aloud when it changes (set by the main window; silent when off)
        self.speaker = None
        #: the newest camera frame, or None when the camera is off (set by the main window)
        self.frame_source = lambda: None
        self._spoken = ""
        self._offered: tuple | None = None       # what the action buttons now on screen offer
        self._journals_need = SIDE_WIDTH          # the journal buttons' width for their longest name
        self._build()

    # --- layout --------------------------------------------------------------------
    def _build(self) -> None:
        outer = QVBoxLayout(self)
        outer.setContentsMargins(12, 8, 12, 8)
        outer.setSpacing(6)
        top = QHBoxLayout()
        self.turn_label = label("", "turn", wrap=False)
        self.turn_label.setObjectName("turn")
        self.turn_label.setSizePolicy(QSizePolicy.Ignored, QSizePolicy.Preferred)
        self._turn: tuple[str, tuple[str, ...]] = ("", ())
        self._turn_fitted: tuple | None = None
        top.addWidget(self.turn_label, 1)
        self.undo_button = button("Undo\u2026 (Ctrl+Z)")
        self.undo_button.setObjectName("undo")
        self.undo_button.clicked.connect(self.ask_undo)
        self.leave_button = button("Back to start")
        self.leave_button.setObjectName("leave")
        self.leave_button.clicked.connect(self.leave_requested)
        self.phones_button = button("Phones\u2026")
        self.phones_button.setObjectName("phones")
        self.phones_button.setToolTip(plain_tip("Each player's phone as their private screen: the codes to scan"))
        self.phones_button.clicked.connect(lambda: self._screen_held() or self.phones_requested.emit())
        self.help_button = button("How to play")
        self.help_button.setObjectName("howto")
        self.help_button.setToolTip(plain_tip("The rule of what the table asks now, then the game in short"))
        self.help_button.clicked.connect(self.show_how_to_play)
        top.addWidget(self.help_button)
        top.addWidget(self.phones_button)
        top.addWidget(self.undo_button)
        top.addWidget(self.leave_button)
        outer.addLayout(top)

        # The prompt has the room of PROMPT_LINES lines whatever it says: a longer prompt never
        # moves the table down (it gets smaller type first, never below the key size).
        self.prompt_label = label("", "prompt")
        self.prompt_label.setObjectName("prompt")
        self.prompt_label.setAlignment(Qt.AlignLeft | Qt.AlignTop)
        self.prompt_label.setSizePolicy(QSizePolicy.Ignored, QSizePolicy.Fixed)
        self._prompt_fitted: tuple | None = None
        outer.addWidget(self.prompt_label)

        # One message at a time, under the actions in the side column: the table starts right
        # under the prompt and never moves for a message (there is no empty band over it).
        self.messages = QStackedWidget()
        self.messages.setObjectName("messages")
        self.banner = label("", "banner")
        self.banner.setObjectName("banner")
        self.error = label("", "error")
        self.error.setObjectName("error")
        self.undo_panel = QFrame()
        undo_rows = QVBoxLayout(self.undo_panel)
        undo_rows.setContentsMargins(0, 0, 0, 0)
        undo_row = QHBoxLayout()
        self.undo_question = label("", "banner")
        self.undo_question.setObjectName("undo:question")
        self.undo_yes = button("Yes, undo it", "danger")
        self.undo_yes.setObjectName("undo:yes")
        self.undo_no = button("No, keep it")
        self.undo_no.setObjectName("undo:no")
        self.undo_yes.clicked.connect(self.confirm_undo)
        self.undo_no.clicked.connect(self._hide_message)
        undo_rows.addWidget(self.undo_question)
        undo_row.addWidget(self.undo_yes)
        undo_row.addWidget(self.undo_no)
        undo_rows.addLayout(undo_row)
        self.quiet = QWidget()
        for page in (self.quiet, self.banner, self.error, self.undo_panel):
            self.messages.addWidget(page)
        self.messages.hide()
        self._message_fitted: tuple | None = None
        #: each message label's whole words (a message too long for the column shows shortened)
        self._message_words: dict[QLabel, str] = {}
        self._least_measured: dict[tuple, int | None] = {}
        #: the options behind "More actions…" (those the column could not hold)
        self._behind: list[WrappingButton] = []
        self.more_panel: MoreActions | None = None
        self.how_to_play: HowToPlay | None = None

        # The side column starts level with the table, under the prompt.
        body = QHBoxLayout()
        outer.addLayout(body, 1)
        self.table_holder = QVBoxLayout()
        body.addLayout(self.table_holder, 1)

        self.body = body
        self.side_widget = side_widget = QWidget()
        side_widget.setFixedWidth(SIDE_WIDTH)
        self.side = side = QVBoxLayout(side_widget)
        side.setContentsMargins(0, 0, 0, 0)
        body.addWidget(side_widget)
        self.die_box = QGroupBox("Die")
        die_layout = QVBoxLayout(self.die_box)
        die_layout.setContentsMargins(6, 4, 6, 4)
        self.roll_button = button("Roll the die (R)", "primary", name="roll")
        self.roll_button.clicked.connect(self.roll_on_screen)
        die_layout.addWidget(self.roll_button)
        # What the real die shows, one choice a row at the action buttons' size (read from across
        # the table, never wrapped); shown only while a roll is to be made.
        self.rolled_grid = QVBoxLayout()
        die_layout.addLayout(self.rolled_grid)
        self.die_light = DieStatusLight()
        self.die_light.hide()                 # shown only when a die reader is attached
        die_layout.addWidget(self.die_light)
        self.die_message = label("")
        self.die_message.setObjectName("die:message")
        self.die_message.hide()
        die_layout.addWidget(self.die_message)
        side.addWidget(self.die_box)
        # A new height of the column or of the die box above the actions: they find their room again.
        side_widget.installEventFilter(self)
        self.die_box.installEventFilter(self)
        self.action_box = action_box = QGroupBox("Actions")
        self.action_layout = QVBoxLayout(action_box)
        self.action_layout.setContentsMargins(6, 4, 6, 4)
        # Scrolls only when even the widest column cannot hold every option whole (never cut).
        self.action_scroll = QScrollArea()
        self.action_scroll.setObjectName("actions")
        self.action_scroll.setFrameShape(QFrame.NoFrame)
        self.action_scroll.setWidgetResizable(True)
        self.action_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        self.action_scroll.setVerticalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        self.action_scroll.setFocusPolicy(Qt.NoFocus)       # Tab goes from button to button, as before
        holder = QWidget()
        holder_layout = QVBoxLayout(holder)
        holder_layout.setContentsMargins(0, 0, 0, 0)
        holder_layout.addWidget(action_box)
        holder_layout.addStretch(1)                    # the buttons keep their height, the room stays below
        self.action_scroll.setWidget(holder)
        holder.setAutoFillBackground(False)            # setWidget fills it: the column keeps the window's
        self.action_scroll.viewport().setAutoFillBackground(False)
        # Its least is set here, not by the scroll area's own hint: the room a long message leaves
        # the actions (_message_cap) is measured from it.
        self.action_scroll.setMinimumHeight(ACTIONS_LEAST)
        side.addWidget(self.action_scroll, 1)
        side.addWidget(self.messages)

        # The bottom strip: what happened, the journals, the camera (low and wide).
        self.bottom = bottom = QHBoxLayout()
        outer.addLayout(bottom)
        # The newest public events in large type, newest on top; a click shows the whole log.
        log_box = QGroupBox("What happened")
        log_layout = QHBoxLayout(log_box)
        log_layout.setContentsMargins(6, 4, 6, 4)
        self.recent = EventList()
        self.recent.setFixedHeight(BOTTOM_HEIGHT)
        self.recent.setToolTip(plain_tip("Click to see every public event of the game"))
        self.recent.clicked.connect(self.show_full_log)
        log_layout.addWidget(self.recent, 1)
        bottom.addWidget(log_box, 1)
        self.log_dialog = QDialog(self)
        self.log_dialog.setObjectName("log:dialog")
        self.log_dialog.setWindowTitle("What happened")      # public words only: never a private name
        dialog_layout = QVBoxLayout(self.log_dialog)
        self.log_list = QListWidget()
        self.log_list.setObjectName("log")
        self.log_list.setWordWrap(True)
        self.log_list.setStyleSheet("font-size: 16pt;")
        self.log_list.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        dialog_layout.addWidget(self.log_list, 1)
        close = button("Close", "primary", name="log:close")
        close.clicked.connect(self.log_dialog.accept)
        dialog_layout.addWidget(close, 0, Qt.AlignRight)
        self.journal_box = QGroupBox("Journals (private)")
        self.journal_layout = QGridLayout(self.journal_box)
        self.journal_layout.setContentsMargins(6, 4, 6, 4)
        self.journal_box.setFixedWidth(SIDE_WIDTH)
        bottom.addWidget(self.journal_box)
        self.camera_slot = QVBoxLayout()      # the camera panel goes here
        bottom.addLayout(self.camera_slot)

        self._die_shortcuts: list[QShortcut] = []
        self._shortcut(QKeySequence("R"), lambda: self.roll_button.isEnabled() and self.roll_on_screen())
        self._shortcut(QKeySequence.Undo, self.ask_undo)
        # A new width: the names in the turn line and the prompt find their room again.
        self.turn_label.installEventFilter(self)
        self.prompt_label.installEventFilter(self)

    def _message_room(self) -> int:
        """The most height a message takes from the action column (MESSAGE_ROOM_LINES lines)."""
        probe = label("Ag\n" * MESSAGE_ROOM_LINES, "banner")
        probe.ensurePolished()
        return probe.sizeHint().height() + 4

    def _message_cap(self) -> int:
        """The most height the message may have: the body's room (what the table has beside the
        side column) less the die box and ACTIONS_LEAST. Measured from the layout's other rows, not
        from the column as it stands, so the column's least never exceeds the body and the table
        keeps its place to the pixel whatever the message says."""
        outer = self.layout()
        rows = [outer.itemAt(i) for i in range(outer.count())]
        others = [item for item in rows if item.layout() is not self.body and not item.isEmpty()]
        body = (self.contentsRect().height() - outer.contentsMargins().top() - outer.contentsMargins().bottom()
                - sum(item.sizeHint().height() for item in others) - outer.spacing() * len(others))
        column = ACTIONS_LEAST + self.side.spacing()
        if not self.die_box.isHidden():
            column += self.die_box.sizeHint().height() + self.side.spacing()
        return body - column

    def _message_height(self, width: int, allowance: int | None = None) -> int:
        """The shown message's height at the side column's ``width`` (0 with none), in at most
        ``allowance`` pixels (what the actions leave it).

        Read at a metre, whole words in large type come first: a message longer than
        MESSAGE_ROOM_LINES lines gets smaller type (never below LEAST_PX); still longer than the
        room the actions leave it (they are never covered, and give way to "More actions…" only
        for the message's least lines, _message_least), it is shortened with "…", its whole
        words in the tooltip (and, for what happened, in the log). The column never grows past
        the body (_message_cap), so the table never moves."""
        page = self.messages.currentWidget()
        if self.messages.isHidden() or page is self.quiet:
            return 0
        words = self.undo_question if page is self.undo_panel else page
        whole = self._message_words.get(words, words.text())
        # Not on screen (a camera's problem said while the start screen shows): no room is known
        # yet, so nothing is shortened; showEvent fits it once the screen is laid out.
        cap = self._message_cap() if self.isVisible() else None
        if cap is not None and allowance is not None:
            cap = max(min(cap, allowance), 1)
        if self._message_fitted != (words, whole, width, cap):
            self._message_fitted = (words, whole, width, cap)
            words.setText(whole)
            words.setToolTip("")
            words.setStyleSheet("")
            words.ensurePolished()
            # The undo question shares the room with its two buttons.
            beside = (self.undo_panel.layout().totalHeightForWidth(width) - words.heightForWidth(width)
                      if page is self.undo_panel else 0)
            room = max(cap - beside, 1) if cap is not None else self._message_room()
            px = QFontInfo(words.font()).pixelSize()
            while px > LEAST_PX and words.heightForWidth(width) > min(self._message_room(), room):
                px -= 1
                words.setStyleSheet(f"font-size: {px}px;")
                words.ensurePolished()
            if words.heightForWidth(width) > room:
                words.setText(self._shortened(words, whole, width, room))
                words.setToolTip(plain_tip(whole))
        if page is self.undo_panel:
            return self.undo_panel.layout().totalHeightForWidth(width)
        return page.heightForWidth(width)

    def _message_least(self, width: int) -> int:
        """The least height the shown message keeps beside the actions at ``width``: its whole
        words at the least type size, or MESSAGE_LEAST_LINES of them (the undo question with its
        two buttons). Past that the actions give way (behind "More actions…")."""
        page = self.messages.currentWidget()
        if self.messages.isHidden() or page is self.quiet:
            return 0
        words = self.undo_question if page is self.undo_panel else page
        whole = self._message_words.get(words, words.text())
        key = (page, whole, width)
        if self._least_measured.get(key) is None:
            probe = label(whole, words.property("role"))
            probe.setStyleSheet(f"font-size: {LEAST_PX}px;")
            probe.ensurePolished()
            lines = label("\n".join(["Ag"] * MESSAGE_LEAST_LINES[page is self.error]), words.property("role"))
            lines.setStyleSheet(f"font-size: {LEAST_PX}px;")
            lines.ensurePolished()
            least = min(probe.heightForWidth(width), lines.sizeHint().height())
            if page is self.undo_panel:
                least += (self.undo_panel.layout().totalHeightForWidth(width) - self.undo_question.heightForWidth(width))
            self._least_measured = {key: least}
        return self._least_measured[key]

    @staticmethod
    def _shortened(words: QLabel, whole: str, width: int, height: int) -> str:
        """The most whole words of ``whole`` that ``words`` shows in ``height`` at ``width``, then
        "\u2026" (never less than the first word)."""
        parts = whole.split(" ")
        shown, hidden = 1, len(parts)            # this many words fit, this many do not
        while hidden - shown > 1:
            middle = (shown + hidden) // 2
            words.setText(" ".join(parts[:middle]).rstrip() + ELLIPSIS)
            shown, hidden = (middle, hidden) if words.heightForWidth(width) <= height else (shown, middle)
        return " ".join(parts[:shown]).rstrip() + ELLIPSIS

    def _set_message(self, words: QLabel, text: str) -> None:
        """``text`` in a message label, fitted to the column when its page shows."""
        self._message_words[words] = text
        self._message_fitted = None
        words.setText(text)
        words.setToolTip("")

    def _place_message(self, page: QWidget) -> None:
        """Show ``page`` (or no message) under the actions, as high as its lines."""
        if page is self.quiet and self.messages.isHidden():
            return
        self.messages.setCurrentWidget(page)
        self.messages.setVisible(page is not self.quiet)
        for other in (self.banner, self.error, self.undo_panel):
            # Only the shown page counts for the stack's size: a hidden long error takes no room.
            other.setSizePolicy(QSizePolicy.Preferred if other is page else QSizePolicy.Ignored,
                                QSizePolicy.Preferred if other is page else QSizePolicy.Ignored)
        if page is not self.quiet:
            page.ensurePolished()
            self.messages.setFixedHeight(self._message_height(self.side_widget.width()))
        self._fit_action_column()

    def _fit_turn(self) -> None:
        """Whose turn in one line: smaller type (down to KEY_PX) for long names, then the longest
        name shortened with "\u2026"; the whole line stays in the tooltip."""
        template, names = self._turn
        whole = template.format(*names)
        label, width = self.turn_label, self.turn_label.contentsRect().width()
        fitted = (whole, width)
        if width <= 1:
            label.setText(whole)           # not laid out yet: fitted once it has its width
            return
        if fitted == self._turn_fitted:
            return
        self._turn_fitted = fitted
        label.setStyleSheet("")
        label.ensurePolished()
        base = QFont(label.font())
        px = QFontInfo(base).pixelSize()
        while px > KEY_PX and QFontMetrics(self._sized(base, px)).horizontalAdvance(whole) > width:
            px -= 1
        if px != QFontInfo(base).pixelSize():
            label.setStyleSheet(f"font-size: {px}px;")
        label.setText(shorten_names(template, names, QFontMetrics(self._sized(base, px)), width))
        label.setToolTip(plain_tip(whole) if label.text() != whole else "")

    @staticmethod
    def _sized(base: QFont, px: int) -> QFont:
        sized = QFont(base)
        sized.setPixelSize(px)
        return sized

    def _fit_prompt(self) -> None:
        """The prompt in PROMPT_LINES lines at its width: smaller type (down to KEY_PX) for a long
        one; only a prompt too long even for that takes more lines (and moves the table)."""
        text, width = self.prompt_label.text(), self.prompt_label.contentsRect().width()
        if width <= 1 or self._prompt_fitted == (text, width):
            return
        self._prompt_fitted = (text, width)
        self.prompt_label.setStyleSheet("")
        self.prompt_label.ensurePolished()
        base = QFont(self.prompt_label.font())
        largest = QFontInfo(base).pixelSize()
        room = PROMPT_LINES * QFontMetrics(base).lineSpacing()

        def needs(px: int) -> int:
            f = QFont(base)
            f.setPixelSize(px)
            return QFontMetrics(f).boundingRect(QRect(0, 0, width, 100000), int(Qt.TextWordWrap), text).height()

        px = largest
        while px > KEY_PX and needs(px) > room:
            px -= 1
        if px != largest:
            self.prompt_label.setStyleSheet(f"font-size: {px}px;")
        margins = self.prompt_label.contentsMargins()
        self.prompt_label.setFixedHeight(max(room, needs(px)) + margins.top() + margins.bottom() + 2)

    def _shortcut(self, keys, action) -> QShortcut:
        # Only while the table screen has the focus: a key pressed on a private screen or
        # in a text field must never roll the die or undo.
        shortcut = QShortcut(keys, self, activated=action)
        shortcut.setContext(Qt.WidgetWithChildrenShortcut)
        return shortcut

    # --- a game --------------------------------------------------------------------
    def release_game(self) -> None:
        """The game was closed (its file with it): its table goes now, with every clock it runs
        (a question's countdown), so nothing sends a move to a closed game afterwards."""
        if self.controller is not None:
            self.controller.changed.disconnect(self.refresh)
        self.controller = None
        self.flow = None
        self._hide_message()
        if self.speaker is not None:
            self.speaker.stop()          # the voice does not read on about a closed game
        self._drop_table()

    def _drop_table(self) -> None:
        """The table leaves the screen now and is deleted by Qt at the next turn of the event loop.

        Qt alone owns it to the end: it is taken out of the layout, never given back to Python
        with ``setParent(None)``. A table handed to Python while Qt deletes it had two owners, and
        under PySide 6.11 that broke the wrapper bookkeeping of unrelated widgets: going back and
        forth between a game and the start screen, a saved-games row's Python wrapper was freed
        while its row lived, and the list's next ``clear()`` crashed the app (issue 27)."""
        if self.table is not None:
            self.table_holder.removeWidget(self.table)
            self.table.hide()
            self.table.deleteLater()
            self.table = None

    def set_controller(self, controller: GameController) -> None:
        if self.controller is not None:
            self.controller.changed.disconnect(self.refresh)
        self.controller = controller
        controller.changed.connect(self.refresh)
        self.flow = None
        self._spoken = ""
        self._was_over = controller.session.outcome is not None
        # Before the new table exists: its sizes are asked only once it shows the game.
        self._hide_message()
        self._drop_table()
        self.table = table_class(controller.game_id)(self)
        self.table.place_clicked.connect(self.place_picked)
        self.table.place_refused.connect(self.place_refused)
        self.table_holder.addWidget(self.table)
        info = controller.info
        self.die_box.setVisible(info.uses_die)
        self.die = load_die(info.die) if info.die else None
        self._build_die_buttons()
        self._build_journal_buttons()
        self.journal_box.setVisible(info.hidden_cards)
        self.phones_button.setVisible(info.hidden_cards)
        self.refresh()

    def _build_die_buttons(self) -> None:
        assert self.controller is not None
        clear_layout(self.rolled_grid)
        self.rolled_buttons.clear()
        for shortcut in self._die_shortcuts:      # a new game must not add a second set
            shortcut.setEnabled(False)
            shortcut.deleteLater()
        self._die_shortcuts.clear()
        if self.die is None:
            return
        for n, symbol in enumerate(self.die.symbols, 1):
            face = self.die.face_showing(symbol)
            b = WrappingButton(f"{self.controller.symbol_words(symbol)} ({n})")
            b.POINT_SIZE = b.LEAST_POINT_SIZE = ACTION_POINT_SIZE
            b.set_compact()               # three more rows in the column: the actions keep their room
            b.setObjectName(f"rolled:{symbol}")
            b.setToolTip(plain_tip(f"The real die shows {self.controller.symbol_words(symbol)} (key {n})"))
            b.clicked.connect(lambda _=False, f=face: self.apply_roll(f))
            self._die_shortcuts.append(self._shortcut(
                QKeySequence(str(n)), lambda f=face, b=b: b.isEnabled() and self.apply_roll(f)))
            self.rolled_buttons[symbol] = b
            self.rolled_grid.addWidget(b)

    def _build_journal_buttons(self) -> None:
        assert self.controller is not None
        clear_layout(self.journal_layout)
        colours = player_colours(self.controller.session.players)
        widest = 0
        for i, player in enumerate(self.controller.session.players):
            b = PlayerButton(player, colours[player], player)      # the player's name in their colour
            b.setObjectName(f"journal:{player}")
            b.setToolTip(plain_tip(f"Open {player}'s Evidence Journal (only {player} should look)"))
            b.clicked.connect(lambda _=False, p=player: self._screen_held() or self.journal_requested.emit(p))
            self.journal_layout.addWidget(b, i // 2, i % 2)
            widest = max(widest, b.needed_width())
        margins = self.journal_layout.contentsMargins()
        chrome = margins.left() + margins.right() + self.journal_layout.horizontalSpacing() + 8
        self._journals_need = 2 * widest + chrome
        self._fit_journals()

    def _fit_journals(self) -> None:
        """Two journal buttons a row, each as wide as the longest name needs: a long name takes room
        from what happened beside it (which keeps LOG_LEAST) rather than being shortened."""
        outer = self.layout().contentsMargins()
        camera = sum(w.sizeHint().expandedTo(w.minimumSizeHint()).width()
                     for w in (self.camera_slot.itemAt(i).widget() for i in range(self.camera_slot.count())) if w)
        room = self.width() - outer.left() - outer.right() - camera - LOG_LEAST - 2 * self.bottom.spacing()
        width = max(SIDE_WIDTH, min(self._journals_need, room))
        if self.journal_box.width() != width or self.journal_box.minimumWidth() != width:
            self.journal_box.setFixedWidth(width)

    # --- drawing -------------------------------------------------------------------
    def refresh(self) -> None:
        if self.controller is None or self.table is None:
            return
        c = self.controller
        view = c.shared_view()
        prompt = view.prompt
        over = view.outcome is not None
        actor = prompt.player
        if self.flow is not None and (prompt.player != self.flow.player or self.flow.option not in prompt.options):
            self.flow = None          # the game moved on (undo, say): drop a half-made action
        own = None if over else self.table.turn_words(view)
        if over:
            self._turn = ("Game over", ())
        elif own:
            self._turn = ("{}", (own,))          # everyone acts at once: the table says so
        elif actor and actor != view.current:
            # Someone else acts inside this turn (a penalty swap, a backup agent...).
            self._turn = ("{}'s turn \u2014 {} to act", (view.current, actor))
        else:
            self._turn = ("{}'s turn", (view.current,))
        self._fit_turn()
        self.prompt_label.setText(self._prompt_text(prompt.text))
        self._fit_prompt()
        self._read_prompt_aloud()
        legal = self._legal_places(prompt)
        chosen = {str(v) for v in self.flow.chosen.values()} if self.flow else set()
        self.table.refresh(view, legal, chosen)
        if self.table.holds_the_screen():        # a window left open closes: nothing lies over the race
            self.log_dialog.close()
            if self.how_to_play is not None:
                self.how_to_play.close()
        self._refresh_die(prompt)
        self._refresh_actions(prompt, over)
        self.recent.set_events(list(view.log))
        shown = [self.log_list.item(i).text() for i in range(self.log_list.count())]
        if shown != list(view.log[:len(shown)]):          # an undo: the log is written again
            self.log_list.clear()
            shown = []
        if len(view.log) > len(shown):
            self.log_list.addItems(list(view.log[len(shown):]))
            if self.log_dialog.isVisible():               # laid out only when someone reads it
                self.log_list.scrollToBottom()
        self.undo_button.setEnabled(bool(view.undo_history))
        if over and not self._was_over:
            self._was_over = True
            self.game_over.emit()
        self._was_over = over

    def show_how_to_play(self) -> HowToPlay | None:
        """The rules of the steps offered now, then the game in short (over the table)."""
        if self.controller is None or self._screen_held():
            return None
        window = self.window()
        self.how_to_play = HowToPlay(self.controller.info, self.controller.session.prompt(), self)
        self.how_to_play.resize(int(window.width() * 0.7), int(window.height() * 0.85))
        self.how_to_play.move(window.geometry().center() - self.how_to_play.rect().center())   # over the table
        self.how_to_play.open()
        return self.how_to_play

    def show_full_log(self) -> None:
        """Every public event of the game, oldest first (the newest in view)."""
        if self._screen_held():
            return
        window = self.window()
        self.log_dialog.resize(int(window.width() * 0.7), int(window.height() * 0.8))
        self.log_list.scrollToBottom()
        self.log_dialog.open()

    def _screen_held(self) -> bool:
        """Whether the table keeps the screen now (nothing opens over it): then say why."""
        why = self.table.holds_the_screen() if self.table is not None else None
        if why:
            self.notice(why)
        return bool(why)

    def _prompt_text(self, text: str) -> str:
        if self.flow is None or self.table is None:
            return text
        field_name = self.flow.next_field
        if field_name is None:
            return text
        # The action's name and what to do next, each a sentence on a line of its own.
        return f"{sentence(self.flow.option.label)}\nPick {self.table.field_words(self.flow.option, field_name)}."

    def _direct_options(self, prompt) -> list[Option]:
        """Options live at once: one field, every value a place on the table."""
        assert self.table is not None
        return [o for o in prompt.options
                if len(o.targets) == 1 and not self.table.handles(o)
                and all(self.table.shows(str(v)) for v in next(iter(o.targets.values())))]

    def _legal_places(self, prompt) -> set[str]:
        assert self.table is not None
        if self.flow is not None:
            field_name = self.flow.next_field
            values = self.flow.option.targets.get(field_name, ()) if field_name else ()
            return {str(v) for v in values if self.table.shows(str(v))}
        return {str(v) for o in self._direct_options(prompt) for v in next(iter(o.targets.values()))}

    def _refresh_die(self, prompt) -> None:
        can_roll = self.die is not None and prompt.option("roll") is not None and self.flow is None
        self.roll_button.setEnabled(can_roll)
        shown = any(not b.isHidden() for b in self.rolled_buttons.values())
        for b in self.rolled_buttons.values():
            b.setEnabled(can_roll)
            b.setVisible(can_roll)        # their rows go to the actions while there is nothing to roll
        if shown != can_roll and self.rolled_buttons:
            # The action column is fitted next, from the die box's height: the new one, not the last.
            self.rolled_grid.invalidate()
            self.die_box.layout().invalidate()

    def _add_action(self, widget: QWidget) -> None:
        self.action_layout.addWidget(widget)
        # Show it now: a layout otherwise shows new children only on the next event-loop pass.
        widget.show()

    def _action_button(self, text: str, name: str, role: str | None, slot) -> None:
        b = WrappingButton(text)             # the side column is narrow: long labels wrap
        b.POINT_SIZE = b.LEAST_POINT_SIZE = ACTION_POINT_SIZE
        if role:
            b.setProperty("role", role)
        b.setObjectName(name)
        b.clicked.connect(slot)
        self.action_layout.addWidget(b)      # shown by _refresh_actions once all are styled

    def _refresh_actions(self, prompt, over: bool) -> None:
        # Built again only when what they offer changed: a redraw that moves a card (and plays its
        # movement) must not also rebuild and restyle every button.
        flow = (self.flow.option, self.flow.player, repr(sorted(self.flow.chosen.items()))) if self.flow else None
        offer = (id(self.controller), id(self.table), over, prompt.player, repr(prompt.options), flow)
        if offer == self._offered and self.action_layout.count():
            return
        self._offered = offer
        clear_layout(self.action_layout)
        self._build_actions(prompt, over)
        if len(self._action_buttons()) > 1:       # shown only when the column cannot hold them all
            self._action_button("More actions\u2026", "action:more", None, self.show_more_actions)
        # Styled and sorted (in the column or behind "More") before they are shown: the column
        # never stands taller for a moment.
        self._fit_action_column()

    def _action_buttons(self) -> list[WrappingButton]:
        items = [self.action_layout.itemAt(i).widget() for i in range(self.action_layout.count())]
        return [b for b in items if isinstance(b, WrappingButton) and b.objectName() != "action:more"]

    def eventFilter(self, watched, event) -> bool:
        if watched in (self.side_widget, self.die_box) and event.type() == QEvent.Resize:
            self._fit_action_column()
        elif watched is self.turn_label and event.type() == QEvent.Resize:
            self._fit_turn()
        elif watched is self.prompt_label and event.type() == QEvent.Resize:
            self._fit_prompt()
        return super().eventFilter(watched, event)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._fit_action_column()
        self._fit_journals()

    def event(self, event) -> bool:
        handled = super().event(event)
        if event.type() == QEvent.LayoutRequest:
            self._fit_journals()           # the camera panel beside them may have grown
        return handled

    def _fit_action_column(self) -> None:
        """Every action whole and in sight, never scrolled, never under the message.

        Room for every option at 24 px: when the buttons' lines need more height than the column
        has (less the message's least), the buttons get less padding; then the column widens
        (fewer lines), taking width from the table down to what the table needs and at least
        TABLE_SHARE of the width; when even that is too little, the last options (the secondary
        ones first) go behind one "More actions…" button. The message takes the room the
        actions leave (smaller type, then shortened, its whole words in the tooltip and the log).
        Each button is as high as its lines: never squeezed."""
        if self.table is None:
            return
        buttons = self._action_buttons()
        more = self._more_button()
        hints = [w for w in (self.action_layout.itemAt(i).widget() for i in range(self.action_layout.count()))
                 if isinstance(w, QLabel) and not w.isHidden()]
        self.action_box.ensurePolished()
        frame, margins = self.action_box.contentsMargins(), self.action_layout.contentsMargins()
        room = self.side_widget.height()
        if self.die_box.isVisibleTo(self):
            room -= self.die_box.sizeHint().height() + self.side.spacing()
        across = frame.left() + frame.right() + margins.left() + margins.right()
        message_shown = not self.messages.isHidden()

        def need(width: int, compact: bool, behind: frozenset = frozenset()) -> int:
            inner = width - across
            shown = [b for b in buttons if b not in behind] + ([more] if behind and more is not None else [])
            spacing = self.action_layout.spacing() * max(len(shown) + len(hints) - 1, 0)
            return (frame.top() + frame.bottom() + margins.top() + margins.bottom() + spacing
                    + sum(b.height_for(inner, compact) for b in shown) + sum(h.heightForWidth(inner) for h in hints))

        def for_actions(width: int) -> int:
            return room - (self._message_least(width) + self.side.spacing() if message_shown else 0)

        outer = self.layout().contentsMargins()
        body = self.width() - outer.left() - outer.right() - self.body.spacing()
        table_least = max(self.table.minimumSizeHint().expandedTo(self.table.minimumSize()).width(),
                          int(body * TABLE_SHARE))
        widest = max(SIDE_WIDTH, body - table_least)
        # The column's width is the actions' alone: a message never moves the table sideways.
        width, compact = SIDE_WIDTH, len(buttons) >= COMPACT_FROM
        if buttons and need(width, compact) > room:
            compact = True
            if need(width, compact) > room:
                if need(widest, compact) > room:
                    width = widest
                else:
                    # The narrowest column that holds them (fewer lines as it widens).
                    low, high = SIDE_WIDTH, widest
                    while high - low > 4:
                        mid = (low + high) // 2
                        low, high = (low, mid) if need(mid, True) <= room else (mid, high)
                    width = high
        # In sight at that width: every option, with the message's least lines under them; else
        # less padding, then the last options behind "More actions…".
        behind = frozenset()
        if buttons and need(width, compact) > for_actions(width):
            compact = True
            if need(width, compact) > for_actions(width):
                behind = self._behind_more(buttons, lambda hidden: need(width, True, hidden) <= for_actions(width))
        if self.side_widget.width() != width:
            self.side_widget.setFixedWidth(width)
        inner = width - across
        for b in buttons:
            b.setVisible(b not in behind)
            if b.compact != compact:
                b.set_compact(compact)
        if more is not None:
            more.setVisible(bool(behind))
            if more.compact != compact:
                more.set_compact(compact)
        self._behind = [b for b in buttons if b in behind]
        for h in hints:
            # As high as its lines at the column's width: the buttons under it keep their own height.
            h.setMinimumHeight(h.heightForWidth(inner))
        actions = need(width, compact, behind) if buttons else 0
        # The box is never squeezed below its buttons' lines (a button's own least height is its
        # style sheet's); the message has the rest of the column.
        self.action_box.setMinimumHeight(actions)
        if message_shown:
            self.messages.setFixedHeight(self._message_height(width, room - max(actions, ACTIONS_LEAST)
                                                              - self.side.spacing()))

    @staticmethod
    def _behind_more(buttons: list[WrappingButton], fits) -> frozenset:
        """The fewest options to put behind "More actions…" so that the rest ``fits``: the last
        secondary ones first, then the last main ones (the first option always stays)."""
        order = ([b for b in reversed(buttons) if b.property("role") != "primary"]
                 + [b for b in reversed(buttons[1:]) if b.property("role") == "primary"])
        behind: set = set()
        for b in order:
            if fits(frozenset(behind)):
                break
            behind.add(b)
        return frozenset(behind)

    def _more_button(self) -> WrappingButton | None:
        return next((w for w in (self.action_layout.itemAt(i).widget() for i in range(self.action_layout.count()))
                     if isinstance(w, WrappingButton) and w.objectName() == "action:more"), None)

    def show_more_actions(self) -> None:
        """The options that did not fit the column, in a panel over the table (each whole)."""
        if not self._behind:
            return
        self.more_panel = MoreActions(self._behind, self)
        self.more_panel.show_beside(self._more_button())

    def _build_actions(self, prompt, over: bool) -> None:
        assert self.controller is not None and self.table is not None
        if over:
            self._action_button("How the game went", "action:story", "primary", self.game_over.emit)
            self._action_button("Back to the start screen", "action:leave", None, self.leave_requested.emit)
            return
        if self.flow is not None:
            field_name = self.flow.next_field
            values = self.flow.option.targets.get(field_name, ()) if field_name else ()
            for value in values:
                if not self.table.shows(str(value)):
                    self._action_button(self.controller.words(value, self.flow.player), f"choose:{value}", None,
                                        lambda _=False, v=value: self.value_picked(v))
            self._action_button("Cancel", "action:cancel", None, self.cancel_flow)
            return
        direct = self._direct_options(prompt)
        if direct:
            hint = label("Click a highlighted card (\u25B6) on the table, or use Tab and Enter.")
            hint.setObjectName("action:hint")
            hint.ensurePolished()
            self._add_action(hint)
            for option in direct:
                values = next(iter(option.targets.values()))
                if len(values) == 1:       # only one legal place: offer it as a button too
                    words = self.controller.words(values[0], None)
                    self._action_button(f"{option.label}: {words}", f"action:{option.action}", "primary",
                                        lambda _=False, o=option, v=values[0]: self.start_option(o, v))
        elif [o.action for o in prompt.options] == ["roll"] and self.die is not None:
            self._add_action(label("Roll the die: the real one or the button above."))
        for option in prompt.options:
            if option in direct or (option.action == "roll" and self.die is not None):
                continue
            role = "primary" if len(prompt.options) - len(direct) <= 2 or not option.targets else None
            self._action_button(option.label, self.option_name(prompt, option), role,
                                lambda _=False, o=option: self.start_option(o))

    @staticmethod
    def option_name(prompt, option: Option) -> str:
        """The button's name: ``action:<action>``, and ``action:<action>:<n>`` for the n-th of
        several options of one action (a mission started with a Replicator, say)."""
        same = [o for o in prompt.options if o.action == option.action]
        n = same.index(option) + 1
        return f"action:{option.action}" + (f":{n}" if n > 1 else "")

    # --- messages ------------------------------------------------------------------
    def say(self, lines: list[str]) -> None:
        """Show what just happened, in the words everyone may read (the newest lines)."""
        lines = [line for line in lines if line][-MESSAGE_LINES:]
        if lines:
            self._set_message(self.banner, "\n".join(lines))
            # Two long lines may need more rows than the place has even in the least type: the newest
            # one then shows alone (what happened and the full log keep them all).
            self.banner.setStyleSheet(f"font-size: {LEAST_PX}px;")
            self.banner.ensurePolished()
            room = min(self._message_room(), self._message_cap())
            if len(lines) > 1 and self.banner.heightForWidth(self.side_widget.width()) > room:
                self._set_message(self.banner, lines[-1])
            self._place_message(self.banner)
        else:
            self._hide_message()

    def notice(self, text: str) -> None:
        """A plain message from the shell itself (the camera stopped, say), in the message place."""
        self._set_message(self.banner, text)
        self._place_message(self.banner)

    def complain(self, exc: RuleViolation | MoveNotSaved) -> None:
        """Why a move was refused, in the error's place: a rule (with its rulebook section) or a
        save the disk refused."""
        section = getattr(exc, "section", None)
        self._refuse(exc.message + (f" (Rulebook: {section})" if section else ""))

    def place_refused(self, place: str) -> None:
        """A click on a place that may not be chosen now is answered with one line: the engine's
        reason and rule where it gives one for the action at hand, else what may be done now."""
        if self.controller is None or self.table is None:
            return
        prompt = self.controller.session.prompt()
        player = self.current_actor()
        if self.flow is not None and self.flow.next_field is not None:
            tries = [(self.flow.option, {**self.flow.chosen, self.flow.next_field: place})]
        else:
            tries = [(o, {next(iter(o.targets)): place}) for o in self._direct_options(prompt)]
        for option, chosen in tries:
            reason = self.controller.why_not(option, player, chosen) if player is not None else None
            if reason:
                self._refuse(reason)
                return
        where = self.controller.words(place, None)
        now = self._prompt_text(prompt.text) if self.flow is not None else prompt.text
        self._refuse(f"{where[:1].upper()}{where[1:]} cannot be chosen now. {now}".replace("\n", " "))

    def _refuse(self, text: str) -> None:
        self._set_message(self.error, text)
        self._place_message(self.error)

    def _hide_message(self) -> None:
        self._place_message(self.quiet)

    # --- acting ----------------------------------------------------------------------
    def send(self, action: dict) -> bool:
        if self.controller is None:
            return False          # the game was closed: a late click or clock changes nothing
        try:
            events = self.controller.apply(action)
        except (RuleViolation, MoveNotSaved) as exc:
            self.complain(exc)
            return False
        self.say(public_texts(events))
        return True

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self._fit_action_column()          # a message said while hidden finds its room now
        self._read_prompt_aloud()

    def _read_prompt_aloud(self) -> None:
        """A new prompt on the shared screen is read once (never a private screen's words)."""
        text = self.prompt_label.text()
        if self.speaker is not None and self.isVisible() and text != self._spoken:
            self._spoken = text
            self.speaker.say(text)

    def camera_frame(self):
        """The newest camera frame (a BGR array), or None when the camera is off."""
        return self.frame_source()

    def speak(self, text: str) -> None:
        """Read public words aloud (when the family switched reading aloud on)."""
        if self.speaker is not None:
            self.speaker.say(text)

    def read_cards(self, action: dict, reads: list[tuple[str, str]], *, private: bool, heading: str,
                   choices: dict[str, list[str]] | None = None) -> None:
        self.read_requested.emit(dict(action), [tuple(r) for r in reads], private, heading,
                                 {f: list(cards) for f, cards in (choices or {}).items()})

    def read_card_list(self, action: dict, field: str, place: str, *, private: bool, heading: str,
                       least: int = 1, most: int | None = None, kinds: tuple[str, ...] | None = None,
                       demo_cards: list[str] | None = None) -> None:
        self.list_read_requested.emit(dict(action), {
            "field": field, "place": place, "private": private, "heading": heading, "least": least,
            "most": most, "kinds": tuple(kinds) if kinds else None, "demo_cards": list(demo_cards or [])})

    def identify_card(self, heading: str, choices: list[str], on_card, shown: str | None = None) -> None:
        self.identify_requested.emit(heading, list(choices), on_card, shown)

    def current_actor(self) -> str | None:
        assert self.controller is not None
        return self.controller.session.prompt().player

    def start_option(self, option: Option, first_value: Any = None) -> None:
        """Begin an action: fill what is fixed, then ask for the rest (places, values, cards)."""
        player = self.current_actor()
        if player is None or self.table is None:
            return
        if self.table.handles(option):
            self.table.start(option, player)
            return
        self.flow = OptionFlow(option, player)
        if first_value is not None:
            self.flow.chosen[next(iter(option.targets))] = first_value
        self._hide_message()
        self._advance()

    def _advance(self) -> None:
        flow = self.flow
        assert flow is not None
        while (field_name := flow.next_field) is not None:
            values = flow.option.targets[field_name]
            if len(values) != 1:
                self.refresh()          # highlight the places, or show the value buttons
                return
            flow.chosen[field_name] = values[0]
        self.flow = None
        option = flow.option
        action = {"type": option.action, "player": flow.player, **flow.chosen}
        if option.reads:
            reads = [(card_field, str(flow.chosen[place_field])) for card_field, place_field in option.reads.items()]
            self.refresh()
            self.read_cards(action, reads, private=option.private, heading=self._read_heading(option, flow, reads))
        elif not self.send(action):
            self.refresh()          # refused: show the prompt again (a success refreshes by itself)

    def _read_heading(self, option: Option, flow: OptionFlow, reads: list[tuple[str, str]]) -> str:
        assert self.controller is not None
        if option.private:
            places = " and ".join(self.controller.words(place, flow.player) for _, place in reads)
            return f"{flow.player}, look at {places}"
        what = "the card" if len(reads) == 1 else "both cards" if len(reads) == 2 else f"the {len(reads)} cards"
        return f"{sentence(option.label)}\nFlip {what} face up for everyone."

    def place_picked(self, place: str) -> None:
        assert self.controller is not None
        if self.flow is not None:
            field_name = self.flow.next_field
            if field_name is None:
                return
            values = self.flow.option.targets[field_name]
            match = next((v for v in values if str(v) == place), None)
            if match is None:
                self.place_refused(place)
                return
            self.flow.chosen[field_name] = match
            self._advance()
            return
        for option in self._direct_options(self.controller.session.prompt()):
            values = next(iter(option.targets.values()))
            match = next((v for v in values if str(v) == place), None)
            if match is not None:
                self.start_option(option, match)
                return
        self.place_refused(place)

    def value_picked(self, value: Any) -> None:
        if self.flow is None or self.flow.next_field is None:
            return
        self.flow.chosen[self.flow.next_field] = value
        self._advance()

    def cancel_flow(self) -> None:
        self.flow = None
        self.refresh()

    # --- the die -------------------------------------------------------------------------
    def attach_die_reader(self, reader) -> None:
        """Rolls of the real die arrive from the USB die reader (desktop.die) like button presses."""
        self.die_light.follow(reader)
        self.die_light.show()
        reader.rolled.connect(lambda face, _seq: self.reader_rolled(face))
        reader.error.connect(self._die_problem)
        reader.status_changed.connect(lambda _status: self.die_message.hide())

    def reader_rolled(self, face: int) -> None:
        """A roll from the die reader: applied like a button press when a roll is expected,
        otherwise shown and ignored (a die knocked over mid-turn must not change the game)."""
        if self.controller is None or self.die is None:
            return
        decision = explain_roll(self.controller.session, None, face)
        if decision.action is None:
            self._die_problem(f"Die reader: {decision.reason}")
        else:
            self.die_message.hide()
            self.send(decision.action)

    def _die_problem(self, message: str) -> None:
        self.die_message.setText(message)
        self.die_message.show()
        self._fit_action_column()          # a taller die box: a message under the actions gives way

    def roll_on_screen(self) -> None:
        if self.die is not None:
            self.apply_roll(self._rng.randint(1, len(self.die.faces)))

    def apply_roll(self, face: int) -> None:
        player = self.current_actor()
        if player is not None:
            self.send({"type": "roll", "player": player, "face": face})

    # --- undo ------------------------------------------------------------------------
    def ask_undo(self) -> None:
        if self.controller is None:
            return
        history = self.controller.session.undo_history()
        if not history:
            return
        self._set_message(self.undo_question, f"Undo \u201c{history[-1]}\u201d?")
        self._place_message(self.undo_panel)
        self.undo_no.setFocus()

    def confirm_undo(self) -> None:
        assert self.controller is not None
        self._hide_message()
        self.flow = None
        try:
            words = self.controller.undo()
        except (RuleViolation, MoveNotSaved) as exc:
            self.complain(exc)
            return
        self.say([f"Undone: {words}."])
