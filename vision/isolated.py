"""Tag detection in a worker process: a crash in native code ends the worker, never the app.

The readers run native code (the AprilTag C library, OpenCV, zxing-cpp). A crash there ends
the process it happens in; in this worker it ends only the worker, and `IsolatedDetector`
says so (`ReaderCrashed`) and starts a new one for the next frame. Each frame is converted to
grey here (a third of the bytes) and sent through a pipe; the detections come back.
Measured (benchmarks/vision_process_bench.py, docs/vision.md): about 1 ms of CPU per 720p
frame for the hand-over, 5-10% of the detection itself.

A frozen app (PyInstaller) must call `multiprocessing.freeze_support()` first thing, as
installer/launcher.py does: the worker is started with the "spawn" method on every system.
"""

from __future__ import annotations

import logging
import multiprocessing as mp
import signal
import threading
import time
from typing import Collection

import numpy as np

from vision.detector import Detection, gray_frame
from vision.tags import TagKind

log = logging.getLogger(__name__)

START_TIMEOUT_S = 60.0   # a fresh interpreter importing OpenCV on a busy laptop
ANSWER_TIMEOUT_S = 10.0  # a frame takes tens of ms; far longer means the reader hangs


class ReaderUnavailable(RuntimeError):
    """The worker process could not be started at all (the caller reads in its own process)."""


class ReaderCrashed(RuntimeError):
    """The worker ended or stopped answering while reading a frame; the next frame starts a new one."""


def _serve(conn, active: list[str] | None, kinds: list[str]) -> None:
    """The worker: grey frames in, detections out, until told to stop or the pipe closes."""
    from vision.detector import TagDetector

    detector = TagDetector(active=active, kinds=kinds)
    conn.send("ready")
    while True:
        try:
            gray = conn.recv()
        except (EOFError, OSError):
            return
        if gray is None:
            return
        try:
            start = time.thread_time()
            found = detector.detect(gray)
            conn.send(("ok", found, time.thread_time() - start))
        except Exception as exc:  # a Python error is the caller's to see, with its words
            conn.send(("error", f"{type(exc).__name__}: {exc}", 0.0))


def _ending(code: int | None) -> str:
    if code is None:
        return "stopped answering"
    if code < 0:
        try:
            return f"was ended by {signal.Signals(-code).name}"
        except ValueError:
            return f"was ended by signal {-code}"
    return f"exited with status {code}"


class IsolatedDetector:
    """`TagDetector.detect` in a worker process, restarted after a crash.

    `detect(frame)` returns the detections, raises ValueError for a frame that is not an 8-bit
    image (as TagDetector does), or ReaderCrashed when the worker died or hung on this frame.
    The constructor raises ReaderUnavailable when no worker can be started.
    """

    def __init__(self, active: Collection[str] | None = None,
                 kinds: Collection[TagKind | str] = (TagKind.APRILTAG,)) -> None:
        self._active = None if active is None else sorted(active)
        self._kinds = [TagKind(k).value for k in kinds]
        self._proc = None
        self._conn = None
        self.crashes = 0
        self.reader_cpu_s = 0.0  # the worker's CPU time spent reading frames (diagnostics, benchmarks)
        # A watchdog ends a worker that does not answer a frame in time, whether it hangs while
        # reading it or stopped taking frames at all (then the send itself would block).
        self._deadline: float | None = None
        self._hung = False
        self._closed = threading.Event()
        self._start()
        threading.Thread(target=self._watch, name="gumshoe-tag-reader-watchdog", daemon=True).start()

    @property
    def pid(self) -> int | None:
        """The worker's process id (None between a crash and the next frame)."""
        return None if self._proc is None else self._proc.pid

    def _start(self) -> None:
        ctx = mp.get_context("spawn")
        parent, child = ctx.Pipe()
        proc = ctx.Process(target=_serve, args=(child, self._active, self._kinds), daemon=True,
                           name="gumshoe-tag-reader")
        try:
            proc.start()
        except OSError as exc:
            raise ReaderUnavailable(f"the tag reader process could not be started: {exc}") from None
        child.close()
        try:
            ready = parent.poll(START_TIMEOUT_S) and parent.recv() == "ready"
        except (EOFError, OSError):
            ready = False
        if not ready:
            proc.kill()
            proc.join(2)
            parent.close()
            raise ReaderUnavailable(f"the tag reader process {_ending(proc.exitcode)} while starting")
        self._proc, self._conn = proc, parent

    def _watch(self) -> None:
        while not self._closed.wait(0.2):
            deadline, proc = self._deadline, self._proc
            if deadline is not None and proc is not None and time.monotonic() > deadline:
                self._hung = True
                proc.kill()  # the camera thread's send or wait then fails at once

    def detect(self, frame: np.ndarray) -> list[Detection]:
        gray = gray_frame(frame)  # refuses what is not an image here, in the caller's words
        if self._proc is None:
            self._start()
        self._deadline = time.monotonic() + ANSWER_TIMEOUT_S
        try:
            self._conn.send(gray)
            if not self._conn.poll(ANSWER_TIMEOUT_S + 1):
                raise TimeoutError
            status, payload, cpu = self._conn.recv()
        except (EOFError, OSError, TimeoutError):
            self._deadline = None
            ending = self._stop()
            self.crashes += 1
            log.warning("the tag reader process %s on a %dx%d frame; starting a new one",
                        ending, gray.shape[1], gray.shape[0])
            raise ReaderCrashed(f"the tag reader {ending}") from None
        self._deadline = None
        self.reader_cpu_s += cpu
        if status == "error":
            raise ValueError(payload)
        return payload

    def _stop(self) -> str:
        """End the worker (killed if it hangs); how it ended, in words."""
        proc, conn = self._proc, self._conn
        self._proc = self._conn = None
        if proc is None:
            return "was not running"
        proc.join(0.5)
        if proc.is_alive() or self._hung:
            proc.kill()
            proc.join(2)
            ending = "stopped answering"
        else:
            ending = _ending(proc.exitcode)
        self._hung = False
        conn.close()
        return ending

    def close(self) -> None:
        """Stop the worker (called when the camera stops)."""
        self._closed.set()
        if self._conn is not None:
            try:
                self._conn.send(None)
            except OSError:
                pass
        self._stop()

    def __enter__(self) -> "IsolatedDetector":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
