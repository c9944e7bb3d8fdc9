"""Fetching from the OpenReview and arXiv APIs, against a real local HTTP server that pages the
samples and misbehaves (tests/fake_apis.py); nothing is mocked."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from .conftest import run_cli

FAKE = Path(__file__).with_name("fake_apis.py")


@contextmanager
def fake_apis(faults: str = "some") -> Iterator[dict[str, str]]:
    process = subprocess.Popen([sys.executable, str(FAKE), faults], stdout=subprocess.PIPE, text=True)
    try:
        port = process.stdout.readline().strip()  # type: ignore[union-attr]
        url = f"http://127.0.0.1:{port}"
        yield {"PAPERSCOPE_OPENREVIEW_URL": url, "PAPERSCOPE_ARXIV_URL": url}
    finally:
        process.terminate()
        process.wait()


def papers(db: Path) -> list[dict]:
    return [json.loads(line) for line in run_cli("--db", db, "export").out.splitlines()]


def test_openreview_pages_through_429_500_and_a_cut_body(tmp_path):
    db, pages = tmp_path / "lib.db", tmp_path / "pages"
    with fake_apis("some") as env:
        run = run_cli(
            "--db",
            db,
            "fetch",
            "openreview",
            "--venue",
            "Fake.cc/2025/Conference",
            "--save",
            pages,
            "--no-embed",
            env=env,
        )
    assert run.code == 0, run.err
    assert "25 records in 3 pages (3 fetched now, 3 retries)" in run.err
    found = papers(db)
    assert len(found) == 25 and {p["status"] for p in found} == {"Fake 2025 Poster", "Fake 2025 Oral"}
    assert all(p["venue"] == "Fake" and p["year"] == 2025 for p in found)
    assert sorted(p.name for p in pages.iterdir()) == ["page-00000.json", "page-00001.json", "page-00002.json"]


def test_arxiv_waits_between_requests_and_retries(tmp_path):
    db = tmp_path / "lib.db"
    with fake_apis("some") as env:
        run = run_cli("--db", db, "fetch", "arxiv", "--query", "all:testing", "--max", "30", "--no-embed", env=env)
    assert run.code == 0, run.err
    assert "30 records in 2 pages" in run.err and "1 retries" in run.err
    assert (tmp_path / ".paperscope-fetch").is_dir()  # the default folder, beside the library
    found = papers(db)
    assert len(found) == 30 and all(p["venue"] == "arXiv" for p in found)


@pytest.mark.slow
def test_an_interrupted_fetch_resumes_where_it_stopped(tmp_path):
    db, pages = tmp_path / "lib.db", tmp_path / "pages"
    with fake_apis("page2") as env:
        failed = run_cli(
            "--db",
            db,
            "fetch",
            "openreview",
            "--venue",
            "Fake.cc/2025/Conference",
            "--save",
            pages,
            "--no-embed",
            env=env,
        )
    assert failed.code == 1 and failed.err.startswith("error: ") and "gave up after 5 attempts (HTTP 500)" in failed.err
    assert [p.name for p in pages.iterdir()] == ["page-00000.json"]  # the first page was kept
    assert papers(db) == []  # nothing ingested from a fetch that did not finish
    with fake_apis("none") as env:
        again = run_cli(
            "--db",
            db,
            "fetch",
            "openreview",
            "--venue",
            "Fake.cc/2025/Conference",
            "--save",
            pages,
            "--no-embed",
            env=env,
        )
    assert again.code == 0 and "(2 fetched now, 0 retries)" in again.err
    assert len(papers(db)) == 25


def test_bad_fetch_arguments_are_one_line_errors(tmp_path):
    bad = run_cli("--db", tmp_path / "lib.db", "fetch", "openreview", "--venue", "not a venue")
    assert bad.code == 1 and bad.err.startswith("error: not an OpenReview venue id")
    since = run_cli("--db", tmp_path / "lib.db", "fetch", "openreview", "--venue", "A.cc/2025/C", "--since", "May")
    assert since.code == 1 and "--since takes a date" in since.err
