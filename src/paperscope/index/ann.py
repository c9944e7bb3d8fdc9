"""Nearest neighbours for large libraries: the unit vectors 8-bit quantized (faiss), whose
candidates are scored again exactly against the float matrix.

From QUANTIZED_FROM vectors every quantized vector is scanned: a quarter of the memory the float
scan reads (the scan is memory-bound), and with OVERSAMPLE candidates per result scored exactly it
finds what the float scan finds (bench/ann.py: recall@10 and @100 1.000 at 92.5k). Below it the
float scan (semantic.Vectors) takes a few milliseconds and stays the answer.

From THRESHOLD vectors an inverted file (IVF) is searched instead: the vectors are split into
LISTS_PER_ROOT * sqrt(n) lists by k-means, and a query reads the PROBES lists whose centres are
nearest it. An inverted file suits these vectors better than a graph: a query of a few words is
far from every abstract (its best cosine often below 0.3), and an HNSW graph (usearch, tried
first) then missed a tenth of the exact top 10 even at search breadth 1024, where reading more
lists here always finds more. bench/ann.py measures where the full scan stops meeting 50 ms, and
the recall@10 of the inverted file against it.

The index is saved in one file named after its vectors, so a library that has not changed opens
its index memory-mapped (shared by every process serving it) instead of building it again; a
changed library builds a new one and the old file goes.
"""

from __future__ import annotations

import hashlib
import math
from pathlib import Path

import faiss
import numpy as np

from paperscope.atomic import replacing

# Vectors. A quiet machine here scans 92.5k floats in ~20 ms, the quantized ones in ~7; bench/ann.py,
# run with the two cores shared ten ways, measured the float scan at 142 ms (p50) for 200k and 900 ms
# for 1M, and the inverted file at 18 and 24 ms with recall@10 0.969 and 0.982 (PROBES 128).
QUANTIZED_FROM = 20_000
THRESHOLD = 200_000
LISTS_PER_ROOT = 4
TRAINING_PER_LIST = 40  # k-means reads this many sample vectors per list
PROBES = 128
OVERSAMPLE = 4  # candidates fetched per result wanted, then scored exactly

# One thread per search: a server answers requests side by side, and faiss's threads waiting for a
# busy core made the 92.5k full scan 2.1x slower on this machine under load (bench/ann.py, with and
# without OMP_NUM_THREADS=1), the inverted file's build as well.
faiss.omp_set_num_threads(1)


class AnnIndex:
    """The quantized rows of a matrix, scanned whole or through an inverted file; positions are the
    rows' numbers."""

    def __init__(self, index: faiss.Index) -> None:
        self.index = index
        self.probes = PROBES
        self.inverted = isinstance(index, faiss.IndexIVF)

    @classmethod
    def build(cls, matrix: np.ndarray, inverted: bool | None = None) -> AnnIndex:
        """An inverted file from THRESHOLD rows on (or as `inverted` says), a full scan below."""
        if not (len(matrix) >= THRESHOLD if inverted is None else inverted):
            index = faiss.IndexScalarQuantizer(
                matrix.shape[1], faiss.ScalarQuantizer.QT_8bit, faiss.METRIC_INNER_PRODUCT
            )
            index.train(np.ascontiguousarray(matrix, dtype=np.float32))
            built = cls(index)
            built.extend(matrix)
            return built
        lists = max(1, int(LISTS_PER_ROOT * math.sqrt(len(matrix))))
        centres = faiss.IndexFlatIP(matrix.shape[1])
        index = faiss.IndexIVFScalarQuantizer(
            centres, matrix.shape[1], lists, faiss.ScalarQuantizer.QT_8bit, faiss.METRIC_INNER_PRODUCT
        )
        sample = np.random.default_rng(0).choice(len(matrix), min(len(matrix), TRAINING_PER_LIST * lists), False)
        index.train(matrix[np.sort(sample)])
        built = cls(index)
        built.extend(matrix)
        return built

    def extend(self, rows: np.ndarray) -> None:
        """Add the matrix's next rows (positions from len(self) on)."""
        self.index.add(np.ascontiguousarray(rows, dtype=np.float32))

    @classmethod
    def view(cls, path: Path) -> AnnIndex:
        """A saved index, memory-mapped rather than read."""
        return cls(faiss.read_index(str(path), faiss.IO_FLAG_MMAP | faiss.IO_FLAG_READ_ONLY))

    def save(self, path: Path) -> None:
        with replacing(path) as partial:  # a half-written index is never opened
            faiss.write_index(self.index, str(partial))

    def __len__(self) -> int:
        return int(self.index.ntotal)

    def candidates(self, query: np.ndarray, count: int) -> np.ndarray:
        """Positions of about the `count` rows nearest `query`, nearest first."""
        parameters = faiss.SearchParametersIVF(nprobe=self.probes) if self.inverted else None
        _, positions = self.index.search(query.reshape(1, -1).astype(np.float32), count, params=parameters)
        return positions[0][positions[0] >= 0]


def fingerprint(ids: list[str], matrix: np.ndarray) -> str:
    digest = hashlib.blake2b(digest_size=10)
    digest.update("\n".join(ids).encode())
    digest.update(np.ascontiguousarray(matrix).data)
    return digest.hexdigest()


def cached(base: Path, ids: list[str], matrix: np.ndarray, name: str | None = None) -> AnnIndex:
    """The index of these vectors saved as `base`.<name>.faiss, built and saved when missing; indexes
    of earlier versions of the library beside it are removed (`.ivf`: their name before the full
    scan). `name` names these vectors where the caller knows one already (hashing a million vectors
    for their fingerprint takes seconds)."""
    path = base.with_name(f"{base.name}.{name or fingerprint(ids, matrix)}.faiss")
    if not path.exists():
        AnnIndex.build(matrix).save(path)
        for old in [*base.parent.glob(f"{base.name}.*.faiss"), *base.parent.glob(f"{base.name}.*.ivf")]:
            if old != path:
                old.unlink(missing_ok=True)
    return AnnIndex.view(path)
