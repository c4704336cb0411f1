"""Drives the app the way a family would: by clicking what is on screen.

The driver is also the physical table: it holds the true identity of every card
(the family's real cards), chosen by the test, and enters what a player would see.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QAbstractButton, QLabel, QLineEdit, QListWidget, QTableWidget,
                               QWidget)

from engine.table import Place


class Driver:
    def __init__(self, window, qtbot) -> None:
        self.window = window
        self.qtbot = qtbot
        self.truth: dict[int, str] = {}

    # --- finding and clicking ------------------------------------------------------
    def find(self, name: str, cls=QWidget):
        widgets = [w for w in self.window.findChildren(cls, name) if w.isVisible()]
        assert widgets, f"no visible widget named {name!r} on screen"
        return widgets[0]

    def visible(self, name: str) -> bool:
        return any(w.isVisible() for w in self.window.findChildren(QWidget, name))

    def click(self, name: str) -> None:
        """Click the button ``name`` where a person would: it must be whole in sight (not clipped,
        covered or scrolled away: tests/desktop/in_sight.py); an action the column put behind
        "More actions…" is reached through that button, as a person would."""
        from .in_sight import click_in_sight

        screen = self.window.table
        if (not self.visible(name) and screen.table is not None
                and any(b.objectName() == name for b in screen._behind)):
            click_in_sight(self.find("action:more", QAbstractButton))
            panel = screen.more_panel
            widget = next(b for b in panel.buttons if b.objectName() == name)
        else:
            widget = self.find(name, QAbstractButton)
        assert widget.isEnabled(), f"{name!r} is disabled"
        click_in_sight(widget)

    def text(self, name: str) -> str:
        return self.find(name).text()

    @property
    def prompt(self) -> str:
        return self.text("prompt")

    @property
    def banner(self) -> str:
        return self.text("banner") if self.visible("banner") else ""

    def log(self) -> list[str]:
        """The whole public log (what a click on "What happened" shows)."""
        lst = self.window.findChildren(QListWidget, "log")[0]
        return [lst.item(i).text() for i in range(lst.count())]

    def recent(self) -> list[str]:
        """The public events shown in large type beside the board, newest first."""
        return self.find("recent").shown()

    def legal_slots(self) -> set[str]:
        """Places highlighted on the table: drawn cards (desktop/drawn) and tile buttons alike."""
        return {b.place for b in self.window.findChildren(QAbstractButton)
                if b.isVisible() and getattr(b, "legal", False) and hasattr(b, "place")}

    # --- starting --------------------------------------------------------------------
    def choose_game(self, game: str) -> None:
        """Pick a game on the start screen's shelf, as a click on it would."""
        shelf = self.find("start:shelf", QListWidget)
        for row in range(shelf.count()):
            if shelf.item(row).data(Qt.UserRole) == game:
                shelf.setCurrentRow(row)
                return
        raise AssertionError(f"{game} is not on the shelf")

    def new_game(self, players: list[tuple[str, int]], assist_index: int = 2) -> None:
        """A new game started from the start screen, through its setup picture, to its table."""
        self.start_new_game(players, assist_index)
        self.click("setup:done")
        assert self.window.stack.currentWidget() is self.window.table

    def start_new_game(self, players: list[tuple[str, int]], assist_index: int | None = 2) -> None:
        """The new-game form filled in and started, up to the setup picture (``assist_index``
        None: the form's own assist level)."""
        self.click("start:new")
        self.find("new:count").setValue(len(players))
        for i, (name, age) in enumerate(players):
            edit = self.find(f"new:name{i}", QLineEdit)
            edit.clear()
            self.qtbot.keyClicks(edit, name)
            self.find(f"new:age{i}").setValue(age)
        if assist_index is not None:
            self.find("new:assist").setCurrentIndex(assist_index)
        self.click("new:start")
        assert self.window.stack.currentWidget() is self.window.setup

    @property
    def session(self):
        return self.window.controller.session

    def deal(self, wanted: dict[str, str]) -> None:
        """Decide the physical deal: ``wanted`` is place -> card id; the rest is arbitrary."""
        state = self.session.state
        fixed = {state.table.top(Place.parse(p, state.players)): c for p, c in wanted.items()}
        for kind in state.deck.kinds:
            tokens = sorted(t for t in state.table.tokens_where(kind=kind) if t not in fixed)
            cards = [c.id for c in state.deck.of_kind(kind) if c.id not in fixed.values()]
            self.truth.update(zip(tokens, cards))
        self.truth.update(fixed)
        simulator = self.window.controller.simulator
        if simulator is not None:
            # A demo game: the simulated table (its camera, its check of a pick) shows this deal.
            from engine.sim import Truth
            simulator.truth = Truth(dict(self.truth))

    def card_at(self, place: str) -> str:
        state = self.session.state
        return self.truth[state.table.top(Place.parse(place, state.players))]

    def name(self, card_id: str) -> str:
        return self.session.rules.deck.name_of(card_id)

    # --- playing ---------------------------------------------------------------------
    def roll(self, kind: str) -> None:
        self.click(f"rolled:{kind}")

    def line(self, field: str, card_id: str):
        """The line of the list ``field`` that stands for ``card_id`` (one line per distinct card:
        any of its copies), scrolled into sight; None when it is not listed."""
        lst = self.find(f"choose:{field}", QListWidget)
        deck = self.session.rules.deck
        copies = deck.copies(card_id) if card_id in deck and hasattr(deck, "copies") else (card_id,)
        for wanted in (card_id, *copies):
            for i in range(lst.count()):
                if wanted in line_cards(lst.item(i)):
                    lst.scrollToItem(lst.item(i))
                    return lst.item(i)
        return None

    def choose(self, field: str, card_id: str) -> None:
        """Click the line of ``card_id`` in the list ``field`` (a line stands for every copy of a card)."""
        lst = self.find(f"choose:{field}", QListWidget)
        item = self.line(field, card_id)
        if item is None and self.visible(f"every:{field}"):
            self.click(f"every:{field}")          # not among the cards the engine expects there
            item = self.line(field, card_id)
        if item is None:
            raise AssertionError(f"{card_id} is not offered in {field}")
        rect = lst.visualItemRect(item)
        self.qtbot.mouseClick(lst.viewport(), Qt.LeftButton, pos=rect.center())
        if lst.selectionMode() != lst.SelectionMode.NoSelection:
            assert lst.selectedItems() and lst.selectedItems()[0] is item

    def choose_cards(self, field: str, cards: list[str]) -> None:
        """Click a list of several cards: once per card (a line of copies takes one more per click)."""
        for card in cards:
            self.choose(field, card)

    def peek(self, place: str, *, reveal: bool = True) -> None:
        """Click a slot, pass the gate, and note the true card privately."""
        self.click(f"slot:{place}")
        assert self.window.stack.currentWidget() is self.window.gate
        if not reveal:
            return
        self.click("gate:reveal")
        self.choose("card", self.card_at(place))
        self.click("entry:submit")

    def warrant(self, loot: str, location: str, cards: tuple[str, str] | None = None) -> None:
        self.click("action:warrant")
        self.click(f"slot:{loot}")
        self.click(f"slot:{location}")
        assert self.window.stack.currentWidget() is self.window.flip_page
        loot_card, location_card = cards or (self.card_at(loot), self.card_at(location))
        self.choose("loot_card", loot_card)
        self.choose("location_card", location_card)
        self.click("entry:submit")

    def final_warrant(self) -> None:
        self.click("action:final_warrant")
        self.choose("loot_card", self.card_at("center/loot"))
        self.choose("location_card", self.card_at("center/location"))
        self.click("entry:submit")

    def flip_henchman(self, place: str) -> None:
        self.click(f"slot:{place}")
        self.choose("card", self.card_at(place))
        self.click("entry:submit")

    def end_turn(self) -> None:
        self.click("action:end_turn")


