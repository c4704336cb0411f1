"""Issue 23, the shelf: each game shows an emblem of our own drawing on a tile in its colour
(both named in its shelf card, assets/games/<id>.toml). The colours stay apart with red-green
colour blindness, the drawing is crisp at 2x, no title beside it is cut short on a laptop,
and a broken or missing drawing shows the game's initials on its colour instead of crashing."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRect, QRectF, Qt
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtWidgets import QListWidget, QStyleOptionViewItem

from desktop.drawn import palette
from desktop.drawn.emblem import EMBLEM_ROLE, NO_COLOUR, EmblemView, game_emblem, initials, item_text_rect, \
    paint_emblem
from desktop.drawn.text import LEAST_PX
from engine.games import GAMES, game_info
from engine.paths import assets_dir, read_toml

from . import fake_games

SVG = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">'
       '<circle cx="32" cy="32" r="20" fill="#FFFFFF" stroke="#1A1A1A" stroke-width="3"/></svg>')


def _shelf_card(folder, game="made-up", colour='"#B22222"', emblem='"emblems/made-up.svg"', drawing=SVG):
    (folder / "emblems").mkdir(parents=True, exist_ok=True)
    lines = ["[game]", f'id = "{game}"']
    lines += [f"colour = {colour}"] if colour is not None else []
    lines += [f"emblem = {emblem}"] if emblem is not None else []
    (folder / f"{game}.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    if drawing is not None:
        data = drawing if isinstance(drawing, bytes) else drawing.encode("utf-8")
        (folder / "emblems" / f"{game}.svg").write_bytes(data)
    return folder


def _count(image: QImage, colour: str, rect: QRect | None = None) -> int:
    rect = rect or image.rect()
    target = QColor(colour).rgb()
    return sum(1 for y in range(rect.top(), rect.bottom() + 1) for x in range(rect.left(), rect.right() + 1)
               if image.pixel(x, y) == target)


def _game_colours() -> dict[str, str]:
    return {g: read_toml(assets_dir() / "games" / f"{g}.toml", ValueError)["game"]["colour"] for g in GAMES}


def test_every_game_on_the_shelf_has_its_own_drawing_on_its_own_colour(qapp):
    colours = _game_colours()
    assert len(set(colours.values())) == len(GAMES)
    for game in GAMES:
        emblem = game_emblem(game, game_info(game).title)
        assert emblem.problem == "" and emblem.drawing is not None, (game, emblem.problem)
        assert emblem.colour == colours[game].upper()


@pytest.mark.parametrize("sight", ["normal", *palette.SIGHTS])
def test_the_games_colours_stay_apart_with_red_green_colour_blindness(sight):
    """Each game's tile is told apart from every other at a glance, whatever the sight."""
    diff, a, b = palette.closest_pair(_game_colours().values(), sight)
    assert diff >= palette.LEAST_DIFFERENCE, f"{a} and {b} look alike ({diff:.1f}) with {sight}"


def test_the_shelf_paints_each_games_colour_beside_its_title(window, qtbot):
    start = window.start
    shelf = start.findChild(QListWidget, "start:shelf")
    window.resize(1366, 728)
    qtbot.wait(50)
    picture = shelf.viewport().grab().toImage()
    for row, game in enumerate(start.games):
        item = shelf.item(row)
        emblem = item.data(EMBLEM_ROLE)
        assert emblem.drawing is not None and item.text().startswith(game_info(game).title[:6])
        rect = shelf.visualItemRect(item)
        left = QRect(rect.left(), rect.top(), rect.height(), rect.height())
        assert _count(picture, emblem.colour, left) > 200, f"{game}'s colour is not beside its title"
    # The chosen game's emblem is beside its facts too.
    start.select_game(start.games[-1])
    assert start.game_emblem.emblem is start.emblems[start.games[-1]]


#: window widths from a small laptop to a desktop, in steps narrower than a word
WIDTHS = range(1280, 1921, 12)


