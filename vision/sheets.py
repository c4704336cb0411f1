"""Printable sticker sheets: a multi-page 300 dpi PDF with cut guides and a calibration ruler.

The app calls `print_tags` with a progress callback; the CLI is
`python -m vision print-tags DECK [--kind apriltag|qr] [--size 20mm] [--paper a4|letter] -o FILE.pdf`.

>>> result = print_tags("carmen", "carmen-tags.pdf", progress=lambda done, total: None)
>>> result.pages, result.stickers
(3, 39)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from PIL import Image, ImageDraw

from vision.decks import Deck, DeckError, load_deck
from vision.registry import TagRegistry, family_deck
from vision.tags import DEFAULT_DPI, MM_PER_INCH, TagKind, font, render_sticker

PAPER_MM = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
MARGIN_MM = 10.0
GAP_MM = 4.0  # between stickers: room to cut without touching a tag's quiet zone
CALIBRATION_MM = 30  # side of the calibration square
RULER_MM = 100
HEADER_MM = 38.0
MIN_TAG_MM, MAX_TAG_MM = 8.0, 60.0

Progress = Callable[[int, int], None]


class SheetError(ValueError):
    """Bad sheet options (size, paper); the message says what is allowed."""


@dataclass(frozen=True)
class PrintResult:
    path: Path
    pages: int
    stickers: int
    stickers_per_page: int


def parse_size_mm(text: str | float) -> float:
    """'20mm', '2cm', '0.8in' or a number of millimetres -> millimetres."""
    if isinstance(text, (int, float)):
        value = float(text)
    else:
        m = re.fullmatch(r"\s*([0-9]+(?:\.[0-9]+)?)\s*(mm|cm|in)?\s*", text.lower())
        if not m:
            raise SheetError(f"tag size {text!r} is not like '20mm', '2cm' or '0.8in'")
        value = float(m.group(1)) * {"mm": 1.0, None: 1.0, "cm": 10.0, "in": MM_PER_INCH}[m.group(2)]
    if not MIN_TAG_MM <= value <= MAX_TAG_MM:
        raise SheetError(f"tag size {value:g} mm is outside {MIN_TAG_MM:g}-{MAX_TAG_MM:g} mm")
    return value


def _px(mm: float, dpi: int) -> int:
    return int(round(mm / MM_PER_INCH * dpi))


def render_pages(deck: Deck | str | Path, kind: TagKind | str = TagKind.APRILTAG, size_mm: float | str = 20.0,
                 paper: str = "a4", registry: TagRegistry | None = None, progress: Progress | None = None,
                 dpi: int = DEFAULT_DPI) -> list[Image.Image]:
    """The sheet pages as grayscale images (what `print_tags` writes into the PDF)."""
    return _render(deck, kind, size_mm, paper, registry, progress, dpi)[0]


def find_deck(deck: Deck | str | Path) -> Deck:
    """A deck by id, game or file; or the cards a family registered for a game (its block's file)."""
    if isinstance(deck, Deck):
        return deck
    try:
        return load_deck(deck)
    except DeckError:
        own = family_deck(str(deck)) if not Path(deck).suffix else None
        if own is None:
            raise
        if not own.cards:
            raise SheetError(f"no {own.game} card has a tag number yet: register your cards in the app's "
                             f"library first") from None
        return own


def _render(deck, kind, size_mm, paper, registry, progress, dpi) -> tuple[list[Image.Image], int, int]:
    deck = find_deck(deck)
    registry = registry or TagRegistry.load()
    cards = list(deck.cards)
    tag_ids = [registry.tag_for_card(c.card_id) for c in cards]  # fails early if the registry is stale
    if not cards:
        raise SheetError(f"deck {deck.deck_id} has no cards")
    items = [(c.card_id, c.name, t) for c, t in zip(cards, tag_ids)]
    return _render_items(items, deck.name, kind, size_mm, paper, progress, dpi)


def _render_items(items: list[tuple[str, str, int]], title: str, kind, size_mm, paper, progress,
                  dpi) -> tuple[list[Image.Image], int, int]:
    """Pages of stickers ``(card id, words printed on the sticker, tag number)``."""
    kind = TagKind(kind)
    size_mm = parse_size_mm(size_mm)
    if paper.lower() not in PAPER_MM:
        raise SheetError(f"paper {paper!r} is not one of: {', '.join(PAPER_MM)}")
    page_w, page_h = (_px(v, dpi) for v in PAPER_MM[paper.lower()])
    margin, gap, header = _px(MARGIN_MM, dpi), _px(GAP_MM, dpi), _px(HEADER_MM, dpi)

    tag_ids = [t for _, _, t in items]
    total = len(items)
    april = "AprilTag " + " + ".join(sorted({"41h12" if t >= 1000 else "36h11" for t in tag_ids}) or ["36h11"])
    stickers: list[Image.Image] = []
    for i, (card_id, name, tag_id) in enumerate(items):
        stickers.append(render_sticker(card_id, name, tag_id, kind, size_mm, dpi))
        if progress:
            progress(i + 1, total)
    if not stickers:
        raise SheetError("no stickers to print")

    cell_w, cell_h = stickers[0].width + gap, max(s.height for s in stickers) + gap
    cols = (page_w - 2 * margin + gap) // cell_w
    rows = (page_h - 2 * margin - header + gap) // cell_h
    if cols < 1 or rows < 1:
        raise SheetError(f"a {size_mm:g} mm tag does not fit on {paper} paper")
    per_page = cols * rows
    page_count = -(-total // per_page)

    pages = []
    for p in range(page_count):
        page = Image.new("L", (page_w, page_h), 255)
        draw = ImageDraw.Draw(page)
        chunk = stickers[p * per_page:(p + 1) * per_page]
        subtitle = f"{april if kind is TagKind.APRILTAG else 'QR code'} · tag {size_mm:g} mm · " \
                   f"page {p + 1} of {page_count} · {total} stickers"
        _draw_header(draw, margin, margin, page_w - 2 * margin, title, subtitle, dpi)
        # Centre the grid horizontally so cut guides are symmetric.
        used_cols = min(cols, len(chunk))
        x0 = (page_w - (used_cols * cell_w - gap)) // 2
        y0 = margin + header
        for i, sticker in enumerate(chunk):
            r, c = divmod(i, cols)
            page.paste(sticker, (x0 + c * cell_w, y0 + r * cell_h))
        _draw_cut_guides(draw, x0, y0, len(chunk), cols, cell_w, cell_h, gap, dpi)
        pages.append(page)
    return pages, per_page, total


def _draw_header(draw: ImageDraw.ImageDraw, x: int, y: int, width: int, title: str, subtitle: str, dpi: int) -> None:
    sq = _px(CALIBRATION_MM, dpi)
    line = max(2, _px(0.3, dpi))
    # Calibration square: outer edge exactly CALIBRATION_MM; the line is drawn inside it.
    draw.rectangle([x, y, x + sq - 1, y + sq - 1], outline=0, width=line)
    f_small = font(_px(2.6, dpi))
    label = f"{CALIBRATION_MM} mm"
    draw.text((x + (sq - draw.textlength(label, font=f_small)) / 2, y + sq / 2 - _px(1.5, dpi)), label, fill=0, font=f_small)

    tx = x + sq + _px(6, dpi)
    draw.text((tx, y), f"Gumshoe tag stickers - {title}", fill=0, font=font(_px(4.2, dpi)))
    draw.text((tx, y + _px(6.5, dpi)), subtitle, fill=0, font=font(_px(3.0, dpi)))
    draw.text((tx, y + _px(11, dpi)),
              f"Printer check: the square must be {CALIBRATION_MM} mm and the ruler {RULER_MM} mm. "
              "If not, print again at 100% / 'Actual size'.", fill=0, font=f_small)

    # Ruler: mm ticks, 5 mm half ticks, numbered cm.
    rx, ry = tx, y + _px(23, dpi)
    length = _px(RULER_MM, dpi)
    draw.line([rx, ry, rx + length, ry], fill=0, width=line)
    for mm in range(RULER_MM + 1):
        px = rx + _px(mm, dpi)
        tick = _px(5 if mm % 10 == 0 else 3 if mm % 5 == 0 else 1.8, dpi)
        draw.line([px, ry, px, ry + tick], fill=0, width=max(1, line // 2 if mm % 10 else line))
        if mm % 10 == 0:
            num = str(mm // 10)
            draw.text((px - draw.textlength(num, font=f_small) / 2, ry + _px(5.5, dpi)), num, fill=0, font=f_small)
    draw.text((rx + length + _px(2, dpi), ry + _px(1, dpi)), "cm", fill=0, font=f_small)


def _draw_cut_guides(draw: ImageDraw.ImageDraw, x0: int, y0: int, count: int, cols: int,
                     cell_w: int, cell_h: int, gap: int, dpi: int) -> None:
    """A dashed box in the middle of the gaps around every sticker: cut along it."""
    dash, width, gray = _px(2, dpi), max(1, _px(0.15, dpi)), 150
    half = gap // 2
    for i in range(count):
        r, c = divmod(i, cols)
        left, top = x0 - half + c * cell_w, y0 - half + r * cell_h
        right, bottom = left + cell_w, top + cell_h
        # Shared edges of neighbours start at the same point, so their dashes coincide.
        for x in (left, right):
            for yy in range(top, bottom, 2 * dash):
                draw.line([x, yy, x, min(yy + dash, bottom)], fill=gray, width=width)
        for y in (top, bottom):
            for xx in range(left, right, 2 * dash):
                draw.line([xx, y, min(xx + dash, right), y], fill=gray, width=width)


def _bilevel(page: Image.Image) -> Image.Image:
    # Pillow stores "L" pages as JPEG (soft tag edges) or, as a palette, uncompressed hex (50 MB).
    # Black and white at 300 dpi is what printers do best and stays small (CCITT G4 / Flate).
    return page.point(lambda v: 255 if v >= 160 else 0).convert("1", dither=Image.Dither.NONE)


def print_tags(deck: Deck | str | Path, output: str | Path, kind: TagKind | str = TagKind.APRILTAG,
               size_mm: float | str = 20.0, paper: str = "a4", registry: TagRegistry | None = None,
               progress: Progress | None = None, dpi: int = DEFAULT_DPI) -> PrintResult:
    """Write the sticker sheets of a deck (id, game or file path) to a PDF.

    `progress(done, total)` is called after each sticker is drawn (e.g. for a progress bar).
    """
    pages, per_page, stickers = _render(deck, kind, size_mm, paper, registry, progress, dpi)
    output = Path(output)
    output.parent.mkdir(parents=True, exist_ok=True)
    converted = [_bilevel(p) for p in pages]
    converted[0].save(output, "PDF", save_all=True, append_images=converted[1:], resolution=float(dpi))
    return PrintResult(output, len(pages), stickers, per_page)


def spare_sticker_words(number: int) -> str:
    """What a sticker printed to attach later says between its tags (its number: it can also be typed)."""
    return f"Sticker {number}"


def print_spare_tags(game: str, numbers: list[int], output: str | Path, size_mm: float | str = 20.0,
                     paper: str = "a4", progress: Progress | None = None, dpi: int = DEFAULT_DPI) -> PrintResult:
    """Sheets of stickers to attach later: tag ``numbers`` of the game's block (already recorded with
    ``vision.registry.issue_spare_tags``), each printed with its number. AprilTag only (a QR code
    carries a card id, and these name no card yet)."""
    items = [(f"{game}.sticker-{n}", spare_sticker_words(n), n) for n in numbers]
    pages, per_page, stickers = _render_items(items, f"{game}: stickers to attach later", TagKind.APRILTAG,
                                              size_mm, paper, progress, dpi)
    output = Path(output)
    output.parent.mkdir(parents=True, exist_ok=True)
    converted = [_bilevel(p) for p in pages]
    converted[0].save(output, "PDF", save_all=True, append_images=converted[1:], resolution=float(dpi))
    return PrintResult(output, len(pages), stickers, per_page)
