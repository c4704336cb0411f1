"""Issue 10: every screen fits a laptop (1280x720 and 1366x768) and no text is cut off.

The walk looks at every visible widget: a label that does not wrap, a button or a tab must be
as wide as its text (font metrics); a journal column as wide as its longest entry; and the
window must not need more than the screen. It runs over each screen of the Carmen game as a
family meets them, with 2, 3 and 4 players.
"""

from __future__ import annotations

import html

import pytest
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtGui import QFont, QFontInfo, QFontMetrics
from PySide6.QtWidgets import QAbstractButton, QGroupBox, QLabel, QTableWidget, QTabBar, QWidget

from desktop.drawn.text import ELLIPSIS, LEAST_PX

from .driver import Driver, open_demo_table
from .test_game_flow import DEAL, PLAYERS

SCREENS = [(1280, 680), (1366, 728)]      # a 720p and a 768p laptop, less a taskbar


def clipped(root: QWidget, vertical: bool = True) -> list[str]:
    """Every visible text wider (or, with ``vertical``, a button's lines taller) than the widget
    that shows it."""
    problems = []
    for w in root.findChildren(QWidget):
        if not w.isVisible() or w.width() <= 1:
            continue
        fm = w.fontMetrics()
        if hasattr(w, "drawn_texts"):
            # Painted words (desktop/drawn) are fitted to their room by the painter, which says
            # when even the least size did not fit; and the room must lie inside the widget.
            for drawn in w.drawn_texts():
                inside = w.rect().adjusted(-1, -1, 1, 1).contains(drawn.rect)
                if not drawn.fits or not inside:
                    problems.append(f"painted {w.objectName()!r}: {drawn.text!r} does not fit {drawn.rect}")
        elif isinstance(w, QLabel) and not w.wordWrap() and w.text() and w.pixmap().isNull():
            need = max(fm.horizontalAdvance(line) for line in w.text().split("\n"))
            if need > w.contentsRect().width() + 1:
                problems.append(f"label {w.objectName() or w.text()!r}: needs {need}px, has {w.contentsRect().width()}")
        elif isinstance(w, QLabel) and w.wordWrap() and w.text():
            need = w.heightForWidth(w.width())
            if need > w.height() + 2:
                problems.append(f"label {w.objectName() or w.text()[:30]!r}: needs {need}px high, has {w.height()}")
        elif isinstance(w, QAbstractButton) and w.text():
            lines = w.text().split("\n")
            need = max(fm.horizontalAdvance(line) for line in lines)
            if need > w.width() - 8:
                problems.append(f"button {w.objectName() or w.text()!r}: needs {need}px, has {w.width()}")
            high = len(lines) * fm.height()
            if vertical and len(lines) > 1 and high > w.height() - 4:
                problems.append(f"button {w.objectName() or w.text()!r}: needs {high}px high, has {w.height()}")
        elif isinstance(w, QGroupBox) and w.title():
            if fm.horizontalAdvance(w.title()) > w.width() - 24:
                problems.append(f"group box title {w.title()!r} cut off")
        elif isinstance(w, QTabBar):
            for i in range(w.count()):
                if fm.horizontalAdvance(w.tabText(i)) > w.tabRect(i).width():
                    problems.append(f"tab {w.tabText(i)!r} cut off")
        elif isinstance(w, QTableWidget):
            for c in range(w.columnCount()):
                if w.wordWrap():
                    problems += wrapped_cells_cut(w, c)
                    continue
                need = w.sizeHintForColumn(c)
                if need > w.columnWidth(c) + 1:
                    problems.append(f"table {w.objectName()!r} column {c}: needs {need}px, has {w.columnWidth(c)}")
    return problems


def wrapped_cells_cut(table: QTableWidget, column: int) -> list[str]:
    """A table whose entries wrap (the journal's) may give a long entry more lines: each entry's
    words must fit its column's width (less the cell's margins) and its lines its row's height."""
    problems = []
    room = table.columnWidth(column) - 6
    for row in range(table.rowCount()):
        item = table.item(row, column)
        if item is None or not item.text():
            continue
        font = QFont(table.font())
        font.setBold(item.font().bold())
        box = QFontMetrics(font).boundingRect(QRect(0, 0, room, 10_000), Qt.TextWordWrap, item.text())
        if box.width() > room or box.height() > table.rowHeight(row):
            problems.append(f"table {table.objectName()!r} column {column}: {item.text()!r} needs "
                            f"{box.width()}x{box.height()}px, has {room}x{table.rowHeight(row)}")
    return problems


