"""Shared helpers for the vision tests: small deck files written into a temporary folder."""

from __future__ import annotations

from pathlib import Path

import pytest


def write_deck(folder: Path, deck_id: str, game: str, cards: list[tuple[str, str, str]]) -> Path:
    lines = ["[deck]", f'id = "{deck_id}"', f'game = "{game}"', f'name = "{deck_id.title()} deck"', ""]
    for kind, card_id, name in cards:
        lines += ["[[cards]]", f'kind = "{kind}"', f'id = "{card_id}"', f'name = "{name}"', ""]
    path = folder / f"{deck_id}.toml"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


@pytest.fixture
def deck_writer():
    """write_deck(folder, deck_id, game, [(kind, id, name), ...]) -> path of the new deck file."""
    return write_deck


@pytest.fixture
def two_decks(tmp_path: Path) -> Path:
    decks = tmp_path / "decks"
    decks.mkdir()
    write_deck(decks, "alpha", "alpha-game", [("loot", "ring", "The Ring"), ("loot", "crown", "The Crown"),
                                               ("suspect", "butler", "The Butler")])
    write_deck(decks, "beta", "beta-game", [("clue", "knife", "A Knife"), ("clue", "rope", "A Rope")])
    return decks


@pytest.fixture(autouse=True)
def family_folder(tmp_path, monkeypatch):
    """The family's own tag files (vision.registry blocks) come from a fresh folder, never the developer's."""
    home = tmp_path / "home"
    monkeypatch.setenv("GUMSHOE_HOME", str(home))
    return home
