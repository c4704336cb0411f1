"""Open each screen of the app and save it as a PNG here, at two laptop/desktop sizes (run
under Xvfb):

    xvfb-run -s "-screen 0 1920x1080x24" .venv/bin/python docs/screenshots/take_screenshots.py [--only carmen,clues39]

Each screen is saved as ``NN-name-1366.png`` (a 1366x768 laptop, less a 40 px taskbar) and
``NN-name-1920.png``. A demo game on the simulated table is played by the same driver the
tests use. ``--only`` takes some games (carmen, usa, bonnie, clues39, sudds). Cards, dice and
pieces move as a family sees them ("less motion" off): each shot waits until they have landed.
Then ``colour_blind.py`` writes each shot as seen with red-green colour blindness.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

def fresh_home(tag: str) -> None:
    """Point the app at an empty folder of saved games, one per size: the 1920 start screen shows a
    first start, not the games the 1366 run saved (and never the family's own folder)."""
    os.environ["GUMSHOE_HOME"] = tempfile.mkdtemp(prefix=f"gumshoe-shots-{tag}-")


fresh_home("import")

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


SIZES = {"1366": (1366, 728), "1920": (1920, 1040)}


def landed(window, most_ms: int = 4000) -> None:
    """Wait until every movement on the table has landed (a shot never catches a card in flight)."""
    from desktop.drawn import MotionQueue
    end = time.monotonic() + most_ms / 1000
    while any(q.busy for q in window.findChildren(MotionQueue)) and time.monotonic() < end:
        QApplication.processEvents()
        time.sleep(0.01)


def shot(window, name: str) -> None:
    settle()
    landed(window)
    settle(60)
    window.grab().save(str(HERE / f"{name}-{window.size_tag}.png"))
    print("saved", name, window.size_tag)


def main() -> int:
    app = QApplication.instance() or QApplication(sys.argv[:1])
    apply_style(app)
    games = {"carmen": take, "usa": take_carmen_usa, "bonnie": take_bonnie_clyde, "clues39": take_clues39,
             "sudds": take_sudds_malone}
    only = sys.argv[sys.argv.index("--only") + 1].split(",") if "--only" in sys.argv else list(games)
    unknown = [g for g in only if g not in games]
    if unknown:
        print(f"unknown game(s) {', '.join(unknown)}; the games are: {', '.join(games)}", file=sys.stderr)
        return 2
    for tag, size in SIZES.items():
        fresh_home(tag)
        for game in only:
            games[game](tag, size)
    return 0


def take_sudds_malone(tag: str, size: tuple[int, int]) -> None:
    """Sudds & Malone: the box review screen, the rolled dice pool, The Office's choices (under the
    dice on a laptop, beside the board on a large screen; the die taken lies by its column), a path
    chosen on the map, a journal, four players."""
    from tests.desktop.tables import test_sudds_malone as sm
    window = MainWindow()
    window.size_tag = tag
    window.resize(*size)
    window.show()
    t = Driver(window, Bot())
    t.choose_game("sudds-malone")
    t.click("start:screen:box")
    box = window.start.screen_window
    box.resize(*size)
    settle()
    box.grab().save(str(HERE / f"50-sm-your-box-{tag}.png"))
    print("saved", "50-sm-your-box", tag)
    t.click("screen:close")
    t.new_game(sm.PLAYERS)
    sm.deal(t)
    sm.roll(t, sm.ROLL)
    shot(window, "51-sm-dice-pool")
    sm.take(t, "white-1", "1")
    shot(window, "52-sm-office")
    sm.press(t, "sm:up:calendar")
    sm.press(t, "sm:send")
    t.click("action:end_turn")
    sm.take(t, "black-3", "3")
    t.click("slot:queens")
    shot(window, "54-sm-investigate")
    sm.press(t, "sm:cancel")
    t.click("journal:Ann")
    t.click("gate:reveal")
    shot(window, "53-sm-journal")
    t.click("journal:hide")
    window.close()
    window.deleteLater()
    settle()
    # Four players a few turns in (the demo's simulated table deals and rolls).
    from desktop.games import GameController
    from engine.game import Assist
    names = ["Ann", "Bob", "Cyd", "Dee"]
    window = MainWindow()
    window.size_tag = tag
    window.resize(*size)
    window.show()
    c = GameController.new("sudds-malone", names, {n: 12 for n in names}, Assist.FULL, options={"demo_seed": 5})
    window._open(c)
    window.show_table()
    t = Driver(window, Bot())
    sm.press(t, "action:deal")
    shot(window, "56-sm-deal")                     # the deal on the drawn map, no drop-down
    sm.press(t, "sm:deal:sim")
    sm.press(t, "sm:send")
    sm.press(t, "action:roll")
    for die in c.session.state.dice:
        window.table.table.sel["values"][die] = c.simulator.rng.randint(1, 6)
    window.table.table._draw_panel()
    sm.press(t, "sm:send")
    for die, use in (("white-1", "news"), ("black-2", "news"), ("grey-3", "news")):
        t.click(f"slot:{die}")
        sm.press(t, f"sm:use:{use}")
        t.click("action:pick_evidence")
        t.click("choose:glass")
        t.click("action:end_turn")
    shot(window, "55-sm-four-players")
    window.close()
    window.deleteLater()
    settle()


def four_players_with_example_decks(t: Driver, clues) -> None:
    """The new-game form of The 39 Clues filled in: Ann, Bob, Cyd and Dee with the example decks."""
    t.click("start:new")
    t.find("new:count").setValue(4)
    for i, name in enumerate(clues.NAMES[:4]):
        t.find(f"new:name{i}").setText(name)
        t.find(f"new:age{i}").setValue(9 + i)
    box = t.find("clues:source")
    box.setCurrentIndex(box.findData("example"))


def take_clues39(tag: str, size: tuple[int, int]) -> None:
    """The 39 Clues: the family's card library, decks on the new-game form, four players' missions,
    and four players far into a game with many missions each."""
    from tests.desktop.tables import test_clues39 as clues
    window = MainWindow()
    window.size_tag = tag
    window.resize(*size)
    window.show()
    t = Driver(window, Bot())
    dialog = clues.open_library(t)
    dialog.resize(*size)
    for number, name, kind, colour, points, sides, owner in clues.COLLECTION[:8]:
        clues.register(t, number, name, kind, colour, points, sides, owner)
    settle()
    dialog.grab().save(str(HERE / f"40-clues-library-{tag}.png"))
    print("saved", "40-clues-library", tag)
    t.click("screen:close")
    four_players_with_example_decks(t, clues)
    shot(window, "41-clues-new-game-decks")
    t.click("new:start")
    t.click("setup:done")
    for player in clues.NAMES[:4]:
        for spot, number in zip("1234", (9, 2, 18, 22) if player == "Ann" else (4, 11, 13, 20)):
            clues.read(t, f"{player}/table/{spot}", number, player)
    t.click("action:mission")
    t.click("choose:Ann/hand")
    t.click("slot:Ann/table/1")
    t.choose("agent", clues.card("Ann", 1))      # the Location lies face up, read: never asked again
    t.click("entry:submit")
    shot(window, "42-clues-table-four-players")
    window.close()
    window.deleteLater()
    settle()
    # A game far on: the simulated players only send missions, up to nine open for one player,
    # and each row fans its missions (their colours and points on the strips).
    window = MainWindow()
    window.size_tag = tag
    window.show()
    window.resize(*size)
    t = Driver(window, Bot())
    clues.choose_game(t)
    four_players_with_example_decks(t, clues)
    t.click("new:start")
    t.click("setup:done")
    patch = _Restorable()
    clues.send_only_missions(t, patch)
    shot(window, "43-clues-many-missions")
    patch.undo()
    window.close()
    window.deleteLater()
    settle()


class _Restorable:
    """``monkeypatch.setitem`` outside pytest: the dictionaries are put back by ``undo()``."""

    def __init__(self) -> None:
        self.saved: list[tuple[dict, object, object]] = []

    def setitem(self, mapping: dict, key, value) -> None:
        self.saved.append((mapping, key, mapping[key]))
        mapping[key] = value

    def undo(self) -> None:
        for mapping, key, value in reversed(self.saved):
            mapping[key] = value
        self.saved.clear()


def take_bonnie_clyde(tag: str, size: tuple[int, int]) -> None:
    """Bonnie and Clyde: a meld's cards being read, the table after a capture, Ted Hinton, a journal."""
    from tests.desktop.tables import test_bonnie_clyde as bc
    window = MainWindow()
    window.size_tag = tag
    window.resize(*size)
    window.show()
    t = Driver(window, Bot())
    bc.choose_game(t)
    t.new_game([("Cyd", 10), ("Ann", 11), ("Bob", 9)])     # Cyd, written first, deals; Ann starts
    t.click("action:deal")
    t.choose("card", bc.E(9, "a"))
    t.click("entry:submit")
    t.click("action:draw")
    t.click("action:meld")
    t.window.entry.chooser("cards").clear()
    t.choose_cards("cards", [bc.E(1, "a"), bc.E(1, "b"), bc.E(1, "c")])
    shot(window, "30-bc-meld-cards")
    t.click("entry:submit")
    bc.look(t, "board/1", bc.B)
    t.click("action:hinton")
    shot(window, "31-bc-ted-hinton")
    t.click("bc:cancel")
    t.click("action:discard")
    t.choose("card", bc.E(5, "b"))
    t.click("entry:submit")
    shot(window, "32-bc-table")
    t.click("journal:Ann")
    t.click("gate:reveal")
    shot(window, "33-bc-journal")
    window.close()
    window.deleteLater()
    settle()


def take_carmen_usa(tag: str, size: tuple[int, int]) -> None:
    """Where in the USA: a question, a journal, an accusation and the finale's map."""
    from tests.desktop.tables import test_carmen_usa as usa
    window = MainWindow()
    window.size_tag = tag
    window.resize(*size)
    window.show()
    t = Driver(window, Bot())
    usa.choose_game(t)
    t.new_game(usa.PLAYERS)
    usa.deal_boxes(t)
    for landmark in ("big-bend", "everglades", "mammoth-cave"):
        t.click(f"slot:{landmark}")
    usa.ask(t)
    shot(window, "20-usa-question")
    usa.press(t, "action:answer", "Right answer")
    usa.move(t, "denali")
    usa.look(t, "denali")
    usa.ask(t)
    usa.press(t, "action:answer", "Wrong answer")
    usa.press(t, "action:pass")
    usa.ask(t)
    usa.press(t, "action:choices")
    q = t.session.rules.bank.question(t.session.state.question)
    usa.press(t, f"usa:choice{q.options.index(q.answer)}")
    usa.move(t, "liberty-bell")
    usa.look(t, "liberty-bell")
    t.click("journal:Ann")
    t.click("gate:reveal")
    shot(window, "21-usa-journal")
    t.click("journal:hide")
    usa.ask(t)
    usa.press(t, "action:answer", "Right answer")
    usa.press(t, "action:accuse")
    t.click("slot:liberty-bell")          # the orange Loot lies face up: known, never asked for again
    shot(window, "22-usa-accusation")
    usa.flip(t, "arches", "box/arches")
    for _ in range(3):
        usa.press(t, "action:draw_capitals")
    usa.press(t, "action:start_clock")
    shot(window, "23-usa-finale-map")
    window.close()
    window.deleteLater()
    settle()


def take(tag: str, size: tuple[int, int]) -> None:
    from tests.desktop.test_game_flow import DEAL, PLAYERS
    window = MainWindow()
    window.size_tag = tag
    window.resize(*size)
    window.show()
    t = Driver(window, Bot())
    shot(window, "01-start")
    t.click("start:demo")
    shot(window, "02-new-game")
    t.click("new:start")
    shot(window, "03-setup")
    t.click("setup:done")
    t.truth.update(window.controller.simulator.truth.cards)
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
    if window.stack.currentWidget() is window.end:
        t.click("end:leave")
    else:
        t.click("leave")
    shot(window, "13-start-with-saved-game")
    t.new_game([("Ann", 9), ("Ben", 7)])
    shot(window, "14-table-two-players")
    t.click("leave")
    t.new_game([("Ann", 9), ("Ben", 7), ("Cleo", 11), ("Dev", 13)])
    t.roll("henchman")
    shot(window, "15-table-four-players")
    t.click("leave")
    t.new_game(PLAYERS)
    t.deal(DEAL)
    t.warrant("Julie/loot/top", "Mark/location/top")
    t.flip_henchman("Amberley/henchman/bottom")
    shot(window, "16-end-of-game")
    window.close()
    window.deleteLater()
    settle()


if __name__ == "__main__":
    sys.exit(main())
