"""A game's emblem on the shelf: our own drawing (an SVG file) on a tile in the game's colour.

A game's shelf card (``assets/games/<id>.toml``) names both under ``[game]``:

    colour = "#B22222"                 # the tile, behind the drawing
    emblem = "emblems/<id>.svg"        # relative to assets/games/, drawn on a clear ground

The drawing is rendered as vectors straight onto the painter, so a screen at twice the pixel
density gets twice the detail. A drawing that is missing, unreadable, not an SVG, or outside
the games folder gives the game's initials on its tile instead (never a crash); a missing or
malformed colour gives a neutral grey. What went wrong is logged for whoever keeps the files.

Nothing here names a game.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QByteArray, QRect, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import (QAbstractItemView, QSizePolicy, QStyle, QStyledItemDelegate, QStyleOptionViewItem,
                               QWidget)

from engine.paths import assets_dir, read_toml

from . import text as txt
from .palette import readable_ink

try:
    from PySide6.QtSvg import QSvgRenderer
except ImportError:             # a build without Qt's SVG module: every emblem shows its initials
    QSvgRenderer = None

log = logging.getLogger(__name__)

#: the tile of a game whose shelf card names no usable colour
NO_COLOUR = "#6B6B6B"
#: a drawing larger than this is not an emblem (and is not parsed)
MOST_BYTES = 256 * 1024
#: the item-data role under which the shelf keeps each game's emblem
EMBLEM_ROLE = Qt.UserRole + 40

_HEX = re.compile(r"#[0-9A-Fa-f]{6}")
_SMALL_WORDS = {"a", "an", "and", "at", "in", "is", "of", "on", "the", "to"}


@dataclass(frozen=True)
class Emblem:
    """What a game's emblem shows: its drawing (None: the initials instead) on its colour."""

    initials: str
    colour: str
    drawing: "QSvgRenderer | None" = None
    problem: str = ""          # why the drawing or the colour is not the shelf card's (empty: no problem)

    @property
    def words(self) -> str:
        """What the tile says in letters (the fallback's initials), or nothing for a drawing."""
        return "" if self.drawing is not None else self.initials


def initials(title: str) -> str:
    """Up to two marks from a title's first words, a number kept whole ("The 12 Keys of Rome" -> "12K")."""
    words = re.findall(r"[A-Za-z0-9]+", title)
    kept = [w for w in words if w.lower() not in _SMALL_WORDS] or words[:1]
    return "".join(w if w.isdigit() else w[0].upper() for w in kept[:2]) or "?"


def _drawing(folder: Path, name: object) -> tuple["QSvgRenderer | None", str]:
    """The SVG renderer for ``name`` (relative to ``folder``), or None and why not."""
    if QSvgRenderer is None:
        return None, "this build has no SVG support (PySide6.QtSvg)"
    if not isinstance(name, str) or not name.strip():
        return None, "no 'emblem' drawing is named"
    path = (folder / name).resolve()
    if not path.is_relative_to(folder.resolve()):
        return None, f"the emblem {name!r} lies outside {folder}"
    try:
        size = path.stat().st_size
        if size > MOST_BYTES:
            return None, f"{path}: {size} bytes is too large for an emblem"
        data = path.read_bytes()
    except OSError as exc:
        return None, f"{path}: cannot be read ({exc.strerror or exc})"
    renderer = QSvgRenderer(QByteArray(data))
    if not renderer.isValid() or renderer.viewBoxF().isEmpty():
        return None, f"{path}: not a drawing Qt can read as SVG"
    renderer.setAspectRatioMode(Qt.KeepAspectRatio)
    return renderer, ""


def game_emblem(game_id: str, title: str, folder: Path | None = None) -> Emblem:
    """The emblem a game's shelf card names (``folder``: the shelf cards' folder, assets/games/)."""
    folder = folder or assets_dir() / "games"
    problems = []
    try:
        head = read_toml(folder / f"{game_id}.toml", ValueError).get("game", {})
    except ValueError as exc:
        head, problems = {}, [str(exc)]
    head = head if isinstance(head, dict) else {}
    colour = head.get("colour")
    if not isinstance(colour, str) or not _HEX.fullmatch(colour):
        problems.append(f"'colour' must be a colour like \"#B22222\", not {colour!r}")
        colour = NO_COLOUR
    drawing, why = _drawing(folder, head.get("emblem"))
    if why:
        problems.append(why)
    problem = "; ".join(problems)
    if problem:
        log.warning("The shelf emblem of %s: %s", game_id, problem)
    return Emblem(initials(title), colour.upper(), drawing, problem)


# --- painting ------------------------------------------------------------------------------------
def tile_rect(rect: QRect | QRectF) -> QRectF:
    """The square tile centred in ``rect``."""
    r = QRectF(rect)
    side = min(r.width(), r.height())
    return QRectF(r.center().x() - side / 2, r.center().y() - side / 2, side, side)


def initials_text(emblem: Emblem, rect: QRect | QRectF) -> txt.DrawnText:
    """The fallback's initials, as large as the tile allows (never below the least size)."""
    tile = tile_rect(rect)
    room = tile.adjusted(tile.width() * 0.1, tile.height() * 0.1, -tile.width() * 0.1, -tile.height() * 0.1)
    px, lines, fits = txt.fit(emblem.initials, int(room.width()), int(room.height()), int(room.height() * 0.7),
                              bold=True, max_lines=1)
    return txt.DrawnText("\n".join(lines), px, room.toAlignedRect(), fits)


