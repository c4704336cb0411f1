"""End of Turn limits: the panel that puts back what is over a board's limits (cards above the file
cabinet, cards in hand, evidence, bullets)."""

from __future__ import annotations

from collections import Counter

from PySide6.QtWidgets import QWidget

from engine.games.sudds_malone.box import EVIDENCE

from ...widgets import natural_key
from .panel import short


class LimitsPanel:
    """The End of Turn limits' panel, a mixin of :class:`~.table.SuddsTable`."""

    # End of Turn limits ----------------------------------------------------------------------------------
    def _panel_discard(self) -> None:
        b = self.state.boards[self.player]
        over = self.rules.over_limits(self.state, self.player)
        above = self.sel.setdefault("above", [])
        hand = self.sel.setdefault("hand", [])
        ev = self.sel.setdefault("evidence", Counter())
        self.panel_title.setText(f"{self.player}, put back the extras: " + ", ".join(
            f"{n} {'card' if k in ('above', 'hand') else k}{'s' if n != 1 else ''}"
            + (" from above the file cabinet" if k == "above" else " from your hand" if k == "hand" else "")
            for k, n in over.items()) + (" (the bullets go back to the board)." if "bullets" in over else "."))
        widgets: list[QWidget] = []
        if "above" in over:
            for c in b.above:
                widgets.append(self._button(self.name(c), f"sm:back:{short(c)}", lambda c=c: self._toggle("above", c),
                                            checked=c in above))
        if "hand" in over:
            cards = sorted(b.hand_known, key=lambda c: natural_key(self.name(c)))
            if b.hand_unknown:
                cards += sorted((c for c in self.rules.case_pool(self.state) if c not in cards),
                                key=lambda c: natural_key(self.name(c)))
            for c in cards:
                widgets.append(self._case_choice(f"sm:back:hand:{short(c)}", c, lambda c=c: self._toggle_hand(c),
                                                 chosen=c in hand,
                                                 where="taken from the display" if c in b.hand_known else ""))
        if "evidence" in over:
            for e in EVIDENCE:
                if b.evidence[e]:
                    widgets.append(self._button(f"Put back a {e} ({ev[e]})", f"sm:back:{e}",
                                                lambda e=e: self._more_evidence(e),
                                                enabled=ev[e] < b.evidence[e]
                                                and sum(ev.values()) < over["evidence"]))
            widgets.append(self._button("Start the evidence again", "sm:back:clear", self._clear_evidence))
        self._grid(widgets, 4)
        self._row(self._button("Put them back", "sm:send", lambda: self._send(
            {"type": "discard", "above": list(above), "hand": list(hand), "bullets": over.get("bullets", 0),
             "evidence": {k: n for k, n in ev.items() if n}}), role="primary"))

    def _toggle_hand(self, card: str) -> None:
        """A Case card put back from the hand: chosen, or (chosen already) not; at most the extras."""
        hand = self.sel["hand"]
        if card in hand:
            hand.remove(card)
        else:
            hand.append(card)
            del hand[:max(len(hand) - self.rules.over_limits(self.state, self.player).get("hand", 0), 0)]
        self._draw_panel()

    def _more_evidence(self, e: str) -> None:
        self.sel["evidence"][e] += 1
        self._draw_panel()

    def _clear_evidence(self) -> None:
        self.sel["evidence"] = Counter()
        self._draw_panel()
