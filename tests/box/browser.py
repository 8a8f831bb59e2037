"""Debian's chromium, headless, driven by selenium through Debian's chromedriver.

``make test`` installs both (``make browser``); a machine without them fails the browser
tests with that sentence rather than skipping them."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
FLAGS = (
    "--headless",
    "--no-sandbox",  # as root, as CI runs
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=420,900",
)


@contextmanager
def phone() -> Iterator[webdriver.Chrome]:
    """A fresh headless browser with a profile of its own, closed afterwards."""
    if not (shutil.which(CHROMIUM) and shutil.which(CHROMEDRIVER)):
        pytest.fail("The browser tests need Debian's chromium and chromium-driver: make browser")
    with tempfile.TemporaryDirectory(prefix="cuberef-chromium-") as profile:
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for flag in (*FLAGS, f"--user-data-dir={profile}"):
            options.add_argument(flag)
        driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
        try:
            yield driver
        finally:
            driver.quit()
