"""Recommendations from a set of liked papers, in the spirit of arxiv-sanity-lite: a linear classifier
(logistic regression, scikit-learn) trained on the liked papers against the rest. With fewer than
MIN_TRAINING liked papers a classifier has nothing to learn from, so the nearest neighbours of the
liked papers are used instead.

Two stages keep it fast on 100k papers: a classifier on the sentence vectors ranks every paper (one
matrix product); then, given the texts, a second one on the sentence vectors and TF-IDF words
together reorders the first CANDIDATES — TF-IDF over a whole library would have to be kept.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from paperscope.index.semantic import Vectors

MIN_TRAINING = 2
NEGATIVES = 5_000  # the "rest" a classifier sees: a fixed random sample keeps training fast at 100k
TEXT_NEGATIVES = 1_000  # the rest the second stage reads the texts of
CANDIDATES = 1_000
SEED = 7


@dataclass
class Suggestion:
    paper_id: str
    score: float
    nearest: str  # the liked paper it is closest to
    similarity: float  # cosine to that paper


def recommend(vectors: Vectors, liked: list[str], limit: int = 20, exclude: set[str] | None = None,
              texts: Callable[[list[str]], list[str]] | None = None) -> list[Suggestion]:  # fmt: skip
    """Suggestions best first; `texts` (paper ids → their texts) turns on the TF-IDF second stage."""
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
    order = [i for i in np.argsort(-scores) if i not in skip]
    if texts is not None and len(rows) >= MIN_TRAINING:
        # At most half of the others are reranked: the rest are the negatives the second stage learns from.
        order = _rerank_with_words(vectors, rows, order[: min(CANDIDATES, len(order) // 2)], texts)
    order = order[:limit]
    nearest = similarity.argmax(axis=1)
    return [Suggestion(vectors.ids[i], float(scores[i]), vectors.ids[rows[nearest[i]]], float(similarity[i, nearest[i]]))
            for i in order]


def _rerank_with_words(vectors: Vectors, rows: list[int], candidates: list[int],
                       texts: Callable[[list[str]], list[str]]) -> list[int]:  # fmt: skip
    from scipy.sparse import csr_matrix, hstack
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression

    rng = np.random.default_rng(SEED)
    taken = set(rows) | set(candidates)
    pool = np.array([i for i in range(len(vectors)) if i not in taken])
    negatives = list(rng.choice(pool, size=min(TEXT_NEGATIVES, len(pool)), replace=False)) if len(pool) else []
    train, everyone = rows + negatives, rows + negatives + candidates
    words = TfidfVectorizer(sublinear_tf=True, stop_words="english", min_df=2, max_features=50_000)
    matrix = words.fit_transform(texts([vectors.ids[i] for i in everyone]))
    features = hstack([csr_matrix(vectors.matrix[everyone]), matrix]).tocsr()
    model = LogisticRegression(C=1.0, class_weight="balanced", max_iter=1_000)
    model.fit(features[: len(train)], np.r_[np.ones(len(rows)), np.zeros(len(negatives))])
    scores = features[len(train) :] @ model.coef_[0]
    return [candidates[i] for i in np.argsort(-scores, kind="stable")]


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
