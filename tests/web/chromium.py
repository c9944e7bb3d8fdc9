"""Debian's headless Chromium as the browser tests and bench/web.py launch it (nothing is downloaded)."""

from __future__ import annotations

import os

from playwright.sync_api import Browser, Playwright

CHROMIUM = os.environ.get("PAPERSCOPE_CHROMIUM", "/usr/bin/chromium")
# Without the background-networking switches Chromium keeps dialling hosts this closed network refuses.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def launch(playwright: Playwright) -> Browser:
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
