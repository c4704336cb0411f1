"""The drawn deal (Game Setup 4-5 and 8): the Flimflam cards' backs on the map, the Conspiracy's
face-up Flimflam card and the Case display, tapped on the table or read by the camera."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from ... import style
from ...widgets import natural_key
from .choices import CardChoice
from .panel import points


class DealPanel:
    """The deal's panel, a mixin of :class:`~.table.SuddsTable`."""

    # deal --------------------------------------------------------------------------------------
    # Game Setup 4-5 and 8, on the drawn table (issue 29): a location touched on the map asks for the
    # back of the Flimflam card lying there (the family reads the back; the cards with one back are alike
    # until turned up), the Conspiracy touched asks for its face-up Flimflam card and a display card for
    # its Case card (the camera reads them, or the player picks them from the card list).
    def _groups(self) -> dict[tuple[str, int], list[str]]:
        """The Flimflam cards by their back (the evidence or bullets shown, and the suspect it covers)."""
        out: dict[tuple[str, int], list[str]] = {}
        for c in sorted(self.state.ff_deck, key=lambda c: natural_key(self.name(c))):
            f = self.rules.ff(c)
            out.setdefault((f.back, f.cover), []).append(c)
        return out

    def _start_deal(self) -> None:
        self.sel = {"city": {}, "conspiracy": "", "display": ["", "", "", ""], "at": None}
        if self.simulator is not None:
            # One simulated deal for the whole panel: the card its camera is shown at a place is
            # the card "Deal on the simulated table" fills in there. Looking draws nothing from the simulated
            # table's random numbers, so its game stays the one its seed plays (the family walk follows
            # that game); they move on only when this deal is dealt on the simulated table.
            rng = self.simulator.rng
            before = rng.getstate()
            self.sel["sim"] = self.simulator._candidate(self.state, self.player)
            self.sel["sim_rng"] = rng.getstate()
            rng.setstate(before)

    def _sim_deal(self) -> dict | None:
        return self.sel.get("sim") if self.simulator is not None else None

    def _deal_on_sim(self) -> None:
        """The simulated table's deal, as its camera would read it."""
        wanted = self._sim_deal()
        if wanted is None:
            wanted = self.simulator._candidate(self.state, self.player)
        else:
            self.simulator.rng.setstate(self.sel["sim_rng"])
        self.sel["city"] = {loc: self._back_of(c) for loc, c in wanted["city"].items()}
        self.sel["conspiracy"] = wanted["conspiracy"]
        self.sel["display"] = list(wanted["display"])
        self.sel["at"] = None
        self._draw_panel()

    def _back_of(self, card: str) -> tuple[str, int]:
        f = self.rules.ff(card)
        return f.back, f.cover

    @staticmethod
    def _back_words(back: tuple[str, int]) -> str:
        return ("2 bullets" if back[0] == "bullets" else back[0].capitalize()) + " back"

    def _group_left(self, back: tuple[str, int], loc: str | None) -> int:
        """How many cards with this back are not yet placed (the one at ``loc`` counted as free)."""
        used = sum(1 for place, b in self.sel["city"].items() if b == back and place != loc)
        con = self.sel.get("conspiracy")
        used += 1 if con and self._back_of(con) == back else 0
        return len(self._groups().get(back, [])) - used

    def _deal_cards(self) -> dict[str, str]:
        """A card id for each location: one with the back named there, none used twice."""
        free = {k: [c for c in v if c != self.sel.get("conspiracy")] for k, v in self._groups().items()}
        return {loc: free[back].pop(0) for loc, back in self.sel["city"].items() if free.get(back)}

    def _click_deal(self, place: str) -> None:
        if place in self.city.districts:
            self.sel["at"] = place
            self._draw_panel()
        elif place.startswith("conspiracy/"):
            cards = [c for cards in self._groups().values() for c in cards]
            sim = self._sim_deal()
            self.shell.identify_card(f"{self.player}, the Flimflam card face up on the Conspiracy: which is it?",
                                     sorted(cards, key=lambda c: natural_key(self.name(c))), self._set_conspiracy,
                                     shown=sim["conspiracy"] if sim else None)

    def _set_conspiracy(self, card: str) -> None:
        self.sel["conspiracy"] = card
        for loc, back in list(self.sel["city"].items()):      # a back now short of cards: asked again
            if self._group_left(back, loc) < 0:
                del self.sel["city"][loc]
        self._draw_panel()

    def _set_back(self, loc: str, back: tuple[str, int]) -> None:
        self.sel["city"][loc] = back          # said: back to the map, where it is drawn
        self.sel["at"] = None
        self._draw_panel()

    def _read_display(self, i: int) -> None:
        display = self.sel["display"]
        cases = sorted((c for c in self.state.cases_in_play if c not in display or c == display[i]),
                       key=lambda c: natural_key(self.name(c)))
        sim = self._sim_deal()
        self.shell.identify_card(f"{self.player}, Case card {i + 1} of the display: which is it?", cases,
                                 lambda card, i=i: self._set_display(i, card),
                                 shown=sim["display"][i] if sim and sim["display"][i] in cases else None)

    def _set_display(self, i: int, card: str) -> None:
        self.sel["display"][i] = card
        self._draw_panel()

    def _case_detail(self, card: str) -> str:
        c = self.rules.case(card)
        return f"{', '.join(c.cost)}: {points(c.points)}" + (f", ${c.cash}" if c.cash else "") + (
            f"; tabs {c.tabs}" if c.tabs else "")

    def _panel_deal(self) -> None:
        city, display, at = self.sel["city"], self.sel["display"], self.sel.get("at")
        con = self.sel.get("conspiracy")
        done = len(city) == len(self.rules.box.locations) and bool(con) and all(display)
        widgets: list[QWidget] = []
        if at is not None:
            self.panel_title.setText(f"{self.player}, the deal. The Flimflam card face down at "
                                     f"{self.rules.loc_name(at)}: which back does it show (and which suspect "
                                     f"does it name)?")
            for back in self._groups():
                left = self._group_left(back, at)
                choice = self._back_choice(f"sm:deal:back:{back[0]}-{back[1]}", back, "",
                                           legal=left > 0, chosen=city.get(at) == back)
                choice.clicked.connect(lambda _=False, back=back, at=at: self._set_back(at, back))
                widgets.append(choice)
            self._grid(widgets, 4, least=280)
        else:
            self.panel_title.setText(f"{self.player}, the deal: touch each location and the Conspiracy to say its "
                                     f"Flimflam card, and each Case card of the display.")
            for i in range(4):
                card = display[i]
                choice = CardChoice(f"sm:deal:display{i}", self.name(card) if card else f"Display {i + 1}", "",
                                    style.kind_colour(2), "C", chosen=bool(card))
                choice.clicked.connect(lambda _=False, i=i: self._read_display(i))
                widgets.append(choice)
            self._grid(widgets, 2, least=250)
        missing = [f"{len(self.rules.box.locations) - len(city)} location{'s' if len(city) != 7 else ''}"
                   if len(city) < len(self.rules.box.locations) else "",
                   "the Conspiracy's card" if not con else "",
                   f"{4 - sum(1 for c in display if c)} Case card{'s' if sum(1 for c in display if c) != 3 else ''}"
                   if not all(display) else ""]
        missing = [m for m in missing if m]
        if at is None:
            self.panel_note.setText(("Still to say: " + ", ".join(missing) + ".") if missing else
                                    "Every card is said.")
        if at is not None:
            self._row(self._button("Back to the map", "sm:deal:map", self._deal_display))
        if self.simulator is not None:
            self._row(self._button("Deal on the simulated table", "sm:deal:sim", self._deal_on_sim))
        self._row(self._button("These are the cards", "sm:send", self._send_deal, enabled=done, role="primary"))

    def _deal_display(self) -> None:
        self.sel["at"] = None
        self._draw_panel()

    def _send_deal(self) -> None:
        self._send({"type": "deal", "city": self._deal_cards(), "conspiracy": self.sel.get("conspiracy", ""),
                    "display": list(self.sel["display"])})
