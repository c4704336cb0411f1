"""Motion: a card, a die or a piece that moves is shown moving, one movement at a time, in the
order they happened, each in about a third of a second, so a family sees what just happened
without reading the log.

The widgets always hold the end state (what the engine says) at once; a movement only draws
a card on its way over them (:class:`FlightLayer`) and keeps its place empty until it lands.
With "less motion" (a switch on the start screen) nothing travels: the end state is drawn at once.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Callable

from PySide6.QtCore import QEvent, QObject, QRectF, Qt, QVariantAnimation, Signal
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QWidget

from .paint import lerp_rect

#: one movement's length (the issue asks for 250-400 ms)
DURATION_MS = 320
#: more movements than this waiting (a whole deal at once): the rest land at once
MOST_WAITING = 8

_less_motion = False


def less_motion() -> bool:
    """Whether movements are drawn at once (the start screen's "Less motion" switch)."""
    return _less_motion


def set_less_motion(on: bool) -> None:
    global _less_motion
    _less_motion = bool(on)


@dataclass
class Step:
    """One movement: ``hold`` when it is queued (its places keep their old look), ``progress(t)``
    from 0 to 1 while it plays, ``land`` when it ends (its places show what the engine says)."""

    progress: Callable[[float], None] = lambda t: None
    hold: Callable[[], None] = lambda: None
    land: Callable[[], None] = lambda: None
    duration: int = DURATION_MS
    #: words for the tests and the benchmark ("swap", "draw", "roll")
    what: str = ""
    done: bool = field(default=False, repr=False)


class MotionQueue(QObject):
    """Plays steps one at a time, in order."""

    #: a step started (its ``what``)
    step_started = Signal(str)
    #: every queued step has landed
    idle = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._waiting: deque[Step] = deque()
        self._current: Step | None = None
        self.animation = QVariantAnimation(self)
        self.animation.setStartValue(0.0)
        self.animation.setEndValue(1.0)
        self.animation.valueChanged.connect(self._tick)
        self.animation.finished.connect(self._finished)
        #: every step played, in order (what it was): the tests read it
        self.played: list[str] = []

    @property
    def busy(self) -> bool:
        return self._current is not None or bool(self._waiting)

    def play(self, steps: list[Step]) -> None:
        for step in steps:
            step.hold()
            self._waiting.append(step)
        if less_motion():
            self.finish()
            return
        while len(self._waiting) > MOST_WAITING:
            self._land(self._waiting.popleft())
        if self._current is None:
            self._next()

    def finish(self) -> None:
        """Every movement to its end at once (a new game, less motion, a screen closing)."""
        if self._current is not None:
            step, self._current = self._current, None
            self.animation.stop()
            self._land(step)
        while self._waiting:
            self._land(self._waiting.popleft())
        self.idle.emit()

    def _land(self, step: Step) -> None:
        if not step.done:
            step.done = True
            step.progress(1.0)
            step.land()
            self.played.append(step.what)

    def _next(self) -> None:
        if not self._waiting:
            self._current = None
            self.idle.emit()
            return
        self._current = self._waiting.popleft()
        self.animation.setDuration(self._current.duration)
        self.step_started.emit(self._current.what)
        self._current.progress(0.0)
        self.animation.start()

    def _tick(self, value) -> None:
        if self._current is not None:
            self._current.progress(float(value))

    def _finished(self) -> None:
        if self._current is not None:
            step, self._current = self._current, None
            self._land(step)
        self._next()


class FlightLayer(QWidget):
    """A see-through layer over a host widget where cards and pieces on their way are drawn."""

    def __init__(self, host: QWidget) -> None:
        super().__init__(host)
        self.setAttribute(Qt.WA_TransparentForMouseEvents)
        self.setAttribute(Qt.WA_NoSystemBackground)
        self.setFocusPolicy(Qt.NoFocus)
        #: id -> (paint(painter, rect), rect)
        self.flights: dict[int, tuple[Callable[[QPainter, QRectF], None], QRectF]] = {}
        self._next_id = 0
        host.installEventFilter(self)
        self.setGeometry(host.rect())
        self.raise_()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Resize:
            self.setGeometry(self.parentWidget().rect())
        elif event.type() == QEvent.ChildAdded:
            self.raise_()
        return False

    def add(self, paint: Callable[[QPainter, QRectF], None], rect: QRectF) -> int:
        self._next_id += 1
        self.flights[self._next_id] = (paint, rect)
        self.raise_()
        self.update()
        return self._next_id

    def move(self, flight: int, rect: QRectF) -> None:
        if flight in self.flights:
            old = self.flights[flight][1]
            self.flights[flight] = (self.flights[flight][0], rect)
            self.update(old.united(rect).toAlignedRect().adjusted(-4, -4, 4, 4))

    def remove(self, flight: int) -> None:
        if flight in self.flights:
            old = self.flights.pop(flight)[1]
            self.update(old.toAlignedRect().adjusted(-4, -4, 4, 4))

    def paintEvent(self, event) -> None:
        if not self.flights:
            return
        p = QPainter(self)
        p.setRenderHint(QPainter.Antialiasing)
        for paint, rect in self.flights.values():
            p.save()
            paint(p, rect)
            p.restore()
        p.end()


def flight_step(layer: FlightLayer, moves: list[tuple[Callable[[QPainter, QRectF], None], QRectF, QRectF]], *,
                what: str, hold: Callable[[], None], land: Callable[[], None], lift: float = 24.0) -> Step:
    """A step in which each (paint, from, to) travels from one rectangle to the other together
    (a swap is two cards crossing); ``hold`` and ``land`` keep and free their places."""
    flights: list[int] = []

    def progress(t: float) -> None:
        if not flights and t < 1.0:
            flights.extend(layer.add(paint, QRectF(src)) for paint, src, _ in moves)
        for flight, (_, src, dst) in zip(flights, moves):
            layer.move(flight, lerp_rect(src, dst, t, lift))

    def landed() -> None:
        for flight in flights:
            layer.remove(flight)
        flights.clear()
        land()

    return Step(progress=progress, hold=hold, land=landed, what=what)
