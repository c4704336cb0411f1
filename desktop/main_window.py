"""The main window: one stack of screens, and the flows that go from one to another.

This is the shell: it never names a game. The game shelf comes from the engine's game
registry, a game's table from ``desktop.tables``.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QMargins, QPoint, QRect, QSize, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication, QFrame, QMainWindow, QScrollArea, QStackedWidget, QVBoxLayout, QWidget

from engine.cards import DeckError
from engine.errors import RuleViolation
from engine.store import StoreError

from .camera import CameraPanel
from .card_entry import CardChooser, CardEntry, CardListChooser, counted_names
from .end_screen import EndScreen
from .games import GameController, clean_temp_files
from .new_game_screen import NewGameScreen
from .phones import PhonesScreen, PhoneTable, PhoneWaitScreen, question_for_cards, question_for_list
from .private import JournalView, PrivacyGate
from .setup_screen import SetupScreen
from .sounds import Sounds
from .speech import Speaker
from .start_screen import StartScreen, family_settings, mark_playing, unmark_playing
from .table_screen import TableScreen

WINDOW_TITLE = "Gumshoe"
#: the smallest window every screen must fit (a 1366x768 laptop less its taskbar)
MIN_SIZE = (1280, 680)
#: room kept free around a window opened to fit its screen: a window manager's frame and title bar
FRAME_ROOM = QMargins(8, 36, 8, 8)


def fit_window(available: QRect, saved: QRect | None = None) -> QRect:
    """The window's place and size (its frame not counted) on a screen whose free area is
    ``available``: as large as that area less room for a frame, centred; or ``saved`` (where the
    family left it) made no larger than that and moved whole onto the area. Never smaller than
    ``MIN_SIZE``: a screen smaller than that cannot show every screen whole anyway."""
    inner = available.marginsRemoved(FRAME_ROOM)
    least = QSize(*MIN_SIZE)
    most = inner.size().expandedTo(least)
    if saved is None or saved.isEmpty():
        rect = QRect(QPoint(0, 0), most)
        rect.moveCenter(inner.center())
    else:
        rect = QRect(saved.topLeft(), saved.size().boundedTo(most).expandedTo(least))
    # Whole on the screen; when it cannot be, its top-left corner (the title, the first words) is.
    rect.moveLeft(max(inner.left(), min(rect.left(), inner.right() + 1 - rect.width())))
    rect.moveTop(max(inner.top(), min(rect.top(), inner.bottom() + 1 - rect.height())))
    return rect


class MainWindow(QMainWindow):
    def __init__(self, *, demo: bool = False, camera: str = "off", camera_index: int = 0,
                 die_reader: bool = False, game: str | None = None) -> None:
        """``camera``: "auto" opens the webcam for each game, "off" only when asked (tests, smoke);
        a demo game always uses the simulated table. ``die_reader``: look for the USB die reader.
        ``demo``: go straight to a new game on the simulated table (of ``game``, or the first)."""
        super().__init__()
        self.camera_setting = camera
        self.camera_index = camera_index
        self.setWindowTitle(WINDOW_TITLE)
        self.setMinimumSize(*MIN_SIZE)
        self._place_window()
        self.controller: GameController | None = None
        self.entry: CardEntry | None = None        # the card entry now on screen, if any
        self._story_shown = False                  # the end of this game has been shown once

        self.stack = QStackedWidget()
        self.setCentralWidget(self.stack)
        self.start = StartScreen()
        self.new_game = NewGameScreen()
        self.table = TableScreen()
        self.setup = SetupScreen()
        self.setup.done.connect(self.show_table)
        self.end = EndScreen()
        self.end.back_requested.connect(self.show_table)
        self.end.leave_requested.connect(self.leave_game)
        self.end.reveal_requested.connect(self.open_reveal)
        self.gate = PrivacyGate()
        # The players' phones (off unless the family switches them on): the codes, and the
        # shared screen's words while a phone answers. ``phone_hosts``: where the server listens
        # (None: this computer's home-network addresses; tests use loopback).
        self.phones: PhoneTable | None = None
        self.phone_hosts: list[str] | None = None
        self.phones_screen = PhonesScreen()
        self.phones_screen.done.connect(self._phones_done)
        self.phone_wait = PhoneWaitScreen()
        self.phone_wait.cancel_requested.connect(self._phone_cancelled)
        self.phone_wait.laptop_requested.connect(self._phone_to_laptop)
        self._on_laptop = None          # how the open phone question is asked on the laptop instead
        self._after_phones = None       # the screen that comes after the codes (the layout picture)
        # In a scroll area: wrapped labels and long lists must not make the window taller
        # than a laptop screen.
        self.flip_page = QScrollArea()
        self.flip_page.setWidgetResizable(True)
        self.flip_page.setFrameShape(QFrame.NoFrame)
        flip_inner = QWidget()
        self.flip_page.setWidget(flip_inner)
        self.flip_layout = QVBoxLayout(flip_inner)
        for page in (self.start, self.new_game, self.setup, self.table, self.gate, self.flip_page, self.end,
                     self.phones_screen, self.phone_wait):
            self.stack.addWidget(page)

        self.start.new_game_requested.connect(lambda game: self.show_new_game(game, demo=False))
        self.start.demo_requested.connect(lambda game: self.show_new_game(game, demo=True))
        self.start.resume_requested.connect(self.resume_game)
        self.new_game.cancelled.connect(self.show_start)
        self.new_game.start_requested.connect(self.start_game)
        self.table.leave_requested.connect(self.leave_game)
        self.table.read_requested.connect(self.read_cards)
        self.table.list_read_requested.connect(self.read_card_list)
        self.table.identify_requested.connect(self.identify_card)
        self.table.journal_requested.connect(self.open_journal)
        self.table.phones_requested.connect(self.show_phones)
        self.table.game_over.connect(self.show_end)
        self.gate.closed.connect(self._private_closed)
        self.sounds = Sounds(enabled=self.start.sound.isChecked, fallback=QApplication.beep)
        self.table.speaker = Speaker(enabled=self.start.read_aloud.isChecked)
        self.die_reader = None
        if die_reader:
            from .die.qt_adapter import DieReader
            self.die_reader = DieReader(self)
            self.table.attach_die_reader(self.die_reader)
            self.die_reader.start()
        self.start.test_die_requested.connect(self.test_die)
        self.start.set_die_reader(self.die_reader is not None)
        self.camera_panel = CameraPanel()
        self.camera_panel.card_seen.connect(self._card_seen)
        self.table.camera_slot.addWidget(self.camera_panel)
        self.table.frame_source = self.camera_panel.latest_frame
        self.camera_panel.problem.connect(self.table.notice)
        clean_temp_files()
        if demo and not self.start.after_a_crash():
            self.show_new_game(game or self.start.first_game(), demo=True)
        else:
            self.show_start()          # after a crash the unfinished game is offered first

    def test_die(self, game: str) -> None:
        """Settings: roll the USB die reader and see each roll with what it shows in this game."""
        if self.die_reader is None:
            return
        from engine.dice import load_die
        from engine.games import game_info, rules_for
        from .die.widgets import DieTestDialog
        info = game_info(game)
        if info.die is None:
            return
        deck = rules_for(game).deck
        names = {k: kind.name for k, kind in deck.kinds.items()}
        DieTestDialog(self.die_reader, load_die(info.die), names, self).exec()

    # --- the window's place on the screen (kept in the family's settings) -------------
    def _place_window(self) -> None:
        """Open where the family left the window, made smaller and moved onto the screen if that
        no longer fits (another screen, a lower resolution); the first time, fitted to the screen
        and centred."""
        settings = family_settings()
        try:
            x, y, w, h = (int(v) for v in str(settings.value("window/geometry", "")).split(","))
            saved: QRect | None = QRect(x, y, w, h)
        except ValueError:                       # nothing kept yet, or a hand-edited line
            saved = None
        screen = (saved is not None and QGuiApplication.screenAt(saved.center())) or QGuiApplication.primaryScreen()
        if screen is not None:
            self.setGeometry(fit_window(screen.availableGeometry(), saved))
        if saved is not None and settings.value("window/maximized", False, type=bool):
            self.setWindowState(self.windowState() | Qt.WindowMaximized)

    def _remember_place(self) -> None:
        maximized = bool(self.windowState() & (Qt.WindowMaximized | Qt.WindowFullScreen))
        rect = self.normalGeometry() if maximized and self.normalGeometry().isValid() else self.geometry()
        settings = family_settings()
        settings.setValue("window/geometry", f"{rect.x()},{rect.y()},{rect.width()},{rect.height()}")
        settings.setValue("window/maximized", maximized)

    # --- screens -------------------------------------------------------------------
    def show_start(self) -> None:
        self.start.refresh()
        self.stack.setCurrentWidget(self.start)
        self.start.focus_first()

    def show_new_game(self, game: str, demo: bool) -> None:
        self.new_game.reset(game, demo)
        self.stack.setCurrentWidget(self.new_game)

    def show_table(self) -> None:
        self.entry = None
        c = self.controller
        if c is not None and c.session.outcome is not None and not self._story_shown:
            self.show_end()            # the game just ended: its story comes first
            return
        self.table.refresh()
        self.stack.setCurrentWidget(self.table)

    def show_end(self) -> None:
        if self.controller is None:
            return
        if self.stack.currentWidget() in (self.gate, self.flip_page) and self.entry is not None:
            return                     # a card entry is finishing: it comes back through show_table
        self._story_shown = True
        self.end.show_game(self.controller)
        self.stack.setCurrentWidget(self.end)

    # --- games ---------------------------------------------------------------------
    def start_game(self, game: str, players: list[str], ages: dict, assist, options: dict, demo: bool) -> None:
        try:
            controller = GameController.new(game, players, ages, assist, options=options, demo=demo)
        except (RuleViolation, StoreError, DeckError, OSError) as exc:
            self.new_game.show_error(getattr(exc, "message", None) or str(exc))
            return
        self._open(controller)
        # The deal is told on the setup screen; the table starts with the prompt alone.
        laid_out = self.setup.show_game(controller, self.table.table.setup_widget() if self.table.table else None)
        if laid_out:
            self.stack.setCurrentWidget(self.setup)
        if self.new_game.phones.isChecked() and self.phones is not None:
            problem = self.phones.switch_on()
            self.show_phones(after=self.setup if laid_out else None)
            if problem:
                self.phones_screen.problem.setText(problem)
                self.phones_screen.problem.show()

    def resume_game(self, path: Path, read_only: bool = False) -> None:
        try:
            controller = GameController.resume(path, read_only=read_only)
        except (StoreError, RuleViolation, DeckError, OSError, ValueError) as exc:
            self.start.show_problem(f"That game could not be opened: {getattr(exc, 'message', None) or exc}")
            return
        self._open(controller)
        if controller.session.read_only:
            self.table.notice(controller.session.read_only)
            return
        words = controller.session.undo_history()
        self.table.say([f"Welcome back. The last thing that happened: {words[-1]}."] if words else
                       ["Welcome back."])

    def _open(self, controller: GameController) -> None:
        self._close_game()
        self.controller = controller
        self.phones = PhoneTable(controller, self, hosts=self.phone_hosts)
        self.phones.answered.connect(self._phone_answered)
        self.phones.put_off.connect(self._phone_put_off)
        self._story_shown = controller.session.outcome is not None   # a finished game opens on its table
        if controller.path is not None and not controller.session.read_only:
            mark_playing(controller.path)      # still marked at the next start: Gumshoe stopped in it
        controller.turn_changed.connect(self._turn_changed)
        controller.applied.connect(self.sounds.play_for)
        self.table.set_controller(controller)
        self.setWindowTitle(f"{WINDOW_TITLE} \u2014 {controller.info.title}")
        self.camera_panel.active_games = {controller.game_id}
        if controller.demo:
            self.camera_panel.start_simulated(controller.session.options.get("demo_seed", 0))
        elif self.camera_setting == "auto":
            self.camera_panel.start_webcam(self.camera_index)
        self.show_table()
        if controller.session.warnings:
            # A broken corrections file: the game goes on with the shipped names, and says why.
            self.table.notice(" ".join(controller.session.warnings))

    def _close_game(self) -> None:
        if self.phones is not None:
            self.phones.switch_off()             # the server stops with the game
            self.phones.deleteLater()
            self.phones = None
        if self.controller is not None:
            self.gate.close_private()
            self.table.release_game()
            self.controller.close()
            if self.controller.path is not None:
                unmark_playing(self.controller.path)
            self.controller = None
        self.camera_panel.stop()
        self.setWindowTitle(WINDOW_TITLE)

    def leave_game(self) -> None:
        self._close_game()
        self.show_start()

    # --- card entry: private (behind the gate) or public (on the shared screen) ----------
    def read_cards(self, action: dict, reads: list, private: bool, heading: str, choices: dict | None = None) -> None:
        c = self.controller
        assert c is not None
        reads = [tuple(r) for r in reads]
        player = action.get("player", "")
        if not private:
            # A card lying face up that everyone saw is known: it is filled in, never asked for again.
            known = {f: card for f, place in reads if (choices or {}).get(f) is None
                     and (card := c.face_up_card(place, action, f)) is not None}
            if known:
                action = {**action, **known}
                left = [(f, place) for f, place in reads if f not in known]
                if left and any(not c.fits(card, action, f) for f, card in known.items()):
                    # A card lying face up that cannot do what is asked (a Secret as a mission's
                    # Location): the engine's refusal at once, not after the other card is read.
                    trial = {**action, **{f: next(iter(sorted(c.candidates(place, None, action, f))), "")
                                          for f, place in left}}
                    problem = c.refusal(trial)
                    if problem is not None:
                        self.table.complain(problem)
                        self.table.refresh()
                        return
                if left:
                    what = "the card" if len(left) == 1 else f"the {len(left)} cards"
                    heading = (heading.split("\n")[0] + f"\nFlip {what} face up for everyone ("
                               + "; ".join(f"{c.words(place)}: {c.deck.name_of(known[f])}"
                                           for f, place in reads if f in known) + ", already face up).")
                reads = left
            if not reads:
                if not self.table.send(action):
                    self.table.refresh()
                return
        camera = self._camera_note(("Hold the card up to the camera, face to the lens" if private else
                                    "Flip the card face up in front of the camera" if len(reads) == 1 else
                                    "Flip the cards face up in front of the camera"))
        shown = c.shown_cards(action, reads) if c.demo else {}
        hints = {}
        if private and c.demo:
            # The simulated player is looking at the card: behind the gate, only they see this.
            for card_field, place in reads:
                if (choices or {}).get(card_field) is not None or shown.get(card_field) is None:
                    # one of several cards there: the simulated player may choose any of them
                    continue
                hints[card_field] = f"On the simulated table this card is: {c.deck.name_of(shown[card_field])}"

        def make_entry() -> CardEntry:
            entry = CardEntry(c, heading, reads, lambda cards: {**action, **cards},
                              submit_text="Note it in my journal" if private else
                              ("This is the card" if len(reads) == 1 else "These are the cards"),
                              hints=hints, camera_note=camera, choices=choices,
                              viewer=player if private else None, action=action,
                              show_to_camera=self._simulated_hold_up([shown.get(f) for f, _ in reads]))
            entry.done.connect(self._entry_done)
            self.entry = entry
            return entry

        if private:
            where = " and ".join(c.words(place, player) for _, place in reads)
            one = len(reads) == 1
            words = (f"{player}, look at {where}. Pick up the card{'' if one else 's'}, keep {'it' if one else 'them'} "
                     f"hidden, and show {'it' if one else 'them'} only to the camera or to this screen.")
            if not self._ask_phone(action, lambda: question_for_cards(c, action, reads, heading, (
                    f"Keep {'it' if one else 'them'} hidden from the others. Photograph {'it' if one else 'each card'}, "
                    f"or choose {'it' if one else 'them'} from the list."
                    + "".join(f" {hint}." for hint in hints.values())), choices),
                    lambda: self._open_entry(make_entry, player, words)):
                self._open_entry(make_entry, player, words)
        else:
            self._open_entry(make_entry)

    def _open_entry(self, make_entry, player: str | None = None, gate_words: str = "") -> None:
        """A card entry behind the privacy gate for ``player``, or on the shared screen (a flip)."""
        if player is not None:
            self.gate.open_for(player, gate_words, lambda: self._gated(make_entry))
            self.stack.setCurrentWidget(self.gate)
            return
        entry = make_entry()
        entry.cancelled.connect(self.show_table)
        self._clear_flip_page()
        self.flip_layout.addWidget(entry)
        self.stack.setCurrentWidget(self.flip_page)

    def read_card_list(self, action: dict, read: dict) -> None:
        """Several cards from one place: privately (cards drawn) or on the shared screen (a meld)."""
        c = self.controller
        assert c is not None
        player = action.get("player", "")
        place, private = read["place"], read["private"]
        camera = self._camera_note("Hold each card up to the camera, face to the lens" if private else
                                   "Lay the cards face up in front of the camera, one after another")
        hint = None
        shown = (read["demo_cards"] or (c.true_cards_in(place) if private else [])) if c.demo else []
        if shown:
            # Behind the gate only the player sees this; on the shared screen only cards being laid face up.
            names = counted_names(c.deck.name_of(card) for card in shown)
            hint = (f"On the simulated table these cards are: {names}" if private else
                    f"On the simulated table, {player} lays: {names}")

        def make_entry() -> CardEntry:
            chooser = CardListChooser(c, read["field"], place, least=read["least"], most=read["most"],
                                      kinds=read["kinds"], hint=hint, demo_cards=shown,
                                      viewer=player if private else None, action=action)
            entry = CardEntry(c, read["heading"], [], lambda cards: {**action, **cards},
                              submit_text="Note them in my journal" if private else "These are the cards",
                              camera_note=camera, choosers=[chooser], action=action,
                              show_to_camera=self._simulated_hold_up(shown))
            entry.done.connect(self._entry_done)
            self.entry = entry
            return entry

        words = (f"{player}, look at {c.words(place, player)}. Keep the cards hidden and show them only "
                 f"to the camera or to this screen.")
        if private and self._ask_phone(action, lambda: question_for_list(c, action, read, (
                "Keep them hidden from the others. Photograph each card, or choose them from the list."
                + (f" {hint}." if hint else ""))),
                lambda: self._open_entry(make_entry, player, words)):
            return
        self._open_entry(make_entry, player if private else None, words)

    def identify_card(self, heading: str, choices: list, on_card, shown: str | None = None) -> None:
        """A card turned face up that the table itself needs (no action is sent): on the shared
        screen, read by the camera or picked among ``choices``; ``on_card(card id)`` when known.
        ``shown``: in a demo, the card lying there on the simulated table (held up to its camera)."""
        c = self.controller
        assert c is not None

        def keep(action: dict) -> list:
            on_card(action["card"])
            return []

        def make_entry() -> CardEntry:
            chooser = CardChooser(c, "card", "", choices=choices, title=heading)
            entry = CardEntry(c, heading, [], dict, submit_text="This is the card", send=keep,
                              camera_note=self._camera_note("Show the card face up to the camera"),
                              choosers=[chooser], show_to_camera=self._simulated_hold_up([shown]))
            entry.done.connect(self._entry_done)
            self.entry = entry
            return entry

        self._open_entry(make_entry)

    # --- the players' phones ---------------------------------------------------------------
    def show_phones(self, after=None) -> None:
        """The codes to scan (and the switch), then back to ``after`` or the table."""
        if self.phones is None:
            return
        self._after_phones = after
        self.phones_screen.show_table(self.phones)
        self.stack.setCurrentWidget(self.phones_screen)

    def _phones_done(self) -> None:
        after, self._after_phones = self._after_phones, None
        if after is not None:
            self.stack.setCurrentWidget(after)
        else:
            self.show_table()

    def _ask_phone(self, action: dict, make_question, on_laptop) -> bool:
        """A private read goes to the player's phone when their page is open; the shared screen
        then says only who is looking. False: no phone, the laptop asks as before."""
        player = action.get("player", "")
        if self.phones is None or not self.phones.on_phone(player):
            return False
        question, demo_problem, *to_copies = make_question()
        self.phones.ask(question, action, demo_problem, *to_copies)
        self._on_laptop = on_laptop
        self.phone_wait.show_player(player)
        self.stack.setCurrentWidget(self.phone_wait)
        return True

    def _phone_cancelled(self) -> None:
        self._on_laptop = None
        if self.phones is not None:
            self.phones.cancel()
        self.show_table()

    def _phone_put_off(self) -> None:
        self._on_laptop = None
        if self.stack.currentWidget() is self.phone_wait:
            self.show_table()

    def _phone_to_laptop(self) -> None:
        on_laptop, self._on_laptop = self._on_laptop, None
        if self.phones is not None:
            self.phones.cancel()
        if on_laptop is not None:
            on_laptop()

    def _phone_answered(self, public_lines: list) -> None:
        self._on_laptop = None
        if self.stack.currentWidget() is self.phone_wait:
            self.show_table()
        self.table.say(public_lines)

    def _gated(self, make_entry) -> CardEntry:
        entry = make_entry()
        entry.cancelled.connect(self.gate.close_private)
        return entry

    def open_reveal(self, reads: list) -> None:
        """After the game: the family flips the cards still face down, so the story is complete."""
        c = self.controller
        assert c is not None
        places = {card_field: place for card_field, place in reads}

        def keep(cards: dict) -> list:
            # After the game nothing changes in it: the flipped cards only complete the story.
            c.revealed.update({places[f]: card for f, card in cards.items() if f in places})
            return []

        entry = CardEntry(c, "Flip the cards nobody saw", [tuple(r) for r in reads], dict,
                          submit_text="These are the cards", send=keep,
                          camera_note=self._camera_note("Flip each card face up in front of the camera"),
                          show_to_camera=self._simulated_hold_up([c.true_card_at(place) for _, place in reads]))
        entry.done.connect(self._back_to_story)
        entry.cancelled.connect(self._back_to_story)
        self._clear_flip_page()
        self.flip_layout.addWidget(entry)
        self.entry = entry
        self.stack.setCurrentWidget(self.flip_page)

    def _back_to_story(self, *_args) -> None:
        self.entry = None
        self._clear_flip_page()
        self.show_end()

    def _camera_note(self, text: str) -> str | None:
        if not self.camera_panel.running:
            return None
        return f"{text} \u2014 or pick from the list."

    def _simulated_hold_up(self, cards: list):
        """Demo mode: a button that holds the virtual cards up to the simulated camera."""
        c = self.controller
        cards = [card for card in cards if card]
        if c is None or not c.demo or self.camera_panel.simulated is None or not cards:
            return None
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
            journal = c.session.journal(player, c.assist)
            body = self.table.table.journal_widget(journal) if self.table.table is not None else None
            held = [c.deck.name_of(card) for card in c.simulated_hand(player)]
            view = JournalView(journal, {k: kind.name for k, kind in c.deck.kinds.items()}, body, hand=held or None)
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
        self._remember_place()
        if self.die_reader is not None:
            self.die_reader.stop()
        self._close_game()
        # No thread of the window may outlive it (a running QThread destroyed is a crash): the
        # window goes from the screen first, its threads finish behind it.
        self.hide()
        self.start.finish_printing()
        self.camera_panel.shut_down()
        super().closeEvent(event)
