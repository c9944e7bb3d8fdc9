"""Nearest neighbours for large libraries: a 4-bit product quantizer scanned whole with SIMD (faiss's
fast scan), whose candidates are scored again exactly against the float matrix.

Each unit vector is cut into SUBSPACES pieces of two dimensions, each piece stored as the nearest of
16 centres (4 bits): 128 bytes a vector, a sixteenth of the floats. A query scores every vector by
table lookups in registers, then the best OVERSAMPLE times as many as wanted (at least
LEAST_CANDIDATES) are scored exactly, so the answer's cosines are exact and only its membership is
approximate. bench/ann.py, against the exact scan on real vectors and noisy copies of them, top 10:
recall 1.000 at 11.5k (0.2 ms), 0.999 at 100k (0.6 ms), 0.994 at 1M (6.4 ms). The 8-bit full scan
it replaces found 1.000 at 100k in 5.5 ms; the 8-bit inverted file it replaces from 200k on found
0.98 at 1M reading 128 lists in 18–24 ms. A graph (HNSW, in usearch) missed a tenth of the exact
top 10 at every breadth: a query of a few words is far from every abstract (its best cosine often
below 0.3), where a scan of everything loses nothing. Below QUANTIZED_FROM vectors the float scan
(semantic.Vectors) takes a few milliseconds and stays the answer.

The index is saved in one file named after its vectors, so a library that has not changed opens
its index memory-mapped (shared by every process serving it) instead of building it again; a
changed library builds a new one and the old file goes.
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

import numpy as np

from paperscope.atomic import replacing

if TYPE_CHECKING:
    import faiss

QUANTIZED_FROM = 20_000  # vectors; below, the float scan (~2 ms at 20k)
SUBSPACES = 256  # of 512 dimensions: 128 bytes a vector (128 subspaces lost 0.03 of recall@10 at 1M)
TRAINING = 10_000  # sample vectors the 16 centres of each subspace are learnt from
OVERSAMPLE = 10  # candidates scored exactly per result wanted,
LEAST_CANDIDATES = 300  # and at least this many (bench/ann.py: recall@10 0.975 at 1M with 100, 0.994 with 300)
KIND = "pq4"  # in the file's name: a file of another kind of index (an older paperscope's) is built again


@cache
def _faiss() -> ModuleType:
    """faiss, imported on first use: a library below QUANTIZED_FROM never needs it, and every command
    would otherwise wait for its import (~60 ms) as it starts."""
    import faiss

    # One thread per search: a server answers requests side by side, and faiss's threads waiting for a
    # busy core made the 92.5k full scan 2.1x slower on this machine under load (bench/ann.py, with and
    # without OMP_NUM_THREADS=1).
    faiss.omp_set_num_threads(1)
    return faiss


class AnnIndex:
    """The quantized rows of a matrix; positions are the rows' numbers."""

    def __init__(self, index: faiss.Index) -> None:
        self.index = index

    @classmethod
    def build(cls, matrix: np.ndarray) -> AnnIndex:
        faiss = _faiss()
        index = faiss.IndexPQFastScan(matrix.shape[1], SUBSPACES, 4, faiss.METRIC_INNER_PRODUCT)
        sample = np.random.default_rng(0).choice(len(matrix), min(len(matrix), TRAINING), replace=False)
        index.train(np.ascontiguousarray(matrix[np.sort(sample)], dtype=np.float32))
        index.add(np.ascontiguousarray(matrix, dtype=np.float32))
        return cls(index)

    @classmethod
    def view(cls, path: Path) -> AnnIndex:
        """A saved index, memory-mapped rather than read."""
        faiss = _faiss()
        return cls(faiss.read_index(str(path), faiss.IO_FLAG_MMAP | faiss.IO_FLAG_READ_ONLY))

    def save(self, path: Path) -> None:
        with replacing(path) as partial:  # a half-written index is never opened
            _faiss().write_index(self.index, str(partial))

    def __len__(self) -> int:
        return int(self.index.ntotal)

    def candidates(self, query: np.ndarray, wanted: int) -> np.ndarray:
        """Positions of the rows to score exactly for the `wanted` nearest `query`, nearest first."""
        count = min(len(self), max(wanted * OVERSAMPLE, LEAST_CANDIDATES))
        _, positions = self.index.search(query.reshape(1, -1).astype(np.float32), count)
        return positions[0][positions[0] >= 0]


def fingerprint(ids: list[str], matrix: np.ndarray) -> str:
    digest = hashlib.blake2b(digest_size=10)
    digest.update("\n".join(ids).encode())
    digest.update(np.ascontiguousarray(matrix).data)
    return digest.hexdigest()


def cached(base: Path, ids: list[str], matrix: np.ndarray, name: str | None = None) -> AnnIndex:
    """The index of these vectors saved as `base`.<name>.KIND.faiss, built and saved when missing; the
    indexes of earlier versions of the library beside it are removed (`.ivf`: an older name). `name`
    names these vectors where the caller knows one already (hashing a million vectors for their
    fingerprint takes seconds)."""
    path = base.with_name(f"{base.name}.{name or fingerprint(ids, matrix)}.{KIND}.faiss")
    if not path.exists():
        AnnIndex.build(matrix).save(path)
        for old in [*base.parent.glob(f"{base.name}.*.faiss"), *base.parent.glob(f"{base.name}.*.ivf")]:
            if old != path:
                old.unlink(missing_ok=True)
    return AnnIndex.view(path)
