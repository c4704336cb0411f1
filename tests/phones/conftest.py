"""Shared by the phone tests: each test's own folder, loopback only, a seeded demo shuffle."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def gumshoe_home(tmp_path, monkeypatch):
    home = tmp_path / "home"
    home.mkdir(parents=True, exist_ok=True)
    monkeypatch.setenv("GUMSHOE_HOME", str(home))
    (home / "settings.ini").write_text("[General]\nless_motion=true\n", encoding="utf-8")
    monkeypatch.setenv("GUMSHOE_DEMO_SEED", "20261123")
    return home


@pytest.fixture
def t(qtbot, qapp):
    """The laptop's main window, its phone server on loopback only, driven as a family would."""
    from desktop.main_window import MainWindow
    from desktop.style import apply_style
    from tests.desktop.driver import Driver

    apply_style(qapp)
    win = MainWindow()
    # The size these tests were written at: the window now opens fitted to its screen (Qt's offscreen
    # screen is 800x800), which tests/desktop/test_window_size.py checks on screens of real sizes.
    win.resize(1500, 940)
    win.phone_hosts = ["127.0.0.1"]          # loopback only in tests
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    yield Driver(win, qtbot)
    win.close()


@pytest.fixture
def browser():
    """A headless chromium at a phone's size (skipped where chromium is not installed)."""
    from .browser import phone_browser

    b = phone_browser()
    yield b
    b.quit()
