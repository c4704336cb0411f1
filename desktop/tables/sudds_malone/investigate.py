"""The city's panels: Investigate (a path through the city, what is drawn at its end), Flimflam
(cards to take) and the peeks (a snitch's look, a stoolie used)."""

from __future__ import annotations

from typing import Any

from engine.games.sudds_malone.state import city_place, found_place

from ... import style
from ...widgets import clear_layout, natural_key, plain_tip
from .box_form import reward_words
from .choices import CardChoice, SnitchChoice


class CityPanels:
    """The city's panels, a mixin of :class:`~.table.SuddsTable`."""

    # Investigate -------------------------------------------------------------------------------------
    def _next_locations(self) -> list[str]:
        b = self.state.boards[self.player]
        path = self.sel.get("path", [])
        n = self.rules.box.allowance("investigate", b.levels["investigate"])
        if len(path) >= n:
            return []
        here = path[-1] if path else b.location
        gone = {b.location, *b.visited, *path}
        return [x for x in self.rules.box.neighbours[here] if x not in gone]

    def _click_investigate(self, loc: str) -> None:
        if loc in self._next_locations():
            self.sel.setdefault("path", []).append(loc)
            self.sel.pop("draw", None)
            self.sel.pop("face", None)
            self._draw_panel()

    def _deck_then(self, final: str) -> list[str]:
        """The Flimflam deck when the new card is drawn: with the face read exchanged for the card noted at
        ``final`` (alike until turned up) and the card it pushes off its suspect."""
        moving = self.state.city.get(final)
        face = self.sel.get("face") or moving
        returned = self.state.covers.get(self.rules.ff(moving).cover) if moving else None
        deck = [moving if c == face else c for c in self.state.ff_deck]
        return [*deck, *([returned] if returned else [])]

    def _panel_investigate(self) -> None:
        path = self.sel.setdefault("path", [])
        snitches = self.sel.setdefault("snitches", [])
        b = self.state.boards[self.player]
        n = self.rules.box.allowance("investigate", b.levels["investigate"])
        words = " \u2192 ".join(self.rules.loc_name(x) for x in [b.location, *path])
        # Short: the prompt over the table already says who investigates and how far.
        more = len(path) < n and bool(self._next_locations())
        self.panel_title.setText(words + (" \u2192 \u25B6 (click on the map)" if more else ""))
        widgets = []
        cash = b.cash - sum(1 for s in snitches if self.state.snitch_at[s][0] != self.player)
        # Each snitch on the path, drawn as on the map: chosen, it gives its evidence (another's for $1).
        for loc in path:
            s = self.state.snitch_at.get(loc)
            if s and not s[2]:
                owner, evidence, _used = s
                own = owner == self.player
                on = loc in snitches
                choice = SnitchChoice(f"sm:snitch:{loc}", f"Use {'your' if own else owner + chr(39) + 's'} snitch",
                                      f"at {self.rules.loc_name(loc)}: a {evidence}" + ("" if own else " for $1"),
                                      self.colours[owner], evidence, legal=on or own or cash >= 1, chosen=on)
                choice.clicked.connect(lambda _=False, loc=loc: self._toggle("snitches", loc))
                widgets.append(choice)
        if path:
            final = path[-1]
            faces = self.rules.face_candidates(self.state, final)
            if len(faces) == 1:
                self.sel["face"] = faces[0]
            elif faces and self.simulator is not None and not self.sel.get("face"):
                self.sel["face"] = self.simulator.flimflam_face(self.state, final)
            where = self.rules.loc_name(final)
            if faces:
                pos = self.rules.ff(faces[0]).cover
                face = self.sel.get("face")
                f = self.rules.ff(face) if face else None
                choice = CardChoice("sm:face", self.name(face) if face else "Card turned up",
                                    f"turned up at {where}, onto suspect {pos}",
                                    style.kind_colour(1), self.rules.ff(faces[0]).back, chosen=bool(face))
                question = f"{where}: which Flimflam card is turned face up?"
                # the face the simulated table turned up (chosen above), shown to its camera
                shown = face if self.simulator is not None else None
                choice.clicked.connect(lambda _=False, q=question, f=list(faces), shown=shown:
                                       self.shell.identify_card(q, f, self._set_face, shown=shown))
                gives = (f"{self.name(face)}: {'$1' if f.cost == 'cash' else '1 bullet'} for "
                         f"{reward_words(f.reward)}, tabs {f.tabs}" + (", a cat. " if f.cat else ". ")) if f else ""
                choice.setToolTip(plain_tip(gives + "Touch it to show the card to the camera (or pick it from the "
                                                    "cards)."))
                widgets.append(choice)
            deck = self._deck_then(final)
            if deck and self.sel.get("draw") not in (None, "", *deck):
                self.sel.pop("draw")
            if deck:
                if self.simulator is not None and not self.sel.get("draw"):
                    self.sel["draw"] = self.simulator.rng.choice(sorted(deck))
                drawn = self.sel.get("draw")
                choice = CardChoice("sm:draw", self._back_words(self._back_of(drawn)) if drawn else "New card",
                                    f"new card face down at {where}" + (f", covers {self._back_of(drawn)[1]}"
                                                                        if drawn else ""),
                                    style.kind_colour(1), self._back_of(drawn)[0] if drawn else "?",
                                    chosen=bool(drawn))
                choice.clicked.connect(lambda _=False: self._open_draw())
                widgets.append(choice)
        if self.sel.get("page") == "draw" and path:
            self._draw_page(path[-1])
            return
        self._grid(widgets, 1)
        self._row(self._button("Clear", "sm:clear", self._clear_path, enabled=bool(path)))
        ready = bool(path) and (not self._deck_then(path[-1]) or bool(self.sel.get("draw"))) and (
            not self.state.city.get(path[-1]) or bool(self.sel.get("face")))
        self._row(self._button("Investigate", "sm:send", self._send_investigate, enabled=ready,
                                                  role="primary"))

    def _set_face(self, card: str) -> None:
        self.sel["face"] = card
        self._draw_panel()

    def _set_draw(self, card: str) -> None:
        self.sel["draw"] = card
        self.sel.pop("page", None)
        self._draw_panel()

    def _open_draw(self) -> None:
        self.sel["page"] = "draw"
        self._draw_panel()

    def _draw_page(self, final: str) -> None:
        """The new Flimflam card put face down at ``final``: which back it shows (the cards with one back
        are alike until turned up)."""
        clear_layout(self.panel_body)
        self.panel_title.setText(f"{self.player}, the new Flimflam card face down at {self.rules.loc_name(final)}: "
                                 f"which back does it show?")
        drawn = self.sel.get("draw")
        backs: dict[tuple[str, int], str] = {}
        for c in sorted(self._deck_then(final), key=lambda c: natural_key(self.name(c))):
            backs.setdefault(self._back_of(c), c)
        widgets = []
        for back, c in sorted(backs.items()):
            choice = self._back_choice(f"sm:draw:{back[0]}-{back[1]}", back, "",
                                       chosen=bool(drawn) and self._back_of(drawn) == back)
            choice.clicked.connect(lambda _=False, c=c: self._set_draw(c))
            widgets.append(choice)
        self._grid(widgets, 4, least=280)
        self._row(self._button("Back", "sm:draw:back", self._close_draw))

    def _close_draw(self) -> None:
        self.sel.pop("page", None)
        self._draw_panel()

    def _back_choice(self, name: str, back: tuple[str, int], more: str, *, legal: bool = True,
                     chosen: bool = False) -> CardChoice:
        """A Flimflam card by its back: its evidence (or 2 bullets) and the suspect it covers."""
        return CardChoice(name, ("2 bullets" if back[0] == "bullets" else back[0].capitalize()) + f" \u2192 {back[1]}",
                          more, style.kind_colour(1), back[0], legal=legal, chosen=chosen)

    def _toggle(self, key: str, value: Any) -> None:
        chosen = self.sel.setdefault(key, [])
        chosen.remove(value) if value in chosen else chosen.append(value)
        self._draw_panel()

    def _clear_path(self) -> None:
        self.sel = {}
        self._draw_panel()

    def _send_investigate(self) -> None:
        path = list(self.sel["path"])
        action = {"type": "investigate", "path": path, "snitches": list(self.sel.get("snitches", [])),
                  "draw": self.sel.get("draw", ""), "face": self.sel.get("face", "")}
        final = path[-1]
        if self.state.table.top(city_place(final)) is None:
            self._send({**action, "found": ""})
            return
        self._read(action, [("found", f"city/{final}")],
                   f"{self.player}, look at the card you take at {self.rules.loc_name(final)}")

    # Flimflam ------------------------------------------------------------------------------------------
    def _panel_take_flimflam(self) -> None:
        chosen = self.sel.setdefault("positions", [])
        b = self.state.boards[self.player]
        n = self.rules.box.allowance("flimflam", b.levels["flimflam"])
        self.panel_title.setText(f"{self.player}, Flimflam: take up to {n} card{'s' if n != 1 else ''} from the "
                                 f"Conspiracy (you have ${b.cash} and {b.bullets} bullets).")
        widgets = []
        for pos, card in sorted(self.state.covers.items()):
            f = self.rules.ff(card)
            on = pos in chosen
            ok = on or self.refusal({"type": "take_flimflam", "player": self.player,
                                     "positions": chosen + [pos]}) is None
            widgets.append(self._button(
                f"{pos}: {self.name(card)}, {'$1' if f.cost == 'cash' else '1 bullet'} for {reward_words(f.reward)}, "
                f"tabs {f.tabs}" + (", a cat" if f.cat else ""), f"sm:ff:{pos}",
                lambda pos=pos: self._toggle("positions", pos), enabled=ok, checked=on))
        self._grid(widgets, 2)
        self._row(self._button("Take them", "sm:send", lambda: self._send(
            {"type": "take_flimflam", "positions": list(chosen)}), enabled=bool(chosen), role="primary"))

    # peeks ------------------------------------------------------------------------------------------
    def _panel_peek(self) -> None:
        self.panel_title.setText(f"{self.player}, click the uncovered suspect you peek at (\u25B6).")

    def _click_peek(self, place: str) -> None:
        if place in self._mode_legal():
            pos = int(place.split("/")[1])
            self._read({"type": self.mode, "position": pos}, [("card", place)],
                       f"{self.player}, peek at suspect {pos} of the Conspiracy")

    def _start_use_stoolie(self) -> None:
        """Investigate, step 2, decided behind the privacy gate (issue 27). The shared screen offers "Use a
        stoolie" to whoever took a card, whatever it is; the taker picks the stoolie to reveal among the
        cards they took, or, holding none, reads so and goes back to the table: nobody else is told. The
        peek is asked next, as every peek is."""
        p = self.player
        self.mode = None
        know = self.state.knowledge[p]
        mine = [c for t in self.state.table.at(found_place(p)) if (c := know.card_at(t))]
        stoolies = [c for c in mine if self.rules.role.get(c) == "stoolie"]
        if stoolies:
            heading = (f"{p}, reveal a stoolie to everyone and pay $1, then peek at an uncovered suspect: "
                       f"which stoolie do you reveal?")
        else:
            took = ", ".join(self.name(c) for c in mine) or "no card you know"
            heading = (f"{p}, none of the cards you took is a stoolie ({took}): you have none to reveal. "
                       f"Press Cancel to go back to the table; nobody is told.")
        self.shell.read_cards({"type": "use_stoolie", "player": p}, [("stoolie", str(found_place(p)))],
                              private=True, heading=heading, choices={"stoolie": stoolies})
