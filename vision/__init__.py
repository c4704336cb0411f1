"""vision: camera frames -> card sightings. OpenCV, numpy and barcode decoders; never Qt or engine.

Typical use (what desktop's camera worker does)::

    from vision import TagDetector, SightingTracker, open_source, privacy_preview

    source = open_source("0")                      # webcam 0; CameraError if missing or busy
    detector = TagDetector(active={"carmen-cards"})
    tracker = SightingTracker()
    while running:
        frame = source.read()                      # newest frame, CameraError on timeout
        detections = detector.detect(frame)
        for sighting in tracker.update(detections):
            ...                                    # sighting.card_id / sighting.status
        show(privacy_preview(frame, detections, tracker.in_view()))

See docs/vision.md.
"""

from vision.decks import Deck, DeckCard, DeckError, load_all_decks, load_deck
from vision.detector import DecoderUnavailableError, Detection, DetectorConfig, TagDetector
from vision.dice import DicePoolReader, DieReading
from vision.hints import CameraHints, Hint, HintKind
from vision.payload import PayloadError, decode_payload, encode_payload
from vision.preview import privacy_preview
from vision.registry import Identity, RegistryError, TagRegistry, TagStatus, update_registry_file
from vision.sheets import PrintResult, SheetError, print_tags, render_pages
from vision.sources import (CameraError, EndOfStream, FrameSource, ImageFolderSource, SyntheticSource,
                            VideoFileSource, WebcamSource, open_source)
from vision.tags import TagKind, render_sticker
from vision.tracker import Sighting, SightingTracker

__all__ = [
    "CameraHints", "DicePoolReader", "DieReading", "Hint", "HintKind",
    "CameraError", "DecoderUnavailableError", "Deck", "DeckCard", "DeckError", "Detection", "DetectorConfig",
    "EndOfStream", "FrameSource", "Identity", "ImageFolderSource", "PayloadError", "PrintResult", "RegistryError",
    "SheetError", "Sighting", "SightingTracker", "SyntheticSource", "TagDetector", "TagKind", "TagRegistry",
    "TagStatus", "VideoFileSource", "WebcamSource", "decode_payload", "encode_payload", "load_all_decks",
    "load_deck", "open_source", "print_tags", "privacy_preview", "render_pages", "render_sticker",
    "update_registry_file",
]
