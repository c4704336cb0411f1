"""Debian's chromium, headless at a phone's size, driven by Selenium (never a downloaded browser).

Skipped only when chromium is not installed and this is not CI: CI installs it
(``scripts/_setup.sh``), so there a missing browser fails instead of hiding the test.
"""

from __future__ import annotations

import os
import shutil
import tempfile

import pytest

PHONE_SIZE = (390, 844)


def chromium_paths() -> tuple[str, str] | None:
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    return (browser, driver) if browser and driver else None


def require_chromium() -> tuple[str, str]:
    found = chromium_paths()
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("chromium and chromium-driver are missing on CI (scripts/_setup.sh installs them)")
        pytest.skip("chromium and chromium-driver are not installed (scripts/test installs them)")
    return found


def phone_browser(user_data: str | None = None):
    """A fresh headless chromium at 390x844 with its own empty profile, nothing fetched from outside."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    browser, driver = require_chromium()
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    profile = user_data or tempfile.mkdtemp(prefix="gumshoe-chromium-")
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", f"--user-data-dir={profile}", "--window-size=600,1000"):
        options.add_argument(flag)
    # A phone's screen: chromium's own windows are at least 500 px wide, so the page is emulated
    # at the phone's size and pixel density (as the browser's device toolbar does).
    options.add_experimental_option("mobileEmulation", {
        "deviceMetrics": {"width": PHONE_SIZE[0], "height": PHONE_SIZE[1], "pixelRatio": 3.0, "touch": True}})
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(options=options, service=Service(executable_path=driver))


def page_errors(browser) -> list[str]:
    """The console's errors (a script error, a blocked inline script...), less the favicon the
    browser asks for by itself (it gets the 404 every unknown path gets)."""
    return [e["message"] for e in browser.get_log("browser")
            if e["level"] == "SEVERE" and "favicon.ico" not in e["message"]]


def as_phone(browser) -> None:
    """The current tab at the phone's size (a new tab or window starts at the browser's own)."""
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": PHONE_SIZE[0], "height": PHONE_SIZE[1], "deviceScaleFactor": 3, "mobile": True})
