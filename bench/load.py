"""Many clients at once against a real `paperscope serve` over the whole corpus (92.5k papers),
with one server process and with several (`--workers`), side by side in one run.

    pip install -e '.[bench,test]' && python bench/load.py [--workers 1 2] [--seconds 20] [--db LIBRARY]

For each worker count:
- searches/s of 1 and of 8 clients that each search again as soon as answered, and their ratio
  (target at 92k: 8 clients ≥ 1.6× one);
- saturation: `--clients` (64) clients looping over a mix (a search 60%, a paper page 30%, a
  one-paper BibTeX export 10%): requests/s and p50/p99;
- a fixed offered load: the same mix arriving at `--rate` (50) requests/s, Poisson arrivals, each
  sent when due whatever is still unanswered; its latency counts from when it was due, so a
  server that falls behind shows it (target p99 ≤ 300 ms, 0 errors).
An error is any status but 200 or any transport error. The load comes from this process, on the
same machine as the server: at saturation it takes a share of the cores too. Without --db the
library is built as in bench/web.py (the corpus, the seed vectors repeated over its papers).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import subprocess
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from web import SHARED, serve  # type: ignore[import-not-found]

from paperscope.library import Library


def build(path: Path) -> None:
    from search_latency import fill_vectors  # type: ignore[import-not-found]

    with Library(path) as library:
        library.ingest([SHARED / "seeds"])
        vectors = library.vectors()
        library.ingest([SHARED / "corpus" / "paperlists"], embed_vectors=False)
        fill_vectors(library, vectors)


@dataclass
class Requests:
    """What the clients asked: a search or the mix of pages, of a library's titles and ids."""

    url: str
    titles: list[str]
    ids: list[str]

    def search(self, http: httpx.AsyncClient, rng: random.Random) -> Awaitable[httpx.Response]:
        return http.get(self.url + "/api/search", params={"q": rng.choice(self.titles)[:80], "limit": 10})

    def mixed(self, http: httpx.AsyncClient, rng: random.Random) -> Awaitable[httpx.Response]:
        pick = rng.random()
        if pick < 0.6:
            return self.search(http, rng)
        if pick < 0.9:
            return http.get(f"{self.url}/papers/{rng.choice(self.ids)}")
        return http.get(self.url + "/api/export", params={"format": "bibtex", "ids": rng.choice(self.ids)})


@dataclass
class Outcome:
    seconds: float = 0.0
    times: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    @property
    def rate(self) -> float:
        return len(self.times) / self.seconds

    def at(self, q: float) -> float:
        ordered = sorted(self.times)
        return ordered[min(len(ordered) - 1, int(len(ordered) * q))] * 1000

    def line(self) -> str:
        return (
            f"{len(self.times):6,} requests {self.rate:6.1f}/s  p50 {statistics.median(self.times) * 1000:6.0f} ms"
            f"  p99 {self.at(0.99):6.0f} ms  {len(self.errors)} errors {sorted(set(self.errors))[:3]}"
        )


async def _timed(request: Awaitable[httpx.Response], since: float, outcome: Outcome) -> None:
    try:
        response = await request
        if response.status_code != 200:
            outcome.errors.append(str(response.status_code))
    except httpx.HTTPError as error:
        outcome.errors.append(error.__class__.__name__)
    outcome.times.append(time.perf_counter() - since)


Make = Callable[[httpx.AsyncClient, random.Random], Awaitable[httpx.Response]]


async def closed(make: Make, clients: int, seconds: float) -> Outcome:
    """`clients` clients, each asking again as soon as it is answered."""
    outcome = Outcome()
    deadline = time.perf_counter() + seconds

    async def client(http: httpx.AsyncClient, rng: random.Random) -> None:
        while time.perf_counter() < deadline:
            await _timed(make(http, rng), time.perf_counter(), outcome)

    began = time.perf_counter()
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    async with httpx.AsyncClient(timeout=60, limits=limits) as http:
        await asyncio.gather(*(client(http, random.Random(i)) for i in range(clients)))
    outcome.seconds = time.perf_counter() - began
    return outcome


async def offered(make: Make, rate: float, seconds: float) -> Outcome:
    """Requests due at Poisson arrivals of `rate` per second, each sent when due."""
    outcome = Outcome()
    rng = random.Random(7)
    pending = []
    limits = httpx.Limits(max_connections=500, max_keepalive_connections=100)
    async with httpx.AsyncClient(timeout=60, limits=limits) as http:
        began = due = time.perf_counter()
        while due < began + seconds:
            due += rng.expovariate(rate)
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
            pending.append(asyncio.create_task(_timed(make(http, rng), due, outcome)))
        await asyncio.gather(*pending)
    outcome.seconds = time.perf_counter() - began
    return outcome


async def measure(requests: Requests, args: argparse.Namespace) -> list[str]:
    await closed(requests.mixed, 4, 3)  # warm: pages, caches, connections
    one = await closed(requests.search, 1, args.seconds)
    eight = await closed(requests.search, 8, args.seconds)
    saturated = await closed(requests.mixed, args.clients, args.seconds)
    steady = await offered(requests.mixed, args.rate, args.seconds)
    return [
        f"  searches, 1 client:    {one.line()}",
        f"  searches, 8 clients:   {eight.line()}",
        f"  8 clients / 1 client:  {eight.rate / one.rate:.2f}x searches/s (target >= 1.6)",
        f"  saturation, {args.clients} clients: {saturated.line()}",
        f"  offered {args.rate:.0f}/s Poisson: {steady.line()} (target p99 <= 300 ms, 0 errors)",
    ]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--clients", type=int, default=64, help="clients at saturation")
    parser.add_argument("--rate", type=float, default=50, help="offered requests/s")
    parser.add_argument("--seconds", type=float, default=20, help="per measurement")
    parser.add_argument("--db", type=Path)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or Path(tmp) / "corpus.db"
        if not args.db:
            build(db)
        with Library(db) as library:
            papers = list(library.papers(limit=20_000))
            count = library.count()
        rng = random.Random(5)
        titles = [p.display_title for p in rng.sample(papers, 500)]
        ids = [p.id for p in rng.sample(papers, 500)]
        print(f"library: {count:,} papers; {os.cpu_count()} cores; {_uptime()}")
        for workers in args.workers:
            process, url = serve(db, "--workers", str(workers))
            try:
                lines = asyncio.run(measure(Requests(url, titles, ids), args))
            finally:
                process.terminate()
                process.wait()
            print(f"serve --workers {workers}  ({_uptime()})", *lines, sep="\n", flush=True)


def _uptime() -> str:
    """The machine's load beside the figures (it may be shared)."""
    return subprocess.run(["uptime"], capture_output=True, text=True, check=False).stdout.strip()


if __name__ == "__main__":
    main()