def line_cards(item) -> tuple[str, ...]:
    """The cards a line of a card list stands for (every copy of one card)."""
    try:
        from desktop.card_entry import COPIES
    except ImportError:              # a list of one line per physical card
        return (item.data(Qt.UserRole),)
    return tuple(item.data(COPIES) or ())


def open_demo_table(window, qtbot, game: str, names: list[str], options: dict | None = None) -> Driver:
    """A new simulated-table game of ``game`` (ages 8, 9, ... in seat order, full assist) on its table."""
    from desktop.games import GameController
    from engine.game import Assist

    controller = GameController.new(game, names, {n: 8 + i for i, n in enumerate(names)}, Assist.FULL,
                                    options=options or {}, demo=True)
    window._open(controller)
    window.show_table()
    return Driver(window, qtbot)


def play_on(window, moves: int):
    """The simulated players make up to ``moves`` moves in the open game (a refused one is skipped);
    yields the number of each move made, after it, so a walk can look at the table each time."""
    from engine.errors import RuleViolation

    controller = window.controller
    for move in range(moves):
        if controller.session.outcome is not None:
            return
        try:
            controller.apply(controller.simulator.random_action(controller.session))
        except RuleViolation:
            continue
        yield move + 1


def visible_texts(root: QWidget) -> list[str]:
    """Every piece of text a person could read on screen now (and the window title)."""
    texts = [root.window().windowTitle()]
    for w in root.findChildren(QWidget):
        if not w.isVisible():
            continue
        if w.toolTip():
            texts.append(w.toolTip())
        if isinstance(w, (QLabel, QAbstractButton, QLineEdit)):
            texts.append(w.text())
        if isinstance(w, QListWidget):
            texts += [w.item(i).text() for i in range(w.count())]
        if hasattr(w, "drawn_texts"):            # painted words (desktop/drawn): cards, names, events
            texts += [t.text for t in w.drawn_texts()]
        if isinstance(w, QTableWidget):
            texts += [w.item(r, c).text() for r in range(w.rowCount()) for c in range(w.columnCount())
                      if w.item(r, c)]
    return texts
