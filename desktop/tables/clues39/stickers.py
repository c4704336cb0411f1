"""The library screen's stickers: print stickers to attach later, and attach one by showing the card.

The camera here is the app's own (``desktop.camera.CameraWorker`` in a QThread, the webcam or
the simulated table); it only reports what it read: a card of this game (its sticker is
already attached), a card of another game, or a bare tag number (a sticker printed to attach
later, a retired number, a stranger's tag). The library screen decides what that means
(``vision.registry.attach_tag``). The camera stops when the screen closes.
"""

from __future__ import annotations

import atexit

from PySide6.QtCore import Qt, QThread, Signal
from PySide6.QtGui import QImage, QPixmap
from PySide6.QtWidgets import QComboBox, QGroupBox, QHBoxLayout, QLabel, QSpinBox, QVBoxLayout, QWidget

from ...camera import PREVIEW_WIDTH, CameraWorker, SimulatedCamera
from ...widgets import button, label, plain_tip

SIMULATED = -1
DEFAULT_SPARES = 12
MAX_SPARES = 96


class _CameraThread(QThread):
    """Runs one CameraWorker to its end. It has no parent and is kept in ``_LIVE`` until it has
    finished, so a screen destroyed with its camera on never destroys a running thread."""

    def __init__(self, worker: CameraWorker) -> None:
        super().__init__()
        self.worker = worker
        _LIVE.add(self)
        self.finished.connect(lambda: _LIVE.discard(self))

    def run(self) -> None:
        self.worker.run()


_LIVE: set[_CameraThread] = set()


@atexit.register
def _stop_all() -> None:
    """Leaving the app with a library screen's camera on: end its thread before Qt is torn down."""
    for thread in list(_LIVE):
        thread.worker.stop()
        thread.wait(3000)


