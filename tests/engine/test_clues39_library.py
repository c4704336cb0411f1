"""The 39 Clues card library: the file, its checks (errors name the file, line and card), the
editing API, import/export, decks per player, and fuzzed files that must give our own clear error."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.errors import BadInput
from engine.games.clues39 import library as lib
from engine.session import Session

LONG = os.environ.get("GUMSHOE_LONG") == "1"

GOOD = """\
[library]
name = "Our cards"

[[cards]]
number = 7
name = "Grace's Agent"
type = "agent"
colour = "red"
sides = 2

[[cards]]
number = 12
name = "A Secret"
type = "secret"
colour = "black"
points = 3
copies = 2
owners = ["Ann", "Bob"]
"""


def write(tmp_path: Path, text: str, name: str = "library.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_sample_library_is_an_example_collection_with_enough_cards_for_four():
    sample = lib.sample_library()
    assert sample.example and "not real card data" in sample.name
    assert len(sample.entries) == 44 and all(e.copies == 4 for e in sample.entries)
    assert len(lib.card_ids(sample)) == 176
    text = lib.sample_library_path().read_text(encoding="utf-8")
    assert "EXAMPLE COLLECTION" in text and "NOT real 39 Clues card data" in text


def test_a_good_file_loads_and_round_trips(tmp_path):
    loaded = lib.load_library(write(tmp_path, GOOD))
    assert [e.id for e in loaded.entries] == ["n7", "n12"]
    assert loaded.entries[1].owners == ("Ann", "Bob")
    again = lib.parse_library(lib.dump_library(loaded), "again")
    assert again.entries == loaded.entries and again.name == loaded.name


@pytest.mark.parametrize("change, message", [
    (("points = 3\n", ""), "line 11 (number 12): a Secret needs its 'points'"),
    (("number = 12", "number = 7"), "line 11: card number 7 is used twice (Grace's Agent and A Secret)"),
    (('type = "agent"', 'type = "spy"'), "line 4 (number 7): unknown type 'spy'"),
    (('colour = "red"', 'colour = "pink"'), "line 4 (number 7): unknown colour 'pink'"),
    (('colour = "red"\n', ""), "line 4 (number 7): a Agent needs a 'colour'"),
    (("sides = 2", "sides = 3"), "'sides' must be 1 (one-sided) or 2 (two-sided)"),
    (("sides = 2", "points = 2"), "only Secrets and Founders are worth points"),
    (('owners = ["Ann", "Bob"]', 'owners = ["Ann", "Bob", "Cyd"]'), "'owners' must list at most one name per copy"),
    (("number = 7", "number = -7"), "'number' must be the whole number printed on the card"),
    (("number = 7", 'number = "7"'), "'number' must be the whole number"),
    (('name = "Our cards"', 'title = "Our cards"'), "[library] has unknown field(s) title"),
    (("sides = 2", "side = 2"), "unknown field(s) side"),
    (("[library]", "[librarian]"), "the [library] table is missing"),
    (("copies = 2", "copies = 0"), "'copies' must be a whole number from 1 to 20"),
    (('name = "A Secret"', 'name = ""'), "the card needs a 'name'"),
])
def test_bad_entries_are_refused_naming_file_line_and_card(tmp_path, change, message):
    path = write(tmp_path, GOOD.replace(*change, 1))
    with pytest.raises(lib.LibraryError) as info:
        lib.load_library(path)
    assert str(path) in str(info.value)
    assert message in str(info.value), str(info.value)


def test_a_replicator_has_no_colour_of_its_own(tmp_path):
    text = GOOD + '\n[[cards]]\nnumber = 20\nname = "Rep"\ntype = "replicator"\ncolour = "red"\n'
    with pytest.raises(lib.LibraryError, match="line 20 .number 20.: a Replicator has no colour"):
        lib.load_library(write(tmp_path, text))


def test_files_that_are_not_libraries_give_a_clear_error(tmp_path):
    with pytest.raises(lib.LibraryError, match="file not found"):
        lib.load_library(tmp_path / "missing.toml")
    with pytest.raises(lib.LibraryError, match="not a valid library file"):
        lib.load_library(write(tmp_path, "[library\nname = 1"))
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(lib.LibraryError, match="not a text file"):
        lib.load_library(binary)


def test_a_huge_file_is_refused_unread(tmp_path):
    """Issue 29: a file far larger than any card library (a photo picked by mistake) is refused in words."""
    huge = tmp_path / "huge.toml"
    huge.write_bytes(b"# " + b"x" * lib.MAX_FILE_BYTES + b"\n[library]\nname = 'x'\n")
    with pytest.raises(lib.LibraryError, match="far too large for a card library"):
        lib.load_library(huge)
    with pytest.raises(lib.LibraryError, match="far too large"):
        lib.import_library(huge, into=lib.Library("Ours"))


def test_export_then_import_gives_back_every_field_exactly(tmp_path):
    """Issue 29: the exported file brings back the same library: name, ids, numbers, names (quotes and
    accents too), types, colours, points, sides, copies and owners."""
    book = lib.Library('The "Smiths\u2019" cards \u00e9t\u00e9')
    book = lib.register(book, 7, 'Grace\u2019s "Agent" \\ 7', "agent", "red", sides=2, copies=2, owners=["Ann", "B\u00f6b"])
    book = lib.register(book, 8, "Old Secret", "secret", "black", points=3)
    book = lib.register(book, 9, "Replicator", "replicator")
    book = lib.edit(book, "n8", number=18)
    path = lib.export_library(book, tmp_path / "shared" / "smiths.toml")
    back = lib.import_library(path)
    assert back.name == book.name and back.entries == book.entries
    assert lib.dump_library(back) == path.read_text(encoding="utf-8")       # exported again: the same text


def test_register_edit_remove_keep_ids_stable():
    book = lib.Library("Ours")
    book = lib.register(book, 7, "Agent Seven", "agent", "red")
    book = lib.register(book, 8, "Secret Eight", "secret", "blue", points=2, sides=2, copies=2)
    assert [cid for cid, _ in lib.card_ids(book)] == ["39-clues.card.n7", "39-clues.card.n8", "39-clues.card.n8-c2"]
    fixed = lib.edit(book, "n7", number=17, name="Agent Seventeen")
    assert fixed.entries[0].id == "n7" and fixed.entries[0].number == 17
    again = lib.register(fixed, 7, "A new seven", "money")        # number 7 is free again, its id is not
    assert again.entries[-1].id == "n7-r2"
    with pytest.raises(lib.LibraryError, match="already registered"):
        lib.register(book, 8, "Twice", "agent", "red")
    with pytest.raises(lib.LibraryError, match="never changes"):
        lib.edit(book, "n7", id="x")
    with pytest.raises(lib.LibraryError, match="a Founder needs its 'points'"):
        lib.edit(book, "n8", type="founder", points=0)
    with pytest.raises(lib.LibraryError, match="no card with id 'zz'"):
        lib.remove(book, "zz")
    assert [e.id for e in lib.remove(book, "n7").entries] == ["n8"]


def test_export_and_import_as_a_file(tmp_path):
    book = lib.register(lib.Library("Ours"), 1, "One", "agent", "black")
    path = lib.export_library(book, tmp_path / "export" / "cards.toml")
    assert lib.import_library(path).entries == book.entries
    other = lib.register(lib.Library("Theirs"), 1, "One", "agent", "black", copies=3)
    other = lib.register(other, 2, "Two", "location", "blue", sides=2)
    merged = lib.import_library(lib.export_library(other, tmp_path / "theirs.toml"), into=book)
    assert [(e.number, e.copies) for e in merged.entries] == [(1, 3), (2, 1)]
    clash = lib.register(lib.Library("Clash"), 1, "Not One", "secret", "red", points=1)
    with pytest.raises(lib.LibraryError, match="card number 1 is Not One there but One"):
        lib.import_library(lib.export_library(clash, tmp_path / "clash.toml"), into=book)


def test_user_library_lives_in_the_users_folder_and_feeds_the_rules(tmp_path, monkeypatch):
    monkeypatch.setenv("GUMSHOE_HOME", str(tmp_path))
    assert lib.user_library_path() == tmp_path / "39-clues" / "library.toml"
    assert lib.user_library() is None
    from engine.games import rules_for
    assert "39-clues.card.n44-c4" in rules_for("39-clues").deck      # the sample until the family registers
    book = lib.register(lib.Library("Ours"), 3, "Only Card", "agent", "red")
    lib.save_library(book, lib.user_library_path())
    assert list(rules_for("39-clues").deck.cards) == ["39-clues.card.n3"]


def test_decks_are_checked_and_warned():
    book = lib.Library("Ours")
    for n in range(1, 21):
        book = lib.register(book, n, f"Card {n}", "secret", "red", points=1, sides=1 + (n > 10))
    check = lib.build_decks(book, {"Ann": [f"n{n}" for n in range(1, 21)]})
    assert check.warnings == ("Ann has 20 cards; the game is best played with at least 44.",)
    assert check.options()["decks"]["Ann"][0] == {"id": "n1", "number": 1, "name": "Card 1", "type": "secret",
                                                 "sides": 1, "colour": "red", "points": 1, "owner": "Ann"}
    with pytest.raises(lib.LibraryError, match="picked by both Ann and Bob"):
        lib.build_decks(book, {"Ann": ["n1"], "Bob": ["n1"]})
    with pytest.raises(lib.LibraryError, match="picked twice"):
        lib.build_decks(book, {"Ann": ["n1", "39-clues.card.n1"]})
    with pytest.raises(lib.LibraryError, match="'n99' is not a card"):
        lib.build_decks(book, {"Ann": ["n99"]})
    with pytest.raises(lib.LibraryError, match="Ann's deck has 3 two-sided cards"):
        lib.build_decks(book, {"Ann": [f"n{n}" for n in range(1, 14)]})


def test_split_by_owner_gives_each_copy_to_its_owner():
    book = lib.Library("Ours")
    for n in range(1, 9):
        book = lib.register(book, n, f"Card {n}", "money", sides=1 + n % 2, copies=2, owners=["Bob", "Ann"])
    check = lib.split_by_owner(book, ["Ann", "Bob"])
    assert [c["id"] for c in check.decks["Ann"]] == [f"n{n}-c2" for n in range(1, 9)]
    assert [c["id"] for c in check.decks["Bob"]] == [f"n{n}" for n in range(1, 9)]


def test_a_saved_game_keeps_its_decks_when_the_library_changes(tmp_path, monkeypatch):
    """The chosen decks are stored in the game's options: resuming never reads the library."""
    monkeypatch.setenv("GUMSHOE_HOME", str(tmp_path))
    book = lib.Library("Ours")
    for n in range(1, 11):
        book = lib.register(book, n, f"Card {n}", "agent", "red", sides=1 + n % 2, copies=2)
    lib.save_library(book, lib.user_library_path())
    opts = lib.split_by_owner(book, ["Ann", "Bob"]).options()
    path = tmp_path / "game.gumshoe"
    s = Session.new("39-clues", ["Ann", "Bob"], opts, path=path)
    s.apply({"type": "reveal", "player": "Ann", "place": "Ann/table/1", "card": "39-clues.card.n1"})
    view = s.view(None)
    s.close()
    lib.save_library(lib.edit(lib.remove(book, "n3"), "n1", name="Renamed"), lib.user_library_path())
    again = Session.resume(path)
    assert again.view(None) == view
    assert again.rules.deck.name_of("39-clues.card.n1") == "Card 1"
    again.close()


