"""Vectors for a large bench library without embedding every paper: a sample of abstracts is embedded
for real, and every paper gets a sample vector plus Gaussian noise (σ 0.02 per dimension,
renormalised), written in chunks so that memory does not grow with the library.

Each store is filled from the same seed in its own insertion order: two stores ingested from the same
lists get the same vector for each paper.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np

from paperscope.index import semantic
from paperscope.library import Library
from paperscope.store import open_store
from paperscope.store.base import Store
from paperscope.store.postgres import PostgresStore

CHUNK = 5_000
NOISE = 0.02
HNSW_BUILD_MEMORY = "2GB"  # the graph of 1M vectors of 512 halves fits: a build that spills is slower


def embed_sample(location: str, sample: int) -> np.ndarray:
    """The vectors of `sample` papers' abstracts (chosen by a fixed seed), and what embedding all would cost."""
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


def fill(location: str, real: np.ndarray) -> None:
    """Give every paper of the library at `location` without a vector a row of `real` plus noise.

    On PostgreSQL, vectors written into an empty table go in before its HNSW index, which is built
    after them (pgvector's advice for a load): inserted one by one into a graph larger than the
    server's cache, a million took longer than the rest of the bench. `paperscope embed` writes
    128 at a time, each batch searchable once committed, at the encoder's ~100 abstracts/s."""
    rng = np.random.default_rng(7)
    store = open_store(location)
    started, written = time.perf_counter(), 0
    try:
        with _index_built_after(store):
            for rows in _missing(store):
                vectors = _perturbed(real, len(rows), rng)
                with store.transaction():
                    store.put_vectors(
                        (pid, digest, semantic.to_blob(vector))
                        for (pid, digest), vector in zip(rows, vectors, strict=True)
                    )
                written += len(rows)
    finally:
        store.close()
    print(f"vectors into {type(store).__name__}: {written:,} written in {time.perf_counter() - started:,.1f} s")


@contextmanager
def _index_built_after(store: Store) -> Iterator[None]:
    if not isinstance(store, PostgresStore) or store._one("SELECT EXISTS (SELECT 1 FROM vectors)")[0]:
        yield
        return
    definitions = store._drop_indexes(["vectors_hnsw"])
    try:
        yield
    finally:
        started = time.perf_counter()
        with store.transaction():
            store._build_indexes(definitions, HNSW_BUILD_MEMORY)
        print(f"HNSW index built after the vectors in {time.perf_counter() - started:,.1f} s")


def _missing(store: Store) -> Iterator[list[tuple[str, str]]]:
    while rows := [(pid, digest) for pid, digest, _ in store.missing_vectors(CHUNK)]:
        yield rows


def _perturbed(real: np.ndarray, count: int, rng: np.random.Generator) -> np.ndarray:
    vectors = real[rng.integers(0, len(real), count)] + rng.normal(0, NOISE, (count, real.shape[1]))
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors.astype(np.float32)
