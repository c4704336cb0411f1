"""Should the camera's tag reading run in a separate process? What moving each frame there costs.

    .venv/bin/python benchmarks/vision_process_bench.py            # 60 frames per size
    .venv/bin/python benchmarks/vision_process_bench.py --smoke    # 3 frames, one size: it still runs

A native crash in the readers (the AprilTag C library, OpenCV, zxing-cpp) ends the process it
happens in. In a worker process it would end only the worker, and the camera panel could
restart it. The price is moving every frame there and the detections back. For realistic
synthetic frames at the demo size (640x360), 720p and 1080p this measures, on one thread:

  in-process   TagDetector.detect on the frame (what the camera thread does today), CPU ms
  pipe         the grey frame pickled through a multiprocessing Pipe to a worker that reads
               it and sends the detections back: round trip minus the worker's own detect time
  shared mem   the grey frame copied into a shared-memory block and a short message sent;
               the worker reads it in place: round trip minus the worker's detect time
  camera CPU   the camera thread's own CPU for that hand-over (thread_time), per frame

plus the worker's start-up time (spawn, imports, first detector) and its resident memory.
Figures go to docs/vision.md ("A crash in native code").
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import statistics
import sys
import time
from multiprocessing import shared_memory
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def worker(conn, shm_name: str | None) -> None:
    """The worker process: grey frames in (pickled, or in shared memory), detections out."""
    import cv2

    from vision.detector import TagDetector

    cv2.setNumThreads(1)
    detector = TagDetector(active={"carmen"})
    shm = shared_memory.SharedMemory(name=shm_name) if shm_name else None
    conn.send(("ready", rss_mb()))
    while True:
        c0 = time.thread_time()
        msg = conn.recv()
        if msg is None:
            break
        gray = msg if shm is None else np.ndarray(msg, np.uint8, shm.buf)
        c1, t1 = time.thread_time(), time.perf_counter()
        found = [(d.identity.tag_id, d.corners, d.quality) for d in detector.detect(gray)]
        c2, t2 = time.thread_time(), time.perf_counter()
        conn.send((found, t2 - t1, (c1 - c0) + (time.thread_time() - c2)))  # detect wall time, hand-over CPU
    if shm is not None:
        shm.close()


def rss_mb() -> float:
    try:
        with open(f"/proc/{os.getpid()}/status") as f:
            return next(int(line.split()[1]) for line in f if line.startswith("VmRSS")) / 1024
    except (OSError, StopIteration):
        return float("nan")


def frames_of(size: tuple[int, int], n: int, seed: int) -> list[np.ndarray]:
    from vision.synthetic import REALISTIC_SCENARIOS, SyntheticTable

    table = SyntheticTable(seed=seed, size=size)
    scen = REALISTIC_SCENARIOS["real-webcam-mix"]
    return [table.random_scene(scen, i).image for i in range(n)]


def run(sizes: list[tuple[int, int]], n: int, seed: int) -> None:
    import cv2

    from vision.detector import TagDetector

    cv2.setNumThreads(1)
    ctx = mp.get_context("spawn")  # what Windows and macOS use, and what a frozen app can use
    print(f"vision_process_bench: python {sys.version.split()[0]}, {os.cpu_count()} CPUs, {n} frames per size, "
          f"realistic synthetic frames (real-webcam-mix), one detector thread")
    print(f"  {'':10s} {'in-process':>10s}  {'--- pipe (pickled) ---':>26s}  {'--- shared memory ---':>26s}")
    print(f"  {'frame':10s} {'detect ms':>10s}  {'+ms wait':>8s} {'+CPU ms':>8s} {'share':>8s}  "
          f"{'+ms wait':>8s} {'+CPU ms':>8s} {'share':>8s}")
    startup, child_rss = float("nan"), float("nan")
    for size in sizes:
        frames = frames_of(size, n, seed)
        here = TagDetector(active={"carmen"})
        inproc = []
        for f in frames:
            t0 = time.thread_time()
            here.detect(f)
            inproc.append(time.thread_time() - t0)
        wait: dict[str, list[float]] = {"pipe": [], "shm": []}
        cpu: dict[str, list[float]] = {"pipe": [], "shm": []}
        for mode in ("pipe", "shm"):
            shm = shared_memory.SharedMemory(create=True, size=size[0] * size[1]) if mode == "shm" else None
            parent, child = ctx.Pipe()
            t_spawn = time.monotonic()
            proc = ctx.Process(target=worker, args=(child, shm.name if shm else None), daemon=True)
            proc.start()
            _, child_rss = parent.recv()
            startup = time.monotonic() - t_spawn
            for f in frames:
                gray = cv2.cvtColor(f, cv2.COLOR_BGR2GRAY)  # not counted: in-process, detect() converts too
                t0, c1 = time.perf_counter(), time.thread_time()
                if shm is None:
                    parent.send(gray)
                else:
                    np.ndarray(gray.shape, np.uint8, shm.buf)[:] = gray
                    parent.send(gray.shape)
                c2 = time.thread_time()
                _found, child_detect_wall, child_handover = parent.recv()
                t1, c3 = time.perf_counter(), time.thread_time()
                wait[mode].append((t1 - t0) - child_detect_wall)
                # What the hand-over adds: the camera thread's send and receive, and the worker's.
                cpu[mode].append((c2 - c1) + (c3 - c2) + child_handover)
            parent.send(None)
            proc.join(5)
            if shm is not None:
                shm.close()
                shm.unlink()
        med = lambda v: statistics.median(v) * 1000  # noqa: E731
        d = med(inproc)
        print(f"  {size[0]:>4d}x{size[1]:<5d} {d:10.1f}  {med(wait['pipe']):8.2f} {med(cpu['pipe']):8.2f} "
              f"{med(cpu['pipe']) / d:8.1%}  {med(wait['shm']):8.2f} {med(cpu['shm']):8.2f} {med(cpu['shm']) / d:8.1%}")
    print(f"  +ms wait: round trip minus the worker's detection (the latency a frame gains); +CPU ms: the "
          f"camera thread's and the worker's own CPU for the hand-over; share: of the in-process detection")
    print(f"  worker start-up (spawn, imports, detector): {startup:.2f} s; worker memory {child_rss:.0f} MB resident")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=60)
    ap.add_argument("--seed", type=int, default=21)
    ap.add_argument("--smoke", action="store_true", help="3 frames at 640x360: does it still run")
    args = ap.parse_args(argv)
    if args.smoke:
        run([(640, 360)], 3, args.seed)
    else:
        run([(640, 360), (1280, 720), (1920, 1080)], args.frames, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
