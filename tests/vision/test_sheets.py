import re
import shutil
import subprocess

import cv2
import numpy as np
import pytest

from vision.__main__ import main
from vision.decks import load_deck
from vision.detector import TagDetector
from vision.registry import RegistryError, TagRegistry
from vision.sheets import SheetError, parse_size_mm, print_tags, render_pages
from vision.tags import TagKind

CARMEN = {c.card_id for c in load_deck("carmen").cards}


def _read_cards(pages, kind):
    detector = TagDetector(kinds=[kind])
    seen: dict[str, int] = {}
    for page in pages:
        for d in detector.detect(np.asarray(page.convert("L"))):
            seen[d.card_id] = seen.get(d.card_id, 0) + 1
    return seen


@pytest.mark.parametrize("kind", [TagKind.APRILTAG, TagKind.QR])
def test_every_card_decodes_back_from_the_pages_twice(kind):
    seen = _read_cards(render_pages("carmen", kind=kind), kind)
    assert set(seen) == CARMEN
    assert set(seen.values()) == {2}  # each sticker carries its tag in two corners


def test_pdf_pages_size_and_progress(tmp_path):
    calls = []
    result = print_tags("carmen", tmp_path / "tags.pdf", paper="a4", progress=lambda d, t: calls.append((d, t)))
    data = (tmp_path / "tags.pdf").read_bytes()
    assert data.startswith(b"%PDF")
    assert len(re.findall(rb"/Type\s*/Page\b", data)) == result.pages == 3
    assert result.stickers == 39
    media = re.search(rb"/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)", data)
    assert abs(float(media.group(1)) - 595.3) < 1 and abs(float(media.group(2)) - 841.9) < 1  # A4 in points
    assert calls[-1] == (39, 39) and len(calls) == 39
    assert len(data) < 2_000_000


def test_letter_paper_and_bigger_tags_need_more_pages(tmp_path):
    small = print_tags("carmen", tmp_path / "a.pdf", size_mm="15mm", paper="letter")
    big = print_tags("carmen", tmp_path / "b.pdf", size_mm="30mm", paper="letter")
    assert big.pages > small.pages


def test_printed_sizes_are_true_at_300_dpi():
    page = np.asarray(render_pages("carmen", size_mm="20mm")[0].convert("L"))
    # The calibration square: the first big dark outline at the top left is 30 mm = 354 px.
    _, binary = cv2.threshold(page, 128, 255, cv2.THRESH_BINARY_INV)
    contours, _ = cv2.findContours(binary, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    boxes = [cv2.boundingRect(c) for c in contours]
    square = max((b for b in boxes if b[1] < 600 and b[0] < 600), key=lambda b: b[2] * b[3])
    assert abs(square[2] - 354) <= 2 and abs(square[3] - 354) <= 2
    sides = [d.side_px for d in TagDetector(kinds=["apriltag"]).detect(page)]
    assert all(abs(s - 236) < 3 for s in sides)  # 20 mm at 300 dpi


@pytest.mark.skipif(shutil.which("gs") is None, reason="Ghostscript (gs) is needed to rasterise the PDF")
def test_tags_decode_from_the_pdf_itself(tmp_path):
    pdf = tmp_path / "tags.pdf"
    print_tags("carmen", pdf, kind="apriltag")
    subprocess.run(["gs", "-q", "-dNOPAUSE", "-dBATCH", "-sDEVICE=pnggray", "-r150",
                    f"-sOutputFile={tmp_path}/page-%d.png", str(pdf)], check=True, timeout=60)
    pages = sorted(tmp_path.glob("page-*.png"))
    assert len(pages) == 3
    detector = TagDetector(kinds=["apriltag"])
    found = {d.card_id for p in pages for d in detector.detect(cv2.imread(str(p), cv2.IMREAD_GRAYSCALE))}
    assert found == CARMEN


def test_bad_options_and_stale_registry_are_clear_errors(tmp_path, two_decks):
    with pytest.raises(SheetError, match="outside"):
        parse_size_mm("2mm")
    with pytest.raises(SheetError, match="like '20mm'"):
        parse_size_mm("big")
    assert parse_size_mm("2cm") == 20.0 and abs(parse_size_mm("0.8in") - 20.32) < 1e-9
    with pytest.raises(SheetError, match="paper"):
        render_pages("carmen", paper="a3")
    with pytest.raises(RegistryError, match="registry --update"):
        render_pages(two_decks / "alpha.toml", registry=TagRegistry.load())


def test_cli_writes_a_pdf(tmp_path, capsys):
    out = tmp_path / "sheet.pdf"
    assert main(["print-tags", "carmen", "--kind", "qr", "--size", "20mm", "--paper", "letter", "-o", str(out)]) == 0
    assert out.read_bytes().startswith(b"%PDF")
    assert "39 stickers" in capsys.readouterr().out
    assert main(["print-tags", "nosuchdeck", "-o", str(out)]) == 2
    assert "no deck called" in capsys.readouterr().err
