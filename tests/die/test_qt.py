"""The Qt side: adapter signals, status light, "test your die" dialog, and the roll
arriving in a Carmen turn from the simulator, end to end."""

from __future__ import annotations

import pytest
import serial

from desktop.die.protocol import encode

from .conftest import FAST, posix_only


@pytest.fixture
def reader_factory(qtbot):
    from desktop.die.qt_adapter import DieReader

    made = []

    def make(**options):
        reader = DieReader(**{**FAST, **options})
        made.append(reader)
        return reader

    yield make
    for reader in made:
        reader.stop()


def loop(*lines: bytes):
    port = serial.serial_for_url("loop://", timeout=0.01)
    port.write(b"".join(lines))
    return port


def test_adapter_emits_roll_status_and_errors_on_the_gui_thread(qtbot, reader_factory):
    from PySide6.QtCore import QThread

    port = loop(encode("HELLO", "qt-die", "2.1", 1, "B9", 6, 1000), encode("ROLL", "B9", 5, 6),
                encode("ERR", "TILT", "calibrate", "me"), encode("BATT", 3300, 9))
    reader = reader_factory(ports=["loop://"], opener=lambda name: port)
    threads, messages = [], []
    reader.rolled.connect(lambda face, seq: threads.append(QThread.currentThread()))
    reader.error.connect(messages.append)
    with qtbot.waitSignal(reader.status_changed, timeout=3000,
                          check_params_cb=lambda status: status == "connected"):
        with qtbot.waitSignal(reader.rolled, timeout=3000) as rolled:
            reader.start()
    assert rolled.args == [6, 5]
    assert threads == [reader.thread()]            # slots may touch widgets safely
    assert reader.device == "qt-die (firmware 2.1)"
    qtbot.waitUntil(lambda: len(messages) >= 2, timeout=2000)
    assert any("TILT" in m and "calibrate me" in m for m in messages)
    assert any("battery is low" in m for m in messages)
    with qtbot.waitSignal(reader.status_changed, timeout=2000, check_params_cb=lambda s: s == "off"):
        reader.stop()


def test_status_light_follows_the_reader(qtbot, reader_factory):
    from desktop.die.widgets import DieStatusLight

    light = DieStatusLight()
    qtbot.addWidget(light)
    assert light.status == "off"
    reader = reader_factory(ports=[], opener=lambda name: None)
    light.follow(reader)
    with qtbot.waitSignal(reader.status_changed, timeout=2000):
        reader.start()
    assert light.status == "searching" and "Looking" in light.text.text()
    light.set_status("nonsense")
    assert light.status == "off"


def test_test_your_die_dialog_shows_each_roll_with_its_meaning(qtbot, reader_factory):
    from engine.dice import load_die
    from desktop.die.widgets import DieTestDialog

    port = loop(encode("HELLO", "qt-die", "2.1", 1, "B9", 6, 1000), encode("STATE", "rolling"),
                encode("ROLL", "B9", 1, 4), encode("ROLL", "B9", 2, 3), b"\x00garbage$ROLL*0000\n")
    reader = reader_factory(ports=["loop://"], opener=lambda name: port)
    dialog = DieTestDialog(reader, load_die("carmen"), {"loot": "Loot", "henchman": "Henchman"})
    qtbot.addWidget(dialog)
    reader.start()
    qtbot.waitUntil(lambda: dialog.rolls.count() == 2, timeout=3000)
    assert dialog.rolls.item(0).text() == "Roll #2: face 3 \u2192 Henchman"
    assert dialog.rolls.item(1).text() == "Roll #1: face 4 \u2192 Loot"
    qtbot.waitUntil(lambda: "garbled lines dropped: 1" in dialog.counts.text(), timeout=2000)
    assert dialog.meaning(9).startswith("not a face")
    dialog.reject()                              # closing disconnects it from the reader
    port.write(encode("ROLL", "B9", 3, 1))
    qtbot.wait(100)
    assert dialog.rolls.count() == 2


@posix_only
def test_end_to_end_simulated_roll_moves_a_carmen_turn_from_roll_to_peek(qtbot, reader_factory, sim):
    from engine.session import Session
    from desktop.die.mapping import explain_roll

    session = Session.new("carmen-cards", ["Julie", "Mark"], {"ages": {"Julie": 8, "Mark": 12}})
    assert session.prompt().option("roll") is not None
    reader = reader_factory(ports=lambda: [sim.path] if sim.plugged else [])
    shown: list[str] = []

    def on_roll(face: int, seq: int) -> None:
        # Exactly what the table screen does with an on-screen roll, or says why not.
        decision = explain_roll(session, None, face)
        if decision.action is None:
            shown.append(decision.reason)
        else:
            session.apply(decision.action)
            shown.append(f"{decision.label} rolled")

    reader.rolled.connect(on_roll)
    with qtbot.waitSignal(reader.status_changed, timeout=3000, check_params_cb=lambda s: s == "connected"):
        reader.start()
    with qtbot.waitSignal(reader.rolled, timeout=3000):
        sim.roll(4)
    assert shown == ["Loot rolled"]
    prompt = session.prompt()
    assert prompt.option("roll") is None and prompt.option("peek") is not None
    assert session.public_log()[-1] == "Julie rolled Loot."
    before = len(session.done)
    with qtbot.waitSignal(reader.rolled, timeout=3000):
        sim.roll(2)                              # a roll nobody asked for
    assert len(session.done) == before
    assert shown[-1].startswith("Location rolled, but no roll is expected now")
    assert session.prompt().option("peek") is not None
