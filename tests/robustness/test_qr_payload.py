"""QR payload text (vision.payload) and the tag detector: any foreign or damaged barcode text is
a PayloadError (ignored by the camera), never another exception (issue 11, defect 3)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from vision.payload import ForeignPayloadError, PayloadError, decode_payload, encode_payload

from .conftest import examples

CARD = "carmen.loot.gandhis-glasses"
GOOD = encode_payload(CARD)


@pytest.mark.parametrize("text", ["GS1:CARMEN.LOOT.GANDHIS-GLASSÉS:0000", "GS\u0661:CARMEN.LOOT.X:0000",
                                  "GS\u00b2:X:0000", "GS1:CARMEN.LOOT.X:00\u00e90", "GS\ud800", "GS1\x00:A.B.C:0000"])
def test_gs_plus_one_non_ascii_character_is_a_foreign_payload(text):
    """Defect 3: these raised UnicodeEncodeError / ValueError and stopped the camera."""
    with pytest.raises(ForeignPayloadError):
        decode_payload(text)


def mutate(text: str, data) -> str:
    ops = data.draw(st.lists(st.tuples(st.sampled_from("ird"), st.integers(0, len(text) + 2),
                                       st.characters()), min_size=1, max_size=4))
    chars = list(text)
    for op, i, ch in ops:
        i = min(i, len(chars))
        if op == "i":
            chars.insert(i, ch)
        elif op == "r" and chars:
            chars[min(i, len(chars) - 1)] = ch
        elif chars:
            del chars[min(i, len(chars) - 1)]
    return "".join(chars)


@examples(600)
@given(st.data())
def test_mutated_payload_text_is_a_card_or_a_payload_error(data):
    text = mutate(GOOD, data)
    try:
        card = decode_payload(text)
    except PayloadError:
        return
    assert text == GOOD and card == CARD   # the checksum lets no other mutation through


@examples(300)
@given(st.one_of(st.text(max_size=120), st.binary(max_size=120),
                 st.text(alphabet="GS1:.-ABCZ09\u00c9\u0661\u00b2", max_size=60).map(lambda t: "GS" + t)))
def test_any_text_or_bytes_is_a_card_or_a_payload_error(value):
    try:
        decode_payload(value)
    except PayloadError:
        pass


def test_the_detector_ignores_a_foreign_qr_code_with_unicode_text():
    """Defect 3 through the camera path: TagDetector.detect raised; now the code is ignored."""
    zxingcpp = pytest.importorskip("zxingcpp")
    cv2 = pytest.importorskip("cv2")
    from vision.detector import TagDetector
    detector = TagDetector({"carmen-cards"}, kinds=("qr",))
    for text in ("GS1:CARMEN.LOOT.GANDHIS-GLASSÉS:0000", "GS\u00b2:X:0000"):
        code = zxingcpp.create_barcode(text, zxingcpp.BarcodeFormat.QRCode)
        img = cv2.cvtColor(np.array(code.to_image(scale=6, add_quiet_zones=True), dtype=np.uint8),
                           cv2.COLOR_GRAY2BGR)
        assert detector.detect(img) == []
    assert detector.rejected_payloads == 2
