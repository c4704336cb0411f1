"""Open each screen of the app and save it as a PNG here (run under Xvfb):

    xvfb-run -s "-screen 0 1600x1000x24" .venv/bin/python docs/screenshots/take_screenshots.py

A demo game on the simulated table is played by the same driver the tests use.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))
os.environ.setdefault("GUMSHOE_HOME", tempfile.mkdtemp(prefix="gumshoe-shots-"))

from PySide6.QtTest import QTest  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from desktop.main_window import MainWindow  # noqa: E402
from desktop.style import apply_style  # noqa: E402
from tests.desktop.driver import Driver  # noqa: E402


class Bot:
    mouseClick = staticmethod(QTest.mouseClick)
    keyClicks = staticmethod(QTest.keyClicks)


def settle(ms: int = 150) -> None:
    end = time.monotonic() + ms / 1000
    while time.monotonic() < end:
        QApplication.processEvents()
        time.sleep(0.01)


def shot(window, name: str) -> None:
    settle()
    window.grab().save(str(HERE / f"{name}.png"))
    print("saved", name)


def main() -> int:
    app = QApplication.instance() or QApplication(sys.argv[:1])
    apply_style(app)
    window = MainWindow()
    window.resize(1600, 1000)
    window.show()
    t = Driver(window, Bot())
    shot(window, "01-start")
    t.click("start:demo")
    shot(window, "02-new-game")
    t.click("new:start")
    shot(window, "03-setup")
    t.click("setup:done")
    t.truth.update(window.controller.truth.cards)
    settle(1500)                         # let the simulated camera deliver a preview
    shot(window, "04-table")
    player = t.session.prompt().player
    t.roll("loot")
    shot(window, "05-table-after-roll")
    place = sorted(t.legal_slots())[0]
    t.peek(place, reveal=False)
    shot(window, "06-privacy-gate")
    t.click("gate:reveal")
    shot(window, "07-private-peek")
    t.choose("card", t.card_at(place))
    t.click("entry:submit")
    t.click(f"journal:{player}")
    t.click("gate:reveal")
    shot(window, "08-journal")
    t.click("journal:hide")
    t.click("undo")
    shot(window, "09-undo-question")
    t.click("undo:no")
    t.end_turn()
    t.click("action:warrant")
    loot = sorted(t.legal_slots())[0]
    t.click(f"slot:{loot}")
    shot(window, "10-warrant-pick-slots")
    location = sorted(t.legal_slots())[0]
    t.click(f"slot:{location}")
    shot(window, "11-warrant-flip")
    t.choose("loot_card", t.card_at(loot))
    t.choose("location_card", t.card_at(location))
    t.click("entry:submit")
    shot(window, "12-verdict")
    t.click("leave")
    shot(window, "13-start-with-saved-game")
    t.new_game([("Ann", 9), ("Ben", 7)])
    shot(window, "14-table-two-players")
    t.click("leave")
    t.new_game([("Ann", 9), ("Ben", 7), ("Cleo", 11), ("Dev", 13)])
    t.roll("henchman")
    shot(window, "15-table-four-players")
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
