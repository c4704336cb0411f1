"""The die protocol's encoder and streaming parser, one behaviour at a time."""

from __future__ import annotations

import pytest

from desktop.die.protocol import (MAX_LINE, WINDOW, Battery, DeviceError, Heartbeat, Hello, HelloNeeded, Parser,
                                  ProtocolError, Repeat, Roll, State, Unsupported, crc16, crc16_ccitt_false, encode)

BOOT = "A1B2"
HELLO = encode("HELLO", "gumshoe-die", "1.0.0", 1, BOOT, 6, 1000)


def roll(seq, face, boot=BOOT):
    return encode("ROLL", boot, seq, face)


def rolls(events):
    return [(e.seq, e.face) for e in events if isinstance(e, Roll)]


def ready_parser() -> Parser:
    p = Parser()
    assert isinstance(p.feed(HELLO)[0], Hello)
    return p


def test_crc_is_ccitt_false_with_the_catalogue_check_value():
    assert crc16_ccitt_false(b"123456789") == 0x29B1
    assert crc16(b"123456789") == 0x29B1
    assert crc16(b"") == 0xFFFF
    for data in (b"ROLL A1B2 1 4", bytes(range(256))):
        assert crc16(data) == crc16_ccitt_false(data)


def test_encoded_line_shape():
    line = roll(17, 4)
    assert line.startswith(b"$ROLL A1B2 17 4*") and line.endswith(b"\n")
    assert int(line[-5:-1], 16) == crc16(b"ROLL A1B2 17 4")


@pytest.mark.parametrize("fields", [("a b",), ("",), ("x$",), ("x*",), ("caf\u00e9",), ("x" * 100,)])
def test_encoder_refuses_what_would_break_a_line(fields):
    with pytest.raises(ProtocolError):
        encode("ERR", *fields)


def test_every_device_message_parses():
    p = Parser()
    events = p.feed(HELLO + roll(1, 3) + encode("STATE", "rolling") + encode("STATE", "crooked")
                    + encode("HB", 5000) + encode("BATT", 3700, 42) + encode("ERR", "SENSOR", "no", "reply"))
    assert events == [Hello("gumshoe-die", "1.0.0", 1, BOOT, 6, 1000, True, True), Roll(1, 3, BOOT), State("rolling"),
                      State("crooked"), Heartbeat(5000), Battery(3700, 42), DeviceError("SENSOR", "no reply")]
    assert p.stats.lines == 7 and p.stats.dropped == 0


def test_a_line_split_at_every_byte_still_parses():
    p = ready_parser()
    data = roll(1, 2) + roll(2, 5)
    events = [e for b in data for e in p.feed(bytes([b]))]
    assert rolls(events) == [(1, 2), (2, 5)]


def test_noise_between_and_before_lines_is_skipped_and_counted():
    p = ready_parser()
    events = p.feed(b"\x00\xff garbage \r\n" + roll(1, 2) + b"zz" + roll(2, 3))
    assert rolls(events) == [(1, 2), (2, 3)]
    assert p.stats.noise_bytes > 0


def test_noise_containing_a_dollar_does_not_swallow_the_next_message():
    p = ready_parser()
    assert rolls(p.feed(b"$$$x*9" + roll(1, 6))) == [(1, 6)]


def test_bad_checksum_is_counted_and_dropped():
    p = ready_parser()
    line = bytearray(roll(1, 2))
    line[6] ^= 0x01                       # one flipped bit in the body
    assert p.feed(bytes(line)) == []
    assert p.stats.bad_checksum == 1
    assert rolls(p.feed(roll(1, 2))) == [(1, 2)]      # the re-send is fine


def test_over_long_line_is_dropped_and_the_next_line_is_fine():
    p = ready_parser()
    events = p.feed(b"$" + b"A" * (MAX_LINE * 3) + b"\n" + roll(1, 4))
    assert rolls(events) == [(1, 4)] and p.stats.too_long == 1


def test_a_lost_newline_does_not_lose_the_message():
    p = ready_parser()
    assert rolls(p.feed(roll(1, 1)[:-1] + roll(2, 2))) == [(1, 1), (2, 2)]


