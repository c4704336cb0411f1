"""End of Game: the Conspiracy's suspects revealed (the cards told on the table) and the final
scoring, one line per player."""

from __future__ import annotations

from collections import Counter

from engine.games.sudds_malone.scoring import hunch_points

from ...widgets import natural_key
from .choices import CardChoice
from .panel import points
from .pieces import SUSPECT_BACK as SUSPECT_COLOUR


class RevealPanel:
    """The reveal's panel and the final scoring, a mixin of :class:`~.table.SuddsTable`."""

    # End of Game ------------------------------------------------------------------------------------------
    def _start_reveal(self) -> None:
        self.sel = {"cards": [""] * 4}

    def _reveal_on_sim(self) -> None:
        self.sel["cards"] = [self.simulator.card_at(self.state, f"conspiracy/{i}") for i in (1, 2, 3, 4)]
        self._draw_panel()

    def _click_reveal(self, place: str) -> None:
        if place.startswith("conspiracy/"):
            self._read_suspect(int(place.split("/")[1]) - 1)

    def _read_suspect(self, i: int) -> None:
        """The suspect turned up at position ``i + 1``: read by the camera or picked from the list."""
        cards = self.sel["cards"]
        suspects = sorted((c.id for c in self.rules.deck.of_kind("suspect")
                           if self.rules.role[c.id] != "stoolie" and (c.id not in cards or c.id == cards[i])),
                          key=lambda c: natural_key(self.name(c)))
        self.shell.identify_card(f"{self.player}, suspect {i + 1} of the Conspiracy, turned up: which is it?",
                                 suspects, lambda card, i=i: self._set_suspect(i, card))

    def _set_suspect(self, i: int, card: str) -> None:
        self.sel["cards"][i] = card
        self._draw_panel()

    def _panel_reveal(self) -> None:
        self.panel_title.setText(f"{self.player}, turn up the 4 suspects of the Conspiracy for everyone: touch "
                                 f"each one to read it or pick it.")
        cards = self.sel["cards"]
        widgets = []
        for i, card in enumerate(cards):
            choice = CardChoice(f"sm:reveal{i + 1}", self.name(card) if card else f"Suspect {i + 1}",
                                f"suspect {i + 1} of the Conspiracy" if card else "touch to read it or pick it",
                                SUSPECT_COLOUR, "S", chosen=bool(card))
            choice.clicked.connect(lambda _=False, i=i: self._read_suspect(i))
            widgets.append(choice)
        self._grid(widgets, 2, least=250)
        if self.simulator is not None:
            self._row(self._button("Turn them up on the simulated table", "sm:reveal:sim", self._reveal_on_sim))
        self._row(self._button("These are the suspects", "sm:send", lambda: self._send(
            {"type": "reveal", "cards": list(cards)}), enabled=all(cards), role="primary"))

    def final_scoring(self) -> dict[str, str]:
        """The final scoring line of each player, from the engine's figures (End of Game)."""
        t = self.rules.public_table(self.state)
        if not t["final"]:
            return {}
        makeup = Counter(self.rules.role[c] for c in t["conspiracy"])
        out = {}
        for p in self.players:
            b, f = self.state.boards[p], t["final"][p]
            before = b.score - f["tokens"] - f["matchbooks"] - f["hunches"]
            n_tokens = b.cash + b.bullets + b.evidence_total
            books = Counter(self.rules.case(c).bottom.split(":", 1)[1] for c in b.filed
                            if self.rules.case(c).bottom.startswith("matchbook:"))
            hunches = "; ".join(f"{self.name(h)} {hunch_points(self.rules.hunch(h).points, makeup):+d}"
                                for h in b.hunches) or "no hunch cards"
            out[p] = (f"{p}: {points(before)} before the end, + {f['tokens']} for {n_tokens} tokens "
                      f"(${b.cash} cash at one token per dollar, {b.bullets} bullets, {b.evidence_total} evidence), "
                      f"+ {f['matchbooks']} for {sum(books.values())} matchbooks ({len(books)} kinds), "
                      f"+ {f['hunches']} for hunches ({hunches}) = {points(b.score)}.")
        return out

    def _refresh_final(self, t: dict) -> None:
        lines = self.final_scoring()
        if lines:
            self.final_head.setText("Final scoring. The Conspiracy: " + ", ".join(
                f"{i}: {self.name(c)}" for i, c in enumerate(t["conspiracy"], 1)) + ".")
            for p, text in lines.items():
                self.final_lines[p].setText(text)
            outcome = self.session.outcome
            self.final_verdict.setText(outcome.reason if outcome is not None else "")
