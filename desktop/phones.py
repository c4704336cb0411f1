"""The shell's side of the players' phones (issue 22): the codes to scan, the questions sent to a
phone, and what the shared screen says meanwhile. Game-generic: every question comes from the
shell's own card reads (``Option.private``), every page from the player's own view.

Threads: the phone server (``phones.server``) runs in its own thread and never touches the game.
:class:`PhoneTable` lives on the Qt thread: after every change it builds each joined player's
snapshot from that player's own journal and log and hands it over; answers arrive through a
queued signal and are checked against the question now open before anything is applied.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np
from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtGui import QFont, QFontDatabase, QFontMetrics, QImage, QPixmap
from PySide6.QtWidgets import QGridLayout, QHBoxLayout, QLabel, QScrollArea, QVBoxLayout, QWidget

from engine.errors import Contradiction, RuleViolation
from phones import AnswerRefused, PhoneQuestion, PlayerLinks, ReadSpec, player_snapshot
from phones.network import lan_addresses
from phones.qr import qr_modules

from .card_entry import card_lines, card_names
from .games import GameController, MoveNotSaved, public_texts
from .private import hand_words
from .widgets import button, clear_layout, label

#: answers remembered per game (by player and answer id: the server gives the pair), so one sent twice
#: is applied once and another player sending the same id never gets this reply
REMEMBERED_ANSWERS = 500
NOTED = "Noted in your journal."
FIREWALL_NOTE = ("The phones must be on the same Wi-Fi as this computer. The first time, Windows or macOS may ask "
                 "whether Gumshoe may accept connections: allow it for private (home) networks, or the phones "
                 "cannot connect. Each code opens one player's page only: let each player scan their own.")


@dataclass
class _Open:
    """The question now on a phone, the action it completes, and how attempts went."""

    question: PhoneQuestion
    action: dict
    demo_problem: Callable[[dict], str | None] | None
    #: the cards answered -> the copies sent (a line stands for every copy of a card)
    to_copies: Callable[[dict], dict] | None = None
    contradicted: dict | None = None          # the cards of the last attempt the game questioned


@dataclass
class _Answered:
    reply: dict
    done: bool = field(default=False)


class PhoneTable(QObject):
    """One game's phones: the server (when switched on), the links, the open question."""

    #: a phone answered the open question: the public words of what happened
    answered = Signal(list)
    #: the player put the look off on their phone ("Not now"): the laptop's table comes back
    put_off = Signal()
    #: the server started or stopped, or the links changed (the codes screen redraws)
    links_changed = Signal()
    _answer_arrived = Signal(str, dict, object)
    _player_joined = Signal(str)

    def __init__(self, controller: GameController, parent: QObject | None = None,
                 hosts: list[str] | None = None) -> None:
        """``hosts``: where to listen (tests: loopback); None: this computer's home-network addresses."""
        super().__init__(parent)
        self.controller = controller
        self.hosts = hosts
        self.links = PlayerLinks(controller.session.players)
        self.server = None
        self.open: _Open | None = None
        self._answers: OrderedDict[tuple[str, str], dict] = OrderedDict()
        self._answer_arrived.connect(self._answer, Qt.QueuedConnection)
        self._player_joined.connect(self._publish_one, Qt.QueuedConnection)
        controller.changed.connect(self.publish)

    # --- switching on and off ---------------------------------------------------------------
    @property
    def on(self) -> bool:
        return self.server is not None and self.server.running

    def switch_on(self) -> str | None:
        """Start the server; a problem in words (no network, the port refused) or None."""
        if self.on:
            return None
        from phones.server import PhoneServer
        hosts = self.hosts if self.hosts is not None else lan_addresses()
        self.links.renew()                          # new codes for every game and every switch-on
        server = PhoneServer(self.links, self.controller.game_id,
                             lambda player, payload, reply: self._answer_arrived.emit(player, payload, reply),
                             on_join=self._player_joined.emit)
        try:
            server.start(hosts)
        except OSError as exc:
            return f"The phones cannot be switched on: {exc.strerror or exc}"
        self.server = server
        self.publish()
        self.links_changed.emit()
        return None

    def switch_off(self) -> None:
        self.cancel()
        if self.server is not None:
            self.server.stop()
            self.server = None
        self.links_changed.emit()

    def new_codes(self) -> None:
        """Every old link stops working; everyone scans again."""
        if self.server is not None:
            self.server.renew_links()
            self.publish()
        self.links_changed.emit()

    def url(self, player: str) -> str | None:
        return self.server.url(player) if self.on else None

    def on_phone(self, player: str) -> bool:
        """Whether ``player`` opened their page with the current code (their questions go there)."""
        return self.on and self.server.joined(player)

    def pages_open(self, player: str) -> int:
        """On how many devices ``player``'s page is open now (its live connection to the server);
        0 once the page was closed, even though it was opened before."""
        return self.server.devices(player) if self.on else 0

    # --- pages ---------------------------------------------------------------------------------
    def publish(self) -> None:
        """Each joined player's snapshot, from that player's own journal and log only."""
        if not self.on:
            return
        for player in self.controller.session.players:
            if self.server.joined(player):
                self._publish_one(player)

    def _publish_one(self, player: str) -> None:
        if not self.on:
            return
        question = self.open.question if self.open is not None and self.open.question.player == player else None
        c = self.controller
        held = [c.deck.name_of(card) for card in c.simulated_hand(player)]
        hand = hand_words(held) if held else None
        snapshot = player_snapshot(c.session, player, c.assist, question, hand)
        self.server.publish(player, snapshot, question)

    # --- questions -----------------------------------------------------------------------------
    def ask(self, question: PhoneQuestion, action: dict,
            demo_problem: Callable[[dict], str | None] | None = None,
            to_copies: Callable[[dict], dict] | None = None) -> bool:
        """Send the question to its player's phone; False when that player has no phone joined
        (the laptop asks instead)."""
        if not self.on_phone(question.player):
            return False
        self.open = _Open(question, dict(action), demo_problem, to_copies)
        self._publish_one(question.player)
        return True

    def cancel(self) -> None:
        """The question is taken off the phone (Cancel, or answered on the laptop instead)."""
        if self.open is None:
            return
        player = self.open.question.player
        self.open = None
        self._publish_one(player)

    @property
    def asking(self) -> str | None:
        """The player whose phone is answering a question now, else None."""
        return self.open.question.player if self.open is not None else None

    def _answer(self, player: str, payload: dict, reply) -> None:
        answer_id = payload.get("answer")
        if answer_id in self._answers:
            reply(self._answers[answer_id])            # sent again: told again, applied once
            return
        result = self._judge(player, payload)
        self._answers[answer_id] = result
        while len(self._answers) > REMEMBERED_ANSWERS:
            self._answers.popitem(last=False)
        reply(result)

    def _judge(self, player: str, payload: dict) -> dict:
        current = self.open
        if current is None or current.question.player != player or payload.get("question") != current.question.id:
            return {"ok": False, "message": "There is no open question for you now. Look at your page again."}
        if payload.get("later") is True:      # "Not now" on the phone: as the laptop's Cancel
            self.open = None
            self._publish_one(player)
            self.put_off.emit()
            return {"ok": True, "message": "Nothing was noted: the table goes on."}
        try:
            cards = current.question.cards_from_answer(payload.get("cards"))
        except AnswerRefused as exc:
            return {"ok": False, "message": exc.message}
        confirm = payload.get("confirm") is True
        if confirm and cards != current.contradicted:
            return {"ok": False, "message": "There is nothing to confirm: choose the card and send it."}
        if current.demo_problem is not None:
            problem = current.demo_problem(cards)
            if problem:
                return {"ok": False, "message": problem}
        action = {**current.action, **(current.to_copies(cards) if current.to_copies else cards)}
        if confirm:
            action["confirm"] = True
        try:
            events = self.controller.apply(action)
        except Contradiction as exc:
            current.contradicted = cards
            return {"ok": False, "confirm": True, "message": exc.message}
        except RuleViolation as exc:
            return {"ok": False, "message": exc.message + (f" (Rulebook: {exc.section})" if exc.section else "")}
        except MoveNotSaved as exc:
            return {"ok": False, "message": exc.message}
        if self.open is current:
            self.open = None
        self.publish()                                  # the question leaves the page, the card joins the journal
        self.answered.emit(public_texts(events))
        return {"ok": True, "message": NOTED}


