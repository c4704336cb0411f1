"""A synthetic table: tagged cards rendered into webcam-like frames, for tests, benchmarks and demo mode.

Cards carry stickers drawn by `vision.tags.render_sticker` (the code that prints the real
sheets). Scenes add what a webcam sees at a family table: perspective tilt, scale (tag side
20-150 px in 1280x720), defocus and motion blur, sensor noise, uneven light, JPEG, a finger
over part of a card; clutter frames have no tag at all. Everything is seeded.

>>> table = SyntheticTable(seed=1)
>>> frame = table.frame(cards_in_view=["carmen.loot.gandhis-glasses"])
>>> frame.shape, frame.dtype
((720, 1280, 3), dtype('uint8'))
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Sequence

import cv2
import numpy as np
from PIL import Image, ImageDraw

from vision.decks import load_all_decks
from vision.registry import TagRegistry
from vision.tags import TagKind, font, render_sticker, sticker_layout, tag_modules

FRAME_SIZE = (1280, 720)
CARD_MM = (63.0, 88.0)
PX_PER_MM = 8.0  # source resolution of a card: a 20 mm tag is 160 px, enough for 150 px in frame
TAG_MM = 20.0


@dataclass(frozen=True)
class Degradation:
    """How the camera spoils the picture. Zero values mean "not applied"."""

    tilt_deg: float = 0.0  # out-of-plane tilt of each card
    tilt_min_deg: float = 0.0  # scenes draw the tilt between this and tilt_deg (0: between half of tilt_deg and it)
    defocus_sigma: float = 0.0  # Gaussian blur, px
    motion_px: float = 0.0  # motion blur length, px
    noise_sigma: float = 0.0  # sensor noise, grey levels
    light_range: float = 0.0  # uneven light: brightness varies by up to this fraction across the frame
    jpeg_quality: int = 0  # 0 = no JPEG
    finger: bool = False  # a finger over one corner of each card (over one of its two tags)
    lens_k1: float = 0.0  # radial (barrel) distortion of a wide webcam lens: r_d = r (1 - k1 r^2), r = 1 at the corner
    glare: float = 0.0  # a specular highlight on each glossy card, up to this share of full white
    hand: bool = False  # a hand holding each card: a thumb over one long edge, fingertips under the other


@dataclass(frozen=True)
class Scenario:
    """A family of random scenes: tag sides drawn from `tag_px`, degradations drawn up to the given values."""

    name: str
    tag_px: tuple[float, float]
    cards: int = 12
    degradation: Degradation = Degradation()
    clutter: bool = False
    sheet: float = 0.0  # a printed sheet of tags covering this share of the frame's width and height (0: cards)


SCENARIOS: dict[str, Scenario] = {s.name: s for s in [
    Scenario("clean-60px", (55, 65), degradation=Degradation(noise_sigma=2, jpeg_quality=90)),
    Scenario("typical-40px", (38, 46), degradation=Degradation(
        tilt_deg=30, defocus_sigma=0.8, noise_sigma=4, light_range=0.4, jpeg_quality=75)),
    Scenario("tilt-50deg", (40, 70), degradation=Degradation(tilt_deg=50, noise_sigma=3, jpeg_quality=80)),
    Scenario("defocus", (40, 80), degradation=Degradation(defocus_sigma=1.6, noise_sigma=3, jpeg_quality=80)),
    Scenario("motion-blur", (40, 80), degradation=Degradation(motion_px=6, noise_sigma=3, jpeg_quality=80)),
    Scenario("dim-uneven-noisy", (40, 80), degradation=Degradation(
        noise_sigma=9, light_range=0.6, jpeg_quality=60)),
    Scenario("all-degradations-40px", (40, 60), degradation=Degradation(
        tilt_deg=40, defocus_sigma=1.0, motion_px=3, noise_sigma=6, light_range=0.5, jpeg_quality=65)),
    Scenario("small-25px", (23, 28), degradation=Degradation(tilt_deg=20, noise_sigma=3, jpeg_quality=85)),
    Scenario("tiny-20px", (19, 22), degradation=Degradation(noise_sigma=2, jpeg_quality=90)),
    Scenario("large-150px", (120, 150), cards=2, degradation=Degradation(
        tilt_deg=30, defocus_sigma=1.0, noise_sigma=4, light_range=0.4, jpeg_quality=75)),
    Scenario("finger", (40, 80), degradation=Degradation(
        tilt_deg=20, noise_sigma=3, jpeg_quality=80, finger=True)),
    Scenario("clutter", (40, 80), degradation=Degradation(
        tilt_deg=30, defocus_sigma=0.6, noise_sigma=4, light_range=0.4, jpeg_quality=75), clutter=True),
]}

# The harder, more honest scenes (issue 12): what a laptop webcam sees at a family table.
REALISTIC_SCENARIOS: dict[str, Scenario] = {s.name: s for s in [
    Scenario("real-far-15px", (14, 18), degradation=Degradation(
        tilt_deg=30, defocus_sigma=0.7, noise_sigma=4, light_range=0.4, jpeg_quality=70, lens_k1=0.08)),
    Scenario("real-steep-70deg", (50, 140), cards=4, degradation=Degradation(
        tilt_deg=70, defocus_sigma=1.4, noise_sigma=4, light_range=0.4, jpeg_quality=70, lens_k1=0.08)),
    Scenario("real-held-in-hand", (50, 160), cards=3, degradation=Degradation(
        tilt_deg=40, defocus_sigma=1.0, motion_px=5, noise_sigma=5, light_range=0.5, jpeg_quality=65,
        lens_k1=0.08, glare=0.6, hand=True)),
    Scenario("real-close-up", (250, 480), cards=1, degradation=Degradation(
        tilt_deg=40, defocus_sigma=2.5, motion_px=4, noise_sigma=4, light_range=0.4, jpeg_quality=70,
        lens_k1=0.1, glare=0.5, hand=True)),
    Scenario("real-webcam-mix", (20, 100), cards=8, degradation=Degradation(
        tilt_deg=60, defocus_sigma=1.5, motion_px=4, noise_sigma=7, light_range=0.6, jpeg_quality=55,
        lens_k1=0.1, glare=0.4, hand=True)),
    # Issue 21: where the reader still lost on real photographs.
    Scenario("real-small-blurred", (14, 20), degradation=Degradation(
        tilt_deg=30, defocus_sigma=0.7, motion_px=2, noise_sigma=4, light_range=0.3, jpeg_quality=65, lens_k1=0.05)),
    Scenario("real-steep-defocused", (100, 300), cards=2, degradation=Degradation(
        tilt_deg=75, tilt_min_deg=60, defocus_sigma=4.0, motion_px=3, noise_sigma=5, light_range=0.5, jpeg_quality=60,
        lens_k1=0.05)),
    Scenario("real-sheet-small", (15, 20), sheet=0.55, degradation=Degradation(
        tilt_deg=20, defocus_sigma=0.8, noise_sigma=3, light_range=0.3, jpeg_quality=75)),
]}
ALL_SCENARIOS: dict[str, Scenario] = {**SCENARIOS, **REALISTIC_SCENARIOS}


@dataclass
class PlacedTag:
    card_id: str
    quad: np.ndarray  # 4x2 float32 corners in the frame
    side_px: float
    covered: bool  # a finger lies over part of this tag


@dataclass
class PlacedCard:
    card_id: str
    quad: np.ndarray  # the card's 4 corners in the frame
    tags: list[PlacedTag] = field(default_factory=list)
    tilt_deg: float = 0.0  # the card's out-of-plane tilt (0: facing the camera)

    @property
    def tag_side_px(self) -> float:
        return max(t.side_px for t in self.tags)


@dataclass
class SyntheticFrame:
    image: np.ndarray  # BGR uint8
    cards: list[PlacedCard]  # ground truth; empty for clutter frames


def _rng(seed) -> np.random.Generator:
    return np.random.default_rng(seed)


class SyntheticTable:
    """Renders frames of cards lying on (or held over) a table.

    `frame(cards_in_view=[...])` is the demo-mode call; `render_scene` is for benchmarks and tests.
    """

    def __init__(self, seed: int = 0, kind: TagKind | str = TagKind.APRILTAG, registry: TagRegistry | None = None,
                 double_tags: bool = True, size: tuple[int, int] = FRAME_SIZE) -> None:
        self.seed = seed
        self.kind = TagKind(kind)
        self.registry = registry or TagRegistry.load()
        self.double_tags = double_tags
        self.size = size
        self._names = {c.card_id: c.name for d in load_all_decks() for c in d.cards}
        self._rng = _rng(seed)
        self._backgrounds = [_background(i, seed, size) for i in range(4)]
        self._demo_count = 0

    @property
    def card_ids(self) -> list[str]:
        return [e.card_id for e in self.registry.entries if e.card_id in self._names]

    # --- demo / simple API -----------------------------------------------------------------
    def frame(self, cards_in_view: Sequence[str] = (), tag_px: float = 70.0, degradation: Degradation | None = None) -> np.ndarray:
        """A BGR frame showing `cards_in_view` (card ids), steady but with a little hand jitter.

        Tags are `tag_px` wide, or smaller when that many cards would not fit in the frame.
        """
        self._demo_count += 1
        tag_px = min(tag_px, _largest_fitting_tag_px(len(cards_in_view), self.size))
        rng = _rng((self.seed, self._demo_count))
        deg = degradation or Degradation(tilt_deg=10, noise_sigma=3, light_range=0.25, jpeg_quality=85)
        return self.render_scene(list(cards_in_view), tag_px, deg, rng, background=0, jitter=True).image

    # --- scenes ----------------------------------------------------------------------------
    def random_scene(self, scenario: Scenario, index: int) -> SyntheticFrame:
        """Scene `index` of a scenario: the same (seed, scenario, index) always gives the same frame."""
        rng = _rng((self.seed, _stable_hash(scenario.name), index))
        tag_px = float(rng.uniform(*scenario.tag_px))
        if scenario.clutter:
            return self.render_clutter(scenario.degradation, rng)
        if scenario.sheet:
            return self.tag_sheet(tag_px, draw_degradation(scenario.degradation, rng), rng, cover=scenario.sheet)
        ids = self.card_ids
        picks = [ids[i] for i in rng.choice(len(ids), size=min(scenario.cards, len(ids)), replace=False)]
        deg = draw_degradation(scenario.degradation, rng)
        return self.render_scene(picks, tag_px, deg, rng)

    def render_scene(self, card_ids: list[str], tag_px: float, deg: Degradation, rng: np.random.Generator,
                     background: int | None = None, jitter: bool = False,
                     noise_rng: np.random.Generator | None = None, offset: tuple[float, float] = (0.0, 0.0)) -> SyntheticFrame:
        """Cards placed with `rng`; camera noise, blur direction and light drawn from `noise_rng` (default: rng).

        Video sequences pass a fresh `rng` with the same seed for every frame (cards stay put)
        and a running `noise_rng` (every frame is a new exposure); `offset` (px) moves every card,
        e.g. a hand bringing cards into view.
        """
        w, h = self.size
        bg_index = int(rng.integers(len(self._backgrounds))) if background is None else background
        canvas = self._backgrounds[bg_index].copy()
        placed: list[PlacedCard] = []
        slots = _grid_slots(len(card_ids), tag_px, self.size, rng, jitter)
        close_up = len(card_ids) == 1 and tag_px > 0.3 * h  # a card held up to the camera: its tag in the middle
        for card_id, (cx, cy) in zip(card_ids, slots):
            cx, cy = cx + offset[0], cy + offset[1]
            src, tag_quads_src, finger_tag = self._card_image(card_id, deg.finger, rng)
            if deg.hand or deg.glare:
                src = src.copy()
                if deg.hand:
                    _draw_hand(src, rng)
                if deg.glare:
                    _draw_glare(src, deg.glare, rng)
            scale = tag_px / (TAG_MM * PX_PER_MM)
            quad = _project_card(src.shape[1], src.shape[0], scale, (cx, cy), deg.tilt_deg, rng, jitter)
            H = cv2.getPerspectiveTransform(_corners(src.shape[1], src.shape[0]), quad)
            if close_up:  # move the card so that one of its tags is centred in the frame
                k = int(rng.integers(len(tag_quads_src)))
                tc = cv2.perspectiveTransform(tag_quads_src[k].reshape(1, 4, 2), H).reshape(4, 2).mean(axis=0)
                quad = quad + np.float32([cx, cy]) - tc
                H = cv2.getPerspectiveTransform(_corners(src.shape[1], src.shape[0]), quad)
            _composite(canvas, src, H, quad)
            card = PlacedCard(card_id, quad, tilt_deg=deg.tilt_deg)
            for i, q in enumerate(tag_quads_src):
                q_frame = cv2.perspectiveTransform(q.reshape(1, 4, 2), H).reshape(4, 2)
                card.tags.append(PlacedTag(card_id, q_frame, math.sqrt(abs(cv2.contourArea(q_frame))), i == finger_tag))
            placed.append(card)
        if deg.lens_k1:
            canvas = _distort(canvas, deg.lens_k1)
            for card in placed:
                card.quad = _distort_points(card.quad, deg.lens_k1, self.size)
                for t in card.tags:
                    t.quad = _distort_points(t.quad, deg.lens_k1, self.size)
                    t.side_px = math.sqrt(abs(cv2.contourArea(t.quad)))
        image = _degrade(canvas, deg, noise_rng or rng)
        return SyntheticFrame(image, placed)

    def render_clutter(self, deg: Degradation, rng: np.random.Generator) -> SyntheticFrame:
        """A frame with no tag: untagged card faces, text, checkerboards, tag-like bit squares, QR-like blocks."""
        canvas = self._backgrounds[int(rng.integers(len(self._backgrounds)))].copy()
        ids = self.card_ids
        for _ in range(int(rng.integers(4, 10))):
            card_id = ids[int(rng.integers(len(ids)))]
            src = _card_face(card_id, self._names.get(card_id, card_id), None)
            size_scale = float(rng.uniform(0.2, 0.5))
            quad = _project_card(src.shape[1], src.shape[0], size_scale,
                                 (rng.uniform(100, self.size[0] - 100), rng.uniform(100, self.size[1] - 100)),
                                 deg.tilt_deg, rng, False)
            _composite(canvas, src, cv2.getPerspectiveTransform(_corners(src.shape[1], src.shape[0]), quad), quad)
        for _ in range(int(rng.integers(6, 16))):
            _draw_distractor(canvas, rng)
        image = _degrade(canvas, draw_degradation(deg, rng), rng)
        return SyntheticFrame(image, [])

    def _card_image(self, card_id: str, finger: bool, rng: np.random.Generator):
        number = sticker_number(card_id)
        if number is not None:      # a card carrying a sticker no card is registered with (yet)
            base, tag_quads = _tagged_card(card_id, f"Sticker {number}", TagKind.APRILTAG, number, self.double_tags)
        else:
            base, tag_quads = _tagged_card(card_id, self._names.get(card_id, card_id), self.kind,
                                           self.registry.tag_for_card(card_id), self.double_tags)
        if not finger:
            return base, tag_quads, -1
        img = base.copy()
        _draw_finger(img, tag_quads[0], rng)  # over the first tag's outer corner: the other tag stays clear
        return img, tag_quads, 0


    def tag_sheet(self, tag_px: float, deg: Degradation, rng: np.random.Generator, gap: float = 0.5,
                  cover: float = 1.0) -> SyntheticFrame:
        """A printed sheet of small tags filling the frame (a test sheet on a clipboard, seen from afar).

        Tags of `tag_px` (black square), `gap` tag sides apart, in rows and columns over `cover` of
        the frame's width and height, the sheet tilted by `deg.tilt_deg` and then spoiled like
        any scene. Every tag is a registered 36h11 card's; each PlacedCard is one tag
        with its quiet ring.
        """
        w, h = self.size
        step = tag_px * (1 + gap)
        cols, rows = max(1, int((cover * w - 2 * tag_px) // step)), max(1, int((cover * h - 2 * tag_px) // step))
        cards = [c for c in self.card_ids if self.registry.tag_for_card(c) < 1000]
        picks = [cards[int(i)] for i in rng.choice(len(cards), size=min(len(cards), cols * rows), replace=False)]
        unit = 8  # px per module on the flat sheet
        sheet = np.full((int(rows * step / tag_px * 8 * unit) + 1, int(cols * step / tag_px * 8 * unit) + 1), 235, np.uint8)
        pitch = step / tag_px * 8 * unit
        flat_quads = []
        for k, card_id in enumerate(picks):
            r, c = divmod(k, cols)
            x0, y0 = int(c * pitch + gap * 4 * unit), int(r * pitch + gap * 4 * unit)
            modules = tag_modules(TagKind.APRILTAG, card_id, self.registry.tag_for_card(card_id))[0]
            sheet[y0:y0 + 8 * unit, x0:x0 + 8 * unit] = cv2.resize(modules, (8 * unit, 8 * unit), interpolation=cv2.INTER_NEAREST)
            flat_quads.append(np.float32([[x0, y0], [x0 + 8 * unit, y0], [x0 + 8 * unit, y0 + 8 * unit], [x0, y0 + 8 * unit]]))
        sh, sw = sheet.shape
        scale = tag_px / (8 * unit)
        quad = _project_card(sw, sh, scale, (w / 2, h / 2), deg.tilt_deg, rng, steady=True)
        H = cv2.getPerspectiveTransform(_corners(sw, sh), quad)
        canvas = self._backgrounds[int(rng.integers(len(self._backgrounds)))].copy()
        _composite(canvas, cv2.cvtColor(sheet, cv2.COLOR_GRAY2BGR), H, quad)
        placed = []
        for card_id, q in zip(picks, flat_quads):
            tag = cv2.perspectiveTransform(q.reshape(1, 4, 2), H).reshape(4, 2)
            ring = cv2.perspectiveTransform((q + np.float32([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * unit).reshape(1, 4, 2), H)
            if (tag >= 0).all() and (tag[:, 0] < w).all() and (tag[:, 1] < h).all():
                placed.append(PlacedCard(card_id, ring.reshape(4, 2), [PlacedTag(card_id, tag, math.sqrt(abs(cv2.contourArea(tag))), False)],
                                         tilt_deg=deg.tilt_deg))
        return SyntheticFrame(_degrade(canvas, deg, rng), placed)


def sticker_number(card_id: str) -> int | None:
    """``"tag:1520"`` (the tracker's key of an unregistered tag) shows a card carrying sticker 1520,
    whatever card it names: a sticker printed to attach later, held up to attach it."""
    if card_id.startswith("tag:") and card_id[4:].isdigit():
        return int(card_id[4:])
    return None


def _stable_hash(text: str) -> int:
    return int.from_bytes(text.encode()[:8].ljust(8, b"\0"), "little") ^ len(text)


def draw_degradation(limit: Degradation, rng: np.random.Generator) -> Degradation:
    """Random values between mild and the scenario's limits (JPEG quality between it and 95)."""
    u = lambda v: float(rng.uniform(0.5 * v, v)) if v else 0.0  # noqa: E731
    q = int(rng.integers(limit.jpeg_quality, 96)) if limit.jpeg_quality else 0
    tilt = float(rng.uniform(limit.tilt_min_deg, limit.tilt_deg)) if limit.tilt_min_deg else u(limit.tilt_deg)
    return replace(limit, tilt_deg=tilt, defocus_sigma=u(limit.defocus_sigma), motion_px=u(limit.motion_px),
                   noise_sigma=u(limit.noise_sigma), light_range=u(limit.light_range), jpeg_quality=q,
                   lens_k1=u(limit.lens_k1), glare=u(limit.glare))


# --- cards ----------------------------------------------------------------------------------
@lru_cache(maxsize=64)
def _card_face(card_id: str, name: str, _unused) -> np.ndarray:
    """A card face without tag: coloured header, the name in big letters, text lines, a picture."""
    w, h = int(CARD_MM[0] * PX_PER_MM), int(CARD_MM[1] * PX_PER_MM)
    seed = _stable_hash(card_id) % (2**32)
    rng = _rng(seed)
    hue = rng.integers(0, 180)
    header = cv2.cvtColor(np.uint8([[[hue, 150, 170]]]), cv2.COLOR_HSV2RGB)[0, 0].tolist()
    img = Image.new("RGB", (w, h), (246, 240, 226))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle([6, 6, w - 7, h - 7], radius=24, outline=tuple(header), width=10)
    d.rectangle([16, 16, w - 17, 110], fill=tuple(header))
    title = font(44)
    text = name if d.textlength(name, font=title) < w - 40 else name[: max(4, int(len(name) * (w - 60) / d.textlength(name, font=title)))] + "."
    d.text((24, 36), text, fill=(20, 20, 20), font=title)
    body = font(22)
    words = ("the case clue suspect travel city loot henchman warrant evidence pair agent "
             "report chase capture secret plan museum stolen").split()
    for i in range(18):
        line = " ".join(words[int(k)] for k in rng.integers(0, len(words), 6))
        d.text((24, 130 + i * 30), line, fill=(60, 50, 40), font=body)
    for _ in range(3):
        x, y, r = int(rng.integers(60, w - 60)), int(rng.integers(200, h - 60)), int(rng.integers(15, 45))
        d.ellipse([x - r, y - r, x + r, y + r], outline=(120, 60, 40), width=4)
    return cv2.cvtColor(np.asarray(img), cv2.COLOR_RGB2BGR)


@lru_cache(maxsize=256)
def _tagged_card(card_id: str, name: str, kind: TagKind, tag_id: int, double: bool):
    face = _card_face(card_id, name, None).copy()
    dpi = PX_PER_MM * 25.4
    sticker = np.asarray(render_sticker(card_id, name, tag_id, kind, TAG_MM, dpi, double))
    sh, sw = sticker.shape
    x0, y0 = (face.shape[1] - sw) // 2, face.shape[0] - sh - 24
    face[y0:y0 + sh, x0:x0 + sw] = sticker[:, :, None]
    modules, quiet = tag_modules(kind, card_id, tag_id)
    tag_px = int(round(TAG_MM / 25.4 * dpi))
    layout = sticker_layout(tag_px, int(np.ceil(tag_px * quiet / modules.shape[0])), double)
    quads = [np.float32([[x0 + x, y0 + y], [x0 + x + tag_px, y0 + y], [x0 + x + tag_px, y0 + y + tag_px], [x0 + x, y0 + y + tag_px]])
             for x, y in layout.tag_origins]
    face.setflags(write=False)
    return face, quads


def _draw_finger(img: np.ndarray, tag_quad: np.ndarray, rng: np.random.Generator) -> None:
    """A fingertip from the card's left edge over the tag's top-left corner (covers its border)."""
    x0, y0 = tag_quad[0]
    side = tag_quad[1][0] - x0
    tip = (x0 + side * rng.uniform(0.2, 0.45), y0 + side * rng.uniform(0.2, 0.45))
    width = side * rng.uniform(0.45, 0.6)
    start = (-40.0, tip[1] + rng.uniform(-0.3, 0.3) * side)
    mask = np.zeros(img.shape[:2], np.uint8)
    cv2.line(mask, (int(start[0]), int(start[1])), (int(tip[0]), int(tip[1])), 255, int(width))
    cv2.circle(mask, (int(tip[0]), int(tip[1])), int(width / 2), 255, -1)
    skin = np.array([110, 150, 205], np.float32) * rng.uniform(0.8, 1.1)
    shade = cv2.GaussianBlur(mask, (0, 0), width / 6).astype(np.float32) / 255.0
    m = (mask > 0)[:, :, None]
    img[:] = np.where(m, (skin * (0.7 + 0.3 * shade[:, :, None])).clip(0, 255), img).astype(np.uint8)


def _draw_hand(img: np.ndarray, rng: np.random.Generator) -> None:
    """A hand holding the card: a thumb over one long edge and fingertips over the other (card pixels)."""
    h, w = img.shape[:2]
    skin = np.array([105, 145, 200], np.float32) * rng.uniform(0.75, 1.1)
    mask = np.zeros((h, w), np.uint8)
    left = bool(rng.integers(2))
    edge_x = 0 if left else w
    ty = rng.uniform(0.3, 0.75) * h
    reach = rng.uniform(0.12, 0.3) * w
    tip = (edge_x + (reach if left else -reach), ty + rng.uniform(-0.05, 0.05) * h)
    thick = int(rng.uniform(0.13, 0.18) * w)
    cv2.line(mask, (int(edge_x - (40 if left else -40)), int(ty + 0.1 * h)), (int(tip[0]), int(tip[1])), 255, thick)
    cv2.circle(mask, (int(tip[0]), int(tip[1])), thick // 2, 255, -1)
    other = w if left else 0
    for k in range(int(rng.integers(2, 5))):  # fingertips peeking over the far edge
        fy = (0.25 + 0.15 * k + rng.uniform(-0.03, 0.03)) * h
        depth = rng.uniform(0.03, 0.08) * w
        cv2.ellipse(mask, (int(other), int(fy)), (int(depth), int(0.045 * h)), 0, 0, 360, 255, -1)
    shade = cv2.GaussianBlur(mask, (0, 0), max(2.0, thick / 5)).astype(np.float32) / 255.0
    m = (mask > 0)[:, :, None]
    img[:] = np.where(m, (skin * (0.65 + 0.35 * shade[:, :, None])).clip(0, 255), img).astype(np.uint8)


def _draw_glare(img: np.ndarray, strength: float, rng: np.random.Generator) -> None:
    """A lamp's reflection on a glossy card: a soft bright ellipse, washing out what lies under it."""
    h, w = img.shape[:2]
    cx, cy = rng.uniform(0.2, 0.8) * w, rng.uniform(0.3, 0.95) * h
    ax, ay = rng.uniform(0.08, 0.25) * w, rng.uniform(0.05, 0.15) * h
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    a = math.radians(rng.uniform(0, 180))
    u = ((x - cx) * math.cos(a) + (y - cy) * math.sin(a)) / ax
    v = (-(x - cx) * math.sin(a) + (y - cy) * math.cos(a)) / ay
    g = np.exp(-(u * u + v * v) * 1.5) * strength
    out = img.astype(np.float32)
    out += (255.0 - out) * g[:, :, None]
    img[:] = out.clip(0, 255).astype(np.uint8)


def _distort(img: np.ndarray, k1: float) -> np.ndarray:
    """Barrel distortion: the pixel at radius r_d shows the scene at r_u = r_d / (1 - k1 r_d^2)."""
    h, w = img.shape[:2]
    cx, cy, norm = w / 2, h / 2, math.hypot(w / 2, h / 2)
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    dx, dy = (x - cx) / norm, (y - cy) / norm
    f = 1.0 / (1.0 - k1 * (dx * dx + dy * dy))
    return cv2.remap(img, (cx + dx * f * norm).astype(np.float32), (cy + dy * f * norm).astype(np.float32),
                     cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)


def _distort_points(pts: np.ndarray, k1: float, size: tuple[int, int]) -> np.ndarray:
    """Where scene points land in the distorted frame (the inverse of _distort's mapping, in closed form)."""
    w, h = size
    cx, cy, norm = w / 2, h / 2, math.hypot(w / 2, h / 2)
    u = (np.asarray(pts, np.float64) - [cx, cy]) / norm
    ru = np.hypot(u[:, 0], u[:, 1])[:, None]
    # r_u = r_d / (1 - k1 r_d^2)  <=>  k1 r_u r_d^2 + r_d - r_u = 0 (the root that is 0 at 0)
    rd = np.where(ru > 1e-9, (np.sqrt(1 + 4 * k1 * ru * ru) - 1) / (2 * k1 * np.maximum(ru, 1e-9)), ru)
    d = u * (rd / np.maximum(ru, 1e-9))
    return (d * norm + [cx, cy]).astype(np.float32)


# --- geometry and compositing ---------------------------------------------------------------
def _corners(w: int, h: int) -> np.ndarray:
    return np.float32([[0, 0], [w, 0], [w, h], [0, h]])


def _grid_shape(n: int, tag_px: float, size: tuple[int, int]) -> tuple[int, int]:
    scale = tag_px / (TAG_MM * PX_PER_MM)
    cell = max(CARD_MM) * PX_PER_MM * scale * 1.15
    w, h = size
    cols = max(1, min(n, int(w // cell)))
    rows = max(1, min(-(-n // cols), int(h // cell)))
    return cols, rows


def _largest_fitting_tag_px(n: int, size: tuple[int, int]) -> float:
    tag_px = 150.0
    while tag_px > 20 and (lambda c, r: c * r)(*_grid_shape(n, tag_px, size)) < n:
        tag_px *= 0.95
    return tag_px


def _grid_slots(n: int, tag_px: float, size: tuple[int, int], rng: np.random.Generator, jitter: bool) -> list[tuple[float, float]]:
    """Non-overlapping card centres for n cards of the given tag size (fewer if they do not fit)."""
    if n == 0:
        return []
    w, h = size
    cols, rows = _grid_shape(n, tag_px, size)
    cells = [(c, r) for r in range(rows) for c in range(cols)]
    order = rng.permutation(len(cells))[:n] if not jitter else range(min(n, len(cells)))
    cell_w, cell_h = w / cols, h / rows
    out = []
    for i in order:
        c, r = cells[i]
        jx = rng.uniform(-0.1, 0.1) * cell_w if not jitter else rng.normal(0, 1.5)
        jy = rng.uniform(-0.1, 0.1) * cell_h if not jitter else rng.normal(0, 1.5)
        out.append(((c + 0.5) * cell_w + jx, (r + 0.5) * cell_h + jy))
    return out


def _project_card(w: int, h: int, scale: float, center: tuple[float, float], tilt_deg: float,
                  rng: np.random.Generator, steady: bool) -> np.ndarray:
    """Card corners after in-plane rotation and an out-of-plane tilt, seen by a pinhole camera."""
    pts = (_corners(w, h) - [w / 2, h / 2]) * scale
    angle = math.radians(rng.normal(0, 2) if steady else rng.uniform(-180, 180))
    rot = np.array([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]])
    pts = pts @ rot.T
    tilt = math.radians(tilt_deg)
    axis = rng.uniform(0, math.pi)
    ax, ay = math.cos(axis), math.sin(axis)
    # Rodrigues rotation about an in-plane axis by `tilt`, then perspective with focal length f.
    K = np.array([[0, 0, ay], [0, 0, -ax], [-ay, ax, 0]])
    R = np.eye(3) + math.sin(tilt) * K + (1 - math.cos(tilt)) * K @ K
    f = 900.0
    p3 = np.c_[pts, np.zeros(4)] @ R.T
    z = f + p3[:, 2]
    proj = p3[:, :2] * (f / z)[:, None]
    return (proj + center).astype(np.float32)


def _composite(canvas: np.ndarray, src: np.ndarray, H: np.ndarray, quad: np.ndarray) -> None:
    ch, cw = canvas.shape[:2]
    x0, y0 = np.floor(quad.min(0)).astype(int) - 2
    x1, y1 = np.ceil(quad.max(0)).astype(int) + 2
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, cw), min(y1, ch)
    if x1 <= x0 or y1 <= y0:
        return
    T = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64) @ H
    size = (x1 - x0, y1 - y0)
    warped = cv2.warpPerspective(src, T, size, flags=cv2.INTER_AREA if np.linalg.det(H[:2, :2]) < 1 else cv2.INTER_LINEAR)
    mask = cv2.warpPerspective(np.full(src.shape[:2], 1.0, np.float32), T, size, flags=cv2.INTER_LINEAR)
    roi = canvas[y0:y1, x0:x1]
    roi[:] = cv2.blendLinear(warped, roi, mask, 1.0 - mask)  # anti-aliased card edges, in uint8


@lru_cache(maxsize=2)
def _noise_bank(h: int, w: int) -> np.ndarray:
    """Unit Gaussian noise, larger than a frame: each frame takes a random window of it (fast)."""
    return _rng(12345).standard_normal((h + 97, w + 97, 3), dtype=np.float32)


def _degrade(canvas: np.ndarray, deg: Degradation, rng: np.random.Generator) -> np.ndarray:
    img = canvas.astype(np.float32)
    h, w = img.shape[:2]
    if deg.light_range:
        # A smooth brightness field: a lamp on one side, shadow on the other (computed small, scaled up).
        gx, gy = np.meshgrid(np.linspace(-1, 1, 64, dtype=np.float32), np.linspace(-1, 1, 36, dtype=np.float32))
        a = rng.uniform(0, 2 * math.pi)
        small = 1 - deg.light_range * (0.5 + 0.5 * (gx * math.cos(a) + gy * math.sin(a)) / math.sqrt(2))
        field_ = cv2.resize(small.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
        img = cv2.multiply(img, cv2.merge([field_, field_, field_]))
    if deg.defocus_sigma:
        img = cv2.GaussianBlur(img, (0, 0), deg.defocus_sigma)
    if deg.motion_px >= 1:
        k = int(round(deg.motion_px)) | 1
        kernel = np.zeros((k, k), np.float32)
        kernel[k // 2, :] = 1.0 / k
        M = cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), rng.uniform(0, 180), 1.0)
        kernel = cv2.warpAffine(kernel, M, (k, k))
        img = cv2.filter2D(img, -1, kernel / max(kernel.sum(), 1e-6))
    if deg.noise_sigma:
        bank = _noise_bank(h, w)
        y, x = int(rng.integers(0, 97)), int(rng.integers(0, 97))
        img = cv2.scaleAdd(bank[y:y + h, x:x + w], float(deg.noise_sigma), img)
    out = np.clip(img, 0, 255, out=img).astype(np.uint8)
    if deg.jpeg_quality:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(deg.jpeg_quality)])
        out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return out


# --- backgrounds and clutter ---------------------------------------------------------------------
def _background(index: int, seed: int, size: tuple[int, int]) -> np.ndarray:
    """Table tops: wood grain, a checked tablecloth, green felt, a printed newspaper."""
    rng = _rng((seed, 7919, index))
    w, h = size
    kind = index % 4
    if kind == 0:  # wood grain: warped sine bands
        y, x = np.mgrid[0:h, 0:w].astype(np.float32)
        warp = cv2.resize(rng.normal(0, 1, (h // 40 + 2, w // 40 + 2)).astype(np.float32), (w, h)) * 25
        grain = np.sin((y + warp) / rng.uniform(6, 12)) * 0.5 + 0.5
        base = np.array([60, 105, 150], np.float32)
        img = base * (0.75 + 0.35 * grain[:, :, None])
    elif kind == 1:  # gingham tablecloth
        y, x = np.mgrid[0:h, 0:w]
        p = int(rng.integers(30, 60))
        stripes = ((x // p) % 2).astype(np.float32) + ((y // p) % 2).astype(np.float32)
        color = np.array([rng.integers(40, 200), rng.integers(40, 200), rng.integers(120, 220)], np.float32)
        img = 255 - (255 - color) * (stripes[:, :, None] / 2)
    elif kind == 2:  # felt
        img = np.array([50, 110, 40], np.float32) + rng.normal(0, 6, (h, w, 1)).astype(np.float32)
    else:  # newspaper: text everywhere (clutter for every frame using it)
        pil = Image.new("RGB", (w, h), (225, 222, 212))
        d = ImageDraw.Draw(pil)
        f = font(18)
        for row in range(0, h, 24):
            d.text((int(rng.integers(-30, 0)), row), "".join(chr(int(c)) for c in rng.integers(97, 123, 200)).replace("q", " ").replace("x", " "),
                   fill=(40, 40, 40), font=f)
        img = np.asarray(pil)[:, :, ::-1].astype(np.float32)
    return np.clip(img, 0, 255).astype(np.uint8)


def _draw_distractor(canvas: np.ndarray, rng: np.random.Generator) -> None:
    """Things that look a bit like tags: bit squares, checkerboards, QR-like blocks, text, boxes."""
    h, w = canvas.shape[:2]
    kind = int(rng.integers(5))
    size = int(rng.integers(25, 160))
    x, y = int(rng.integers(0, w - size)), int(rng.integers(0, h - size))
    if kind == 0:  # a black-bordered square of random 6x6 bits: the nearest thing to an AprilTag
        bits = np.zeros((10, 10), np.uint8) + 255
        bits[1:9, 1:9] = 0
        bits[2:8, 2:8] = rng.integers(0, 2, (6, 6)) * 255
        patch = cv2.resize(bits, (size, size), interpolation=cv2.INTER_NEAREST)
    elif kind == 1:  # checkerboard
        n = int(rng.integers(3, 9))
        patch = cv2.resize(((np.indices((n, n)).sum(0) % 2) * 255).astype(np.uint8), (size, size), interpolation=cv2.INTER_NEAREST)
    elif kind == 2:  # QR-like random modules with finder-like corners
        n = int(rng.integers(21, 30))
        m = (rng.integers(0, 2, (n, n)) * 255).astype(np.uint8)
        for cy, cx in ((0, 0), (0, n - 7), (n - 7, 0)):
            m[cy:cy + 7, cx:cx + 7] = 0
            m[cy + 1:cy + 6, cx + 1:cx + 6] = 255
            m[cy + 2:cy + 5, cx + 2:cx + 5] = 0
        patch = cv2.resize(np.pad(m, 2, constant_values=255), (size, size), interpolation=cv2.INTER_NEAREST)
    elif kind == 3:  # a block of text
        pil = Image.new("L", (size * 2, size), 250)
        d = ImageDraw.Draw(pil)
        for row in range(0, size, 14):
            d.text((2, row), "".join(chr(int(c)) for c in rng.integers(65, 91, 30)), fill=20, font=font(12))
        patch = np.asarray(pil)
    else:  # nested boxes
        patch = np.full((size, size), 255, np.uint8)
        for i in range(0, size // 2, max(3, size // 10)):
            cv2.rectangle(patch, (i, i), (size - 1 - i, size - 1 - i), 0 if (i // max(3, size // 10)) % 2 == 0 else 255, max(2, size // 20))
    ph, pw = patch.shape[:2]
    pw, ph = min(pw, w - x), min(ph, h - y)
    angle = rng.uniform(-40, 40)
    M = cv2.getRotationMatrix2D((pw / 2, ph / 2), angle, 1.0)
    rotated = cv2.warpAffine(patch[:ph, :pw], M, (pw, ph), borderValue=255)
    roi = canvas[y:y + ph, x:x + pw]
    roi[:] = np.minimum(roi, rotated[:, :, None])
