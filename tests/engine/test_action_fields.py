"""Refusals speak words, never Python (issue 27, item 5).

A hand-written action log or a damaged saved game may hold any JSON value in any field. Before
the fix the rules met a list where a card id belongs and the refusal read "unhashable type:
'list'", "'float' object is not iterable" or nothing at all; a header's "not NoneType"; and
``replay --json`` stopped with a traceback on a lone surrogate escape. Every field of every
game's actions is now checked against its declared type (``engine.fields``).
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import re
import subprocess
import sys
import typing
from pathlib import Path

import pytest

from engine.__main__ import main
from engine.errors import RuleViolation
from engine.games import GAMES, game_info, rules_for
from engine.session import Session

ROOT = Path(__file__).resolve().parents[2]

# Python's own words, as they used to reach the table and the replay tool.
INTERNAL = re.compile(r"unhashable|object is not|NoneType|has no attribute|not subscriptable|expected str"
                      r"|instance|argument|'(int|list|dict|str|float|tuple|bool)'|index out of range"
                      r"|invalid literal|<class|Error\b|iterable|dictionary update")

ODD = {"null": None, "true": True, "a whole number": 7, "a fraction": 1.5, "NaN": math.nan, "text": "x",
       "a list": ["x"], "a table": {"a": 1}, "a nested list": [[[]]], "a huge number": 10 ** 30}


def new_session(game: str) -> Session:
    info = game_info(game)
    players = ["Ann", "Bob", "Cyd", "Dee"][:max(3, info.players[0]) if info.players[1] >= 3 else 2]
    return Session.new(game, players, {o.id: o.default for o in info.options})


def assert_plain(message: str) -> None:
    assert message.strip() and "\n" not in message.strip(), repr(message)
    assert not INTERNAL.search(message), message


def fits(value, hint) -> bool:
    """Whether a JSON value has the declared type (the test's own reading of the hints)."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint is bool:
        return isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint is str:
        return isinstance(value, str)
    if origin is tuple:
        return isinstance(value, list) and all(fits(v, args[0]) for v in value)
    return isinstance(value, dict) and all(fits(v, args[1]) for v in value.values())


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_field_of_every_action_of_the_wrong_kind_is_refused_in_words(game):
    """Each declared field of each action, given each kind of JSON value it does not hold: refused
    before the rules see it, the sentence names the field and what it must be; nothing changes."""
    session = new_session(game)
    before = (session.state, len(session.log))
    checked = 0
    for kind, cls in session.rules.actions.items():
        hints = typing.get_type_hints(cls)
        for f in dataclasses.fields(cls):
            for label, value in ODD.items():
                if fits(value, hints[f.name]):
                    continue
                action = {"type": kind, "player": "Ann", f.name: value}
                with pytest.raises(RuleViolation) as refused:
                    session.apply(action)
                message = refused.value.message
                assert_plain(message)
                assert message.startswith(f"The {f.name.replace('_', ' ')} must be "), message
                checked += 1
    assert (session.state, len(session.log)) == before
    assert checked > 50


@pytest.mark.parametrize("game", sorted(GAMES))
def test_odd_values_in_real_moves_are_refused_plainly_in_every_game(game):
    """A short random game; at every step each field of the legal move replaced by odd values
    (of the wrong kind, or the right kind but unknown, empty, huge or negative): every refusal is
    one plain sentence, and the game goes on."""
    session = new_session(game)
    sim = session.rules.simulator(session.initial, 3)
    odd_right_kind = {str: ["", "nowhere", "Ann/nowhere/top"], int: [0, -1, 10 ** 30, 99],
                      bool: [True]}
    refusals = 0
    for _ in range(40):
        if session.outcome is not None:
            break
        action = sim.random_action(session)
        cls = session.rules.actions[action["type"]]
        hints = typing.get_type_hints(cls)
        for name in [k for k in action if k != "type"]:
            hint = hints.get(name)
            values = [*ODD.values(), *odd_right_kind.get(hint, [[], {}])]
            for value in values:
                try:
                    session.apply({**action, name: value})
                except RuleViolation as exc:
                    refusals += 1
                    assert_plain(exc.message)
                else:
                    session.undo()
        try:
            session.apply(action)
        except RuleViolation:
            break
    assert refusals > 20


def test_a_wrong_type_of_action_is_refused_in_words():
    session = new_session("carmen-cards")
    for raw, words in [({"type": ["roll"], "player": "Ann", "face": 1}, "type must be text"),
                       ({"type": {"a": 1}, "player": "Ann"}, "type must be text"),
                       ({"player": "Ann", "face": 1}, "needs a type"),
                       ({"type": None, "player": "Ann"}, "not empty (null)")]:
        with pytest.raises(RuleViolation) as refused:
            session.apply(raw)
        assert words in refused.value.message
        assert_plain(refused.value.message)


def run_cli(log: Path, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "engine", "replay", str(log), *args], cwd=ROOT,
                          capture_output=True, timeout=120, env={**os.environ, **(env or {})})


