"""Compute the vectors a library is missing: new papers, changed papers, or an ingest run with --no-embed.

Each batch is its own transaction, so an interrupted run keeps what it finished and the next run
(`paperscope embed`) starts where it stopped.
"""

from __future__ import annotations

from paperscope.index import semantic
from paperscope.progress import Progress
from paperscope.store import Store

COMMIT_EVERY = 128  # papers per transaction: what an interrupt can cost
FIRST_BATCHES = 16  # the first two batches are small: a progress bar needs two steps for a rate (an ETA)


def embed_missing(store: Store, progress: Progress | None = None) -> int:
    """Embed every paper without an up-to-date vector; returns how many were embedded."""
    total = store.count_missing_vectors()
    if progress:
        progress("vectors", 0, total)
    if not total:
        return 0
    done = 0
    encoder = semantic.encoder(threads=2)
    while done < total:
        rows = store.missing_vectors(FIRST_BATCHES if done < 2 * FIRST_BATCHES else COMMIT_EVERY)
        if not rows:
            break
        vectors = encoder.encode([semantic.text_of(paper) for _, _, paper in rows])
        with store.transaction():
            store.put_vectors(
                (pid, digest, semantic.to_blob(v)) for (pid, digest, _), v in zip(rows, vectors, strict=True)
            )
        done += len(rows)
        if progress:
            progress("vectors", done, total)
    return done