@pytest.mark.parametrize("height", [680, 728, 1040])
def test_no_title_on_the_shelf_is_cut_short_beside_its_emblem(window, qtbot, height):
    """The style wraps a title in the room beside the emblem: every line of it fits the item,
    at every window width (a title one word short of its line is the case to catch)."""
    shelf = window.start.findChild(QListWidget, "start:shelf")
    for width in WIDTHS:
        window.resize(width, height)
        qtbot.wait(5)
        _words_fit(shelf, f"{width}x{height}")
        assert shelf.visualItemRect(shelf.item(shelf.count() - 1)).bottom() <= shelf.viewport().height(), \
            f"{width}x{height}: the shelf needs a scroll bar"


def test_a_long_saved_game_is_shown_whole_in_the_saved_games(window, qtbot):
    """The saved games wrap their long lines too (the same style sheet's padding)."""
    from desktop.games import GameController
    from engine.game import Assist

    names = ["Julie", "Amberley", "Mark"]
    for _ in range(2):          # two games: the list needs its scroll bar, which narrows it
        controller = GameController.new(GAMES_FIRST, names, {n: 30 for n in names}, Assist.FULL,
                                        options={o.id: o.default for o in game_info(GAMES_FIRST).options},
                                        demo=True)
        window._open(controller)
        window.leave_game()
    window.show_start()
    saved = window.start.findChild(QListWidget, "start:saved")
    assert sum(names[1] in saved.item(i).text() for i in range(saved.count())) == 2
    for width in WIDTHS:
        window.resize(width, 728)
        qtbot.wait(5)
        _words_fit(saved, f"{width}x728")
        for i in range(saved.count()):
            assert saved.visualItemRect(saved.item(i)).width() <= saved.viewport().width(), \
                f"{width}x728: an entry is laid out wider than the list shows it"


def _words_fit(view: QListWidget, where: str) -> None:
    delegate = view.itemDelegate()
    for row in range(view.count()):
        index = view.model().index(row, 0)
        option = QStyleOptionViewItem()
        option.initFrom(view)
        option.widget = view
        option.rect = view.visualRect(index)
        delegate.initStyleOption(option, index)
        room = item_text_rect(option, view)
        need = option.fontMetrics.boundingRect(QRect(0, 0, room.width(), 10_000), int(Qt.TextWordWrap), option.text)
        assert need.height() <= room.height(), \
            f"{where}: {option.text!r} needs {need.height()} px, has {room.height()}"
        assert option.decorationSize.height() <= option.rect.height(), where


def test_the_emblem_is_crisp_at_twice_the_pixel_density(qapp):
    """Drawn as vectors on the device pixels: at 2x it is the drawing made twice as big, not the
    1x picture blown up."""
    emblem = game_emblem(GAMES_FIRST, game_info(GAMES_FIRST).title)

    def drawn(pixels: int, ratio: int) -> QImage:
        image = QImage(pixels, pixels, QImage.Format_ARGB32)
        image.setDevicePixelRatio(ratio)
        image.fill(Qt.white)
        p = QPainter(image)
        paint_emblem(p, QRectF(0, 0, pixels / ratio, pixels / ratio), emblem)
        p.end()
        return image

    one, two, big = drawn(52, 1), drawn(104, 2), drawn(104, 1)
    upscaled = one.scaled(two.size(), Qt.IgnoreAspectRatio, Qt.FastTransformation)
    # Inside the tile's edge: only the drawing has detail there.
    pixels = [(x, y) for y in range(12, 92) for x in range(12, 92)]
    blown_up = sum(1 for x, y in pixels if two.pixel(x, y) != upscaled.pixel(x, y))
    unlike_big = sum(1 for x, y in pixels if two.pixel(x, y) != big.pixel(x, y))
    assert blown_up > 1000, "the 2x emblem is only the 1x one blown up"
    assert unlike_big < 50, "the 2x emblem is not the drawing at twice the size"


GAMES_FIRST = next(iter(GAMES))


