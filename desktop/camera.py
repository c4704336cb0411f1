"""The camera: capture and tag detection in a worker thread, a privacy-safe preview on screen.

Nothing here runs on the GUI thread except drawing the finished preview: the worker
grabs the newest frame, runs vision's detector and tracker, pixelates the frame with
vision's privacy preview, and hands the GUI a small image plus the confirmed sightings.
A missing, busy or stopped camera becomes a message with a retry, never a hang.
The tags are read in a separate process (vision.isolated): a crash in the readers' native
code restarts that process and the panel says so; the game goes on.
"""

from __future__ import annotations

import logging
import threading
import time

import numpy as np
from PySide6.QtCore import QObject, Qt, QThread, Signal, Slot
from PySide6.QtGui import QFontInfo, QImage, QPixmap
from PySide6.QtWidgets import QComboBox, QGroupBox, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from vision.sources import CameraError, SyntheticSource, WebcamSource

from .drawn.text import fit
from .widgets import button, label, plain_tip

PREVIEW_WIDTH = 160
DEMO_FRAME_SIZE = (640, 360)      # rendering a full 720p synthetic frame costs ~100 ms: too slow to feel live
DEMO_TAG_PX = 46.0
DEMO_FPS = 25.0
FRAME_TIMEOUT_S = 2.0             # no new frame for this long: the camera has stopped
# A still table is searched about once a second instead of every frame (vision.stillness);
# benchmarks/app_bench.py turns it off for its baseline.
THIN_STILL_TABLE = True
CRASHES_BEFORE_GIVING_UP = 3      # tag reader crashes within CRASH_WINDOW_S: stop restarting it
CRASH_WINDOW_S = 60.0
RESTARTED = "The camera stopped and was restarted."
# The status words have a room of their own, the same whatever they say: a new message (the
# simulated table starting, a card read) never moves the table above the panel.
STATUS_WIDTH = 300
STATUS_LINES = 2

log = logging.getLogger(__name__)


class SimulatedCamera(SyntheticSource):
    """vision's synthetic table as the demo camera: the app holds cards up to it for a moment."""

    def __init__(self, seed: int = 0) -> None:
        from vision.synthetic import SyntheticTable
        super().__init__(seed, fps=DEMO_FPS, realtime=True, tag_px=DEMO_TAG_PX,
                         table=SyntheticTable(seed=seed, size=DEMO_FRAME_SIZE))
        self._until = 0.0

    @property
    def table(self):
        """The synthetic table that draws the frames (benchmarks time it)."""
        return self._table

    def hold_up(self, card_ids: list[str], seconds: float = 2.0) -> None:
        """Called from the GUI thread: these cards are in front of the camera for a while."""
        self.show(card_ids)
        self._until = time.monotonic() + seconds

    def read(self, timeout: float = 2.0) -> np.ndarray:
        if self._until and time.monotonic() >= self._until:
            self.show([])
            self._until = 0.0
        return super().read(timeout)


