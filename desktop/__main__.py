"""`gumshoe`: start the app. `--demo` plays on the simulated table; `--smoke` opens the
main window offscreen, lets it draw, and exits 0 (a packaging and CI check)."""

from __future__ import annotations

import argparse
import os
import sys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="gumshoe", description="Referee and Evidence Journal for card games")
    parser.add_argument("--demo", action="store_true", help="play on the simulated table: no cards or camera needed")
    parser.add_argument("--smoke", action="store_true", help="open the main window offscreen, draw it, and exit")
    parser.add_argument("--camera", type=int, default=None, help="camera number to use (default: the first one)")
    parser.add_argument("--no-camera", action="store_true", help="do not open a camera; pick cards on screen")
    parser.add_argument("--self-test", action="store_true", help="check that everything Gumshoe needs works here, and exit")
    args = parser.parse_args(argv)
    if args.self_test:
        from .self_test import main as self_test

        return self_test()
    if args.smoke:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from .main_window import MainWindow
    from .style import apply_style

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("Gumshoe")
    apply_style(app)
    camera = "off" if args.smoke or args.no_camera else "auto"
    window = MainWindow(demo=args.demo, camera=camera, camera_index=args.camera or 0,
                        die_reader=not args.smoke)
    window.show()
    if args.smoke:
        shown: list[bool] = []

        def check() -> None:
            shown.append(window.isVisible() and not window.grab().isNull())
            app.quit()

        QTimer.singleShot(300, check)
        app.exec()
        ok = bool(shown and shown[0])
        window.close()
        print("smoke: main window shown" if ok else "smoke: main window did not show")
        return 0 if ok else 1
    return app.exec()


if __name__ == "__main__":
    sys.exit(main())
