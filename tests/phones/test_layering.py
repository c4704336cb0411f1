"""Issue 22: phones/ sits beside engine and vision, never on Qt or the desktop, and names no game
(any game is served through the engine's prompt and journal); the page's files name none either."""

from __future__ import annotations

import re

from tests.layering import ROOT, assert_imports_none_of


def test_phones_never_imports_qt_or_the_desktop():
    assert_imports_none_of(("phones", "phones.server", "phones.photos", "phones.qr", "phones.network", "phones.guard"),
                           ("PySide6", "shiboken6", "desktop"))


def test_engine_and_vision_never_import_phones():
    for package in ("engine", "vision"):
        for path in (ROOT / package).rglob("*.py"):
            assert not re.search(r"^\s*(from|import)\s+phones\b", path.read_text(encoding="utf-8"), re.M), path


def test_no_phones_module_or_page_file_names_a_game():
    from engine.games import GAMES, game_info

    words = set()
    for game, target in GAMES.items():
        words |= {game, game_info(game).title, target.split(":")[0]}
        words |= set(re.findall(r"[a-z]+", game))
    words -= {"cards", "clues", "usa", "the"}
    files = [*(ROOT / "phones").rglob("*.py"), *(ROOT / "assets" / "phones").iterdir(),
             *(ROOT / "desktop").glob("phones*.py")]
    offenders = [f"{p.relative_to(ROOT)}: {w}" for p in files for w in words
                 if w.lower() in p.read_text(encoding="utf-8").lower()]
    assert offenders == []
