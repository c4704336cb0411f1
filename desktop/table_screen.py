"""The table screen: what everyone at the table may see.

It shows only the shared view of the engine (face-down cards without names), highlights
exactly the slots the engine's prompt says are legal, and sends every choice to the
engine through the controller. Card identities are entered on other screens: privately
(peek) or publicly (cards flipped face up for a warrant).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (QFrame, QGridLayout, QGroupBox, QHBoxLayout, QListWidget, QScrollArea,
                               QVBoxLayout, QWidget)

from engine.dice import load_die
from engine.errors import RuleViolation
from engine.game import Option

from . import style
from .die.mapping import explain_roll
from .die.widgets import DieStatusLight
from .games import GameController, public_texts
from .widgets import SlotButton, button, label

SLOT_ACTIONS = ("peek", "flip_henchman", "swap")     # options whose only target is one slot
DIE_SYMBOL_ORDER = ("loot", "location", "henchman")


@dataclass
class WarrantInProgress:
    """Slots picked so far for a warrant, in the order the engine lists the fields."""

    option: Option
    chosen: dict[str, str] = field(default_factory=dict)

    @property
    def next_field(self) -> str | None:
        return next((f for f in self.option.targets if f not in self.chosen), None)


class TableScreen(QWidget):
    #: (player, place) a peek needs a private look by that player
    peek_requested = Signal(str, str)
    #: a public flip: (action type, fixed fields, reads: [(card field, place)])
    flip_requested = Signal(str, dict, list)
    journal_requested = Signal(str)
    leave_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller: GameController | None = None
        self.warrant: WarrantInProgress | None = None
        self.slot_buttons: dict[str, SlotButton] = {}
        self.player_boxes: dict[str, QGroupBox] = {}
        self._rng = random.SystemRandom()
        self._build()

    # --- layout --------------------------------------------------------------------
    def _build(self) -> None:
        outer = QVBoxLayout(self)
        outer.setContentsMargins(16, 12, 16, 12)
        top = QHBoxLayout()
        self.turn_label = label("", "title", wrap=False)
        self.turn_label.setObjectName("turn")
        top.addWidget(self.turn_label, 1)
        self.undo_button = button("Undo\u2026 (Ctrl+Z)")
        self.undo_button.setObjectName("undo")
        self.undo_button.clicked.connect(self.ask_undo)
        self.leave_button = button("Back to start")
        self.leave_button.setObjectName("leave")
        self.leave_button.clicked.connect(self.leave_requested)
        top.addWidget(self.undo_button)
        top.addWidget(self.leave_button)
        outer.addLayout(top)

        self.prompt_label = label("", "prompt")
        self.prompt_label.setObjectName("prompt")
        outer.addWidget(self.prompt_label)
        self.banner = label("", "banner")
        self.banner.setObjectName("banner")
        self.banner.hide()
        outer.addWidget(self.banner)
        self.error = label("", "error")
        self.error.setObjectName("error")
        self.error.hide()
        outer.addWidget(self.error)

        # Undo asks first, in public words, inside the window (no modal dialog to lose).
        self.undo_panel = QFrame()
        undo_row = QHBoxLayout(self.undo_panel)
        self.undo_question = label("", "banner")
        self.undo_question.setObjectName("undo:question")
        self.undo_yes = button("Yes, undo it", "danger")
        self.undo_yes.setObjectName("undo:yes")
        self.undo_no = button("No, keep it")
        self.undo_no.setObjectName("undo:no")
        self.undo_yes.clicked.connect(self.confirm_undo)
        self.undo_no.clicked.connect(self.undo_panel.hide)
        undo_row.addWidget(self.undo_question, 1)
        undo_row.addWidget(self.undo_yes)
        undo_row.addWidget(self.undo_no)
        self.undo_panel.hide()
        outer.addWidget(self.undo_panel)

        body = QHBoxLayout()
        outer.addLayout(body, 1)
        self.board_area = QWidget()
        self.board_layout = QGridLayout(self.board_area)
        self.board_layout.setSpacing(12)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.board_area)
        scroll.setFrameShape(QFrame.NoFrame)
        body.addWidget(scroll, 3)

        # The side column scrolls rather than stretching the window past a laptop screen.
        side_widget = QWidget()
        side = QVBoxLayout(side_widget)
        side.setContentsMargins(0, 0, 4, 0)
        side_scroll = QScrollArea()
        side_scroll.setWidgetResizable(True)
        side_scroll.setFrameShape(QFrame.NoFrame)
        side_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        side_scroll.setWidget(side_widget)
        self.side_widget, self.side_scroll = side_widget, side_scroll
        body.addWidget(side_scroll, 1)
        die_box = QGroupBox("Die")
        die_layout = QVBoxLayout(die_box)
        self.roll_button = button("Roll the die (R)", "primary", name="roll", big=True)
        self.roll_button.clicked.connect(self.roll_on_screen)
        die_layout.addWidget(self.roll_button)
        die_layout.addWidget(label("Rolled the real die? It shows:"))
        self.rolled_row = QHBoxLayout()
        die_layout.addLayout(self.rolled_row)
        self.rolled_buttons: dict[str, object] = {}
        self.die_light = DieStatusLight()
        die_layout.addWidget(self.die_light)
        self.die_message = label("")
        self.die_message.setObjectName("die:message")
        self.die_message.hide()
        die_layout.addWidget(self.die_message)
        side.addWidget(die_box)

        action_box = QGroupBox("Actions")
        self.action_layout = QVBoxLayout(action_box)
        side.addWidget(action_box)

        journal_box = QGroupBox("Evidence Journals (private)")
        self.journal_layout = QHBoxLayout(journal_box)
        side.addWidget(journal_box)

        self.extra_side = QVBoxLayout()      # the camera panel goes here
        side.addLayout(self.extra_side)

        side.addStretch(1)

        self._die_shortcuts: list[QShortcut] = []
        self._shortcut(QKeySequence("R"), lambda: self.roll_button.isEnabled() and self.roll_on_screen())
        self._shortcut(QKeySequence.Undo, self.ask_undo)

    def _shortcut(self, keys, action) -> QShortcut:
        # Only while the table screen has the focus: a key pressed on a private screen or
        # in a text field must never roll the die or undo.
        shortcut = QShortcut(keys, self, activated=action)
        shortcut.setContext(Qt.WidgetWithChildrenShortcut)
        return shortcut

    # --- a game --------------------------------------------------------------------
    def set_controller(self, controller: GameController) -> None:
        if self.controller is not None:
            self.controller.changed.disconnect(self.refresh)
        self.controller = controller
        controller.changed.connect(self.refresh)
        self.warrant = None
        self._build_boards()
        self._build_die_buttons()
        self._build_journal_buttons()
        self._fit_side_column()
        self.banner.hide()
        self.error.hide()
        self.undo_panel.hide()
        self.refresh()

    def _fit_side_column(self) -> None:
        # Never narrower than its contents: only vertical scrolling, never clipped buttons.
        bar = self.side_scroll.verticalScrollBar().sizeHint().width()
        self.side_scroll.setMinimumWidth(self.side_widget.minimumSizeHint().width() + bar + 8)

    def _clear(self, layout) -> None:
        while layout.count():
            item = layout.takeAt(0)
            if item.widget():
                # Hidden now, deleted later: a removed button must not linger on screen
                # (or be clickable) until the event loop gets round to deleting it.
                item.widget().hide()
                item.widget().deleteLater()
            elif item.layout():
                self._clear(item.layout())

    def _build_boards(self) -> None:
        assert self.controller is not None
        self._clear(self.board_layout)
        self.slot_buttons.clear()
        self.player_boxes.clear()
        session = self.controller.session
        kinds = list(self.controller.deck.kinds)
        positions = list(session.layout()["slots"])
        columns = 2 if len(session.players) > 1 else 1
        for i, player in enumerate(session.players):
            box = QGroupBox(player)
            box.setObjectName(f"board:{player}")
            grid = QGridLayout(box)
            for c, kind in enumerate(kinds):
                grid.setColumnStretch(c, 1)          # equal columns, whatever the card names
                grid.addWidget(label(self.controller.kind_name(kind), wrap=False), 0, c, Qt.AlignHCenter)
                for r, position in enumerate(positions):
                    slot = SlotButton(f"{player}/{kind}/{position}")
                    slot.picked.connect(self.slot_picked)
                    self.slot_buttons[slot.place] = slot
                    grid.addWidget(slot, r + 1, c)
            self.player_boxes[player] = box
            self.board_layout.addWidget(box, i // columns, i % columns)
        center_box = QGroupBox("Center of the table")
        center_box.setObjectName("center")
        grid = QGridLayout(center_box)
        for c, kind in enumerate(kinds):
            grid.setColumnStretch(c, 1)
            grid.addWidget(label(self.controller.kind_name(kind), wrap=False), 0, c, Qt.AlignHCenter)
            slot = SlotButton(f"center/{kind}")
            slot.picked.connect(self.slot_picked)
            self.slot_buttons[slot.place] = slot
            grid.addWidget(slot, 1, c)
        self.pile_label = label("")
        self.pile_label.setObjectName("piles")
        grid.addWidget(self.pile_label, 2, 0, 1, len(kinds))
        self.out_label = label("")
        self.out_label.setObjectName("out")
        grid.addWidget(self.out_label, 3, 0, 1, len(kinds))
        # The center takes the next free cell after the gumshoes, the log the one after it
        # (or a full row of its own), so the table fits a laptop screen without scrolling.
        n = len(session.players)
        self.board_layout.addWidget(center_box, n // columns, n % columns)
        log_box = QGroupBox("What happened")
        log_layout = QVBoxLayout(log_box)
        self.log_list = QListWidget()
        self.log_list.setObjectName("log")
        self.log_list.setWordWrap(True)
        self.log_list.setMinimumHeight(150)
        log_layout.addWidget(self.log_list)
        cell = n + 1
        if cell % columns:
            self.board_layout.addWidget(log_box, cell // columns, cell % columns)
        else:
            self.board_layout.addWidget(log_box, cell // columns, 0, 1, columns)

    def _build_die_buttons(self) -> None:
        assert self.controller is not None
        self._clear(self.rolled_row)
        self.rolled_buttons.clear()
        for shortcut in self._die_shortcuts:      # a new game must not add a second set
            shortcut.setEnabled(False)
            shortcut.deleteLater()
        self._die_shortcuts.clear()
        die = load_die("carmen")
        for n, symbol in enumerate(die.symbols, 1):
            name = self.controller.kind_name(symbol) if symbol in self.controller.deck.kinds else symbol
            b = button(f"{name} ({n})")
            b.setObjectName(f"rolled:{symbol}")
            b.clicked.connect(lambda _=False, f=die.face_showing(symbol): self.apply_roll(f))
            self._die_shortcuts.append(self._shortcut(
                QKeySequence(str(n)), lambda f=die.face_showing(symbol), b=b: b.isEnabled() and self.apply_roll(f)))
            self.rolled_buttons[symbol] = b
            self.rolled_row.addWidget(b)
        self.die = die

    def _build_journal_buttons(self) -> None:
        assert self.controller is not None
        self._clear(self.journal_layout)
        for player in self.controller.session.players:
            b = button(player)
            b.setObjectName(f"journal:{player}")
            b.setToolTip(f"Open {player}'s Evidence Journal (only {player} should look)")
            b.clicked.connect(lambda _=False, p=player: self.journal_requested.emit(p))
            self.journal_layout.addWidget(b)

    # --- drawing -------------------------------------------------------------------
    def showEvent(self, event) -> None:
        super().showEvent(event)
        self._fit_side_column()       # sizes are only right once the style is applied

    def refresh(self) -> None:
        if self.controller is None:
            return
        c = self.controller
        view = c.shared_view()
        prompt = view.prompt
        over = view.outcome is not None
        actor = prompt.player
        if over:
            self.turn_label.setText("Game over")
        elif actor and actor != view.current:
            # A penalty swap or a replacement: someone else acts inside this turn.
            self.turn_label.setText(f"{view.current}'s turn \u2014 {actor} to act")
        else:
            self.turn_label.setText(f"{view.current}'s turn")
        if self.warrant is not None and prompt.option(self.warrant.option.action) is None:
            self.warrant = None          # the game moved on (undo, say): drop a half-made warrant
        self.prompt_label.setText(self._prompt_text(prompt.text))
        for player, box in self.player_boxes.items():
            out = player in c.session.eliminated
            box.setTitle(f"{player} (out of the game)" if out else
                         f"{player}  \u25C0 playing now" if player == view.current and not over else player)
            box.setProperty("current", "true" if player == view.current and not over else "false")
            box.style().unpolish(box)
            box.style().polish(box)
        legal = self._legal_slots(prompt)
        chosen = set(self.warrant.chosen.values()) if self.warrant else set()
        by_place = {card.place: card for card in view.cards}
        for place, slot in self.slot_buttons.items():
            kind = place.split("/")[-2] if place.count("/") == 2 else place.split("/")[-1]
            card = by_place.get(place)
            slot.show_card(c.kind_name(kind), place.split("/")[-1].capitalize() if place.count("/") == 2 else "Table center",
                           style.kind_colour(c.kind_index(kind)), name=card.name if card else None,
                           face_up=bool(card and card.face_up), present=card is not None, legal=place in legal, chosen=place in chosen)
        piles = [f"{c.kind_name(k)}: {sum(1 for x in view.cards if x.place == f'pile/{k}')}" for k in c.deck.kinds]
        self.pile_label.setText("Draw piles \u2014 " + ", ".join(piles))
        out = [x.name for x in view.cards if x.place == "out" and x.name]
        self.out_label.setText("Out of play: " + (", ".join(out) if out else "none yet"))
        self._refresh_die(prompt)
        self._refresh_actions(prompt, over)
        self.log_list.clear()
        self.log_list.addItems(list(view.log))
        self.log_list.scrollToBottom()
        self.undo_button.setEnabled(bool(view.undo_history))
        if self.isVisible():
            self._fit_side_column()

    def _prompt_text(self, text: str) -> str:
        if self.warrant is None:
            return text
        assert self.controller is not None
        field_name = self.warrant.next_field
        kind = self.controller.kind_name(field_name) if field_name in self.controller.deck.kinds else field_name
        return f"Warrant: pick the {kind} card to flip (highlighted slots)."

    def _legal_slots(self, prompt) -> set[str]:
        if self.warrant is not None:
            field_name = self.warrant.next_field
            return set(self.warrant.option.targets.get(field_name, ())) if field_name else set()
        slot_option = self._slot_option(prompt)
        return set(slot_option.targets["slot"]) if slot_option else set()

    @staticmethod
    def _slot_option(prompt) -> Option | None:
        return next((o for o in prompt.options if o.action in SLOT_ACTIONS), None)

    def _refresh_die(self, prompt) -> None:
        can_roll = prompt.option("roll") is not None and self.warrant is None
        self.roll_button.setEnabled(can_roll)
        for b in self.rolled_buttons.values():
            b.setEnabled(can_roll)

    def _add_action(self, widget: QWidget) -> None:
        self.action_layout.addWidget(widget)
        # Show it now: a layout otherwise shows new children only on the next event-loop pass.
        widget.show()

    def _refresh_actions(self, prompt, over: bool) -> None:
        self._clear(self.action_layout)
        if over:
            b = button("Back to the start screen", "primary")
            b.clicked.connect(self.leave_requested)
            self._add_action(b)
            return
        if self.warrant is not None:
            b = button("Cancel the warrant")
            b.setObjectName("action:cancel")
            b.clicked.connect(self.cancel_warrant)
            self._add_action(b)
            return
        if self._slot_option(prompt) is not None:
            hint = label("Click a highlighted card (\u25B6) on the table, or use Tab and Enter.")
            hint.setObjectName("action:hint")
            self._add_action(hint)
        elif [o.action for o in prompt.options] == ["roll"]:
            self._add_action(label("Roll the die: the real one or the button above."))
        for option in prompt.options:
            if option.action == "roll":
                continue
            if option.action in SLOT_ACTIONS:
                targets = option.targets["slot"]
                if option.action == "peek" and len(targets) == 1:
                    # Only one legal card: offer it directly (the slot is highlighted too).
                    assert self.controller is not None
                    b = button(f"Look at {self.controller.slot_words(targets[0])}", "primary")
                    b.setObjectName("action:peek")
                    b.clicked.connect(lambda _=False, t=targets[0]: self.slot_picked(t))
                    self._add_action(b)
                continue
            role = "primary" if option.action in ("warrant", "final_warrant", "end_turn") else None
            b = button(option.label, role)
            b.setObjectName(f"action:{option.action}")
            b.clicked.connect(lambda _=False, o=option: self.option_chosen(o))
            self._add_action(b)

    # --- messages ------------------------------------------------------------------
    def say(self, lines: list[str]) -> None:
        """Show what just happened, in the words everyone may read."""
        self.error.hide()
        if lines:
            self.banner.setText("\n".join(lines))
            self.banner.show()
        else:
            self.banner.hide()

    def complain(self, exc: RuleViolation) -> None:
        text = exc.message + (f"\n(Rulebook: {exc.section})" if exc.section else "")
        self.error.setText(text)
        self.error.show()

    # --- acting ----------------------------------------------------------------------
    def send(self, action: dict, on_done: Callable[[], None] | None = None) -> bool:
        assert self.controller is not None
        try:
            events = self.controller.apply(action)
        except RuleViolation as exc:
            self.complain(exc)
            return False
        self.say(public_texts(events))
        if on_done:
            on_done()
        return True

    def current_actor(self) -> str | None:
        assert self.controller is not None
        return self.controller.session.prompt().player

    def attach_die_reader(self, reader) -> None:
        """Rolls of the real die arrive from the USB die reader (desktop.die) like button presses."""
        self.die_light.follow(reader)
        reader.rolled.connect(lambda face, _seq: self.reader_rolled(face))
        reader.error.connect(self._die_problem)
        reader.status_changed.connect(lambda _status: self.die_message.hide())

    def reader_rolled(self, face: int) -> None:
        """A roll from the die reader: applied like a button press when a roll is expected,
        otherwise shown and ignored (a die knocked over mid-turn must not change the game)."""
        if self.controller is None:
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

    def roll_on_screen(self) -> None:
        face = self._rng.randint(1, len(self.die.faces))
        self.apply_roll(face)

    def apply_roll(self, face: int) -> None:
        player = self.current_actor()
        if player is not None:
            self.send({"type": "roll", "player": player, "face": face})

    def option_chosen(self, option: Option) -> None:
        player = self.current_actor()
        if option.action == "warrant":
            self.warrant = WarrantInProgress(option)
            self.error.hide()
            self.refresh()
        elif option.action == "final_warrant":
            fixed = {"type": "final_warrant", "player": player}
            reads = [(card_field, option.targets[place_field][0]) for card_field, place_field in option.reads.items()]
            self.flip_requested.emit("final_warrant", fixed, reads)
        else:
            self.send({"type": option.action, "player": player})

    def cancel_warrant(self) -> None:
        self.warrant = None
        self.refresh()

    def slot_picked(self, place: str) -> None:
        assert self.controller is not None
        prompt = self.controller.session.prompt()
        player = prompt.player
        self.error.hide()
        if self.warrant is not None:
            field_name = self.warrant.next_field
            if field_name is None:
                return
            self.warrant.chosen[field_name] = place
            if self.warrant.next_field is None:
                option, chosen = self.warrant.option, dict(self.warrant.chosen)
                self.warrant = None
                self.refresh()
                fixed = {"type": option.action, "player": player, **chosen}
                reads = [(card_field, chosen[place_field]) for card_field, place_field in option.reads.items()]
                self.flip_requested.emit(option.action, fixed, reads)
            else:
                self.refresh()
            return
        option = self._slot_option(prompt)
        if option is None or place not in option.targets["slot"]:
            return
        if option.action == "peek":
            self.peek_requested.emit(player, place)
        elif option.action == "flip_henchman":
            self.flip_requested.emit("flip_henchman", {"type": "flip_henchman", "player": player, "slot": place},
                                     [("card", place)])
        elif option.action == "swap":
            self.send({"type": "swap", "player": player, "slot": place})

    # --- undo ------------------------------------------------------------------------
    def ask_undo(self) -> None:
        if self.controller is None:
            return
        history = self.controller.session.undo_history()
        if not history:
            return
        self.undo_question.setText(f"Undo \u201c{history[-1]}\u201d?")
        self.banner.hide()            # one message at a time keeps the board on screen
        self.undo_panel.show()
        self.undo_no.setFocus()

    def confirm_undo(self) -> None:
        assert self.controller is not None
        self.undo_panel.hide()
        self.warrant = None
        try:
            words = self.controller.undo()
        except RuleViolation as exc:
            self.complain(exc)
            return
        self.say([f"Undone: {words}."])
