"""Tag images and stickers: the one drawing code used by printed sheets AND the synthetic table.

A sticker carries the tag twice, in opposite corners (top-left and bottom-right), with the
card's name printed small between them, so a card held by one corner still shows one whole tag.

>>> img = render_sticker("carmen.loot.gandhis-glasses", "Gandhi's Glasses", tag_id=14, kind=TagKind.APRILTAG)
>>> img.mode, img.size[0] < img.size[1]
('L', True)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from functools import lru_cache

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from vision.payload import encode_payload

DEFAULT_DPI = 300
MM_PER_INCH = 25.4


class TagKind(str, Enum):
    APRILTAG = "apriltag"
    QR = "qr"


APRILTAG_DICTIONARY = cv2.aruco.DICT_APRILTAG_36h11


@lru_cache(maxsize=1)
def apriltag_dictionary() -> cv2.aruco.Dictionary:
    return cv2.aruco.getPredefinedDictionary(APRILTAG_DICTIONARY)


def apriltag_modules(tag_id: int) -> np.ndarray:
    """8x8 uint8 modules (0 black, 255 white) of AprilTag 36h11 `tag_id`, black border included."""
    return cv2.aruco.generateImageMarker(apriltag_dictionary(), int(tag_id), 8, borderBits=1)


@lru_cache(maxsize=2048)
def qr_modules(card_id: str) -> np.ndarray:
    """QR Model 2 modules (0 black, 255 white) for a card's payload, without quiet zone."""
    import zxingcpp  # local: only QR users pay for the import

    code = zxingcpp.create_barcode(encode_payload(card_id), zxingcpp.BarcodeFormat.QRCodeModel2, ec_level="M")
    modules = np.array(code.to_image(scale=1, add_quiet_zones=False), dtype=np.uint8)
    modules.setflags(write=False)
    return modules


def tag_modules(kind: TagKind, card_id: str, tag_id: int) -> tuple[np.ndarray, int]:
    """The module matrix and the quiet zone (in modules) the tag needs around it.

    `tag_id` is the registry's tag number: 0-586 AprilTag 36h11 (drawn by OpenCV, as every printed
    Carmen sticker was), 1000 and up tagStandard41h12 (drawn from the AprilTag library's codewords).
    """
    if TagKind(kind) is TagKind.QR:
        return qr_modules(card_id), 2  # 2 modules is enough for zxing-cpp and keeps stickers small
    from vision.registry import family_code  # registry imports decks only; no cycle at call time

    family, code = family_code(int(tag_id))
    if family == "tag36h11":
        return apriltag_modules(code), 1  # AprilTag needs one white module around its black border
    from vision.apriltag_lib import AprilTagLibrary

    # 9x9, its outermost ring is data: one white module around it keeps it apart from the card.
    return AprilTagLibrary.get().tag_image(family, code), 1


def font(size_px: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """The bundled Pillow font: identical on every machine, no system font needed."""
    return ImageFont.load_default(size=max(6, int(size_px)))


@dataclass(frozen=True)
class StickerLayout:
    """Sticker geometry in pixels. Tag side = the tag's own square, quiet zone excluded."""

    tag_px: int
    quiet_px: int
    width: int
    height: int
    text_band: tuple[int, int]  # top, bottom of the name band
    tag_origins: tuple[tuple[int, int], ...]  # top-left of each tag (x, y)


def sticker_layout(tag_px: int, quiet_px: int, double: bool = True) -> StickerLayout:
    block = tag_px + 2 * quiet_px
    band = max(int(0.30 * tag_px), 12)
    width = int(round(1.5 * block))
    height = 2 * block + band
    first = (quiet_px, quiet_px)
    second = (width - block + quiet_px, block + band + quiet_px)
    origins = (first, second) if double else (first,)
    return StickerLayout(tag_px, quiet_px, width, height, (block, block + band), origins)


def render_sticker(card_id: str, name: str, tag_id: int, kind: TagKind | str = TagKind.APRILTAG,
                   tag_mm: float = 20.0, dpi: int = DEFAULT_DPI, double: bool = True) -> Image.Image:
    """A sticker as an 8-bit grayscale image at `dpi`; the tag's black square is `tag_mm` wide."""
    kind = TagKind(kind)
    modules, quiet_modules = tag_modules(kind, card_id, tag_id)
    tag_px = int(round(tag_mm / MM_PER_INCH * dpi))
    quiet_px = int(np.ceil(tag_px * quiet_modules / modules.shape[0]))
    layout = sticker_layout(tag_px, quiet_px, double)
    sticker = Image.new("L", (layout.width, layout.height), 255)
    # Nearest-neighbour keeps module edges sharp; each module is within one pixel of the same size.
    tag_img = Image.fromarray(modules).resize((tag_px, tag_px), Image.NEAREST)
    for x, y in layout.tag_origins:
        sticker.paste(tag_img, (x, y))
    _draw_name(sticker, name, layout)
    return sticker


def _draw_name(sticker: Image.Image, name: str, layout: StickerLayout) -> None:
    draw = ImageDraw.Draw(sticker)
    top, bottom = layout.text_band
    band_h = bottom - top
    max_w = layout.width - 2 * layout.quiet_px
    size = max(6, int(band_h * 0.42))
    while True:
        f = font(size)
        lines = _wrap(draw, name, f, max_w)
        line_h = int(size * 1.1)
        if (len(lines) <= 2 and all(draw.textlength(ln, font=f) <= max_w for ln in lines)) or size <= 6:
            break
        size -= 1
    y = top + (band_h - line_h * len(lines)) // 2
    for ln in lines[:2]:
        w = draw.textlength(ln, font=f)
        draw.text(((layout.width - w) / 2, y), ln, fill=70, font=f)  # dark gray: readable, not a tag edge
        y += line_h


def _wrap(draw: ImageDraw.ImageDraw, text: str, f, max_w: int) -> list[str]:
    words, lines, current = text.split(), [], ""
    for word in words:
        trial = f"{current} {word}".strip()
        if current and draw.textlength(trial, font=f) > max_w:
            lines.append(current)
            current = word
        else:
            current = trial
    if current:
        lines.append(current)
    return lines or [""]
