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
