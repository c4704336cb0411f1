import pytest

from vision.payload import (MAX_PAYLOAD_CHARS, ChecksumError, ForeignPayloadError, PayloadError, PayloadTooLongError,
                            TruncatedPayloadError, UnsupportedVersionError, decode_payload, encode_payload)

CARD = "carmen.loot.statue-of-libertys-torch"


def test_round_trip_is_short_and_qr_alphanumeric():
    text = encode_payload(CARD)
    assert decode_payload(text) == CARD
    assert decode_payload(text.encode("ascii")) == CARD
    assert len(text) <= 48
    assert set(text) <= set("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:")


@pytest.mark.parametrize("cut", range(1, 44))
def test_every_truncation_is_rejected(cut):
    text = encode_payload(CARD)
    if cut >= len(text):
        return
    with pytest.raises(PayloadError):
        decode_payload(text[:cut])


def test_truncated_payload_says_so():
    with pytest.raises(TruncatedPayloadError):
        decode_payload(encode_payload(CARD)[:-2])
    with pytest.raises(TruncatedPayloadError):
        decode_payload("GS1:CARMEN.LOOT.STATUE")


def test_any_single_changed_character_fails():
    text = encode_payload(CARD)
    for i in range(len(text)):
        for replacement in "A7.-:":
            changed = text[:i] + replacement + text[i + 1:]
            if changed == text:
                continue
            with pytest.raises(PayloadError):
                decode_payload(changed)


def test_other_card_with_stolen_checksum_fails():
    text = encode_payload(CARD)
    forged = text.replace("TORCH", "TORCX")
    with pytest.raises(ChecksumError):
        decode_payload(forged)


@pytest.mark.parametrize("text", ["https://example.com/menu", "hello", "", "G", "WIFI:S:home;T:WPA;P:x;;", b"\xff\xfe\x00"])
def test_foreign_payloads_are_rejected(text):
    with pytest.raises((ForeignPayloadError, TruncatedPayloadError)):
        decode_payload(text)


def test_huge_payloads_are_rejected_before_parsing():
    with pytest.raises(PayloadTooLongError):
        decode_payload("GS1:" + "A" * 10_000)
    with pytest.raises(PayloadTooLongError):
        decode_payload(b"x" * (MAX_PAYLOAD_CHARS + 1))
    with pytest.raises(PayloadTooLongError):
        encode_payload("carmen.loot." + "x" * 100)


def test_future_version_is_named_in_the_error():
    with pytest.raises(UnsupportedVersionError, match="version 2"):
        decode_payload("GS2:CARMEN.LOOT.X:0000")


def test_bad_card_ids_cannot_be_encoded():
    for bad in ["carmen", "Carmen.Loot.X", "carmen.loot.x y", "a..b"]:
        with pytest.raises(PayloadError):
            encode_payload(bad)