def test_bad_decks_in_the_options_are_refused_clearly():
    with pytest.raises(BadInput, match="one deck per player; missing: Bob"):
        Session.new("39-clues", ["Ann", "Bob"], {"decks": {"Ann": []}})
    with pytest.raises(BadInput, match="Ann's deck, card #1: must be a table"):
        Session.new("39-clues", ["Ann", "Bob"], {"decks": {"Ann": [3], "Bob": []}})
    cards = [{"id": f"n{n}", "number": n, "name": "X", "type": "money", "sides": 1 + n % 2} for n in range(8)]
    with pytest.raises(BadInput, match="card id 'n0' is in the game twice"):
        Session.new("39-clues", ["Ann", "Bob"], {"decks": {"Ann": cards, "Bob": cards}})


# --- fuzzing: whatever the file holds, our own clear error or a valid library ------------------
@settings(max_examples=400 if LONG else 120, deadline=None, derandomize=not LONG,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.randoms(use_true_random=False), st.integers(1, 6))
def test_fuzzed_library_files_give_our_own_error(rnd: random.Random, edits: int):
    text = lib.dump_library(lib.sample_library()) if rnd.random() < 0.5 else GOOD
    chars = list(text)
    for _ in range(edits):
        op = rnd.random()
        i = rnd.randrange(len(chars))
        if op < 0.3:
            del chars[i:i + rnd.randint(1, 40)]
        elif op < 0.6:
            chars.insert(i, rnd.choice(['"', "[", "]", "=", "\n", "#", "0", "-1", "x", "\x00", "é", "[[cards]]\n",
                                        "points = 0\n", "number = 1\n", 'type = "founder"\n', "copies = 99\n"]))
        else:
            j = rnd.randrange(len(chars))
            chars[i], chars[j] = chars[j], chars[i]
    try:
        book = lib.parse_library("".join(chars), "fuzz.toml")
    except lib.LibraryError as exc:
        assert str(exc).startswith("fuzz.toml")
        return
    assert len({e.number for e in book.entries}) == len(book.entries)
    for e in book.entries:
        assert (e.points > 0) == (e.type in lib.SCORING)


