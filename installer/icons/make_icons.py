"""App icons from one source image.

    .venv/bin/python installer/icons/make_icons.py            # draw source.png if missing, then derive
    .venv/bin/python installer/icons/make_icons.py --redraw   # redraw source.png too

source.png (1024x1024, a magnifying glass over a card) is the one image every icon comes from:
gumshoe.ico (Windows: 16-256 px), gumshoe.icns (macOS: 16-1024 px, Pillow's ICNS writer; on a
Mac `iconutil` gives the same result from gumshoe.iconset/), gumshoe.png (256 px, Linux, window).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

from PIL import Image, ImageDraw

HERE = Path(__file__).resolve().parent
SOURCE = HERE / "source.png"
ICO_SIZES = [16, 20, 24, 32, 40, 48, 64, 128, 256]
ICNS_SIZES = [16, 32, 64, 128, 256, 512, 1024]


def draw_source(path: Path = SOURCE, size: int = 1024) -> None:
    """A magnifying glass over a playing card, on a rounded square (drawn 4x, then shrunk: smooth edges)."""
    s = size * 4
    img = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    u = s / 100
    d.rounded_rectangle([4 * u, 4 * u, 96 * u, 96 * u], radius=20 * u, fill=(36, 52, 84, 255))       # navy tile
    d.rounded_rectangle([18 * u, 14 * u, 62 * u, 74 * u], radius=5 * u, fill=(245, 240, 228, 255))  # card
    for i, y in enumerate((24, 32, 40)):                                                            # card text
        d.rounded_rectangle([24 * u, y * u, (52 - 8 * (i == 2)) * u, (y + 3) * u], radius=1.5 * u, fill=(170, 160, 140, 255))
    # the glass: handle first, then the rim and a pale lens
    d.line([(66 * u, 66 * u), (86 * u, 86 * u)], fill=(120, 72, 40, 255), width=int(10 * u))
    d.ellipse([(84 - 6) * u, (84 - 6) * u, (84 + 6) * u, (84 + 6) * u], fill=(120, 72, 40, 255))
    cx, cy, r = 52 * u, 52 * u, 22 * u
    d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=(200, 60, 50, 255))                               # red rim
    r2 = r - 5 * u
    d.ellipse([cx - r2, cy - r2, cx + r2, cy + r2], fill=(205, 230, 245, 235))                         # lens
    d.arc([cx - r2 + 4 * u, cy - r2 + 4 * u, cx + r2 - 4 * u, cy + r2 - 4 * u], 200, 250, fill=(255, 255, 255, 255), width=int(2.5 * u))
    img.resize((size, size), Image.LANCZOS).save(path)


def derive(source: Path = SOURCE) -> list[Path]:
    src = Image.open(source).convert("RGBA")
    out = []
    ico = HERE / "gumshoe.ico"
    src.save(ico, sizes=[(n, n) for n in ICO_SIZES])
    out.append(ico)
    png = HERE / "gumshoe.png"
    src.resize((256, 256), Image.LANCZOS).save(png)
    out.append(png)
    icns = HERE / "gumshoe.icns"
    if sys.platform == "darwin" and shutil.which("iconutil"):
        iconset = HERE / "build" / "gumshoe.iconset"
        iconset.mkdir(parents=True, exist_ok=True)
        for n in (16, 32, 128, 256, 512):
            src.resize((n, n), Image.LANCZOS).save(iconset / f"icon_{n}x{n}.png")
            src.resize((2 * n, 2 * n), Image.LANCZOS).save(iconset / f"icon_{n}x{n}@2x.png")
        subprocess.run(["iconutil", "-c", "icns", str(iconset), "-o", str(icns)], check=True)
        shutil.rmtree(iconset.parent)
    else:
        src.save(icns, sizes=[(n, n) for n in ICNS_SIZES])  # ignored by some Pillow versions: all sizes are written
    out.append(icns)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--redraw", action="store_true", help="redraw source.png")
    args = parser.parse_args()
    if args.redraw or not SOURCE.exists():
        draw_source()
        print(f"drew {SOURCE.name}")
    for path in derive():
        print(f"wrote {path.name} ({path.stat().st_size // 1024} KB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
