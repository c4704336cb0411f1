"""A player's board drawn as a sheet (issue 23), and the tab per player above it (colour, name,
points and the dice they took this round)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from PySide6.QtCore import QPointF, QRect, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QFontMetrics, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from ...drawn import Clickable, paint as pt, text as txt
from ...drawn.items import paint_player_disc
from .pieces import (DISC, HoldsDice, INK, PAPER, PaintedOnce, SOFT_INK, disc_texts, draw_placed, elided, fit,
                     place_lines)
from .pool import paint_pool_die


# --- a player's board ------------------------------------------------------------------------------
@dataclass
class SheetData:
    """What one player's board shows (the public table's figures, in words)."""

    name: str
    colour: str
    levels: dict[str, int]                      # column -> level 1-4
    columns: list[tuple[str, str, str]]         # (column id, its name, a short name), die value order, then the News
    dice: list[tuple[str, str, str, int]]       # (die id, column id, fill, value) taken this round
    entries: list[tuple[str, str, str, bool]]   # (key, words, value, optional)
    points: int = 0


class PlayerSheet(HoldsDice, PaintedOnce, QWidget):
    """The shown player's board: a row per column (its number as a die face, its name, the level
    reached as four boxes, the dice taken for it this round), and the rest as words (points,
    cash, bullets, evidence, where the badge is, the cards)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("sm:sheet")
        self.data: SheetData | None = None
        self.setSizePolicy(QSizePolicy.Ignored, QSizePolicy.Ignored)
        self.held: set[str] = set()
        self._placed = None

    def set_sheet(self, data: SheetData) -> None:
        if data != self.data:
            self.data = data
            self._placed = None
            self.update()

    # --- layout -------------------------------------------------------------------------------
    def layout(self):
        """(rows: [(row rect, die-face rect, name text, boxes rect, column)], entries: [(key, DrawnText,
        value)], dice: {die: rect}). The rows on the left and the words beside them; on a narrow sheet
        the words go under the rows."""
        if self._placed is not None:
            return self._placed
        data = self.data
        if data is None:
            self._placed = ([], [], {})
            return self._placed
        r = QRectF(self.rect()).adjusted(12, 8, -8, -6)
        n = len(data.columns)
        by_column: dict[str, list[tuple[str, str, int]]] = {}
        for die, column, fill, value in data.dice:
            by_column.setdefault(column, []).append((die, fill, value))
        most = min(max([len(v) for v in by_column.values()] + [2]), 4)

        def sizes(height: float, short: bool) -> tuple[float, int, float, float, float, float]:
            row_h = min(height / n, txt.line_height(24) + 8)
            px = next((s for s in range(22, txt.LEAST_PX - 1, -1) if txt.line_height(s) + 2 <= row_h), txt.LEAST_PX)
            face = max(min(row_h - 4, 34), 12)
            name_w = max(advance(c[2 if short else 1], px) for c in data.columns) + 8
            box = max(min(face * 0.6, 18), 9)
            width = face + 6 + name_w + 6 + 4 * box + 9 + 10 + most * (face + 3)
            return row_h, px, face, name_w, box, width

        # The columns' names, or their short names when the words beside them would have no room.
        short = False
        row_h, px, face, name_w, box, block_w = sizes(r.height(), short)
        if r.width() - block_w < 230:
            short = True
            row_h, px, face, name_w, box, block_w = sizes(r.height(), short)
        beside = r.width() - block_w >= 200
        if not beside:                      # narrow: the rows on top, the words under them
            row_h, px, face, name_w, box, block_w = sizes(r.height() * 0.62, short)
        block_w = min(block_w, r.width())
        rows = []
        dice_rects: dict[str, QRectF] = {}
        for i, (column, long_name, short_name) in enumerate(data.columns):
            words = short_name if short else long_name
            row = QRectF(r.left(), r.top() + i * row_h, block_w, row_h)
            face_r = QRectF(row.left(), row.center().y() - face / 2, face, face)
            name = txt.DrawnText(words, px, QRect(int(face_r.right() + 6), int(row.top()), int(name_w), int(row_h)),
                                 True)
            boxes = QRectF(face_r.right() + 6 + name_w + 6, row.center().y() - box / 2, 4 * box + 9, box)
            x = boxes.right() + 10
            taken = by_column.get(column, [])
            step = min(face + 3, (row.right() - x - face) / max(len(taken) - 1, 1)) if taken else 0
            for j, (die, _fill, _value) in enumerate(taken):
                dice_rects[die] = QRectF(x + j * step, face_r.top(), face, face)
            rows.append((row, face_r, name, boxes, column))
        # The rest as words: "label value" pieces flowing in lines; the optional ones go first when
        # there is no room.
        if beside:
            words_room = QRectF(r.left() + block_w + 14, r.top(), r.right() - (r.left() + block_w + 14), r.height())
        else:
            below = r.top() + n * row_h + 6
            words_room = QRectF(r.left(), below, r.width(), r.bottom() - below)
        entries = list(data.entries)
        while True:
            placed, ok = _flow(entries, words_room)
            if ok or len(entries) <= 2:
                break
            # The optional words go first; on a very small board the last of the others too (the
            # points and the cash stay).
            optional = [i for i, e in enumerate(entries) if e[3]] or [len(entries) - 1]
            del entries[optional[-1]]
        self._placed = (rows, placed, dice_rects)
        return self._placed

    def die_rect(self, die: str) -> QRectF | None:
        return self.layout()[2].get(die)

    def value(self, key: str) -> str | None:
        """The value shown for ``key`` ("points", "cash", a column's id for its level), or None
        when it is not drawn."""
        if self.data is None:
            return None
        if key in self.data.levels:
            return str(self.data.levels[key]) if self.layout()[0] else None
        return next((v for k, _, v in self.layout()[1] if k == key), None)

    def drawn_texts(self) -> list[txt.DrawnText]:
        rows, placed, _ = self.layout()
        return [name for _, _, name, _, _ in rows] + [d for _, d, _ in placed]

    def paint_key(self) -> tuple:
        return (self.data, frozenset(self.held))

    def _paint(self, p: QPainter) -> None:
        p.setRenderHint(QPainter.Antialiasing)
        r = QRectF(self.rect()).adjusted(1.5, 1.5, -1.5, -1.5)
        p.setPen(QPen(QColor("#8A8A8A"), 2))
        p.setBrush(QColor(PAPER))
        p.drawRoundedRect(r, 10, 10)
        data = self.data
        if data is None:
            return
        # The player's colour down the sheet's left edge.
        p.setPen(Qt.NoPen)
        p.setBrush(QColor(data.colour))
        p.drawRoundedRect(QRectF(r.left(), r.top(), 7, r.height()), 3, 3)
        rows, placed, dice_rects = self.layout()
        fills = {die: (fill, value) for die, _c, fill, value in data.dice}
        for i, (row, face_r, name, boxes, column) in enumerate(rows):
            if i % 2:
                p.setPen(Qt.NoPen)
                p.setBrush(QColor("#F3EFE4"))
                p.drawRect(row.adjusted(-4, 0, 4, 0))
            pips = i + 1 if i < 6 else None
            pt.paint_die(p, face_r, pips=pips, colour="#FFFFFF" if pips else "#E8E2D0")
            if pips is None:            # Read the News: a folded newspaper's lines on the face
                p.setPen(QPen(QColor("#555555"), max(face_r.height() / 14, 1.2)))
                for k in range(3):
                    y = face_r.top() + face_r.height() * (0.32 + 0.18 * k)
                    p.drawLine(QPointF(face_r.left() + face_r.width() * 0.25, y),
                               QPointF(face_r.right() - face_r.width() * 0.25, y))
            p.setPen(QColor(INK))
            txt.draw_lines(p, QRect(name.rect.left(), int(row.top() + (row.height() - txt.line_height(name.px)) / 2),
                                    name.rect.width(), int(txt.line_height(name.px))), (name.text,), name.px,
                           align=Qt.AlignLeft)
            level = data.levels.get(column)
            if level is not None:
                side = boxes.height()
                for k in range(4):
                    cell = QRectF(boxes.left() + k * (side + 3), boxes.top(), side, side)
                    p.setPen(QPen(QColor("#444444"), 1.5))
                    p.setBrush(QColor(data.colour) if k < level else QColor("#FFFFFF"))
                    p.drawRect(cell)
        for die, rect in dice_rects.items():
            if die in self.held:
                continue
            fill, value = fills[die]
            paint_pool_die(p, rect, die, value, fill)
        for key, drawn, value in placed:
            label = drawn.text[: len(drawn.text) - len(value)].rstrip()
            lines = drawn.text.split("\n")
            if len(lines) > 1 or not label:
                p.setPen(QColor(INK))
                txt.draw_lines(p, drawn.rect, tuple(lines), drawn.px, align=Qt.AlignLeft)
                continue
            f = txt.font(drawn.px)
            p.setFont(f)
            p.setPen(QColor(SOFT_INK))
            p.drawText(QRectF(drawn.rect), int(Qt.AlignLeft | Qt.AlignVCenter), label)
            shift = QFontMetrics(f).horizontalAdvance(label + " ")
            p.setFont(txt.font(drawn.px, True))
            p.setPen(QColor(INK))
            p.drawText(QRectF(drawn.rect).adjusted(shift, 0, 0, 0), int(Qt.AlignLeft | Qt.AlignVCenter), value)


