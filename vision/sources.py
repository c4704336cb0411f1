"""Frame sources behind one small interface: webcam, video file, folder of images, synthetic table.

Every source has `open()`, `read(timeout)` -> newest BGR frame, and `close()`; it is also a
context manager. Problems the app must show (no camera, camera busy, camera stopped) raise
`CameraError` with a message for the user, always within a timeout, never a hang. A finite
source (file, folder) raises `EndOfStream` when it has no more frames.

>>> with open_source("synthetic") as src:
...     src.show(["carmen.loot.gandhis-glasses"])
...     src.read().shape
(720, 1280, 3)
"""

from __future__ import annotations

import os
import sys
import threading
import time
from pathlib import Path
from typing import Callable, Protocol, Sequence, runtime_checkable

import cv2
import numpy as np

IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp"}


class CameraError(RuntimeError):
    """A frame source cannot deliver frames; the message is meant for the user."""


class EndOfStream(Exception):
    """A video file or image folder has no more frames."""


@runtime_checkable
class FrameSource(Protocol):
    name: str

    def open(self) -> None: ...

    def read(self, timeout: float = 2.0) -> np.ndarray: ...

    def close(self) -> None: ...


class _SourceBase:
    name = "source"
    _opened = False

    def __enter__(self):
        if not self._opened:  # open_source() hands back sources already open
            self.open()
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _run_with_timeout(fn: Callable[[], object], timeout: float, what: str) -> object:
    """Run a call that may block forever in some drivers; CameraError if it takes too long."""
    result: dict[str, object] = {}

    def target() -> None:
        try:
            result["value"] = fn()
        except Exception as exc:  # reported to the caller below
            result["error"] = exc

    worker = threading.Thread(target=target, name=f"gumshoe-{what}", daemon=True)
    worker.start()
    worker.join(timeout)
    if worker.is_alive():
        raise CameraError(f"{what} did not answer within {timeout:g} s; is the camera used by another program?")
    if "error" in result:
        raise CameraError(f"{what} failed: {result['error']}")
    return result.get("value")


def camera_backends(platform: str = sys.platform) -> list[tuple[int, str]]:
    """OpenCV capture backends to try, best first, for this operating system."""
    if platform.startswith("win"):
        return [(cv2.CAP_MSMF, "Media Foundation"), (cv2.CAP_DSHOW, "DirectShow")]
    if platform == "darwin":
        return [(cv2.CAP_AVFOUNDATION, "AVFoundation")]
    return [(cv2.CAP_V4L2, "V4L2"), (cv2.CAP_ANY, "default")]


def prepare_camera_environment() -> None:
    """Environment OpenCV reads when it first opens a camera (must be set before that).

    Windows: Media Foundation's hardware transforms make opening take many seconds on many
    laptops. macOS: the app asks for camera permission itself, so OpenCV must not.
    """
    os.environ.setdefault("OPENCV_VIDEOIO_MSMF_ENABLE_HW_TRANSFORMS", "0")
    os.environ.setdefault("OPENCV_AVFOUNDATION_SKIP_AUTH", "1")


