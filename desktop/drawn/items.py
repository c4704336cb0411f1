"""Painted things on a table that can be clicked and reached by keyboard: cards, dice, a player's
name in their colour, a journal button, and the notebook page behind a journal.

Every one paints itself (``desktop.drawn.paint``) and tells what text it drew and how big
(:meth:`drawn_texts`), so the type-size and no-clipping tests read painted words like labels.
Keyboard: Tab reaches each clickable one (a dashed focus ring shows where), the arrow keys go
to the nearest one in that direction, Enter or Space clicks.
"""

from __future__ import annotations

import random

from PySide6.QtCore import QObject, QPointF, QRect, QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPen, QPixmap
from PySide6.QtWidgets import QAbstractButton, QSizePolicy, QWidget

from .. import style
from ..widgets import plain_tip
from . import paint as pt
from . import text as txt
from .motion import Step
from .palette import readable_ink

ARROWS = {Qt.Key_Left: (-1, 0), Qt.Key_Right: (1, 0), Qt.Key_Up: (0, -1), Qt.Key_Down: (0, 1)}


def move_focus(widget: QWidget, key: int) -> bool:
    """Give the focus to the nearest clickable painted thing in the arrow's direction (True if any)."""
    dx, dy = ARROWS[key]
    here = QRectF(widget.rect()).translated(QPointF(widget.mapTo(widget.window(), widget.rect().topLeft()))).center()
    best, best_score = None, float("inf")
    for other in widget.window().findChildren(QAbstractButton):
        if other is widget or not getattr(other, "navigable", False) or not other.isVisible() \
                or not other.isEnabled() or other.focusPolicy() == Qt.NoFocus:
            continue
        there = QRectF(other.rect()).translated(QPointF(other.mapTo(other.window(), other.rect().topLeft()))).center()
        along = (there.x() - here.x()) * dx + (there.y() - here.y()) * dy
        across = abs((there.x() - here.x()) * dy) + abs((there.y() - here.y()) * dx)
        if along <= 2:
            continue
        score = along + 2 * across
        if score < best_score:
            best, best_score = other, score
    if best is None:
        return False
    best.setFocus(Qt.OtherFocusReason)
    return True


class Clickable(QAbstractButton):
    """A painted button: Enter or Space clicks it, the arrows move between painted buttons."""

    navigable = True

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFocusPolicy(Qt.StrongFocus)
        self.setCursor(Qt.PointingHandCursor)

    def keyPressEvent(self, event) -> None:
        if event.key() in (Qt.Key_Return, Qt.Key_Enter) and self.isEnabled():
            self.click()
            return
        if event.key() in ARROWS and move_focus(self, event.key()):
            return
        super().keyPressEvent(event)

    def drawn_texts(self) -> list[txt.DrawnText]:
        return []


class Piece(Clickable):
    """A piece of a table a player may pick (a card's place, a die, a stop on a board). A click is
    always answered: ``picked`` when it may be chosen now (``legal``), else ``refused``, and the
    table says why; never nothing."""

    picked = Signal(str)
    refused = Signal(str)
    #: the place it stands for, and whether it may be chosen now (set by each kind of piece)
    place = ""
    legal = False

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.clicked.connect(self._answer)

    def _answer(self) -> None:
        (self.picked if self.legal else self.refused).emit(self.place)

    def seen_rect(self) -> QRect:
        """The part a person must see to pick it (the whole widget unless a kind says less)."""
        return self.rect()


