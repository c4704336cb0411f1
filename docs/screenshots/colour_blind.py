"""Write copies of screenshots as seen with red-green colour blindness (deuteranopia and
protanopia), to look at them before a table ships:

    .venv/bin/python docs/screenshots/colour_blind.py [SHOT.png ...]

With no file named, every ``NN-*.png`` here is copied. The copies go to
``docs/screenshots/colour-blind/<name>-<sight>.png``. The simulation is the one the palette
test uses (``desktop/drawn/palette.py``: Machado, Oliveira and Fernandes 2009, on linear RGB).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np  # noqa: E402
from PySide6.QtGui import QGuiApplication, QImage  # noqa: E402

from desktop.drawn.palette import SIGHTS  # noqa: E402

OUT = HERE / "colour-blind"


def _to_linear(srgb: np.ndarray) -> np.ndarray:
    c = srgb / 255.0
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def _to_srgb(linear: np.ndarray) -> np.ndarray:
    c = np.clip(linear, 0.0, 1.0)
    c = np.where(c <= 0.0031308, c * 12.92, 1.055 * c ** (1 / 2.4) - 0.055)
    return np.round(c * 255).astype(np.uint8)


def simulate(image: QImage, sight: str) -> QImage:
    """``image`` as someone with ``sight`` (a key of ``SIGHTS``) sees it."""
    rgb = image.convertToFormat(QImage.Format_RGB888)
    w, h, stride = rgb.width(), rgb.height(), rgb.bytesPerLine()
    raw = np.frombuffer(rgb.constBits(), dtype=np.uint8, count=stride * h).reshape(h, stride)[:, : w * 3]
    pixels = raw.reshape(h, w, 3).astype(np.float64)
    seen = _to_srgb(_to_linear(pixels) @ np.array(SIGHTS[sight]).T)
    data = np.ascontiguousarray(seen)
    out = QImage(data.data, w, h, w * 3, QImage.Format_RGB888)
    return out.copy()              # the numpy buffer goes away with this function


def main(argv: list[str]) -> int:
    app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])  # noqa: F841 (QImage needs it)
    shots = [Path(a) for a in argv] or sorted(p for p in HERE.glob("[0-9][0-9]-*.png"))
    OUT.mkdir(exist_ok=True)
    for shot in shots:
        image = QImage(str(shot))
        if image.isNull():
            print(f"{shot}: not an image, skipped", file=sys.stderr)
            continue
        for sight in SIGHTS:
            target = OUT / f"{shot.stem}-{sight}.png"
            simulate(image, sight).save(str(target))
            print("saved", target.relative_to(HERE.parents[1]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
