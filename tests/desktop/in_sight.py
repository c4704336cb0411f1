"""Clicks where a person would click: at a widget's place on screen, after checking that a person
can see it there whole (inside the window, not clipped by a parent or scrolled away, nothing
drawn over it).

Usable with or without pytest-qt (a test's child process has no ``qtbot``).
"""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtGui import QRegion
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QAbstractScrollArea, QApplication, QWidget


#: the border a neighbour may overlap without hiding anything a person needs (pixels)
EDGE = 2


def why_not_in_sight(widget: QWidget) -> str:
    """'' when ``widget`` is whole in sight in its window; else what a person would see wrong."""
    name = widget.objectName() or type(widget).__name__
    if not widget.isVisible():
        return f"{name!r} is not shown"
    window = widget.window()
    # A painted piece may need less than its whole widget seen: a card without its glow's room, or
    # the top of a card lying under another in a cascade.
    seen = widget.seen_rect() if hasattr(widget, "seen_rect") else widget.rect()
    rect = QRect(widget.mapTo(window, seen.topLeft()), seen.size())
    if not window.rect().contains(rect):
        return f"{name!r} at {rect.getRect()} is not inside the window {window.rect().getRect()}"
    parent = widget.parentWidget()
    while parent is not None and parent is not window:
        if isinstance(parent, QAbstractScrollArea):
            view = parent.viewport()
            shown = QRect(view.mapTo(window, QPoint(0, 0)), view.size())
            if not shown.contains(rect):
                return f"{name!r} is scrolled out of sight (or partly) in {parent.objectName() or type(parent).__name__}"
        parent = parent.parentWidget()
    # A pixel or two of a neighbour's edge over the border is not a card out of sight.
    hidden = QRegion(seen.adjusted(EDGE, EDGE, -EDGE, -EDGE)).subtracted(widget.visibleRegion())
    if not hidden.isEmpty():
        return (f"{name!r} is clipped or covered: {hidden.boundingRect().getRect()} of "
                f"{seen.getRect()} does not show")
    for point in (rect.center(), rect.topLeft() + QPoint(2, 2), rect.bottomRight() - QPoint(2, 2)):
        top = window.childAt(point)
        if top is not None and top is not widget and not widget.isAncestorOf(top):
            return f"{name!r} is covered at {point.toTuple()} by {top.objectName() or type(top).__name__}"
    return ""


def click_in_sight(widget: QWidget) -> None:
    """Click the middle of ``widget`` as a person would, once it is whole in sight (else fail)."""
    problem = why_not_in_sight(widget)
    assert not problem, problem
    assert widget.isEnabled(), f"{widget.objectName() or type(widget).__name__!r} is greyed out"
    seen = widget.seen_rect() if hasattr(widget, "seen_rect") else widget.rect()
    QTest.mouseClick(widget, Qt.LeftButton, Qt.NoModifier, seen.center())
    QApplication.processEvents()
