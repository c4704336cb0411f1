"""The QR payload: short, versioned, checksummed, naming deck and card.

Format (QR alphanumeric mode, so the code stays small: upper case, digits, ". - :")::

    GS1:CARMEN.LOOT.GANDHIS-GLASSES:3K7Q
    |   |                            +-- checksum: CRC-32 of "GS1:<card>" mod 36**4, base 36
    |   +-- card id, upper-cased ("<deck>.<kind>.<id>")
    +-- "GS" (Gumshoe) and format version 1

>>> encode_payload("carmen.loot.gandhis-glasses")
'GS1:CARMEN.LOOT.GANDHIS-GLASSES:8K4S'
>>> decode_payload("GS1:CARMEN.LOOT.GANDHIS-GLASSES:8K4S")
'carmen.loot.gandhis-glasses'
"""

from __future__ import annotations

import re
import zlib

PREFIX = "GS"
VERSION = 1
MAX_PAYLOAD_CHARS = 96  # anything longer is not ours; never parse big blobs
CHECKSUM_CHARS = 4
_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_CARD_ID = re.compile(r"^[a-z0-9][a-z0-9-]*\.[a-z0-9][a-z0-9-]*\.[a-z0-9][a-z0-9-]*$")


class PayloadError(ValueError):
    """A QR payload that must not be read as a card. Subclasses say why."""


class ForeignPayloadError(PayloadError):
    """Not a Gumshoe payload at all (a web address, another product's code...)."""


class UnsupportedVersionError(PayloadError):
    """A Gumshoe payload of a format version this app does not know."""


class TruncatedPayloadError(PayloadError):
    """A Gumshoe payload with parts missing."""


class ChecksumError(PayloadError):
    """The checksum does not match: damaged or misread."""


class PayloadTooLongError(PayloadError):
    """Longer than any Gumshoe payload can be."""


def _checksum(body: str) -> str:
    value = zlib.crc32(body.encode("ascii")) % (36**CHECKSUM_CHARS)
    digits = []
    for _ in range(CHECKSUM_CHARS):
        value, r = divmod(value, 36)
        digits.append(_ALPHABET[r])
    return "".join(reversed(digits))


def encode_payload(card_id: str) -> str:
    """The QR text for a card id; raises PayloadError for an id that cannot be encoded."""
    if not _CARD_ID.match(card_id):
        raise PayloadError(f"{card_id!r} is not a card id like 'deck.kind.id' (lower case, digits, '-')")
    body = f"{PREFIX}{VERSION}:{card_id.upper()}"
    payload = f"{body}:{_checksum(body)}"
    if len(payload) > MAX_PAYLOAD_CHARS:
        raise PayloadTooLongError(f"card id {card_id!r} is too long for a tag ({len(payload)} > {MAX_PAYLOAD_CHARS} chars)")
    return payload


def decode_payload(text: str | bytes) -> str:
    """The card id in a QR payload, or a PayloadError subclass saying why it is rejected."""
    if isinstance(text, (bytes, bytearray)):
        if len(text) > MAX_PAYLOAD_CHARS:
            raise PayloadTooLongError(f"payload of {len(text)} bytes is longer than any Gumshoe tag")
        try:
            text = bytes(text).decode("ascii")
        except UnicodeDecodeError:
            raise ForeignPayloadError("payload is not text: not a Gumshoe tag") from None
    if not isinstance(text, str):
        raise ForeignPayloadError(f"payload of type {type(text).__name__} is not a Gumshoe tag")
    if len(text) > MAX_PAYLOAD_CHARS:
        raise PayloadTooLongError(f"payload of {len(text)} characters is longer than any Gumshoe tag")
    if not text.isascii():
        # Our tags hold only QR alphanumeric characters; any other barcode is ignored, never an error
        # of another type (a foreign code in view must not stop the camera).
        raise ForeignPayloadError(f"payload {text[:24]!r} holds characters no Gumshoe tag has")
    if not text.startswith(PREFIX):
        if PREFIX.startswith(text):
            raise TruncatedPayloadError(f"payload {text!r} is cut short")
        raise ForeignPayloadError(f"payload {text[:24]!r} is not a Gumshoe tag")
    parts = text.split(":")
    version_text = parts[0][len(PREFIX):]
    if not version_text.isdigit():
        if version_text == "":
            raise TruncatedPayloadError(f"payload {text!r} is cut short")
        raise ForeignPayloadError(f"payload {text[:24]!r} is not a Gumshoe tag")
    if int(version_text) != VERSION:
        raise UnsupportedVersionError(f"tag format version {version_text} is not supported (this app reads version {VERSION})")
    if len(parts) < 3 or len(parts[2]) < CHECKSUM_CHARS:
        raise TruncatedPayloadError(f"payload {text!r} is cut short")
    if len(parts) > 3 or len(parts[2]) > CHECKSUM_CHARS:
        raise ForeignPayloadError(f"payload {text[:24]!r} has extra parts: not a Gumshoe tag")
    body = f"{parts[0]}:{parts[1]}"
    if _checksum(body) != parts[2]:
        raise ChecksumError(f"payload {text!r} fails its checksum (damaged or misread)")
    card_id = parts[1].lower()
    if not _CARD_ID.match(card_id):
        raise ForeignPayloadError(f"payload names {parts[1]!r}, which is not a card id")
    return card_id
