"""The Case cards' panels: Take Cases (the action, a Case card reward, the display refilled) and
Close Cases (the case closed and how it is paid)."""

from __future__ import annotations

from collections import Counter
from itertools import product
from typing import Callable

from PySide6.QtWidgets import QWidget

from engine.games.sudds_malone.box import EVIDENCE

from ... import style
from ...widgets import label, natural_key
from .choices import CardChoice
from .panel import points, short


class CasePanels:
    """The Case cards' panels, a mixin of :class:`~.table.SuddsTable`."""

    # Take Cases (the action, and a Case card reward) -----------------------------------------------------
    def _panel_take_cases(self, one: bool = False) -> None:
        picks = self.sel.setdefault("picks", [])
        refill = self.sel.setdefault("refill", [])
        b = self.state.boards[self.player]
        n = 1 if one else self.rules.box.allowance("cases", b.levels["cases"])
        self.panel_title.setText(f"{self.player}, take {'a Case card' if one else f'up to {n} Case cards'} from the "
                                 f"display or the top of the deck ({self.state.case_deck} in the deck).")
        widgets = []
        from_deck = picks.count("deck")
        for card in self.state.display:
            c = self.rules.case(card)
            on = card in picks
            widgets.append(self._button(f"{self.name(card)}: {', '.join(c.cost)}, {points(c.points)}, tabs {c.tabs}",
                                        f"sm:case:{short(card)}", lambda card=card: self._pick_case(card),
                                        enabled=on or len(picks) < n, checked=on))
        widgets.append(self._button(f"From the deck ({from_deck})", "sm:case:deck", lambda: self._pick_case("deck"),
                                    enabled=len(picks) < n and from_deck < self.state.case_deck))
        need = min(4 - (len(self.state.display) - (len(picks) - from_deck)), self.state.case_deck - from_deck)
        del refill[need:]
        refill += [""] * (need - len(refill))
        pool = sorted(self.rules.case_pool(self.state), key=lambda c: natural_key(self.name(c)))
        if self.simulator is not None:
            spare = [c for c in pool if c not in refill]
            self.rng.shuffle(spare)
            for i in range(need):
                if not refill[i]:
                    refill[i] = spare.pop()
        for i in range(need):
            card = refill[i]
            choice = CardChoice(f"sm:refill{i}", self.name(card) if card else f"Refill card {i + 1}",
                                (self._case_detail(card) if card else "touch to read it or pick it")
                                + "; turned up to refill the display", style.kind_colour(2), "C", chosen=bool(card))
            choice.clicked.connect(lambda _=False, i=i: self._read_refill(i))
            widgets.append(choice)
        self._grid(widgets, 3)
        self._row(self._button("Clear", "sm:clear", self._clear_picks, enabled=bool(picks)))
        self._row(self._button("Take them", "sm:send", self._send_cases, enabled=bool(picks),
                                                  role="primary"))

    def _read_refill(self, i: int) -> None:
        """The Case card turned up from the deck to refill the display: read by the camera or picked."""
        refill = self.sel["refill"]
        pool = sorted((c for c in self.rules.case_pool(self.state) if c not in refill or c == refill[i]),
                      key=lambda c: natural_key(self.name(c)))
        self.shell.identify_card(f"{self.player}, the Case card turned up to refill the display: which is it?", pool,
                                 lambda card, i=i: self._set_refill(i, card))

    def _set_refill(self, i: int, card: str) -> None:
        self.sel["refill"][i] = card
        self._draw_panel()

    def _panel_take_case(self) -> None:
        self._panel_take_cases(one=True)

    def _pick_case(self, card: str) -> None:
        picks = self.sel["picks"]
        if card != "deck" and card in picks:
            picks.remove(card)
        else:
            picks.append(card)
        self._draw_panel()

    def _clear_picks(self) -> None:
        self.sel = {}
        self._draw_panel()

    def _send_cases(self) -> None:
        refill = [c for c in self.sel["refill"] if c]
        if len(refill) != len(self.sel["refill"]):
            self.panel_note.setText("Choose each card turned up to refill the display.")
            return
        if self.mode == "take_case":
            self._send({"type": "take_case", "source": self.sel["picks"][0], "refill": refill[0] if refill else ""})
        else:
            self._send({"type": "take_cases", "picks": list(self.sel["picks"]), "refill": refill})

    # Close Cases --------------------------------------------------------------------------------------
    def _case_choice(self, name: str, card: str, slot: Callable[[], None], *, chosen: bool = False,
                     where: str = "") -> CardChoice:
        """A Case card drawn as a choice: its name, what it needs and gives (and where it is)."""
        choice = CardChoice(name, self.name(card), self._case_detail(card) + (f" ({where})" if where else ""),
                            style.kind_colour(2), "C", chosen=chosen)
        choice.clicked.connect(lambda _=False: slot())
        return choice

    def _close_candidates(self) -> list[str]:
        """The Case cards the player may play: those shown from the display, then (holding cards drawn from
        the deck) every card of the deck in play they could pay for now, in natural order."""
        b = self.state.boards[self.player]
        known = sorted(b.hand_known, key=lambda c: natural_key(self.name(c)))
        if not b.hand_unknown:
            return known
        pool = [c for c in self.rules.case_pool(self.state) if self._payments(self.rules.case(c).cost, b.evidence)]
        return known + sorted((c for c in pool if c not in known), key=lambda c: natural_key(self.name(c)))

    def _panel_close_case(self) -> None:
        b = self.state.boards[self.player]
        card = self.sel.get("card")
        if not card:
            self.panel_title.setText(f"{self.player}, close a case: which Case card from your hand do you play?")
            widgets: list[QWidget] = [
                self._case_choice(f"sm:close:{short(c)}", c, lambda c=c: self._close_card(c),
                                  where="taken from the display" if c in b.hand_known else "")
                for c in self._close_candidates()]
            if b.hand_unknown:
                self.panel_note.setText("The cards you drew from the deck are not shown to the others: of those, "
                                        "only the cards you have the evidence for are here.")
            if not widgets:
                widgets.append(label("You do not have the evidence any of your cases needs.", "sm"))
            self._grid(widgets, 2, least=260)
            return
        c = self.rules.case(card)
        q = self.rules.card_question(card)
        self.panel_title.setText(f"{self.player}, close {self.name(card)}: how do you pay?")
        self.panel_note.setText("Not checked against your box yet: 'Check this card'." if q else "")
        widgets = [self._case_choice(f"sm:close:{short(card)}", card, self._other_case, chosen=True)]
        if q:
            widgets.append(self._button("Check this card", "sm:close:check", lambda: self.open_box_form(q.key)))
        for i, pay in enumerate(self._payments(c.cost, b.evidence)):
            widgets.append(self._button("Pay " + ", ".join(pay), f"sm:pay:{i}", lambda pay=pay: self._send(
                {"type": "close_case", "card": card, "pay": list(pay)})))
        if len(widgets) == 1 or (q and len(widgets) == 2):
            widgets.append(label("You do not have the evidence this case needs.", "sm"))
        self._grid(widgets, 2, least=260)
        self._row(self._button("Another card", "sm:close:other", self._other_case))

    def _other_case(self) -> None:
        self.sel.pop("card", None)
        self._draw_panel()

    def _close_card(self, card: str) -> None:
        self.sel["card"] = card
        self._draw_panel()

    def _payments(self, cost, have) -> list[tuple[str, ...]]:
        """Every exact way to pay ``cost`` with the evidence ``have`` (a fedora stands for any one)."""
        out = []
        ranges = [range(min(have[e], len(cost)) + 1) for e in EVIDENCE]
        for counts in product(*ranges):
            if sum(counts) != len(cost):
                continue
            pay = Counter({e: n for e, n in zip(EVIDENCE, counts) if n})
            if self.rules.pays(tuple(cost), pay):
                out.append(tuple(sorted(pay.elements())))
        return out
