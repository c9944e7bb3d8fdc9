"""A real `paperscope serve` process over a library of the seeds plus a hostile listing, and a real
headless Chromium (Debian's, driven by Playwright; nothing is downloaded)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, sync_playwright

from paperscope.library import Library

from ..conftest import SEEDS
from .chromium import CHROMIUM, launch

HOSTILE = [
    "We study <script>window.__xss = 1; alert(1)</script> robust parsing of scripts in abstracts.",
    'An image tag <img src=x onerror="window.__xss = 2"> hides in this abstract about image models.',
    "A [markdown link](javascript:window.__xss=3) and an \\href{javascript:window.__xss=4}{href link} here.",
    'Breaking out of attributes: "><svg onload="window.__xss=5"> inside a sentence on vector graphics.',
    'Raw link javascript:alert(6) and <a href="javascript:window.__xss=7">click</a> in a security paper.',
]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def serving(db: Path, env: dict[str, str] | None = None) -> Iterator[str]:
    """A real `paperscope serve` process over `db`, on a free port; its URL."""
    with server_process(db, env) as (_, url):
        yield url


@contextmanager
def server_process(
    db: Path, env: dict[str, str] | None = None, workers: int = 1
) -> Iterator[tuple[subprocess.Popen, str]]:
    """`paperscope serve --workers N` over `db` on a free port, once it answers: its process and URL."""
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "paperscope", "--db", str(db), "serve", "--port", str(port), "--workers", str(workers)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, **(env or {})},
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60 * workers  # each worker process loads the model itself
    while True:
        try:
            httpx.get(url + "/api/stats", timeout=2)
            break
        except httpx.TransportError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()  # else reading its stderr would wait for ever
                raise RuntimeError(f"paperscope serve did not start: {process.stderr.read().decode()}") from None
            time.sleep(0.2)
    try:
        yield process, url
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("web")
    hostile = folder / "hostile.txt"
    hostile.write_text("Hostile Papers\n" + "\n".join(HOSTILE) + "\n", encoding="utf-8")
    db = folder / "web.db"
    with Library(db) as library:
        library.ingest([SEEDS, hostile])
    with serving(db) as url:
        yield url


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Without Chromium, the run stops at the first page test with one line (not a traceback per test),
    before its server starts."""
    if {"browser", "page"} & set(item.fixturenames) and not Path(CHROMIUM).is_file():
        pytest.exit(
            f"the browser tests need Chromium at {CHROMIUM}: apt-get install -y chromium "
            "(or set PAPERSCOPE_CHROMIUM to a Chromium binary)",
            returncode=1,
        )


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        chromium = launch(playwright)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Browser):
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture(scope="session")
def vendor() -> Path:
    return Path(__file__).parent / "vendor"
