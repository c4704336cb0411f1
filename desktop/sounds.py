"""Short sounds for what happens at the table: a card read, a match, a miss, the end.

PySide6-Essentials has no QtMultimedia, so a sound is played by what each system has:
``winsound`` on Windows, ``afplay`` on macOS, ``paplay``/``aplay`` on Linux, and Qt's beep
when none is there. Playing never blocks the screen and never raises.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path
from typing import Callable, Iterable

from engine.events import Event
from engine.paths import assets_dir

NAMES = ("tick", "match", "no-match", "win", "lose")


def sound_for(events: Iterable[Event]) -> str | None:
    """The sound for what an action did, judged from its public events (the loudest wins)."""
    chosen = None
    for e in events:
        if e.visibility.scope != "public":
            continue
        if e.type == "game_over":
            return "win" if e.data.get("winners") else "lose"
        if e.type == "eliminated":
            chosen = "lose"
        elif e.type == "verdict" and chosen is None:
            chosen = "match" if e.data.get("match") else "no-match"
    return chosen


def system_player() -> Callable[[Path], None] | None:
    """A function that starts playing a WAV file without waiting, or None if this system has none."""
    if sys.platform == "win32":
        import winsound

        return lambda path: winsound.PlaySound(str(path), winsound.SND_FILENAME | winsound.SND_ASYNC)
    for command in (["afplay"], ["paplay"], ["aplay", "-q"]):
        if shutil.which(command[0]):
            return lambda path, c=command: subprocess.Popen(
                [*c, str(path)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return None


class Sounds:
    """Plays the named sounds from ``assets/sounds/`` when enabled."""

    def __init__(self, enabled: Callable[[], bool] = lambda: True,
                 player: Callable[[Path], None] | None = None, fallback: Callable[[], None] | None = None) -> None:
        self.enabled = enabled
        self.player = player if player is not None else system_player()
        self.fallback = fallback
        self.folder = assets_dir() / "sounds"

    def play(self, name: str) -> None:
        if not self.enabled():
            return
        path = self.folder / f"{name}.wav"
        try:
            if self.player is not None and path.exists():
                self.player(path)
                return
        except OSError:
            pass                      # a broken audio setup must not stop the game
        if self.fallback is not None:
            self.fallback()

    def play_for(self, events: Iterable[Event]) -> None:
        name = sound_for(events)
        if name is not None:
            self.play(name)
