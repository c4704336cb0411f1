"""Two made-up games for the shell's tests: if the shell works with these, it names no real game.

Their rules are the Carmen card game's rules under other ids and titles (any rules would
do: the shell only talks to the engine's interface), one with a die and one without, and
their table is a plain grid of every place on the table, drawn from the shared view.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from PySide6.QtWidgets import QGridLayout

from desktop.table_base import GameTable, TableShell
from desktop.widgets import SlotButton
from engine.cards import load_game_deck
from engine.games.carmen import CarmenRules
from engine.paths import assets_dir

FAKE_SHELF = {
    "fake-with-die": ('title = "Fake Game With A Die"', 'die = "carmen"', "hidden_cards = true"),
    "fake-no-die": ('title = "Fake Game Without A Die"', "hidden_cards = false"),
}


class FakeWithDie(CarmenRules):
    game_id = "fake-with-die"
    title = "Fake Game With A Die"

    @classmethod
    def load(cls, decks_dir=None):
        return cls(load_game_deck("carmen-cards", decks_dir))


class FakeNoDie(FakeWithDie):
    game_id = "fake-no-die"
    title = "Fake Game Without A Die"


class GridTable(GameTable):
    """Every place that holds a card, in a grid: enough to play any game by clicks."""

    def __init__(self, shell: TableShell) -> None:
        super().__init__(shell)
        self.slots: dict[str, SlotButton] = {}
        grid = QGridLayout(self)
        places = sorted({c.place for c in self.controller.shared_view().cards if not c.place.startswith("pile/")})
        for i, place in enumerate(places):
            slot = SlotButton(place)
            slot.picked.connect(self.place_clicked)
            self.slots[place] = slot
            grid.addWidget(slot, i // 8, i % 8)

    def shows(self, place: str) -> bool:
        return place in self.slots

    def refresh(self, view, legal, chosen) -> None:
        by_place = {c.place: c for c in view.cards}
        for place, slot in self.slots.items():
            card = by_place.get(place)
            slot.show_card(card.kind or "card" if card else "card", place, "#DDDDDD", name=card.name if card else None,
                           present=card is not None, legal=place in legal, chosen=place in chosen,
                           face_up=bool(card and card.face_up))


def install(monkeypatch, tmp_path: Path) -> None:
    """Register the two fake games (and only them) in both registries, with their shelf data."""
    import engine.games as engine_games
    import desktop.tables as tables

    assets = tmp_path / "assets"
    shutil.copytree(assets_dir(), assets)
    for game, lines in FAKE_SHELF.items():
        (assets / "games" / f"{game}.toml").write_text(
            "[game]\n" f'id = "{game}"\n' + "\n".join(lines) + "\n"
            'players = [2, 4]\nages = "7+"\nminutes = 15\npitch = "A made-up game for tests."\n'
            'how_to_play = ["Do a thing.", "Do another thing."]\n'
            + ('[[options]]\nid = "speed"\nlabel = "Speed"\nchoices = ["slow", "fast"]\ndefault = "fast"\n'
               if game == "fake-no-die" else ""), encoding="utf-8")
    monkeypatch.setenv("GUMSHOE_ASSETS", str(assets))
    monkeypatch.setattr(engine_games, "GAMES", {
        "fake-with-die": f"{__name__}:FakeWithDie", "fake-no-die": f"{__name__}:FakeNoDie"})
    monkeypatch.setattr(tables, "TABLES", {
        "fake-with-die": f"{__name__}:GridTable", "fake-no-die": f"{__name__}:GridTable"})
