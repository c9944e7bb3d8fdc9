"""Recommendations against a nearest-neighbour baseline, side by side: precision@10 on held-out halves.

    python bench/recommend.py

A pretend tag on the corpus: the papers of a sample library (the newest lists, ~12.6k papers,
embedded for real) whose title holds a keyword. Half of them are tagged; the other half is hidden
among the untagged papers. precision@10 = the share of the first 10 suggestions that are hidden
tagged papers. Compared: paperscope's recommender (logistic regression on sentence vectors, then
on sentence vectors and TF-IDF words for the first 1,000), the first stage alone, and the
nearest-neighbour baseline (the highest cosine to any tagged paper).
"""

from __future__ import annotations

import random
import statistics
import tempfile
from pathlib import Path

import numpy as np

from paperscope.analyze.recommend import recommend
from paperscope.index import semantic
from paperscope.library import Library

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus" / "paperlists"
KEYWORDS = ["diffusion", "reinforcement", "graph", "robot", "federated", "quantization", "3d", "speech",
            "adversarial", "causal", "segmentation", "retrieval"]  # fmt: skip


def nearest_neighbours(vectors, liked: list[str], limit: int) -> list[str]:  # type: ignore[no-untyped-def]
    rows = [vectors.position[p] for p in liked]
    scores = (vectors.matrix @ vectors.matrix[rows].T).max(axis=1)
    scores[rows] = -np.inf
    return [vectors.ids[i] for i in np.argsort(-scores)[:limit]]


def main() -> None:
    files = sorted(CORPUS.iterdir())[-60:]
    with tempfile.TemporaryDirectory() as tmp, Library(Path(tmp) / "sample.db") as library:
        library.ingest(files)
        vectors = library.vectors()
        titles = {p.id: (p.title or "").lower() for p in library.papers()}
        texts = {p.id: semantic.text_of(p) for p in library.papers()}
        rng = random.Random(4)
        rows = []
        for keyword in KEYWORDS:
            tagged = sorted(pid for pid, title in titles.items() if keyword in title.split() and pid in vectors.position)
            if len(tagged) < 20:
                continue
            rng.shuffle(tagged)
            liked, hidden = tagged[: len(tagged) // 2], set(tagged[len(tagged) // 2 :])
            ours = [s.paper_id for s in recommend(vectors, liked, 10, texts=lambda ids: [texts[i] for i in ids])]
            first_stage = [s.paper_id for s in recommend(vectors, liked, 10)]
            baseline = nearest_neighbours(vectors, liked, 10)
            rows.append((keyword, len(tagged), *(sum(p in hidden for p in found) / 10
                                                 for found in (ours, first_stage, baseline))))  # fmt: skip
        print(f"{library.count():,} papers; a pretend tag per keyword (papers whose title has it), half held out")
        print(f"  {'keyword':<14} {'papers':>6}  {'two stages':>10}  {'vectors only':>12}  {'nearest':>8}   (precision@10)")
        for keyword, size, ours_p, first_p, base_p in rows:
            print(f"  {keyword:<14} {size:>6}  {ours_p:>10.2f}  {first_p:>12.2f}  {base_p:>8.2f}")
        print(f"  {'mean':<14} {'':>6}  {statistics.mean(r[2] for r in rows):>10.3f}"
              f"  {statistics.mean(r[3] for r in rows):>12.3f}  {statistics.mean(r[4] for r in rows):>8.3f}")  # fmt: skip


if __name__ == "__main__":
    main()