class WebcamSource(_SourceBase):
    """A webcam, read by a background thread that keeps only the newest frame.

    >>> cam = WebcamSource(index=0)      # doctest: +SKIP
    >>> cam.open(); frame = cam.read(); cam.close()   # doctest: +SKIP
    """

    def __init__(self, index: int = 0, width: int = 1280, height: int = 720, fps: int = 30,
                 open_timeout: float = 8.0, frame_timeout: float = 2.0,
                 backends: Sequence[tuple[int, str]] | None = None,
                 capture_factory: Callable[[int, int], object] = cv2.VideoCapture) -> None:
        """`capture_factory(index, api)` makes the capture object; tests pass a fake camera."""
        self.index = index
        self._capture_factory = capture_factory
        self.width, self.height, self.fps = width, height, fps
        self.open_timeout = open_timeout
        self.frame_timeout = frame_timeout
        self.backends = list(backends) if backends is not None else camera_backends()
        self.name = f"camera {index}"
        self._cap = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._cond = threading.Condition()
        self._frame: np.ndarray | None = None
        self._frame_no = 0
        self._returned_no = 0
        self._last_frame_time = 0.0
        self._error: str | None = None
        self.backend_name: str | None = None

    def open(self) -> None:
        prepare_camera_environment()
        failures = []
        for api, label in self.backends:
            cap = _run_with_timeout(lambda: self._capture_factory(self.index, api), self.open_timeout, f"opening {self.name}")
            if cap is not None and cap.isOpened():
                self._cap, self.backend_name = cap, label
                break
            if cap is not None:
                cap.release()
            failures.append(label)
        if self._cap is None:
            raise CameraError(f"No camera found at index {self.index} (tried {', '.join(failures)}). "
                              "Is it plugged in, and not used by another program?")
        self._cap.set(cv2.CAP_PROP_FRAME_WIDTH, self.width)
        self._cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self.height)
        self._cap.set(cv2.CAP_PROP_FPS, self.fps)
        self._cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)  # drivers that honour it keep no stale frames
        self._stop.clear()
        self._error = None
        self._last_frame_time = time.monotonic()
        self._thread = threading.Thread(target=self._grab_loop, name=f"gumshoe-{self.name}", daemon=True)
        self._thread.start()
        self._opened = True

    def _grab_loop(self) -> None:
        failures = 0
        while not self._stop.is_set():
            ok, frame = self._cap.read() if self._cap is not None else (False, None)
            with self._cond:
                if ok and frame is not None:
                    failures = 0
                    self._frame, self._last_frame_time = frame, time.monotonic()
                    self._frame_no += 1
                    self._cond.notify_all()
                else:
                    failures += 1
                    if failures >= 30 or time.monotonic() - self._last_frame_time > self.frame_timeout:
                        self._error = (f"{self.name} stopped delivering frames. It may be unplugged "
                                       "or in use by another program.")
                        self._cond.notify_all()
                        return
            if not ok:
                time.sleep(0.02)

    def read(self, timeout: float | None = None) -> np.ndarray:
        """The newest frame not returned before; CameraError if none comes within `timeout`."""
        if self._thread is None:
            raise CameraError(f"{self.name} is not open")
        timeout = self.frame_timeout if timeout is None else timeout
        deadline = time.monotonic() + timeout
        with self._cond:
            while self._frame_no == self._returned_no and self._error is None:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise CameraError(f"{self.name} sent no frame for {timeout:g} s. It may be unplugged "
                                      "or in use by another program.")
                self._cond.wait(remaining)
            if self._error is not None:
                raise CameraError(self._error)
            self._returned_no = self._frame_no
            return self._frame

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=1.0)  # a driver stuck in read() must not hang the app
            self._thread = None
        if self._cap is not None:
            self._cap.release()
            self._cap = None
        self._opened = False


class VideoFileSource(_SourceBase):
    """Frames of a video file, in order (`realtime=True` drops frames to keep pace like a camera)."""

    def __init__(self, path: str | Path, loop: bool = False, realtime: bool = False) -> None:
        self.path = Path(path)
        self.loop, self.realtime = loop, realtime
        self.name = self.path.name
        self._cap: cv2.VideoCapture | None = None
        self._start = 0.0
        self._index = 0
        self.fps = 30.0

    def open(self) -> None:
        if not self.path.is_file():
            raise CameraError(f"video file not found: {self.path}")
        cap = cv2.VideoCapture(str(self.path))
        if not cap.isOpened():
            raise CameraError(f"cannot play {self.path.name}: not a video OpenCV can read")
        self._cap = cap
        self.fps = cap.get(cv2.CAP_PROP_FPS) or 30.0
        self._start, self._index = time.monotonic(), 0
        self._opened = True

    def read(self, timeout: float = 2.0) -> np.ndarray:
        if self._cap is None:
            raise CameraError(f"{self.name} is not open")
        if self.realtime:
            # Skip the frames whose time has passed: always the newest, never a backlog.
            due = int((time.monotonic() - self._start) * self.fps)
            while self._index < due:
                if not self._cap.grab():
                    break
                self._index += 1
        ok, frame = self._cap.read()
        if not ok:
            if self.loop and self._index > 0:
                self._cap.set(cv2.CAP_PROP_POS_FRAMES, 0)
                self._start, self._index = time.monotonic(), 0
                ok, frame = self._cap.read()
            if not ok:
                raise EndOfStream(self.name)
        self._index += 1
        return frame

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None
        self._opened = False


