"""The USB die reader over a serial line (pyserial's loopback port stands in for the cable)."""

from __future__ import annotations

import serial

from desktop.die_reader import DieLineError, DieRoll, parse_line

from .test_game_flow import DEAL, PLAYERS


def test_lines_from_the_reader_are_parsed_or_refused():
    assert parse_line("ROLL 17 4\r\n") == DieRoll(17, 4)
    assert parse_line("HELLO gumshoe-die 1") is None
    assert parse_line("") is None
    for bad in ("ROLL 17", "ROLL x 4", "roll 1 2", "ROLL 1 2 3", "R" * 200):
        try:
            parse_line(bad)
        except DieLineError:
            continue
        raise AssertionError(f"{bad!r} was accepted")


def test_a_roll_from_the_reader_is_applied_once_and_garbage_is_reported(table, qtbot):
    t = table
    t.new_game(PLAYERS)
    t.deal(DEAL)
    port = serial.serial_for_url("loop://", timeout=0.1)
    # A greeting, a garbled line, a roll, and the same roll sent again after a reconnect.
    port.write(b"HELLO gumshoe-die 1\n\x07\x07garbage\nROLL 5 4\nROLL 5 4\n")
    t.window.table.die_reader.start(lambda: port)
    qtbot.waitUntil(lambda: t.prompt.startswith("Julie, look at one of your own Loot cards"), timeout=5_000)
    qtbot.wait(400)                      # time for the repeated line to arrive (and be ignored)
    assert "unreadable" in t.text("die:status")
    assert t.log().count("Julie rolled Loot.") == 1
    t.window.table.die_reader.stop()
