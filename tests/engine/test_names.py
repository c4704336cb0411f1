"""Players' names (issue 11, defect 12): a sensible length, no control, line-break or invisible
direction-changing characters; refused by the engine itself with a plain message. Before the
fix every one of these names was accepted."""

from __future__ import annotations

import pytest

from engine.errors import BadInput
from engine.names import MAX_PLAYER_NAME, check_player_name, name_problem
from engine.session import Session

BAD = {
    "42 characters": ("A" * 42, "too long"),
    "10,000 characters": ("B" * 10_000, "too long"),
    "NUL": ("Ann\x00", "NUL"),
    "a newline": ("Ann\nBob", "line break"),
    "a carriage return": ("Ann\r", "line break"),
    "a tab": ("An\tn", "tab"),
    "an escape sequence": ("\x1b[31mAnn", "control character"),
    "right-to-left override": ("Ann\u202e", "direction"),
    "left-to-right isolate": ("\u2066Ann", "direction"),
    "right-to-left mark": ("Ann\u200f", "direction"),
    "zero-width space": ("An\u200bn", "invisible"),
    "line separator": ("Ann\u2028Bob", "line break"),
    "only spaces": ("   ", "needs a name"),
    "empty": ("", "needs a name"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_a_bad_player_name_is_refused_by_the_engine(tmp_path, case):
    name, words = BAD[case]
    with pytest.raises(BadInput, match=words) as info:
        Session.new("carmen-cards", [name, "Bob"], path=tmp_path / "g.gumshoe")
    assert "\n" not in info.value.message and len(info.value.message) < 160
    assert not (tmp_path / "g.gumshoe").exists()                # nothing written


@pytest.mark.parametrize("name", ["Zoë", "José María", "Søren", "李雷", "Дарья", "Ann 🎲", "👨\u200d👩\u200d👧",
                                  "O'Brien", "A" * MAX_PLAYER_NAME, "Mum & Dad"])
def test_every_script_emoji_and_a_full_length_name_are_welcome(name):
    assert name_problem(name) is None
    s = Session.new("carmen-cards", [name, "Bob"])
    assert s.players[0] == name


def test_spaces_around_a_name_are_dropped():
    s = Session.new("carmen-cards", ["  Ann ", "Bob"], {"ages": {"Ann": 8, "Bob": 9}})
    assert s.players == ("Ann", "Bob") and s.prompt().player == "Ann"
    assert check_player_name("\u00a0Cy\u3000") == "Cy"


def test_two_names_differing_only_in_case_are_refused():
    with pytest.raises(BadInput, match="same name"):
        Session.new("carmen-cards", ["Ann", "ann"])


def test_the_message_never_echoes_the_bad_characters():
    with pytest.raises(BadInput) as info:
        check_player_name("Evil\u202eName")
    assert "\u202e" not in info.value.message
