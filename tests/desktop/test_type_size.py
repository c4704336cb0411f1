"""Issue 23: a family sits a metre or more from the laptop. At 1366x768 no text on a table screen
is below 15 px (the public log and the journal buttons included), and the current player, the
prompt and the legal choices (highlighted places on the table, the action buttons) are at least
24 px. Beside the no-clipping walk (test_fit.py): that one says nothing is cut, this one that
what is left is big enough.
"""

from __future__ import annotations

import pytest
from PySide6.QtGui import QFontInfo
from PySide6.QtWidgets import (QAbstractButton, QComboBox, QGroupBox, QLabel, QLineEdit, QListWidget,
                               QTableWidget, QWidget)

from desktop.drawn.text import KEY_PX, LEAST_PX

from .driver import Driver, open_demo_table, play_on
from .painted import painted_texts
from .test_fit import fits

SIZE = (1366, 728)           # a 1366x768 laptop less its taskbar
MOVES = 12                   # moves played into each game (the walk looks after each)

#: Tables not redrawn yet for issue 23 (their own grids and buttons still use small type); each
#: is expected to fail this walk until its redraw lands, and the walk fails when one starts
#: passing, so the list only shrinks.
NOT_YET_REDRAWN: dict[str, str] = {}


def px(widget: QWidget) -> int:
    return QFontInfo(widget.font()).pixelSize()


def small_type(root: QWidget) -> list[str]:
    """Every visible text under 15 px, and every key text (turn, prompt, legal choice) under 24 px."""
    problems = []

    def check(what: str, size: int, least: int) -> None:
        if size < least:
            problems.append(f"{what}: {size} px, needs {least}")

    for w in root.findChildren(QWidget):
        if not w.isVisible() or w.width() <= 1 or w.height() <= 1:
            continue
        name = w.objectName()
        choice = isinstance(w, QAbstractButton) and name.startswith(("action:", "choose:", "rolled:"))
        key = name in ("turn", "prompt") or (w.isEnabled() and (choice or bool(getattr(w, "legal", False))))
        if hasattr(w, "drawn_texts"):
            for drawn in w.drawn_texts():
                least = KEY_PX if drawn.key and getattr(w, "legal", False) or (key and drawn.key) else LEAST_PX
                check(f"painted {name or type(w).__name__} {drawn.text!r}", drawn.px, least)
            continue
        least = KEY_PX if key else LEAST_PX
        if isinstance(w, (QLabel, QAbstractButton, QLineEdit)) and w.text().strip():
            check(f"{type(w).__name__} {name or w.text()[:40]!r}", px(w), least)
        elif isinstance(w, QGroupBox) and w.title():
            check(f"group box {w.title()!r}", px(w), LEAST_PX)
        elif isinstance(w, QComboBox) and w.currentText():
            check(f"combo box {name or w.currentText()!r}", px(w), LEAST_PX)
        elif isinstance(w, QListWidget) and w.count():
            sizes = [QFontInfo(w.item(i).font()).pixelSize() if w.item(i).font() != w.font() else px(w)
                     for i in range(w.count())]
            check(f"list {name!r}", min(sizes), LEAST_PX)
        elif isinstance(w, QTableWidget) and w.rowCount():
            check(f"table {name!r}", px(w), LEAST_PX)
    # What widgets paint past their DrawnText records (card faces, chips, map labels): the least size.
    for drawn in painted_texts(root):
        check(f"painted text in {drawn.widget} {drawn.text!r}", round(drawn.px), LEAST_PX)
    return problems


def _installed():
    from desktop.tables import installed_games
    return [pytest.param(g, marks=pytest.mark.xfail(strict=True, reason=NOT_YET_REDRAWN[g]))
            if g in NOT_YET_REDRAWN else g for g in installed_games()]


@pytest.mark.parametrize("game", _installed())
def test_every_table_reads_from_across_the_room(window, qtbot, game):
    """Each game's table as it opens, with its fewest and its most players, at 1366x768."""
    from engine.games import game_info

    info = game_info(game)
    names = ["Ann", "Bob", "Cyd", "Dee", "Eve", "Fay"]
    problems = []
    for count in sorted(set(info.players)):
        options = {o.id: o.default for o in info.options}
        t = open_demo_table(window, qtbot, game, names[:count], options)
        fits(t, SIZE, f"{game} with {count} players")
        problems += [f"{count} players: {p}" for p in small_type(window.table)]
        # On into the game by the simulated players' moves: places get highlighted, cards move.
        for move in play_on(window, MOVES):
            problems += [f"{count} players, move {move}: {p}" for p in small_type(window.table)]
        window.leave_game()
    assert sorted(set(problems)) == []


def test_the_walk_finds_small_type(window, qtbot):
    """The walk can fail: a label at 11 px on the table is found."""
    from .test_game_flow import PLAYERS
    t = Driver(window, qtbot)
    t.new_game(PLAYERS)
    window.resize(*SIZE)
    assert small_type(window.table) == [] or all("Die" in p or "rolled" in p for p in small_type(window.table))
    tiny = QLabel("Draw piles: 6", window.table.table)
    tiny.setStyleSheet("font-size: 8pt;")
    tiny.show()
    assert any("Draw piles" in p for p in small_type(window.table))
