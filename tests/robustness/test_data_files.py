"""Deck files and a family's name-correction files, fuzzed: a deck or the shipped names with a
warning, or ``DeckError`` naming the file; never another exception (issue 11, defects 4, 11)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.cards import DeckError, deck_files, load_deck, load_game_deck

from .conftest import examples

DECKS = deck_files()
CARMEN = next(p for p in DECKS if p.name == "carmen-cards.toml")
SHIPPED = load_deck(CARMEN)


def mutate_text(data: bytes, draw) -> bytes:
    out = bytearray(data)
    for _ in range(draw(st.integers(1, 6))):
        how = draw(st.sampled_from(["flip", "cut", "delete_line", "swap_value", "insert"]))
        if not out:
            break
        i = draw(st.integers(0, len(out) - 1))
        if how == "flip":
            out[i] ^= draw(st.integers(1, 255))
        elif how == "cut":
            del out[i:]
        elif how == "delete_line":
            start = out.rfind(b"\n", 0, i) + 1
            end = out.find(b"\n", i)
            del out[start:end if end >= 0 else len(out)]
        elif how == "swap_value":
            eq = out.find(b"= ", i)
            if eq >= 0:
                end = out.find(b"\n", eq)
                value = draw(st.sampled_from([b"5", b'"no"', b"[1, [2]]", b"{ a = 1 }", b"true", b'""',
                                              b'"\\u0000"', b'"a\\nb"', b"-1", b"1e400", b'"\xe9"']))
                out[eq + 2:end if end >= 0 else len(out)] = value
        else:
            out[i:i] = draw(st.sampled_from([b"[", b"]]", b"\n[[cards]]\n", b"\n[kinds.x]\n", b"\x92", b"\x00",
                                             b'\nkind = "loot"\n', b"\n[deck]\n"]))
    return bytes(out)


@examples(60, 1500)
@given(data=st.data())
def test_a_mutated_deck_file_loads_or_is_a_deck_error(data):
    source = data.draw(st.sampled_from(DECKS))
    text = mutate_text(source.read_bytes(), data.draw)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / source.name
        path.write_bytes(text)
        try:
            deck = load_deck(path)
        except DeckError as exc:
            assert str(path) in str(exc) and "\n" not in str(exc).strip()
        else:
            assert deck.cards and all(isinstance(c.verified, bool) and isinstance(c.name, str)
                                      for c in deck.cards.values())


keys = st.one_of(st.sampled_from(sorted(SHIPPED.cards)), st.sampled_from([c.key for c in SHIPPED.cards.values()]),
                 st.sampled_from(["carmen.henchman.hudson-bay", "carmen.gadget.hudson-bay", "usa.loot.x", "", "a.b",
                                  "carmen.loot.", "..", "hudson-bay.x"]), st.text(max_size=20))
values = st.one_of(st.text(max_size=80), st.integers(), st.floats(), st.booleans(), st.lists(st.integers(), max_size=3),
                   st.just("Hudson\u2019s Bay"), st.just("a\u202eb"), st.just("x" * 100))


def toml_string(text: str) -> str:
    return '"' + "".join(c if c.isprintable() and c not in '"\\' else f"\\u{ord(c):04x}" if ord(c) < 0x10000
                         else f"\\U{ord(c):08x}" for c in text) + '"'


def toml_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return toml_string(value)
    if isinstance(value, float):
        return repr(value) if value == value and abs(value) != float("inf") else "nan"
    if isinstance(value, list):
        return "[" + ", ".join(str(v) for v in value) + "]"
    return str(value)


@examples(40, 2000)
@given(entries=st.lists(st.tuples(keys, values), max_size=6), raw=st.one_of(st.none(), st.binary(max_size=200)),
       table=st.sampled_from(["names", "names", "nmaes", "names.sub"]))
def test_a_corrections_file_renames_or_is_ignored_with_a_warning(entries, raw, table):
    with tempfile.TemporaryDirectory() as tmp:
        over = Path(tmp) / "carmen-cards.toml"
        if raw is not None:
            over.write_bytes(raw)
        else:
            lines = [f"[{table}]"] + [f"{toml_string(k)} = {toml_value(v)}" for k, v in entries]
            over.write_bytes(("\n".join(lines) + "\n").encode("utf-8", "surrogatepass"))
        try:
            strict = load_game_deck("carmen-cards", overrides_dir=Path(tmp), on_override_error="raise")
        except DeckError as exc:
            assert str(over) in str(exc)
            strict = None
        deck = load_game_deck("carmen-cards", overrides_dir=Path(tmp))
        if strict is None:
            (warning,) = deck.warnings
            assert str(over) in warning
            assert {c: d.name for c, d in deck.cards.items()} == {c: d.name for c, d in SHIPPED.cards.items()}
        else:
            assert deck.warnings == () and {c.name for c in deck.cards.values()} == {c.name for c in strict.cards.values()}


@pytest.mark.parametrize("data", [b"x = " + b"[" * 50_000, b"[" * 100_000, b"\xff\xfe[names]", b"a = \"\x00\""])
def test_pathological_corrections_files(tmp_path, data):
    (tmp_path / "carmen-cards.toml").write_bytes(data)
    with pytest.raises(DeckError):
        load_game_deck("carmen-cards", overrides_dir=tmp_path, on_override_error="raise")
    assert load_game_deck("carmen-cards", overrides_dir=tmp_path).warnings


# --- Sudds & Malone: the shipped box file and a family's answers file, fuzzed -----------------
def _box_module():
    from engine.games.sudds_malone import box
    return box


@examples(40, 1500)
@given(data=st.data())
def test_a_mutated_box_file_loads_or_is_a_box_error(data):
    """A damaged box file (ours or a family's copy) is a BoxError naming the file, never a crash."""
    box = _box_module()
    shipped = Path(box.assets_dir()) / "boxes" / "sudds-malone.toml"
    text = mutate_text(shipped.read_bytes(), data.draw)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "sudds-malone.toml"
        path.write_bytes(text)
        try:
            loaded = box.load_box(path, user_file=None)
        except box.BoxError as exc:
            assert str(path) in str(exc) or "sudds-malone.toml" in str(exc)
            return
        box.check_box(loaded, str(path))        # what loads is a whole, consistent box


ANSWER_KEYS = ["count.cases", "map.brooklyn", "track.office.2", "calendar.1.monday", "snitches", "flimflam.ff-01",
               "case.case-01", "hunch.hunch-01", "nonsense", "track.office.9"]


def answer_value(value) -> str:
    """TOML for an answer's value (strings inside lists quoted too)."""
    if isinstance(value, list):
        return "[" + ", ".join(answer_value(v) for v in value) + "]"
    return toml_value(value)
ANSWER_VALUES = st.one_of(st.none(), st.integers(-3, 80), st.text(max_size=8), st.booleans(),
                          st.lists(st.sampled_from(["brooklyn", "queens", "glass", "A", "wild", 3, ""]), max_size=4),
                          st.sampled_from(["points:1", "cash:2", "A", "wild", "glass", "bullets:2"]))


@examples(60, 2000)
@given(answers=st.dictionaries(st.sampled_from(ANSWER_KEYS),
                               st.dictionaries(st.sampled_from(["cases_in_play", "neighbours", "cost", "allowance",
                                                                "reward", "evidence", "tab", "tabs", "points",
                                                                "mole", "rat", "frog", "back"]),
                                               ANSWER_VALUES, max_size=4), max_size=4))
def test_a_familys_answers_file_applies_or_is_a_box_error(answers):
    """Learn your box: whatever a family's answers file holds, the box loads with it or a BoxError
    names the file; nothing else escapes, and a loaded box is still consistent."""
    box = _box_module()
    lines = []
    for key, values in answers.items():
        lines.append(f'[answers."{key}"]')
        for name, value in values.items():
            if value is not None:
                lines.append(f"{name} = {answer_value(value)}")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "family.toml"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        try:
            loaded = box.load_box(user_file=path)
        except box.BoxError as exc:
            assert "family.toml" in str(exc)
            return
        box.check_box(loaded, str(path))
