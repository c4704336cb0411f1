"""Writes assets/selftest/tag.png: one AprilTag sticker and one QR sticker of the same card,
drawn by vision's own sticker renderer. `gumshoe --self-test` decodes it with every decoder.

Run once (and again only if vision's tag drawing changes):
    .venv/bin/python installer/tools/make_selftest_tag.py
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from PIL import Image  # noqa: E402

from desktop.self_test import SELFTEST_CARD, SELFTEST_NAME  # noqa: E402
from vision import TagKind, TagRegistry, render_sticker  # noqa: E402

DPI = 200      # a 20 mm tag is ~157 px: well inside every decoder's comfortable range
MARGIN = 40
TAG_IMAGE = ROOT / "assets" / "selftest" / "tag.png"


def main() -> int:
    tag_id = TagRegistry.load().tag_for_card(SELFTEST_CARD)
    april = render_sticker(SELFTEST_CARD, SELFTEST_NAME, tag_id, TagKind.APRILTAG, dpi=DPI)
    qr = render_sticker(SELFTEST_CARD, SELFTEST_NAME, tag_id, TagKind.QR, dpi=DPI)
    width = april.width + qr.width + 3 * MARGIN
    height = max(april.height, qr.height) + 2 * MARGIN
    sheet = Image.new("L", (width, height), 255)
    sheet.paste(april, (MARGIN, MARGIN))
    sheet.paste(qr, (2 * MARGIN + april.width, MARGIN))
    TAG_IMAGE.parent.mkdir(parents=True, exist_ok=True)
    sheet.save(TAG_IMAGE, optimize=True)
    print(f"wrote {TAG_IMAGE.relative_to(ROOT)} ({width}x{height}, AprilTag id {tag_id} + QR of {SELFTEST_CARD})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
