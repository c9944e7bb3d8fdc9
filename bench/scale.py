"""One million papers: the corpus replicated with perturbed text and ids, on SQLite and PostgreSQL.

    pip install -e '.[test,bench]' && python bench/scale.py [--copies 11] [--sample 4000]
        [--backends sqlite,postgres] [--keep FOLDER]

1. Input: `--copies` copies of ../shared/corpus (copy 0 unchanged; in every other copy each
   record's id and links get a copy suffix, one title word and 20% of the abstract's words are
   replaced by words drawn from the corpus's own titles), written as paper-list files, one folder per
   copy. 11 copies are 1,021,614 records; the perturbation keeps dedupe from merging the copies.
2. Ingest into each backend through the CLI (`--no-embed`), as a user runs it: records/s, peak RSS
   of the ingest's whole process tree (the CLI and its workers, sampled), database size.
3. Vectors: `--sample` abstracts are embedded for real; every paper gets a sample vector plus
   Gaussian noise (σ 0.02 per dimension, renormalised), written in chunks. The embedding rate of the
   sample says what embedding every paper for real would cost.
4. Search, warm, top 10: 200 titles of indexed papers as queries, lexical / semantic / hybrid
   p50 and p95; on SQLite the semantic side uses the 8-bit index (index/ann.py: an inverted file from 200k
   vectors; its build time is printed) and its recall@10 against the exact scan.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import psutil
from postgres import CORPUS, QUERIES, latency, start_server

from paperscope.index import semantic
from paperscope.library import Library
from paperscope.store import open_store

URL_FIELDS = ("site", "pdf", "github", "project", "arxiv", "doi", "oa", "openreview")
REPLACED = 0.2
VECTOR_CHUNK = 5_000


def vocabulary(lists: list[Path]) -> list[str]:
    words: set[str] = set()
    for path in lists:
        for item in json.loads(gzip.decompress(path.read_bytes())):
            words.update(word for word in str(item.get("title") or "").split() if word.isalpha())
    return sorted(words)


def perturbed(item: dict, copy: int, rng: random.Random, words: list[str]) -> dict:
    item = dict(item)
    item.pop("bibtex", None)
    suffix = f"-c{copy}"
    for field in ("id", *URL_FIELDS):
        if isinstance(item.get(field), str) and item[field]:
            item[field] += suffix
    title = str(item.get("title") or "").split()
    if title:
        title[rng.randrange(len(title))] = rng.choice(words)
        item["title"] = " ".join(title)
    abstract = str(item.get("abstract") or "").split()
    for position in rng.sample(range(len(abstract)), int(len(abstract) * REPLACED)):
        abstract[position] = rng.choice(words)
    item["abstract"] = " ".join(abstract)
    return item


def replicate(lists: list[Path], copies: int, folder: Path) -> int:
    words = vocabulary(lists)
    records = 0
    for copy in range(copies):
        rng = random.Random(copy)
        target = folder / f"copy{copy:02d}"
        target.mkdir(parents=True)
        for path in lists:
            items = json.loads(gzip.decompress(path.read_bytes()))
            if copy:
                items = [perturbed(item, copy, rng, words) for item in items]
            (target / path.name).write_bytes(gzip.compress(json.dumps(items).encode(), compresslevel=1))
            records += len(items)
    return records


class TreeRSS:
    """The peak RSS of a process and its children, summed, sampled every 0.2 s."""

    def __init__(self, pid: int) -> None:
        self.root = psutil.Process(pid)
        self.peak = 0
        self.largest = 0
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()

    def _sample(self) -> None:
        while self.root.is_running() and self.root.status() != psutil.STATUS_ZOMBIE:
            try:
                sizes = [p.memory_info().rss for p in [self.root, *self.root.children(recursive=True)]]
            except psutil.Error:
                continue
            self.peak = max(self.peak, sum(sizes))
            self.largest = max(self.largest, *sizes)
            time.sleep(0.2)


def ingest(location: str, folder: Path, label: str, records: int) -> None:
    command = [sys.executable, "-m", "paperscope", "--db", location, "ingest", str(folder), "--no-embed", "--json"]
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    rss = TreeRSS(process.pid)
    out, err = process.communicate()
    seconds = time.perf_counter() - started
    if process.returncode:
        sys.exit(f"{label} ingest failed: {err.strip()[-500:]}")
    report = json.loads(out)
    stages = ", ".join(f"{stage} {s:.0f} s" for stage, s in report["seconds"].items())
    print(
        f"ingest {label:10s} {records:,} records → {report['papers']:,} papers in {seconds:,.0f} s"
        f" = {records / seconds:,.0f} records/s; peak RSS {rss.peak / 2**20:,.0f} MB for the process tree"
        f" (largest process {rss.largest / 2**20:,.0f} MB)\n  where the time goes: {stages}"
    )


def sample_vectors(location: str, sample: int) -> np.ndarray:
    with Library(location) as library:
        ids = sorted(p.id for p in library.papers())
        chosen = random.Random(7).sample(ids, sample)
        texts = [semantic.text_of(library.paper(i)) for i in chosen]
    started = time.perf_counter()
    real = semantic.encoder(threads=2).encode(texts)
    rate = sample / (time.perf_counter() - started)
    print(
        f"embedding: {rate:,.0f} abstracts/s on this machine; every paper for real would take"
        f" {len(ids) / rate / 3600:,.1f} h — {sample:,} were embedded, the rest are copies + noise"
    )
    return real


def perturbed_vectors(real: np.ndarray, count: int, rng: np.random.Generator) -> np.ndarray:
    vectors = real[rng.integers(0, len(real), count)] + rng.normal(0, 0.02, (count, real.shape[1]))
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors.astype(np.float32)


def missing(store) -> Iterator[list[tuple[str, str]]]:
    while rows := [(pid, digest) for pid, digest, _ in store.missing_vectors(VECTOR_CHUNK)]:
        yield rows


def fill_vectors(location: str, real: np.ndarray) -> None:
    rng = np.random.default_rng(7)
    store = open_store(location)
    started = time.perf_counter()
    try:
        for rows in missing(store):
            vectors = perturbed_vectors(real, len(rows), rng)
            with store.transaction():
                store.put_vectors(
                    (pid, digest, semantic.to_blob(vector)) for (pid, digest), vector in zip(rows, vectors, strict=True)
                )
    finally:
        store.close()
    print(f"vectors written in {time.perf_counter() - started:,.0f} s")


def ann_recall(library: Library, queries: list[str]) -> None:
    vectors = semantic.encoder().encode(queries)
    started = time.perf_counter()
    library.store.nearest(vectors[0], 10)
    seconds = time.perf_counter() - started
    print(f"first semantic search (loads the vectors, builds or reads the approximate index): {seconds:.1f} s")
    exact = library.store.vectors()
    found = []
    for vector in vectors:
        best = set(np.argsort(-(exact.matrix @ vector))[:10])
        expected = {exact.ids[i] for i in best}
        found.append(len(expected & {pid for pid, _ in library.store.nearest(vector, 10)}) / 10)
    print(f"semantic recall@10 against the exact scan: {statistics.mean(found):.3f}")


def measure(location: str, label: str, real: np.ndarray) -> None:
    fill_vectors(location, real)
    with Library(location) as library:
        titles = [p.title for p in library.papers() if p.title]
        queries = random.Random(11).sample(titles, QUERIES)
        if label == "SQLite":
            ann_recall(library, queries)
        latency(library, queries, label)


def database_size(location: str) -> float:
    """In GB: the SQLite file with its WAL, or PostgreSQL's pg_database_size."""
    if "://" not in location:
        return sum(p.stat().st_size for p in Path(location).parent.glob(Path(location).name + "*")) / 2**30
    import psycopg

    with psycopg.connect(location) as connection:
        return connection.execute("SELECT pg_database_size(current_database())").fetchone()[0] / 2**30


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--copies", type=int, default=11)
    parser.add_argument("--sample", type=int, default=4_000)
    parser.add_argument("--lists", type=int, default=None, help="only the first N corpus lists, by name")
    parser.add_argument("--backends", default="sqlite,postgres")
    parser.add_argument("--keep", type=Path, default=None, help="keep the input and databases in this folder")
    args = parser.parse_args()
    lists = sorted(CORPUS.glob("*.json.gz"))[: args.lists]
    with tempfile.TemporaryDirectory(prefix="paperscope-scale-") as temporary:
        folder = args.keep or Path(temporary)
        started = time.perf_counter()
        records = replicate(lists, args.copies, folder / "input")
        print(f"input: {records:,} records in {args.copies} copies, written in {time.perf_counter() - started:,.0f} s")
        url, stop = start_server(folder) if "postgres" in args.backends else (None, lambda: None)
        try:
            locations = {"SQLite": str(folder / "library.db"), "PostgreSQL": url}
            chosen = [label for label in locations if label.casefold() in args.backends.casefold()]
            for label in chosen:
                ingest(locations[label], folder / "input", label, records)
                print(f"database {label}: {database_size(locations[label]):.2f} GB")
            real = sample_vectors(locations[chosen[0]], args.sample)
            for label in chosen:
                measure(locations[label], label, real)
        finally:
            stop()


if __name__ == "__main__":
    main()
