"""The float scan against the product's 4-bit fast scan (paperscope.index.ann), and the 8-bit full
scan and inverted file it replaced, 11k to 1M vectors.

    python bench/ann.py                      # sizes 11.5k (real), 100k, 200k, 500k, 1M
    python bench/ann.py --sizes 100000,200000

The vectors are the evaluation library's (bench/eval_library.py, embedded for real), then copies
of them moved by noise (each copy's cosine to its original about 0.86) until the size is reached:
a library's vectors without a library around them. The queries are the search set's queries and
paper titles from the library, embedded by the real encoder; only the search is timed. At each
size: the exact scan's and each index's p50/p95 for the top 10 and the top 100 (hybrid search's
semantic depth), their recall against the exact answer, and for the product's index its build
time, its file's size, the time to save it and to memory-map it again, and the process's RSS.
Every index's candidates are scored exactly against the float matrix, as the product does.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import tempfile
import time
from pathlib import Path

import eval_library  # type: ignore[import-not-found]
import faiss
import numpy as np
import psutil

from paperscope.index import ann, semantic
from paperscope.library import Library

HERE = Path(__file__).resolve().parent
DEPTHS = (10, 100)
TITLES = 153  # beside the search set's queries: 200 in all
NOISE = 0.6  # the norm of the noise added to a unit vector: cosine to the original ~ 1 / sqrt(1 + 0.36)
CHUNK = 50_000
OLD_OVERSAMPLE = 4  # the replaced indexes' candidates per result wanted
OLD_PROBES = 128  # lists the replaced inverted file read


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


class Replaced:
    """The 8-bit index the fast scan replaced: a full scan below 200k vectors, an inverted file of
    4·√n lists above, OLD_OVERSAMPLE candidates a result."""

    def __init__(self, matrix: np.ndarray, inverted: bool) -> None:
        dimensions = matrix.shape[1]
        if inverted:
            lists = int(4 * math.sqrt(len(matrix)))
            self.index = faiss.index_factory(dimensions, f"IVF{lists},SQ8", faiss.METRIC_INNER_PRODUCT)
            sample = np.random.default_rng(0).choice(len(matrix), min(len(matrix), 40 * lists), False)
            self.index.train(matrix[np.sort(sample)])
            self.index.nprobe = OLD_PROBES
        else:
            self.index = faiss.index_factory(dimensions, "SQ8", faiss.METRIC_INNER_PRODUCT)
            self.index.train(matrix)
        self.index.add(matrix)

    def __len__(self) -> int:
        return int(self.index.ntotal)

    def candidates(self, query: np.ndarray, wanted: int) -> np.ndarray:
        _, positions = self.index.search(query.reshape(1, -1), wanted * OLD_OVERSAMPLE)
        return positions[0][positions[0] >= 0]


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
    print(f"{len(real):,} real vectors, {len(queries)} queries; the fast scan: {ann.SUBSPACES} subspaces of 4 bits,")
    print(
        f"max({ann.OVERSAMPLE}·k, {ann.LEAST_CANDIDATES}) candidates scored exactly;"
        f" the replaced index: 8-bit, {OLD_OVERSAMPLE}·k"
    )
    print("| vectors | k | exact p50 | exact p95 | index | index p50 | index p95 | recall@k |")
    print("|---|---|---|---|---|---|---|---|")
    for size in sizes:
        started = time.perf_counter()
        index = ann.AnnIndex.build(matrix[:size])
        built = time.perf_counter() - started
        replaced = Replaced(matrix[:size], inverted=size >= 200_000)
        for k in DEPTHS:
            exact = semantic.Vectors(ids[:size], matrix[:size])
            truth, exact_ms = timed(lambda q, v=exact, k=k: v.nearest(q, k), queries)
            for name, approximate in (
                ("4-bit fast scan", index),
                (f"replaced: 8-bit {'inverted file' if size >= 200_000 else 'full scan'}", replaced),
            ):
                searched = semantic.Vectors(ids[:size], matrix[:size], approximate=approximate)
                found, ann_ms = timed(lambda q, v=searched, k=k: v.nearest(q, k), queries)
                recall = statistics.fmean(len(set(a) & set(t)) / len(t) for a, t in zip(found, truth, strict=True))
                print(
                    f"| {size:,} | {k} | {statistics.median(exact_ms):.1f} ms | {percentile(exact_ms, 95):.1f} ms"
                    f" | {name} | {statistics.median(ann_ms):.2f} ms | {percentile(ann_ms, 95):.2f} ms"
                    f" | {recall:.3f} |",
                    flush=True,
                )
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "index.faiss"
            started = time.perf_counter()
            index.save(path)
            saved = time.perf_counter() - started
            started = time.perf_counter()
            ann.AnnIndex.view(path)
            print(
                f"  {size:,}, fast scan: built in {built:.1f} s ({size / built:,.0f} vectors/s);"
                f" file {path.stat().st_size / 1e6:,.0f} MB saved in {saved:.1f} s, memory-mapped in"
                f" {time.perf_counter() - started:.2f} s; matrix {matrix[:size].nbytes / 1e6:,.0f} MB;"
                f" RSS {psutil.Process().memory_info().rss / 1e6:,.0f} MB; {os.popen('uptime').read().strip()}",
                flush=True,
            )


if __name__ == "__main__":
    main()
