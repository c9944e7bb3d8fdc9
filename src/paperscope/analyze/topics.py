"""Topics and the 2-D map: k-means over the sentence vectors, labels from class-based TF-IDF.

Deterministic: the papers are taken in id order and every random state is fixed, so the same
library gives the same topics and the same map. The number of topics is sqrt(n / 2), between 2
and 60, unless asked for. The map is t-SNE (scikit-learn, Barnes-Hut) up to MAP_TSNE_LIMIT papers
and PCA beyond, where t-SNE takes minutes (bench/analyze.py measures both).
"""

from __future__ import annotations

import contextlib
import io
import math
import re
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

SEED = 7
TSNE_ITERATIONS = 1_000  # scikit-learn's default max_iter, named here because progress counts to it
MAP_TSNE_LIMIT = 5_000
LABEL_WORDS = 3
MAX_TOPICS = 60
_EXTRA_STOP = ["propose", "proposed", "method", "methods", "paper", "results", "show", "approach", "based",
               "model", "models", "using", "novel", "existing", "new", "performance", "work", "task", "tasks"]  # fmt: skip


@dataclass
class Topic:
    id: int
    label: str  # its three most distinctive words
    keywords: list[str]
    size: int


@dataclass
class Layout:
    topics: list[Topic]
    assignment: np.ndarray  # topic id per paper, in the order given
    xy: np.ndarray  # (n, 2) map coordinates in [0, 1]


def default_count(n: int) -> int:
    return max(2, min(MAX_TOPICS, round(math.sqrt(n / 2))))


Progress = Callable[[str, int, int], None]  # (stage, done, total), as paperscope.pipeline.Progress


def cluster(matrix: np.ndarray, texts: list[str], count: int | None = None, progress: Progress | None = None) -> Layout:
    """Topics and map positions for papers given by their vectors (rows) and texts, in a fixed order.
    `progress` hears ("topics", step, 2) for k-means and labels, and ("map", iteration, total) for t-SNE."""
    report = progress or (lambda stage, done, total: None)
    n = len(texts)
    if n < 3:
        return Layout([Topic(0, "all papers", [], n)] if n else [], np.zeros(n, dtype=int), np.full((n, 2), 0.5))
    from sklearn.cluster import MiniBatchKMeans  # imported here: a server that never clusters never loads it

    k = min(count or default_count(n), n - 1)
    report("topics", 0, 2)
    kmeans = MiniBatchKMeans(n_clusters=k, random_state=SEED, n_init=3, batch_size=2048)
    assignment = kmeans.fit_predict(matrix)
    report("topics", 1, 2)
    keywords = _keywords(texts, assignment, k)
    report("topics", 2, 2)
    sizes = np.bincount(assignment, minlength=k)
    topics = [Topic(t, ", ".join(keywords[t][:LABEL_WORDS]) or f"topic {t + 1}", keywords[t], int(sizes[t]))
              for t in range(k)]  # fmt: skip
    return Layout(topics, assignment, _layout(matrix, report))


def _keywords(texts: list[str], assignment: np.ndarray, k: int, top: int = 8) -> list[list[str]]:
    """c-TF-IDF (Grootendorst, BERTopic): each topic's texts as one document, words weighted by their
    frequency in the topic against their frequency over all topics."""
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS, CountVectorizer

    vectorizer = CountVectorizer(stop_words=[*ENGLISH_STOP_WORDS, *_EXTRA_STOP], ngram_range=(1, 2), min_df=2,
                                 max_features=50_000, token_pattern=r"(?u)\b[a-zA-Z][a-zA-Z0-9\-]+\b")  # fmt: skip
    try:
        counts = vectorizer.fit_transform(texts)
    except ValueError:  # no word occurs twice (a tiny library)
        return [[] for _ in range(k)]
    words = vectorizer.get_feature_names_out()
    per_topic = np.zeros((k, counts.shape[1]))
    for topic in range(k):
        rows = np.flatnonzero(assignment == topic)
        if len(rows):
            per_topic[topic] = np.asarray(counts[rows].sum(axis=0)).ravel()
    tf = per_topic / np.maximum(per_topic.sum(axis=1, keepdims=True), 1)
    # Inverse frequency over topics (c-TF-IDF) times over papers: a word every topic uses ("language",
    # "training") is not what sets one apart, however often it occurs.
    across_topics = np.log(1 + (per_topic.sum() / k) / np.maximum(per_topic.sum(axis=0), 1))
    document_frequency = np.asarray((counts > 0).sum(axis=0)).ravel()
    across_papers = np.log(len(texts) / np.maximum(document_frequency, 1))
    scores = tf * across_topics * across_papers
    return [[str(words[j]) for j in np.argsort(-scores[t])[:top] if scores[t, j] > 0] for t in range(k)]


def _layout(matrix: np.ndarray, report: Progress) -> np.ndarray:
    from sklearn.decomposition import PCA
    from sklearn.manifold import TSNE

    n = len(matrix)
    report("map", 0, TSNE_ITERATIONS)
    if n <= MAP_TSNE_LIMIT:
        tsne = TSNE(n_components=2, perplexity=min(30.0, (n - 1) / 3), init="pca", random_state=SEED,
                    metric="cosine", max_iter=TSNE_ITERATIONS, verbose=2)  # fmt: skip
        # scikit-learn reports t-SNE's iterations only by printing them: its lines become progress.
        with contextlib.redirect_stdout(_Iterations(report)):
            xy = tsne.fit_transform(matrix)
    else:
        xy = PCA(n_components=2, random_state=SEED).fit_transform(matrix)
    report("map", TSNE_ITERATIONS, TSNE_ITERATIONS)
    low, high = xy.min(axis=0), xy.max(axis=0)
    return (xy - low) / np.where(high > low, high - low, 1)


class _Iterations(io.TextIOBase):
    """A stdout that turns t-SNE's "[t-SNE] Iteration 250: ..." lines into ("map", 250, total) progress."""

    def __init__(self, report: Progress) -> None:
        self.report = report

    def write(self, text: str) -> int:
        for match in re.finditer(r"Iteration (\d+):", text):
            self.report("map", int(match.group(1)), TSNE_ITERATIONS)
        return len(text)
