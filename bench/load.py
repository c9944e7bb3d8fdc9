"""Many clients at once against a real `paperscope serve` over the whole corpus (92.5k papers).

    pip install -e '.[bench,test]' && python bench/load.py [--clients 200] [--seconds 30] [--db LIBRARY]

Each client loops: a search (60%), a paper page (30%), a one-paper BibTeX export (10%), with
httpx async on one connection pool. Reported: requests/s, p50/p95/p99 latency, errors (any status
but 200, any transport error). Targets at 100k papers: 0 errors, p99 ≤ 500 ms. Without --db the
library is built as in bench/web.py (the corpus, the seed vectors repeated over its papers).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
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


async def run(url: str, titles: list[str], ids: list[str], clients: int, seconds: float) -> None:
    times: list[float] = []
    errors: list[str] = []
    deadline = time.perf_counter() + seconds
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)

    async def client(http: httpx.AsyncClient, rng: random.Random) -> None:
        while time.perf_counter() < deadline:
            pick = rng.random()
            if pick < 0.6:
                request = http.get(url + "/api/search", params={"q": rng.choice(titles)[:80], "limit": 10})
            elif pick < 0.9:
                request = http.get(f"{url}/papers/{rng.choice(ids)}")
            else:
                request = http.get(url + "/api/export", params={"format": "bibtex", "ids": rng.choice(ids)})
            started = time.perf_counter()
            try:
                response = await request
                if response.status_code != 200:
                    errors.append(str(response.status_code))
            except httpx.HTTPError as error:
                errors.append(error.__class__.__name__)
            times.append(time.perf_counter() - started)

    began = time.perf_counter()
    async with httpx.AsyncClient(timeout=60, limits=limits) as http:
        await asyncio.gather(*(client(http, random.Random(i)) for i in range(clients)))
    elapsed = time.perf_counter() - began
    ordered = sorted(times)

    def at(q: float) -> float:
        return ordered[min(len(ordered) - 1, int(len(ordered) * q))] * 1000

    print(
        f"{clients} clients for {seconds:.0f} s: {len(times):,} requests, {len(times) / elapsed:,.1f} requests/s; "
        f"p50 {statistics.median(ordered) * 1000:.0f} ms, p95 {at(0.95):.0f} ms, p99 {at(0.99):.0f} ms; "
        f"{len(errors)} errors {sorted(set(errors))[:5]}"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=30)
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
        process, url = serve(db)
        try:
            print(f"library: {count:,} papers")
            asyncio.run(run(url, titles, ids, args.clients, args.seconds))
        finally:
            process.terminate()
            process.wait()


if __name__ == "__main__":
    main()
