"""Every registered game's actions, fuzzed: a garbled action is refused with the engine's own
``RuleViolation`` (a plain sentence), changes nothing and writes nothing to the game file; the
replay CLI reads a log with garbled lines without a traceback.

The garbled actions start from the game's own legal actions at every point of a random game
(:mod:`tests.robustness.games`): a field dropped, added or given a value of another type (huge
numbers, NaN, control characters, nested lists), another game's card, another player, an unknown
action type.
"""

from __future__ import annotations

import json
import math
import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import RuleViolation
from engine.game import Assist
from engine.replay import LogError, run
from engine.session import Session
from engine.store import EventStore

from .conftest import LONG, examples
from .games import GAME_IDS, card_fields, new_session, play

FAST_DIR = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None

odd_values = st.one_of(
    st.none(), st.booleans(), st.integers(), st.integers(min_value=10**30, max_value=10**40),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12), st.text(alphabet="\x00\n\r\t\u202e\u2066/~.", max_size=6),
    st.just("x" * 5000), st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
    st.just([[[[[]]]]]), st.just("carmen.loot.hudson-bay"), st.just("bonnie-clyde.hinton.ted-hinton-01"),
    st.just("center"), st.just("pile/loot"), st.just("Ann/loot/top"), st.just("out"), st.just(""),
)


def garble(action: dict, session: Session, draw) -> dict:
    """One garbled variant of a legal action."""
    how = draw(st.sampled_from(["drop", "value", "add", "type", "player", "card", "swap_fields"]))
    out = dict(action)
    keys = [k for k in out if k != "type"]
    if how == "drop" and keys:
        out.pop(draw(st.sampled_from(keys)))
    elif how == "value" and keys:
        out[draw(st.sampled_from(keys))] = draw(odd_values)
    elif how == "add":
        out[draw(st.sampled_from(["extra", "confirm", "card", "slot", "face", "cards", "player"]))] = draw(odd_values)
    elif how == "type":
        out["type"] = draw(st.one_of(st.sampled_from(sorted(session.rules.actions)), odd_values))
    elif how == "player":
        out["player"] = draw(st.one_of(st.sampled_from([*session.players, "Zed", "~referee", "~everyone"]),
                                       odd_values))
    elif how == "card":
        deck = session.rules.deck
        fields = card_fields(out, deck)
        if fields:
            key, index, _ = draw(st.sampled_from(fields))
            value = draw(st.one_of(st.sampled_from(sorted(deck.cards)), odd_values))
            if index is None:
                out[key] = value
            else:
                out[key] = list(out[key])
                out[key][index] = value
    elif how == "swap_fields" and len(keys) >= 2:
        a, b = draw(st.permutations(keys))[:2]
        out[a], out[b] = out[b], out[a]
    return out


def snapshot(session: Session) -> tuple:
    return (session.state, len(session.log), len(session.done), len(session.undone),
            tuple(session.public_log()[-3:]), session.prompt())


@pytest.mark.parametrize("game", GAME_IDS)
@examples(2, 12)
@given(data=st.data())
def test_a_garbled_action_is_refused_plainly_and_changes_nothing(game, data):
    seed = data.draw(st.integers(0, 10_000), label="seed")
    base = play(game, seed, 200 if LONG else 45)
    folder = tempfile.mkdtemp(dir=FAST_DIR)
    try:
        session = new_session(game, path=Path(folder) / "g.gumshoe")
        store = session.store
        accepted = refused = 0
        for action in base.actions:
            if action.get("type") == "undo":
                session.undo()
                continue
            for _ in range(3):
                bad = garble(action, session, data.draw)
                before, stored = snapshot(session), len(store)
                journals = {p: session.journal(p, Assist.NOTES) for p in session.players}
                try:
                    session.apply(bad)
                except RuleViolation as exc:
                    refused += 1
                    assert exc.message and "\n" not in exc.message.strip() and "Traceback" not in exc.message
                    assert snapshot(session) == before and len(store) == stored
                    assert {p: session.journal(p, Assist.NOTES) for p in session.players} == journals
                else:
                    accepted += 1                    # a harmless change (e.g. an extra confirm)
                    assert len(store) == stored + 1
                    session.undo()
                    assert session.journal(session.players[0], Assist.NOTES) == journals[session.players[0]]
            session.apply(action)
        session.close()
        reopened = Session.resume(Path(folder) / "g.gumshoe")
        assert reopened.state.current == session.state.current and len(reopened.done) == len(session.done)
        reopened.close()
        assert refused > 0
    finally:
        for f in Path(folder).iterdir():
            f.unlink()
        os.rmdir(folder)


def _line(value) -> str:
    try:
        return json.dumps(value, allow_nan=True)
    except (ValueError, TypeError, RecursionError):
        return "{}"


@pytest.mark.parametrize("game", GAME_IDS)
@examples(4, 40)
@given(data=st.data())
def test_a_log_with_garbled_lines_replays_without_a_traceback(tmp_path_factory, game, data):
    """The replay CLI: garbled action lines are refused lines; broken lines are one LogError."""
    seed = data.draw(st.integers(0, 10_000), label="seed")
    base = play(game, seed, 30)
    session = new_session(game)
    header = {"game": game, "players": list(session.players), "options": session.options}
    lines = [json.dumps(header)]
    for action in base.actions:
        kind = data.draw(st.sampled_from(["keep", "keep", "keep", "garble", "raw"]))
        if kind == "garble":
            lines.append(_line(garble(action, session, data.draw)))
        elif kind == "raw":
            text = json.dumps(action)
            cut = data.draw(st.integers(0, len(text)))
            lines.append(data.draw(st.sampled_from([text[:cut], text[:cut] + "\u00e9" + text[cut:],
                                                    "[" * 3000, "# comment", "", "null", "1e999999"])))
        else:
            lines.append(json.dumps(action))
    log = tmp_path_factory.mktemp("log") / "game.jsonl"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    try:
        result = run(log)
    except LogError as exc:
        assert str(exc).startswith(str(log)) and "\n" not in str(exc)
    else:
        for v in result.violations:
            assert isinstance(v["message"], str) and v["line"] >= 2


def test_nan_and_huge_values_never_reach_the_file(tmp_path):
    """A value the game file cannot hold (NaN) is refused before anything is written."""
    s = Session.new("carmen-cards", ["Ann", "Bob"], path=tmp_path / "g.gumshoe")
    with pytest.raises(RuleViolation):
        s.apply({"type": "roll", "player": "Ann", "face": 1, "confirm": math.nan})
    s.apply({"type": "roll", "player": "Ann", "face": 1})
    s.close()
    assert len(EventStore.read(tmp_path / "g.gumshoe")[1]) == 1
