"""A family at the table, by clicks only: the simulated players choose each move (as the demo does)
and the walk makes it the way a person would, clicking where things are on screen, after checking
that each target is there to be seen (tests/desktop/in_sight.py).

A move is made by what the screen offers: a highlighted card or piece on the table, an action
button (in the column, or behind "More actions…"), the value buttons of a begun action, the die's
face buttons, the privacy gate and the card lists behind it or on the shared screen, and a game's
own panel (each game's table names its buttons; ``PANELS`` knows how to answer them). If the
screen offers no way to make the simulated move, the walk says what it was stuck on: that is a
family stuck at the table.
"""

from __future__ import annotations

from typing import Any, Callable

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QAbstractButton, QApplication, QListWidget, QWidget

from desktop.card_entry import COPIES
from desktop.drawn import Piece
from engine.errors import RuleViolation

from .in_sight import click_in_sight, why_not_in_sight


class Stuck(AssertionError):
    """The screen offered no way (in sight) to make the move the simulated family chose."""


def settle() -> None:
    for _ in range(3):
        QApplication.processEvents()


class FamilyWalk:
    """Plays the open game of ``window`` by clicks, one simulated move at a time."""

    def __init__(self, window) -> None:
        self.window = window
        self.clicks = 0
        #: the kinds of move made, and the actions' labels met (what the walk went through)
        self.made: list[str] = []

    # --- what is on screen ---------------------------------------------------------------
    @property
    def screen(self):
        return self.window.table

    @property
    def session(self):
        return self.window.controller.session

    def shown(self, name: str, cls=QWidget) -> QWidget | None:
        """The widget named ``name`` a person can see now (in the window or an open panel)."""
        roots = [self.window] + [w for w in QApplication.topLevelWidgets() if w.isVisible() and w is not self.window]
        for root in roots:
            for w in root.findChildren(cls, name):
                if w.isVisible():
                    return w
        return None

    def click(self, widget: QWidget) -> None:
        click_in_sight(widget)
        self.clicks += 1
        settle()

    def click_named(self, name: str) -> bool:
        """Click the button ``name`` if it is offered: in sight, or behind "More actions…"."""
        widget = self.shown(name, QAbstractButton)
        if widget is None and any(b.objectName() == name for b in self.screen._behind):
            self.click(self.shown("action:more", QAbstractButton))
            widget = self.shown(name, QAbstractButton)
        if widget is None:
            return False
        self.click(widget)
        return True

    def piece(self, place: str) -> Piece | None:
        table = self.screen.table
        found = [p for p in table.findChildren(Piece) if p.place == str(place) and p.isVisible()] if table else []
        return found[0] if found else None

    def click_place(self, place: Any) -> bool:
        piece = self.piece(str(place))
        if piece is None or why_not_in_sight(piece):
            return False
        self.click(piece)
        return True

    # --- one move ------------------------------------------------------------------------
    def move(self, action: dict) -> None:
        """Make ``action`` (the simulated family's choice) by clicks; ``Stuck`` when the screen does
        not offer it. A move the rules refuse on the way (the simulator may pick one) is skipped."""
        before = len(self.session.done)
        prompt = self.session.prompt()
        option = self.option_for(prompt, action)
        if option is None:
            return
        action = self.as_screen_says(option, action)
        self._begin(action, option, prompt)
        for _ in range(12):
            if len(self.session.done) > before or self.session.outcome is not None:
                self.made.append(action["type"])
                return
            if not self._answer(action):
                break
        if len(self.session.done) > before:
            self.made.append(action["type"])
            return
        if self.screen.error.isVisible():          # the rules said no (the simulator's guess): back out
            self._back_out()
            return
        raise Stuck(f"{action['type']}: nothing on screen makes {action} (prompt: {prompt.text!r}, "
                    f"screen: {type(self.window.stack.currentWidget()).__name__})")

    @staticmethod
    def option_for(prompt, action: dict):
        """The option of the prompt that makes ``action``: of several with one action, the one whose
        fields the action fills (a Replicator's colour)."""
        same = [o for o in prompt.options if o.action == action["type"]]

        def fits(o) -> bool:
            made = FamilyWalk.as_screen_says(o, action)
            return all(f in made and (made[f] in values or len(values) != 1) for f, values in o.targets.items())
        fitting = [o for o in same if fits(o)]
        # Of several that fit, the one asking for more (a Replicator's colour besides the cards).
        return max(fitting, key=lambda o: len(o.targets)) if fitting else (same[0] if same else None)

    @staticmethod
    def as_screen_says(option, action: dict) -> dict:
        """``action`` in the fields the option asks for: a declared colour the simulator names as
        the Agent's or the Location's is the option's one ``colour``."""
        if "colour" in option.targets and "colour" not in action:
            declared = action.get("agent_colour") or action.get("location_colour")
            if declared:
                action = {k: v for k, v in action.items() if k not in ("agent_colour", "location_colour")}
                action["colour"] = declared
        return action

    def _begin(self, action: dict, option, prompt) -> None:
        screen = self.screen
        if action["type"] == "roll" and screen.die is not None and "face" in action:
            if self.click_named(f"rolled:{screen.die.shows(action['face'])}"):
                return
        if option in screen._direct_options(prompt):
            field, values = next(iter(option.targets.items()))
            value = action.get(field, values[0] if len(values) == 1 else None)
            if value is not None and self.click_place(value):
                return
        if not self.click_named(self.screen.option_name(prompt, option)):
            raise Stuck(f"{option.action}: no button or highlighted place offers {option.label!r}")

    def _answer(self, action: dict) -> bool:
        """Answer what the screen asks now for ``action``; False when it asks nothing the walk knows."""
        window, screen = self.window, self.screen
        current = window.stack.currentWidget()
        if current is window.gate and self.shown("gate:reveal", QAbstractButton) is not None:
            self.click(self.shown("gate:reveal", QAbstractButton))
            return True
        entry = window.entry
        if entry is not None and current in (window.gate, window.flip_page):
            return self._fill_entry(entry, action)
        if current is window.table and screen.flow is not None and screen.flow.next_field is not None:
            value = action.get(screen.flow.next_field)
            return self.click_place(value) or self.click_named(f"choose:{value}")
        panel = PANELS.get(self.window.controller.game_id)
        return panel(self, action) if panel is not None else False

    def _fill_entry(self, entry, action: dict) -> bool:
        for chooser in entry.choosers:
            wanted = action.get(chooser.field)
            cards = wanted if isinstance(wanted, (list, tuple)) else [wanted]
            for card in cards:
                if card:
                    self.pick_card(chooser.list, card)
        self.click(self.shown("entry:submit", QAbstractButton))
        return True

    def pick_card(self, lst: QListWidget, card: str) -> None:
        """Click the line of ``card`` in a card list as a person does: scrolled to it, then clicked."""
        deck = self.session.rules.deck
        name = deck.name_of(card)
        lines = [lst.item(i) for i in range(lst.count())]
        exact = [item for item in lines if card in (item.data(COPIES) or (item.data(Qt.UserRole),))]
        for item in exact or [item for item in lines if item.text().split(" \u00d7")[0] == name]:
            lst.scrollToItem(item)
            settle()
            rect = lst.visualItemRect(item)
            assert lst.viewport().rect().contains(rect), f"the line of {name!r} is not in sight"
            QTest.mouseClick(lst.viewport(), Qt.LeftButton, Qt.NoModifier, rect.center())
            self.clicks += 1
            settle()
            return
        raise Stuck(f"{name!r} is not offered in the list")

    def _back_out(self) -> None:
        if self.screen.flow is not None:
            self.click_named("action:cancel")
        self.screen._hide_message()

    # --- a game --------------------------------------------------------------------------
    def play(self, most: int = 400) -> int:
        """Moves chosen by the simulated family until the game ends (or ``most`` moves)."""
        controller = self.window.controller
        moves = 0
        while self.session.outcome is None and moves < most:
            if self.window.stack.currentWidget() is not self.window.table:
                self._leave_side_screen()
            action = controller.simulator.random_action(self.session)
            try:
                self.session.check(action)
            except RuleViolation:
                continue
            self.move(action)
            moves += 1
        return moves

    def _leave_side_screen(self) -> None:
        for name in ("gate:cancel", "setup:done", "entry:cancel"):
            if self.shown(name, QAbstractButton) is not None:
                self.click(self.shown(name, QAbstractButton))
                return