# --- questions from the shell's card reads ----------------------------------------------------------

def question_for_cards(c: GameController, action: dict, reads: list[tuple[str, str]], heading: str, text: str,
                       choices: dict[str, list[str]] | None) -> tuple[PhoneQuestion, Callable[[dict], str | None] | None,
                                                                     Callable[[dict], dict]]:
    """The phone question of a private read of single cards (a peek at one or more places): one
    line per distinct card that can lie there (as on the laptop); the answer's line becomes the
    copy the engine (or the simulated table) says it is (``to_copies``)."""
    player = action.get("player", "")
    specs = []
    #: card field -> the line picked -> the copies it stands for (a line per distinct card, as on the laptop)
    lines: dict[str, dict[str, tuple[str, ...]]] = {}
    for card_field, place in reads:
        only = (choices or {}).get(card_field)
        if only is None:
            # Every card of the kind lying there (the page has no "show every card" to fall back on).
            only = [card for card, _ in c.cards_of_kind(c.kind_at(place))]
        grouped = card_lines(c, only)
        lines[card_field] = {copies[0]: copies for copies, _ in grouped}
        specs.append(ReadSpec(card_field, c.words(place, player), tuple((copies[0], words) for copies, words in grouped),
                              also=tuple((copy, copies[0]) for copies, _ in grouped for copy in copies[1:])))
    question = PhoneQuestion.new(player, heading, text, tuple(specs))

    def as_copy(card_field: str, place: str, picked: str) -> str:
        """A line stands for any copy of its card: the one the engine (or the simulated table) says."""
        if picked not in lines[card_field]:
            return picked                 # a copy a photo read: that very card
        copies = c.deck.copies(picked)    # every copy: the one noted lying there may not be listed
        return picked if len(copies) == 1 else c.choose_copy(place, list(copies), player)

    def to_copies(cards: dict) -> dict:
        return {**cards, **{f: as_copy(f, place, cards[f]) for f, place in reads if isinstance(cards.get(f), str)}}

    if not c.demo:
        return question, None, to_copies

    def demo_problem(cards: dict) -> str | None:
        for card_field, place in reads:
            truth = c.true_cards_in(place) if (choices or {}).get(card_field) is not None else [c.true_card_at(place)]
            if not set(lines[card_field].get(cards[card_field], (cards[card_field],))) & set(truth):
                return (f"That is not the card at {c.words(place, player)} on the simulated table. "
                        f"Choose again.")
        return None
    return question, demo_problem, to_copies