def paint_emblem(p: QPainter, rect: QRect | QRectF, emblem: Emblem) -> None:
    """The game's colour as a rounded tile in ``rect`` (a square, centred), its drawing on it."""
    tile = tile_rect(rect)
    side = tile.width()
    if side < 4:
        return
    p.save()
    p.setRenderHint(QPainter.Antialiasing)
    p.setPen(QPen(QColor("#1A1A1A"), max(side / 40, 1.2)))
    p.setBrush(QColor(emblem.colour))
    inset = max(side / 80, 0.6)        # the outline stays inside the rectangle
    p.drawRoundedRect(tile.adjusted(inset, inset, -inset, -inset), side * 0.16, side * 0.16)
    if emblem.drawing is not None:
        emblem.drawing.render(p, tile)
    else:
        drawn = initials_text(emblem, tile)
        p.setPen(QColor(readable_ink(emblem.colour)))
        p.setFont(txt.font(drawn.px, True))
        p.drawText(QRectF(drawn.rect), int(Qt.AlignCenter), drawn.text)
    p.restore()


class EmblemView(QWidget):
    """A game's emblem as a widget of ``side`` x ``side`` pixels (the chosen game's, beside its name)."""

    def __init__(self, side: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.emblem: Emblem | None = None
        self.setFixedSize(side, side)
        self.setSizePolicy(QSizePolicy.Fixed, QSizePolicy.Fixed)

    def set_emblem(self, emblem: Emblem) -> None:
        self.emblem = emblem
        self.update()

    def drawn_texts(self) -> list[txt.DrawnText]:
        """The fallback's initials (a drawing says nothing in letters)."""
        if self.emblem is None or not self.emblem.words:
            return []
        return [initials_text(self.emblem, self.rect())]

    def paintEvent(self, event) -> None:
        if self.emblem is None:
            return
        p = QPainter(self)
        paint_emblem(p, self.rect(), self.emblem)
        p.end()


#: an item's height while its text room is measured (taller than any item)
TALL = 10_000


def item_text_rect(option: QStyleOptionViewItem, widget: QWidget) -> QRect:
    """Where an item view's style wraps the item's words (its text rectangle, less the style's
    text margins on either side)."""
    style = widget.style()
    margin = style.pixelMetric(QStyle.PM_FocusFrameHMargin, None, widget) + 1
    return style.subElementRect(QStyle.SE_ItemViewItemText, option, widget).adjusted(margin, 0, -margin, 0)


class WrappedItemDelegate(QStyledItemDelegate):
    """A list's items whose words wrap, each as tall as its wrapped words need and no wider
    than the list.

    The style measures wrapped words as if the item had no padding and adds a style sheet's
    padding to the list's width: the item is laid out wider than the list shows it, its words
    run under the scroll bar and the last line is cut short. This measures the room it paints in.
    """

    def sizeHint(self, option: QStyleOptionViewItem, index) -> QSize:
        size = super().sizeHint(option, index)
        widget = option.widget
        if widget is None or not option.rect.isValid():
            return size
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        opt.rect = QRect(0, 0, option.rect.width(), TALL)
        room = item_text_rect(opt, widget)
        words = opt.fontMetrics.boundingRect(QRect(0, 0, room.width(), TALL), int(Qt.TextWordWrap), opt.text)
        around = TALL - room.height()
        decoration = opt.decorationSize.height() if opt.features & QStyleOptionViewItem.HasDecoration else 0
        # No wider than the list (the style adds the padding to the list's width).
        return QSize(min(size.width(), option.rect.width()),
                     max(size.height(), words.height() + around, decoration + around))


class EmblemDelegate(WrappedItemDelegate):
    """A list's items with an emblem (item data :data:`EMBLEM_ROLE`) in the icon's place.

    The style lays the item out as if it had an icon (its text wraps beside it as usual); the
    emblem is then painted there as vectors, crisp at any pixel density. The emblem is ``least``
    pixels on a side in a narrow list and grows with the list's width up to ``most``.
    """

    def __init__(self, view: QAbstractItemView, least: int, most: int) -> None:
        super().__init__(view)
        self.least, self.most = least, most

    def side(self, width: int) -> int:
        """The emblem's side in a list ``width`` pixels wide (about a seventh of it)."""
        return min(max(width // 7, self.least), self.most)

    def initStyleOption(self, option: QStyleOptionViewItem, index) -> None:
        super().initStyleOption(option, index)
        if isinstance(index.data(EMBLEM_ROLE), Emblem):
            side = self.side(option.rect.width())
            option.features |= QStyleOptionViewItem.HasDecoration
            option.decorationSize = QSize(side, side)
            option.decorationPosition = QStyleOptionViewItem.Left

    def paint(self, p: QPainter, option: QStyleOptionViewItem, index) -> None:
        super().paint(p, option, index)
        emblem = index.data(EMBLEM_ROLE)
        if not isinstance(emblem, Emblem):
            return
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        widget = option.widget
        style = widget.style() if widget is not None else None
        if style is None:
            return
        paint_emblem(p, style.subElementRect(QStyle.SE_ItemViewItemDecoration, opt, widget), emblem)


__all__ = ["Emblem", "EmblemDelegate", "EmblemView", "EMBLEM_ROLE", "NO_COLOUR", "WrappedItemDelegate",
           "game_emblem", "initials", "initials_text", "item_text_rect", "paint_emblem"]
