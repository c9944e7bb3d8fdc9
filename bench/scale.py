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
   p50 and p95; on SQLite the semantic side uses the 4-bit fast scan (index/ann.py; its build time is
   printed) and its recall@10 against the exact scan.
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
import time
from pathlib import Path

import numpy as np
import perturbed_vectors
from postgres import CORPUS, QUERIES, latency, start_server
from process_tree import TreeMemory

from paperscope.index import semantic
from paperscope.library import Library

URL_FIELDS = ("site", "pdf", "github", "project", "arxiv", "doi", "oa", "openreview")
REPLACED = 0.2


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


def ingest(location: str, folder: Path, label: str, records: int) -> None:
    command = [sys.executable, "-m", "paperscope", "--db", location, "ingest", str(folder), "--no-embed", "--json"]
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    memory = TreeMemory(process.pid)
    out, err = process.communicate()
    memory.stop()
    seconds = time.perf_counter() - started
    if process.returncode:
        sys.exit(f"{label} ingest failed: {err.strip()[-500:]}")
    report = json.loads(out)
    stages = ", ".join(f"{stage} {s:.0f} s" for stage, s in report["seconds"].items())
    print(
        f"ingest {label:10s} {records:,} records → {report['papers']:,} papers in {seconds:,.0f} s"
        f" = {records / seconds:,.0f} records/s; peak RSS {memory.total / 2**20:,.0f} MB for the process tree"
        f" (largest process {memory.largest / 2**20:,.0f} MB)\n  where the time goes: {stages}"
    )


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
    perturbed_vectors.fill(location, real)
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
    parser.add_argument(
        "--keep", type=Path, default=None, help="keep the input and databases in this folder (its input is reused)"
    )
    args = parser.parse_args()
    lists = sorted(CORPUS.glob("*.json.gz"))[: args.lists]
    with tempfile.TemporaryDirectory(prefix="paperscope-scale-") as temporary:
        folder = args.keep or Path(temporary)
        started = time.perf_counter()
        # a kept input (same --copies and --lists) is read again; its count is in a hidden file, not ingested
        written = folder / "input" / ".records"
        if written.exists():
            records = int(written.read_text())
        else:
            records = replicate(lists, args.copies, folder / "input")
            written.write_text(str(records))
        print(f"input: {records:,} records in {args.copies} copies, written in {time.perf_counter() - started:,.0f} s")
        labels = {"sqlite": "SQLite", "postgres": "PostgreSQL", "postgresql": "PostgreSQL"}
        chosen = list(dict.fromkeys(labels[name.strip().casefold()] for name in args.backends.split(",")))
        url, stop = start_server(folder) if "PostgreSQL" in chosen else (None, lambda: None)
        try:
            locations = {"SQLite": str(folder / "library.db"), "PostgreSQL": url}
            for label in chosen:
                ingest(locations[label], folder / "input", label, records)
                print(f"database {label}: {database_size(locations[label]):.2f} GB")
            real = perturbed_vectors.embed_sample(locations[chosen[0]], args.sample)
            for label in chosen:
                measure(locations[label], label, real)
        finally:
            stop()


if __name__ == "__main__":
    main()