class CameraWorker(QObject):
    """Runs in its own QThread: frames -> detections -> sightings, plus the safe preview."""

    preview = Signal(QImage)
    sighting = Signal(str)           # a confirmed card id of the active deck
    foreign = Signal(str)            # a confirmed tag that is not a card of this game
    failed = Signal(str)
    started = Signal(str)
    restarted = Signal(str)          # the tag reader crashed and was started again
    hint = Signal(str)               # what to tell the player ("Hold the card still"), when it changes

    def __init__(self, make_source, active_decks: set[str]) -> None:
        super().__init__()
        self.make_source = make_source
        self.active_decks = active_decks
        self._stop = threading.Event()
        self._frame_lock = threading.Lock()
        self._frame: np.ndarray | None = None
        self._detector = None
        #: frames read, frames searched for tags, and the CPU seconds the camera spent on them (this
        #: thread outside the source's read, plus the tag reader process): for benchmarks
        self.stats = {"frames": 0, "searched": 0, "cpu_s": 0.0}

    @property
    def reader_pid(self) -> int | None:
        """The tag reader process's id while it runs (None when tags are read in this thread)."""
        return getattr(self._detector, "pid", None)

    def latest_frame(self) -> np.ndarray | None:
        """A copy of the newest frame (any thread), for a table that reads something else in
        it (a game's dice, say). Never shown on screen: the preview stays the privacy one."""
        with self._frame_lock:
            return None if self._frame is None else self._frame.copy()

    def stop(self) -> None:
        self._stop.set()

    @Slot()
    def run(self) -> None:
        try:
            from vision.hints import CameraHints
            from vision.isolated import ReaderCrashed
            from vision.preview import privacy_preview
            from vision.stillness import SearchPacer
            from vision.tracker import SightingTracker, detection_key
            source = self.make_source()
            source.open()
            detector = self._detector = make_detector(self.active_decks)
        except CameraError as exc:
            self.failed.emit(str(exc))
            return
        except Exception as exc:      # an unusable camera or a broken install must reach the screen
            self.failed.emit(f"The camera could not be started: {exc}")
            return
        tracker = SightingTracker()
        hints, said = CameraHints(), None
        crashes: list[float] = []
        pacer = SearchPacer() if THIN_STILL_TABLE else None
        detections: list = []
        self.started.emit("Camera on")
        try:
            while not self._stop.is_set():
                try:
                    frame = source.read(timeout=FRAME_TIMEOUT_S)
                except CameraError:
                    self.failed.emit("The camera stopped sending pictures. Check the cable and press Retry.")
                    return
                cpu0, reader0 = time.thread_time(), getattr(detector, "reader_cpu_s", 0.0)
                with self._frame_lock:
                    self._frame = frame
                # On a still picture the last search's detections still hold: they are reused
                # unless a tag in them is still being confirmed (vision.stillness).
                settled = all(detection_key(d) in tracker.in_view() for d in detections)
                search = pacer is None or pacer.wants_search(frame, time.monotonic(), settled)
                try:
                    if search:
                        detections = detector.detect(frame)
                except ReaderCrashed:
                    now = time.monotonic()
                    crashes = [t for t in crashes if now - t < CRASH_WINDOW_S] + [now]
                    if len(crashes) >= CRASHES_BEFORE_GIVING_UP:
                        self.failed.emit("The camera keeps stopping on this picture. Move the camera a little "
                                         "and press Retry.")
                        return
                    self.restarted.emit(RESTARTED)
                    detections = []
                    pacer = SearchPacer() if pacer is not None else None  # look afresh at the next frame
                    continue
                sightings = tracker.update(detections)
                for s in sightings:
                    if s.card_id is not None and s.status.value == "card":
                        self.sighting.emit(s.card_id)
                    else:
                        self.foreign.emit(s.card_id or s.key)
                text = hints.update(detections, sightings, frame.shape, time.monotonic()).text
                if text != said:
                    said = text
                    self.hint.emit(text)
                if search:            # a frame not searched looks like the last one shown
                    confirmed = set(tracker.in_view())
                    image = privacy_preview(frame, detections, confirmed)
                    self.preview.emit(to_qimage(image, PREVIEW_WIDTH))
                self.stats["frames"] += 1
                self.stats["searched"] += search
                self.stats["cpu_s"] += (time.thread_time() - cpu0
                                        + getattr(detector, "reader_cpu_s", 0.0) - reader0)
        except Exception as exc:      # a thread that dies silently would look like a frozen camera
            self.failed.emit(f"The camera stopped working ({exc}). Press Retry.")
        finally:
            source.close()
            close = getattr(detector, "close", None)
            if close is not None:
                close()


def make_detector(active_decks: set[str]):
    """The tag reader for the camera: in its own process (vision.isolated), or in this thread
    when no process can be started there (logged; a crash would then end the app)."""
    # Both tag kinds: a family may have printed QR stickers instead of AprilTags.
    from vision.isolated import IsolatedDetector, ReaderUnavailable

    kinds = ["apriltag", "qr"]
    try:
        return IsolatedDetector(active=active_decks, kinds=kinds)
    except ReaderUnavailable as exc:
        from vision.detector import TagDetector

        log.warning("reading tags in the camera thread: %s", exc)
        return TagDetector(active=active_decks, kinds=kinds)


def to_qimage(bgr: np.ndarray, width: int) -> QImage:
    import cv2
    h, w = bgr.shape[:2]
    small = cv2.resize(bgr, (width, max(1, round(h * width / w))), interpolation=cv2.INTER_AREA)
    rgb = np.ascontiguousarray(small[:, :, ::-1])
    image = QImage(rgb.data, rgb.shape[1], rgb.shape[0], rgb.strides[0], QImage.Format_RGB888)
    return image.copy()       # own the pixels: the numpy buffer dies with this function


