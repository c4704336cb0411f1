"""The main window: one stack of screens, and the flows that go from one to another."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QApplication, QFrame, QMainWindow, QScrollArea, QStackedWidget, QVBoxLayout, QWidget

from engine.errors import RuleViolation
from engine.store import StoreError

from .camera import CameraPanel
from .sounds import Sounds
from .card_entry import CardEntry
from .games import GameController
from .new_game_screen import NewGameScreen
from .private import JournalView, PrivacyGate
from .setup_screen import SetupScreen
from .start_screen import StartScreen
from .table_screen import TableScreen

WINDOW_TITLE = "Gumshoe \u2014 Carmen Sandiego card game"


class MainWindow(QMainWindow):
    def __init__(self, *, demo: bool = False, camera: str = "off", camera_index: int = 0,
                 die_reader: bool = False) -> None:
        """``camera``: "auto" opens the webcam for each game, "off" only when asked (tests, smoke);
        a demo game always uses the simulated table. ``die_reader``: look for the USB die reader."""
        super().__init__()
        self.camera_setting = camera
        self.camera_index = camera_index
        self.setWindowTitle(WINDOW_TITLE)
        self.resize(1500, 940)
        self.controller: GameController | None = None
        self.entry: CardEntry | None = None        # the card entry now on screen, if any

        self.stack = QStackedWidget()
        self.setCentralWidget(self.stack)
        self.start = StartScreen()
        self.new_game = NewGameScreen()
        self.table = TableScreen()
        self.setup = SetupScreen()
        self.setup.done.connect(self.show_table)
        self.gate = PrivacyGate()
        # In a scroll area: wrapped labels and long lists must not make the window taller
        # than a laptop screen.
        self.flip_page = QScrollArea()
        self.flip_page.setWidgetResizable(True)
        self.flip_page.setFrameShape(QFrame.NoFrame)
        flip_inner = QWidget()
        self.flip_page.setWidget(flip_inner)
        self.flip_layout = QVBoxLayout(flip_inner)
        for page in (self.start, self.new_game, self.setup, self.table, self.gate, self.flip_page):
            self.stack.addWidget(page)

        self.start.new_game_requested.connect(lambda: self.show_new_game(demo=False))
        self.start.demo_requested.connect(lambda: self.show_new_game(demo=True))
        self.start.resume_requested.connect(self.resume_game)
        self.new_game.cancelled.connect(self.show_start)
        self.new_game.start_requested.connect(self.start_game)
        self.table.leave_requested.connect(self.leave_game)
        self.table.peek_requested.connect(self.open_peek)
        self.table.flip_requested.connect(self.open_flip)
        self.table.journal_requested.connect(self.open_journal)
        self.gate.closed.connect(self._private_closed)
        self.sounds = Sounds(enabled=self.start.sound.isChecked, fallback=QApplication.beep)
        self.die_reader = None
        if die_reader:
            from .die.qt_adapter import DieReader
            self.die_reader = DieReader(self)
            self.table.attach_die_reader(self.die_reader)
            self.die_reader.start()
        self.start.test_die_requested.connect(self.test_die)
        self.start.test_die_button.setEnabled(self.die_reader is not None)
        self.camera_panel = CameraPanel()
        self.camera_panel.card_seen.connect(self._card_seen)
        self.table.extra_side.addWidget(self.camera_panel)
        self.show_new_game(demo=True) if demo else self.show_start()

    def test_die(self) -> None:
        """Settings: roll the USB die reader and see each roll with what it shows in this game."""
        if self.die_reader is None:
            return
        from engine.cards import load_game_deck
        from .die.widgets import DieTestDialog
        deck = load_game_deck("carmen-cards")
        names = {k: kind.name for k, kind in deck.kinds.items()}
        DieTestDialog(self.die_reader, self.table.die, names, self).exec()

    # --- screens -------------------------------------------------------------------
    def show_start(self) -> None:
        self.start.refresh()
        self.stack.setCurrentWidget(self.start)
        self.start.new_button.setFocus()

    def show_new_game(self, demo: bool) -> None:
        self.new_game.reset(demo)
        self.stack.setCurrentWidget(self.new_game)

    def show_table(self) -> None:
        self.entry = None
        self.table.refresh()
        self.stack.setCurrentWidget(self.table)

    # --- games ---------------------------------------------------------------------
    def start_game(self, players: list[str], ages: dict, assist, demo: bool) -> None:
        try:
            controller = GameController.new(players, ages, assist, demo=demo)
        except RuleViolation as exc:
            self.new_game.show_error(exc.message)
            return
        self._open(controller)
        self.table.say([controller.session.public_log()[0]] if controller.session.public_log() else [])
        self.setup.show_game(controller)
        self.stack.setCurrentWidget(self.setup)

    def resume_game(self, path: Path) -> None:
        try:
            controller = GameController.resume(path)
        except (StoreError, RuleViolation, OSError, ValueError) as exc:
            self.start.print_status.setText(f"That game could not be opened: {exc}")
            return
        self._open(controller)
        words = controller.session.undo_history()
        self.table.say([f"Welcome back. The last thing that happened: {words[-1]}."] if words else
                       ["Welcome back."])

    def _open(self, controller: GameController) -> None:
        self._close_game()
        self.controller = controller
        controller.turn_changed.connect(self._turn_changed)
        controller.applied.connect(self.sounds.play_for)
        self.table.set_controller(controller)
        if controller.demo:
            self.camera_panel.start_simulated(controller.session.options.get("demo_seed", 0))
        elif self.camera_setting == "auto":
            self.camera_panel.start_webcam(self.camera_index)
        self.show_table()

    def _close_game(self) -> None:
        if self.controller is not None:
            self.gate.close_private()
            self.controller.close()
            self.controller = None
        self.camera_panel.stop()

    def leave_game(self) -> None:
        self._close_game()
        self.show_start()

    # --- private and public card entry ------------------------------------------------
    def open_peek(self, player: str, place: str) -> None:
        c = self.controller
        assert c is not None
        where = c.slot_words(place, viewer=player)

        def content() -> CardEntry:
            hints = {}
            true_card = c.true_card_at(place)
            if true_card is not None:
                hints["card"] = f"On the simulated table this card is: {c.deck.name_of(true_card)}"
            entry = CardEntry(c, f"{player}, look at {where}", [("card", place)],
                              lambda cards: {"type": "peek", "player": player, "slot": place, **cards},
                              submit_text="Note it in my journal", hints=hints,
                              camera_note=self._camera_note("Hold the card up to the camera, face to the lens"),
                              show_to_camera=self._simulated_show([place]))
            entry.done.connect(self._entry_done)
            entry.cancelled.connect(self.gate.close_private)
            self.entry = entry
            return entry

        self.gate.open_for(player, f"{player} looks at {c.slot_words(place)}. Pick up the card, keep it hidden, "
                                   f"and show it only to the camera or to this screen.", content)
        self.stack.setCurrentWidget(self.gate)

    def open_flip(self, action: str, fixed: dict, reads: list) -> None:
        """Cards flipped face up for everyone: entered on the shared screen, no gate needed."""
        c = self.controller
        assert c is not None
        hints = {}
        if c.demo:
            for card_field, place in reads:
                hints[card_field] = f"Flipped on the simulated table: {c.deck.name_of(c.true_card_at(place))}"
        heading = {"warrant": "Warrant! Flip both cards face up for everyone",
                   "final_warrant": "Warrant for Carmen! Flip the center Loot and Location",
                   "flip_henchman": "Flip the Henchman face up for everyone"}.get(action, "Flip the cards face up")
        entry = CardEntry(c, heading, [tuple(r) for r in reads], lambda cards: {**fixed, **cards},
                          submit_text="These are the cards", hints=hints,
                          camera_note=self._camera_note("Flip the cards face up in front of the camera" if len(reads) > 1
                                                        else "Flip the card face up in front of the camera"),
                          show_to_camera=self._simulated_show([place for _, place in reads]))
        entry.done.connect(self._entry_done)
        entry.cancelled.connect(self.show_table)
        self._clear_flip_page()
        self.flip_layout.addWidget(entry)
        self.entry = entry
        self.stack.setCurrentWidget(self.flip_page)

    def _camera_note(self, text: str) -> str | None:
        if not self.camera_panel.running:
            return None
        return f"{text} \u2014 or pick from the list."

    def _simulated_show(self, places: list[str]):
        """Demo mode: a button that holds the virtual cards up to the simulated camera."""
        c = self.controller
        if c is None or not c.demo or self.camera_panel.simulated is None:
            return None
        cards = [c.true_card_at(p) for p in places]
        return lambda: self.camera_panel.simulated.hold_up(cards)

    def _card_seen(self, card_id: str) -> None:
        self.sounds.play("tick")
        if self.entry is not None:
            self.entry.accept_sighting(card_id)

    def _clear_flip_page(self) -> None:
        while self.flip_layout.count():
            w = self.flip_layout.takeAt(0).widget()
            if w is not None:
                w.hide()
                w.deleteLater()

    def _entry_done(self, public_lines: list) -> None:
        on_gate = self.stack.currentWidget() is self.gate
        self.entry = None
        if on_gate:
            self.gate.close_private()        # comes back to the table through _private_closed
        else:
            self._clear_flip_page()
            self.show_table()
        self.table.say(public_lines)

    def open_journal(self, player: str) -> None:
        c = self.controller
        assert c is not None

        def content() -> JournalView:
            view = JournalView(c.session.journal(player, c.assist), {k: c.kind_name(k) for k in c.deck.kinds})
            view.hide_requested.connect(self.gate.close_private)
            return view

        self.gate.open_for(player, "Your Evidence Journal: what you have seen and where those cards are now.",
                           content)
        self.stack.setCurrentWidget(self.gate)

    def _private_closed(self) -> None:
        self.entry = None
        if self.controller is not None:
            self.show_table()

    def _turn_changed(self, before: str, now: str) -> None:
        # A new turn means the laptop goes to someone else: nothing private stays open.
        if self.stack.currentWidget() is self.gate and self.gate.revealed and self.entry is None:
            self.gate.close_private()

    def closeEvent(self, event) -> None:
        if self.die_reader is not None:
            self.die_reader.stop()
        self._close_game()
        super().closeEvent(event)
