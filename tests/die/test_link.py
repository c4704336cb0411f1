"""The serial link on pyserial's loop:// and on a pty with the simulator."""

from __future__ import annotations

import time

import pytest
import serial

from desktop.die.link import CONNECTED, OFF, SEARCHING, DieLink, LinkProblem, StatusChanged, wait_for
from desktop.die.protocol import DeviceError, Hello, Roll, encode

from .conftest import FAST, posix_only


def hello(boot="B1", heartbeat_ms=1000, protocol=1):
    return encode("HELLO", "test-die", "1.0", protocol, boot, 6, heartbeat_ms)


def loop(*lines: bytes):
    port = serial.serial_for_url("loop://", timeout=0.01)
    port.write(b"".join(lines))
    return port


def drain(link: DieLink, seconds: float) -> list:
    """Every event that arrives within ``seconds``."""
    out, end = [], time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            out.append(link.events.get(timeout=0.01))
        except Exception:
            pass
    return out


def rolls_until(link: DieLink, count: int, timeout: float = 5.0, got: list[Roll] | None = None,
                other: list | None = None) -> list[Roll]:
    """Rolls from the link until ``got`` holds ``count`` (other events go to ``other``)."""
    got = [] if got is None else got
    end = time.monotonic() + timeout
    while len(got) < count and time.monotonic() < end:
        try:
            event = link.events.get(timeout=0.02)
        except Exception:
            continue
        if isinstance(event, Roll):
            got.append(event)
        elif other is not None:
            other.append(event)
    return got


@pytest.fixture
def links():
    made: list[DieLink] = []

    def make(**options) -> DieLink:
        link = DieLink(**{**FAST, **options})
        made.append(link)
        return link

    yield make
    for link in made:
        link.stop()


# --- loop:// ------------------------------------------------------------------------------
def test_loop_handshake_roll_and_ack(links):
    port = loop(hello(), encode("ROLL", "B1", 1, 4), encode("ROLL", "B1", 1, 4))
    link = links(ports=["loop://"], opener=lambda name: port)
    link.start()
    assert wait_for(link.events, Roll, 3) == Roll(1, 4, "B1")
    assert link.status == CONNECTED and link.port == "loop://"
    time.sleep(0.1)
    # loop:// hands our own writes back: the echoes prove HELLO? and ACKs were sent.
    assert link.parser.stats.echoed >= 2
    assert link.parser.stats.duplicates == 1
    assert not [e for e in drain(link, 0.05) if isinstance(e, Roll)]


def test_start_returns_at_once_even_when_opening_a_port_hangs(links):
    def slow_opener(name):
        time.sleep(0.5)
        raise serial.SerialException("busy")

    link = links(ports=["slow"], opener=slow_opener)
    began = time.monotonic()
    link.start()
    assert time.monotonic() - began < 0.05
    assert wait_for(link.events, StatusChanged, 1).status == SEARCHING


def test_the_reader_is_found_by_handshake_not_by_name(links):
    ports = {"/dev/ttyUSB0": loop(b"G28 ok\r\nok T:21.0\r\n"),      # a 3D printer, say
             "/dev/ttyUSB1": serial.SerialException("permission denied"),
             "/dev/ttyACM7": loop(hello(), encode("ROLL", "B1", 1, 2))}

    def opener(name):
        port = ports[name]
        if isinstance(port, Exception):
            raise port
        return port

    link = links(ports=list(ports), opener=opener, handshake_timeout=0.2)
    link.start()
    assert wait_for(link.events, Roll, 3) == Roll(1, 2, "B1")
    assert link.port == "/dev/ttyACM7"


def test_silence_makes_the_link_stale_and_it_searches_again(links):
    port = loop(hello(heartbeat_ms=30))
    link = links(ports=["loop://"], opener=lambda name: port)
    link.start()
    assert wait_for(link.events, Hello, 2)
    problem = wait_for(link.events, LinkProblem, 2)
    assert "stopped answering" in problem.message
    assert wait_for(link.events, StatusChanged, 1).status == SEARCHING


def test_heartbeats_keep_the_link_alive(links):
    port = loop(hello(heartbeat_ms=30))
    link = links(ports=["loop://"], opener=lambda name: port)
    link.start()
    assert wait_for(link.events, Hello, 2)
    for n in range(10):
        port.write(encode("HB", n))
        time.sleep(0.02)
    assert link.status == CONNECTED
    assert not [e for e in drain(link, 0.01) if isinstance(e, LinkProblem)]


