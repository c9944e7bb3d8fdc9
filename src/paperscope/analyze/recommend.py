"""Recommendations from a set of liked papers, in the spirit of arxiv-sanity-lite: a linear classifier
(logistic regression, scikit-learn) trained on the liked papers' sentence vectors against the rest,
ranking every other paper. With fewer than MIN_TRAINING liked papers a classifier has nothing to
learn from, so the nearest neighbours of the liked papers are used instead.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from paperscope.index.semantic import Vectors

MIN_TRAINING = 2
NEGATIVES = 5_000  # the "rest" a classifier sees: a fixed random sample keeps training fast at 100k
SEED = 7


@dataclass
class Suggestion:
    paper_id: str
    score: float
    nearest: str  # the liked paper it is closest to
    similarity: float  # cosine to that paper


def recommend(vectors: Vectors, liked: list[str], limit: int = 20, exclude: set[str] | None = None) -> list[Suggestion]:
    rows = [vectors.position[pid] for pid in liked if pid in vectors.position]
    if not rows:
        return []
    liked_matrix = vectors.matrix[rows]
    similarity = vectors.matrix @ liked_matrix.T  # (papers, liked)
    if len(rows) >= MIN_TRAINING:
        scores = _classifier_scores(vectors.matrix, rows)
    else:
        scores = similarity.max(axis=1)
    skip = set(rows) | {vectors.position[p] for p in (exclude or ()) if p in vectors.position}
    order = [i for i in np.argsort(-scores) if i not in skip][:limit]
    nearest = similarity.argmax(axis=1)
    return [Suggestion(vectors.ids[i], float(scores[i]), vectors.ids[rows[nearest[i]]], float(similarity[i, nearest[i]]))
            for i in order]


def _classifier_scores(matrix: np.ndarray, positive_rows: list[int]) -> np.ndarray:
    from sklearn.linear_model import LogisticRegression

    rng = np.random.default_rng(SEED)
    positives = set(positive_rows)
    pool = np.array([i for i in range(len(matrix)) if i not in positives])
    negatives = rng.choice(pool, size=min(NEGATIVES, len(pool)), replace=False) if len(pool) else pool
    features = np.concatenate([matrix[positive_rows], matrix[negatives]])
    labels = np.concatenate([np.ones(len(positive_rows)), np.zeros(len(negatives))])
    model = LogisticRegression(C=1.0, class_weight="balanced", max_iter=1_000)
    model.fit(features, labels)
    return matrix @ model.coef_[0] + model.intercept_[0]