class DrawnCard(Piece):
    """One place on the table drawn as a card: its back (type colour, symbol, type name), its face
    (the name) once known, or an empty place. A legal place glows and has an arrow; a chosen one
    has a thick mark and a tick; a card on its way here (a movement) leaves the place empty."""

    def __init__(self, place: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.place = place
        self.setObjectName(f"slot:{place}")
        self.setSizePolicy(QSizePolicy.Ignored, QSizePolicy.Ignored)
        self.setMinimumSize(60, 44)
        self.look = pt.CardLook(caption="")
        self.legal = False
        self.chosen = False
        #: only this many pixels from the top are seen (a card under another in a cascade)
        self.exposed: float | None = None
        self.holds = 0
        self._layout: pt.CardLayout | None = None
        self._picture: QPixmap | None = None
        self._picture_key: tuple | None = None

    # --- what it shows ------------------------------------------------------------------
    def set_look(self, look: pt.CardLook, *, legal: bool = False, chosen: bool = False) -> None:
        legal = legal and look.present
        if look == self.look and legal == self.legal and chosen == self.chosen:
            return
        self.look, self.legal, self.chosen = look, legal, chosen
        self._layout = None
        words = " ".join(look.words())
        state = ", can be chosen" if legal else ", chosen" if chosen else ""
        self.setAccessibleName(words + state)
        self.update()

    def show_card(self, kind_name: str, position: str, colour: str, symbol: str = "", *, name: str | None,
                  present: bool, legal: bool, chosen: bool, face_up: bool = True, notes: tuple[str, ...] = ()) -> None:
        """The same words as ``desktop.widgets.SlotButton.show_card``. A face-down card everyone saw
        flipped earlier is drawn face down (its back) with its name on a label, noted "seen by all"
        in its words."""
        seen = ""
        if name and not face_up:
            name, seen = None, name
        elif name:
            notes = ("(face up)", *notes)
        self.set_look(pt.CardLook(caption=position, kind=kind_name, symbol=symbol, colour=colour, name=name,
                                  face_up=face_up, present=present, notes=notes, seen=seen), legal=legal, chosen=chosen)

    def set_exposed(self, exposed: float | None) -> None:
        if exposed != self.exposed:
            self.exposed = exposed
            self._layout = None
            self.update()

    def text(self) -> str:       # the card's words, as a button's text would be (tests, screen readers)
        return "\n".join(self.look.words())

    # --- movements ----------------------------------------------------------------------
    @property
    def held(self) -> bool:
        return self.holds > 0

    def hold(self) -> None:
        self.holds += 1
        self.update()

    def release(self) -> None:
        self.holds = max(self.holds - 1, 0)
        self.update()

    def card_rect(self) -> QRectF:
        """The card itself in this widget (inside the room kept for the glow)."""
        return pt.card_rect(self.rect(), self.look)

    def seen_rect(self) -> QRect:
        """The card without its glow's room; of a card under another in a cascade, the part left
        in sight (``exposed``)."""
        card = self.card_rect()
        if self.exposed is not None:
            card.setBottom(min(card.bottom(), card.top() + self.exposed))
        return card.toAlignedRect().intersected(self.rect())

    def paint_at(self, p: QPainter, rect: QRectF) -> None:
        """The card as it is now, at ``rect`` (a card on its way is drawn whole, with no glow)."""
        paint_look(p, rect, self.look, self.card_rect().size())

    # --- painting -----------------------------------------------------------------------
    def layout(self) -> pt.CardLayout:
        if self._layout is None:
            self._layout = pt.layout_card(self.rect(), self.look, legal=self.legal, chosen=self.chosen,
                                          exposed=self.exposed)
        return self._layout

    def drawn_texts(self) -> list[txt.DrawnText]:
        if self.held:
            return []
        return [drawn for drawn, _, _ in self.layout().texts]

    def resizeEvent(self, event) -> None:
        self._layout = None
        super().resizeEvent(event)

    def sizeHint(self) -> QSize:
        return QSize(130, 130)

    def minimumSizeHint(self) -> QSize:
        return self.minimumSize()

    def paintEvent(self, event) -> None:
        # Painted once into a picture at the screen's pixel density (crisp at 2x) and drawn from it
        # until something it shows changes: a card flying over the table repaints what it passes.
        p = QPainter(self)
        ratio = painter_ratio(p)
        key = (self.size().width(), self.size().height(), ratio, self.look, self.legal, self.chosen, self.hasFocus(),
               self.held, self.exposed)
        old = self._picture_key
        if key != old:
            if old is not None and old[2:] == key[2:] and self._picture is not None:
                # Only its size changed (a row laid out again): the old picture stretched now, the
                # new one in a later pass, one card a pass, so a relayout never holds the loop up.
                p.setRenderHint(QPainter.SmoothPixmapTransform)
                p.drawPixmap(QRectF(self.rect()), self._picture, QRectF(self._picture.rect()))
                p.end()
                _later.add(self)
                return
            self._render(ratio, key)
        p.drawPixmap(0, 0, self._picture)
        p.end()

    def _render(self, ratio: float, key: tuple) -> None:
        picture = QPixmap(int(self.width() * ratio), int(self.height() * ratio))
        picture.setDevicePixelRatio(ratio)
        picture.fill(Qt.transparent)
        pp = QPainter(picture)
        pt.paint_card(pp, self.rect(), self.look, self.layout(), legal=self.legal and not self.held,
                      chosen=self.chosen, focus=self.hasFocus(), held=self.held)
        pp.end()
        self._picture, self._picture_key = picture, key

    def render_now(self) -> None:
        """Paint the picture for the card's present size (a resized card waiting its turn)."""
        if self._picture_key is not None:
            ratio = self._picture_key[2]
            self._render(ratio, (self.width(), self.height(), *self._picture_key[2:]))
            self.update()

    def hitButton(self, pos) -> bool:
        return self.card_rect().adjusted(-pt.GLOW, -pt.GLOW, pt.GLOW, pt.GLOW).contains(QPointF(pos))


def paint_cached(widget: QWidget, p: QPainter, key: tuple, draw) -> None:
    """Draw ``draw(painter)`` into a picture kept on ``widget`` (at the real pixel density) and
    paint the picture: drawn again only when ``key`` (what it shows) or the size changes."""
    ratio = painter_ratio(p)
    full = (widget.width(), widget.height(), ratio, *key)
    if getattr(widget, "_cached_key", None) != full:
        picture = QPixmap(max(int(widget.width() * ratio), 1), max(int(widget.height() * ratio), 1))
        picture.setDevicePixelRatio(ratio)
        picture.fill(Qt.transparent)
        pp = QPainter(picture)
        pp.setRenderHint(QPainter.Antialiasing)
        draw(pp)
        pp.end()
        widget._cached_picture, widget._cached_key = picture, full
    p.drawPixmap(0, 0, widget._cached_picture)


def painter_ratio(p: QPainter) -> float:
    """The pixel density of what ``p`` really paints on (a widget rendered into a 2x picture is
    painted through a redirection: its own ratio would be the screen's)."""
    engine = p.paintEngine()
    device = engine.paintDevice() if engine is not None else None
    device = device if device is not None else p.device()
    return device.devicePixelRatioF() if device is not None else 1.0


class _Later(QObject):
    """Cards to paint again at their new size, one per pass of the event loop."""

    def __init__(self) -> None:
        super().__init__()
        self.cards: list = []
        self.timer = QTimer(self)
        self.timer.setInterval(0)
        self.timer.timeout.connect(self._one)

    def add(self, card: "DrawnCard") -> None:
        if card not in self.cards:
            self.cards.append(card)
        if not self.timer.isActive():
            self.timer.start()

    def _one(self) -> None:
        while self.cards:
            card = self.cards.pop(0)
            try:
                if card.isVisible():
                    card.render_now()
                    break
            except RuntimeError:          # the card was deleted meanwhile
                continue
        if not self.cards:
            self.timer.stop()


class _LaterProxy:
    """Made on first use: a QObject (and its timer) needs the application to exist."""

    _later: _Later | None = None

    def add(self, card: "DrawnCard") -> None:
        if _LaterProxy._later is None:
            _LaterProxy._later = _Later()
        _LaterProxy._later.add(card)


_later = _LaterProxy()

_flying: dict[tuple, QPixmap] = {}


def paint_look(p: QPainter, rect: QRectF, look: pt.CardLook, size) -> None:
    """A card with ``look`` at ``rect`` (no glow), from a picture made once at ``size`` and the
    painter's pixel density: a card on its way is drawn sixty times a second."""
    ratio = painter_ratio(p)
    w, h = max(int(size.width()), 8), max(int(size.height()), 8)
    key = (look, w, h, ratio)
    picture = _flying.get(key)
    if picture is None:
        if len(_flying) > 64:
            _flying.clear()
        picture = QPixmap(int((w + 2 * pt.GLOW) * ratio), int((h + 2 * pt.GLOW) * ratio))
        picture.setDevicePixelRatio(ratio)
        picture.fill(Qt.transparent)
        pp = QPainter(picture)
        whole = QRectF(0, 0, w + 2 * pt.GLOW, h + 2 * pt.GLOW)
        pt.paint_card(pp, whole, look, pt.layout_card(whole, look))
        pp.end()
        _flying[key] = picture
    target = QRectF(rect).adjusted(-pt.GLOW * rect.width() / w, -pt.GLOW * rect.height() / h,
                                   pt.GLOW * rect.width() / w, pt.GLOW * rect.height() / h)
    p.setRenderHint(QPainter.SmoothPixmapTransform)
    p.drawPixmap(target, picture, QRectF(picture.rect()))


class DrawnDie(QWidget):
    """A die drawn from above with the face it shows (pips, or a card type's symbol), its words under it."""

    def __init__(self, parent: QWidget | None = None, *, colour: str = "#FFFFFF") -> None:
        super().__init__(parent)
        self.setObjectName("die")
        self.colour = colour
        self.pips: int | None = None
        self.symbol = ""
        self.symbol_colour = "#888888"
        self.caption = ""
        self.angle = 0.0
        self.rolling = False
        self.setMinimumSize(56, 56)
        self.setSizePolicy(QSizePolicy.Preferred, QSizePolicy.Ignored)
        self._rng = random.Random()

    def set_face(self, *, pips: int | None = None, symbol: str = "", symbol_colour: str = "#888888",
                 caption: str = "") -> None:
        self.pips, self.symbol, self.symbol_colour, self.caption = pips, symbol, symbol_colour, caption
        self.setAccessibleName(f"The die shows {caption}" if caption else "The die")
        self.update()

    def face(self) -> tuple[int | None, str, str]:
        return self.pips, self.symbol, self.caption

    def roll_step(self, faces: list[tuple[int | None, str, str]], *, pips: int | None = None, symbol: str = "",
                  symbol_colour: str = "#888888", caption: str = "") -> Step:
        """A movement: the die tumbles through ``faces`` (pips, symbol, colour) and lands on the rolled face."""
        spins = self._rng.choice((-1, 1)) * 360

        def progress(t: float) -> None:
            self.rolling = t < 1.0
            self.angle = spins * pt.ease(t) if t < 1.0 else 0.0
            if t < 1.0 and faces:
                shown = faces[int(t * 7) % len(faces)]
                self.pips, self.symbol, self.symbol_colour = shown
                self.caption = ""
            self.update()

        def land() -> None:
            self.rolling = False
            self.angle = 0.0
            self.set_face(pips=pips, symbol=symbol, symbol_colour=symbol_colour, caption=caption)

        return Step(progress=progress, land=land, what="roll")

    def _places(self) -> tuple[QRectF, QRectF, int, tuple[str, ...], bool]:
        """The die's square and its words right under it, the two centred in the widget."""
        h = txt.line_height(20, True) if self.caption else 0
        side = max(min(self.width() - 16, self.height() - h - 12), 0)
        top = (self.height() - side - h - 4) / 2
        body = QRectF((self.width() - side) / 2, top, side, side)
        room = QRectF(0, top + side + 4, self.width(), h)
        px, lines, fits = txt.fit(self.caption, int(room.width()), int(room.height()), 22, bold=True, max_lines=1)
        return body, room, px, lines, fits

    def drawn_texts(self) -> list[txt.DrawnText]:
        if not self.caption:
            return []
        _, room, px, lines, fits = self._places()
        return [txt.DrawnText("\n".join(lines), px, room.toAlignedRect(), fits)]

    def paintEvent(self, event) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.Antialiasing)
        body, room, px, lines, _ = self._places()
        if body.width() > 12:
            pt.paint_die(p, body, pips=self.pips, symbol=self.symbol, colour=self.colour,
                         symbol_colour=self.symbol_colour, angle=self.angle)
        if self.caption:
            p.setPen(QColor(style.INK))
            txt.draw_lines(p, room.toAlignedRect(), lines, px, bold=True)
        p.end()