class StickerPanel(QGroupBox):
    """Preview, camera switch and choice, a typed sticker number, and the spare sheet's button."""

    #: a tag number read by the camera or typed (a card of another game: its number too)
    number_read = Signal(int)
    #: a card of this game read by the camera (its sticker is attached already)
    card_read = Signal(str)
    #: "Print stickers to attach later" with this many stickers
    print_requested = Signal(int)
    #: "Print numbered stickers" for the cards numbered from the first to the last
    numbered_requested = Signal(int, int)
    #: the simulated camera: hold up the next card with a sticker not registered yet
    hold_up_requested = Signal()

    def __init__(self, game: str, parent: QWidget | None = None) -> None:
        super().__init__("Stickers", parent)
        self.setObjectName("library:stickers")
        # Its three rows of buttons a little less padded than the app's: the card list below keeps room.
        self.setStyleSheet("QPushButton { padding: 4px 12px; min-height: 28px; }")
        self.game = game
        self._thread: _CameraThread | None = None
        self._worker: CameraWorker | None = None
        self.simulated: SimulatedCamera | None = None
        outer = QHBoxLayout(self)
        outer.setContentsMargins(6, 2, 6, 2)
        left = QVBoxLayout()
        self.image = QLabel()
        self.image.setObjectName("library:sticker:preview")
        self.image.setFixedSize(PREVIEW_WIDTH, PREVIEW_WIDTH * 9 // 16)
        self.image.setAlignment(Qt.AlignCenter)
        self.image.setStyleSheet("background: #333; color: white;")
        self.image.setText("Camera off")
        left.addWidget(self.image)
        self.status = label("")                      # the camera's words ("Hold the card still.")
        self.status.setObjectName("library:sticker:status")
        self.status.setFixedWidth(PREVIEW_WIDTH)
        left.addWidget(self.status)
        left.addStretch(1)
        outer.addLayout(left)
        body = QVBoxLayout()
        body.setSpacing(4)
        outer.addLayout(body, 1)
        row = QHBoxLayout()
        self.camera_button = button("Attach stickers with the camera", name="library:sticker:camera")
        self.camera_button.clicked.connect(self.toggle)
        self.choice = QComboBox()
        self.choice.setObjectName("library:sticker:choice")
        for i in range(4):
            self.choice.addItem(f"Camera {i + 1}", i)
        self.choice.addItem("Simulated table", SIMULATED)
        self.target = label("")                      # which card the next sticker read goes on
        self.target.setObjectName("library:sticker:target")
        row.addWidget(self.camera_button)
        row.addWidget(self.choice)
        self.hold_row = row
        row.addStretch(1)
        body.addLayout(row)
        body.addWidget(self.target)
        row = QHBoxLayout()
        self.number = QSpinBox()                     # typed: no camera, or a sticker the camera misses
        self.number.setObjectName("library:sticker:number")
        self.number.setPrefix("sticker ")
        self.number.setRange(0, 9999)
        self.attach_button = button("Attach this number", name="library:sticker:attach")
        self.attach_button.clicked.connect(lambda: self.number_read.emit(self.number.value()))
        self.count = QSpinBox()
        self.count.setObjectName("library:sticker:count")
        self.count.setRange(1, MAX_SPARES)
        self.count.setValue(DEFAULT_SPARES)
        self.print_button = button("Print stickers to attach later", name="library:sticker:print")
        self.print_button.clicked.connect(lambda: self.print_requested.emit(self.count.value()))
        self.copy = QSpinBox()
        self.copy.setObjectName("library:sticker:copy")
        self.copy.setPrefix("copy ")
        self.copy.setRange(1, 1)
        self.copy.hide()
        self.new_button = button("New card", name="library:sticker:new")
        row.addWidget(self.copy)
        row.addWidget(self.new_button)
        row.addWidget(self.number)
        row.addWidget(self.attach_button)
        row.addStretch(1)
        row.addWidget(self.count)
        row.addWidget(self.print_button)
        body.addLayout(row)
        # Numbered stickers: each says the number printed on the card it goes on ("Card 7"), so the
        # camera knows that number when the card is shown, and the family types only the rest.
        row = QHBoxLayout()
        row.addWidget(label("Stickers for cards", wrap=False))
        self.first = QSpinBox()
        self.first.setObjectName("library:sticker:first")
        self.first.setRange(0, 99999)
        self.first.setValue(1)
        self.last = QSpinBox()
        self.last.setObjectName("library:sticker:last")
        self.last.setRange(0, 99999)
        self.last.setValue(24)
        self.first.valueChanged.connect(lambda v: self.last.setValue(max(self.last.value(), v)))
        self.numbered_button = button("Print numbered stickers", name="library:sticker:numbered")
        self.numbered_button.clicked.connect(lambda: self.numbered_requested.emit(self.first.value(),
                                                                                  self.last.value()))
        self.hold_button = button("Hold up the next card", name="library:sticker:hold")
        self.hold_button.setToolTip(plain_tip("The simulated table shows a card with the next sticker that "
                                              "names no registered card yet."))
        self.hold_button.clicked.connect(self.hold_up_requested)
        self.hold_button.hide()
        row.addWidget(self.first)
        row.addWidget(label("to", wrap=False))
        row.addWidget(self.last)
        row.addWidget(self.numbered_button)
        row.addStretch(1)
        body.addLayout(row)
        self.hold_row.insertWidget(2, self.hold_button)
        self.message = label("")                     # what became of the last sticker read, or the sheet
        self.message.setObjectName("library:sticker:message")
        body.addWidget(self.message)
        body.addStretch(1)

    # --- the camera -------------------------------------------------------------------
    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.isRunning()

    def toggle(self) -> None:
        if self._thread is not None:
            self.stop()
        else:
            self.start()

    def start(self) -> None:
        """Start the chosen camera (the simulated table shows what ``simulated.hold_up`` holds)."""
        self.stop()
        index = self.choice.currentData()
        if index == SIMULATED:
            sim = SimulatedCamera()
            make, self.simulated = (lambda: sim), sim
            self.status.setText("Simulated table")
            self.hold_button.show()
        else:
            from vision.sources import WebcamSource
            make, self.simulated = (lambda: WebcamSource(index)), None
            self.status.setText("Looking for the camera\u2026")
        self.status.setToolTip("")
        self.camera_button.setText("Stop the camera")
        self._worker = CameraWorker(make, {self.game})
        self._thread = _CameraThread(self._worker)
        self.destroyed.connect(self._worker.stop)      # a screen deleted with its camera on
        self._worker.preview.connect(self._show_preview)
        self._worker.sighting.connect(self._card)
        self._worker.foreign.connect(self._other)
        self._worker.failed.connect(self._failed)
        self._worker.started.connect(self._started)
        self._worker.hint.connect(self._hint)
        self._thread.start()

    def restart(self) -> None:
        """After a change to the tag file: a new worker reads the stickers by their new numbers."""
        if self._thread is not None:
            self.start()

    def stop(self) -> None:
        if self._worker is not None:
            self._worker.stop()
        if self._thread is not None:
            self._thread.wait(3000)          # one still opening a slow camera ends later, kept in _LIVE
        self._thread = self._worker = None
        self.simulated = None
        self.hold_button.hide()
        self.image.clear()
        self.image.setText("Camera off")
        self.status.setText("")
        self.camera_button.setText("Attach stickers with the camera")

    def hideEvent(self, event) -> None:      # the screen closed (or was hidden): no camera left running
        self.stop()
        super().hideEvent(event)

    # --- from the worker --------------------------------------------------------------
    def _stale(self) -> bool:
        """A signal a stopped worker sent before it ended, delivered after a restart: a picture
        from it would look like the new camera at work, its failure would stop the new one."""
        return self.sender() is not self._worker

    def _started(self, _text: str) -> None:
        if not self._stale():
            self.status.setText("Camera on: hold the card up to it.")

    def _hint(self, text: str) -> None:
        if not self._stale():
            self.status.setText(text)

    def _show_preview(self, image: QImage) -> None:
        if not self._stale():
            self.image.setPixmap(QPixmap.fromImage(image).scaled(self.image.size(), Qt.KeepAspectRatio))

    def _card(self, card_id: str) -> None:
        if not self._stale():
            self.card_read.emit(card_id)

    def _other(self, what: str) -> None:
        """A tag that is no card of this game: a bare number ("tag:1520"), another game's card, a QR code."""
        if self._stale():
            return
        if what.startswith("tag:") and what[4:].isdigit():
            self.number_read.emit(int(what[4:]))
            return
        from vision.registry import TagRegistry
        entry = TagRegistry.load().entry_for_card(what)
        if entry is not None:
            self.number_read.emit(entry.tag_id)
        else:
            self.message.setText("That code is not a Gumshoe sticker of a card. Nothing changed.")

    def _failed(self, message: str) -> None:
        if self._stale():
            return
        self.status.setText("No camera.")
        self.status.setToolTip(plain_tip(message))
        self.message.setText("No camera is working. Everything else on this screen still works by typing: type "
                             "the number printed on the sticker and press \u201cAttach this number\u201d.")
        self.image.clear()
        self.image.setText("No camera")
        self.camera_button.setText("Attach stickers with the camera")
        if self._thread is not None:
            self._thread.wait(3000)          # the worker returns right after saying so
        self._thread = self._worker = None
        self.simulated = None
        self.hold_button.hide()
