"""The family's card library screen: register, correct and remove cards, import and export the
library file, and attach stickers (``.stickers``)."""

from __future__ import annotations

import shutil
from pathlib import Path

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (QComboBox, QFileDialog, QGridLayout, QHBoxLayout, QLineEdit, QListWidget,
                               QListWidgetItem, QSpinBox, QVBoxLayout, QWidget)

from engine.games.clues39 import library as cards_lib

from ...widgets import button, label
from .stickers import StickerPanel
from .tags import sync_tags


class LibraryEditor(QWidget):
    """The family registers their cards once: type the number, pick from short lists, Register.

    Every check is the library's own (``engine.games.clues39.library``): a refused card is
    explained in words and nothing is saved. Each accepted change is written to the family's
    library file at once (``<Gumshoe folder>/39-clues/library.toml``), or to ``path``, and every
    card gets its tag number (stickers: "Make the tag sheets" on the start screen). A library
    file is imported (added to the cards, or replacing a broken file) and exported as a file.
    """

    def __init__(self, path: Path | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.path = path or cards_lib.user_library_path()
        self.library = cards_lib.Library("Our cards")
        self.broken: str | None = None
        if self.path.exists():
            try:
                self.library = cards_lib.load_library(self.path)
            except cards_lib.LibraryError as exc:
                self.broken = exc.message
        vocab = cards_lib.vocabulary()
        layout = QVBoxLayout(self)
        layout.addWidget(label("Show a card to the camera (or type its number), then type its name.", "heading"))
        form = QGridLayout()
        self.number = QSpinBox()
        self.number.setObjectName("library:number")
        self.number.setRange(0, cards_lib.MAX_NUMBER)
        self.name = QLineEdit()
        self.name.setObjectName("library:name")
        self.name.setMaxLength(cards_lib.MAX_NAME)
        self.name.returnPressed.connect(self.register_card)
        self.type = QComboBox()
        self.type.setObjectName("library:type")
        for kind in cards_lib.TYPES:
            self.type.addItem(vocab.type_names[kind], kind)
        self.colour = QComboBox()
        self.colour.setObjectName("library:colour")
        self.colour.addItem("(no colour)", None)
        for colour, name in vocab.colours.items():
            self.colour.addItem(name, colour)
        self.points = QSpinBox()
        self.points.setObjectName("library:points")
        self.points.setRange(0, 39)
        self.sides = QComboBox()
        self.sides.setObjectName("library:sides")
        self.sides.addItem("One-sided (the common back)", 1)
        self.sides.addItem("Two-sided (any other back)", 2)
        self.copies = QSpinBox()
        self.copies.setObjectName("library:copies")
        self.copies.setRange(1, cards_lib.MAX_COPIES)
        self.owners = QLineEdit()
        self.owners.setObjectName("library:owners")
        self.owners.setPlaceholderText("Ann, Bob (one per copy)")
        fields = [("Number", self.number), ("Name", self.name), ("Type", self.type), ("Colour", self.colour),
                  ("Points", self.points), ("Sides", self.sides), ("Copies", self.copies),
                  ("Whose (optional)", self.owners)]
        for i, (text, widget) in enumerate(fields):         # each label at its field's left: two rows
            form.addWidget(label(text, wrap=False), i // 4, i % 4 * 2)
            form.addWidget(widget, i // 4, i % 4 * 2 + 1)
        form.setColumnStretch(3, 2)                          # the name has the most room
        form.setColumnStretch(7, 1)
        layout.addLayout(form)
        # Only what the type has is asked: points for Secrets and Founders, a colour but on a Replicator.
        self._colour_before = 0
        self.type.currentIndexChanged.connect(self._type_changed)
        self._type_changed()
        row = QHBoxLayout()
        self.register_button = button("Register this card", "primary", name="library:register")
        self.register_button.clicked.connect(self.register_card)
        self.change_button = button("Save changes to this card", name="library:change")
        self.change_button.clicked.connect(self.change_selected)
        self.remove_button = button("Remove this card", name="library:remove")
        self.remove_button.clicked.connect(self.remove_selected)
        self.import_button = button("Import a file\u2026", name="library:import")
        self.import_button.clicked.connect(self._ask_import)
        self.export_button = button("Export to a file\u2026", name="library:export")
        self.export_button.clicked.connect(self._ask_export)
        for b in (self.register_button, self.change_button, self.remove_button):
            row.addWidget(b)
        row.addStretch(1)
        row.addWidget(self.import_button)
        row.addWidget(self.export_button)
        layout.addLayout(row)
        self.stickers = StickerPanel(cards_lib.GAME_ID)
        self.stickers.number_read.connect(self.attach_sticker)
        self.stickers.card_read.connect(self._card_read)
        self.stickers.print_requested.connect(self.print_spares)
        self.stickers.numbered_requested.connect(self.print_numbered)
        self.stickers.hold_up_requested.connect(self.hold_up_next)
        #: what the camera told about the card being registered: a sticker printed to attach later
        #: (its number: it goes on the card registered next) or a numbered sticker's card id
        self.pending_sticker: int | None = None
        self.pending_card: str | None = None
        self.stickers.new_button.clicked.connect(self._target_new)
        self.stickers.copy.valueChanged.connect(lambda _v: self._show_target())
        layout.addWidget(self.stickers)
        self.error = label("", "error")
        self.error.setObjectName("library:error")
        self.error.hide()
        layout.addWidget(self.error)
        self.summary = label("")
        self.summary.setObjectName("library:summary")
        layout.addWidget(self.summary)
        self.list = QListWidget()
        self.list.setObjectName("library:list")
        self.list.currentRowChanged.connect(self._selected)
        layout.addWidget(self.list, 1)
        self._fill()
        self._show_target()
        if self.broken:
            self._complain(f"Your library file cannot be used: {self.broken} Fix it in a text editor, or "
                           f"import a good file (the broken one is then kept beside it as library-broken.toml).")
        self._enable()

    # --- showing ---------------------------------------------------------------------
    def _enable(self) -> None:
        for b in (self.register_button, self.change_button, self.remove_button, self.export_button,
                  self.stickers.attach_button, self.stickers.new_button):
            b.setEnabled(self.broken is None)

    def _complain(self, text: str) -> None:
        self.error.setText(text)
        self.error.show()

    def _words(self, e: "cards_lib.Entry", stickers: dict[str, int] | None = None) -> str:
        colour = f"{e.colour} " if e.colour else ""
        points = f", {e.points} points" if e.points else ""
        copies = f", {e.copies} copies" if e.copies > 1 else ""
        owners = f", {' and '.join(o or 'nobody' for o in e.owners)}'s" if e.owners else ""
        numbers = [str(stickers[cards_lib.full_id(k)]) for k in e.physical_ids() if cards_lib.full_id(k) in
                   (stickers or {})]
        tags = f"; sticker{'s' if len(numbers) > 1 else ''} {', '.join(numbers)}" if numbers else ""
        return (f"{e.number}: {e.name} ({colour}{e.type}{points}, {'one' if e.sides == 1 else 'two'}-sided"
                f"{copies}{owners}{tags})")

    @staticmethod
    def _sticker_numbers() -> dict[str, int]:
        """card id -> the tag number on its sticker (none known when the tag file is broken: the
        table says so when a game opens)."""
        from vision.registry import RegistryError, family_file
        try:
            return {t.card_id: t.tag_id for t in family_file(cards_lib.GAME_ID).tags}
        except (RegistryError, OSError):
            return {}

    def _fill(self) -> None:
        self.list.blockSignals(True)
        self.list.clear()
        stickers = self._sticker_numbers()
        for e in sorted(self.library.entries, key=lambda e: e.number):
            item = QListWidgetItem(self._words(e, stickers))
            item.setData(Qt.UserRole, e.id)
            self.list.addItem(item)
        self.list.blockSignals(False)
        if hasattr(self, "stickers"):
            self._show_target()
        physical = self.library.physical()
        ones = sum(1 for _, e, _ in physical if e.sides == 1)
        self.summary.setText(f"{len(self.library.entries)} printed cards, {len(physical)} with the copies "
                             f"({ones} one-sided, {len(physical) - ones} two-sided); their sticker sheets: "
                             f"\u201cMake the tag sheets\u201d on the start screen."
                             if self.library.entries else "No card registered yet.")

    def _type_changed(self) -> None:
        """Points only for a Secret or a Founder (0 otherwise), no colour on a Replicator: fields the
        type cannot have are greyed, so a family never has to clear them."""
        kind = self.type.currentData()
        scoring = kind in cards_lib.SCORING
        if not scoring:
            self.points.setValue(0)
        self.points.setEnabled(scoring)
        if kind == cards_lib.REPLICATOR:
            if self.colour.isEnabled():
                self._colour_before = self.colour.currentIndex()
            self.colour.setCurrentIndex(0)                 # (no colour)
            self.colour.setEnabled(False)
        elif not self.colour.isEnabled():
            self.colour.setCurrentIndex(self._colour_before)
            self.colour.setEnabled(True)

    def _selected(self, row: int) -> None:
        """A picked card fills the form, to correct it (its id, and so its sticker, stays)."""
        self._show_target()
        if row < 0:
            return
        e = self.library.entry(self.list.item(row).data(Qt.UserRole))
        self.number.setValue(e.number)
        self.name.setText(e.name)
        self.type.setCurrentIndex(self.type.findData(e.type))
        self.colour.setCurrentIndex(self.colour.findData(e.colour))
        self.points.setValue(e.points)
        self.sides.setCurrentIndex(self.sides.findData(e.sides))
        self.copies.setValue(e.copies)
        self.owners.setText(", ".join(e.owners))

    def _save(self, library: "cards_lib.Library") -> bool:
        try:
            cards_lib.save_library(library, self.path)
        except OSError as exc:
            self._complain(f"The library file could not be written ({exc.strerror or exc}); nothing changed.")
            return False
        self.library = library
        self.broken = None
        self.error.hide()
        problem = sync_tags()
        if problem:
            self._complain(problem)
        self._fill()
        self._enable()
        return True

    def _form_owners(self) -> list[str]:
        return [o.strip() for o in self.owners.text().split(",") if o.strip()]

    def _refused(self, exc: "cards_lib.LibraryError") -> None:
        where = self.library.where
        self._complain(exc.message.split(": ", 1)[-1] if exc.message.startswith(where) else exc.message)

    # --- changing --------------------------------------------------------------------
    def register_card(self) -> None:
        """Register the card in the form (refused in words when the library's checks fail). A sticker
        the camera just read goes on it; a numbered sticker's card is this one."""
        if self.broken:
            return
        if self.pending_sticker is not None and self._selected_entry() is None:
            if self.attach_sticker(self.pending_sticker):
                self.pending_sticker = None
                self.name.setFocus()
            return
        pending = self.pending_card if self.pending_card and self._number_of(self.pending_card) == \
            self.number.value() else None
        try:
            new = cards_lib.register(self.library, self.number.value(), self.name.text(), self.type.currentData(),
                                     self.colour.currentData(), points=self.points.value(),
                                     sides=self.sides.currentData(), copies=self.copies.value(),
                                     owners=self._form_owners())
        except cards_lib.LibraryError as exc:
            self._refused(exc)
            return
        if self._save(new):
            entry = new.by_number(self.number.value())
            if pending is not None and entry is not None:
                self.pending_card = None
                said = (f"\u2714 Card {entry.number} registered: {entry.name}. Its sticker names it already."
                        if cards_lib.full_id(entry.physical_ids()[0]) == pending else
                        f"\u2714 Card {entry.number} registered: {entry.name}.")
                self._sticker_says(said)
            self.number.setValue(self.number.value() + 1)      # the next card of a pack, usually
            self.name.clear()
            self.name.setFocus()

    def change_selected(self) -> None:
        """Save the form over the selected card (its id stays: a printed sticker keeps working)."""
        items = self.list.selectedItems()
        if not items or self.broken:
            self._complain("Pick a card in the list first.")
            return
        try:
            new = cards_lib.edit(self.library, items[0].data(Qt.UserRole), number=self.number.value(),
                                 name=self.name.text(), type=self.type.currentData(),
                                 colour=self.colour.currentData(), points=self.points.value(),
                                 sides=self.sides.currentData(), copies=self.copies.value(),
                                 owners=self._form_owners())
        except cards_lib.LibraryError as exc:
            self._refused(exc)
            return
        self._save(new)

    def remove_selected(self) -> None:
        items = self.list.selectedItems()
        if items and not self.broken:
            self._save(cards_lib.remove(self.library, items[0].data(Qt.UserRole)))

    def import_from(self, path: str | Path) -> bool:
        """Add a library file's cards to ours (or replace a broken library file); refused in words."""
        try:
            new = cards_lib.import_library(path, None if self.broken else self.library)
        except cards_lib.LibraryError as exc:
            self._complain(f"That file was not imported: {exc.message}")
            return False
        if self.broken and self.path.exists():
            shutil.copyfile(self.path, self.path.with_name("library-broken.toml"))
        return self._save(new)

    # --- stickers: printed to attach later, attached by showing the card -------------------
    def _selected_entry(self) -> "cards_lib.Entry | None":
        items = self.list.selectedItems()
        return self.library.entry(items[0].data(Qt.UserRole)) if items else None

    def _target_new(self) -> None:
        """The next sticker read goes on a new card: the one filled in on the form (a form that showed
        a registered card is emptied for it, at the next free number; its type and colour stay)."""
        shown = self._selected_entry()
        self.list.clearSelection()
        self.list.setCurrentRow(-1)
        if shown is not None and self.name.text().strip() == shown.name:
            self.name.clear()
            self.number.setValue(self._next_number())
        self._show_target()

    def _show_target(self) -> None:
        e = self._selected_entry()
        copy = self.stickers.copy
        copy.setVisible(e is not None and e.copies > 1)
        if e is None:
            self.stickers.target.setText("A sticker read now goes on a new card: the one in the form above "
                                         "(or pick a card in the list).")
            return
        copy.blockSignals(True)
        copy.setRange(1, e.copies)
        copy.blockSignals(False)
        which = f", copy {copy.value()}" if e.copies > 1 else ""
        self.stickers.target.setText(f"A sticker read now goes on card {e.number}{which}: {e.name}.")

    def _card_words(self, card_id: str, fallback: str) -> str:
        """"card 8: Old Secret" (with the copy when there are several) for a card id of the library."""
        key = card_id.rsplit(".", 1)[-1]
        for k, e, n in self.library.physical():
            if k == key:
                return f"card {e.number}{f' (copy {n})' if e.copies > 1 else ''}: {e.name}"
        return fallback

    @staticmethod
    def _number_of(card_id: str) -> int | None:
        """The printed number a numbered sticker's card id says ("39-clues.card.n7": 7), or None."""
        key = card_id.rsplit(".", 1)[-1]
        return int(key[1:]) if key.startswith("n") and key[1:].isdigit() else None

    def _card_read(self, card_id: str) -> None:
        """The camera read a card of this game. A card of the library: picked in the list (to correct
        it) unless a card or a new card's form waits for a sticker (then it is that sticker). A
        numbered sticker of a card not registered yet: the form is ready for it, its number filled
        in; the family types only its name and picks the rest."""
        from vision.registry import RegistryError, family_file
        key = card_id.rsplit(".", 1)[-1]
        known = next(((e, k) for k_, e, k in self.library.physical() if k_ == key), None)
        waiting = self._selected_entry() is not None or bool(self.name.text().strip())
        if known is None and not self.broken:
            number = self._number_of(card_id)
            if number is not None and self.library.by_number(number) is None and not any(
                    e.id == key for e in self.library.entries):
                self._ready_for(number, card_id)
                return
        elif known is not None and not waiting and not self.broken:
            e, copy = known
            self._pick(e.id)
            which = f" (copy {copy})" if e.copies > 1 else ""
            self._sticker_says(f"That is card {e.number}{which}: {e.name}. It is in the form to correct; "
                               f"show a new card to register it.")
            return
        try:
            tag = family_file(cards_lib.GAME_ID).tag_of_card(card_id)
        except (RegistryError, OSError) as exc:
            self._sticker_says(f"Your cards' tag file cannot be read ({exc}); nothing changed.")
            return
        if tag is not None:
            self.attach_sticker(tag.tag_id)

    def _pick(self, entry_id: str | None) -> None:
        """Pick a card in the list (None: none, the form for a new card)."""
        for row in range(self.list.count()):
            if entry_id is not None and self.list.item(row).data(Qt.UserRole) == entry_id:
                self.list.setCurrentRow(row)
                return
        self._target_new()

    def _next_number(self) -> int:
        """The number in the form, or the next one free after it when it is taken."""
        number = self.number.value()
        while self.library.by_number(number) is not None and number < cards_lib.MAX_NUMBER:
            number += 1
        return number

    def _ready_for(self, number: int, card_id: str) -> None:
        """A numbered sticker of a card not registered yet: its number in the form, the name to type."""
        other = self._selected_entry() is not None       # the form showed another card: emptied
        self._pick(None)
        self.pending_card, self.pending_sticker = card_id, None
        self.number.setValue(number)
        if other:
            self.name.clear()
        self.name.setFocus()
        self._sticker_says(f"Card {number} is new: type its name, pick its type, colour and points, then "
                           f"Register (or Enter).")

    def _ready_for_sticker(self, number: int) -> bool:
        """A sticker printed to attach later, with no card picked: it goes on the card registered next."""
        from vision.registry import RegistryError, family_file
        try:
            own = family_file(cards_lib.GAME_ID)
        except (RegistryError, OSError):
            own = None
        if own is not None and number not in own.spares:
            holder = own.tag_of_number(number)
            key = holder.card_id.rsplit(".", 1)[-1] if holder is not None else ""
            known = next(((e, k) for k_, e, k in self.library.physical() if k_ == key), None)
            if known is not None:                       # already on a card: that card, to correct it
                e, copy = known
                self._pick(e.id)
                which = f" (copy {copy})" if e.copies > 1 else ""
                self._sticker_says(f"That is card {e.number}{which}: {e.name}. It is in the form to correct; "
                                   f"show a new card to register it.")
            elif holder is not None:
                self._sticker_says(f"Sticker {number} is on {holder.name}, a card no longer in your library. "
                                   f"Nothing changed.")
            else:
                self._sticker_says(f"Sticker {number} is not one of your stickers to attach. Nothing changed.")
            return False
        self.pending_sticker, self.pending_card = number, None
        self.number.setValue(self._next_number())
        self.name.clear()
        self.name.setFocus()
        self._sticker_says(f"Sticker {number} read: type the card's number and name, pick the rest, then "
                           f"Register (or Enter): the sticker goes on it.")
        return False

    def _sticker_says(self, text: str) -> None:
        self.stickers.message.setText(text)

    def attach_sticker(self, number: int) -> bool:
        """Put sticker ``number`` on the selected card (or on the new card of the form); the card's
        previous number is retired. A refusal is said in words and changes nothing."""
        from vision.registry import AttachRefused, RegistryError, attach_tag
        if self.broken:
            self._sticker_says("Your library file cannot be used, so no sticker can be attached yet.")
            return False
        entry, new = self._selected_entry(), None
        if entry is None:
            if not self.name.text().strip():
                return self._ready_for_sticker(number)
            try:
                new = cards_lib.register(self.library, self.number.value(), self.name.text(),
                                         self.type.currentData(), self.colour.currentData(),
                                         points=self.points.value(), sides=self.sides.currentData(),
                                         copies=self.copies.value(), owners=self._form_owners())
            except cards_lib.LibraryError as exc:
                where = self.library.where
                why = exc.message.split(": ", 1)[-1] if exc.message.startswith(where) else exc.message
                self._sticker_says(f"Sticker {number} was read, but the card in the form cannot be registered: "
                                   f"{why} Nothing changed.")
                return False
            entry = next(e for e in new.entries if e.number == self.number.value())
            copy = 1
        else:
            copy = min(self.stickers.copy.value(), entry.copies)
        library = new or self.library
        key = entry.physical_ids()[copy - 1]
        card_id = cards_lib.full_id(key)
        name = dict(cards_lib.card_ids(library))[card_id]
        words = f"card {entry.number}{f' (copy {copy})' if entry.copies > 1 else ''}: {entry.name}"
        try:
            done = attach_tag(cards_lib.GAME_ID, number, card_id, name)
        except AttachRefused as exc:
            if exc.reason == "attached":
                text = f"Sticker {number} is already on {self._card_words(exc.card_id, exc.name)}. Nothing changed."
            elif exc.reason == "retired":
                text = (f"Sticker {number} was on {self._card_words(exc.card_id, exc.name)} before it got a new "
                        f"sticker; an old number is never used again. Nothing changed.")
            elif exc.reason == "other-game":
                text = (f"That sticker is on a card of another game ({exc.name}), not one of your 39 Clues "
                        f"stickers. Nothing changed.")
            elif exc.reason == "outside":
                text = (f"Sticker number {number} is not one of your 39 Clues stickers (they are numbered "
                        f"1500 to 3114). Nothing changed.")
            else:
                text = str(exc)
            self._sticker_says(text)
            return False
        except (RegistryError, OSError) as exc:
            self._sticker_says(f"The sticker could not be attached: your cards' tag file could not be used "
                               f"({exc}). Nothing changed.")
            return False
        if not done.changed:
            self._sticker_says(f"Sticker {number} is already on {words}.")
            return True
        if new is not None and not self._save(new):
            return False
        if new is not None:                          # ready for the next card, as after Register
            self.pending_sticker = None
            self.number.setValue(self.number.value() + 1)
            self.name.clear()
        old = f" Its old sticker number {done.previous} no longer counts." if done.previous is not None else ""
        self._sticker_says(f"\u2714 Sticker {number} is now on {words}.{old}")
        self.stickers.restart()                      # the camera reads the card by its new number
        return True

    def print_spares(self, count: int) -> Path | None:
        """Take ``count`` numbers from the family's block (recorded first) and save their sheet in the user folder."""
        from PySide6.QtWidgets import QApplication

        from vision.registry import RegistryError, issue_spare_tags, user_folder
        from vision.sheets import SheetError, print_spare_tags
        try:
            numbers = issue_spare_tags(cards_lib.GAME_ID, count)
        except (RegistryError, OSError) as exc:
            self._sticker_says(f"No sticker numbers could be taken ({exc}); nothing was printed.")
            return None
        out = user_folder() / cards_lib.GAME_ID / f"stickers-{numbers[0]}-{numbers[-1]}.pdf"
        QApplication.setOverrideCursor(Qt.WaitCursor)
        try:
            print_spare_tags(cards_lib.GAME_ID, numbers, out)
        except (SheetError, OSError) as exc:
            self._sticker_says(f"Sticker numbers {numbers[0]} to {numbers[-1]} are kept for you, but the sheet "
                               f"could not be written ({exc}).")
            return None
        finally:
            QApplication.restoreOverrideCursor()
        self._sticker_says(f"{len(numbers)} stickers ({numbers[0]} to {numbers[-1]}) to print and stick on any "
                           f"cards: {out}")
        self.stickers.restart()                      # the camera knows the new numbers' tag family
        return out

    MOST_NUMBERED = 200          # numbered stickers printed at once (a few sheets)

    def print_numbered(self, first: int, last: int) -> Path | None:
        """Stickers for the cards numbered ``first`` to ``last`` not registered yet, each naming its card
        ("Card 7"): shown to the camera on its card, the form is filled with that number. Their tag
        numbers are recorded first (a printed sticker's number is never lost), then the sheet is saved."""
        from PySide6.QtWidgets import QApplication

        from vision.decks import Deck, DeckCard
        from vision.registry import RegistryError, family_file, sync_family_cards, user_folder
        from vision.sheets import SheetError, print_tags
        if self.broken:
            self._sticker_says("Your library file cannot be used, so no sticker can be printed yet.")
            return None
        if last < first or last - first + 1 > self.MOST_NUMBERED:
            self._sticker_says(f"Pick from 1 to {self.MOST_NUMBERED} card numbers, the first one before the "
                               f"last. Nothing was printed.")
            return None
        taken = {e.id for e in self.library.entries}
        cards = [(cards_lib.full_id(f"n{n}"), f"Card {n}") for n in range(first, last + 1)
                 if self.library.by_number(n) is None and f"n{n}" not in taken]
        if not cards:
            self._sticker_says(f"Cards {first} to {last} are all registered: no sticker to print.")
            return None
        try:
            sync_family_cards(cards_lib.GAME_ID, cards, listed=False)
            numbers = {t.card_id: t.tag_id for t in family_file(cards_lib.GAME_ID).tags}
        except (RegistryError, OSError) as exc:
            self._sticker_says(f"No sticker numbers could be taken ({exc}); nothing was printed.")
            return None
        folder = user_folder() / cards_lib.GAME_ID
        deck = Deck(cards_lib.GAME_ID, cards_lib.GAME_ID, f"The 39 Clues: stickers for cards {first} to {last}",
                    folder, tuple(DeckCard(cid, cards_lib.GAME_ID, cards_lib.GAME_ID, "card", name)
                                  for cid, name in cards if cid in numbers))
        out = folder / f"card-stickers-{first}-{last}.pdf"
        QApplication.setOverrideCursor(Qt.WaitCursor)
        try:
            print_tags(deck, out)
        except (SheetError, RegistryError, OSError) as exc:
            self._sticker_says(f"The sheet could not be written ({exc}).")
            return None
        finally:
            QApplication.restoreOverrideCursor()
        skipped = (last - first + 1) - len(cards)
        also = f" ({skipped} already registered: none for them)" if skipped else ""
        self._sticker_says(f"{len(cards)} stickers, each saying its card's number{also}: stick \u201cCard {first}\u201d "
                           f"on card {first} and so on, then show each card to the camera. {out}")
        self.stickers.restart()                      # the camera knows the new cards' numbers
        return out

    def next_to_show(self) -> str | None:
        """What the simulated table holds up next: the lowest numbered sticker's card not registered
        yet, else the first sticker printed to attach later ("tag:1520"), else None."""
        from vision.registry import RegistryError, family_file
        try:
            own = family_file(cards_lib.GAME_ID)
        except (RegistryError, OSError):
            return None
        registered = {cards_lib.full_id(k) for k, _, _ in self.library.physical()}
        waiting = sorted((n, t.card_id) for t in own.tags if t.card_id not in registered
                         and (n := self._number_of(t.card_id)) is not None and self.library.by_number(n) is None)
        if waiting:
            return waiting[0][1]
        return f"tag:{own.spares[0]}" if own.spares else None

    def hold_up_next(self) -> str | None:
        """The simulated table: hold up the next card with a sticker (see :meth:`next_to_show`)."""
        simulated = self.stickers.simulated
        card = self.next_to_show()
        if simulated is None:
            self._sticker_says("Start the simulated table first.")
            return None
        if card is None:
            self._sticker_says("No sticker is waiting for a card: print numbered stickers or stickers to "
                               "attach later first.")
            return None
        # The card before it is put down first: a card swapped for another in the same place looks
        # like a still picture to the camera for a moment.
        simulated.hold_up([], seconds=1.0)
        QTimer.singleShot(1200, lambda: simulated is self.stickers.simulated and simulated.hold_up([card], seconds=6.0))
        self._sticker_says("The simulated table puts the card down and holds up the next one\u2026")
        return card

    def export_to(self, path: str | Path) -> bool:
        try:
            cards_lib.export_library(self.library, path)
        except OSError as exc:
            self._complain(f"The file could not be written ({exc.strerror or exc}).")
            return False
        self.error.hide()
        return True

    def _ask_import(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Import a card library", str(Path.home()),
                                              "Card library (*.toml);;Every file (*)")
        if path:
            self.import_from(path)

    def _ask_export(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Export your card library", str(Path.home() / "39-clues-cards.toml"),
                                              "Card library (*.toml)")
        if path:
            self.export_to(path)
