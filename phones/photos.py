"""Reading a card from a phone's photo: decoded in memory, never written to disk, read by vision.

Only JPEG and PNG are accepted (a phone's camera page sends JPEG; an iPhone converts its HEIC
photos to JPEG for a web page). The size is checked before decoding, the pixel count from the
header before any pixel is decoded (a small file can claim a huge picture), and a damaged or
cut-short file is a refusal in words. A JPEG is decoded at a reduced size straight from its
compressed data (Pillow's draft mode): a tag in a close-up photo stays large, and a 12-megapixel
photo is read in a fraction of the time. A PNG can only be decoded whole, so it may claim fewer
pixels. Each photo is decoded once: the tags are read on a smaller copy first, then on the
decoded image itself when no card was found there.
"""

from __future__ import annotations

import io
import threading
import warnings
from dataclasses import dataclass

import numpy as np
from PIL import Image

from phones.questions import AnswerRefused

#: the largest photo accepted, in bytes (a phone's full-size JPEG is 2-8 MB)
MAX_PHOTO_BYTES = 12 * 1024 * 1024
#: the most pixels a photo may claim, by format: a JPEG (a 48-megapixel phone camera is the
#: largest in common use) is decoded at a quarter of its size or less; a PNG only whole, so it is
#: held to a phone's screenshot (a 0.2 MB PNG claiming 50 megapixels took 250 MB and 3-6 s)
MAX_PIXELS = {"JPEG": 50_000_000, "PNG": 12_000_000}
#: the photo's longer side is brought down to this before reading tags; when no card is found
#: there, the decoded photo is read again at up to :data:`SECOND_SIDE` (a card far from the lens)
READ_SIDE = 1024
SECOND_SIDE = 2048
FORMATS = ("JPEG", "PNG")
UNUSUAL_SIZE = "That picture has an unusual size and cannot be read. Take a photo of the card."


@dataclass(frozen=True)
class PhotoReading:
    """The cards of the active game seen in a photo, and how many other tags were seen."""

    cards: list[str]
    other_tags: int


def decode_photo(data: bytes) -> np.ndarray:
    """A grey image (uint8) of the photo, its longer side at most :data:`SECOND_SIDE` (a JPEG
    decoded straight at the smallest size whose sides reach :data:`READ_SIDE`); ``AnswerRefused``
    in words for anything that is not a whole JPEG or PNG photo of a sensible size."""
    if len(data) > MAX_PHOTO_BYTES:
        raise AnswerRefused(f"That photo is too large ({len(data) // (1024 * 1024)} MB; at most "
                            f"{MAX_PHOTO_BYTES // (1024 * 1024)} MB).")
    if not data:
        raise AnswerRefused("No photo arrived. Take the photo again.")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data), formats=FORMATS)      # reads the header only
            width, height = image.size
            if width * height > MAX_PIXELS[image.format] or width < 16 or height < 16:
                raise AnswerRefused(UNUSUAL_SIZE)
            if image.format == "JPEG":
                image.draft("L", (READ_SIDE, READ_SIDE))
            image = image.convert("L")
    except AnswerRefused:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise AnswerRefused(UNUSUAL_SIZE) from None
    except Image.UnidentifiedImageError:
        raise AnswerRefused("That file is not a JPEG or PNG photo. Take a photo with the phone's camera.") from None
    except (OSError, ValueError, SyntaxError):
        raise AnswerRefused("That photo could not be read: it is damaged or arrived only in part. "
                            "Take it again.") from None
    return np.asarray(at_most(image, SECOND_SIDE))


def at_most(image: Image.Image, side: int) -> Image.Image:
    """The image with its longer side brought down to ``side`` (itself when it is no longer)."""
    if max(image.size) <= side:
        return image
    smaller = image.copy()
    smaller.thumbnail((side, side))
    return smaller


class PhotoReader:
    """Reads card tags in photos for one game (the game's cards only). One photo at a time: the
    server runs it in a single worker thread, so a flood of photos queues instead of piling up."""

    def __init__(self, game: str) -> None:
        self.game = game
        self._detector = None
        self._lock = threading.Lock()

    def warm_up(self) -> None:
        """Load the tag registry and decoders now (the first photo is then as fast as the others)."""
        with self._lock:
            self._detector_now()

    def _detector_now(self):
        if self._detector is None:
            from vision.detector import DetectorConfig, TagDetector
            # A still photo: no memory of earlier photos (one player's photo never guides another's).
            self._detector = TagDetector(active={self.game}, kinds=["apriltag", "qr"],
                                         config=DetectorConfig(roi_tracking=False))
        return self._detector

    def read(self, data: bytes) -> PhotoReading:
        photo = decode_photo(data)
        with self._lock:
            detections = self._detector_now().detect(np.asarray(at_most(Image.fromarray(photo), READ_SIDE)))
        if not any(d.card_id for d in detections) and max(photo.shape) > READ_SIDE:
            with self._lock:
                detections = self._detector_now().detect(photo)
        cards = list(dict.fromkeys(d.card_id for d in detections if d.card_id and d.status.value == "card"))
        others = sum(1 for d in detections if not (d.card_id and d.status.value == "card"))
        return PhotoReading(cards, others)
