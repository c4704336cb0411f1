"""Property tests: whatever the line does, no crash, no invented roll, no roll counted
twice, and every roll that arrived intact from a known reader is delivered exactly once,
across reboots, unplug/replug, duplicates, noise and arbitrary read boundaries."""

from __future__ import annotations

from dataclasses import dataclass, field

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from desktop.die.protocol import Parser, Roll, encode

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# One step of a device's life; mangles apply to the line that step sends.
mangle = st.one_of(
    st.just(("intact",)), st.just(("intact",)), st.just(("twice",)),
    st.tuples(st.just("flip"), st.integers(0, 200), st.integers(0, 7)),
    st.tuples(st.just("cut"), st.integers(0, 200)),
)
roll_step = st.tuples(st.just("roll"), st.integers(1, 6), mangle)
step = st.one_of(
    roll_step, roll_step, roll_step,
    st.tuples(st.just("resend"), st.integers(0, 7), mangle),
    st.tuples(st.just("hello"), mangle),
    st.tuples(st.just("reboot"), st.booleans(), mangle),
    st.tuples(st.just("unplug"), mangle),
    st.tuples(st.just("noise"), st.binary(max_size=40)),
)


@dataclass
class Script:
    """The bytes a device sends, cut into pieces, and what a perfect reader would deliver."""

    pieces: list[bytes | None] = field(default_factory=list)     # None: the port is reopened here
    real: set[tuple[str, int, int]] = field(default_factory=set)  # every roll the device made
    expected: set[tuple[str, int, int]] = field(default_factory=set)


def apply_mangle(line: bytes, how: tuple) -> tuple[list[bytes], bool]:
    """The bytes sent and whether the line arrived intact. Mangling never yields a valid
    line by accident: one flipped bit is always caught by CRC-16, and a cut line lacks at
    least two checksum digits and its newline."""
    if how[0] == "intact":
        return [line], True
    if how[0] == "twice":
        return [line, line], True
    if how[0] == "flip":
        data = bytearray(line)
        data[how[1] % len(data)] ^= 1 << how[2]
        return [bytes(data)], False
    return [line[: how[1] % (len(line) - 2)]], False


def build(steps: list[tuple]) -> Script:
    script = Script()
    boot_no, seq = 0, 0
    recent: list[tuple[int, int]] = []
    trusted: str | None = None           # which boot a perfect reader trusts right now
    delivered: set[tuple[str, int]] = set()

    def boot_id() -> str:
        return "B%03d" % boot_no

    def hello(how: tuple, protocol: int = 1) -> None:
        nonlocal trusted
        if protocol != 1:
            how = ("intact",)            # see apply_mangle: keep the model exact
        sent, intact = apply_mangle(encode("HELLO", "prop-die", "1.0", protocol, boot_id(), 6, 1000), how)
        script.pieces.extend(sent)
        if intact:
            trusted = boot_id() if protocol == 1 else None

    def send_roll(s: int, face: int, how: tuple) -> None:
        sent, intact = apply_mangle(encode("ROLL", boot_id(), s, face), how)
        script.pieces.extend(sent)
        script.real.add((boot_id(), s, face))
        if intact and trusted == boot_id() and (boot_id(), s) not in delivered:
            delivered.add((boot_id(), s))
            script.expected.add((boot_id(), s, face))

    hello(("intact",))
    for st_ in steps:
        kind = st_[0]
        if kind == "roll":
            seq += 1
            recent = (recent + [(seq, st_[1])])[-8:]
            send_roll(seq, st_[1], st_[2])
        elif kind == "resend" and recent:
            s, face = recent[st_[1] % len(recent)]
            send_roll(s, face, st_[2])
        elif kind == "hello":
            hello(st_[1])
        elif kind == "reboot":
            boot_no, seq, recent = boot_no + 1, 0, []
            hello(st_[2], protocol=1 if st_[1] else 2)
        elif kind == "unplug":
            script.pieces.append(None)
            trusted = None
            hello(st_[1])                # the link asks HELLO? on reopening; the device answers
        elif kind == "noise":
            script.pieces.append(st_[1])
    return script


def run(script: Script, cuts: list[int]) -> list[Roll]:
    """Feed the pieces to one parser, re-split at arbitrary read boundaries."""
    parser, out = Parser(), []
    segments: list[bytes | None] = []
    buffer = b""
    for piece in script.pieces:
        if piece is None:
            segments += [buffer, None]
            buffer = b""
        else:
            buffer += piece
    segments.append(buffer)
    k = 0
    for segment in segments:
        if segment is None:
            parser.reset_stream()
            continue
        i = 0
        while i < len(segment):
            size = cuts[k % len(cuts)] if cuts else len(segment)
            k += 1
            out += [e for e in parser.feed(segment[i:i + size]) if isinstance(e, Roll)]
            i += size
    return out


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(step, min_size=20, max_size=80), st.lists(st.integers(1, 64), max_size=20))
def test_every_intact_roll_exactly_once_and_nothing_invented(steps, cuts):
    script = build(steps)
    delivered = [(r.boot, r.seq, r.face) for r in run(script, cuts)]
    assert len(delivered) == len(set(delivered)), "a roll was counted twice"
    assert set(delivered) <= script.real, "a roll was invented"
    assert script.expected <= set(delivered), "an intact roll was lost"


@SETTINGS
@given(st.binary(max_size=2000), st.lists(st.integers(1, 300), max_size=10))
def test_random_bytes_never_crash_and_never_roll(data, cuts):
    parser = Parser()
    i, k = 0, 0
    while i < len(data):
        size = cuts[k % len(cuts)] if cuts else len(data)
        assert not [e for e in parser.feed(data[i:i + size]) if isinstance(e, Roll)]
        i, k = i + size, k + 1


@SETTINGS
@given(st.lists(st.integers(1, 6), min_size=1, max_size=30), st.lists(st.integers(1, 50), min_size=1, max_size=10),
       st.binary(max_size=60))
def test_random_bytes_around_a_clean_stream_do_not_lose_rolls(faces, cuts, noise):
    stream = noise + encode("HELLO", "d", "1", 1, "B0", 6, 1000)
    for seq, face in enumerate(faces, 1):
        stream += noise + encode("ROLL", "B0", seq, face)
    parser, got = Parser(), []
    i, k = 0, 0
    while i < len(stream):
        got += [(e.seq, e.face) for e in parser.feed(stream[i:i + cuts[k % len(cuts)]]) if isinstance(e, Roll)]
        i, k = i + cuts[k % len(cuts)], k + 1
    assert got == list(enumerate(faces, 1))


@SETTINGS
@given(st.lists(st.sampled_from([b"$", b"*", b"\n", b"\r", b"ROLL", b"HELLO", b" ", b"1", b"B0", b"FFFF",
                                 b"\x00", b"A" * 50]), max_size=200))
def test_protocol_shaped_garbage_never_crashes_or_rolls(tokens):
    parser = Parser()
    parser.feed(encode("HELLO", "d", "1", 1, "B0", 6, 1000))
    assert not [e for e in parser.feed(b"".join(tokens)) if isinstance(e, Roll)]
