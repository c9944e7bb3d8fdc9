"""Related papers against judged neighbours, in a library of ~11.5k papers and among the seeds alone.

    python bench/related.py

bench/data/related_judged.json names, for each judged paper (by its source file:line), the papers a
reader judged most related to it. Each method ranks the whole library for the paper; reported:
recall@5 and nDCG@5 (binary relevance), on the tune and held-out parts apart. Beside paperscope's
related papers, in the same run: TF-IDF cosine (IDF over the whole library) and plain BM25 with the
abstract as the query (bm25s). Also the latency of paperscope's related papers (p50, p95).
In the library, the corpus papers (judged against the whole library) and the seed papers (judged
among the 51 seeds only: in the library, papers they were never compared with may rightly come
first) are reported apart. Targets: recall@5 ≥ 0.7 among the seeds, ≥ 0.6 in the library (held-out
part); p50 ≤ 30 ms at 92k.
"""

from __future__ import annotations

import json
import math
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import bm25s
import numpy as np
from eval_library import SEEDS, path
from sklearn.feature_extraction.text import TfidfVectorizer

from paperscope.index import semantic
from paperscope.library import Library

HERE = Path(__file__).resolve().parent
K = 5


def recall(found: list[str], wanted: set[str]) -> float:
    return len(set(found[:K]) & wanted) / len(wanted)


def ndcg(found: list[str], wanted: set[str]) -> float:
    gain = sum(1 / math.log2(rank + 2) for rank, pid in enumerate(found[:K]) if pid in wanted)
    return gain / sum(1 / math.log2(rank + 2) for rank in range(min(K, len(wanted))))


def paper_by_source(library: Library) -> dict[str, str]:
    """'file:line' of every source → the id of the paper read there."""
    return {f"{s.path}:{s.line}": p.id for p in library.papers() for s in p.sources}


def baselines(library: Library) -> dict[str, Callable[[str], list[str]]]:
    """TF-IDF cosine and BM25-of-the-abstract over every paper of the library."""
    papers = list(library.papers())
    ids = [p.id for p in papers]
    position = {pid: i for i, pid in enumerate(ids)}
    texts = [semantic.text_of(p) for p in papers]
    tfidf = TfidfVectorizer(sublinear_tf=True, stop_words="english").fit_transform(texts)
    retriever = bm25s.BM25()
    retriever.index(bm25s.tokenize(texts, stopwords="en", show_progress=False), show_progress=False)

    def by_tfidf(pid: str) -> list[str]:
        row = position[pid]
        scores = (tfidf @ tfidf[row].T).toarray().ravel()
        scores[row] = -1
        return [ids[i] for i in np.argsort(-scores)[:K]]

    def by_bm25(pid: str) -> list[str]:
        row = position[pid]
        query = bm25s.tokenize([papers[row].abstract], stopwords="en", show_progress=False)
        found, _ = retriever.retrieve(query, k=K + 1, show_progress=False)
        return [ids[i] for i in found[0] if i != row][:K]

    return {"TF-IDF cosine": by_tfidf, "BM25 of the abstract": by_bm25}


def evaluate(library: Library, judged: dict[str, dict], title: str) -> None:
    by_source = paper_by_source(library)
    cases = {}
    for source, entry in judged.items():
        wanted = {by_source[s] for s in entry["related"] if s in by_source}
        if source in by_source and wanted:
            cases[by_source[source]] = (entry["split"], wanted)
    methods: dict[str, Callable[[str], list[str]]] = {
        "paperscope related": lambda pid: [r.paper.id for r in library.related(pid, K)],
        **baselines(library),
    }
    print(f"\n{title}: {library.count():,} papers, {len(cases)} judged papers")
    print(f"  {'method':<22} {'split':<9} {'n':>3}  recall@5  nDCG@5")
    for name, method in methods.items():
        found = {pid: method(pid) for pid in cases}
        for split in ("tune", "held_out"):
            part = [pid for pid, (s, _) in cases.items() if s == split]
            if part:
                r = statistics.mean(recall(found[p], cases[p][1]) for p in part)
                n = statistics.mean(ndcg(found[p], cases[p][1]) for p in part)
                print(f"  {name:<22} {split:<9} {len(part):>3}  {r:8.3f}  {n:6.3f}")
    times = []
    for pid in cases:
        started = time.perf_counter()
        library.related(pid, 10)
        times.append((time.perf_counter() - started) * 1000)
    times.sort()
    print(
        f"  paperscope related latency p50 {statistics.median(times):.1f} ms, "
        f"p95 {times[int(0.95 * (len(times) - 1))]:.1f} ms"
    )


def main() -> None:
    judged = json.loads((HERE / "data" / "related_judged.json").read_text(encoding="utf-8"))["judged"]
    seeds_only = {s: e for s, e in judged.items() if s.endswith(".txt") or ".txt:" in s}
    with tempfile.TemporaryDirectory() as tmp, Library(Path(tmp) / "seeds.db") as library:
        library.ingest([SEEDS])
        evaluate(library, seeds_only, "The seeds alone")
    corpus_part = {s: e for s, e in judged.items() if s not in seeds_only}
    with Library(path()) as library:
        evaluate(library, corpus_part, "The evaluation library; corpus papers judged against the whole library")
        evaluate(library, seeds_only, "The evaluation library; seed papers (judged among the 51 seeds only)")


if __name__ == "__main__":
    main()
