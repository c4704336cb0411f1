"""Other input a family (or a device) gives: player names for every game, die-reader byte
streams, and arbitrary bytes as an action log. Each gives a clear error of the project's own
type or a correct result; never another exception, never a traceback."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.__main__ import main
from engine.errors import RuleViolation
from engine.names import MAX_PLAYER_NAME, name_problem
from engine.replay import LogError, run
from engine.session import Session

from .conftest import examples
from .games import GAME_IDS, setup_for

protocol = pytest.importorskip("desktop.die.protocol")   # Qt-free; skipped only if desktop is absent

names = st.one_of(st.text(max_size=40), st.text(alphabet="\x00\n\r\t\u202e\u2066\u200b\u200d /~ AnBé🎲", max_size=30),
                  st.sampled_from(["center", "pile", "out", "~referee", "A/B", "  ", "x" * 25, "x" * 24]))


@pytest.mark.parametrize("game", GAME_IDS)
@examples(60, 1500)
@given(first=names, second=names)
def test_any_player_names_start_a_game_or_are_refused_plainly(game, first, second):
    players, options = setup_for(game)
    players = [first, second, *players[2:]]
    try:
        s = Session.new(game, players, options)
    except RuleViolation as exc:
        assert exc.message and "\n" not in exc.message and len(exc.message) < 300
        return
    for given_name, name in zip(players, s.players):
        assert name == given_name.strip() and name_problem(name) is None and len(name) <= MAX_PLAYER_NAME


chunks = st.lists(st.integers(1, 40), min_size=1, max_size=30)


@examples(200, 5000)
@given(noise=st.lists(st.one_of(st.binary(max_size=60), st.sampled_from(
    [protocol.encode("ROLL", "B007", 17, 4), protocol.encode("HELLO", "gumshoe-die", "1.0.0", 1, "B007", 6, 1000),
     b"$ROLL B007 18 9*0000\n", b"$" * 200, b"\n" * 3, b"$ROLL B007 1 4", "$ROLL B007 \u00e9 4*0000\n".encode()])),
    max_size=20), cuts=chunks, flips=st.lists(st.tuples(st.integers(0, 10_000), st.integers(1, 255)), max_size=5))
def test_die_reader_bytes_never_break_the_parser(noise, cuts, flips):
    stream = bytearray(b"".join(noise))
    for where, xor in flips:
        if stream:
            stream[where % len(stream)] ^= xor
    parser = protocol.Parser()
    events, i, k = [], 0, 0
    while i < len(stream):
        step = cuts[k % len(cuts)]
        events += parser.feed(bytes(stream[i:i + step]))
        i, k = i + step, k + 1
    kinds = (protocol.Hello, protocol.Roll, protocol.State, protocol.Heartbeat, protocol.Battery,
             protocol.DeviceError, protocol.Unsupported, protocol.Repeat, protocol.HelloNeeded)
    assert all(isinstance(event, kinds) for event in events)
    assert all(1 <= event.face for event in events if isinstance(event, protocol.Roll))


@examples(100, 3000)
@given(lines=st.lists(st.one_of(st.binary(max_size=80), st.text(max_size=80).map(str.encode),
                                st.sampled_from([b'{"type": "roll", "player": "Ann", "face": 1}', b"{", b"[]", b"null",
                                                 b'{"game": "carmen-cards"}', b"1" * 5000, b"[" * 5000])),
                      max_size=8),
       header=st.sampled_from([b'{"game": "carmen-cards", "players": ["Ann", "Bob"]}', b'{"game": "carmen-cards"}',
                               b"", b"\xef\xbb\xbf{}"]))
def test_any_bytes_as_an_action_log(lines, header):
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "game.jsonl"
        log.write_bytes(b"\n".join([header, *lines]))
        try:
            run(log)
        except LogError as exc:
            assert str(exc).startswith(str(log)) and "\n" not in str(exc)
        assert main(["replay", str(log)]) in (0, 2)
