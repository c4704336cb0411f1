"""Command line: `python -m vision print-tags ...`, `python -m vision registry --update`.

Examples::

    python -m vision print-tags carmen -o carmen-tags.pdf
    python -m vision print-tags assets/decks/carmen-cards.toml --kind qr --size 25mm --paper letter -o qr.pdf
    python -m vision print-tags 39-clues -o our-cards.pdf   # the cards registered in the app's library
    python -m vision registry --update     # give new cards their tag ids
    python -m vision registry --check      # exit 1 if a card has no tag id yet
    python -m vision watch 0 --game carmen-cards     # print the cards shown to webcam 0
    python -m vision watch clip.mp4 --frames 300     # ... or in a video file, a folder, "synthetic"
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from vision.decks import DeckError
from vision.registry import REGISTRY_PATH, RegistryError, TagRegistry, missing_cards, update_registry_file
from vision.sheets import PAPER_MM, SheetError, print_tags
from vision.sources import CameraError, EndOfStream, open_source
from vision.tags import TagKind


def _watch(args: argparse.Namespace) -> int:
    """Detector + tracker on a source; one line per sighting (time from the start, status, card)."""
    from vision.detector import TagDetector
    from vision.tracker import SightingTracker

    kinds = [TagKind.APRILTAG, TagKind.QR] if args.kind == "both" else [TagKind(args.kind)]
    detector = TagDetector(active=args.game, kinds=kinds)
    source = open_source(args.source)
    # Video files and folders are timed by their frame rate, so results do not depend on CPU speed.
    fps = getattr(source, "fps", 30.0) or 30.0
    tracker = SightingTracker()
    count = 0
    try:
        while not args.frames or count < args.frames:
            try:
                frame = source.read()
            except EndOfStream:
                break
            for s in tracker.update(detector.detect(frame), now=count / fps):
                print(f"{s.time:7.2f}s  {s.status.value:8s} {s.card_id or s.key}", flush=True)
            count += 1
    except KeyboardInterrupt:
        pass
    finally:
        source.close()
    print(f"{count} frames", file=sys.stderr)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision", description="Gumshoe card tags")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("print-tags", help="write printable sticker sheets for a deck as a PDF")
    p.add_argument("deck", help='deck id (e.g. "carmen"), deck file path, or a game whose cards the family '
                                 'registers in the app (e.g. "39-clues": the cards of their library)')
    p.add_argument("--kind", choices=[k.value for k in TagKind], default=TagKind.APRILTAG.value)
    p.add_argument("--size", default="20mm", help="side of the tag's square, e.g. 20mm (default), 2cm, 0.8in")
    p.add_argument("--paper", choices=sorted(PAPER_MM), default="a4")
    p.add_argument("-o", "--output", required=True, type=Path, help="PDF file to write")

    r = sub.add_parser("registry", help="show, check or update the tag registry")
    r.add_argument("--update", action="store_true", help="give every new card of every deck a tag id")
    r.add_argument("--check", action="store_true", help="exit 1 if a card has no tag id yet")
    r.add_argument("--path", type=Path, default=REGISTRY_PATH, help=argparse.SUPPRESS)

    w = sub.add_parser("watch", help="print the cards shown to a camera, video file or image folder")
    w.add_argument("source", help='camera index ("0"), video file, image folder or "synthetic"')
    w.add_argument("--game", action="append", help="active game or deck id (repeatable; default: every game)")
    w.add_argument("--kind", choices=[k.value for k in TagKind] + ["both"], default=TagKind.APRILTAG.value)
    w.add_argument("--frames", type=int, default=0, help="stop after this many frames (0: until the end or Ctrl+C)")

    args = parser.parse_args(argv)
    try:
        if args.command == "watch":
            return _watch(args)
        if args.command == "print-tags":
            def show(done: int, total: int) -> None:
                print(f"\rdrawing stickers {done}/{total}", end="", file=sys.stderr, flush=True)

            result = print_tags(args.deck, args.output, args.kind, args.size, args.paper, progress=show)
            print(file=sys.stderr)
            print(f"wrote {result.path}: {result.stickers} stickers on {result.pages} page(s)")
            return 0
        if args.update:
            added = update_registry_file(args.path)
            for e in added:
                print(f"added tag {e.tag_id:3d} -> {e.card_id}")
            print(f"{len(TagRegistry.load(args.path, family=False))} cards in {args.path} ({len(added)} new)")
            return 0
        registry = TagRegistry.load(args.path, family=False)
        missing = missing_cards(registry)
        if args.check:
            for card in missing:
                print(f"no tag id: {card}")
            print(f"{len(registry)} cards registered, {len(missing)} missing")
            return 1 if missing else 0
        for e in registry.entries:
            print(f"{e.tag_id:3d}  {e.card_id}  ({e.game})")
        return 0
    except (DeckError, RegistryError, SheetError, CameraError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
