"""The dice panels: the roll (values tapped in, read by the camera or rolled by the simulated table),
taking a die, and Moxie's re-roll."""

from __future__ import annotations

from engine.games.sudds_malone.box import TRACKS
from engine.games.sudds_malone.rules import TRACK_NAME

from . import dice as pool_dice


class DicePanels:
    """The dice panels, a mixin of :class:`~.table.SuddsTable`."""

    # roll ------------------------------------------------------------------------------------------
    def _start_roll(self) -> None:
        self.sel = {"values": {}, "die": next(iter(self.state.dice))}

    def _click_roll(self, die: str) -> None:
        if die in self.state.dice:
            self.sel["die"] = die
            self._draw_panel()

    def _panel_roll(self) -> None:
        values = self.sel["values"]
        left = [d for d in self.state.dice if d not in values]
        die = self.sel.get("die")
        self.panel_title.setText(f"{self.player}, roll every die. Tap a die above, then the value it shows "
                                 f"({len(values)} of {len(self.state.dice)} entered).")
        keys = [self._button(str(v), f"sm:value:{v}", lambda v=v: self._set_die(v), enabled=die is not None)
                for v in range(1, 7)]
        self._grid(keys, 6, least=70)
        if self.simulator is not None:
            self._row(self._button("Roll on the simulated table (its camera reads the dice)",
                                                      "sm:dice:camera", self._camera_dice))
        else:
            self._row(self._button("Read the dice with the camera", "sm:dice:camera",
                                                      self._camera_dice))
        self._row(self._button("These are the dice", "sm:send", self._send_roll,
                                                  enabled=not left, role="primary"))

    def _set_die(self, value: int) -> None:
        die = self.sel.get("die")
        if die is None:
            return
        self.sel["values"][die] = value
        order = list(self.state.dice)
        after = order[order.index(die) + 1:] + order[:order.index(die)]
        self.sel["die"] = next((d for d in after if d not in self.sel["values"]), None)
        self._draw_panel()

    def _camera_dice(self) -> None:
        """The dice read from the camera's newest frame (in a demo: the simulated table's roll)."""
        dice = list(self.state.dice)
        if self.simulator is not None:
            truth = {d: self.simulator.rng.randint(1, 6) for d in dice}
            frame = pool_dice.simulated_frame(truth, self.players, seed=self.rng.randrange(1 << 20))
        else:
            frame = self.shell.camera_frame()
            if frame is None:
                self.panel_note.setText("The camera is off: start it under Camera, or tap the values in.")
                return
        values, problems, aside = pool_dice.read_frame(frame, dice, self.players)
        self.sel["values"].update(values)
        self.sel["die"] = next((d for d in dice if d not in self.sel["values"]), None)
        self._draw_panel()
        self.panel_note.setText(f"The camera read {len(values)} of {len(dice)} dice" + (f" ({aside})" if aside else "")
                                + (f" ({'; '.join(problems)}): tap in the rest." if problems else "."))

    def _send_roll(self) -> None:
        self._send({"type": "roll", "dice": dict(self.sel["values"])})

    # take a die ------------------------------------------------------------------------------------
    def _click_take_die(self, die: str) -> None:
        if die in self._mode_legal():
            self.sel["die"] = die
            self._draw_panel()

    def _panel_take_die(self) -> None:
        die = self.sel.get("die")
        if die is None:
            self.panel_title.setText(f"{self.player}, click the die you take (\u25B6).")
            return
        value = self.state.dice[die]
        bullets = self.state.boards[self.player].bullets
        self.panel_title.setText(f"{self.player}: the {die} die shows {value}. What do you do with it?")
        choices = []
        for shift in sorted(range(-min(3, bullets), min(3, bullets) + 1), key=lambda s: (abs(s), -s)):
            new = (value - 1 + shift) % 6 + 1
            if any(c[1] == new for c in choices):
                continue
            action = {"type": "take_die", "player": self.player, "die": die, "shift": shift}
            if self.refusal(action) is None:
                cost = f" for {abs(shift)} bullet{'s' if abs(shift) != 1 else ''}" if shift else ""
                choices.append((shift, new, f"{TRACK_NAME[TRACKS[new - 1]]} ({new}){cost}"))
        widgets = [self._button(words, f"sm:use:{new}", lambda s=shift: self._send({"type": "take_die", "die": die,
                                                                                    "shift": s}))
                   for shift, new, words in sorted(choices, key=lambda c: c[1])]
        widgets.append(self._button("Read the News ($1, an evidence, a bullet)", "sm:use:news",
                                    lambda: self._send({"type": "take_die", "die": die, "news": True})))
        self._grid(widgets, 4)
        self._row(self._button("Another die", "sm:other", self._other_die))

    def _other_die(self) -> None:
        self.sel.pop("die", None)
        self._draw_panel()

    # Moxie's re-roll ---------------------------------------------------------------------------------
    def _panel_reroll(self) -> None:
        self.panel_title.setText(f"{self.player}, re-roll the Moxie die: what does it show?")
        words = [f"{v}: {TRACK_NAME[TRACKS[v - 1]]}" for v in range(1, 6)] + ["6: nothing"]
        self._grid([self._button(w, f"sm:value:{v}", lambda v=v: self._send({"type": "reroll", "value": v}))
                    for v, w in enumerate(words, 1)], 6, least=170)
        if self.simulator is not None:
            self._row(self._button("Re-roll on the simulated table", "sm:reroll:sim", lambda: self._send(
                {"type": "reroll", "value": self.simulator.rng.randint(1, 6)})))
