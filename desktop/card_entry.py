"""Entering card identities: privately (a peek) or publicly (cards flipped face up).

The same widget serves both: one list per card to read, filled by a click, by the
keyboard or by a camera sighting. It builds the engine action and sends it; a
``Contradiction`` becomes a plain question ("is it really X?") whose "yes" resends
the action with ``confirm``; any other refusal is shown and changes nothing.
"""

from __future__ import annotations

from typing import Callable, Iterable

from PySide6.QtCore import QEvent, QItemSelectionModel, QObject, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import (QAbstractItemView, QFrame, QHBoxLayout, QLineEdit, QListWidget, QListWidgetItem,
                               QVBoxLayout, QWidget)

from engine.errors import Contradiction, RuleViolation

from .games import GameController, MoveNotSaved, public_texts
from .widgets import button, label, natural_key

#: a list line's data: ``Qt.UserRole`` is the first copy's id, this role every copy it stands for
COPIES = Qt.UserRole + 1
#: more lines than this: a box to type in finds a card
FIND_FROM = 8
CHOSEN_BACKGROUND = QColor("#CFE3FF")


def counted_names(names: Iterable[str]) -> str:
    """Card names in a line, alike ones counted, in the order first named ("; " between them: a
    name may hold a comma).

    >>> counted_names(["Dallas, Texas", "Ted Hinton", "Dallas, Texas"])
    'Dallas, Texas \u00d72; Ted Hinton'
    """
    counts: dict[str, int] = {}
    for name in names:
        counts[name] = counts.get(name, 0) + 1
    return "; ".join(name if n == 1 else f"{name} \u00d7{n}" for name, n in counts.items())


def card_lines(controller: GameController, card_ids: Iterable[str]) -> list[tuple[tuple[str, ...], str]]:
    """One line per distinct card among ``card_ids``: (the copies it stands for, in file order; its
    words, "Ted Hinton \u00d715" when several copies may be it), in natural order of the names."""
    deck = controller.deck
    wanted = set(card_ids)
    groups: dict[tuple[str, ...], list[str]] = {}
    for c in wanted:
        groups.setdefault(deck.copies(c), [])
    lines = []
    for copies in groups:
        mine = tuple(c for c in copies if c in wanted)
        name = deck.name_of(mine[0])
        lines.append((mine, name if len(mine) == 1 else f"{name} \u00d7{len(mine)}"))
    return sorted(lines, key=lambda line: (natural_key(line[1]), line[0]))


def card_names(controller: GameController, card_ids: list[str]) -> dict[str, str]:
    """card id -> the words to list it by: its name, with its tag's own letters when several
    physical cards share the name (six identical Joplin cards are six stickers)."""
    deck = controller.deck
    names = {c: deck.card(c).name for c in card_ids}
    counts: dict[str, int] = {}
    for name in names.values():
        counts[name] = counts.get(name, 0) + 1
    return {c: name if counts[name] == 1 else f"{name} ({deck.card(c).key.rsplit('-', 1)[-1]})"
            for c, name in names.items()}


