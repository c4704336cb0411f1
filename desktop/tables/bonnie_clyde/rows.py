"""In front of each player at the Bonnie and Clyde table: their name in their colour, the cards in
their hand (a count), their melds as overlapping face-up cards (sideways ones drawn sideways), the
outlaws they captured and their points; and where a card on its way to the row lands.
"""

from __future__ import annotations

from PySide6.QtCore import QRect, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from ... import style
from ...drawn import paint as pt
from ...drawn import text as txt
from ...drawn.items import paint_player_disc
from ..name_room import fit_name
from .board import _draw, cards_words, location_colour

def band_height(card_height: float) -> float:
    """The colour band at the foot of a laid card: thin on a low card, so its words keep their room."""
    return 5.0 if card_height < 40 else card_height * 0.22


def paint_laid_card(p: QPainter, rect: QRectF, colour: str) -> None:
    """A card laid face up in front of a player: a white face with a band in its colour."""
    p.setPen(QPen(QColor("#333333"), 1.5))
    p.setBrush(QColor(pt.FACE))
    p.drawRoundedRect(rect, 5, 5)
    high = band_height(rect.height())
    band = QRectF(rect.left() + 1, rect.bottom() - high, rect.width() - 2, high - 1)
    p.setPen(Qt.NoPen)
    p.setBrush(QColor(colour))
    p.drawRoundedRect(band, 3, 3)