values = st.one_of(st.none(), st.integers(-5, 100), st.text(max_size=12), st.booleans(), st.floats(allow_nan=True),
                   st.lists(st.integers(), max_size=3), st.lists(st.text(max_size=5), max_size=4),
                   st.sampled_from(list(lib.TYPES) + ["black", "red", "blue", "Agent", " founder "]))


@settings(max_examples=400 if LONG else 150, deadline=None, derandomize=not LONG)
@given(st.dictionaries(st.sampled_from(["number", "name", "type", "colour", "color", "points", "sides", "copies",
                                        "owners", "id", "extra"]), values, max_size=9))
def test_fuzzed_entries_are_valid_or_refused_with_the_entry_named(raw: dict):
    try:
        entry = lib.check_entry(raw, "card #1")
    except lib.LibraryError as exc:
        assert str(exc).startswith("card #1")
        return
    assert entry.type in lib.TYPES and entry.sides in (1, 2) and entry.copies >= 1
    assert (entry.points > 0) == (entry.type in lib.SCORING)
    assert (entry.colour is None) == (entry.type not in lib.COLOURED) or entry.type in ("money", "prestige")


def test_tag_cards_and_new_game_options_follow_the_familys_library(tmp_path, monkeypatch):
    """Tag stickers print for the family's cards; a new game stores the chosen cards."""
    monkeypatch.setenv("GUMSHOE_HOME", str(tmp_path))
    assert len(lib.tag_cards()) == 176                       # the example collection
    book = lib.Library("Ours")
    for n in range(1, 9):
        book = lib.register(book, n, f"Card {n}", "money", sides=1 + n % 2, copies=2, owners=["Ann", "Bob"])
    lib.save_library(book, lib.user_library_path())
    assert lib.tag_cards()[:2] == [("39-clues.card.n1", "Card 1 (copy 1)"), ("39-clues.card.n1-c2", "Card 1 (copy 2)")]
    opts = lib.game_options(["Ann", "Bob"])
    assert [c["id"] for c in opts["decks"]["Bob"]] == [f"n{n}-c2" for n in range(1, 9)]
    Session.new("39-clues", ["Ann", "Bob"], opts)


def test_a_broken_library_file_does_not_stop_a_saved_game_from_reopening(tmp_path, monkeypatch):
    monkeypatch.setenv("GUMSHOE_HOME", str(tmp_path))
    path = tmp_path / "game.gumshoe"
    s = Session.new("39-clues", ["Ann", "Bob"], lib.game_options(["Ann", "Bob"]), path=path)
    s.apply({"type": "reveal", "player": "Ann", "place": "Ann/table/1", "card": "39-clues.card.n2"})
    view = s.view(None)
    s.close()
    lib.user_library_path().parent.mkdir(parents=True, exist_ok=True)
    lib.user_library_path().write_text("[library]\nname = 'x'\n[[cards]]\nnumber = 1\n", encoding="utf-8")
    with pytest.raises(lib.LibraryError, match="line 3 .number 1.: the card needs a 'name'"):
        lib.game_options(["Ann", "Bob"])                 # a new game says what is wrong
    again = Session.resume(path)                          # a saved game still opens
    assert again.view(None) == view
    again.close()
