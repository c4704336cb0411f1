from tests.layering import ROOT, assert_imports_none_of


def test_vision_never_imports_qt_engine_or_desktop():
    assert_imports_none_of(("vision", "vision.synthetic", "vision.sheets", "vision.sources", "vision.dice_colours",
                            "vision.__main__"),
                           ("PySide6", "shiboken6", "engine", "desktop"))


def test_no_removed_opencv_aruco_api_is_used():
    source = "".join(p.read_text() for p in (ROOT / "vision").glob("*.py"))
    assert "aruco.detectMarkers(" not in source  # removed in OpenCV 4.7+: use cv2.aruco.ArucoDetector