class _Chooser(QWidget):
    """What both choosers share: a list of cards, one line per distinct card, with a box to type in
    to find one, and camera sightings.

    ``pool``: every card the chooser takes (a camera may read any of them); ``offered``: the cards
    that can lie there now (the engine's candidates), listed first; "Show every card" lists the pool."""

    field: str
    place: str
    pool: list[str]
    list: QListWidget
    status: QWidget
    point_size: int

    def _build(self, title: str | None, hint: str | None, offered: Iterable[str]) -> None:
        """The title, the simulated table's hint, a status line, the find box and the list."""
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        if title:
            layout.addWidget(label(title, "heading"))
        if hint:
            layout.addWidget(label(hint, "banner"))
        self.status = label("")
        self.status.setObjectName(f"status:{self.field}")
        layout.addWidget(self.status)
        self.find = QLineEdit()
        self.find.setObjectName(f"find:{self.field}")
        self.find.setPlaceholderText("Type to find a card\u2026")
        self.find.setClearButtonEnabled(True)
        self.find.setStyleSheet(f"font-size: {self.point_size}pt;")
        self.find.textChanged.connect(self._filter)
        self.find.returnPressed.connect(self._find_chosen)
        self.find.installEventFilter(self)
        layout.addWidget(self.find)
        self.list = QListWidget()
        self.list.setObjectName(f"choose:{self.field}")
        self.list.setStyleSheet(f"font-size: {self.point_size}pt;")
        layout.addWidget(self.list, 1)
        self.every = button("Not in the list? Show every card", name=f"every:{self.field}")
        self.every.clicked.connect(self.show_every_card)
        #: the buttons under the list, side by side
        self.below = QHBoxLayout()
        self.below.addWidget(self.every)
        self.below.addStretch(1)
        layout.addLayout(self.below)
        pool = set(self.pool)
        offered = [c for c in offered if c in pool]
        self._fill(offered or self.pool)
        self.every.setVisible(bool(offered) and len(set(offered)) < len(set(self.pool)))

    def _fill(self, cards: Iterable[str]) -> None:
        self.list.clear()
        for copies, words in card_lines(self.controller, cards):
            item = QListWidgetItem(words)
            item.setData(Qt.UserRole, copies[0])
            item.setData(COPIES, copies)
            self.list.addItem(item)
        self.find.setVisible(self.list.count() > FIND_FROM)
        self._filter(self.find.text())

    def show_every_card(self) -> None:
        """Every card this chooser takes, not only those the engine thinks can lie there."""
        self._fill(self.pool)
        self.every.hide()
        self._show_chosen()

    def _filter(self, text: str) -> None:
        words = " ".join(text.casefold().split())
        for row in range(self.list.count()):
            item = self.list.item(row)
            item.setHidden(bool(words) and words not in " ".join(item.text().casefold().split()))

    def _first_shown(self) -> QListWidgetItem | None:
        return next((self.list.item(r) for r in range(self.list.count()) if not self.list.item(r).isHidden()), None)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        # From the find box the arrow keys go on into the list.
        if (watched is getattr(self, "find", None) and event.type() == QEvent.KeyPress
                and event.key() in (Qt.Key_Down, Qt.Key_Up)):
            first = self._first_shown()
            if first is not None:
                self.list.setCurrentItem(first, QItemSelectionModel.NoUpdate)
            self.list.setFocus()
            return True
        return super().eventFilter(watched, event)

    def focus(self) -> None:
        (self.find if self.find.isVisible() else self.list).setFocus()

    def line(self, card_id: str) -> QListWidgetItem | None:
        """The line that stands for ``card_id`` (any of its copies)."""
        return next((self.list.item(r) for r in range(self.list.count())
                     if card_id in (self.list.item(r).data(COPIES) or ())), None)

    def _line_for_sighting(self, card_id: str) -> QListWidgetItem | None:
        """The line of a card the camera read; a card of the pool not listed brings every card."""
        if card_id not in self.pool:
            return None
        found = self.line(card_id)
        if found is None:
            self.show_every_card()
            found = self.line(card_id)
        if found is not None and found.isHidden():
            self.find.clear()
        return found

    def _sighted(self, words: str) -> None:
        self.status.setText(words)

    def _show_chosen(self) -> None:
        """Mark the chosen lines (after the list was filled again)."""


