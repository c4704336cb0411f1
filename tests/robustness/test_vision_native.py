"""The tag readers' native code never takes the app down (issue 21, part 1).

A family that switches from an external webcam to the built-in one mid-game, or a webcam that
renegotiates its resolution, must keep its game: a frame smaller than the one before used to
crash the process inside the AprilTag C library. Every check runs in a child process, so a
crash fails the test instead of killing pytest.

Short in the normal run (~700 fuzzed frames, well under a minute); GUMSHOE_LONG=1 runs 10,000
frames through the binding and 10,000 through the whole detector, in chunks of 1,000 (each its
own seed and process):

    GUMSHOE_LONG=1 .venv/bin/python -m pytest -q tests/robustness/test_vision_native.py
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.robustness.conftest import LONG

ROOT = Path(__file__).resolve().parents[2]
SHORT_FRAMES = {"binding": 400, "detector": 300}
LONG_FRAMES = 10_000
CHUNK = 1_000


def run_child(code: str, timeout: float = 120) -> dict:
    """Run `code` in a fresh interpreter at the project root; its last stdout line is JSON."""
    r = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=ROOT, capture_output=True, text=True,
                       timeout=timeout)
    assert r.returncode == 0, f"the child process ended with {r.returncode} (a negative value is a signal)\n" \
                              f"{r.stdout[-2000:]}\n{r.stderr[-3000:]}"
    return json.loads(r.stdout.strip().splitlines()[-1])


def fuzz(target: str, frames: int, seed: int) -> str:
    """Run tests/robustness/vision_fuzz.py in a child; its last line on success."""
    r = subprocess.run([sys.executable, "-m", "tests.robustness.vision_fuzz", target, "--frames", str(frames),
                        "--seed", str(seed)], cwd=ROOT, capture_output=True, text=True, timeout=60 + frames)
    lines = r.stdout.strip().splitlines()
    assert r.returncode == 0 and lines and lines[-1].startswith("DONE"), (
        f"fuzzing the {target} (seed {seed}) ended with {r.returncode} (a negative value is a signal: a native crash)\n"
        "last frames:\n" + "\n".join(lines[-5:]) + "\n" + r.stderr[-3000:])
    return lines[-1]


def test_switching_to_a_smaller_camera_keeps_the_game_and_keeps_reading():
    """The reproduction of issue 21 (1080p with tags, then 640x480), then a card shown to the new
    camera is read exactly as a detector that never saw the old camera reads it."""
    out = run_child("""
        import json
        import cv2, numpy as np
        from vision import TagDetector
        from vision.synthetic import SyntheticTable
        card = "carmen.loot.gandhis-glasses"
        det = TagDetector(active={"carmen-cards"})
        big = SyntheticTable(seed=3, size=(1920, 1080)).frame([card], tag_px=60)
        before = [d.card_id for d in det.detect(big)]
        empty = det.detect(np.full((480, 640, 3), 128, np.uint8))
        small = SyntheticTable(seed=4, size=(640, 480)).frame([card], tag_px=40)
        after = sorted(d.card_id for d in det.detect(small))
        fresh = sorted(d.card_id for d in TagDetector(active={"carmen-cards"}).detect(small))
        print(json.dumps({"before": before, "empty": len(empty), "after": after, "fresh": fresh}))
    """)
    assert out["before"] and set(out["before"]) == {"carmen.loot.gandhis-glasses"}
    assert out["empty"] == 0
    assert out["after"] == out["fresh"] and "carmen.loot.gandhis-glasses" in out["after"]


def test_the_binding_reads_inside_a_region_clipped_to_the_image():
    """A region partly outside the image reads the tag inside it, with corners in the image's own
    coordinates; a region outside it, or too small for the decimation, reads nothing."""
    out = run_child("""
        import json
        import numpy as np
        from vision.apriltag_lib import LibDetector
        from tests.robustness.vision_fuzz import paste, tag_image
        gray = np.full((480, 640), 200, np.uint8)
        paste(gray, tag_image(14, 80), 540, 380)          # its quiet ring ends at the corner of the image
        det = LibDetector({"tag36h11": 0}, quad_decimate=1.0)
        across = det.detect(gray, (500, 350, 900, 900))
        outside = det.detect(gray, (700, 500, 900, 700))
        inverted = det.detect(gray, (600, 450, 500, 350))
        det.quad_decimate = 12.0
        too_small = det.detect(gray, (540, 460, 640, 480))  # 20 rows at decimation 12: 2 rows, a crash unguarded
        print(json.dumps({"ids": [t.tag_id for t in across], "corners": across[0].corners.tolist() if across else [],
                          "outside": len(outside), "inverted": len(inverted), "too_small": len(too_small)}))
    """)
    assert out["ids"] == [14]
    xs, ys = [c[0] for c in out["corners"]], [c[1] for c in out["corners"]]
    # The black square spans modules 1-9 of 10 at 8 px each: x 548-612, y 388-452 in the image.
    assert 545 < min(xs) < 551 and 609 < max(xs) < 615 and 385 < min(ys) < 391 and 449 < max(ys) < 455
    assert out["outside"] == out["inverted"] == out["too_small"] == 0


def test_what_is_not_an_8_bit_image_is_refused_in_words():
    out = run_child("""
        import json
        import numpy as np
        from vision import TagDetector
        from vision.apriltag_lib import LibDetector
        det, lib = TagDetector(active=None), LibDetector(quad_decimate=1.0)
        messages = []
        for call, image in ((det.detect, np.zeros((480, 640), np.float32)), (det.detect, np.zeros((480, 640, 2), np.uint8)),
                            (lib.detect, np.zeros((480, 640, 3), np.uint8)), (lib.detect, np.zeros((480, 640), np.uint16)),
                            (det.detect, np.zeros((20000, 8), np.uint8))):
            try:
                call(image)
                messages.append(None)
            except ValueError as exc:
                messages.append(str(exc))
        tiny = [len(det.detect(np.zeros(shape, np.uint8))) for shape in ((0, 0), (1, 1), (0, 640, 3), (5, 3000))]
        print(json.dumps({"messages": messages, "tiny": tiny}))
    """)
    float_frame, two_channels, colour_to_lib, sixteen_bit, huge = out["messages"]
    assert "8-bit" in float_frame and "float32" in float_frame
    assert "grey, BGR or BGRA" in two_channels
    assert "grey image" in colour_to_lib
    assert "8-bit" in sixteen_bit and "uint16" in sixteen_bit
    assert "larger than any camera" in huge
    assert out["tiny"] == [0, 0, 0, 0]


@pytest.mark.parametrize("target", ["binding", "detector"])
def test_fuzzed_frames_never_crash_the_native_readers(target):
    """Random sequences of sizes, pixels and memory layouts: zero crashes, 8-bit images never
    raise, anything else is a ValueError with a message (vision_fuzz.py)."""
    if not LONG:
        assert fuzz(target, SHORT_FRAMES[target], seed=21).startswith(f"DONE {target} frames={SHORT_FRAMES[target]}")
        return
    for chunk in range(LONG_FRAMES // CHUNK):
        assert fuzz(target, CHUNK, seed=1000 + chunk).startswith(f"DONE {target} frames={CHUNK}")


# --- the tag reader in its own process (vision.isolated, desktop.camera) ---------------------------

def card_frame():
    from vision.synthetic import SyntheticTable

    return SyntheticTable(seed=3, size=(640, 360)).frame(["carmen.loot.gandhis-glasses"], tag_px=50)


def test_a_crash_of_the_tag_reader_process_costs_one_frame():
    """The reader's process is killed as a native crash would kill it: that frame says so, and
    the next frame is read by a new process."""
    import os
    import signal

    from vision.isolated import IsolatedDetector, ReaderCrashed

    frame = card_frame()
    with IsolatedDetector(active={"carmen"}) as reader:
        assert {d.card_id for d in reader.detect(frame)} == {"carmen.loot.gandhis-glasses"}
        first = reader.pid
        os.kill(first, signal.SIGSEGV)
        with pytest.raises(ReaderCrashed, match="SIGSEGV"):
            reader.detect(frame)
        assert {d.card_id for d in reader.detect(frame)} == {"carmen.loot.gandhis-glasses"}
        assert reader.pid != first and reader.crashes == 1
        with pytest.raises(ValueError, match="8-bit"):
            reader.detect(frame.astype(float))  # refused in words, the process untouched
        assert reader.crashes == 1


def test_a_hung_tag_reader_process_is_replaced(monkeypatch):
    import os
    import signal

    import vision.isolated as isolated

    monkeypatch.setattr(isolated, "ANSWER_TIMEOUT_S", 1.0)
    frame = card_frame()
    with isolated.IsolatedDetector(active={"carmen"}) as reader:
        os.kill(reader.pid, signal.SIGSTOP)
        with pytest.raises(isolated.ReaderCrashed, match="stopped answering"):
            reader.detect(frame)
        assert {d.card_id for d in reader.detect(frame)} == {"carmen.loot.gandhis-glasses"}


def test_the_camera_panel_says_the_camera_restarted_and_reads_on(qtbot):
    """A native crash while the camera runs: the panel tells the family, the game keeps its
    window, and the next card shown is read."""
    import os
    import signal

    from desktop.camera import RESTARTED, CameraPanel

    panel = CameraPanel()
    qtbot.addWidget(panel)
    panel.active_games = {"carmen"}
    panel.start_simulated(seed=1)
    try:
        qtbot.waitUntil(lambda: panel._worker is not None and panel._worker.reader_pid is not None, timeout=60_000)
        qtbot.waitUntil(lambda: panel.image.pixmap() is not None and not panel.image.pixmap().isNull(), timeout=20_000)
        os.kill(panel._worker.reader_pid, signal.SIGSEGV)
        qtbot.waitUntil(lambda: panel.status.text() == RESTARTED, timeout=20_000)
        assert panel.running
        seen: list[str] = []
        panel.card_seen.connect(seen.append)
        panel.simulated.hold_up(["carmen.loot.gandhis-glasses"], seconds=10)
        qtbot.waitUntil(lambda: seen == ["carmen.loot.gandhis-glasses"], timeout=30_000)
    finally:
        panel.stop()