def fits(t: Driver, size: tuple[int, int], where: str, *, vertical: bool = True) -> None:
    win = t.window
    win.resize(*size)
    t.qtbot.wait(30)
    # Restyled buttons and relaid rows settle over a few event-loop passes (a busy machine takes
    # longer): judge the window once it has settled, not in the middle of a relayout.
    settled = win.minimumSizeHint()
    for _ in range(20):
        t.qtbot.wait(25)
        now = win.minimumSizeHint()
        if now == settled:
            break
        settled = now
    assert win.minimumSizeHint().width() <= size[0] and win.minimumSizeHint().height() <= size[1], \
        f"{where}: the window needs {win.minimumSizeHint()} on a {size} screen"
    assert win.width() <= size[0] and win.height() <= size[1], f"{where}: window {win.size()} on {size}"
    assert clipped(win, vertical) == [], where


@pytest.mark.parametrize("size", SCREENS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_screen_of_a_game_fits_and_cuts_no_text(table, size, players):
    t = table
    t.window.resize(*size)
    for game in t.window.start.games:              # every game's shelf card and rules in short
        t.window.start.select_game(game)
        fits(t, size, f"start ({game})")
    t.window.start.select_game("carmen-cards")
    t.click("start:new")
    fits(t, size, "new game")
    chosen = (PLAYERS + [("Dee", 13)])[:players]
    t.find("new:count").setValue(players)
    for i, (name, age) in enumerate(chosen):
        t.find(f"new:name{i}").setText(name)
        t.find(f"new:age{i}").setValue(age)
    t.click("new:start")
    fits(t, size, "setup")
    t.click("setup:done")
    fits(t, size, "table")
    t.deal({k: v for k, v in DEAL.items() if k.split("/")[0] in dict(chosen) or k.startswith("center")})
    first = t.session.current
    t.roll("loot")
    fits(t, size, "table after a roll")
    place = sorted(t.legal_slots())[0]
    t.click(f"slot:{place}")
    fits(t, size, "privacy gate")
    t.click("gate:reveal")
    fits(t, size, "private look")
    t.choose("card", t.card_at(place))
    t.click("entry:submit")
    t.click(f"journal:{first}")
    t.click("gate:reveal")
    fits(t, size, "journal")
    t.click("journal:hide")
    t.click("action:warrant")
    fits(t, size, "warrant: pick slots")


def _installed():
    from desktop.tables import installed_games
    return installed_games()


@pytest.mark.parametrize("size", SCREENS)
@pytest.mark.parametrize("game", _installed())
def test_every_installed_games_table_fits_with_the_fewest_and_the_most_players(window, qtbot, game, size):
    """The same walk over each game's table as it opens, with its fewest and its most players."""
    from engine.games import game_info

    info = game_info(game)
    names = ["Ann", "Bob", "Cyd", "Dee", "Eve", "Fay"]
    for count in sorted(set(info.players)):
        options = {o.id: o.default for o in info.options}
        t = open_demo_table(window, qtbot, game, names[:count], options)
        fits(t, size, f"{game} with {count} players")
        window.leave_game()


def test_the_action_column_finds_room_for_many_long_options(window, qtbot):
    """docs/desktop.md: the action buttons keep their 24 px type and every word, and never scroll
    (issue 28). Long options get less padding first, then a wider column (the table keeps two
    thirds of the width); options too many for even that leave the last ones behind one "More
    actions…" button, whose panel shows each of them whole, in sight, and starts the one clicked."""
    from desktop.table_screen import SIDE_WIDTH, TABLE_SHARE
    from engine.game import Option, Prompt

    from .in_sight import click_in_sight, why_not_in_sight

    names = ["Ann", "Bob", "Cyd", "Dee"]
    t = open_demo_table(window, qtbot, "carmen-cards", names)
    screen = window.table
    size = (1280, 680)
    words = "Ask the old witness"

    def offer(count: int) -> list:
        prompt = Prompt("Ann", "Ann, choose.", tuple(Option(f"ask{i}", f"{i + 1}. {words}") for i in range(count)))
        screen._refresh_die(prompt)           # as refresh() does: nothing to roll, no die choices
        screen._refresh_actions(prompt, False)
        fits(t, size, f"{count} long options")
        shown = [b for i in range(count) if t.visible(f"action:ask{i}") for b in [t.find(f"action:ask{i}")]]
        assert [" ".join(b.text().split()) for b in shown] == [f"{i + 1}. {words}" for i in range(len(shown))]
        assert all(QFontInfo(b.font()).pixelSize() >= 24 for b in shown)
        assert all(why_not_in_sight(b) == "" for b in shown)
        assert not screen.action_scroll.verticalScrollBar().isVisible()
        return shown

    body = size[0] - 24 - 6
    assert len(offer(3)) == 3 and not t.visible("action:more")
    assert screen.side_widget.width() == SIDE_WIDTH
    assert len(offer(5)) == 5 and not t.visible("action:more")   # two lines each, one line each a little wider
    assert SIDE_WIDTH < screen.side_widget.width() <= body - int(body * TABLE_SHARE)
    shown = offer(9)
    assert 2 <= len(shown) < 9
    more = t.find("action:more")
    assert why_not_in_sight(more) == ""
    # Each button as high as its lines, none squeezed.
    for b in shown + [more]:
        assert b.height() >= len(b.text().split("\n")) * b.fontMetrics().height() + 4
    click_in_sight(more)
    panel = screen.more_panel
    assert panel is not None and panel.isVisible()
    behind = [b.objectName() for b in panel.buttons]
    assert behind == [f"action:ask{i}" for i in range(len(shown), 9)]
    assert QRect(window.mapToGlobal(QPoint(0, 0)), window.size()).contains(panel.geometry())
    for b in panel.buttons:
        assert why_not_in_sight(b) == "" and QFontInfo(b.font()).pixelSize() >= 24
        assert b.height() >= len(b.text().split("\n")) * b.fontMetrics().height() + 4
    started = []
    screen.start_option = lambda option, first_value=None: started.append(option.action)
    click_in_sight(panel.buttons[-1])
    assert started == ["ask8"] and not panel.isVisible()


def test_two_long_messages_leave_the_newest_whole(window, qtbot):
    """The message under the actions takes a few lines at most (the table never moves for it):
    two short lines show together; two lines too long for it leave the newest one alone, in
    smaller type if it must (never below the least size), and where the actions leave it too
    little room even for that (they are never covered, issue 28), its first words end in "…", the
    whole of it in the tooltip and in what happened."""

    names = ["Ann", "Bob", "Cyd", "Dee"]
    t = open_demo_table(window, qtbot, "carmen-cards", names)
    size = (1280, 680)
    fits(t, size, "the table")
    screen = window.table
    screen.say(["Ann rolled a 4.", "Bob swapped two cards."])
    assert t.text("banner") == "Ann rolled a 4.\nBob swapped two cards."
    older = ("Ann played the card from the far end of her row onto the table and everyone read it aloud, "
             "then Bob asked Cyd which of the two middle cards she had looked at before the roll.")
    newer = ("Cyd answered in front of everyone that it was the card nearest to her, and Dee wrote that "
             "down in her journal before passing the die to Ann for the next roll of the game.")
    screen.say([older, newer])
    shown = t.text("banner")
    assert shown == newer or (shown.endswith(ELLIPSIS) and newer.startswith(shown.rstrip(ELLIPSIS))
                              and newer in html.unescape(t.find("banner").toolTip())), shown
    assert older not in shown
    assert QFontInfo(t.find("banner").font()).pixelSize() >= LEAST_PX
    fits(t, size, "two long messages")


def test_journal_buttons_show_long_names(window, qtbot):
    """Issue 23: a journal button per player with their name. Long names get the width they need
    (what happened beside them gives way, keeping its own room), whole and at 15 px or more."""

    names = ["Annabelle", "Bartholomew", "Anna Maria Fitzgerald", "Christopher"]
    t = open_demo_table(window, qtbot, "carmen-cards", names)
    for size in SCREENS:
        fits(t, size, "long names on the journal buttons")
        for name in names:
            [drawn] = t.find(f"journal:{name}").drawn_texts()
            assert " ".join(drawn.text.split()) == name and drawn.px >= 15      # on one or two lines


def test_a_name_too_long_for_its_journal_button_is_shortened_and_kept_whole_for_a_screen_reader(qtbot):
    """Only when even the narrow face cannot show it: the name ends in an ellipsis on the button,
    and its screen-reader name is still the whole name."""
    from desktop.drawn import PlayerButton

    name = "Maximilianbartholomewson"                    # 24 letters, the longest a name may be
    journal = PlayerButton(name, "#0072B2", name)
    qtbot.addWidget(journal)
    journal.resize(journal.needed_width(), journal.HEIGHT)
    [drawn] = journal.drawn_texts()
    assert drawn.text == name and drawn.fits and drawn.px >= 15
    journal.resize(150, journal.HEIGHT)
    [drawn] = journal.drawn_texts()
    assert drawn.text.endswith("\u2026") and name.startswith(drawn.text[:-1]) and drawn.fits and drawn.px >= 15
    assert journal.accessibleName() == name


@pytest.mark.parametrize("size", SCREENS)
def test_every_games_new_game_form_fits_with_its_most_players(table, size):
    """Each game's own part of the form (long labels such as "Question colour (the youngest agent
    chooses):") must not squeeze the shared rows' words out of sight (the phones box was cut)."""
    from engine.games import game_info

    t = table
    t.window.resize(*size)
    for game in _installed():
        t.window.show_new_game(game, demo=False)
        t.find("new:count").setValue(max(game_info(game).players))
        fits(t, size, f"new game ({game})")
