"""Issue 22: phones/ sits beside engine and vision, never on Qt or the desktop, and names no game
(any game is served through the engine's prompt and journal); the page's files name none either."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_phones_never_imports_qt_or_the_desktop():
    code = ("import sys, phones, phones.server, phones.photos, phones.qr, phones.network, phones.guard; "
            "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'shiboken6', 'desktop')); "
            "print(bad); sys.exit(1 if bad else 0)")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr


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
