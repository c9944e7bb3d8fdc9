"""Warm query latency per search mode at ~10k and ~92k papers, side by side with naive references.

    pip install -e '.[bench]' && python bench/search_latency.py [--library FILE]

`--library FILE` measures that library alone (e.g. the 92k one bench/load.py builds) instead of
building the two.

Libraries are ingested from ../shared/corpus: a 10k sample (the newest lists, embedded for real),
then the whole corpus (92.5k papers; not replicated to 100k). Embedding all 92.5k abstracts takes
~12 minutes here, so the whole-corpus library gets the sample's real vectors repeated over its
papers: an exact vector search costs the same whatever the vectors hold. The queries are 200
titles drawn from the indexed papers; times include embedding the query.

Compared in one run: paperscope's three modes; for lexical, the plain FTS5 OR query of all the
words and rank_bm25 (pure-Python BM25 over the same abstracts); for semantic, a Python loop of
dot products over the same vectors. Serving memory is the RSS of a fresh process that opens the
library and answers 50 hybrid queries.
"""

from __future__ import annotations

import itertools
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from rank_bm25 import BM25Okapi

from paperscope.index import lexical, semantic
from paperscope.library import MODES, Library

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus" / "paperlists"
KNOWN_ITEMS = Path(__file__).resolve().parent / "data" / "known_items.json"
QUERIES = 200
SERVE_PROBE = """
import sys, psutil
from paperscope.library import Library
library = Library(sys.argv[1])
titles = sys.argv[2:]
for title in titles:
    library.search(title, limit=10)
print(psutil.Process().memory_info().rss)
"""


def percentiles(times: list[float]) -> str:
    ordered = sorted(times)
    p50 = statistics.median(ordered) * 1000
    p95 = ordered[int(len(ordered) * 0.95) - 1] * 1000
    return f"p50 {p50:7.2f} ms  p95 {p95:7.2f} ms"


def timed(run, queries: list[str]) -> list[float]:
    for query in queries[:10]:  # warm the page cache and the loaded vectors
        run(query)
    times = []
    for query in queries:
        started = time.perf_counter()
        run(query)
        times.append(time.perf_counter() - started)
    return times


def serving_rss(db: Path, queries: list[str]) -> float:
    done = subprocess.run(
        [sys.executable, "-c", SERVE_PROBE, str(db), *queries[:50]], capture_output=True, text=True, check=True
    )
    return int(done.stdout.strip()) / 1e6


def measure(library: Library, db: Path, label: str) -> None:
    papers = [p for p in library.papers() if p.title]
    rng = random.Random(7)
    queries = [p.title for p in rng.sample(papers, QUERIES)]
    store_db = library.store.db  # type: ignore[attr-defined]

    def plain_or(text: str) -> None:
        words = lexical.parse(text).must
        store_db.execute(
            "SELECT paper_id FROM papers_fts WHERE papers_fts MATCH ? ORDER BY rank LIMIT 10", (" OR ".join(words),)
        ).fetchall()

    print(f"\n{label}: {library.count():,} papers, {len(library.vectors()):,} vectors, {QUERIES} title queries, top 10")
    medians = {}
    for mode in MODES:
        times = timed(lambda q, mode=mode: library.search(q, limit=10, mode=mode), queries)
        medians[mode] = statistics.median(times)
        print(f"  paperscope {mode:<9}    {percentiles(times)}")
    descriptions = json.loads(KNOWN_ITEMS.read_text(encoding="utf-8"))["queries"]
    for language in ("en", "zh"):
        asked = [d[language] for d in descriptions]
        times = timed(lambda q: library.search(q, limit=10, mode="hybrid"), asked)
        print(f"  paperscope hybrid, {len(asked)} {language} descriptions {percentiles(times)}")
    print(f"  FTS5 plain OR query     {percentiles(timed(plain_or, queries))}")
    tokenized = [lexical._WORD.findall(p.abstract.lower()) for p in library.papers()]
    bm25 = BM25Okapi(tokenized)
    reference = timed(lambda q: bm25.get_top_n(lexical._WORD.findall(q.lower()), tokenized, n=10), queries[:30])
    print(
        f"  rank_bm25 (reference)   {percentiles(reference)}  → lexical is "
        f"{statistics.median(reference) / medians['lexical']:,.0f}× faster at p50"
    )
    rows = list(library.vectors().matrix)

    def python_loop(text: str) -> None:
        query = semantic.encoder().encode([text])[0]
        scores = [float(np.dot(row, query)) for row in rows]
        sorted(range(len(scores)), key=scores.__getitem__, reverse=True)[:10]

    loop = timed(python_loop, queries[:30])
    print(
        f"  Python loop of dots     {percentiles(loop)}  → semantic is "
        f"{statistics.median(loop) / medians['semantic']:,.0f}× faster at p50"
    )
    print(f"  serving memory: {serving_rss(db, queries):,.0f} MB RSS (a fresh process, 50 hybrid queries)")


def fill_vectors(library: Library, vectors: semantic.Vectors) -> None:
    """Give every paper without a vector one of `vectors`' (real) rows, in turn."""
    rows = itertools.cycle(vectors.matrix)
    while missing := library.store.missing_vectors(5_000):
        with library.store.transaction():
            library.store.put_vectors((pid, digest, semantic.to_blob(next(rows))) for pid, digest, _ in missing)


def main() -> None:
    if "--library" in sys.argv:
        db = Path(sys.argv[sys.argv.index("--library") + 1])
        with Library(db) as library:
            measure(library, db, db.name)
        return
    files = sorted(CORPUS.iterdir())
    with tempfile.TemporaryDirectory() as tmp:
        small, full = Path(tmp) / "small.db", Path(tmp) / "all.db"
        with Library(small) as library:
            report = library.ingest(files[-60:])  # the newest lists, about 10k papers
            print(
                f"sample: {report.vectors_computed:,} abstracts embedded in {report.seconds['embed']:.0f} s "
                f"= {report.vectors_computed / report.seconds['embed']:.0f} abstracts/s (2 cores)"
            )
            measure(library, small, "sample")
            sample_vectors = library.vectors()
        with Library(full) as library:
            library.ingest(files, embed_vectors=False)
            fill_vectors(library, sample_vectors)
            measure(library, full, "whole corpus")


if __name__ == "__main__":
    main()
