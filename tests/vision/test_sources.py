import threading
import time

import cv2
import numpy as np
import pytest

from vision.sources import (CameraError, EndOfStream, FrameSource, ImageFolderSource, VideoFileSource,
                            WebcamSource, camera_backends, open_source)


def _numbered_frame(i, size=(320, 240)):
    img = np.zeros((size[1], size[0], 3), np.uint8)
    img[:, : (i + 1) * 20] = 255  # a white bar whose width encodes the frame number
    return img


def _bar_width(frame):
    return int((frame[:, :, 0].mean(axis=0) > 128).sum())


def test_a_video_file_plays_all_its_frames_in_order(tmp_path):
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 30, (320, 240))
    assert writer.isOpened()
    for i in range(10):
        writer.write(_numbered_frame(i))
    writer.release()
    with VideoFileSource(path) as src:
        assert isinstance(src, FrameSource)
        widths = [_bar_width(src.read()) for _ in range(10)]
        with pytest.raises(EndOfStream):
            src.read()
    assert all(abs(w - (i + 1) * 20) <= 2 for i, w in enumerate(widths))


def test_missing_video_and_folder_are_clear_errors(tmp_path):
    with pytest.raises(CameraError, match="not found"):
        VideoFileSource(tmp_path / "none.mp4").open()
    (tmp_path / "junk.mp4").write_bytes(b"not a video")
    with pytest.raises(CameraError, match="cannot play"):
        VideoFileSource(tmp_path / "junk.mp4").open()
    with pytest.raises(CameraError, match="no images"):
        ImageFolderSource(tmp_path).open()


def test_image_folder_in_name_order(tmp_path):
    for i in (2, 0, 1):
        cv2.imwrite(str(tmp_path / f"f{i}.png"), _numbered_frame(i))
    with ImageFolderSource(tmp_path) as src:
        assert [_bar_width(src.read()) for _ in range(3)] == [20, 40, 60]
        with pytest.raises(EndOfStream):
            src.read()


def test_missing_camera_index_fails_quickly_with_a_clear_message():
    start = time.monotonic()
    with pytest.raises(CameraError, match="No camera found at index 57"):
        WebcamSource(57).open()
    assert time.monotonic() - start < 5


def test_backends_per_system():
    assert [n for _, n in camera_backends("win32")] == ["Media Foundation", "DirectShow"]
    assert [n for _, n in camera_backends("darwin")] == ["AVFoundation"]


class FakeCamera:
    """Delivers `frames` frames, then fails (unplugged) or blocks forever (stuck driver)."""

    def __init__(self, frames=3, then="fail", fps=100):
        self.left, self.then, self.fps = frames, then, fps
        self.count = 0
        self.released = threading.Event()

    def isOpened(self):
        return True

    def set(self, *a):
        return True

    def read(self):
        time.sleep(1 / self.fps)
        if self.left > 0:
            self.left -= 1
            self.count += 1
            frame = _numbered_frame(self.count % 10)
            frame[0, 0, :2] = (self.count % 256, self.count // 256)  # the frame's serial number
            return True, frame
        if self.then == "hang":
            self.released.wait()
        return False, None

    def release(self):
        self.released.set()


def test_a_camera_that_stops_delivering_frames_raises_instead_of_hanging():
    cam = FakeCamera(frames=3, then="fail")
    src = WebcamSource(0, frame_timeout=0.5, backends=[(0, "fake")], capture_factory=lambda i, api: cam)
    src.open()
    start = time.monotonic()
    with pytest.raises(CameraError, match="stopped delivering frames|sent no frame"):
        for _ in range(10):
            src.read(timeout=1.0)
    assert time.monotonic() - start < 3
    src.close()


def test_a_stuck_driver_times_out_and_close_returns():
    cam = FakeCamera(frames=1, then="hang")
    src = WebcamSource(0, backends=[(0, "fake")], capture_factory=lambda i, api: cam)
    src.open()
    src.read(timeout=1.0)
    start = time.monotonic()
    with pytest.raises(CameraError, match="sent no frame for 0.3 s"):
        src.read(timeout=0.3)
    src.close()
    assert time.monotonic() - start < 3


def test_opening_a_camera_that_never_answers_times_out():
    def never(i, api):
        time.sleep(10)

    start = time.monotonic()
    with pytest.raises(CameraError, match="did not answer"):
        WebcamSource(0, open_timeout=0.3, backends=[(0, "fake")], capture_factory=never).open()
    assert time.monotonic() - start < 2


def test_webcam_returns_the_newest_frame_not_a_backlog():
    cam = FakeCamera(frames=1000, fps=200)
    src = WebcamSource(0, backends=[(0, "fake")], capture_factory=lambda i, api: cam)
    src.open()
    first = src.read()
    time.sleep(0.3)  # the app was busy: ~60 frames arrived meanwhile
    latest_delivered = cam.count
    frame = src.read()
    src.close()
    serial = int(frame[0, 0, 0]) + 256 * int(frame[0, 0, 1])
    assert latest_delivered > 10  # (about 60 on an idle machine)
    assert serial >= latest_delivered - 1  # the newest frame, not the oldest of a queue
    assert serial > int(first[0, 0, 0]) + 256 * int(first[0, 0, 1]) + 10


def test_synthetic_source_shows_the_requested_cards():
    from vision.detector import TagDetector

    detector = TagDetector(active={"carmen"})
    with open_source("synthetic") as src:
        src.realtime = False
        assert detector.detect(src.read()) == []
        src.show(["carmen.henchman.robin-banks", "carmen.location.cairo"])
        seen = {d.card_id for d in detector.detect(src.read())}
        assert seen == {"carmen.henchman.robin-banks", "carmen.location.cairo"}
        with pytest.raises(ValueError, match="no tag registered"):
            src.show(["carmen.loot.nope"])


def test_watch_command_reports_a_card_shown_in_a_video_once(tmp_path, capsys):
    """End to end: a video file -> detector -> tracker -> one line per presentation."""
    from vision.__main__ import main
    from vision.synthetic import Degradation, SyntheticTable

    table = SyntheticTable(seed=3)
    path = tmp_path / "table.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 30, (1280, 720))
    for i in range(40):  # empty table, the card for 20 frames, empty table
        cards = ["carmen.henchman.patty-larceny"] if 10 <= i < 30 else []
        writer.write(table.frame(cards, tag_px=60, degradation=Degradation(noise_sigma=2)))
    writer.release()
    assert main(["watch", str(path), "--game", "carmen-cards"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 1 and lines[0].split()[1:] == ["card", "carmen.henchman.patty-larceny"]
    assert 0.3 <= float(lines[0].split()[0].rstrip("s")) <= 0.5  # shown at 0.33 s, confirmed 2 frames later
    assert main(["watch", str(path), "--game", "another-game"]) == 0
    assert capsys.readouterr().out.split()[1:3] == ["foreign", "carmen.henchman.patty-larceny"]
    assert main(["watch", "71"]) == 2
    assert "No camera found at index 71" in capsys.readouterr().err
