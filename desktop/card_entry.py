"""Entering card identities: privately (a peek) or publicly (cards flipped face up).

The same widget serves both: one list per card to read, filled by a click, by the
keyboard or by a camera sighting. It builds the engine action and sends it; a
``Contradiction`` becomes a plain question ("is it really X?") whose "yes" resends
the action with ``confirm``; any other refusal is shown and changes nothing.
"""

from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QItemSelectionModel, Qt, Signal
from PySide6.QtWidgets import (QAbstractItemView, QFrame, QHBoxLayout, QListWidget, QListWidgetItem, QVBoxLayout,
                               QWidget)

from engine.errors import Contradiction, RuleViolation

from .games import GameController, MoveNotSaved, public_texts
from .widgets import button, label


class _Chooser(QWidget):
    """What both choosers share: a list of cards (``names``: id -> words) and camera sightings."""

    field: str
    names: dict[str, str]
    list: QListWidget
    status: QWidget

    def _build(self, title: str | None, hint: str | None, point_size: int) -> None:
        """The title, the simulated table's hint, a status line and the list of ``names``."""
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        if title:
            layout.addWidget(label(title, "heading"))
        if hint:
            layout.addWidget(label(hint, "banner"))
        self.status = label("")
        self.status.setObjectName(f"status:{self.field}")
        layout.addWidget(self.status)
        self.list = QListWidget()
        self.list.setObjectName(f"choose:{self.field}")
        self.list.setStyleSheet(f"font-size: {point_size}pt;")
        for card_id, name in self.names.items():
            item = QListWidgetItem(name)
            item.setData(Qt.UserRole, card_id)
            self.list.addItem(item)
        layout.addWidget(self.list, 1)

    def item(self, card_id: str) -> QListWidgetItem | None:
        return next((self.list.item(r) for r in range(self.list.count())
                     if self.list.item(r).data(Qt.UserRole) == card_id), None)

    def select(self, card_id: str) -> None:
        item = self.item(card_id)
        if item is not None:
            item.setSelected(True)
            self.list.setCurrentItem(item, QItemSelectionModel.NoUpdate)   # selecting is done above
            self.list.scrollToItem(item)

    def accept_sighting(self, card_id: str) -> bool:
        """Take a camera sighting if it is a card this chooser lists."""
        if card_id not in self.names:
            return False
        self.select(card_id)
        self._sighted(f"\u2714 Read by the camera: {self.names[card_id]}")
        return True

    def _sighted(self, words: str) -> None:
        self.status.setText(words)


class CardChooser(_Chooser):
    """One card to identify: a list of every card that can lie there (of the slot's type, if known)."""

    def __init__(self, controller: GameController, field: str, place: str, *, hint: str | None = None,
                 choices: list[str] | None = None, title: str | None = None, parent: QWidget | None = None) -> None:
        """``choices``: the only cards it can be (one of the cards a player drew); None: any of its type.
        ``place`` "" with ``title``: a card that lies at no place of the engine's (the table asks)."""
        super().__init__(parent)
        self.field = field
        self.place = place
        self.choices = list(choices) if choices is not None else None
        self.kind = controller.kind_at(place) if place else None
        self.kind_words = controller.kind_name(self.kind) if self.kind is not None else "card"
        if self.choices is not None:
            self.names = dict(sorted(card_names(controller, self.choices).items(), key=lambda kv: kv[1]))
        else:
            self.names = dict(controller.cards_of_kind(self.kind))
        if title is None:
            where = controller.words(place)
            title = f"{where[:1].upper()}{where[1:]}: which {self.kind_words} is it?"
        self._build(title, hint, 17)

    def card(self) -> str | None:
        # The selection, not the current item: a list that merely got keyboard focus has a
        # current row without the player having chosen anything.
        items = self.list.selectedItems()
        return items[0].data(Qt.UserRole) if items else None

    # --- what the entry asks of every chooser ----------------------------------------------
    def open(self) -> bool:
        """Whether a camera sighting may still fill this chooser."""
        return self.card() is None

    def complete(self) -> bool:
        return self.card() is not None

    def value(self) -> str | None:
        return self.card()

    def missing(self) -> str | None:
        """Why the entry cannot be sent yet (None: it can)."""
        return None if self.complete() else f"Choose the {self.kind_words} first."

    def demo_problem(self, controller: GameController) -> str | None:
        """On the simulated table the truth is known: a wrong pick is a slip, not a card."""
        if self.choices is not None:       # one of several cards lying there (which one is the player's choice)
            if not self.place:
                return None                # a card the table asks about: any of its choices may be right
            if self.card() not in controller.true_cards_in(self.place):
                return (f"That card is not among the cards {controller.words(self.place)} on the simulated table. "
                        f"Pick again, or show it to the simulated camera.")
            return None
        if self.card() != controller.true_card_at(self.place):
            return (f"That is not the card lying there on the simulated table ({controller.words(self.place)}). "
                    f"Pick again, or show it to the simulated camera.")
        return None

    def clear(self) -> None:
        self.list.clearSelection()
        self.status.setText("")



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


