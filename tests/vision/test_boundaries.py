import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_vision_never_imports_qt_engine_or_desktop():
    code = ("import sys, vision, vision.synthetic, vision.sheets, vision.sources, vision.__main__; "
            "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'shiboken6', 'engine', 'desktop')); "
            "print(bad); sys.exit(1 if bad else 0)")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr


def test_no_removed_opencv_aruco_api_is_used():
    source = "".join(p.read_text() for p in (ROOT / "vision").glob("*.py"))
    assert "aruco.detectMarkers(" not in source  # removed in OpenCV 4.7+: use cv2.aruco.ArucoDetector
