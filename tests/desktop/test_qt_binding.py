"""The Qt binding we install must survive a long game: the camera worker emits a signal per frame.

PySide6 6.12.0 drops a reference to ``True`` on every ``Signal.emit()``; after a few thousand
frames Python aborts. Run in a child process so a bad binding fails this test, not the suite.
"""

from __future__ import annotations

import subprocess
import sys

CHILD = """
import sys
from PySide6.QtCore import QCoreApplication, QObject, Signal

class Worker(QObject):
    frame = Signal(object, int)

app = QCoreApplication([])
w = Worker()
w.frame.connect(lambda image, n: None)
before = sys.getrefcount(True)
for n in range(20000):          # about ten minutes of camera frames at 30 fps
    w.frame.emit(None, n)
print(before - sys.getrefcount(True))
"""


def test_signals_do_not_leak_references_over_a_long_game():
    proc = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, f"the Qt binding crashed after many signals: {proc.stderr[-400:]}"
    assert abs(int(proc.stdout.strip())) < 100
