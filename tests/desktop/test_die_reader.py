"""A roll of the real die arrives through the USB die reader (desktop.die) and is applied."""

from __future__ import annotations

import sys

import pytest

from .test_game_flow import DEAL, PLAYERS

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="the die simulator speaks on a POSIX pty")


def test_a_roll_from_the_die_reader_is_applied_once(table, qtbot):
    from desktop.die.qt_adapter import DieReader
    from desktop.die_sim import DieSimulator

    t = table
    t.new_game(PLAYERS)
    t.deal(DEAL)
    sim = DieSimulator(heartbeat_ms=100, seed=1)
    path = sim.start()
    reader = DieReader(t.window, ports=[path])
    t.window.table.attach_die_reader(reader)
    reader.start()
    try:
        qtbot.waitUntil(lambda: t.window.table.die_light.status == "connected", timeout=10_000)
        sim.roll(1)                                # face 1 shows Loot (assets/dice/carmen-die.toml)
        qtbot.waitUntil(lambda: "Julie rolled Loot." in t.log(), timeout=10_000)
        qtbot.wait(500)                            # the reader resends until acknowledged: still one roll
        assert t.log().count("Julie rolled Loot.") == 1
        assert t.prompt == "Julie, look at one of your own Loot cards: Top or Bottom."
    finally:
        reader.stop()
        sim.close()


def test_a_roll_nobody_expects_is_shown_and_ignored(table, qtbot):
    """Issue 5: a roll that arrives when no roll is expected is shown, not applied."""
    t = table
    t.new_game(PLAYERS)
    t.deal(DEAL)
    t.window.table.reader_rolled(1)                 # what the reader's signal calls
    assert "Julie rolled Loot." in t.log()
    log_before, prompt_before = t.log(), t.prompt
    t.window.table.reader_rolled(3)                 # the die is knocked over while Julie looks
    assert t.log() == log_before and t.prompt == prompt_before
    message = t.window.table.die_message
    assert message.isVisible() and "no roll is expected now" in message.text()


def test_test_your_die_needs_a_reader(table):
    assert not table.window.start.test_die_button.isEnabled()      # tests run without a reader