def question_for_list(c: GameController, action: dict, read: dict, text: str) -> tuple[PhoneQuestion, Any]:
    """The phone question of several cards from one place (cards drawn, a hand)."""
    player = action.get("player", "")
    deck = c.deck
    kinds = tuple(read["kinds"]) if read.get("kinds") else tuple(deck.kinds)
    ids = [card.id for k in kinds for card in deck.of_kind(k)]
    names = tuple(sorted(card_names(c, ids).items(), key=lambda kv: kv[1]))
    spec = ReadSpec(read["field"], c.words(read["place"], player), names, many=True, least=read["least"],
                    most=read["most"])
    question = PhoneQuestion.new(player, read["heading"], text, (spec,))
    if not c.demo:
        return question, None
    shown = list(read.get("demo_cards") or [])

    def demo_problem(cards: dict) -> str | None:
        chosen = list(cards[read["field"]])
        if shown and read["least"] == read["most"] == len(shown):
            ok = sorted(chosen) == sorted(shown)
        else:
            there = list(c.true_cards_in(read["place"]))
            ok = all(card in there and not there.remove(card) for card in chosen)
        return None if ok else "Those are not the cards on the simulated table. Choose again."
    return question, demo_problem


# --- the screens ---------------------------------------------------------------------------------

def qr_pixmap(text: str, size: int) -> QPixmap:
    """The QR code of ``text`` with a white margin, drawn ``size`` pixels square (sharp modules)."""
    modules = qr_modules(text)
    margin = 4
    n = modules.shape[0] + 2 * margin
    scale = max(1, size // n)
    grid = np.full((n, n), 255, np.uint8)
    grid[margin:-margin, margin:-margin] = np.where(modules, 0, 255)
    pixels = np.ascontiguousarray(np.kron(grid, np.ones((scale, scale), np.uint8)))
    image = QImage(pixels.data, pixels.shape[1], pixels.shape[0], pixels.strides[0], QImage.Format_Grayscale8)
    return QPixmap.fromImage(image.copy())


#: the largest side of a code, in pixels (smaller when many players share the screen), and the least
CODE_SIDE, LEAST_CODE = 220, 120
#: the address with each code, in points, the largest that fits first: read and typed from a metre away
#: (the screen's own text is 15)
ADDRESS_POINTS = (18, 16, 15)
#: how often the codes screen looks at which pages are open, in milliseconds (while it is shown)
PAGES_MS = 1000


def page_state(table: "PhoneTable", player: str) -> str:
    """What the codes screen says under a player's code: whether their page is open now."""
    if not table.on_phone(player):
        return "Not scanned yet"
    devices = table.pages_open(player)
    if devices == 0:
        return "Page closed: scan the code to open it again"
    if devices == 1:
        return "Page open"
    return f"Page open on {devices} devices: only {player}'s phone should have it"


def address_lines(url: str, metrics: QFontMetrics, width: int) -> str:
    """The address in lines that fit ``width``, typed one after the other without spaces: the
    computer's address and port (broken after "http://" or a dot when it must be), then the
    player's link on lines of its own (its letters have no place to break: where a line is full)."""
    head, sep, tail = url.partition("/p/")
    lines: list[str] = []
    for pieces in (re.findall(r"[^./:]*[./:]*", head), list(sep + tail)):
        line = ""
        for piece in pieces:
            for part in ([piece] if metrics.horizontalAdvance(piece) <= width else list(piece)):
                if line and metrics.horizontalAdvance(line + part) > width:
                    lines.append(line)
                    line = ""
                line += part
        if line:
            lines.append(line)
    return "\n".join(lines)


class PhonesScreen(QWidget):
    """The codes to scan: one per player with the name, the address to type and whether the page
    is open under it; the firewall note; new codes."""

    done = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.table: PhoneTable | None = None
        self.states: dict[str, QLabel] = {}
        self._drawn_at = None            # the screen's size when the codes were last drawn
        # Which pages are open, looked at while the screen is shown (a page closed on a phone
        # tells the server, not this screen).
        self._pages = QTimer(self)
        self._pages.setInterval(PAGES_MS)
        self._pages.timeout.connect(self.show_pages)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(16, 8, 16, 8)
        self.title = label("Phones as private screens", "title")
        outer.addWidget(self.title)
        self.intro = label("")
        self.intro.setObjectName("phones:intro")
        outer.addWidget(self.intro)
        self.problem = label("", "error")
        self.problem.setObjectName("phones:problem")
        self.problem.hide()
        outer.addWidget(self.problem)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        inner = QWidget()
        scroll.setWidget(inner)
        self.grid = QGridLayout(inner)
        self.grid.setContentsMargins(12, 12, 12, 12)        # as redraw() counts them
        self.grid.setHorizontalSpacing(12)
        outer.addWidget(scroll, 1)
        row = QHBoxLayout()
        self.switch = button("", name="phones:switch")
        self.switch.clicked.connect(self._switch)
        self.renew = button("New codes (the old ones stop working)", name="phones:new-codes")
        self.renew.clicked.connect(lambda: self.table is not None and self.table.new_codes())
        back = button("Back to the game", "primary", name="phones:done")
        back.clicked.connect(self.done)
        self.back = back
        row.addWidget(self.switch)
        row.addWidget(self.renew)
        row.addStretch(1)
        row.addWidget(back)
        outer.addLayout(row)

    def show_table(self, table: PhoneTable) -> None:
        if self.table is not table:            # the old game's table went with its game (and its connection)
            table.links_changed.connect(self.redraw)
        self.table = table
        self.problem.hide()
        self.redraw()

    def _switch(self) -> None:
        if self.table is None:
            return
        if self.table.on:
            self.table.switch_off()
            return
        problem = self.table.switch_on()
        self.problem.setText(problem or "")
        self.problem.setVisible(bool(problem))

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self._fit()
        self._pages.start()
        self.show_pages()

    def hideEvent(self, event) -> None:
        super().hideEvent(event)
        self._pages.stop()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if self.isVisible():
            self._fit()

    def _fit(self) -> None:
        """The codes and the addresses take the room there is (drawn again at another size)."""
        if self.table is not None and self.table.on and self.size() != self._drawn_at:
            self.redraw()

    def show_pages(self) -> None:
        """Each player's page as it is now: not scanned, open, or closed again."""
        if self.table is None:
            return
        for player, state in self.states.items():
            state.setText(page_state(self.table, player))

    def _cell_width(self, columns: int) -> int:
        """A code's share of the screen's width: less its margins, the scroll area's frame, the
        grid's margins and spacing."""
        return max(160, (self.width() - 2 * 16 - 4 - 2 * 12 - 12 * (columns - 1)) // columns)

    def _layout(self, t: "PhoneTable", players) -> tuple[bool, int, int, QFont, int]:
        """How the codes share the screen: (address beside the code, columns, a code's side, the
        address's font, the address's width). Up to three players: one row, each code with its
        name, address and page under it. More: two rows, the name over the code and the address
        and page beside it (two rows with the words under the codes do not fit 1366x768). The
        address takes the largest type that fits, then the code the largest side (at least
        ``LEAST_CODE``)."""
        beside = len(players) > 3
        rows = 2 if beside else 1
        columns = -(-len(players) // rows)
        # In height, the screen less its title, its intro, its buttons and margins.
        words = (self.title.sizeHint().height() + self.intro.heightForWidth(self.width() - 32)
                 + self.back.sizeHint().height() + 60)
        cell_height = (self.height() - words - 12 * (rows - 1)) // rows
        cell_width = self._cell_width(columns)
        names = [label(p, "heading") for p in players]
        for name in names:
            name.ensurePolished()              # the heading's type, from the style sheet
        name_height = max(name.heightForWidth(cell_width) for name in names)
        font = QFontDatabase.systemFont(QFontDatabase.FixedFont)
        for points in ADDRESS_POINTS:
            font.setPointSize(points)
            metrics = QFontMetrics(font)
            for side in range(min(CODE_SIDE, cell_width - 16), LEAST_CODE - 1, -4):
                width = cell_width - side - 12 if beside else cell_width - 16
                lines = max(address_lines(t.url(p), metrics, width).count("\n") + 1 for p in players)
                text = (lines + 1) * metrics.lineSpacing() + 12          # the address and the page's state
                if name_height + (max(side, text) if beside else side + text) <= cell_height:
                    return beside, columns, side, font, width
        # No room even so (a very small window): the smallest, in a scroll area.
        return beside, columns, LEAST_CODE, font, (cell_width - LEAST_CODE - 12 if beside else cell_width - 16)

    def redraw(self) -> None:
        clear_layout(self.grid)
        self.states = {}
        self._drawn_at = self.size()
        t = self.table
        if t is None:
            return
        self.switch.setText("Switch the phones off" if t.on else "Switch the phones on")
        self.renew.setVisible(t.on)
        if not t.on:
            self.intro.setText("Each player can use their own phone as a private screen: their journal, and the "
                               "cards only they look at. Nothing to install. Players without a phone keep using "
                               "this laptop.")
            return
        self.intro.setText("Each player scans their own code with the phone's camera, or types the address "
                           "shown with it in the phone's browser. " + FIREWALL_NOTE)
        players = t.controller.session.players
        beside, columns, side, font, text_width = self._layout(t, players)
        metrics = QFontMetrics(font)
        for i, player in enumerate(players):
            url = t.url(player)
            code = QLabel()
            code.setObjectName(f"phones:code:{player}")
            code.setPixmap(qr_pixmap(url, side))
            code.setAlignment(Qt.AlignCenter)
            name = label(player, "heading")
            name.setObjectName(f"phones:name:{player}")
            # A phone that cannot scan (or a person typing) opens the same page at this address.
            address = label(address_lines(url, metrics, text_width))
            address.setObjectName(f"phones:address:{player}")
            address.setFont(font)
            address.setWordWrap(False)
            address.setTextInteractionFlags(Qt.TextSelectableByMouse)
            address.setToolTip("Type it in the phone's browser as one line, without spaces.")
            state = label(page_state(t, player))
            state.setObjectName(f"phones:state:{player}")
            self.states[player] = state
            cell = QVBoxLayout()
            cell.setContentsMargins(0, 0, 0, 0)
            if beside:                     # the name over the code, the address and state beside it
                name.setAlignment(Qt.AlignLeft)
                cell.addWidget(name)
                row = QHBoxLayout()
                row.setContentsMargins(0, 0, 0, 0)
                row.addWidget(code, 0, Qt.AlignTop)
                words = QVBoxLayout()
                for w in (address, state):
                    w.setAlignment(Qt.AlignLeft)
                    words.addWidget(w)
                words.addStretch(1)
                row.addLayout(words, 1)
                cell.addLayout(row)
            else:                          # all under the code
                for w in (code, name, address, state):
                    w.setAlignment(Qt.AlignCenter)
                    cell.addWidget(w)
            cell.addStretch(1)
            holder = QWidget()
            holder.setLayout(cell)
            self.grid.addWidget(holder, i // columns, i % columns)
            holder.show()           # now, not on the next pass of the event loop


class PhoneWaitScreen(QWidget):
    """What the shared screen says while a phone answers: the name only, nothing of the card."""

    cancel_requested = Signal()
    laptop_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.addStretch(1)
        self.text = label("", "gate")
        self.text.setObjectName("phone-wait:text")
        self.text.setAlignment(Qt.AlignCenter)
        layout.addWidget(self.text)
        row = QHBoxLayout()
        row.addStretch(1)
        cancel = button("Cancel", name="phone-wait:cancel")
        cancel.clicked.connect(self.cancel_requested)
        laptop = button("Answer on the laptop instead", name="phone-wait:laptop")
        laptop.clicked.connect(self.laptop_requested)
        # Waiting is the safe thing: Enter never cancels the look or takes it off the phone (a
        # person presses a button: a click, or Tab to it and Space). The screen itself holds the
        # keyboard's focus, so a key pressed by mistake does nothing.
        for b in (cancel, laptop):
            b.setAutoDefault(False)
            b.setDefault(False)
        self.setFocusPolicy(Qt.StrongFocus)
        row.addWidget(cancel)
        row.addWidget(laptop)
        row.addStretch(1)
        layout.addLayout(row)
        layout.addStretch(2)

    def show_player(self, player: str) -> None:
        self.text.setText(f"{player} is looking at a card on their phone.")

    def showEvent(self, event) -> None:
        super().showEvent(event)
        # After the stack has given the focus to this page's first button.
        QTimer.singleShot(0, self, self._take_focus)

    def _take_focus(self) -> None:
        if self.isVisible():
            self.setFocus()