class CardListChooser(_Chooser):
    """Several cards from one place (a meld laid from a hand, hunch cards drawn): each camera
    sighting adds a card, a click in the list adds or removes one."""

    def __init__(self, controller: GameController, field: str, place: str, *, least: int = 1,
                 most: int | None = None, kinds: tuple[str, ...] | None = None, hint: str | None = None,
                 demo_cards: list[str] | None = None, parent: QWidget | None = None) -> None:
        """``demo_cards``: in a demo, the cards the simulated player shows; when they are exactly as
        many as the read takes (cards drawn), they are the only right answer."""
        super().__init__(parent)
        self.field = field
        self.place = place
        self.least = least
        self.most = most
        self.demo_cards = list(demo_cards or [])
        self.order: list[str] = []          # the cards chosen, in the order they were picked or seen
        deck = controller.deck
        kinds = tuple(kinds) if kinds else tuple(deck.kinds)
        self.kind_words = " or ".join(controller.kind_name(k) for k in kinds) + " cards"
        ids = [c for k in kinds for c, _ in controller.cards_of_kind(k)]
        self.names = dict(sorted(card_names(controller, ids).items(), key=lambda kv: kv[1]))
        self._build(None, hint, 15)
        self.list.setSelectionMode(QAbstractItemView.MultiSelection)
        self.list.itemSelectionChanged.connect(self._selection_changed)
        self._show_count()

    def cards(self) -> list[str]:
        """The cards chosen, in the order they were picked or seen by the camera."""
        return list(self.order)

    def _selection_changed(self) -> None:
        chosen = {item.data(Qt.UserRole) for item in self.list.selectedItems()}
        self.order = [c for c in self.order if c in chosen] + sorted(chosen - set(self.order))
        self._show_count()

    def _count_words(self) -> str:
        if self.most == self.least:
            return f"{self.least}"
        if self.most is None:
            return f"{self.least} or more"
        return f"{self.least} to {self.most}"

    def _show_count(self) -> None:
        chosen = self.cards()
        names = ", ".join(self.names[c] for c in chosen)
        self.status.setText(f"{len(chosen)} of {self._count_words()} chosen" + (f": {names}" if names else ""))

    def _sighted(self, words: str) -> None:
        # A card the camera read joins the list (seeing it again changes nothing).
        self.status.setText(self.status.text() + "\n" + words)

    # --- what the entry asks of every chooser ----------------------------------------------
    def open(self) -> bool:
        return self.most is None or len(self.cards()) < self.most

    def complete(self) -> bool:
        n = len(self.cards())
        return n >= self.least and (self.most is None or n <= self.most)

    def value(self) -> list[str]:
        return self.cards()

    def missing(self) -> str | None:
        if self.complete():
            return None
        return f"Choose {self._count_words()} {self.kind_words} (now {len(self.cards())})."

    def demo_problem(self, controller: GameController) -> str | None:
        if self.demo_cards and self.least == self.most == len(self.demo_cards):
            # Cards drawn: the simulated player drew exactly these (not any card of the pile).
            if sorted(self.cards()) != sorted(self.demo_cards):
                return ("Those are not the cards drawn on the simulated table. Pick again, or show them to the "
                        "simulated camera.")
            return None
        there = list(controller.true_cards_in(self.place))
        for card_id in self.cards():
            if card_id not in there:
                return (f"{self.names[card_id]}: that card is not in {controller.words(self.place)} on the simulated "
                        f"table. "
                        f"Pick again, or show the cards to the simulated camera.")
            there.remove(card_id)
        return None

    def clear(self) -> None:
        self.list.clearSelection()
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
                 choices: dict[str, list[str]] | None = None, parent: QWidget | None = None) -> None:
        """``send``: how the finished action is applied (default: the controller's ``apply``).
        ``choosers``: ready-made choosers (a :class:`CardListChooser`) instead of one per read."""
        super().__init__(parent)
        self.controller = controller
        self.make_action = make_action
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
            [CardChooser(controller, f, p, hint=(hints or {}).get(f), choices=(choices or {}).get(f)) for f, p in reads]
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
            camera = button("Show it to the simulated camera")
            camera.setObjectName("entry:camera")
            camera.clicked.connect(show_to_camera)
            buttons.addWidget(camera)
        buttons.addStretch(1)
        buttons.addWidget(cancel)
        buttons.addWidget(self.submit_button)
        layout.addLayout(buttons)
        if self.choosers:
            self.choosers[0].list.setFocus()

    def chooser(self, field: str):
        return next(c for c in self.choosers if c.field == field)

    def accept_sighting(self, card_id: str) -> None:
        """A card confirmed by the camera fills the first open chooser of its type;
        when every card has been read, the action is sent (no button press needed)."""
        for chooser in self.choosers:
            if chooser.open() and chooser.accept_sighting(card_id):
                break
        else:
            if card_id in self.controller.deck and not self.controller.in_play(card_id):
                # A card the setup left in the box (for this number of players, say): it cannot lie here.
                self._show_error(f"The camera read {self.controller.deck.name_of(card_id)}: this game leaves that "
                                 f"card in the box. Put it back in the box and show the card that lies here.")
            elif not any(card_id in c.names for c in self.choosers) and card_id in self.controller.deck:
                # A card of another type in front of the camera: say so instead of ignoring it.
                card = self.controller.deck.card(card_id)
                wanted = " or ".join(sorted({c.kind_words for c in self.choosers}))
                self._show_error(f"The camera read a {self.controller.kind_name(card.kind)} card, "
                                 f"but this needs a {wanted}. Show the card from that place.")
            return
        # Sent by itself once nothing more can come: a list that could still grow waits for the button.
        if all(c.complete() and not c.open() for c in self.choosers):
            self.submit()

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
                    self._show_error(problem)
                    return
        self._send(self.make_action({c.field: c.value() for c in self.choosers}))

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
            self.choosers[0].list.setFocus()