class CardChooser(_Chooser):
    """One card to identify: a line for each distinct card that can lie there now."""

    point_size = 17

    def __init__(self, controller: GameController, field: str, place: str, *, hint: str | None = None,
                 choices: list[str] | None = None, title: str | None = None, viewer: str | None = None,
                 action: dict | None = None, parent: QWidget | None = None) -> None:
        """``choices``: the only cards it can be (one of the cards a player drew); None: the cards the
        engine says can lie at ``place`` now, as ``viewer`` knows the table (None: the shared screen),
        for the card field of ``action``. ``place`` "" with ``title``: a card that lies at no place of
        the engine's (the table asks)."""
        super().__init__(parent)
        self.controller = controller
        self.field = field
        self.place = place
        self.choices = list(choices) if choices is not None else None
        self.kind = controller.kind_at(place) if place else None
        self.kind_words = controller.kind_name(self.kind) if self.kind is not None else "card"
        self.seen: str | None = None        # the very card the camera read (its copy, where a tag tells)
        if self.choices is not None:
            self.pool = list(self.choices)
            offered: list[str] = list(self.choices)
        else:
            self.pool = controller.cards_with_back(self.kind)
            offered = list(controller.candidates(place, viewer, action, field)) if place else []
        if title is None:
            where = controller.words(place)
            title = f"{where[:1].upper()}{where[1:]}: which {self.kind_words} is it?"
        self._build(title, hint, offered)
        self.list.itemSelectionChanged.connect(self._picked_by_hand)
        if self.list.count() == 1:
            self.list.item(0).setSelected(True)      # the only card it can be: one press confirms it

    def _picked_by_hand(self) -> None:
        if self.seen is not None and self.seen not in self.copies():
            self.seen = None

    def _find_chosen(self) -> None:
        first = self._first_shown()
        if first is not None:
            self.list.clearSelection()
            first.setSelected(True)
            self.list.setCurrentItem(first, QItemSelectionModel.NoUpdate)

    def copies(self) -> tuple[str, ...]:
        """The copies of the line chosen (none chosen: empty)."""
        items = self.list.selectedItems()
        return tuple(items[0].data(COPIES)) if items else ()

    def card(self) -> str | None:
        # The selection, not the current item: a list that merely got keyboard focus has a
        # current row without the player having chosen anything.
        copies = self.copies()
        if not copies:
            return None
        return self.seen if self.seen in copies else copies[0]

    def select(self, card_id: str) -> None:
        item = self.line(card_id)
        if item is not None:
            self.list.clearSelection()
            item.setSelected(True)
            self.list.setCurrentItem(item, QItemSelectionModel.NoUpdate)   # selecting is done above
            self.list.scrollToItem(item)

    def accept_sighting(self, card_id: str) -> bool:
        """Take a camera sighting if it is a card this chooser takes (its very copy is kept)."""
        if self._line_for_sighting(card_id) is None:
            return False
        self.select(card_id)
        self.seen = card_id
        self._sighted(f"\u2714 Read by the camera: {self.controller.deck.name_of(card_id)}")
        return True

    # --- what the entry asks of every chooser ----------------------------------------------
    def open(self) -> bool:
        """Whether a camera sighting may still fill this chooser."""
        return self.card() is None

    def complete(self) -> bool:
        return self.card() is not None

    def value(self, knower: str | None = None, taken: list[str] | None = None) -> str | None:
        """The card to send: the copy the camera read, else the copy the engine (or, in a demo, the
        simulated table) says it is of the line picked."""
        copies = self.copies()
        if not copies:
            return None
        if self.seen in copies:
            return self.seen
        if not self.place:
            return copies[0]
        return self.controller.choose_copy(self.place, list(copies), knower, tuple(taken or ()))

    def missing(self) -> str | None:
        """Why the entry cannot be sent yet (None: it can)."""
        return None if self.complete() else f"Choose the {self.kind_words} first."

    def demo_problem(self, controller: GameController) -> str | None:
        """On the simulated table the truth is known: a wrong pick is a slip, not a card. Any copy of
        the card lying there is that card."""
        copies = set(self.copies())
        if self.choices is not None:       # one of several cards lying there (which one is the player's choice)
            if not self.place:
                return None                # a card the table asks about: any of its choices may be right
            if not copies & set(controller.true_cards_in(self.place)):
                return (f"That card is not among the cards {controller.words(self.place)} on the simulated table. "
                        f"Pick again, or show it to the simulated camera.")
            return None
        there = {controller.true_card_at(self.place), *controller.true_cards_in(self.place)}
        if not copies & there:
            return (f"That is not the card lying there on the simulated table ({controller.words(self.place)}). "
                    f"Pick again, or show it to the simulated camera.")
        return None

    def clear(self) -> None:
        self.list.clearSelection()
        self.seen = None
        self.status.setText("")


