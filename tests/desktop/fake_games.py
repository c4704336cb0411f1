"""Two made-up games for the shell's tests: if the shell works with these, it names no real game.

Their rules are the Carmen card game's rules under other ids and titles (any rules would
do: the shell only talks to the engine's interface), one with a die and one without, and
their table is a plain grid of every place on the table, drawn from the shared view.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from PySide6.QtWidgets import QComboBox, QGridLayout, QVBoxLayout

from desktop.table_base import GameTable, NewGameChoices, ShelfScreen, TableShell
from desktop.widgets import SlotButton, label
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


class HatChoices(NewGameChoices):
    """Each player picks a hat; two players may not wear the same one (a per-player choice)."""

    HATS = ("fedora", "beret", "cap")

    def __init__(self) -> None:
        super().__init__()
        self.layout_ = QVBoxLayout(self)
        self.boxes: list[QComboBox] = []
        self.names: list[str] = []

    def set_players(self, names: list[str]) -> None:
        self.names = names
        while len(self.boxes) > len(names):
            self.boxes.pop().deleteLater()
        while len(self.boxes) < len(names):
            box = QComboBox()
            box.setObjectName(f"hat:{len(self.boxes)}")
            box.addItems(self.HATS)
            box.setCurrentIndex(len(self.boxes) % len(self.HATS))
            box.currentIndexChanged.connect(self.changed)
            self.layout_.addWidget(box)
            self.boxes.append(box)

    def options(self) -> dict:
        return {"hats": {name: box.currentText() for name, box in zip(self.names, self.boxes)}}

    def problem(self) -> str | None:
        hats = [box.currentText() for box in self.boxes]
        return "Two players wear the same hat." if len(set(hats)) < len(hats) else None

    def warning(self) -> str | None:
        return "Nobody wears a cap." if "cap" not in self.options()["hats"].values() else None


class HatTable(GridTable):
    """The grid, plus a screen of its own on the shelf and a part of the new-game form."""

    @classmethod
    def shelf_screens(cls) -> list[ShelfScreen]:
        return [ShelfScreen("hats", "The hat rack\u2026", lambda: label("Three hats hang here.", "heading"))]

    @classmethod
    def new_game_choices(cls) -> NewGameChoices | None:
        return HatChoices()

    @classmethod
    def before_tag_sheets(cls) -> str | None:
        return "Hang a hat on the rack first."


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
        "fake-with-die": f"{__name__}:GridTable", "fake-no-die": f"{__name__}:HatTable"})
