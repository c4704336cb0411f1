"""The window opens to fit the screen it is on, and where the family left it (issue 28, item 2).

Before, it opened at 1500x940 on any screen: on a 1366x768 laptop without a window manager that
maximises it, "Deal and start" was below the screen's edge; on 1920x1080 it sat in a corner.

A screen's size is fixed when Qt starts, so each case runs the app in a child process: on Qt's
offscreen platform with a screen of the wanted size (its ``configfile``), and once on a real X
server (Xvfb, no window manager) at 1366x768.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

CHILD = textwrap.dedent(r'''
    import json, sys
    from PySide6.QtCore import QRect
    from PySide6.QtWidgets import QApplication, QPushButton
    app = QApplication(sys.argv[:1])
    from desktop.main_window import MainWindow
    from desktop.style import apply_style
    from tests.desktop.in_sight import click_in_sight, why_not_in_sight

    what = sys.argv[1]
    apply_style(app)
    window = MainWindow(demo=True, camera="off")       # as `gumshoe --demo`: the new-game form first
    window.show()
    for _ in range(20):
        app.processEvents()
    screen = window.screen()
    start = window.findChild(QPushButton, "new:start")
    place = QRect(start.mapToGlobal(start.rect().topLeft()), start.size())
    report = {"screen": screen.availableGeometry().getRect(), "window": window.geometry().getRect(),
              "frame": window.frameGeometry().getRect(), "start": place.getRect(),
              "start_on_screen": screen.availableGeometry().contains(place), "in_sight": why_not_in_sight(start)}
    if what == "deal":
        click_in_sight(start)
        report["after_deal"] = type(window.stack.currentWidget()).__name__
    elif what.startswith("move:"):
        x, y, w, h = (int(v) for v in what[5:].split(","))
        window.setGeometry(x, y, w, h)
        app.processEvents()
    window.close()
    print("REPORT " + json.dumps(report), flush=True)
''')


def run_app(tmp_path: Path, home: Path, screen: tuple[int, int] | None, what: str = "look",
            xvfb: bool = False) -> dict:
    env = dict(os.environ, GUMSHOE_HOME=str(home), GUMSHOE_DEMO_SEED="7")
    command = [sys.executable, "-c", CHILD, what]
    if xvfb:
        env["QT_QPA_PLATFORM"] = "xcb"
        command = ["xvfb-run", "-a", "-s", f"-screen 0 {screen[0]}x{screen[1]}x24", *command]
    else:
        config = tmp_path / f"screen-{screen[0]}x{screen[1]}.json"
        config.write_text(json.dumps({"screens": [{"name": "screen", "x": 0, "y": 0, "width": screen[0],
                                                   "height": screen[1], "logicalDpi": 96, "dpr": 1}]}))
        env["QT_QPA_PLATFORM"] = f"offscreen:configfile={config}"
    proc = subprocess.run(command, capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)
    lines = [line for line in proc.stdout.splitlines() if line.startswith("REPORT ")]
    assert proc.returncode == 0 and lines, "\n".join(proc.stderr.splitlines()[-15:])
    return json.loads(lines[-1][len("REPORT "):])


def inside(inner, outer) -> bool:
    x, y, w, h = inner
    ox, oy, ow, oh = outer
    return ox <= x and oy <= y and x + w <= ox + ow and y + h <= oy + oh


@pytest.fixture
def home(gumshoe_home: Path) -> Path:
    """The family's folder (conftest's: "less motion" on), handed to the child processes."""
    return gumshoe_home


def test_on_a_1366x768_laptop_the_window_fits_and_deal_and_start_can_be_clicked(tmp_path, home):
    seen = run_app(tmp_path, home, (1366, 768), "deal")
    assert inside(seen["frame"], seen["screen"]), seen
    assert seen["start_on_screen"] and not seen["in_sight"], seen
    assert seen["after_deal"] != "NewGameScreen", "'Deal and start' did not start the game"


def test_on_a_large_screen_the_window_fills_most_of_it_centred(tmp_path, home):
    seen = run_app(tmp_path, home, (1920, 1080))
    x, y, w, h = seen["frame"]
    assert inside(seen["frame"], seen["screen"]), seen
    assert w >= 0.9 * 1920 and h >= 0.9 * 1080, f"the window uses only {w}x{h} of 1920x1080"
    assert abs((x + w / 2) - 960) <= 24 and abs((y + h / 2) - 540) <= 24, f"not centred: {seen['frame']}"


def test_the_window_opens_where_the_family_left_it(tmp_path, home):
    run_app(tmp_path, home, (1920, 1080), "move:150,120,1400,800")
    seen = run_app(tmp_path, home, (1920, 1080))
    assert seen["window"] == [150, 120, 1400, 800]


@pytest.mark.parametrize("left", ["1700,900,1900,1000", "-3000,-2500,1400,800", "300,5000,1300,700"])
def test_a_place_remembered_from_a_bigger_screen_or_off_screen_is_brought_onto_this_one(tmp_path, home, left):
    """A laptop that was on a large monitor, or a monitor that is gone: never bigger than this
    screen's free area, never off it."""
    run_app(tmp_path, home, (2560, 1440), f"move:{left}")
    seen = run_app(tmp_path, home, (1366, 768), "deal")
    assert inside(seen["frame"], seen["screen"]), seen
    assert seen["start_on_screen"] and not seen["in_sight"], seen


def test_a_damaged_remembered_place_is_ignored(tmp_path, home):
    (home / "settings.ini").write_text("[General]\nless_motion=true\n\n[window]\ngeometry=a,b\n", encoding="utf-8")
    seen = run_app(tmp_path, home, (1366, 768))
    assert inside(seen["frame"], seen["screen"]) and seen["start_on_screen"], seen


@pytest.mark.skipif(shutil.which("xvfb-run") is None, reason="xvfb-run is not installed (scripts/test installs it)")
def test_on_a_real_x_server_without_a_window_manager_deal_and_start_is_on_screen(tmp_path, home):
    seen = run_app(tmp_path, home, (1366, 768), "deal", xvfb=True)
    assert inside(seen["frame"], seen["screen"]), seen
    assert seen["start_on_screen"] and not seen["in_sight"], seen
    assert seen["after_deal"] != "NewGameScreen"
