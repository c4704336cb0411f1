"""Writes the app's short sounds (16-bit mono WAV) next to this file. Run once after a change:

    python assets/sounds/make_sounds.py

Plain tones, made here rather than downloaded, so their licence is ours.
"""

from __future__ import annotations

import math
import struct
import wave
from pathlib import Path

RATE = 22050

# name -> notes as (frequency Hz or 0 for a rest, seconds)
SOUNDS = {
    "tick": [(1760, 0.06)],                                           # a card was read
    "match": [(659, 0.12), (880, 0.18)],                              # the pair matches
    "no-match": [(330, 0.18), (262, 0.28)],                           # it does not
    "win": [(523, 0.12), (659, 0.12), (784, 0.12), (1047, 0.32)],     # Carmen arrested
    "lose": [(392, 0.2), (370, 0.2), (349, 0.2), (330, 0.4)],         # Carmen escaped / out of the game
}


def tone(freq: float, seconds: float) -> list[int]:
    n = int(RATE * seconds)
    fade = max(1, int(RATE * 0.01))       # 10 ms fades: no clicks at the edges
    out = []
    for i in range(n):
        envelope = min(1.0, i / fade, (n - i) / fade)
        out.append(int(0.35 * 32767 * envelope * math.sin(2 * math.pi * freq * i / RATE)) if freq else 0)
    return out


def main() -> None:
    here = Path(__file__).parent
    for name, notes in SOUNDS.items():
        samples = [s for freq, secs in notes for s in tone(freq, secs)]
        with wave.open(str(here / f"{name}.wav"), "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(RATE)
            w.writeframes(struct.pack(f"<{len(samples)}h", *samples))


if __name__ == "__main__":
    main()