def _bonnie_clyde(walk: FamilyWalk, action: dict) -> bool:
    """Ted Hinton's panel: what he does (and where he looks)."""
    if action["type"] != "hinton" or walk.shown(f"bc:use:{action['use']}", QAbstractButton) is None:
        return False
    walk.click_named(f"bc:use:{action['use']}")
    if action["use"] == "look":                    # the locations he may look under glow: click one
        return walk.click_place(action["location"])
    return True


def _sm_press(walk: FamilyWalk, name: str) -> None:
    """Click a choice of the Sudds & Malone panel, scrolled into sight first as a person scrolls."""
    from PySide6.QtWidgets import QScrollArea
    widget = walk.shown(name, QAbstractButton)
    if widget is None:
        raise Stuck(f"the Sudds & Malone panel offers no {name!r}")
    area = widget.parent()
    while area is not None and not isinstance(area, QScrollArea):
        area = area.parent()
    if area is not None:
        area.ensureWidgetVisible(widget, 0, 0)
        settle()
    walk.click(widget)


def _sm_identify(walk: FamilyWalk, card: str) -> None:
    """The shared screen's card list a touched place opened (the camera's or the family's pick): the card's
    line, then "This is the card"."""
    entry = walk.window.entry
    if entry is None or walk.window.stack.currentWidget() is not walk.window.flip_page:
        raise Stuck(f"no card list opened for {card}")
    walk.pick_card(entry.choosers[0].list, card)
    walk.click(walk.shown("entry:submit", QAbstractButton))


