"""Cards seen moving: a table follows where each physical card lies (the engine's tokens; a
token says nothing of what the card is) and, when some moved, plays their movements from the
widget of the old place to the widget of the new one, one place pair at a time, in order.

A table calls :meth:`TableMotion.remember` before it redraws and :meth:`TableMotion.follow`
after: its widgets already show the end state; a card on its way keeps its new place empty
until it lands.
"""

from __future__ import annotations

from typing import Any, Callable

from PySide6.QtCore import QEvent, QObject, QPoint, QRectF
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QWidget

from . import paint as pt
from .items import DrawnCard, paint_look
from .motion import FlightLayer, MotionQueue, Step, flight_step


def token_places(state: Any) -> dict[int, str]:
    """Where every physical card lies now (token -> place), or nothing for a game without tokens."""
    table = getattr(state, "table", None)
    where = getattr(table, "where", None)
    return {tok: str(place) for tok, place in where.items()} if where is not None else {}


class TableMotion(QObject):
    """The movements of one table: its flight layer, its queue, and the last places it saw.

    A move made while the table is out of sight (a card read on the shared screen, a look behind
    the privacy gate) is played when the table is seen again."""

    def __init__(self, host: QWidget, anchor: Callable[[str], QWidget | None], *,
                 words: Callable[[str, str], str] | None = None) -> None:
        """``anchor(place)``: the widget a place is drawn in (a card, a pile, a player's name), or None.
        ``words(from, to)``: what a movement is called (for the tests and the benchmark)."""
        super().__init__(host)
        self.host = host
        self.anchor = anchor
        self.words = words or (lambda src, dst: "move")
        self.layer = FlightLayer(host)
        self.queue = MotionQueue(host)
        self._places: dict[int, str] | None = None
        self._looks: dict[str, pt.CardLook] = {}
        self._rects: dict[str, QRectF] = {}
        self._pending: Any = None            # the state of moves made out of sight
        host.installEventFilter(self)

    @property
    def busy(self) -> bool:
        return self.queue.busy

    def remember(self) -> None:
        """Before a redraw: how each card widget looks now and where (a card leaving for a place
        that is not drawn as a card flies with its old look; from a place the redraw takes away,
        a retrieved mission, it leaves from where that place was)."""
        if self._pending is not None:
            return                     # moves made out of sight: keep how the table looked before them
        cards = [w for w in self.host.findChildren(DrawnCard) if w.isVisibleTo(self.host)]
        self._looks = {w.place: w.look for w in cards}
        self._rects = {w.place: self._rect(w) for w in cards}

    def forget(self) -> None:
        """A new start (another game, a resumed one): nothing before it is a movement."""
        self.queue.finish()
        self._places = self._pending = None

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.host and event.type() == QEvent.Show and self._pending is not None:
            self.follow(self._pending)
        return False

    def follow(self, state: Any) -> list[Step]:
        """After a redraw: the movements since the last one, queued to play (returned)."""
        now = token_places(state)
        if self._places is None:
            self._places = now
            return []
        if not self.host.isVisible():
            self._pending = state
            return []
        before, self._places, self._pending = self._places, now, None
        if self.host.layout() is not None:
            self.host.layout().activate()          # places the redraw added get their geometry now
        groups: dict[tuple[str, str], list[int]] = {}
        for tok in sorted(now):
            if tok in before and before[tok] != now[tok]:
                groups.setdefault((before[tok], now[tok]), []).append(tok)
        steps: list[Step] = []
        done: set[tuple[str, str]] = set()
        for (src, dst) in groups:
            if (src, dst) in done:
                continue
            pairs = [(src, dst)]
            if (dst, src) in groups:                # a swap: both cards cross at once
                pairs.append((dst, src))
            done.update(pairs)
            step = self._step(pairs, state)
            if step is not None:
                steps.append(step)
        if steps:
            self.queue.play(steps)
        return steps

    # --- one step -------------------------------------------------------------------------
    def _rect(self, widget: QWidget) -> QRectF:
        origin = widget.mapTo(self.host, QPoint(0, 0))
        inner = widget.card_rect() if isinstance(widget, DrawnCard) else QRectF(widget.rect())
        return inner.translated(origin.x(), origin.y())

    def _step(self, pairs: list[tuple[str, str]], state: Any) -> Step | None:
        flights: list[tuple[Callable[[QPainter, QRectF], None], QRectF, QRectF]] = []
        held: list[DrawnCard] = []
        for src, dst in pairs:
            a, b = self.anchor(src), self.anchor(dst)
            if b is None or not b.isVisible():
                continue
            if src in self._rects:                    # where the card was before the redraw
                start = self._rects[src]
            elif a is not None and a is not b and a.isVisible():
                start = self._rect(a)
            else:
                continue                              # from a hand to its own discard pile: not seen
            end = self._rect(b)
            if isinstance(b, DrawnCard):
                painter = b.paint_at
                held.append(b)
                if not isinstance(a, DrawnCard) and src not in self._rects:    # from a pile or a hand
                    start = QRectF(start.center().x() - end.width() / 2, start.center().y() - end.height() / 2,
                                   end.width(), end.height())
            elif src in self._looks:
                painter = _look_painter(self._looks[src], start.size())
                end = QRectF(end.center().x() - start.width() / 2, end.center().y() - start.height() / 2,
                             start.width(), start.height())
            else:
                continue
            flights.append((painter, start, end))
        if not flights:
            return None

        def hold() -> None:
            for card in held:
                card.hold()

        def land() -> None:
            for card in held:
                card.release()

        return flight_step(self.layer, flights, what=self.words(*pairs[0]), hold=hold, land=land)


def _look_painter(look: pt.CardLook, size) -> Callable[[QPainter, QRectF], None]:
    def paint(p: QPainter, rect: QRectF) -> None:
        paint_look(p, rect, look, size)
    return paint
