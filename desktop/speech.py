"""Reading aloud what the table is asked (a question, whose turn, what to do), off by default.

Uses the system's own voice, offline, the way ``sounds.py`` uses the system's player:
``say`` on macOS, Windows' speech synthesizer through PowerShell, ``espeak-ng``/``espeak``/
``spd-say`` on Linux. The text goes to the program as an argument or on standard input,
never through a shell. Only the shared screen's words are spoken, never a private screen.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from typing import Callable

WINDOWS_SPEAK = ("Add-Type -AssemblyName System.Speech; "
                 "(New-Object System.Speech.Synthesis.SpeechSynthesizer).Speak([Console]::In.ReadToEnd())")


def voice_command(text: str, platform: str = sys.platform,
                  which: Callable[[str], str | None] = shutil.which) -> tuple[list[str], str | None] | None:
    """(command, standard input) that speaks ``text`` here, or None when no voice is installed.

    >>> voice_command("Ann's turn", "darwin", lambda name: "/usr/bin/say")
    (['say', "Ann's turn"], None)
    >>> voice_command("Ann's turn", "linux", lambda name: None) is None
    True
    """
    if platform == "darwin" and which("say"):
        return ["say", text], None
    if platform == "win32" and which("powershell"):
        return ["powershell", "-NoProfile", "-NonInteractive", "-Command", WINDOWS_SPEAK], text
    for program in ("espeak-ng", "espeak"):
        if which(program):
            return [program, "--", text], None
    if which("spd-say"):
        return ["spd-say", "--wait", "--", text], None
    return None


class Speaker:
    """Speaks one text at a time (a new one cuts the last short); silent while switched off."""

    def __init__(self, enabled: Callable[[], bool] = lambda: False,
                 run: Callable[[list[str], str | None], object] | None = None) -> None:
        self.enabled = enabled
        self._run = run or _start
        self._last: object | None = None
        self.spoken: list[str] = []

    def say(self, text: str) -> bool:
        """Speak ``text`` if reading aloud is on and a voice exists; returns whether it was sent."""
        if not self.enabled() or not text.strip():
            return False
        command = voice_command(text)
        if command is None:
            return False
        self.stop()
        try:
            self._last = self._run(*command)
        except OSError:
            return False
        self.spoken.append(text)
        return True

    def stop(self) -> None:
        """Cut the text being read short (a new text, or the game it was about has closed)."""
        stop = getattr(self._last, "terminate", None)
        self._last = None
        if stop is not None:
            try:
                stop()
            except OSError:
                pass


def _start(command: list[str], stdin: str | None) -> subprocess.Popen:
    process = subprocess.Popen(command, stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, text=True)
    if stdin is not None and process.stdin is not None:
        process.stdin.write(stdin)
        process.stdin.close()
    return process
