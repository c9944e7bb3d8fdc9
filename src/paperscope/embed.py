"""Compute the vectors a library is missing: new papers, changed papers, or an ingest run with --no-embed.

Each batch is its own transaction, so an interrupted run keeps what it finished and the next run
(`paperscope embed`) starts where it stopped.

Many papers are encoded in worker processes, one encoder thread each: the encoder's matrices are small,
and one process with two threads embedded 105 abstracts/s on two cores where two processes did 147
(bench/embed_speed.py, 2,775 papers).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from paperscope import workers
from paperscope.index import semantic
from paperscope.progress import Progress
from paperscope.store import Store

COMMIT_EVERY = 128  # papers per transaction: what an interrupt can cost
FIRST_BATCHES = 16  # the first two batches are small: a progress bar needs two steps for a rate (an ETA)
WINDOW = 4  # batches read at once, the workers encoding the later ones while the first are written
PROCESSES_FROM = 1_000  # papers; fewer are encoded here: each worker loads the encoder (~0.6 s)


def embed_missing(store: Store, progress: Progress | None = None, processes: int | None = None) -> int:
    """Embed every paper without an up-to-date vector; returns how many were embedded. `processes`:
    how many encode (None: one per core, up to 4, when there are PROCESSES_FROM papers or more)."""
    total = store.count_missing_vectors()
    if progress:
        progress("vectors", 0, total)
    if not total:
        return 0
    if processes is None:
        processes = workers.processes() if total >= PROCESSES_FROM else 1
    if processes < 2:
        encoder = semantic.encoder(threads=2)
        return _embed(store, total, lambda texts: lambda: encoder.encode(texts), progress)
    pool = workers.pool(processes)
    try:

        def started(texts: list[str]) -> Callable[[], np.ndarray]:
            parts = [pool.submit(_encode, texts[at::processes]) for at in range(processes)]  # interleaved: alike

            def vectors() -> np.ndarray:
                joined = np.empty((len(texts), semantic.DIMENSIONS), dtype=np.float32)
                for at, part in enumerate(parts):
                    joined[at::processes] = part.result()
                return joined

            return vectors

        return _embed(store, total, started, progress)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _encode(texts: list[str]) -> np.ndarray:
    """Run in a worker: its own encoder, one thread."""
    return semantic.encoder(threads=1).encode(texts)


def _embed(
    store: Store,
    total: int,
    started: Callable[[list[str]], Callable[[], np.ndarray]],
    progress: Progress | None,
) -> int:
    """Batch after batch, each written in its own transaction; the batches of a window of WINDOW are
    read at once and `started` (encoded in the workers while the earlier ones are written)."""
    done = 0
    while done < total:
        size = FIRST_BATCHES if done < 2 * FIRST_BATCHES else COMMIT_EVERY
        rows = store.missing_vectors(size * WINDOW)
        if not rows:
            break
        batches = [rows[at : at + size] for at in range(0, len(rows), size)]
        pending = [started([semantic.text_of(paper) for _, _, paper in batch]) for batch in batches]
        for batch, vectors in zip(batches, pending, strict=True):
            with store.transaction():
                store.put_vectors(
                    (pid, digest, semantic.to_blob(v)) for (pid, digest, _), v in zip(batch, vectors(), strict=True)
                )
            done += len(batch)
            if progress:
                progress("vectors", done, total)
    return done
