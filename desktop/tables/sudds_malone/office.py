"""The Office's panel: the columns of the board to improve."""

from __future__ import annotations

from engine.games.sudds_malone.box import TRACKS
from engine.games.sudds_malone.rules import TRACK_NAME

from .box_form import reward_words
from .choices import ColumnChoice, ColumnLook
from .panel import COLUMN_LEAST


class OfficePanel:
    """The Office's panel, a mixin of :class:`~.table.SuddsTable`."""

    # The Office ------------------------------------------------------------------------------------
    def _panel_improve(self) -> None:
        ups = self.sel.setdefault("ups", [])
        b = self.state.boards[self.player]
        n = self.rules.box.allowance("office", b.office_level)
        levels = dict(b.levels)
        for t in ups:
            levels[t] += 1
        cost = sum(self.rules.box.step_cost(t, lv) for t, lv in self._steps(ups))
        self.panel_title.setText(f"{self.player}, The Office: improve up to {n} column{'s' if n != 1 else ''}, in "
                                 f"order (you have ${b.cash}). Chosen: "
                                 + (", ".join(TRACK_NAME[t] for t in ups) + f" (${cost})" if ups else "nothing"))
        # Each column of the player's board, drawn as a choice: its level, and what its next step
        # costs and gives (issue 23: the board painted, a legal column glowing).
        widgets = []
        for pips, t in enumerate(TRACKS, start=1):
            if levels[t] >= 4:
                step, ok = "at the top", False
            else:
                lv = self.rules.box.level(t, levels[t] + 1)
                step = f"to {lv.level}: ${lv.cost}, {reward_words(lv.reward)}"
                ok = self.refusal({"type": "improve", "player": self.player, "tracks": ups + [t]}) is None
            choice = ColumnChoice(f"sm:up:{t}", ColumnLook(TRACK_NAME[t], pips, levels[t], b.levels[t],
                                                           self.colours[self.player], step, ok, ups.count(t)))
            choice.clicked.connect(lambda _=False, t=t: self._add_up(t))
            widgets.append(choice)
        self._fit_or_widen(widgets, 3, least=COLUMN_LEAST)
        self._row(self._button("Start again", "sm:clear", self._clear_ups, enabled=bool(ups)))
        self._row(self._button("Improve these" if ups else "Improve nothing", "sm:send",
                                                  lambda: self._send({"type": "improve", "tracks": list(ups)}),
                                                  role="primary"))

    def _steps(self, ups: list[str]):
        levels = dict(self.state.boards[self.player].levels)
        for t in ups:
            levels[t] += 1
            yield t, levels[t]

    def _add_up(self, t: str) -> None:
        self.sel["ups"].append(t)
        self._draw_panel()

    def _clear_ups(self) -> None:
        self.sel["ups"] = []
        self._draw_panel()