class PlayerName(QWidget):
    """A player's name beside a disc in their colour (with their initial): the colour is never
    the only cue. ``note`` follows the name ("playing now")."""

    def __init__(self, name: str, colour: str, parent: QWidget | None = None, *, largest: int = 24) -> None:
        super().__init__(parent)
        self.setObjectName(f"name:{name}")
        self.name, self.colour, self.note, self.largest = name, colour, "", largest
        self.current = False
        self.setSizePolicy(QSizePolicy.Ignored, QSizePolicy.Fixed)
        self.setFixedHeight(txt.line_height(largest, True) + 6)
        self.setAccessibleName(name)
        self.setToolTip(plain_tip(name))      # the whole name where the room shortens it

    def text(self) -> str:
        return f"{self.name} {self.note}".strip()

    def set_state(self, *, note: str = "", current: bool = False) -> None:
        if (note, current) != (self.note, self.current):
            self.note, self.current = note, current
            self.setAccessibleName(f"{self.name} {note}".strip())
            self.update()

    def _texts(self) -> list[txt.DrawnText]:
        h = self.height()
        x = h + 6
        room = QRect(x, 0, self.width() - x - 4, h)
        words = f"{self.name}  {self.note}".strip() if self.note else self.name
        px, lines, fits = txt.fit(words, room.width(), h, self.largest, bold=True, max_lines=1)
        if not fits:
            # Too long even at the least size: the name gives way ("…"), the note stays whole;
            # the whole name is in the tooltip and the screen-reader name.
            px = txt.LEAST_PX
            metrics = QFontMetrics(txt.font(px, True))
            note = f"  {self.note}" if self.note else ""
            name = metrics.elidedText(self.name, Qt.ElideRight, max(room.width() - metrics.horizontalAdvance(note), 0))
            if not name.strip(txt.ELLIPSIS):
                name, note = metrics.elidedText(words, Qt.ElideRight, room.width()), ""
            lines, fits = (name + note,), bool(name)
        return [txt.DrawnText("\n".join(lines), px, room, fits, key=self.current)]

    def drawn_texts(self) -> list[txt.DrawnText]:
        return self._texts()

    def paintEvent(self, event) -> None:
        p = QPainter(self)
        paint_cached(self, p, (self.name, self.colour, self.note, self.current), self._draw)
        p.end()

    def _draw(self, p: QPainter) -> None:
        h = self.height()
        if self.current:
            p.setPen(Qt.NoPen)
            band = QColor(self.colour)
            band.setAlpha(60)
            p.setBrush(band)
            p.drawRoundedRect(QRectF(0, 0, self.width(), h), h / 2, h / 2)
        paint_player_disc(p, QRectF(3, 3, h - 6, h - 6), self.colour, self.name)
        p.setPen(QColor(style.INK))
        for drawn in self._texts():
            txt.draw_lines(p, drawn.rect, tuple(drawn.text.split("\n")), drawn.px, bold=True, align=Qt.AlignLeft)