@lru_cache(maxsize=8192)
def advance(text: str, px: int, bold: bool = False) -> int:
    """How wide ``text`` is at ``px`` pixels (measured once)."""
    return QFontMetrics(txt.font(px, bold)).horizontalAdvance(text)


@lru_cache(maxsize=2048)
def _wrapped(text: str, px: int, width: int) -> tuple[str, ...]:
    return tuple(txt.wrap(text, QFontMetrics(txt.font(px)), width))


def _flow(entries: list[tuple[str, str, str, bool]], room: QRectF) -> tuple[list[tuple[str, txt.DrawnText, str]], bool]:
    """Entries as "words value" pieces flowing left to right in lines, at the largest size that
    fits ``room`` (none below the least size); whether they all fitted."""
    for px in range(22, txt.LEAST_PX - 1, -1):
        line_h = txt.line_height(px, True) + 3
        x, y = room.left(), room.top()
        out = []
        ok = True
        for key, words, value, _optional in entries:
            w = advance(words + " ", px) + advance(value, px, True) + 4
            if w > room.width():
                # Too long for a line (a list of cards): wrapped on lines of its own.
                if x > room.left():
                    x, y = room.left(), y + line_h
                lines = _wrapped(f"{words} {value}", px, int(room.width()))
                h = len(lines) * txt.line_height(px)
                if any(advance(line, px) > room.width() for line in lines):
                    ok = False
                out.append((key, txt.DrawnText("\n".join(lines), px, QRect(int(x), int(y), int(room.width()), int(h)),
                                               True), value))
                y += h + 3
                continue
            if x + w > room.right() and x > room.left():
                x, y = room.left(), y + line_h
            out.append((key, txt.DrawnText(f"{words} {value}", px, QRect(int(x), int(y), int(w), int(line_h - 3)),
                                           True), value))
            x += w + max(px, 16)
        bottom = y + (line_h if x > room.left() else 0)
        if ok and bottom <= room.bottom() + 1:
            return out, True
    return out, False


