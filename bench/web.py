"""Web and API latency of a real `paperscope serve` process, at 51 papers and at the whole corpus.

    pip install -e '.[bench,test]' && python bench/web.py

Time to first byte (httpx, 50 requests) and full load in headless Chromium (navigation start to
the load event, 20 loads) of the search page with a query and of a paper page; then API search
p50/p95 with 1, 8 and 32 concurrent clients (httpx async, 100 requests per client level). The
whole-corpus library (92.5k papers) gets the seed papers' real vectors repeated over its papers
(embedding all of them takes ~12 minutes here; an exact vector search costs the same whatever the
vectors hold). Targets at ~100k on 2 cores: page TTFB p50 ≤ 50 ms, API search p95 ≤ 100 ms at 8 clients.
"""

from __future__ import annotations

import asyncio
import random
import runpy
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from playwright.sync_api import sync_playwright
from search_latency import fill_vectors  # type: ignore[import-not-found]

from paperscope.library import Library

HERE = Path(__file__).resolve().parent
SHARED = HERE.parent.parent / "shared"
# Chromium as the browser tests launch it; this script runs outside the tests package, so it reads the file.
CHROMIUM = runpy.run_path(str(HERE.parent / "tests" / "web" / "chromium.py"))


def ms(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[max(0, int(len(ordered) * 0.95) - 1)]
    return f"p50 {statistics.median(ordered) * 1000:7.1f} ms  p95 {p95 * 1000:7.1f} ms"


def serve(db: Path, *options: str) -> tuple[subprocess.Popen, str]:
    """`paperscope serve` with `options` (e.g. --workers 2) on a free port, once it answers."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    process = subprocess.Popen(
        [sys.executable, "-m", "paperscope", "--db", str(db), "serve", "--port", str(port), *options],
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    for _ in range(600):
        try:
            httpx.get(url + "/api/stats", timeout=5)
            return process, url
        except httpx.TransportError:
            time.sleep(0.2)
    raise SystemExit("the server did not start")


def ttfb(http: httpx.Client, url: str) -> float:
    """Seconds to the response's first byte, on a kept-alive connection as a browser has (a new
    httpx client per request spent ~20 ms making itself)."""
    started = time.perf_counter()
    with http.stream("GET", url) as response:
        elapsed = time.perf_counter() - started
        response.read()
    return elapsed


async def clients(url: str, titles: list[str], n: int, total: int = 100) -> list[float]:
    times: list[float] = []
    queue = iter(range(total))

    async def client(http: httpx.AsyncClient) -> None:
        for i in queue:
            started = time.perf_counter()
            response = await http.get(url + "/api/search", params={"q": titles[i % len(titles)], "limit": 10})
            response.raise_for_status()
            times.append(time.perf_counter() - started)

    async with httpx.AsyncClient(timeout=60) as http:
        await asyncio.gather(*(client(http) for _ in range(n)))
    return times


def measure(db: Path, label: str) -> None:
    with Library(db) as library:
        papers = list(library.papers(limit=5000))
    rng = random.Random(3)
    titles = [p.display_title for p in rng.sample(papers, min(100, len(papers)))]
    process, url = serve(db)
    try:
        print(f"\n{label}")
        search_urls = [f"{url}/?q={t[:60]}" for t in titles]
        paper_urls = [f"{url}/papers/{p.id}" for p in rng.sample(papers, min(50, len(papers)))]
        with httpx.Client(timeout=60) as http:
            for name, urls in (("search page", search_urls), ("paper page", paper_urls)):
                ttfb(http, urls[0])
                print(f"  {name:<12} TTFB       {ms([ttfb(http, urls[i % len(urls)]) for i in range(50)])}")
        with sync_playwright() as playwright:
            browser = CHROMIUM["launch"](playwright)
            page = browser.new_page()
            for name, urls in (("search page", search_urls), ("paper page", paper_urls)):
                loads = []
                for i in range(20):
                    page.goto(urls[i % len(urls)], wait_until="load")
                    loads.append(page.evaluate("performance.getEntriesByType('navigation')[0].loadEventEnd") / 1000)
                print(f"  {name:<12} full load  {ms(loads)}")
            browser.close()
        for n in (1, 8, 32):
            print(f"  API search, {n:>2} clients  {ms(asyncio.run(clients(url, titles, n)))}")
    finally:
        process.terminate()
        process.wait()


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        seeds, corpus = Path(tmp) / "seeds.db", Path(tmp) / "corpus.db"
        with Library(seeds) as library:
            library.ingest([SHARED / "seeds"])
            vectors = library.vectors()
        measure(seeds, "seeds: 51 papers")
        with Library(corpus) as library:
            library.ingest([SHARED / "corpus" / "paperlists"], embed_vectors=False)
            fill_vectors(library, vectors)
        measure(corpus, "whole corpus: 92.5k papers")


if __name__ == "__main__":
    main()