#: the least disc that holds an initial at the least type size (a smaller one shows no initial)
DISC_WITH_INITIAL = 22


def disc_initial_px(rect: QRectF) -> int | None:
    """The pixel size of the initial in a disc drawn at ``rect``: about half its height, never
    below LEAST_PX; None for a disc too small for that (it then shows only its colour, and the
    name beside it says whose it is)."""
    side = min(rect.width(), rect.height())
    if side < DISC_WITH_INITIAL:
        return None
    return max(int(side * 0.55), txt.LEAST_PX)


def paint_player_disc(p: QPainter, rect: QRectF, colour: str, name: str) -> None:
    """A disc in the player's colour with their initial in it (when the disc has room for it)."""
    p.setPen(QPen(QColor("#1A1A1A"), 1.5))
    p.setBrush(QColor(colour))
    p.drawEllipse(rect)
    initial = name.strip()[:1].upper()
    px = disc_initial_px(rect)
    if initial and px is not None:
        p.setFont(txt.font(px, True))
        p.setPen(QColor(readable_ink(colour)))
        p.drawText(rect, int(Qt.AlignCenter), initial)


class PlayerButton(Clickable):
    """A button with a player's colour disc and name (a journal button: "Julie's journal").

    :meth:`needed_width` says how wide it should be to show its name at the least type size (on
    two lines if the name has two words), up to :attr:`WIDEST`, for its owner to give it room; in
    less room the name is drawn in a narrow face, and only a name too long even for that is
    shortened with "\u2026" (the whole name stays in the button's screen-reader name, and its
    owner's tooltip names the player)."""

    HEIGHT = 44
    LARGEST = 20
    #: the widest a journal button asks to be: two side by side leave "what happened" its room
    WIDEST = 240
    MARGIN = 8              # right of the name

    def __init__(self, name: str, colour: str, words: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.name, self.colour, self.words = name, colour, words
        self.setAccessibleName(words)
        self.setSizePolicy(QSizePolicy.Ignored, QSizePolicy.Fixed)
        self.setFixedHeight(self.HEIGHT)
        self.setMinimumWidth(80)

    def text(self) -> str:
        return self.words

    def needed_width(self) -> int:
        """The width that shows the words whole at the least type size in the app's face (at
        most :attr:`WIDEST`)."""
        metrics = QFontMetrics(txt.font(txt.LEAST_PX, True))
        words = self.words.split()
        # The best place to break into two lines (or none): the narrower of its two halves' widest.
        need = min(max(metrics.horizontalAdvance(" ".join(words[:cut])), metrics.horizontalAdvance(" ".join(words[cut:])))
                   for cut in range(1, len(words) + 1)) if words else 0
        return min(self.HEIGHT + need + self.MARGIN + 2, self.WIDEST)

    def _texts(self) -> list[txt.DrawnText]:
        h = self.height()
        x = h
        room = QRect(x, 2, self.width() - x - self.MARGIN, h - 4)
        for family in ("", txt.narrow_family()):       # the narrow face only when the app's is too wide
            px, lines, fits = txt.fit(self.words, room.width(), room.height(), self.LARGEST, bold=True,
                                      family=family, max_lines=2)
            if fits:
                return [txt.DrawnText("\n".join(lines), px, room, True, family=family)]
        family = txt.narrow_family()
        metrics = QFontMetrics(txt.font(txt.LEAST_PX, True, QFont(family)))
        short = metrics.elidedText(self.words, Qt.ElideRight, room.width())
        return [txt.DrawnText(short, txt.LEAST_PX, room, bool(short), family=family)]

    def drawn_texts(self) -> list[txt.DrawnText]:
        return self._texts()

    def sizeHint(self) -> QSize:
        return QSize(max(160, self.needed_width()), self.HEIGHT)

    def paintEvent(self, event) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.Antialiasing)
        r = QRectF(self.rect()).adjusted(1.5, 1.5, -1.5, -1.5)
        p.setPen(QPen(QColor("#6B6B6B" if not self.hasFocus() else style.BLUE), 3 if self.hasFocus() else 2))
        p.setBrush(QColor("#EFEFEF" if self.isDown() else "#FFFFFF"))
        p.drawRoundedRect(r, 8, 8)
        # The notebook's edge in the player's colour, then their disc.
        h = self.height()
        paint_player_disc(p, QRectF(8, 7, h - 14, h - 14), self.colour, self.name)
        p.setPen(QColor(style.INK))
        for drawn in self._texts():
            lines = tuple(drawn.text.split("\n"))
            top = drawn.rect.top() + (drawn.rect.height() - len(lines) * txt.line_height(drawn.px, True, drawn.family)) // 2
            txt.draw_lines(p, QRect(drawn.rect.left(), top, drawn.rect.width(), drawn.rect.height()), lines,
                           drawn.px, bold=True, align=Qt.AlignLeft, family=drawn.family)
        if self.hasFocus():
            pt.paint_focus(p, r.adjusted(3, 3, -3, -3), 6)
        p.end()