class CameraPanel(QGroupBox):
    """Preview, status with a tick per confirmed card, camera choice and retry."""

    #: a card id confirmed by the camera
    card_seen = Signal(str)
    #: the camera could not start or stopped: plain words for the top of the screen
    problem = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Camera", parent)
        self.setObjectName("camera")
        self._thread: QThread | None = None
        self._worker: CameraWorker | None = None
        # A thread still stuck opening a slow camera is kept alive here until it ends:
        # dropping a running QThread would crash the app.
        self._retired: list[tuple[QThread, CameraWorker]] = []
        self.simulated: SimulatedCamera | None = None
        self.mode = "off"
        #: the game being played: only its cards are reported (another game's tag is "foreign")
        self.active_games: set[str] = set()
        # Side by side (preview | words and controls): the panel sits in the table screen's
        # bottom strip and must stay low.
        outer = QHBoxLayout(self)
        outer.setContentsMargins(6, 4, 6, 4)
        self.image = QLabel()
        self.image.setObjectName("camera:preview")
        self.image.setFixedSize(PREVIEW_WIDTH, PREVIEW_WIDTH * 9 // 16)
        self.image.setAlignment(Qt.AlignCenter)
        self.image.setStyleSheet("background: #333; color: white;")
        self.image.setText("Camera off")
        outer.addWidget(self.image, 0, Qt.AlignTop)
        layout = QVBoxLayout()
        outer.addLayout(layout, 1)
        self.status = label("")
        self.status.setObjectName("camera:status")
        self.status.setAlignment(Qt.AlignLeft | Qt.AlignTop)
        self.status.ensurePolished()
        self._status_px = QFontInfo(self.status.font()).pixelSize()
        self.status.setFixedSize(STATUS_WIDTH, STATUS_LINES * self.status.fontMetrics().lineSpacing())
        layout.addWidget(self.status, 1)
        row = QHBoxLayout()
        self.choice = QComboBox()
        self.choice.setObjectName("camera:choice")
        for i in range(4):
            self.choice.addItem(f"Camera {i + 1}", i)
        self.choice.addItem("Simulated table", -1)
        self.retry = button("Start")
        self.retry.setObjectName("camera:retry")
        self.retry.clicked.connect(self.restart)
        row.addWidget(self.choice, 1)
        row.addWidget(self.retry)
        layout.addLayout(row)

    # --- starting and stopping -----------------------------------------------------
    def start_webcam(self, index: int = 0) -> None:
        self.choice.setCurrentIndex(index)
        self.simulated = None
        self._start(lambda: WebcamSource(index), "Looking for the camera\u2026")
        self.mode = "webcam"

    def start_simulated(self, seed: int = 0) -> None:
        self.choice.setCurrentIndex(self.choice.count() - 1)
        sim = SimulatedCamera(seed)
        self._start(lambda: sim, "Simulated table: cards are shown to it for you.")
        self.simulated = sim
        self.mode = "simulated"

    def restart(self) -> None:
        index = self.choice.currentData()
        if index == -1:
            self.start_simulated()
        else:
            self.start_webcam(index)

    def _start(self, make_source, message: str) -> None:
        self.stop()
        self._say(message)
        self.retry.setText("Restart")
        self._thread = QThread(self)
        self._worker = CameraWorker(make_source, set(self.active_games))
        self._worker.moveToThread(self._thread)
        self._thread.started.connect(self._worker.run)
        self._worker.preview.connect(self._show_preview)
        self._worker.sighting.connect(self._seen)
        self._worker.foreign.connect(self._foreign)
        self._worker.failed.connect(self._failed)
        self._worker.started.connect(self._say)
        self._worker.restarted.connect(self._say)
        self._worker.hint.connect(self._say)
        self._thread.start()

    def stop(self) -> None:
        if self._worker is not None:
            self._worker.stop()
        if self._thread is not None:
            self._thread.quit()
            if not self._thread.wait(3000):
                self._retired.append((self._thread, self._worker))
        self._retired = [(t, w) for t, w in self._retired if t.isRunning()]
        self._thread = self._worker = None
        self.mode = "off"
        # No stale picture: an old frame would look like a live camera.
        self.image.clear()
        self.image.setText("Camera off")
        self._say("")
        self.retry.setText("Start")

    def shut_down(self) -> None:
        """The app is closing: the camera stops and every thread of it is waited for, even one still
        opening a slow camera (vision.sources gives up opening within seconds). A QThread destroyed
        while it runs ends the app with a crash."""
        self.stop()
        for thread, _worker in self._retired:
            thread.wait()
        self._retired = []

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.isRunning()

    def latest_frame(self) -> np.ndarray | None:
        """The newest camera frame (None when the camera is off), for a table that reads
        something in it besides card tags (a game's dice). It is never drawn."""
        if not self.running or self._worker is None:
            return None
        return self._worker.latest_frame()

    def _say(self, text: str, details: str = "") -> None:
        """``text`` in the status's fixed room: smaller type for a long one (down to the least
        size), then shortened with "\u2026"; the whole text (and any ``details``) in the tooltip."""
        room = self.status.size()
        px, lines, _ = fit(text, room.width(), room.height(), self._status_px, max_lines=STATUS_LINES,
                           elide=True)
        shown = text if " ".join(lines) == " ".join(text.split()) else "\n".join(lines)
        self.status.setStyleSheet(f"font-size: {px}px;" if px != self._status_px else "")
        self.status.setText(shown)
        whole = "\n".join(t for t in ((text if shown != text else ""), details) if t)
        self.status.setToolTip(plain_tip(whole) if whole else "")

    # --- from the worker ------------------------------------------------------------
    def _show_preview(self, image: QImage) -> None:
        self.image.setPixmap(QPixmap.fromImage(image).scaled(self.image.size(), Qt.KeepAspectRatio))

    def _seen(self, card_id: str) -> None:
        # The card's name is not shown: a peek's card must stay private on this shared panel.
        self._say("\u2714 Card read")
        self.card_seen.emit(card_id)

    def _foreign(self, what: str) -> None:
        self._say("That tag is not a card of this game.")

    def _failed(self, message: str) -> None:
        # The details (which camera, which driver) stay here, in the panel's tooltip; the
        # top of the screen says what to do.
        self._say("No camera. Choose another one below and press Retry.", details=message)
        self.problem.emit("No camera is working, so pick each card on the screen when asked. "
                          "To try it without cards, choose \u201cSimulated table\u201d under Camera.")
        self.image.clear()
        self.image.setText("No camera")
        self.retry.setText("Retry")
        if self._thread is not None:
            self._thread.quit()