@pytest.mark.parametrize("case, card", [
    ("missing file", dict(drawing=None)),
    ("not an SVG", dict(drawing=b"\x89PNG\r\n\x1a\n\x00\x00 broken")),
    ("cut short", dict(drawing=SVG[:40])),
    ("empty drawing", dict(drawing="<svg xmlns='http://www.w3.org/2000/svg'/>")),
    ("outside the folder", dict(emblem='"../../secret.svg"')),
    ("no emblem named", dict(emblem=None)),
    ("not a name", dict(emblem="3")),
    ("too large", dict(drawing=SVG.replace("</svg>", "<!--" + "x" * 300_000 + "--></svg>"))),
])
def test_a_broken_or_missing_drawing_gives_the_games_initials_in_its_colour(qtbot, tmp_path, case, card):
    folder = _shelf_card(tmp_path / "games", **card)
    emblem = game_emblem("made-up", "The Marble Mystery", folder)
    assert emblem.drawing is None and emblem.problem, case
    assert emblem.initials == "MM" and emblem.colour == "#B22222"
    view = EmblemView(56)
    qtbot.addWidget(view)
    view.set_emblem(emblem)
    (drawn,) = view.drawn_texts()
    assert drawn.text == "MM" and drawn.px >= LEAST_PX and drawn.fits
    picture = view.grab().toImage()
    assert _count(picture, "#B22222") > 1000                   # the tile in the game's colour
    assert _count(picture, palette.readable_ink("#B22222")) > 30  # the initials on it


@pytest.mark.parametrize("colour", [None, '"red"', '"#12345"', "12"])
def test_a_missing_or_malformed_colour_gives_a_plain_grey_tile(qapp, tmp_path, colour):
    folder = _shelf_card(tmp_path / "games", colour=colour)
    emblem = game_emblem("made-up", "The Marble Mystery", folder)
    assert emblem.colour == NO_COLOUR and "'colour'" in emblem.problem
    assert emblem.drawing is not None                       # the drawing still shows


def test_an_unreadable_shelf_card_gives_the_initials_on_grey(qapp, tmp_path):
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "made-up.toml").write_bytes(b"[game\nid = ")
    emblem = game_emblem("made-up", "Sudden Clue", folder)
    assert (emblem.drawing, emblem.colour, emblem.initials) == (None, NO_COLOUR, "SC")
    assert "not valid TOML" in emblem.problem


def test_the_start_screen_opens_with_a_broken_emblem_and_shows_the_initials(monkeypatch, tmp_path, qtbot, qapp):
    """A family's damaged install: one game's drawing is garbage, the other's is gone."""
    fake_games.install(monkeypatch, tmp_path)
    games = tmp_path / "assets" / "games"
    with_die = games / "fake-with-die.toml"
    with_die.write_text(with_die.read_text(encoding="utf-8").replace(
        "[game]\n", '[game]\ncolour = "#1F5FA8"\nemblem = "emblems/fake-with-die.svg"\n'), encoding="utf-8")
    (games / "emblems").mkdir(exist_ok=True)
    (games / "emblems" / "fake-with-die.svg").write_bytes(b"<svg><g>\x00\xff not closed")
    from desktop.main_window import MainWindow
    from desktop.style import apply_style

    apply_style(qapp)
    win = MainWindow()
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    start = win.start
    broken, missing = start.emblems["fake-with-die"], start.emblems["fake-no-die"]
    assert (broken.drawing, broken.colour, broken.initials) == (None, "#1F5FA8", "FG")
    assert (missing.drawing, missing.colour) == (None, NO_COLOUR)
    start.select_game("fake-with-die")
    qtbot.wait(20)
    assert [d.text for d in start.game_emblem.drawn_texts()] == ["FG"]
    shelf = start.findChild(QListWidget, "start:shelf")
    picture = shelf.viewport().grab().toImage()
    rect = shelf.visualItemRect(shelf.item(0))
    assert _count(picture, "#1F5FA8", QRect(rect.left(), rect.top(), rect.height(), rect.height())) > 200
    win.close()


def test_a_build_without_svg_support_shows_the_initials(qapp, monkeypatch):
    from desktop.drawn import emblem as emblem_module

    monkeypatch.setattr(emblem_module, "QSvgRenderer", None)
    emblem = game_emblem(GAMES_FIRST, game_info(GAMES_FIRST).title)
    assert emblem.drawing is None and "no SVG support" in emblem.problem
    assert emblem.colour == _game_colours()[GAMES_FIRST].upper()


def test_initials_come_from_the_first_words_that_matter():
    assert initials("The 39 Clues: Double-Cross") == "39C"
    assert initials("Where in the USA is Carmen Sandiego") == "WU"
    assert initials("Sudds & Malone") == "SM"
    assert initials("The") == "T"
