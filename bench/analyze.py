"""Topics, the map and related papers: quality on the seeds, time at ~10k and ~92k papers.

    python bench/analyze.py

Quality: topic purity against bench/data/seed_topics.json (9 topics, by reading), with the
automatic number of topics and with 9. Time: clustering + labels + map, and related-paper
latency (p50 over 200 papers), on libraries of the corpus. Vectors: the newest ~10k papers are
embedded for real; the whole corpus (92.5k) gets those vectors repeated with a little noise
(embedding all of it takes ~12 minutes here). Targets at ~100k on 2 cores: map + topics ≤ 120 s,
related p50 ≤ 30 ms.
"""

from __future__ import annotations

import json
import random
import statistics
import tempfile
import time
from collections import Counter
from pathlib import Path

import numpy as np

from paperscope.index import semantic
from paperscope.library import Library

HERE = Path(__file__).resolve().parent
SHARED = HERE.parent.parent / "shared"


def purity(library: Library, labels: dict[str, str]) -> float:
    by_topic: dict[str, Counter] = {}
    for paper in library.papers():
        by_topic.setdefault(paper.topics[0], Counter())[labels[paper.id]] += 1
    return sum(c.most_common(1)[0][1] for c in by_topic.values()) / len(labels)


def timing(library: Library, label: str) -> None:
    started = time.perf_counter()
    found = library.analyze()
    took = time.perf_counter() - started
    ids = random.Random(1).sample(library.vectors().ids, 200)
    times = []
    for paper_id in ids:
        began = time.perf_counter()
        library.related(paper_id, 10)
        times.append(time.perf_counter() - began)
    print(f"  {label}: {library.count():,} papers → {len(found)} topics + map in {took:.1f} s;"
          f" related p50 {statistics.median(times) * 1000:.1f} ms, p95 {sorted(times)[189] * 1000:.1f} ms")


def fill_with_noise(library: Library, source: semantic.Vectors) -> None:
    rng = np.random.default_rng(0)
    while missing := library.store.missing_vectors(5_000):
        rows = source.matrix[rng.integers(0, len(source), len(missing))]
        rows = rows + rng.normal(0, 0.02, rows.shape).astype(np.float32)
        rows /= np.linalg.norm(rows, axis=1, keepdims=True)
        with library.store.transaction():
            library.store.put_vectors((pid, digest, semantic.to_blob(v)) for (pid, digest, _), v in zip(missing, rows))


def main() -> None:
    named = json.loads((HERE / "data" / "seed_topics.json").read_text(encoding="utf-8"))["topics"]
    labels = {pid: topic for topic, ids in named.items() for pid in ids}
    files = sorted((SHARED / "corpus" / "paperlists").iterdir())
    with tempfile.TemporaryDirectory() as tmp:
        with Library(Path(tmp) / "seeds.db") as library:
            library.ingest([SHARED / "seeds"])
            print(f"topic purity on the 51 seeds (9 topics by reading): automatic ({len(library.topics())} topics)"
                  f" {purity(library, labels):.3f}", end="")  # fmt: skip
            library.analyze(count=9)
            print(f", 9 topics {purity(library, labels):.3f}")
        print("time (2 cores):")
        with Library(Path(tmp) / "sample.db") as library:
            library.ingest(files[-60:])
            timing(library, "sample")
            sample = library.vectors()
        with Library(Path(tmp) / "all.db") as library:
            library.ingest(files, embed_vectors=False)
            fill_with_noise(library, sample)
            timing(library, "whole corpus")


if __name__ == "__main__":
    main()
