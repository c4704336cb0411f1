"""The 39 Clues table's pieces: a player's plate, a mission card (whole or fanned to a strip) and a
player's row of cards laid out for the room there is."""

from __future__ import annotations

from dataclasses import replace
from typing import Iterable, Mapping

from PySide6.QtCore import QRect, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from ... import style
from ...drawn import DrawnCard
from ...drawn import paint as pt
from ...drawn.items import paint_cached, paint_player_disc
from ...drawn.paint import CardLook, Row, fit_rows
from ...drawn.text import KEY_PX, LEAST_PX, DrawnText, draw_lines, font, line_height, narrow_family
from ...widgets import plain_tip
from ..name_room import fit_name

DISC = 28                   # a player's disc on their plate: its initial is 15 px
PLATE_WIDTH = 150           # a player's name, score and counts, at the left of their row
PLATE_PAD = 3               # room above and below the plate's words


class PlayerPlate(QWidget):
    """A player's name by a disc in their colour, their score, what they hold (counted, each count
    on a line of its own: "Hand 4", "1-sided deck 18", "Discard 0") and the card they attack with,
    fitted to the room the row gives."""

    def __init__(self, name: str, colour: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName(f"plate:{name}")
        self.name, self.colour = name, colour
        self.score, self.counts, self.note, self.current = 0, (), "", False
        self.setMinimumWidth(PLATE_WIDTH)
        self.setMaximumWidth(int(PLATE_WIDTH * 1.4))
        self.setSizePolicy(QSizePolicy.Preferred, QSizePolicy.Ignored)
        self.setMinimumHeight(60)

    def set_state(self, *, score: int, counts: tuple[str, ...], note: str, current: bool) -> None:
        """``counts``: one short line per count, the most wanted first ("Hand 4", "1-sided deck 18"...)."""
        counts = tuple(counts)
        if (score, counts, note, current) != (self.score, self.counts, self.note, self.current):
            self.score, self.counts, self.note, self.current = score, counts, note, current
            self.setAccessibleName(self.text())
            self.setToolTip(plain_tip(self.text()))
            self.update()

    def text(self) -> str:
        counts = ", ".join(self.counts)
        return (f"{self.name}: {self.score} points" + (f" — {counts}" if counts else "")
                + (f" — {self.note}" if self.note else "") + ("   ◀ playing now" if self.current else ""))

    def _layout(self) -> list[tuple[DrawnText, bool]]:
        # The name and the score beside the disc; under them, across the whole plate, the note and
        # the counts, each whole on one line. Short of room (another player's row) the name and the
        # score get smaller first (to 15 px), then the last counts give way: every one is in the
        # tooltip and the screen-reader name.
        best: list[tuple[DrawnText, bool]] = []
        shown = -1
        for px in range(20, LEAST_PX - 1, -1):
            out, head, counts = self._layout_at(px)
            if not head:
                return out               # a name too long even alone: name and score only
            if counts > shown:
                best, shown = out, counts
            if counts == len(self.counts) + bool(self.note):
                break
        return best

    def _layout_at(self, head_px: int) -> tuple[list[tuple[DrawnText, bool]], bool, int]:
        """The plate with its name and score at ``head_px`` at most: its words, whether the name
        and score fitted, and how many rows under them (the note, the counts) are shown whole."""
        disc = DISC
        head = [Row(self.name, head_px, bold=True, max_lines=2), Row(f"{self.score} points", head_px, bold=True)]
        room = QRect(disc + 8, PLATE_PAD, self.width() - disc - 12, self.height() - 2 * PLATE_PAD)
        kept, placed, total, fitted = fit_rows(head, room.width(), room.height())
        out, y = [], room.top()
        if not fitted:
            # A name too long for the room: the score keeps its line, the name has the rest,
            # shortened with "\u2026" if need be (whole in the tooltip).
            score_px = LEAST_PX
            score_h = line_height(score_px, True)
            px, lines, family, fits = fit_name(self.name, room.width(), room.height() - score_h - 2, 20)
            h = len(lines) * line_height(px, True, family)
            out.append((DrawnText("\n".join(lines), px, QRect(room.left(), y, room.width(), h), fits,
                                  family=family), True))
            out.append((DrawnText(f"{self.score} points", score_px, QRect(room.left(), y + h + 2, room.width(), score_h),
                                  fits), True))
            return out, False, 0
        for r, (px, lines, _) in zip(kept, placed):
            h = len(lines) * line_height(px, r.bold)
            out.append((DrawnText("\n".join(lines), px, QRect(room.left(), y, room.width(), h), fitted), r.bold))
            y += h + 2
        wide = QRect(8, max(y - 2, disc + 8), self.width() - 14, 0)
        wide.setBottom(self.height() - PLATE_PAD)
        rows = [*([Row(self.note, 16, max_lines=3)] if self.note else []),
                *(Row(count, 17, max_lines=1) for count in self.counts)]
        placed = []
        while rows:
            kept, placed, total, fitted = fit_rows(rows, wide.width(), wide.height() + 1, keep_least=True)
            if fitted:
                break
            rows = rows[:-1]                      # the last count gives way (it is in the tooltip)
        # The counts at one size (the smallest one's): a column of like lines.
        even = min((px for r, (px, _, _) in zip(rows, placed) if r.text in self.counts), default=0)
        placed = [(even if r.text in self.counts else px, lines, ok) for r, (px, lines, ok) in zip(rows, placed)]
        y = wide.top()
        for r, (px, lines, _) in zip(rows, placed):
            h = len(lines) * line_height(px, r.bold)
            out.append((DrawnText("\n".join(lines), px, QRect(wide.left(), y, wide.width(), h), True), r.bold))
            y += h + 2
        return out, True, len(rows)

    def drawn_texts(self) -> list[DrawnText]:
        return [d for d, _ in self._layout()]

    def paintEvent(self, event) -> None:
        p = QPainter(self)
        paint_cached(self, p, (self.name, self.colour, self.score, self.counts, self.note, self.current), self._draw)
        p.end()

    def _draw(self, p: QPainter) -> None:
        back = QColor(self.colour)
        back.setAlpha(70 if self.current else 28)
        p.setPen(QPen(QColor(style.GREEN), 4) if self.current else QPen(QColor("#9A9A9A"), 1.5))
        p.setBrush(back)
        p.drawRoundedRect(QRectF(self.rect()).adjusted(2, 2, -2, -2), 10, 10)
        paint_player_disc(p, QRectF(6, 6, DISC, DISC), self.colour, self.name)
        p.setPen(QColor(style.INK))
        for drawn, bold in self._layout():
            draw_lines(p, drawn.rect, tuple(drawn.text.split("\n")), drawn.px, bold=bold, align=Qt.AlignLeft,
                       family=drawn.family)


STRIP_PAD = 4               # room between a fanned mission's edge and its points
STRIP_NUMBER_PX = 22        # a strip's points at least this large, or without "pts" under them
SPREAD_WIDTH = 96           # cards at least this wide lie side by side; narrower, the missions fan out


def _advance(text: str, px: int, family: str = "") -> int:
    return QFontMetrics(font(px, True, QFont(family) if family else None)).horizontalAdvance(text)


def strip_layout(rect: QRect, look: CardLook, strip: float, *, name: bool = False,
                 legal: bool = False) -> pt.CardLayout:
    """A mission covered by the next one but for ``strip`` pixels at its left: its band (colour and
    symbol) and, under it, its points as large as the strip allows ("pts" under the number when
    there is room; with ``name``, its Location's name under them when there is room). A strip too
    narrow even for the number at the least size shows no words (the points are in its tooltip
    and its screen-reader name), never cut ones."""
    card = pt.card_rect(rect, look)
    out = pt.CardLayout(card)
    if not look.present or not look.badge:
        return out
    band = pt.band_height(card, look)
    # The next card's edge (its border) lies at the strip's right: the words keep clear of it. The
    # room is as high as on the deepest stack's card (its edges lift it most), so every strip of a
    # row says its points at the same size.
    lowest = pt.card_rect(rect, replace(look, layers=("",) * 4))
    # A legal one's arrow (paint_glow's, at its left edge) keeps its own room.
    arrow = int(min(14.0, card.height() / 4) * 0.6) + 1 if legal else 0
    width = int(strip - (card.left() - rect.left()) - 2 * STRIP_PAD - 2 - arrow)
    room = QRectF(card.left() + STRIP_PAD + arrow, card.top() + band + STRIP_PAD, width,
                  lowest.height() - band - 2 * STRIP_PAD)
    number, _, unit = look.badge.partition(" ")
    # Sized as two digits would be, so every strip as wide says its points at the same size; in the
    # narrow face, for more of the number's size in a narrow strip.
    rows = [Row(number.rjust(2, "0") if number.isdigit() else number, 30, bold=True, max_lines=1, narrow=True),
            *([Row(unit, 18, bold=True, optional=True, max_lines=1, narrow=True)] if unit else []),
            *([Row(look.name, 18, bold=True, optional=True, max_lines=2, drop=4, narrow=True)]
              if name and look.name else [])]
    kept, placed, _, fitted = fit_rows(rows, width, int(room.height()))
    if placed and placed[0][0] < STRIP_NUMBER_PX:
        # The number large rather than "pts" under it (the top card says "pts").
        kept, placed, _, fitted = fit_rows(rows[:1], width, int(room.height()))
    rows = kept
    if not fitted or width < 1:
        return out
    placed[0] = (placed[0][0], (number,), True)
    y = room.top()
    for r, (px, lines, _) in zip(rows, placed):
        h = len(lines) * line_height(px, r.bold, r.family)
        out.texts.append((DrawnText("\n".join(lines), px, QRect(int(room.left()), int(y), width, h), True,
                                    family=r.family), r.bold, "#111111"))
        y += h + pt.GAP
    return out


NOTE_PX = 17                # a card's notes ("+1 under it", "immune, new this turn") at most this large


def role(look: CardLook, text: str, key: bool = False) -> str:
    """Which of a card's words ``text`` is: its place (a legal one apart), name, a note, its type, its points."""
    flat = " ".join(text.split())
    if key:
        return "caption"
    if look.name and flat == " ".join(look.name.split()):
        return "name"
    if flat in look.notes:
        return "note"
    if look.badge and flat == look.badge:
        return "badge"
    return "kind"


def even_layout(rect: QRect, look: CardLook, *, legal: bool = False, chosen: bool = False,
                most: Mapping[str, int] | None = None) -> pt.CardLayout:
    """A card's words as :func:`desktop.drawn.paint.layout_card` places them, each of its words at
    most ``most[role]`` pixels (:func:`role`: so a row's cards say their names, notes and places at
    one size) and its notes in the app's own face (the narrow face at 15 px read as much smaller)."""
    most = most or {}
    card = pt.card_rect(rect, look)
    out = pt.CardLayout(card)
    band = 0.0
    ink = "#111111" if look.present else "#555555"
    if look.present and look.name:
        band = pt.band_height(card, look)
        pt._band_words(out, card, look, band)
        if look.kind and " " in look.kind and not any(d.text == look.kind for d, _, _ in out.texts):
            # A band too narrow for "Yellow Agent" still names the card's colour ("Yellow"): the
            # colour is what a mission matches on (the name says the type, the symbol too).
            short = pt.CardLayout(card)
            pt._band_words(short, card, replace(look, kind=look.kind.split()[0]), band)
            out.texts = short.texts
        # The band's words (type, points) at the row's size too: one line, it only gets narrower.
        out.texts = [(replace(d, px=min(d.px, most.get(role(look, d.text), d.px))), bold, colour)
                     for d, bold, colour in out.texts]
    elif look.present:
        ink = pt.readable_ink(look.colour)
    pad = 5
    room = QRectF(card).adjusted(pad, pad + band, -pad - (pt.badge_size(card) * 2 if chosen else 0), -pad)
    in_band = any(d.text == look.badge for d, _, _ in out.texts) if look.badge else True
    rows = []
    for r in pt._rows(look, legal, False, badge_in_rows=not in_band):
        kind = "legal" if r.key and legal else role(look, r.text, r.key)
        cap = max(most.get(kind, r.largest), r.least)
        rows.append(replace(r, largest=min(r.largest, NOTE_PX if kind == "note" else r.largest, cap),
                            narrow=r.narrow and kind != "note"))
    width, height = int(room.width()), int(room.height())
    rows, placed, total, fitted = fit_rows(rows, width, height)
    y = room.top() + max(height - total, 0) / 2 if fitted else room.top()
    for r, (px, lines, _) in zip(rows, placed):
        h = len(lines) * line_height(px, r.bold, r.family)
        out.texts.append((DrawnText("\n".join(lines), px, QRect(int(room.left()), int(y), width, int(h)), fitted,
                                    r.key, r.family), r.bold, r.ink or ink))
        y += h + pt.GAP
    return out


def sizes(cards: Iterable["FaceCard"]) -> dict[str, int]:
    """Each kind of words' size on the smallest of ``cards`` that shows it: what all of them use."""
    out: dict[str, int] = {}
    for card in cards:
        if not card.look.present or card.width() < 2:
            continue
        natural = even_layout(card.rect(), card.look, legal=card.legal, chosen=card.chosen)
        for d, _, _ in natural.texts:
            if d.fits:
                kind = "legal" if d.key and card.legal else role(card.look, d.text, d.key)
                out[kind] = min(out.get(kind, d.px), d.px)
    return out


class FaceCard(DrawnCard):
    """A card of a player's row whose words are the same size as on the row's other cards (``most``)."""

    def __init__(self, place: str, parent: QWidget | None = None) -> None:
        super().__init__(place, parent)
        self.most: dict[str, int] = {}

    def set_most(self, most: dict[str, int]) -> None:
        if most != self.most:
            self.most = most
            self._layout = None
            self._picture_key = None
            self.update()

    def layout(self) -> pt.CardLayout:
        if self._layout is None and self.look.name:
            self._layout = even_layout(self.rect(), self.look, legal=self.legal, chosen=self.chosen, most=self.most)
        return super().layout()          # (a back, a deck, an empty place: as every table draws it)


class MissionCard(FaceCard):
    """A mission stack in a player's row. Fanned out, it is covered by the next one but for a strip
    at its left (its colour, symbol and points); the top one, or one the keyboard reaches, is whole."""

    def __init__(self, place: str, parent: QWidget | None = None) -> None:
        super().__init__(place, parent)
        #: how many pixels from its left are seen (None: the whole card)
        self.strip: float | None = None

    def set_strip(self, strip: float | None) -> None:
        if strip != self.strip:
            self.strip = strip
            self._layout = None
            self._picture_key = None          # painted again: what it shows changed, not its size
            self.update()

    def layout(self) -> pt.CardLayout:
        if self._layout is None:
            whole = super().layout() if self.strip is None else None
            if whole is not None and all(drawn.fits and (drawn.px >= KEY_PX or not (drawn.key and self.legal))
                                         for drawn, _, _ in whole.texts):
                return whole
            # A strip; or a whole card too small for its words (a legal one's place under the
            # choice's size): what picking a mission needs, its points large and its Location.
            self._layout = strip_layout(self.rect(), self.look, self.strip or self.width(), name=whole is not None,
                                        legal=self.legal)
        return self._layout

    def focusInEvent(self, event) -> None:
        super().focusInEvent(event)
        row = self.parentWidget()
        if event.reason() != Qt.MouseFocusReason and isinstance(row, CardRow):
            row.lift(self)              # reached by Tab or an arrow: shown whole, over its neighbours

    def focusOutEvent(self, event) -> None:
        super().focusOutEvent(event)
        row = self.parentWidget()
        if isinstance(row, CardRow) and row.lifted is self:
            row.lift(None)


class CardRow(QWidget):
    """A player's cards left to right: Table 1-4 and the two-sided deck, then the missions in order.

    With room, every card lies side by side at the same width. A row too short for that fans its
    missions: each covered by the next but for a strip showing its colour and points, the last one
    whole; the five other cards keep the width their words need at the least size (a legal one the
    width for its words at the choice's size, when the strips keep room for their points)."""

    def __init__(self, fixed: list[DrawnCard], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.fixed = fixed
        self.missions: list[MissionCard] = []
        self.lifted: MissionCard | None = None
        self._wanted: dict[tuple, int] = {}
        for card in fixed:
            card.setParent(self)
        self.setSizePolicy(QSizePolicy.Expanding, QSizePolicy.Ignored)
        self.setMinimumSize(6 * 60, 56)

    def set_missions(self, cards: list[MissionCard]) -> None:
        for card in cards:
            if card.parentWidget() is not self:
                card.setParent(self)
        self.missions = list(cards)
        if self.lifted not in self.missions:
            self.lifted = None
        self.arrange()
        for card in cards:
            card.show()

    def lift(self, card: MissionCard | None) -> None:
        self.lifted = card
        self.arrange()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self.arrange()

    @staticmethod
    def least_width(words: Iterable[str], px: int, family: str = "") -> int:
        """A card wide enough for each of ``words`` on one line at ``px`` (its glow's room and padding around)."""
        return max(_advance(w, px, family) for w in words) + 2 * (pt.GLOW + 5) + 4

    def wanted_width(self, slot: DrawnCard, least: int) -> int:
        """The narrowest width (from ``least``) at which ``slot`` shows every word it shows side by side,
        each at its size there (a legal place's words at the choice's size)."""
        height = self.height()
        key = (slot.look, slot.legal, slot.chosen, height, least)
        if key not in self._wanted:
            def words(w: int) -> set[tuple[str, bool]]:
                drawn = even_layout(QRect(0, 0, w, height), slot.look, legal=slot.legal, chosen=slot.chosen)
                return {(" ".join(d.text.split()), d.px >= KEY_PX or not d.key) for d, _, _ in drawn.texts if d.fits}
            full = words(SPREAD_WIDTH)
            good, bad = SPREAD_WIDTH, least - 1
            while good - bad > 1:
                mid = (good + bad) // 2
                if words(mid) >= full:
                    good = mid
                else:
                    bad = mid
            if len(self._wanted) > 256:
                self._wanted.clear()
            self._wanted[key] = good
        return self._wanted[key]

    def plan(self) -> tuple[list[float], float, float]:
        """The five cards' widths, a mission's width and the step from one mission to the next.

        Fanned, the room goes first to what must be read: each card's words at the least size (two
        lines if need be: "Table" over "4"), a mission's points on one line, each strip's number;
        then each of the five cards' whole words (a name, a legal place's words at the choice's
        size); then "pts" under the strips' numbers; what is left widens every card alike."""
        width, n = float(self.width()), len(self.missions)
        count = len(self.fixed)
        equal = width / (count + n)
        if n <= 1 or equal >= SPREAD_WIDTH:
            return [equal] * count, equal, equal
        narrow = narrow_family()
        least = min(self.least_width(("Table", "Deck", "pts"), LEAST_PX), int(width / (count + 1)))
        mission = float(min(max(least, self.least_width(("39 pts",), LEAST_PX)), int(width / (count + 1))))
        arrow = 9.0 if any(card.legal for card in self.missions) else 0.0        # a legal strip's arrow
        strip_least = float(_advance("39", 20, narrow) + 2 * STRIP_PAD + pt.GLOW + 4) + arrow
        strip_want = float(_advance("pts", 24, narrow) + 2 * STRIP_PAD + pt.GLOW + 4) + arrow

        def strip(cards: list[float], top: float) -> float:
            return (width - sum(cards) - top) / (n - 1)

        # The five cards share the room the strips leave alike: each up to the same width, or less
        # when it needs less (found by halving: the least width at which it all fits).
        wants = [float(max(self.wanted_width(slot, least), least)) for slot in self.fixed]

        def widths(level: float) -> list[float]:
            return [max(float(least), min(want, level)) for want in wants]

        fixed = widths(least)
        if strip(widths(max(wants)), mission) >= strip_least:
            fixed = widths(max(wants))
        elif strip(fixed, mission) >= strip_least:
            low, high = float(least), max(wants)
            while high - low > 0.5:
                mid = (low + high) / 2
                low, high = (mid, high) if strip(widths(mid), mission) >= strip_least else (low, mid)
            fixed = widths(low)
        spare = width - sum(fixed) - mission - (n - 1) * strip_want
        if spare > 0:                    # every card a little wider, up to the side-by-side width
            grow = spare / (count + 1)
            fixed = [max(w, min(w + grow, SPREAD_WIDTH)) for w in fixed]
            mission = max(mission, min(mission + grow, SPREAD_WIDTH))
        return fixed, mission, min(strip(fixed, mission), mission)

    def arrange(self) -> None:
        fixed, card, step = self.plan()
        height = self.height()
        x = 0.0
        for slot, w in zip(self.fixed, fixed):
            slot.setGeometry(int(x), 0, int(x + w) - int(x), height)
            x += w
        fanned = step < card - 0.5
        for i, mission in enumerate(self.missions):
            left = int(x + i * step)
            mission.setGeometry(left, 0, int(x + i * step + card) - left, height)
            whole = not fanned or i == len(self.missions) - 1 or mission is self.lifted
            mission.set_strip(None if whole else int(step))       # (the same for each: words the same size)
            mission.raise_()
        if self.lifted is not None:
            self.lifted.raise_()
        # The row's table cards say their names, notes and places at one size (the smallest card's),
        # and so do its whole missions (a mission says more: its Agent, its cards, whether it is immune).
        spots = [c for c in self.fixed if isinstance(c, FaceCard)]
        most = sizes(c for c in spots if c.look.name)
        for card in spots:
            card.set_most(most)
        most = sizes(c for c in self.missions if c.strip is None and c.look.name)
        for card in self.missions:
            card.set_most(most)
