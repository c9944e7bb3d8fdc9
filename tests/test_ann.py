"""The approximate index of large libraries (paperscope.index.ann): what it finds against the exact
scan, its file beside a SQLite library, and narrow filters, on real sentence vectors."""

from __future__ import annotations

import numpy as np
import pytest

from paperscope.index import ann, semantic
from paperscope.library import Library

from .conftest import SEEDS


@pytest.fixture(scope="module")
def seed_vectors(seeded_db) -> tuple[semantic.Vectors, np.ndarray]:
    """The seed library's vectors, and its titles embedded as queries."""
    with Library(seeded_db) as library:
        vectors = library.vectors()
        titles = [p.display_title for p in library.papers()]
    return vectors, semantic.encoder().encode(titles)


def test_the_index_finds_what_the_exact_scan_finds(seed_vectors):
    """10,000 vectors: the seeds' and copies of them moved by noise, as bench/ann.py makes them. The
    quantized scan's candidates, scored exactly, hold the float scan's top 10 (nearly always) with
    the same cosines."""
    real, queries = seed_vectors
    rng = np.random.default_rng(1)
    copies = real.matrix[rng.integers(0, len(real), 10_000 - len(real))]
    copies = copies + rng.standard_normal(copies.shape, dtype=np.float32) * (0.6 / np.sqrt(copies.shape[1]))
    matrix = np.vstack([real.matrix, copies / np.linalg.norm(copies, axis=1, keepdims=True)])
    ids = real.ids + [f"copy{i}" for i in range(len(copies))]
    exact = semantic.Vectors(ids, matrix)
    approximate = semantic.Vectors(ids, matrix, approximate=ann.AnnIndex.build(matrix))
    found = [(approximate.nearest(q, 10), exact.nearest(q, 10)) for q in queries]
    recall = np.mean([len({i for i, _ in a} & {i for i, _ in e}) / 10 for a, e in found])
    assert recall >= 0.99
    first, truth = found[0]
    assert first[0][0] == truth[0][0] and np.isclose(first[0][1], truth[0][1], atol=1e-6)  # exact cosines
    assert [s for _, s in first] == sorted((s for _, s in first), reverse=True)


def test_filters_get_the_exact_answer(seed_vectors):
    """However few papers a filter leaves among the index's candidates: the exact scan answers then."""
    real, queries = seed_vectors
    approximate = semantic.Vectors(real.ids, real.matrix, approximate=ann.AnnIndex.build(real.matrix))
    exact = semantic.Vectors(real.ids, real.matrix)
    allowed, excluded = set(real.ids[:5]), {real.ids[0]}
    for query in queries:
        found, truth = (v.nearest(query, 3, allowed, excluded) for v in (approximate, exact))
        assert [i for i, _ in found] == [i for i, _ in truth]
        assert np.allclose([s for _, s in found], [s for _, s in truth], atol=1e-6)


def test_a_large_library_keeps_its_index_beside_its_file_until_it_changes(seeded_copy, tmp_path, monkeypatch):
    monkeypatch.setattr(ann, "QUANTIZED_FROM", 40)  # the 51 seed papers count as a large library
    with Library(seeded_copy) as library:
        exact = semantic.Vectors(library.vectors().ids, library.vectors().matrix)
        hits = library.search("speculative decoding", 5, mode="semantic")
    (saved,) = seeded_copy.parent.glob(f"{seeded_copy.name}.*.faiss")
    vector = semantic.encoder().encode(["speculative decoding"])[0]
    assert [h.paper.id for h in hits] == [pid for pid, _ in exact.nearest(vector, 5)]
    written = saved.stat().st_mtime_ns
    with Library(seeded_copy) as library:  # opened again: the same index, not built again
        assert library.search("speculative decoding", 5, mode="semantic") == hits
    assert saved.stat().st_mtime_ns == written
    extra = tmp_path / "extra.txt"
    extra.write_text("More Papers\nWe study speculative decoding with tiny draft models.\n", encoding="utf-8")
    with Library(seeded_copy) as library:
        library.ingest([SEEDS, extra])
        assert library.search("speculative decoding", 5, mode="semantic")
    (rebuilt,) = seeded_copy.parent.glob(f"{seeded_copy.name}.*.faiss")
    assert rebuilt != saved  # the changed library's index replaced the old one
