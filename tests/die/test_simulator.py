"""The simulator from the command line: prints its pty path and rolls by itself."""

from __future__ import annotations

import subprocess
import sys

from desktop.die.link import DieLink, wait_for
from desktop.die.protocol import Hello, Roll

from .conftest import FAST, posix_only


@posix_only
def test_command_line_simulator_is_found_and_rolls():
    proc = subprocess.Popen([sys.executable, "-m", "desktop.die_sim", "--auto", "0.05", "--heartbeat-ms", "50",
                             "--noise", "0.1", "--seed", "3"], stdout=subprocess.PIPE, text=True)
    try:
        first = proc.stdout.readline()
        assert first.startswith("die reader simulator on /dev/")
        path = first.rsplit(" ", 1)[1].strip()
        link = DieLink(ports=[path], **FAST)
        link.start()
        try:
            assert wait_for(link.events, Hello, 3).device == "gumshoe-sim"
            assert 1 <= wait_for(link.events, Roll, 3).face <= 6
        finally:
            link.stop()
    finally:
        proc.terminate()
        proc.wait(5)


def test_bad_switches_get_a_clear_message():
    out = subprocess.run([sys.executable, "-m", "desktop.die_sim", "--noise", "2"], capture_output=True, text=True,
                         timeout=20)
    assert out.returncode == 2 and "between 0 and 1" in out.stderr