class EventList(Clickable):
    """The last few public events in large type, the newest on top and boldest; as many as the
    room holds (the newest always, smaller if it must). A click shows every event (the owner
    connects ``clicked``)."""

    LARGEST = 22
    navigable = False

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("recent")
        self.events: list[str] = []
        self.setSizePolicy(QSizePolicy.Ignored, QSizePolicy.Ignored)
        self._texts: list[txt.DrawnText] | None = None

    def set_events(self, events: list[str]) -> None:
        """Every public event so far, oldest first (the newest are shown)."""
        events = [e for e in events if e]
        if events != self.events:
            self.events = events
            self._texts = None
            self.setAccessibleName(" ".join(reversed(events[-3:])))
            self.update()

    def shown(self) -> list[str]:
        """The events on screen now, newest first."""
        return [t.text.replace("\n", " ") for t in self.drawn_texts()]

    def resizeEvent(self, event) -> None:
        self._texts = None
        super().resizeEvent(event)

    def drawn_texts(self) -> list[txt.DrawnText]:
        if self._texts is None:
            self._texts = []
            y, width = 4, self.width() - 44          # clear of the bullet and the chevron
            for i, event in enumerate(reversed(self.events)):
                largest = self.LARGEST if i == 0 else self.LARGEST - 3
                room = self.height() - y - 2
                # The newest always shows, shortened with "…" if even the least size is too big
                # for the room (the whole of it is one click away, in the full log).
                px, lines, fits = txt.fit(event, width, room, largest, bold=i == 0, max_lines=6, elide=i == 0)
                if not fits and i > 0:
                    break                       # an older event that has no room is left to the full log
                h = len(lines) * txt.line_height(px, i == 0)
                self._texts.append(txt.DrawnText("\n".join(lines), px, QRect(20, y, width, h), fits))
                y += h + 4
        return self._texts

    def text(self) -> str:
        return "\n".join(self.shown())

    def paintEvent(self, event) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.Antialiasing)
        if self.hasFocus():
            pt.paint_focus(p, QRectF(self.rect()).adjusted(1.5, 1.5, -1.5, -1.5), 6)
        # A chevron at the right edge: there is more behind a click.
        mid = self.height() / 2
        p.setPen(QPen(QColor("#6B6B6B"), 3, Qt.SolidLine, Qt.RoundCap, Qt.RoundJoin))
        p.drawPolyline([QPointF(self.width() - 14, mid - 9), QPointF(self.width() - 6, mid),
                        QPointF(self.width() - 14, mid + 9)])
        for i, drawn in enumerate(self.drawn_texts()):
            ink = QColor(style.INK) if i == 0 else QColor("#4A4A4A")
            # A bullet: the newest is a filled disc, the older ones rings.
            p.setPen(QPen(ink, 1.5))
            p.setBrush(ink if i == 0 else Qt.NoBrush)
            p.drawEllipse(QPointF(9, drawn.rect.top() + txt.line_height(drawn.px, i == 0) / 2), 4, 4)
            p.setPen(ink)
            txt.draw_lines(p, drawn.rect, tuple(drawn.text.split("\n")), drawn.px, bold=i == 0, align=Qt.AlignLeft)
        p.end()