class PlayerStrip(QWidget):
    """One player at the table: their name in their colour, the cards in their hand (a count),
    their melds as overlapping face-up cards (sideways ones drawn sideways), the outlaws they
    captured, and their points this hand and in all."""

    def __init__(self, player: str, colour: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.player, self.colour = player, colour
        self.setObjectName(f"bc:player:{player}")
        self.setSizePolicy(QSizePolicy.Ignored, QSizePolicy.Ignored)
        self.setMinimumHeight(30)
        self.current = False
        self.hand = 0
        self.melds: list[tuple[int, int, bool]] = []      # (location, cards, sideways)
        self.outlaws: list[str] = []
        self.points = 0
        self.total = 0
        self._narrow = 0
        self._layout: tuple | None = None
        #: a meld ((location, sideways)) or the outlaws ("outlaws") a card is flying to: how many of
        #: its cards show until it lands, and how many flights are on their way to it
        self.kept: dict[object, list[int]] = {}

    def show_player(self, *, current: bool, hand: int, melds: list[tuple[int, int, bool]], outlaws: list[str],
                    points: int, total: int, names: dict[int, str]) -> None:
        state = (current, hand, melds, outlaws, points, total)
        if state != (self.current, self.hand, self.melds, self.outlaws, self.points, self.total):
            self.current, self.hand, self.melds, self.outlaws, self.points, self.total = state
            self.names = names
            self._layout = None
            self.setAccessibleName(self.text())
            self.update()

    def table_words(self) -> str:
        melds = [f"{self.names[n]} x{k}" + (" sideways" if side else "") for n, k, side in self.melds]
        return ", ".join(melds + self.outlaws) or "nothing"

    def text(self) -> str:
        now = "playing now; " if self.current else ""
        return (f"{self.player}: {now}{cards_words(self.hand)} in hand; on the table: {self.table_words()}; "
                f"this hand {self.points}; total {self.total}")

    def resizeEvent(self, event) -> None:
        self._layout = None
        super().resizeEvent(event)

    # --- cards on their way here ------------------------------------------------------------
    def keep(self, key: object, before: int) -> None:
        """A card is on its way to ``key``, which held ``before`` cards: it shows them until the card lands."""
        if key in self.kept:
            self.kept[key][1] += 1
        else:
            self.kept[key] = [before, 1]
            self._layout = None
            self.update()

    def let_go(self, key: object) -> None:
        kept = self.kept.get(key)
        if kept is not None:
            kept[1] -= 1
            if kept[1] <= 0:
                del self.kept[key]
            self._layout = None
            self.update()

    def _shown(self) -> tuple[list[tuple[int, int, bool]], list[str]]:
        """The melds and outlaws drawn now: a place a card flies to keeps its count from before."""
        melds = [(n, self.kept[(n, side)][0] if (n, side) in self.kept else k, side) for n, k, side in self.melds]
        outlaws = self.outlaws[:self.kept["outlaws"][0]] if "outlaws" in self.kept else self.outlaws
        return [m for m in melds if m[1] > 0], outlaws

    def landing_rects(self, key: object) -> list[QRectF]:
        """Where the cards of a meld ((location, sideways)) or of the outlaws ("outlaws") lie once
        every card on its way has landed, in this widget (the last ones are the newest)."""
        _, cards, _, keys = self._compute(self.melds, self.outlaws)
        return [card[0] for card, k in zip(cards, keys) if k == key]

    def hand_rect(self, size) -> QRectF:
        """A card of ``size`` over the hand's count (where a card leaves from or goes to a hand)."""
        texts = self.layout_parts()[0]
        centre = QRectF(texts[1][0].rect).center() if len(texts) > 1 else QRectF(self.rect()).center()
        return QRectF(centre.x() - size.width() / 2, centre.y() - size.height() / 2, size.width(), size.height())

    def card_size(self):
        """The size of a card laid down in this row."""
        _, cards, _, _ = self._compute([(1, 1, False)], [])
        return cards[0][0].size()

    def layout_parts(self):
        """(texts with their bold and ink, the cards as (rect, colour, sideways, face text), the disc)."""
        if self._layout is None:
            self._layout = self._compute(*self._shown())
        return self._layout[:3]

    def _compute(self, melds: list[tuple[int, int, bool]], outlaws: list[str]):
        r = QRectF(self.rect()).adjusted(4, 2, -4, -2)
        h = r.height()
        texts: list[tuple[txt.DrawnText, bool]] = []
        # The name and the hand's count at the left.
        grow = min(max(h / 60, 1.0), 1.5)          # a roomy screen: larger type
        name_px, hand_px, points_px = int(24 * grow), int(17 * grow), int(19 * grow)
        disc = min(h - 6, 34.0 * grow)
        left = QRectF(r.left() + 10 + disc + 6, r.top(), min(r.width() * 0.25, 260.0 * grow), h)
        two = h >= txt.line_height(24, True) + txt.line_height(txt.LEAST_PX) + 2
        hand = f"{cards_words(self.hand)} in hand"
        if two:
            name_h = h - txt.line_height(hand_px)
            px, lines, family, fits = fit_name(self.player, int(left.width()), int(name_h), name_px)
            nh = len(lines) * txt.line_height(px, True, family)
            top = r.top() + max((h - nh - txt.line_height(hand_px)) / 2, 0)
            texts.append((txt.DrawnText("\n".join(lines), px, QRect(int(left.left()), int(top), int(left.width()), nh),
                                        fits, key=self.current, family=family), True))
            hpx, hlines, hfits = txt.fit(hand, int(left.width()), txt.line_height(hand_px), hand_px, max_lines=1)
            texts.append((txt.DrawnText("\n".join(hlines), hpx, QRect(int(left.left()), int(top + nh),
                                                                       int(left.width()), txt.line_height(hpx)),
                                        hfits), False))
        else:
            # The hand's count keeps its room; the name has the rest (shortened with "…" if need be).
            words = cards_words(self.hand)
            hpx, hlines, hfits = txt.fit(words, int(left.width() * 0.4), int(h), hand_px, max_lines=1)
            hw = QFontMetrics(txt.font(hpx)).horizontalAdvance(hlines[0]) + 2
            px, lines, family, fits = fit_name(self.player, int(left.width() - hw - 10), int(h), name_px, max_lines=1)
            nw = QFontMetrics(txt.font(px, True, QFont(family or txt.app_family()))).horizontalAdvance(lines[0])
            nh = txt.line_height(px, True, family)
            texts.append((txt.DrawnText(lines[0], px, QRect(int(left.left()), int(r.top() + (h - nh) / 2),
                                                            int(nw + 2), nh), fits, key=self.current, family=family),
                          True))
            hh = txt.line_height(hpx)
            texts.append((txt.DrawnText(hlines[0], hpx, QRect(int(left.left() + nw + 10), int(r.top() + (h - hh) / 2),
                                                              int(hw), hh), hfits), False))
        # The points at the right (in the narrow face: two numbers and their words in little room).
        family = txt.narrow_family()
        right = QRectF(r.right() - min(r.width() * 0.2, 170.0 * grow), r.top(), min(r.width() * 0.2, 170.0 * grow), h)
        lines_pts = [f"This hand: {self.points}", f"Total: {self.total}"]
        if h >= 2 * txt.line_height(txt.LEAST_PX, True, family) + 2:
            each = min(h / 2, txt.line_height(points_px, True, family) * 1.2)
            for i, words in enumerate(lines_pts):
                ppx, plines, pfits = txt.fit(words, int(right.width()), int(each), points_px, bold=i == 1,
                                             family=family, max_lines=1)
                ph = txt.line_height(ppx, i == 1, family)
                y = r.top() + (h - 2 * each) / 2 + each * i + (each - ph) / 2
                texts.append((txt.DrawnText("\n".join(plines), ppx, QRect(int(right.left()), int(y),
                                                                           int(right.width()), ph), pfits), i == 1))
        else:
            words = f"This hand: {self.points} \u00b7 Total: {self.total}"
            ppx, plines, pfits = txt.fit(words, int(right.width()), int(h), points_px, bold=True, family=family,
                                         max_lines=1)
            ph = txt.line_height(ppx, True, family)
            texts.append((txt.DrawnText("\n".join(plines), ppx, QRect(int(right.left()), int(r.top() + (h - ph) / 2),
                                                                       int(right.width()), ph), pfits), True))
        self._narrow = len(texts)        # the texts from here on are in the narrow face
        # The cards laid down, between.
        middle = QRectF(left.right() + 10, r.top() + 2, right.left() - left.right() - 20, h - 4)
        cards, keys = self._cards(middle, texts, hand_px, melds, outlaws)
        return texts, cards, QRectF(r.left() + 6, r.top() + (h - disc) / 2, disc, disc), keys

    def _cards(self, room: QRectF, texts: list[tuple[txt.DrawnText, bool]], words_px: int,
               melds: list[tuple[int, int, bool]], outlaws_laid: list[str]):
        """Each card in front of the player: (rect, colour, sideways, its number), and what each
        belongs to (a meld's (location, sideways), or "outlaws"); the words on the cards are added
        to ``texts``. A meld is a cascade: each card shows its location's number where there is
        room for it, and the top one the location's name (widened to hold it: the name in full,
        else the town without its state when the row is crowded)."""
        family = txt.narrow_family()
        ch = room.height()
        bold = QFontMetrics(txt.font(txt.LEAST_PX, True, QFont(family)))
        number_w = bold.horizontalAdvance("10") + 8
        cw = max(ch * 0.7, number_w + 4)
        groups: list[tuple[str, list[tuple[int, bool]]]] = [("meld", [(n, side)] * k) for n, k, side in melds]
        groups += [("outlaw", [(0, False)]) for _ in outlaws_laid]
        if not groups and self.kept:
            return [], []                 # cards on their way here: the row waits for them, no words
        if not groups:
            words = "nothing on the table yet"
            px, lines, fits = txt.fit(words, int(room.width()), int(ch), words_px, max_lines=2)
            lh = len(lines) * txt.line_height(px)
            texts.append((txt.DrawnText("\n".join(lines), px, QRect(int(room.left()), int(room.top() + (ch - lh) / 2),
                                                                     int(room.width()), lh), fits), False))
            return [], []
        # An outlaw's card is as wide as its name on one line (two when the card is high enough).
        outlaw_lines = 2 if ch >= 2 * txt.line_height(txt.LEAST_PX, True, family) + 6 else 1
        outlaw_w = max(ch * 1.2, max((max(bold.horizontalAdvance(w) for w in (name.split() if outlaw_lines == 2
                                                                                else [name])) + 12
                                      for name in outlaws_laid), default=0))

        def label(n: int, side: bool, px: int, short: bool) -> tuple[tuple[str, ...], int]:
            """The words on a meld's top card at ``px``: its name on one line, or two (at the comma)
            when the card is high enough; the town alone if ``short``; and the card's width."""
            name = self.names.get(n, str(n))
            town, _, state = name.partition(", ")
            high = (cw if side else ch) - band_height(cw if side else ch) - 4
            two = bool(state) and not short and high >= 2 * txt.line_height(px, True, family)
            lines = (town if short else name,) if not two else (town + ",", state)
            metrics = QFontMetrics(txt.font(px, True, QFont(family)))
            return lines, max(metrics.horizontalAdvance(line) for line in lines) + 10

        def width(step: float, gap: float, px: int, short: bool) -> float:
            total = 0.0
            for kind, cards in groups:
                if kind == "outlaw":
                    total += outlaw_w
                    continue
                n, side = cards[0]
                total += max(ch if side else cw, label(n, side, px, short)[1]) + step * (len(cards) - 1)
            return total + gap * (len(groups) - 1)

        step = max(cw * 0.55, number_w)
        # The largest type for the names that fits the row with the cascades at their roomiest,
        # then the town alone, then the cascades closed up.
        px, short = txt.LEAST_PX, True
        low = min(ch, cw if any(side for _, _, side in melds) else ch)     # the lowest top card
        tall = low - band_height(low) - 4
        largest = min(max(int(tall / 2.4), 18), 26)        # a roomy row (a large screen): larger names
        tries = [(size, False) for size in range(largest, txt.LEAST_PX - 1, -1)] + [(txt.LEAST_PX, True)]
        for px_try, short_try in tries:
            px, short = px_try, short_try
            if px > txt.LEAST_PX and txt.line_height(px, True, family) > tall:
                continue                                   # higher than the card's face
            if width(step, 10.0, px, short) <= room.width():
                break
        gap = 10.0
        while step > 5 and width(step, gap, px, short) > room.width():
            step -= 1
        while gap > 4 and width(step, gap, px, short) > room.width():
            gap -= 1
        out: list[tuple[QRectF, str, bool, str]] = []
        keys: list[object] = []
        x = room.left()
        outlaws = iter(outlaws_laid)
        for kind, cards in groups:
            if kind == "outlaw":
                rect = QRectF(x, room.top(), outlaw_w, ch)
                name = next(outlaws)
                opx, lines, fits = txt.fit(name, int(rect.width() - 10), int(rect.height() - 4), 20, bold=True,
                                           family=family, max_lines=outlaw_lines)
                lh = len(lines) * txt.line_height(opx, True, family)
                texts.append((txt.DrawnText("\n".join(lines), opx, QRect(int(rect.left() + 5),
                                                                           int(rect.top() + (ch - lh) / 2),
                                                                           int(rect.width() - 10), lh),
                                            fits and rect.right() <= room.right() + 1), True))
                out.append((rect, style.VERMILLION, False, ""))
                keys.append("outlaws")
                x += outlaw_w + gap
                continue
            n0, side0 = cards[0]
            lines, top_w = label(n0, side0, px, short)
            for i, (n, side) in enumerate(cards):
                # A sideways meld lies sideways: wider than high (the car was there: more points).
                last = i == len(cards) - 1
                w = max(ch if side else cw, top_w) if last else (ch if side else cw)
                rect = QRectF(x, room.top() + (ch - cw if side else 0), w, cw if side else ch)
                band = band_height(rect.height())
                if last:                                   # the top card: the location's name
                    lh = txt.line_height(px, True, family)
                    text_rect = QRect(int(rect.left() + 5), int(rect.top() + 2), int(rect.width() - 8),
                                      len(lines) * lh)
                    texts.append((txt.DrawnText("\n".join(lines), px, text_rect,
                                                rect.right() <= room.right() + 1
                                                and text_rect.bottom() <= rect.bottom() - band + 2), True))
                elif step >= number_w:                     # a card under it: its number, where it shows
                    npx = min(max(int(min((rect.height() - band) * 0.7, step * 0.8)), txt.LEAST_PX), 24)
                    text_rect = QRect(int(rect.left() + 3), int(rect.top() + 2), int(step - 4),
                                      txt.line_height(npx, True, family))
                    texts.append((txt.DrawnText(str(n), npx, text_rect, rect.right() <= room.right() + 1
                                                and text_rect.bottom() <= rect.bottom() + 1), True))
                out.append((rect, location_colour(n), side, str(n)))
                keys.append((n, side))
                x += step if not last else rect.width()
            x += gap
        return out, keys

    def drawn_texts(self) -> list[txt.DrawnText]:
        return [drawn for drawn, _ in self.layout_parts()[0]]

    def paintEvent(self, event) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.Antialiasing)
        r = QRectF(self.rect()).adjusted(1.5, 1.5, -1.5, -1.5)
        tint = QColor(self.colour)
        tint.setAlpha(45 if self.current else 0)
        p.setPen(QPen(QColor(self.colour) if self.current else QColor("#B8B0A0"), 3 if self.current else 1.5))
        p.setBrush(QColor("#FFFDF7"))
        p.drawRoundedRect(r, 10, 10)
        p.setPen(Qt.NoPen)
        p.setBrush(tint)
        p.drawRoundedRect(r, 10, 10)
        p.setBrush(QColor(self.colour))
        p.drawRoundedRect(QRectF(r.left(), r.top(), 7, r.height()), 3, 3)
        texts, cards, disc = self.layout_parts()
        paint_player_disc(p, disc, self.colour, self.player)
        family = txt.narrow_family()
        for rect, colour, side, _ in cards:
            paint_laid_card(p, rect, colour)
        for i, (drawn, bold) in enumerate(texts):
            if i < 2:                                      # the name and the hand's count
                _draw(p, drawn, style.INK, bold=bold, family=drawn.family, align=Qt.AlignLeft)
            elif i < self._narrow:                         # the points
                _draw(p, drawn, style.INK, bold=bold, family=family, align=Qt.AlignRight)
            elif cards:                                    # the words on the cards laid down
                _draw(p, drawn, style.INK, bold=bold, family=family, align=Qt.AlignLeft)
            else:                                          # nothing laid down yet
                _draw(p, drawn, "#555555", bold=bold, align=Qt.AlignLeft)
        p.end()
