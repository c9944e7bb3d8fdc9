"""The float scan against the 8-bit full scan and inverted file (paperscope.index.ann), 11k to 1M vectors.

    python bench/ann.py                      # sizes 11.5k (real), 100k, 200k, 500k, 1M
    python bench/ann.py --sizes 100000,200000

The vectors are the evaluation library's (bench/eval_library.py, embedded for real), then copies
of them moved by noise (each copy's cosine to its original about 0.86) until the size is reached:
a library's vectors without a library around them. The queries are the search set's queries and
paper titles from the library, embedded by the real encoder; only the search is timed. At each
size: the exact scan's and the index's p50/p95 for the top 10 (the index at several numbers of
lists read), the index's recall@10 against the exact answer, its build time, its file's size, the
time to save it and to memory-map it again, and the process's RSS.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import tempfile
import time
from pathlib import Path

import eval_library  # type: ignore[import-not-found]
import numpy as np
import psutil

from paperscope.index import ann, semantic
from paperscope.library import Library

HERE = Path(__file__).resolve().parent
K = 10
TITLES = 153  # beside the search set's queries: 200 in all
NOISE = 0.6  # the norm of the noise added to a unit vector: cosine to the original ~ 1 / sqrt(1 + 0.36)
CHUNK = 50_000
PROBES = (32, 64, 128, 256)  # lists read per query, tried (ann.PROBES is the one used)


def load() -> tuple[list[str], np.ndarray, np.ndarray]:
    """The real vectors, their ids, and the queries' vectors."""
    with Library(eval_library.path()) as library:
        vectors = library.vectors()
        titles = [p.display_title for p in library.papers()]
    spec = json.loads((HERE / "data" / "search_queries.json").read_text(encoding="utf-8"))
    texts = [q["query"] for q in spec["queries"]] + random.Random(7).sample(titles, TITLES)
    return vectors.ids, vectors.matrix, semantic.encoder().encode(texts)


def grow(real: np.ndarray, size: int) -> np.ndarray:
    """`size` unit rows: the real ones, then noisy copies of them, in chunks."""
    rng = np.random.default_rng(7)
    matrix = np.empty((size, real.shape[1]), dtype=np.float32)
    matrix[: len(real)] = real
    for start in range(len(real), size, CHUNK):
        end = min(start + CHUNK, size)
        rows = real[rng.integers(0, len(real), end - start)]
        rows = rows + rng.standard_normal(rows.shape, dtype=np.float32) * (NOISE / np.sqrt(real.shape[1]))
        matrix[start:end] = rows / np.linalg.norm(rows, axis=1, keepdims=True)
    return matrix


def timed(search, queries: np.ndarray) -> tuple[list[list[str]], list[float]]:
    answers, times = [], []
    for query in queries:
        started = time.perf_counter()
        answers.append([pid for pid, _ in search(query)])
        times.append((time.perf_counter() - started) * 1000)
    return answers, times


def percentile(times: list[float], q: int) -> float:
    return statistics.quantiles(times, n=100)[q - 1]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="0,100000,200000,500000,1000000", help="0: the real vectors alone")
    args = parser.parse_args()
    print("uptime:", os.popen("uptime").read().strip())
    real_ids, real, queries = load()
    sizes = sorted({max(int(s), len(real)) for s in args.sizes.split(",")})
    matrix = grow(real, sizes[-1])
    ids = real_ids + [f"copy{i}" for i in range(len(real), sizes[-1])]
    print(f"{len(real):,} real vectors, {len(queries)} queries, k={K}; faiss, 8-bit: the full scan, and an IVF of")
    print(f"{ann.LISTS_PER_ROOT}·√n lists; {ann.OVERSAMPLE}x candidates scored exactly against the float matrix")
    print("| vectors | exact p50 | exact p95 | index | ann p50 | ann p95 | recall@10 |")
    print("|---|---|---|---|---|---|---|")
    for size in sizes:
        exact = semantic.Vectors(ids[:size], matrix[:size])
        truth, exact_ms = timed(lambda q, v=exact: v.nearest(q, K), queries)
        for inverted in (False, True):
            started = time.perf_counter()
            index = ann.AnnIndex.build(matrix[:size], inverted)
            built = time.perf_counter() - started
            approximate = semantic.Vectors(ids[:size], matrix[:size], approximate=index)
            for probes in PROBES if inverted else (None,):
                index.probes = probes or ann.PROBES
                found, ann_ms = timed(lambda q, v=approximate: v.nearest(q, K), queries)
                recall = statistics.fmean(len(set(a) & set(t)) / len(t) for a, t in zip(found, truth, strict=True))
                print(
                    f"| {size:,} | {statistics.median(exact_ms):.1f} ms | {percentile(exact_ms, 95):.1f} ms"
                    f" | {f'IVF, {probes} lists read' if inverted else 'full 8-bit scan'}"
                    f" | {statistics.median(ann_ms):.2f} ms | {percentile(ann_ms, 95):.2f} ms | {recall:.3f} |",
                    flush=True,
                )
            with tempfile.TemporaryDirectory() as folder:
                path = Path(folder) / "index.faiss"
                started = time.perf_counter()
                index.save(path)
                saved = time.perf_counter() - started
                started = time.perf_counter()
                ann.AnnIndex.view(path)
                kind = f"IVF of {index.index.nlist} lists" if inverted else "full scan"
                print(
                    f"  {size:,}, {kind}: built in {built:.1f} s ({size / built:,.0f} vectors/s);"
                    f" file {path.stat().st_size / 1e6:,.0f} MB saved in {saved:.1f} s, memory-mapped in"
                    f" {time.perf_counter() - started:.2f} s; matrix {matrix[:size].nbytes / 1e6:,.0f} MB;"
                    f" RSS {psutil.Process().memory_info().rss / 1e6:,.0f} MB; {os.popen('uptime').read().strip()}",
                    flush=True,
                )


if __name__ == "__main__":
    main()