class NotebookPage(QWidget):
    """A notebook page behind a private screen: ruled lines, a red margin and binding holes.
    Its children (the engine's words) sit on it."""

    LINE = 34
    MARGIN = 64

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("notebook")
        # The page shows through the words on it (the engine's words, in labels).
        self.setStyleSheet("QLabel, QWidget#notebook-content, QScrollArea#notebook-content, QWidget#journal"
                           " { background: transparent; }")

    def paintEvent(self, event) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.Antialiasing)
        r = QRectF(self.rect()).adjusted(4, 4, -4, -4)
        p.setPen(QPen(QColor("#B8AF9C"), 2))
        p.setBrush(QColor("#FFFCF0"))
        p.drawRoundedRect(r, 12, 12)
        p.setPen(QPen(QColor("#C9DDF0"), 1.2))
        y = r.top() + self.LINE * 1.5
        while y < r.bottom() - 6:
            p.drawLine(QPointF(r.left() + 2, y), QPointF(r.right() - 2, y))
            y += self.LINE
        p.setPen(QPen(QColor("#E8A0A0"), 2))
        p.drawLine(QPointF(r.left() + self.MARGIN, r.top() + 2), QPointF(r.left() + self.MARGIN, r.bottom() - 2))
        p.setPen(QPen(QColor("#9A9080"), 1.5))
        p.setBrush(QColor(style.BACKGROUND))
        step = max((r.height() - 40) / 6, 40)
        hole = r.top() + 30
        while hole < r.bottom() - 20:
            p.drawEllipse(QPointF(r.left() + 22, hole), 8, 8)
            hole += step
        p.end()


__all__ = ["paint_cached", "paint_look", "Clickable", "DrawnCard", "DrawnDie", "EventList", "PlayerName", "PlayerButton", "NotebookPage", "move_focus",
           "paint_player_disc", "disc_initial_px", "DISC_WITH_INITIAL"]