class CardListChooser(_Chooser):
    """Several cards from one place (a meld laid from a hand, hunch cards drawn): each camera
    sighting adds a card; a click on a line adds one card of it (a line of several copies takes
    one more at each click), and a click on a line whose cards are all chosen takes them back."""

    point_size = 15

    def __init__(self, controller: GameController, field: str, place: str, *, least: int = 1,
                 most: int | None = None, kinds: tuple[str, ...] | None = None, hint: str | None = None,
                 demo_cards: list[str] | None = None, viewer: str | None = None, action: dict | None = None,
                 parent: QWidget | None = None) -> None:
        """``demo_cards``: in a demo, the cards the simulated player shows; when they are exactly as
        many as the read takes (cards drawn), they are the only right answer. The list offers the
        cards the engine says can lie at ``place`` as ``viewer`` knows it, for ``action``."""
        super().__init__(parent)
        self.controller = controller
        self.field = field
        self.place = place
        self.least = least
        self.most = most
        self.demo_cards = list(demo_cards or [])
        #: the cards chosen, in the order they were picked or seen: (copies of its line, the copy the
        #: camera read or None)
        self.chosen: list[tuple[tuple[str, ...], str | None]] = []
        deck = controller.deck
        kinds = tuple(kinds) if kinds else tuple(deck.kinds)
        self.kind_words = " or ".join(controller.kind_name(k) for k in kinds) + " cards"
        self.pool = [c for k in kinds for c, _ in controller.cards_of_kind(k)]
        offered = controller.candidates(place, viewer, action, field)
        self._build(None, hint, [c for c in self.pool if c in offered])
        self.list.setSelectionMode(QAbstractItemView.NoSelection)
        self.list.itemClicked.connect(self._clicked)
        self.list.installEventFilter(self)
        self.undo = button("Take the last card back", name=f"undo:{self.field}")
        self.undo.clicked.connect(self.take_back)
        self.below.insertWidget(0, self.undo)
        self._show_count()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (watched is getattr(self, "list", None) and event.type() == QEvent.KeyPress
                and event.key() in (Qt.Key_Space, Qt.Key_Return, Qt.Key_Enter)):
            item = self.list.currentItem()
            if item is not None:
                self._clicked(item)
            return True
        return super().eventFilter(watched, event)

    def cards(self) -> list[str]:
        """The cards chosen, in the order they were picked or seen by the camera (a copy picked by
        hand is the first copy of its line not already chosen)."""
        out: list[str] = []
        for copies, seen in self.chosen:
            out.append(seen if seen is not None else next((c for c in copies if c not in out), copies[0]))
        return out

    def count_of(self, copies: tuple[str, ...]) -> int:
        return sum(1 for line, _ in self.chosen if line == copies)

    def _clicked(self, item: QListWidgetItem) -> None:
        copies = tuple(item.data(COPIES))
        if self.count_of(copies) < len(copies) and self.open():
            self.chosen.append((copies, None))
        else:
            self.chosen = [c for c in self.chosen if c[0] != copies]
        self._show_count()

    def _find_chosen(self) -> None:
        first = self._first_shown()
        if first is not None:
            self._clicked(first)
            self.find.selectAll()

    def take_back(self) -> None:
        if self.chosen:
            self.chosen.pop()
        self._show_count()

    def _count_words(self) -> str:
        if self.most == self.least:
            return f"{self.least}"
        if self.most is None:
            return f"{self.least} or more"
        return f"{self.least} to {self.most}"

    def _show_chosen(self) -> None:
        bold = QFont(self.list.font())
        bold.setBold(True)
        for row in range(self.list.count()):
            item = self.list.item(row)
            copies = tuple(item.data(COPIES))
            n = self.count_of(copies)
            name = self.controller.deck.name_of(copies[0])
            words = name if len(copies) == 1 else f"{name} \u00d7{len(copies)}"
            if n:
                words = f"\u2714 {words}" + (f" \u2014 {n} chosen" if len(copies) > 1 else "")
            item.setText(words)
            item.setFont(bold if n else self.list.font())
            item.setBackground(QBrush(CHOSEN_BACKGROUND) if n else QBrush())

    def _show_count(self) -> None:
        self._show_chosen()
        chosen = self.cards()
        names = counted_names(self.controller.deck.name_of(c) for c in chosen)
        self.status.setText(f"{len(chosen)} of {self._count_words()} chosen" + (f": {names}" if names else ""))
        if hasattr(self, "undo"):
            self.undo.setEnabled(bool(self.chosen))

    def accept_sighting(self, card_id: str) -> bool:
        """A card the camera read joins the list (seeing it again changes nothing)."""
        item = self._line_for_sighting(card_id)
        if item is None:
            return False
        if card_id not in self.cards():
            copies = tuple(item.data(COPIES))
            # The camera's copy replaces a copy of its line picked by hand, else it is one more card.
            spot = next((i for i, (line, seen) in enumerate(self.chosen) if line == copies and seen is None), None)
            if spot is not None:
                self.chosen[spot] = (copies, card_id)
            else:
                self.chosen.append((copies, card_id))
            self._show_count()
        self.status.setText(self.status.text() + "\n" + f"\u2714 Read by the camera: "
                            f"{self.controller.deck.name_of(card_id)}")
        return True

    # --- what the entry asks of every chooser ----------------------------------------------
    def open(self) -> bool:
        return self.most is None or len(self.chosen) < self.most

    def complete(self) -> bool:
        n = len(self.chosen)
        return n >= self.least and (self.most is None or n <= self.most)

    def value(self, knower: str | None = None, taken: list[str] | None = None) -> list[str]:
        """The cards to send: each copy the camera read, and for each line picked the copy the engine
        (or, in a demo, the simulated table) says it is."""
        used = list(taken or []) + [seen for _, seen in self.chosen if seen is not None]
        out: list[str] = []
        for copies, seen in self.chosen:
            if seen is None:
                seen = self.controller.choose_copy(self.place, list(copies), knower, tuple(used))
                used.append(seen)
            out.append(seen)
        return out

    def missing(self) -> str | None:
        if self.complete():
            return None
        return f"Choose {self._count_words()} {self.kind_words} (now {len(self.chosen)})."

    def demo_problem(self, controller: GameController) -> str | None:
        if self.demo_cards and self.least == self.most == len(self.demo_cards):
            # Cards drawn: the simulated player drew exactly these (not any card of the pile).
            wanted = list(self.demo_cards)
            for copies, seen in self.chosen:
                match = seen if seen in wanted else next((c for c in copies if c in wanted), None)
                if match is None:
                    return ("Those are not the cards drawn on the simulated table. Pick again, or show them to the "
                            "simulated camera.")
                wanted.remove(match)
            return None
        there = list(controller.true_cards_in(self.place))
        for copies, seen in self.chosen:
            match = seen if seen in there else next((c for c in copies if c in there), None)
            if match is None:
                return (f"{controller.deck.name_of(copies[0])}: that card is not in {controller.words(self.place)} "
                        f"on the simulated table. Pick again, or show the cards to the simulated camera.")
            there.remove(match)
        return None

    def clear(self) -> None:
        self.chosen = []
        self._show_count()