def test_the_reported_refusals_read_as_sentences(tmp_path):
    """The reproduction's cases, through the command line: what was expected, in words."""
    carmen = '{"game": "carmen-cards", "players": ["Ann", "Bob"], "options": {"ages": {"Ann": 8, "Bob": 9}}}'
    cases = {
        "The card must be a card id (text), not a list.": (
            carmen, '{"type": "roll", "player": "Ann", "face": 1}',
            '{"type": "peek", "player": "Ann", "slot": "Ann/loot/top", "card": ["x"]}'),
        "The action's type must be text (like \"roll\"), not a list.": (
            carmen, '{"type": ["roll"], "player": "Ann", "face": 1}'),
        "The path must be a list of texts, not a number with a fraction (1.5).": (
            '{"game": "sudds-malone", "players": ["Ann", "Bob", "Cyd"]}',
            '{"type": "investigate", "player": "Ann", "path": 1.5, "snitches": []}'),
    }
    for expected, lines in cases.items():
        log = tmp_path / "log.jsonl"
        log.write_text("\n".join(lines) + "\n")
        r = run_cli(log, "--json")
        assert r.returncode == 0 and b"Traceback" not in r.stderr
        messages = [v["message"] for v in json.loads(r.stdout)["violations"]]
        assert expected in messages


@pytest.mark.parametrize("header, words", [
    ('{"game": "carmen-cards", "players": null}', "The players must be a list of names, not empty (null)."),
    ('{"game": "carmen-cards", "players": ["Ann", 5]}', "Every player's name must be text, not a number"),
    ('{"game": 3, "players": ["Ann", "Bob"]}', "must be a game id (text), not a number."),
    ('{"game": "carmen-cards"}', "The header has no 'players'"),
    ('{"game": "carmen-cards", "players": ["Ann", "Bob"], "options": true}', "must be a table, not true or false."),
    ('{"game": "carmen-cards", "players": ["Ann", "Bob"], "options": {"ages": 5}}',
     "'ages' must be a table of each player's age"),
    ('{"game": "carmen-usa", "players": ["Ann", "Bob"], "options": {"ages": {"Ann": "x"}}}',
     "'ages' must give each age as a number: 'Ann' has text"),
    ('{"game": "bonnie-clyde", "players": ["Ann", "Bob"], "options": {"assist": 3}}', "'assist' must be one of"),
    ('{"game": "39-clues", "players": ["Ann", "Bob"], "options": {"demo_seed": [1]}}',
     "'demo_seed' must be a whole number, not a list"),
    ('{"game": "sudds-malone", "players": ["Ann", "Bob", "Cyd"], "options": {"box_file": 5}}',
     "could not be set up with these options (box_file): one of them is not what"),
])
def test_header_errors_say_what_was_expected_in_words(tmp_path, capsys, header, words):
    log = tmp_path / "log.jsonl"
    log.write_text(header + "\n")
    assert main(["replay", str(log), "--json"]) == 2
    err = capsys.readouterr().err.strip()
    assert words in err and err.startswith(f"error: {log}:1: bad header: ")
    assert_plain(err.split("bad header: ", 1)[1])


SURROGATE_LOG = ('{"game": "carmen-cards", "players": ["Ann", "Bob"], "options": {"ages": {"Ann": 8, "Bob": 9}}}\n'
                 '{"type": "roll", "player": "\\ud800", "face": 1}\n'
                 '{"type": "roll", "player": "Ann", "face": 1, "\\udfff": "\\ud83d"}\n'
                 '{"type": "roll", "player": "Ann", "face": 1}\n')


@pytest.mark.parametrize("encoding", ["utf-8", "ascii"])
def test_replay_json_with_a_lone_surrogate_writes_valid_json(tmp_path, encoding):
    """A lone surrogate escape is valid JSON syntax but no character: the line is refused, and
    its echo in "violations" is written with U+FFFD, as valid UTF-8 JSON (also to a terminal that
    is not UTF-8)."""
    log = tmp_path / "surrogate.jsonl"
    log.write_text(SURROGATE_LOG, encoding="ascii")
    r = run_cli(log, "--json", env={"PYTHONIOENCODING": encoding})
    assert r.returncode == 0 and r.stderr == b""
    out = json.loads(r.stdout.decode("utf-8"))        # strict: a lone surrogate cannot be UTF-8
    assert out["steps"] == 3 and [v["line"] for v in out["violations"]] == [2, 3]
    assert out["violations"][0]["action"]["player"] == "\ufffd"
    assert "broken character" in out["violations"][0]["message"]
    r = run_cli(log, env={"PYTHONIOENCODING": encoding})
    assert r.returncode == 0 and b"Traceback" not in r.stderr


def test_replay_to_a_reader_that_stops_early_is_not_a_traceback(tmp_path):
    lines = ['{"game": "carmen-cards", "players": ["Ann", "Bob"]}']
    lines += ['{"type": "roll", "player": "Ann", "face": 1}'] * 3000
    log = tmp_path / "long.jsonl"
    log.write_text("\n".join(lines) + "\n")
    p = subprocess.Popen([sys.executable, "-m", "engine", "replay", str(log)], cwd=ROOT,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    p.stdout.readline()
    p.stdout.close()                     # like `| head -1`
    err = p.stderr.read()
    assert p.wait(timeout=120) == 0 and b"Traceback" not in err


def test_every_games_actions_declare_types_the_check_knows():
    """A new action field of a type engine.fields does not know would go unchecked: this says so."""
    from engine.fields import _specs
    for game in GAMES:
        for cls in rules_for(game).actions.values():
            assert set(_specs(cls)) == {f.name for f in dataclasses.fields(cls)}, (game, cls)
