"""The replay CLI on malformed files: a one-line error naming the file and line, exit 2, never a
traceback (issue 11, defect 9). Each case failed before the fix (traceback, exit 1, or accepted)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from engine.__main__ import main
from engine.replay import LogError, read_log, run

ROOT = Path(__file__).resolve().parents[2]
HEAD = b'{"game": "carmen-cards", "players": ["Ann", "Bob"]}\n'

CASES = {
    "not UTF-8": (HEAD + b'{"type": "roll", "player": "\xe9", "face": 1}\n', 2, "not UTF-8"),
    "players a number": (b'{"game": "carmen-cards", "players": 2}\n', 1, "list of names"),
    "players text": (b'{"game": "carmen-cards", "players": "AB"}\n', 1, "list of names"),
    "a player not text": (b'{"game": "carmen-cards", "players": ["Ann", 5]}\n', 1, "must be text"),
    "ages a number": (b'{"game": "carmen-cards", "players": ["Ann", "Bob"], "options": {"ages": 5}}\n', 1,
                      "could not be set up"),
    "ages not numbers": (b'{"game": "carmen-cards", "players": ["Ann", "Bob"], "options": {"ages": {"Ann": "x"}}}\n',
                         1, "could not be set up"),
    "options a list": (b'{"game": "carmen-cards", "players": ["Ann", "Bob"], "options": [1]}\n', 1, "options"),
    "game a list": (b'{"game": ["carmen-cards"], "players": ["Ann", "Bob"]}\n', 1, "game id"),
    "unknown game": (b'{"game": "chess", "players": ["Ann", "Bob"]}\n', 1, "Unknown game"),
    "a 5000-digit integer": (HEAD + b'{"type": "roll", "player": "Ann", "face": ' + b"1" * 5000 + b"}\n", 2,
                             "not usable JSON"),
    "deeply nested JSON": (HEAD + b"[" * 50_000 + b"]" * 50_000 + b"\n", 2, ""),
    "nested but short": (HEAD + b"[" * 20_000 + b"\n", 2, ""),
    "a player name with a line break": (b'{"game": "carmen-cards", "players": ["Ann\\nBob", "Cy"]}\n', 1,
                                        "line break"),
    "a 42-character name": (b'{"game": "carmen-cards", "players": ["' + b"A" * 42 + b'", "Cy"]}\n', 1, "too long"),
    "header after comments is line 3": (b"# a story\n\n" + b'{"game": "carmen-cards", "players": 7}\n', 3, "list"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_malformed_log_is_one_line_error_with_line_number_exit_2(tmp_path, capsys, case):
    data, line, words = CASES[case]
    log = tmp_path / "bad.jsonl"
    log.write_bytes(data)
    for argv in (["replay", str(log)], ["replay", str(log), "--json"]):
        assert main(argv) == 2
        out = capsys.readouterr()
        assert out.out == ""
        err = out.err.strip()
        assert len(err.splitlines()) == 1 and err.startswith("error: ")
        assert f"{log}:{line}:" in err and words in err
    with pytest.raises(LogError):
        run(log)


def test_no_traceback_from_the_command_line(tmp_path):
    log = tmp_path / "bad.jsonl"
    log.write_bytes(CASES["not UTF-8"][0])
    r = subprocess.run([sys.executable, "-m", "engine", "replay", str(log)], cwd=ROOT,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "Traceback" not in r.stderr and r.stderr.startswith("error: ")


def test_an_action_with_odd_values_is_refused_not_a_crash(tmp_path, capsys):
    """Values of the wrong shape in an action line are refused lines (the replay goes on)."""
    log = tmp_path / "odd.jsonl"
    log.write_bytes(HEAD + b'{"type": "roll", "player": ["Ann"], "face": 1}\n'
                    b'{"type": "roll", "player": "Ann", "face": [1]}\n'
                    b'{"type": "roll", "player": "Ann", "face": NaN}\n'
                    b'{"type": ["roll"], "player": "Ann"}\n'
                    b'{"type": "undo"}\n'
                    b'{"type": "roll", "player": "Ann", "face": 1}\n'
                    b'{"type": "peek", "player": "Ann", "slot": 5, "card": {}}\n')
    result = run(log)
    assert [v["line"] for v in result.violations] == [2, 3, 4, 5, 6, 8]
    assert main(["replay", str(log), "--json"]) == 0


def test_a_bom_before_the_header_is_fine(tmp_path):
    log = tmp_path / "bom.jsonl"
    log.write_bytes(b"\xef\xbb\xbf" + HEAD)
    head, records = read_log(log)
    assert head["players"] == ["Ann", "Bob"] and records == []