def test_a_line_cut_short_is_counted_as_truncated():
    p = ready_parser()
    assert rolls(p.feed(roll(1, 1)[:7] + roll(2, 2))) == [(2, 2)]
    assert p.stats.truncated == 1


def test_carriage_returns_are_accepted():
    p = ready_parser()
    assert rolls(p.feed(roll(1, 1)[:-1] + b"\r\n")) == [(1, 1)]


def test_a_resent_roll_is_counted_once_and_answered_with_repeat():
    p = ready_parser()
    events = p.feed(roll(1, 4) + roll(1, 4) + roll(2, 1) + roll(1, 4))
    assert rolls(events) == [(1, 4), (2, 1)]
    assert [e for e in events if isinstance(e, Repeat)] == [Repeat(1, BOOT), Repeat(1, BOOT)]
    assert p.stats.duplicates == 2


def test_an_older_lost_roll_resent_later_is_delivered_once():
    p = ready_parser()
    events = p.feed(roll(2, 5) + roll(1, 3) + roll(1, 3))
    assert rolls(events) == [(2, 5), (1, 3)]


def test_a_roll_older_than_the_window_is_not_counted():
    p = ready_parser()
    p.feed(roll(WINDOW + 10, 1))
    assert p.feed(roll(5, 1)) == [] and p.stats.too_old == 1


def test_sequence_numbers_wrap():
    p = ready_parser()
    assert rolls(p.feed(roll(65535, 1) + roll(1, 2) + roll(65535, 1))) == [(65535, 1), (1, 2)]


def test_reboot_restarts_sequence_numbers():
    p = ready_parser()
    p.feed(roll(1, 1) + roll(2, 2))
    events = p.feed(encode("HELLO", "gumshoe-die", "1.0.0", 1, "C3D4", 6, 1000) + roll(1, 6, "C3D4"))
    assert events[0].rebooted and rolls(events) == [(1, 6)]


def test_same_boot_hello_after_reopen_keeps_the_memory_of_rolls():
    p = ready_parser()
    p.feed(roll(1, 1) + roll(2, 2)[:5])       # unplugged mid-line
    p.reset_stream()
    assert p.feed(roll(1, 1)) == [HelloNeeded("a message before the reader said hello")]
    events = p.feed(HELLO + roll(1, 1) + roll(2, 2))
    assert not events[0].rebooted
    assert rolls(events) == [(2, 2)]


def test_nothing_is_used_before_hello():
    p = Parser()
    events = p.feed(roll(1, 1) + encode("HB", 10))
    assert rolls(events) == [] and all(isinstance(e, HelloNeeded) for e in events)
    assert p.stats.before_hello == 2


def test_a_roll_from_a_boot_that_never_said_hello_is_not_used():
    p = ready_parser()
    events = p.feed(roll(1, 1, boot="FFFF"))
    assert isinstance(events[0], HelloNeeded) and rolls(events) == []


def test_unsupported_protocol_version_is_reported_and_distrusted():
    p = ready_parser()
    events = p.feed(encode("HELLO", "future-die", "9.0", 2, BOOT, 6, 1000) + roll(1, 1))
    assert isinstance(events[0], Unsupported) and "protocol version 2" in events[0].message
    assert rolls(events) == []
    assert rolls(p.feed(HELLO + roll(1, 1))) == [(1, 1)]


@pytest.mark.parametrize("body", [b"ROLL A1B2 1 7", b"ROLL A1B2 1 0", b"ROLL A1B2 x 1", b"ROLL A1B2 1",
                                  b"STATE upside-down", b"HB -1", b"BATT 3700 101", b"WHAT 1", b"ERR",
                                  b"ROLL A1B2 99999 1"])
def test_well_checksummed_nonsense_is_malformed(body):
    p = ready_parser()
    assert p.feed(b"$" + body + b"*%04X\n" % crc16(body)) == []
    assert p.stats.malformed == 1


def test_our_own_messages_echoed_back_are_ignored():
    p = ready_parser()
    assert p.feed(encode("HELLO?") + encode("ACK", "B1", 3)) == []
    assert p.stats.echoed == 2 and p.stats.dropped == 0