class ImageFolderSource(_SourceBase):
    """The images of a folder, in file-name order."""

    def __init__(self, path: str | Path, loop: bool = False) -> None:
        self.path = Path(path)
        self.loop = loop
        self.name = self.path.name
        self._files: list[Path] = []
        self._index = 0

    def open(self) -> None:
        if not self.path.is_dir():
            raise CameraError(f"image folder not found: {self.path}")
        self._files = sorted(p for p in self.path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not self._files:
            raise CameraError(f"no images in {self.path}")
        self._index = 0
        self._opened = True

    def read(self, timeout: float = 2.0) -> np.ndarray:
        if self._index >= len(self._files):
            if not self.loop or not self._files:
                raise EndOfStream(self.name)
            self._index = 0
        path = self._files[self._index]
        self._index += 1
        frame = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if frame is None:
            raise CameraError(f"cannot read image {path.name}")
        return frame

    def close(self) -> None:
        self._files = []
        self._opened = False


class SyntheticSource(_SourceBase):
    """The synthetic table as a camera: the app's demo mode. `show([...])` sets the cards in view.

    Thread-safe: the UI thread may call `show` while a worker thread calls `read`.
    """

    def __init__(self, seed: int = 0, fps: float = 30.0, realtime: bool = False, table=None, tag_px: float = 70.0) -> None:
        self.seed, self.fps, self.realtime, self.tag_px = seed, fps, realtime, tag_px
        self.name = "demo table"
        self._table = table
        self._cards: list[str] = []
        self._lock = threading.Lock()
        self._next_time = 0.0

    def open(self) -> None:
        if self._table is None:
            from vision.synthetic import SyntheticTable  # local: only demo mode needs it

            self._table = SyntheticTable(self.seed)
        self._next_time = time.monotonic()
        self._opened = True

    def show(self, card_ids: Sequence[str]) -> None:
        """Cards to show from the next frame on (an empty list shows the bare table)."""
        # "tag:<number>": a card carrying a sticker that names no card yet (one printed to attach later)
        unknown = ([c for c in card_ids if c not in self._table.registry and not _bare_sticker(c)]
                   if self._table is not None else [])
        if unknown:
            raise ValueError(f"no tag registered for: {', '.join(unknown)}")
        with self._lock:
            self._cards = list(card_ids)

    def read(self, timeout: float = 2.0) -> np.ndarray:
        if self._table is None:
            raise CameraError(f"{self.name} is not open")
        if self.realtime:
            delay = self._next_time - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            self._next_time = max(self._next_time + 1.0 / self.fps, time.monotonic())
        with self._lock:
            cards = list(self._cards)
        return self._table.frame(cards, tag_px=self.tag_px)

    def close(self) -> None:
        self._opened = False


def _bare_sticker(card_id: str) -> bool:
    return card_id.startswith("tag:") and card_id[4:].isdigit()


def open_source(spec: str | int, realtime: bool = False) -> _SourceBase:
    """A source from a user's choice: a camera index ("0"), "synthetic", a video file or an image folder.

    The returned source is opened; CameraError says what went wrong. `realtime=True` paces the
    synthetic table and video files like a camera (dropping late frames); otherwise they give
    every frame as fast as they are read. A webcam is always real time.
    """
    text = str(spec)
    if text == "synthetic":
        src: _SourceBase = SyntheticSource(realtime=realtime)
    elif text.isdigit():
        src = WebcamSource(int(text))
    elif Path(text).is_dir():
        src = ImageFolderSource(text)
    else:
        src = VideoFileSource(text, realtime=realtime)
    src.open()
    return src