class PlayerTab(HoldsDice, PaintedOnce, Clickable):
    """A player in the row above the sheet: their colour, name and points (and cash and the dice
    they took this round, when there is room). The one shown on the sheet is the open tab; a
    click shows that player's board."""

    chosen_player = Signal(str)

    def __init__(self, player: str, colour: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.player, self.colour = player, colour
        self.setObjectName(f"sm:tab:{player}")
        self.setSizePolicy(QSizePolicy.Ignored, QSizePolicy.Ignored)
        self.parts: list[str] = [player]
        self.dice: list[tuple[str, str, int]] = []      # (die, fill, value)
        self.open = self.current = False
        self.held: set[str] = set()
        self._placed = None
        self.clicked.connect(lambda: self.chosen_player.emit(self.player))

    def set_tab(self, parts: list[str], dice: list[tuple[str, str, int]], *, open_: bool, current: bool) -> None:
        if (parts, dice, open_, current) != (self.parts, self.dice, self.open, self.current):
            self.parts, self.dice, self.open, self.current = list(parts), list(dice), open_, current
            self._placed = None
            self.setAccessibleName(" ".join(parts) + (", playing now" if current else "")
                                   + (", shown" if open_ else ""))
            self.update()

    def text(self) -> str:
        return " ".join(self.parts)

    def _layout(self):
        if self._placed is None:
            h = self.height()
            disc = QRectF(6, (h - DISC) / 2, DISC, DISC)
            x = disc.right() + 6
            room_w = self.width() - x - 6
            mark = "\u25B6 " if self.current else ""
            two = h >= 2 * txt.line_height(txt.LEAST_PX, True) + 8 and len(self.parts) > 1
            dice = {}
            if two:
                # The name on top; the points and cash under it, then the dice taken this round.
                line_h = (h - 6) / 2
                face = min(line_h - 2, 22)
                # A narrow tab keeps what fits: the name (the disc's initial alone when even that is too
                # wide), then the points and cash with the dice, or less (the dice go first).
                placed = []
                for words in (mark + self.parts[0], self.parts[0], elided(self.parts[0], room_w)):
                    fitted, ok = fit([pt.Row(words, 20, bold=True, max_lines=1)], int(room_w), int(line_h))
                    if ok:
                        placed = place_lines(fitted, QRectF(x, 3, room_w, line_h))
                        break
                rest = self.parts[1:]
                all_dice = len(self.dice) * (face + 2) + 6 if self.dice else 0
                show_dice = False
                for words, dice_w in (("  ".join(rest), all_dice), (rest[0], all_dice), (rest[0], 0),
                                      (rest[0].split()[0], 0)):
                    fitted, ok = fit([pt.Row(words, 17, max_lines=1)], int(room_w - dice_w), int(line_h))
                    if ok:
                        show_dice = bool(dice_w)
                        placed += place_lines(fitted, QRectF(x, 3 + line_h, room_w - dice_w, line_h))
                        break
                width = max((QFontMetrics(txt.font(d.px)).horizontalAdvance(d.text) for d, x in placed if not x.bold),
                            default=0)
                dx = x + width + 8
                for die, _fill, _value in self.dice if show_dice else ():
                    dice[die] = QRectF(dx, 3 + line_h + (line_h - face) / 2, face, face)
                    dx += face + 2
            else:
                face = min(h - 12, 24)
                parts = list(self.parts)
                while True:
                    dice_w = len(self.dice) * (face + 2) + 6 if self.dice and len(parts) > 1 else 0
                    fitted, ok = fit([pt.Row(mark + "  ".join(parts), 24 if self.current else 18, bold=True,
                                             max_lines=1)], int(room_w - dice_w), int(h - 4))
                    if ok or len(parts) <= 1:
                        break
                    parts.pop()
                if not ok:                  # too narrow for a name: as much of it as fits, with "…"
                    fitted, ok = fit([pt.Row(elided(parts[0], room_w), 18, bold=True, max_lines=1)],
                                     int(room_w), int(h - 4))
                placed = place_lines(fitted, QRectF(x, 2, room_w - dice_w, h - 4)) if ok else []
                width = max((QFontMetrics(txt.font(d.px, True)).horizontalAdvance(d.text) for d, _ in placed),
                            default=0)
                if dice_w:
                    dx = x + width + 8
                    for die, _fill, _value in self.dice:
                        dice[die] = QRectF(dx, (h - face) / 2, face, face)
                        dx += face + 2
            self._placed = (disc, placed, dice)
        return self._placed

    def die_rect(self, die: str) -> QRectF | None:
        disc, _, dice = self._layout()
        return dice.get(die, disc)

    def drawn_texts(self) -> list[txt.DrawnText]:
        disc, placed, _ = self._layout()
        return [disc_texts(disc, self.player)] + [d for d, _ in placed]

    def paint_key(self) -> tuple:
        return (tuple(self.parts), tuple(self.dice), self.open, self.current, frozenset(self.held), self.hasFocus())

    def _paint(self, p: QPainter) -> None:
        p.setRenderHint(QPainter.Antialiasing)
        r = QRectF(self.rect()).adjusted(1, 1, -1, 0)
        path = QPainterPath()
        path.addRoundedRect(r.adjusted(0, 0, 0, 10), 10, 10)
        clip = QPainterPath()
        clip.addRect(r)
        p.setPen(QPen(QColor("#8A8A8A"), 2))
        fill = QColor(PAPER) if self.open else QColor("#E6E1D4")
        p.setBrush(fill)
        p.drawPath(path.intersected(clip))
        if self.current:
            band = QColor(self.colour)
            band.setAlpha(70)
            p.setPen(Qt.NoPen)
            p.setBrush(band)
            p.drawRoundedRect(r.adjusted(3, 3, -3, -2), 8, 8)
        disc, placed, shown = self._layout()
        paint_player_disc(p, disc, self.colour, self.player)
        draw_placed(p, placed, Qt.AlignLeft)
        for die, fill, value in self.dice:
            if die in shown and die not in self.held:
                paint_pool_die(p, shown[die], die, value, fill)
        if self.hasFocus():
            pt.paint_focus(p, r.adjusted(3, 3, -3, -3), 8)