def _sm_back(rules, card: str) -> str:
    f = rules.ff(card)
    return f"{f.back}-{f.cover}"


def _sudds_malone(walk: FamilyWalk, action: dict) -> bool:
    """Sudds & Malone's panels: each place or card touched, each choice clicked as drawn on the table."""
    table, rules, kind = walk.screen.table, walk.session.rules, action["type"]
    if walk.shown("sm:panel-title") is None and not (kind == "take_die" and table.mode == "take_die"):
        return False            # (a die is clicked on the table before its panel shows)
    short = (lambda card: card.rsplit(".", 1)[-1])
    if kind == "deal":
        for loc, card in action["city"].items():
            if not walk.click_place(loc):
                raise Stuck(f"the deal: {loc} cannot be touched on the map")
            _sm_press(walk, f"sm:deal:back:{_sm_back(rules, card)}")
        walk.click_place(f"conspiracy/{rules.ff(action['conspiracy']).cover}")
        _sm_identify(walk, action["conspiracy"])
        for i, card in enumerate(action["display"]):
            _sm_press(walk, f"sm:deal:display{i}")
            _sm_identify(walk, card)
    elif kind == "roll":
        for die, value in action["dice"].items():
            walk.click_place(die)
            _sm_press(walk, f"sm:value:{value}")
    elif kind == "take_die":
        if table.sel.get("die") != action["die"] and not walk.click_place(action["die"]):
            raise Stuck(f"the die {action['die']} cannot be clicked")
        if action.get("news"):
            _sm_press(walk, "sm:use:news")
        else:
            value = walk.session.state.dice[action["die"]]
            _sm_press(walk, f"sm:use:{(value - 1 + action.get('shift', 0)) % 6 + 1}")
        return True
    elif kind == "improve":
        for track in action["tracks"]:
            _sm_press(walk, f"sm:up:{track}")
    elif kind == "investigate":
        for loc in action["path"]:
            if loc not in table.sel.get("path", []) and not walk.click_place(loc):
                raise Stuck(f"Investigate: {loc} cannot be clicked on the map")
        for loc in action.get("snitches", []):
            _sm_press(walk, f"sm:snitch:{loc}")
        if action.get("face") and table.sel.get("face") != action["face"]:
            _sm_press(walk, "sm:face")
            _sm_identify(walk, action["face"])
        if action.get("draw"):
            _sm_press(walk, "sm:draw")
            _sm_press(walk, f"sm:draw:{_sm_back(rules, action['draw'])}")
    elif kind == "take_flimflam":
        for pos in action["positions"]:
            _sm_press(walk, f"sm:ff:{pos}")
    elif kind in ("take_cases", "take_case"):
        picks = action["picks"] if kind == "take_cases" else [action["source"]]
        refill = action["refill"] if kind == "take_cases" else [action["refill"]] if action["refill"] else []
        for card in picks:
            _sm_press(walk, "sm:case:deck" if card == "deck" else f"sm:case:{short(card)}")
        for i, card in enumerate(refill):
            if table.sel.get("refill", [])[i:i + 1] != [card]:
                _sm_press(walk, f"sm:refill{i}")
                _sm_identify(walk, card)
    elif kind == "reroll":
        _sm_press(walk, f"sm:value:{action['value']}")
        return True
    elif kind == "peek":
        return walk.click_place(f"conspiracy/{action['position']}")
    elif kind == "close_case":
        _sm_press(walk, f"sm:close:{short(action['card'])}")
        pay = "Pay " + ", ".join(sorted(action["pay"]))
        buttons = [b for b in walk.window.findChildren(QAbstractButton) if b.isVisible()
                   and b.objectName().startswith("sm:pay:") and " ".join(b.text().split()) == pay]
        if not buttons:
            raise Stuck(f"close a case: no {pay!r}")
        _sm_press(walk, buttons[0].objectName())
        return True
    elif kind == "hunch":
        for card in action["cards"]:
            _sm_press(walk, f"sm:hunch:{short(card)}")
        for loc in action["snitches"]:
            _sm_press(walk, f"sm:hunch:s:{loc}")
    elif kind == "discard":
        for card in action["above"]:
            _sm_press(walk, f"sm:back:{short(card)}")
        for card in action["hand"]:
            _sm_press(walk, f"sm:back:hand:{short(card)}")
        for evidence, n in action["evidence"].items():
            for _ in range(n):
                _sm_press(walk, f"sm:back:{evidence}")
    elif kind == "reveal":
        for i, card in enumerate(action["cards"], 1):
            if not walk.click_place(f"conspiracy/{i}"):
                raise Stuck(f"the reveal: suspect {i} cannot be touched")
            _sm_identify(walk, card)
    else:
        return False
    _sm_press(walk, "sm:send")
    return True


#: game id -> how to answer that game's own panel for an action (None: it has none)
PANELS: dict[str, Callable[[FamilyWalk, dict], bool]] = {"bonnie-clyde": _bonnie_clyde, "sudds-malone": _sudds_malone}
