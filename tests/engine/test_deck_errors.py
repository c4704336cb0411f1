"""Broken deck and name-correction files: a DeckError naming the file and line, never another
exception; a broken corrections file never stops a game (issue 11, defects 4, 11 and 12).
Each case failed before the fix (UnicodeDecodeError, RecursionError, TypeError, or accepted)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.cards import DeckError, check_overrides, load_deck, load_game_deck
from engine.session import Session

from .test_decks import GOOD, write

HUDSON = "carmen.loot.hudson-bay"

BROKEN_OVERRIDES = {
    "saved as Windows-1252": (b'[names]\n"hudson-bay" = "Hudson\x92s Bay Company"\n', 2, "UTF-8"),
    "deeply nested arrays": (b"x = " + b"[" * 5000 + b"]" * 5000 + b"\n", None, "nested too deeply"),
    "full id with the wrong kind": (b'[names]\n"carmen.henchman.hudson-bay" = "renamed"\n', 2,
                                    "did you mean 'carmen.loot.hudson-bay'"),
    "full id with an invented kind": (b'[names]\n"carmen.gadget.hudson-bay" = "renamed"\n', 2, "not a card"),
    "another deck's id": (b'[names]\n"usa.loot.hudson-bay" = "renamed"\n', 2, "not a card"),
    "a name that is a number": (b'[names]\n"hudson-bay" = 5\n', 2, "non-empty name"),
    "a name with a line break": (b'[names]\n"hudson-bay" = "Hudson\\nBay"\n', 2, "line break"),
    "a name with a bidi override": ('[names]\n"hudson-bay" = "Hudson \u202eyaB"\n'.encode(), 2, "direction"),
    "a name with NUL": (b'[names]\n"hudson-bay" = "Hud\\u0000son"\n', 2, "NUL"),
    "a very long name": (b'[names]\n"hudson-bay" = "' + b"H" * 200 + b'"\n', 2, "at most 60"),
    "not TOML": (b'[names\n"hudson-bay" = "x"\n', 1, "not valid TOML"),
    "names not a table": (b'names = 5\n', 1, "[names] must be a table"),
    "a stray table": (b'[nmaes]\n"hudson-bay" = "x"\n', 1, "only [names]"),
}


@pytest.mark.parametrize("case", sorted(BROKEN_OVERRIDES))
def test_a_broken_corrections_file_is_a_deck_error_with_file_and_line(tmp_path, case):
    data, line, words = BROKEN_OVERRIDES[case]
    over = tmp_path / "carmen-cards.toml"
    over.write_bytes(data)
    with pytest.raises(DeckError) as info:
        load_game_deck("carmen-cards", overrides_dir=tmp_path, on_override_error="raise")
    message = str(info.value)
    assert str(over) in message and words in message
    if line is not None:
        assert f"line {line}" in message and info.value.line == line
    assert check_overrides("carmen-cards", overrides_dir=tmp_path) == message
    assert over.read_bytes() == data


@pytest.mark.parametrize("case", sorted(BROKEN_OVERRIDES))
def test_the_family_plays_with_the_shipped_names_and_sees_the_problem(tmp_path, monkeypatch, case):
    """Defect 4: Start used to do nothing. Now the game starts with the shipped names and the
    deck carries the problem (file and line) for the screen."""
    data, line, words = BROKEN_OVERRIDES[case]
    (tmp_path / "decks").mkdir()
    (tmp_path / "decks" / "carmen-cards.toml").write_bytes(data)
    monkeypatch.setenv("GUMSHOE_HOME", str(tmp_path))
    s = Session.new("carmen-cards", ["Ann", "Bob"])
    deck = s.rules.deck
    assert deck.name_of(HUDSON) == "Hudson Bay"
    (warning,) = deck.warnings
    assert "shipped names" in warning and "carmen-cards.toml" in warning and words in warning


def test_a_good_corrections_file_still_renames(tmp_path):
    (tmp_path / "carmen-cards.toml").write_text('[names]\n"carmen.loot.hudson-bay" = "Hudson\u2019s Bay Company"\n'
                                                '"top-grunge" = "Dr. Belljar"\n', encoding="utf-8")
    deck = load_game_deck("carmen-cards", overrides_dir=tmp_path, on_override_error="raise")
    assert deck.name_of(HUDSON) == "Hudson\u2019s Bay Company" and deck.warnings == ()
    assert check_overrides("carmen-cards", overrides_dir=tmp_path) is None


BROKEN_DECKS = {
    "verified is text": (lambda t: t.replace('name = "Paris"', 'name = "Paris"\nverified = "no"'), "'verified' must be true or false"),
    "attrs is a number": (lambda t: t.replace('name = "Paris"', 'name = "Paris"\nattrs = 5'), "'attrs' must be a table"),
    "a kind's name is a number": (lambda t: t.replace('name = "Loot"', 'name = 5'), "kind 'loot': 'name' must be a text"),
    "a kind's plural is a list": (lambda t: t.replace('name = "Loot"', 'name = "Loot"\nplural = ["x"]'), "'plural' must be a text"),
    "count is true": (lambda t: t.replace("count = 2\n\n[kinds.location]", "count = true\n\n[kinds.location]"), "whole-number 'count'"),
    "kind is a list": (lambda t: t.replace('kind = "loot"\nid = "shampoo"', 'kind = ["loot"]\nid = "shampoo"'), "is not one of"),
    "pair is a list": (lambda t: t.replace('pair = "shampoo"', 'pair = ["shampoo"]'), "'pair' must be the id"),
    "role is a number": (lambda t: t.replace('name = "Oslo"', 'name = "Oslo"\nrole = 3'), "'role' must be a text"),
    "kinds is a list": (lambda t: "kinds = [1]\n" + t.replace("[kinds.loot]", "[kindz.loot]").replace(
        "[kinds.location]", "[kindz.location]"), "'kinds' must be tables"),
    "a card name with a tab": (lambda t: t.replace('name = "Oslo"', 'name = "Os\\tlo"'), "a tab"),
    "a card name with a bidi isolate": (lambda t: t.replace('name = "Oslo"', 'name = "Os\u2067lo"'), "direction"),
    "a card name is a number": (lambda t: t.replace('name = "Oslo"', 'name = 7'), "needs a 'name'"),
}


@pytest.mark.parametrize("case", sorted(BROKEN_DECKS))
def test_a_deck_value_of_the_wrong_type_is_a_deck_error(tmp_path, case):
    """Defect 11: verified = "no" loaded as True; attrs = 5 and name = 5 raised TypeError."""
    change, words = BROKEN_DECKS[case]
    path = write(tmp_path, change(GOOD))
    with pytest.raises(DeckError) as info:
        load_deck(path)
    assert str(path) in str(info.value) and words in str(info.value)


def test_a_deck_error_names_the_line(tmp_path):
    path = write(tmp_path, GOOD.replace('name = "Oslo"', 'name = "Oslo"\nverified = "no"'))
    with pytest.raises(DeckError, match=r"toy.toml, line \d+: card 'paris'|toy.toml, line \d+: card 'oslo'") as info:
        load_deck(path)
    lines = path.read_text().splitlines()
    assert 'id = "oslo"' in lines[info.value.line - 1]


def test_a_deck_file_not_utf8_is_a_deck_error(tmp_path):
    path = tmp_path / "toy.toml"
    path.write_bytes(GOOD.replace("Oslo", "Oslo\xe9").encode("latin-1"))
    with pytest.raises(DeckError, match="not saved as UTF-8"):
        load_deck(path)


def test_shipped_decks_still_load_strictly():
    from engine.cards import deck_files
    for path in deck_files():
        deck = load_deck(path)
        assert deck.cards and all(isinstance(c.verified, bool) for c in deck.cards.values())


def test_a_missing_corrections_file_is_no_warning(tmp_path):
    deck = load_game_deck("carmen-cards", overrides_dir=tmp_path / "none")
    assert deck.warnings == ()
    assert isinstance(Path(deck.source), Path)
