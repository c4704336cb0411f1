"""The hunches' panels: a hunch card kept, a hunch card bought."""

from __future__ import annotations

from fractions import Fraction

from engine.games.sudds_malone.state import HUNCH_PILE

from .panel import short


class HunchPanels:
    """The hunches' panels, a mixin of :class:`~.table.SuddsTable`."""

    # hunches ---------------------------------------------------------------------------------------------
    def _panel_hunch(self) -> None:
        cards = self.sel.setdefault("cards", [])
        snitches = self.sel.setdefault("snitches", [])
        b = self.state.boards[self.player]
        self.panel_title.setText(f"{self.player}, gain a hunch: pick cards above your file cabinet (and your "
                                 f"snitches) that give A, B and C, each one at least one letter of its own. A "
                                 f"wild tab or a snitch is one letter.")
        widgets = []
        for c in b.above:
            tabs = self.rules.tabs_of(c)
            words = " + ".join([*tabs.replace("*", "")] + ["wild"] * tabs.count("*"))
            widgets.append(self._button(f"{self.name(c)}: {words}", f"sm:hunch:{short(c)}",
                                        lambda c=c: self._toggle("cards", c), checked=c in cards))
        tab_words = "wild: one letter" if self.rules.box.snitch_tab == "wild" else f"tab {self.rules.box.snitch_tab}"
        for loc, (owner, ev, _) in sorted(self.state.snitch_at.items()):
            if owner == self.player:
                widgets.append(self._button(f"Your snitch at {self.rules.loc_name(loc)} ({tab_words})",
                                            f"sm:hunch:s:{loc}", lambda loc=loc: self._toggle("snitches", loc),
                                            checked=loc in snitches))
        problem = self.rules.set_problem(self.rules.hunch_items(cards, len(snitches))) if cards else None
        ok = bool(cards) and problem is None
        self._grid(widgets, 3)
        can_read = hasattr(self.shell, "read_card_list")
        if not can_read:
            self.panel_note.setText("Drawing hunch cards privately needs the shell's card-list entry.")
        elif problem:
            self.panel_note.setText(problem)
        self._row(self._button("Draw the hunch cards", "sm:send", self._draw_hunches,
                                                  enabled=ok and can_read, role="primary"))

    def _draw_hunches(self) -> None:
        need = min(3, self.state.table.count(HUNCH_PILE))
        p = self.player
        action = {"type": "hunch", "player": p, "cards": list(self.sel["cards"]),
                  "snitches": list(self.sel["snitches"])}
        demo = None
        if self.simulator is not None:
            demo = list(reversed(self.simulator.cards_in(self.state, str(HUNCH_PILE))))[:need]
        self.close_panel()
        self.shell.read_card_list(action, "drawn", str(HUNCH_PILE), private=True,
                                  heading=f"{p}, draw {need} hunch card{'s' if need != 1 else ''} and look at them",
                                  least=need, most=need, kinds=("hunch",), demo_cards=demo)

    def _start_keep_hunch(self) -> None:
        p = self.player
        self.mode = None
        # Behind the gate only: each card's expected points, from what this player saw (full assist).
        journal = self.controller.session.journal(p, self.controller.assist)
        expected = {x.data["card"]: Fraction(x.data["expected"]) for x in journal.deductions if x.kind == "hunch_ev"}
        worth = "; ".join(f"{self.name(c)} {float(expected[c]):+.1f}" for c in self.state.drawn if c in expected)
        self.shell.read_cards({"type": "keep_hunch", "player": p}, [("card", f"{p}/drawn")], private=True,
                              heading=f"{p}, which hunch card do you keep? The others go under the hunch deck."
                                      + (f" Points each is expected to score, from what you have seen: {worth}."
                                         if worth else ""),
                              choices={"card": list(self.state.drawn)})

    def _start_buy_hunch(self) -> None:
        p = self.player
        self.mode = None
        self.shell.read_cards({"type": "buy_hunch", "player": p}, [("card", str(HUNCH_PILE))], private=True,
                              heading=f"{p}, pay $1 and draw one more hunch card")
