"""Deck files: the shipped Carmen deck, validation errors that name the file and entry, overrides."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.cards import DeckError, load_deck, load_game_deck
from engine.dice import DieError, load_die

GOOD = """
[deck]
id = "toy"
game = "toy-game"
name = "Toy"

[kinds.loot]
name = "Loot"
count = 2

[kinds.location]
name = "Location"
count = 2

[[cards]]
kind = "location"
id = "paris"
name = "Paris"
pair = "elevator"

[[cards]]
kind = "location"
id = "oslo"
name = "Oslo"
pair = "shampoo"

[[cards]]
kind = "loot"
id = "elevator"
name = "Elevator"

[[cards]]
kind = "loot"
id = "shampoo"
name = "Shampoo"
"""


def write(tmp_path: Path, text: str, name="toy.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_shipped_carmen_deck():
    """Contents: 13 Loot, 13 Locations, 13 Henchmen; the pairs the issue lists; one Carmen."""
    deck = load_game_deck("carmen-cards", overrides_dir=Path("/nonexistent"))
    assert {k: len(deck.of_kind(k)) for k in deck.kinds} == {"loot": 13, "location": 13, "henchman": 13}
    pairs = {deck.name_of(c.id): deck.name_of(c.pair) for c in deck.of_kind("location")}
    assert pairs["Arizona"] == "The Grand Canyon"
    assert pairs["New Delhi"] == "Gandhi's Glasses"
    assert pairs["Lima"] == "Pizarro's Sword"
    assert pairs["Beijing"] == "All the Tea in China"
    assert deck.with_role("mastermind").name == "Carmen Sandiego"
    assert deck.card("carmen.loot.grand-canyon").verified
    assert not deck.card("carmen.loot.hudson-bay").verified
    assert sum(not c.verified for c in deck.of_kind("henchman")) == 6


def test_good_deck_pairs_are_symmetric(tmp_path):
    deck = load_deck(write(tmp_path, GOOD))
    assert deck.card("toy.loot.elevator").pair == "toy.location.paris"
    assert deck.card("toy.location.paris").pair == "toy.loot.elevator"


@pytest.mark.parametrize("change,message", [
    (lambda t: t.replace('id = "oslo"', 'id = "paris"'), "duplicate id 'paris'"),
    (lambda t: t.replace('pair = "shampoo"', 'pair = "soap"'), "card 'oslo': pair 'soap' points to no card"),
    (lambda t: t.replace("count = 2\n\n[kinds.location]", "count = 3\n\n[kinds.location]"), "wrong count for kind 'loot'"),
    (lambda t: t.replace('name = "Oslo"', 'nmae = "Oslo"'), "unknown field(s) nmae"),
    (lambda t: t.replace('kind = "loot"\nid = "shampoo"', 'kind = "gold"\nid = "shampoo"'), "kind 'gold' is not one of"),
    (lambda t: t.replace('[deck]', '[deck\n'), "not valid TOML"),
    (lambda t: t.replace('pair = "shampoo"', 'pair = "elevator"'), "paired with both"),
])
def test_bad_deck_errors_name_file_and_entry(tmp_path, change, message):
    path = write(tmp_path, change(GOOD))
    with pytest.raises(DeckError) as info:
        load_deck(path)
    assert str(path) in str(info.value)
    assert message in str(info.value)


def test_missing_deck_file(tmp_path):
    with pytest.raises(DeckError, match="file not found"):
        load_deck(tmp_path / "nope.toml")


def test_family_override_renames_without_touching_the_shipped_file(tmp_path):
    path = write(tmp_path, GOOD)
    before = path.read_bytes()
    over = write(tmp_path, '[names]\n"shampoo" = "Harald\'s Shampoo"\n"toy.location.oslo" = "Oslo, Norway"\n', "over.toml")
    deck = load_deck(path, over)
    assert deck.name_of("toy.loot.shampoo") == "Harald's Shampoo"
    assert deck.name_of("toy.location.oslo") == "Oslo, Norway"
    assert path.read_bytes() == before


def test_override_naming_an_unknown_card_is_an_error(tmp_path):
    path = write(tmp_path, GOOD)
    over = write(tmp_path, '[names]\n"soap" = "Soap"\n', "over.toml")
    with pytest.raises(DeckError, match="over.toml.*'soap' is not a card"):
        load_deck(path, over)


def test_game_deck_uses_user_override_folder(tmp_path):
    (tmp_path / "carmen-cards.toml").write_text('[names]\n"hudson-bay" = "Hudson\'s Bay Company"\n')
    deck = load_game_deck("carmen-cards", overrides_dir=tmp_path)
    assert deck.name_of("carmen.loot.hudson-bay") == "Hudson's Bay Company"


def test_die_file(tmp_path):
    die = load_die("carmen")
    assert [die.shows(f) for f in range(1, 7)].count("loot") == 2
    with pytest.raises(DieError, match="no face 9"):
        die.shows(9)
    (tmp_path / "odd-die.toml").write_text("[[faces]]\nface = 1\nshows = 'a'\n[[faces]]\nface = 1\nshows = 'b'\n")
    with pytest.raises(DieError, match="listed twice"):
        load_die("odd", tmp_path)
