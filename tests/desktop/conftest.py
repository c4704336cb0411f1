import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402
from PySide6.QtCore import QEvent  # noqa: E402


@pytest.fixture(autouse=True)
def gumshoe_home(tmp_path, monkeypatch):
    """Every test gets its own folder for saved games, never the developer's."""
    home = tmp_path / "home"
    monkeypatch.setenv("GUMSHOE_HOME", str(home))
    # Tests run with "less motion" on (the end state drawn at once), as the start screen's switch
    # would keep it; the motion tests switch it off themselves.
    home.mkdir(parents=True, exist_ok=True)
    (home / "settings.ini").write_text("[General]\nless_motion=true\n", encoding="utf-8")
    from desktop.drawn.motion import set_less_motion
    set_less_motion(True)
    # The same simulated shuffle on every run: a demo test that passes once passes always.
    monkeypatch.setenv("GUMSHOE_DEMO_SEED", os.environ.get("GUMSHOE_TEST_DEMO_SEED", "20261123"))
    return home


@pytest.fixture
def window(qtbot, qapp):
    from desktop.main_window import MainWindow
    from desktop.style import apply_style

    apply_style(qapp)
    win = MainWindow()
    # The size these tests were written at: the window now opens fitted to its screen (Qt's offscreen
    # screen is 800x800), which tests/desktop/test_window_size.py checks on screens of real sizes.
    win.resize(1500, 940)
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    yield win
    win.close()
    # Deleted, not only closed: a closed window's widgets and timers otherwise live on into every
    # later test (thousands of widgets by the end of the suite, each test slower than the last).
    win.deleteLater()
    qapp.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    qapp.processEvents()


@pytest.fixture
def table(window, qtbot):
    from .driver import Driver

    return Driver(window, qtbot)


#: A whole-game variant that repeats what another case already walks (another size, more players):
#: run with GUMSHOE_LONG=1 (the long run), skipped in CI to keep the suite under 25 minutes.
LONG = os.environ.get("GUMSHOE_LONG") == "1"
long_only = pytest.mark.skipif(not LONG, reason="a repeat at another size or player count: GUMSHOE_LONG=1")
