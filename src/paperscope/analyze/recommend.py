"""Recommendations from a set of liked papers, in the spirit of arxiv-sanity-lite: a linear classifier
(logistic regression, scikit-learn) trained on the liked papers against the rest, where the papers
marked not relevant are negatives that count DISLIKED_WEIGHT times a random one. With fewer than
MIN_TRAINING liked papers a classifier has nothing to learn from, so the nearest neighbours of the
liked papers are used instead, less their likeness to the papers marked not relevant.

Two stages keep it fast on 100k papers: a classifier on the sentence vectors ranks every paper (one
matrix product); then, given the texts, the first CANDIDATES are reordered by a second classifier on
the sentence vectors and TF-IDF key phrases together, and by the TF-IDF cosine to the liked papers
(bench/recommend.py measures each part) — TF-IDF over a whole library would have to be kept.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from paperscope.analyze import phrases
from paperscope.index.semantic import Vectors

MIN_TRAINING = 2
DISLIKED_WEIGHT = 5.0
ROCCHIO_AWAY = 0.5
DISLIKED_PENALTY = 0.5  # without a classifier: this times the cosine to the nearest paper marked not relevant
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


def recommend(
    vectors: Vectors,
    liked: list[str],
    limit: int = 20,
    exclude: set[str] | None = None,
    texts: Callable[[list[str]], list[str]] | None = None,
    disliked: list[str] | None = None,
) -> list[Suggestion]:
    """Suggestions best first, never a disliked paper; `texts` (paper ids → their texts) turns on the
    TF-IDF second stage."""
    rows = [vectors.position[pid] for pid in liked if pid in vectors.position]
    if not rows:
        return []
    against = [vectors.position[pid] for pid in disliked or () if pid in vectors.position and pid not in liked]
    liked_matrix = vectors.matrix[rows]
    similarity = vectors.matrix @ liked_matrix.T  # (papers, liked)
    if len(rows) >= MIN_TRAINING:
        scores = _classifier_scores(vectors.matrix, rows, against)
    else:
        scores = similarity.max(axis=1)
        if against:
            scores = scores - DISLIKED_PENALTY * (vectors.matrix @ vectors.matrix[against].T).max(axis=1)
    skip = set(rows) | set(against) | {vectors.position[p] for p in (exclude or ()) if p in vectors.position}
    order = [i for i in np.argsort(-scores) if i not in skip]
    if texts is not None and len(rows) >= MIN_TRAINING:
        # At most half of the others are reranked: the rest are the negatives the second stage learns from.
        order = _rerank_with_words(vectors, rows, against, order[: min(CANDIDATES, len(order) // 2)], texts)
    order = order[:limit]
    nearest = similarity.argmax(axis=1)
    return [
        Suggestion(vectors.ids[i], float(scores[i]), vectors.ids[rows[nearest[i]]], float(similarity[i, nearest[i]]))
        for i in order
    ]


def _rerank_with_words(
    vectors: Vectors,
    rows: list[int],
    against: list[int],
    candidates: list[int],
    texts: Callable[[list[str]], list[str]],
) -> list[int]:
    """The candidates by two votes of equal weight (each standardised): a classifier on the sentence
    vectors and TF-IDF key phrases together, and the TF-IDF cosine to the liked papers' centroid (less
    ROCCHIO_AWAY times the centroid of those marked not relevant) — which holds up best where a few
    liked papers leave the classifier little to learn from."""
    from scipy.sparse import csr_matrix, hstack
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression

    rng = np.random.default_rng(SEED)
    taken = set(rows) | set(against) | set(candidates)
    pool = np.array([i for i in range(len(vectors)) if i not in taken])
    sampled = list(rng.choice(pool, size=min(TEXT_NEGATIVES, len(pool)), replace=False)) if len(pool) else []
    negatives = against + sampled
    train, everyone = rows + negatives, rows + negatives + candidates
    words = TfidfVectorizer(analyzer=phrases.phrases_and_formulas, sublinear_tf=True, min_df=2, max_features=100_000)
    matrix = words.fit_transform(texts([vectors.ids[i] for i in everyone]))
    features = hstack([csr_matrix(vectors.matrix[everyone]), matrix]).tocsr()
    model = LogisticRegression(C=1.0, class_weight="balanced", max_iter=1_000)
    model.fit(
        features[: len(train)],
        np.r_[np.ones(len(rows)), np.zeros(len(negatives))],
        sample_weight=_weights(len(rows), len(against), len(sampled)),
    )
    learned = features[len(train) :] @ model.coef_[0]
    centroid = np.asarray(matrix[: len(rows)].mean(axis=0)).ravel()
    if against:  # Rocchio's feedback: away from the papers marked not relevant
        centroid -= ROCCHIO_AWAY * np.asarray(matrix[len(rows) : len(rows) + len(against)].mean(axis=0)).ravel()
    closeness = np.asarray(matrix[len(train) :] @ centroid).ravel()
    scores = _standard(learned) + _standard(closeness)
    return [candidates[i] for i in np.argsort(-scores, kind="stable")]


def _standard(values: np.ndarray) -> np.ndarray:
    return (values - values.mean()) / max(float(values.std()), 1e-9)


def _classifier_scores(matrix: np.ndarray, positive_rows: list[int], against: list[int]) -> np.ndarray:
    from sklearn.linear_model import LogisticRegression

    rng = np.random.default_rng(SEED)
    taken = set(positive_rows) | set(against)
    pool = np.array([i for i in range(len(matrix)) if i not in taken])
    sampled = rng.choice(pool, size=min(NEGATIVES, len(pool)), replace=False) if len(pool) else pool
    features = np.concatenate([matrix[positive_rows], matrix[against], matrix[sampled]])
    labels = np.concatenate([np.ones(len(positive_rows)), np.zeros(len(against) + len(sampled))])
    model = LogisticRegression(C=1.0, class_weight="balanced", max_iter=1_000)
    model.fit(features, labels, sample_weight=_weights(len(positive_rows), len(against), len(sampled)))
    return matrix @ model.coef_[0] + model.intercept_[0]


def _weights(liked: int, disliked: int, sampled: int) -> np.ndarray:
    """Training weights: a paper marked not relevant says more than a random one from the rest."""
    return np.r_[np.ones(liked), np.full(disliked, DISLIKED_WEIGHT), np.ones(sampled)]