class CardEntry(QWidget):
    """Choosers for every card an action needs, a submit button, and the question on a clash."""

    #: public words of what happened, for the table screen
    done = Signal(list)
    cancelled = Signal()

    def __init__(self, controller: GameController, heading: str, reads: list[tuple[str, str]],
                 make_action: Callable[[dict[str, str]], dict], *, submit_text: str,
                 hints: dict[str, str] | None = None, camera_note: str | None = None,
                 show_to_camera: Callable[[], None] | None = None,
                 send: Callable[[dict], list] | None = None, choosers: list[QWidget] | None = None,
                 choices: dict[str, list[str]] | None = None, viewer: str | None = None,
                 action: dict | None = None, parent: QWidget | None = None) -> None:
        """``send``: how the finished action is applied (default: the controller's ``apply``).
        ``choosers``: ready-made choosers (a :class:`CardListChooser`) instead of one per read.
        ``viewer``: whose notes narrow the lists (the player looking privately; None on the shared
        screen: only what everyone saw). ``action``: the action being put together (the player
        showing the cards is its ``player``)."""
        super().__init__(parent)
        self.controller = controller
        self.make_action = make_action
        self.knower = (action or {}).get("player")
        self.send_action = send or controller.apply
        self.pending: dict | None = None
        layout = QVBoxLayout(self)
        layout.addWidget(label(heading, "title"))
        if camera_note:
            note = label(camera_note, "heading")
            note.setObjectName("entry:camera-note")
            layout.addWidget(note)
        row = QHBoxLayout()
        self.choosers = choosers if choosers is not None else \
            [CardChooser(controller, f, p, hint=(hints or {}).get(f), choices=(choices or {}).get(f), viewer=viewer,
                         action=action) for f, p in reads]
        for chooser in self.choosers:
            row.addWidget(chooser)
        layout.addLayout(row, 1)
        self.error = label("", "error")
        self.error.setObjectName("entry-error")
        self.error.hide()
        layout.addWidget(self.error)

        self.question = QFrame()
        q = QHBoxLayout(self.question)
        self.question_text = label("", "banner")
        self.question_text.setObjectName("question")
        self.yes = button("Yes, it really is that card", "danger")
        self.yes.setObjectName("question:yes")
        self.no = button("No, let me choose again")
        self.yes.clicked.connect(self._confirm)
        self.no.clicked.connect(self._retry)
        q.addWidget(self.question_text, 1)
        q.addWidget(self.yes)
        q.addWidget(self.no)
        self.question.hide()
        layout.addWidget(self.question)

        buttons = QHBoxLayout()
        self.submit_button = button(submit_text, "primary")
        self.submit_button.setObjectName("entry:submit")
        self.submit_button.clicked.connect(self.submit)
        cancel = button("Cancel")
        cancel.setObjectName("entry:cancel")
        cancel.clicked.connect(self.cancelled)
        if show_to_camera is not None:
            several = len(self.choosers) > 1 or any(isinstance(c, CardListChooser) for c in self.choosers)
            camera = button(f"Show {'them' if several else 'it'} to the simulated camera")
            camera.setObjectName("entry:camera")
            camera.clicked.connect(show_to_camera)
            buttons.addWidget(camera)
        buttons.addStretch(1)
        buttons.addWidget(cancel)
        buttons.addWidget(self.submit_button)
        layout.addLayout(buttons)
        if self.choosers:
            self.choosers[0].focus()

    def chooser(self, field: str):
        return next(c for c in self.choosers if c.field == field)

    def accept_sighting(self, card_id: str) -> None:
        """A card confirmed by the camera fills the first open chooser of its type;
        when every card has been read, the action is sent (no button press needed)."""
        for chooser in self.choosers:
            if chooser.open() and chooser.accept_sighting(card_id):
                break
        else:
            # The camera knows better than a pick by hand: a card picked from the list gives way.
            for chooser in self.choosers:
                if isinstance(chooser, CardChooser) and chooser.seen is None and chooser.accept_sighting(card_id):
                    self.error.hide()
                    break
            else:
                self._unwanted(card_id)
                return
        # Sent by itself once nothing more can come: a list that could still grow waits for the button.
        if all(c.complete() and not c.open() for c in self.choosers):
            self.submit()

    def _unwanted(self, card_id: str) -> None:
        """A card the camera read that no chooser takes: say why."""
        deck = self.controller.deck
        if card_id in deck and not self.controller.in_play(card_id):
            # A card the setup left in the box (for this number of players, say): it cannot lie here.
            self._show_error(f"The camera read {deck.name_of(card_id)}: this game leaves that card in the box. "
                             f"Put it back in the box and show the card that lies here.")
        elif card_id in deck and not any(card_id in c.pool for c in self.choosers):
            # A card of another type in front of the camera: say so instead of ignoring it.
            card = deck.card(card_id)
            wanted = " or ".join(sorted({c.kind_words for c in self.choosers}))
            self._show_error(f"The camera read a {self.controller.kind_name(card.kind)} card, "
                             f"but this needs a {wanted}. Show the card from that place.")

    def submit(self) -> None:
        for c in self.choosers:
            missing = c.missing()
            if missing:
                self._show_error(missing)
                return
        if self.controller.demo:
            for c in self.choosers:
                problem = c.demo_problem(self.controller)
                if problem:
                    c.clear()                  # open again: the simulated camera can still show the card
                    self._show_error(problem)
                    return
        cards: dict = {}
        taken: list[str] = []
        for c in self.choosers:
            cards[c.field] = c.value(self.knower, taken)
            taken += cards[c.field] if isinstance(cards[c.field], list) else [cards[c.field]]
        self._send(self.make_action(cards))

    def _send(self, action: dict) -> None:
        try:
            events = self.send_action(action)
        except Contradiction as exc:
            self.pending = dict(action, confirm=True)
            self.question_text.setText(exc.message + "\nIs it really that card?")
            self.question.show()
            self.error.hide()
            self.no.setFocus()
            return
        except RuleViolation as exc:
            self._show_error(exc.message + (f"\n(Rulebook: {exc.section})" if exc.section else ""))
            return
        except MoveNotSaved as exc:          # the card is still in hand: it can be sent again
            self._show_error(exc.message)
            return
        self.done.emit(public_texts(events))

    def _show_error(self, text: str) -> None:
        self.question.hide()
        self.error.setText(text)
        self.error.show()

    def _confirm(self) -> None:
        action, self.pending = self.pending, None
        self.question.hide()
        if action is not None:
            self._send(action)

    def _retry(self) -> None:
        self.pending = None
        self.question.hide()
        for chooser in self.choosers:
            chooser.clear()
        if self.choosers:
            self.choosers[0].focus()
