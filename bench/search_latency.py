"""Warm query latency of lexical search at ~10k and ~92k papers, side by side with naive references.

    pip install -e '.[bench]' && python bench/search_latency.py

Libraries are ingested from ../shared/corpus (a 10k sample, then the whole corpus: 92.5k papers;
it is not replicated to 100k here). The queries are 200 titles drawn from the indexed papers.
Compared in one run: paperscope's search (every word first, then any word, by BM25), the plain
FTS5 OR query of all the words, and rank_bm25 (a pure-Python BM25 over the same abstracts).
"""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from pathlib import Path

from rank_bm25 import BM25Okapi

from paperscope.index import lexical
from paperscope.library import Library

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus" / "paperlists"
QUERIES = 200


def percentiles(times: list[float]) -> str:
    ordered = sorted(times)
    p50 = statistics.median(ordered) * 1000
    p95 = ordered[int(len(ordered) * 0.95) - 1] * 1000
    return f"p50 {p50:7.2f} ms  p95 {p95:7.2f} ms"


def timed(run, queries: list[str]) -> list[float]:
    for query in queries[:10]:  # warm the page cache
        run(query)
    times = []
    for query in queries:
        started = time.perf_counter()
        run(query)
        times.append(time.perf_counter() - started)
    return times


def measure(library: Library, label: str, naive: bool) -> None:
    papers = [p for p in library.papers() if p.title]
    rng = random.Random(7)
    queries = [p.title for p in rng.sample(papers, QUERIES)]
    db = library.store.db  # type: ignore[attr-defined]

    def plain_or(text: str) -> None:
        words = lexical.parse(text).must
        db.execute("SELECT paper_id FROM papers_fts WHERE papers_fts MATCH ? ORDER BY rank LIMIT 10",
                   (" OR ".join(words),)).fetchall()  # fmt: skip

    print(f"{label}: {library.count():,} papers, {QUERIES} title queries, top 10")
    ours = timed(lambda q: library.search(q, limit=10), queries)
    print(f"  paperscope lexical      {percentiles(ours)}")
    print(f"  FTS5 plain OR query     {percentiles(timed(plain_or, queries))}")
    if naive:
        tokenized = [lexical._WORD.findall(p.abstract.lower()) for p in library.papers()]
        bm25 = BM25Okapi(tokenized)
        reference = timed(lambda q: bm25.get_top_n(lexical._WORD.findall(q.lower()), tokenized, n=10), queries[:50])
        print(f"  rank_bm25 (reference)   {percentiles(reference)}  → paperscope is "
              f"{statistics.median(reference) / statistics.median(ours):,.0f}× faster at p50")  # fmt: skip


def main() -> None:
    files = sorted(CORPUS.iterdir())
    with tempfile.TemporaryDirectory() as tmp:
        with Library(Path(tmp) / "small.db") as library:
            library.ingest(files[-60:])  # the newest lists, about 10k papers
            measure(library, "sample", naive=True)
        with Library(Path(tmp) / "all.db") as library:
            library.ingest(files)
            measure(library, "whole corpus", naive=True)


if __name__ == "__main__":
    main()