def test_a_reader_in_a_newer_protocol_is_refused_with_a_clear_message(links):
    port = loop(hello(protocol=2), encode("ROLL", "B1", 1, 2))
    link = links(ports=["loop://"], opener=lambda name: port)
    link.start()
    assert "protocol version 2" in wait_for(link.events, LinkProblem, 2).message
    assert link.status != CONNECTED
    assert not [e for e in drain(link, 0.1) if isinstance(e, Roll)]


def test_stop_turns_the_link_off(links):
    link = links(ports=[], opener=lambda name: None)
    link.start()
    link.stop()
    assert link.status == OFF and not link.running


def test_bad_options_are_refused():
    with pytest.raises(ValueError):
        DieLink(handshake_timeout=0)
    with pytest.raises(ValueError):
        DieLink(backoff=(2, 1))


# --- pty with the simulator ------------------------------------------------------------------
@posix_only
def test_pty_rolls_arrive_and_are_acknowledged(sim, links):
    link = links(ports=lambda: [sim.path] if sim.plugged else [])
    link.start()
    assert wait_for(link.events, Hello, 3).device == "gumshoe-sim"
    seqs = [sim.roll(face) for face in (1, 4, 6)]
    assert [(r.seq, r.face) for r in rolls_until(link, 3)] == list(zip(seqs, (1, 4, 6)))
    deadline = time.monotonic() + 2
    while sim.acked != seqs[-1] and time.monotonic() < deadline:
        time.sleep(0.01)
    assert sim.acked == seqs[-1]


@posix_only
def test_pty_device_error_and_battery_are_reported(sim, links):
    link = links(ports=lambda: [sim.path] if sim.plugged else [])
    link.start()
    wait_for(link.events, Hello, 3)
    sim.error("SENSOR", "accelerometer not answering")
    assert wait_for(link.events, DeviceError, 2).text == "accelerometer not answering"


@posix_only
def test_pty_unplug_replug_and_reboot_every_roll_exactly_once(sim, links):
    sim.noise, sim.duplicates = 0.15, 0.3
    link = links(ports=lambda: [sim.path] if sim.plugged else [])
    link.start()
    wait_for(link.events, Hello, 3)
    statuses: list[str] = []
    made: list[tuple[str, int, int]] = []
    got: list[Roll] = []

    others: list = []

    def settle(expected: int) -> None:
        rolls_until(link, expected, got=got, other=others)
        statuses[:] = [e.status for e in others if isinstance(e, StatusChanged)]

    for round_ in range(4):
        for face in (2, 5, 3):
            sim.roll(face)
            made.append(sim.sent_rolls[-1])
        if round_ == 2:
            sim.unplug()                       # the device stays powered: its unacked rolls wait
            for face in (1, 6):
                sim.roll(face)                 # rolled while unplugged: kept and re-sent
                made.append(sim.sent_rolls[-1])
            time.sleep(0.05)
            sim.replug(reboot=False)
        settle(len(made))
        if round_ == 1:
            sim.reboot()                       # after its rolls were acknowledged: nothing lost
    settle(len(made))
    assert sorted((r.boot, r.seq, r.face) for r in got) == sorted(made)
    assert SEARCHING in statuses and statuses[-1] == CONNECTED
    assert not [e for e in drain(link, 0.2) if isinstance(e, Roll)], "a roll arrived twice"


@posix_only
def test_pty_replug_after_power_loss_finds_the_new_port(sim, links):
    link = links(ports=lambda: [sim.path] if sim.plugged else [])
    link.start()
    first = wait_for(link.events, Hello, 3)
    sim.unplug()
    assert "unplugged" in wait_for(link.events, LinkProblem, 2).message
    sim.replug()
    again = wait_for(link.events, Hello, 3)
    assert again.rebooted and again.boot != first.boot
    sim.roll(3)
    assert wait_for(link.events, Roll, 3).seq == 1


@posix_only
def test_an_ack_that_crosses_a_reboot_does_not_cancel_the_new_boots_roll(sim, links):
    """A re-sent roll of the old boot is acknowledged after the reboot: the device must not take
    that ACK for its new roll with the same number (it would stop re-sending a roll never seen)."""
    link = links(ports=lambda: [sim.path] if sim.plugged else [])
    link.start()
    first = wait_for(link.events, Hello, 3)
    old = sim.roll(2)
    assert rolls_until(link, 1)[0].seq == old
    sim.reboot()
    sim.unplug()                            # the new roll's first send is lost...
    new = sim.roll(5)
    assert new == old                       # (the new boot numbers its rolls from 1 again)
    sim._ack(first.boot, new)               # ...and a late ACK for the old boot's roll arrives
    sim.replug(reboot=False)
    got = rolls_until(link, 1)              # still re-sent, so it still arrives
    assert [(r.boot, r.seq, r.face) for r in got] == [(sim.boot, new, 5)]
