"""Topics and the 2-D map: k-means over the sentence vectors joined with the papers' words, labels
from class-based TF-IDF over key phrases.

The sentence vectors alone made topics that matched the papers' fields worse than k-means on plain
TF-IDF did (bench/analyze.py: NMI 0.25 against 0.34 on the 11.5k-paper library). Each paper is
therefore clustered (and placed on the map) by its sentence vector beside a latent-semantic vector of
its words (TF-IDF reduced by truncated SVD), the two of equal weight.

Deterministic: the papers are taken in id order and every random state is fixed, so the same library
gives the same topics and the same map. Papers that come later are placed among the topics there are
(`place`) until they are PLACE_SHARE of those the topics were made of. The number of topics, unless
asked for, is the candidate count around sqrt(n / 2) whose clusters have the highest silhouette
(cosine, on a fixed sample of at most SILHOUETTE_SAMPLE papers; bench/analyze.py prints the figures
beside purity and NMI against labelled papers). The map is t-SNE (scikit-learn, Barnes-Hut) up to
MAP_TSNE_LIMIT papers; beyond, where t-SNE takes minutes (bench/analyze.py), each topic is an island
(`_islands`): a PCA of every paper, drawn before, wrote the labels of a 60-topic map over each other.
"""

from __future__ import annotations

import contextlib
import io
import math
import re
from dataclasses import dataclass, field

import numpy as np

from paperscope.analyze import phrases
from paperscope.progress import Progress

SEED = 7
TSNE_ITERATIONS = 1_000  # scikit-learn's default max_iter, named here because progress counts to it
MAP_TSNE_LIMIT = 5_000
# Beyond it, a topic's island reaches this share of the way to the nearest other island's centre, with
# this percentage of its papers inside that radius.
ISLAND_REACH = 0.45
ISLAND_HELD = 90
LABEL_PHRASES = 3
KEYWORDS = 8
MAX_TOPICS = 60
COUNT_FACTORS = (0.25, 0.5, 0.75, 1.0, 1.5, 2.0)  # candidate counts: these times sqrt(n / 2), at most MAX_TOPICS
SILHOUETTE_SAMPLE = 3_000
MIN_TOPICS = 6  # fewer topics say nothing a reader does not know: a library of 51 papers got 2
MIN_TOPIC_SIZE = 2  # papers; a lone paper joins the nearest topic (one paper is no topic)
WORD_DIMENSIONS = 128  # of the words' latent-semantic vectors
WORD_FIT_SAMPLE = 20_000  # papers the words' model is fitted on (all are then transformed), bounding memory
WORD_CHUNK = 10_000  # papers transformed at a time
MIN_SHARE = 0.08  # a label phrase occurs in at least this share of its topic's papers
LONGER_PHRASE_WEIGHT = 2.0  # a two-word phrase counts three times, a three-word one five times
# Papers new since the topics were made (or gone), up to this share of those they were made of, are placed
# among them (`place`) rather than every topic being made again.
PLACE_SHARE = 0.05
# Below this many papers the topics are always made again: it takes seconds (5 s at 674 papers, most of it
# the t-SNE map), and the centre of a topic of a few papers places a new one poorly.
PLACE_FROM = 500
NEIGHBOURS = 10  # a placed paper's nearest papers in its topic, whose mean place is its own
# What each of a topic's key phrases found in a new paper's text adds to the cosine of its centre: on the
# tune half of bench/topic_placing.py, the papers given the topic the whole clustering gave them went
# from 0.647 (the centre alone) to 0.706 (0.01: 0.685, 0.03: 0.671).
KEY_PHRASE_WEIGHT = 0.02


@dataclass
class Topic:
    id: int
    label: str  # its most distinctive key phrases
    keywords: list[str]
    size: int


@dataclass
class Layout:
    topics: list[Topic]
    assignment: np.ndarray  # topic id per paper, in the order given
    xy: np.ndarray  # (n, 2) map coordinates in [0, 1]
    silhouettes: dict[int, float] = field(default_factory=dict)  # candidate count → silhouette, when chosen


def candidate_counts(n: int) -> list[int]:
    middle = math.sqrt(n / 2)
    least = min(MIN_TOPICS, max(2, n // 4))
    return sorted({max(least, min(MAX_TOPICS, n - 1, round(middle * f))) for f in COUNT_FACTORS})


def cluster(matrix: np.ndarray, texts: list[str], count: int | None = None, progress: Progress | None = None) -> Layout:
    """Topics and map positions for papers given by their vectors (rows) and texts, in a fixed order."""
    n = len(texts)
    if n < 3:
        return Layout([Topic(0, "all papers", [], n)] if n else [], np.zeros(n, dtype=int), np.full((n, 2), 0.5))
    counts = [min(count, n - 1)] if count else candidate_counts(n)
    steps, done = len(counts) + 1, 0  # each candidate count, then the labels (the map reports on its own)

    def step() -> None:
        nonlocal done
        done += 1
        if progress:
            progress("topics", done, steps)

    if progress:
        progress("topics", 0, steps)
    matrix = with_words(matrix, texts)
    silhouettes: dict[int, float] = {}
    assignments: dict[int, np.ndarray] = {}
    for k in counts:
        assignments[k] = _kmeans(matrix, k)
        if len(counts) > 1:
            silhouettes[k] = _silhouette(matrix, assignments[k])
        step()
    chosen = max(silhouettes, key=silhouettes.__getitem__) if silhouettes else counts[0]
    assignment = _by_size(assignments[chosen] if count else _small_ones_joined(matrix, assignments[chosen]))
    k = int(assignment.max()) + 1
    keywords = led_apart(label_phrases(texts, assignment, k))
    step()
    sizes = np.bincount(assignment, minlength=k)
    topics = [
        Topic(t, ", ".join(keywords[t][:LABEL_PHRASES]) or f"topic {t + 1}", keywords[t], int(sizes[t]))
        for t in range(k)
    ]
    xy = _layout(matrix, assignment, progress or (lambda stage, done, total: None))
    return Layout(topics, assignment, xy, silhouettes)


def place(
    matrix: np.ndarray,
    on_map: list[tuple[int, int, float, float]],
    keywords: dict[int, list[str]],
    new: list[int],
    texts: list[str],
) -> list[tuple[int, float, float]]:
    """(topic, x, y) for new papers (their rows of `matrix`, the sentence vectors, and their texts) among
    the papers on the map, (row, topic, x, y) each: the topic whose centre is nearest, each of its key
    phrases in the paper's text adding KEY_PHRASE_WEIGHT, at the mean place of its NEIGHBOURS papers
    nearest the new one. (The topics were clustered on the vectors joined with the texts' words,
    with_words, whose model is not kept: the key phrases stand in for it.)"""
    from scipy import sparse

    rows = np.array([row for row, *_ in on_map])
    topic_ids, members = np.unique([topic for _, topic, _, _ in on_map], return_inverse=True)
    xy = np.array([(x, y) for *_, x, y in on_map])
    # the topics' centres, summed through an indicator matrix: no copy of a million-row matrix
    indicator = sparse.csr_matrix((np.ones(len(rows)), (members, rows)), shape=(len(topic_ids), len(matrix)))
    centres = np.asarray(indicator @ matrix)
    centres /= np.maximum(np.linalg.norm(centres, axis=1, keepdims=True), 1e-9)
    vectors = matrix[new]
    phrases_in = np.array(
        [
            [sum(phrase in text for phrase in keywords.get(int(t), [])) for t in topic_ids]
            for text in map(str.lower, texts)
        ]
    ).reshape(len(new), len(topic_ids))
    chosen = np.argmax(vectors @ centres.T + KEY_PHRASE_WEIGHT * phrases_in, axis=1)
    places = np.empty((len(new), 2))
    for index in np.unique(chosen):
        in_topic, papers = np.flatnonzero(members == index), np.flatnonzero(chosen == index)
        nearest = np.argsort(-(vectors[papers] @ matrix[rows[in_topic]].T), axis=1, kind="stable")[:, :NEIGHBOURS]
        places[papers] = xy[in_topic][nearest].mean(axis=1)
    return [(int(topic_ids[c]), float(x), float(y)) for c, (x, y) in zip(chosen, places, strict=True)]


def with_words(matrix: np.ndarray, texts: list[str]) -> np.ndarray:
    """Each row (a unit sentence vector) joined with the unit latent-semantic vector of its text's
    words, the whole scaled back to unit length; the rows as given when the texts share too few words."""
    from sklearn.decomposition import TruncatedSVD
    from sklearn.feature_extraction.text import TfidfVectorizer

    step = max(1, len(texts) // WORD_FIT_SAMPLE)
    vectorizer = TfidfVectorizer(sublinear_tf=True, stop_words="english", min_df=2, max_features=50_000)
    try:
        fitted = vectorizer.fit_transform(texts[::step])
    except ValueError:  # no word occurs twice
        return matrix
    dimensions = min(WORD_DIMENSIONS, fitted.shape[0] - 1, fitted.shape[1] - 1)
    if dimensions < 2:
        return matrix
    svd = TruncatedSVD(dimensions, random_state=SEED).fit(fitted)
    # Filled a chunk at a time, in place: at 1M papers one more copy of the matrix is gigabytes.
    joined = np.empty((len(matrix), matrix.shape[1] + dimensions), dtype=np.float32)
    for start in range(0, len(texts), WORD_CHUNK):
        rows = joined[start : start + WORD_CHUNK]
        words = svd.transform(vectorizer.transform(texts[start : start + WORD_CHUNK]))
        words /= np.maximum(np.linalg.norm(words, axis=1, keepdims=True), 1e-9)
        rows[:, : matrix.shape[1]] = matrix[start : start + WORD_CHUNK]
        rows[:, matrix.shape[1] :] = words
        rows /= np.maximum(np.linalg.norm(rows, axis=1, keepdims=True), 1e-9)
    return joined


def _kmeans(matrix: np.ndarray, k: int) -> np.ndarray:
    from sklearn.cluster import MiniBatchKMeans  # imported here: a server that never clusters never loads it

    return MiniBatchKMeans(n_clusters=k, random_state=SEED, n_init=3, batch_size=2048).fit_predict(matrix)


def _small_ones_joined(matrix: np.ndarray, assignment: np.ndarray) -> np.ndarray:
    """The papers of clusters under MIN_TOPIC_SIZE moved to the nearest larger cluster's centre, and the
    clusters numbered 0, 1, … again (only when the count was not asked for)."""
    sizes = np.bincount(assignment)
    kept = np.flatnonzero(sizes >= MIN_TOPIC_SIZE)
    if len(kept) == 0:
        return np.zeros_like(assignment)
    centres = np.vstack([matrix[assignment == topic].mean(axis=0) for topic in kept])
    small = ~np.isin(assignment, kept)
    renumbered = np.searchsorted(kept, assignment)
    if small.any():
        renumbered[small] = np.argmax(matrix[small] @ centres.T, axis=1)
    return renumbered


def _by_size(assignment: np.ndarray) -> np.ndarray:
    """The topics numbered from the largest down (the map's legend counts 1, 2, … in that order)."""
    order = np.argsort(-np.bincount(assignment), kind="stable")
    return np.argsort(order, kind="stable")[assignment]


def _silhouette(matrix: np.ndarray, assignment: np.ndarray) -> float:
    from sklearn.metrics import silhouette_score

    if len(set(assignment.tolist())) < 2:
        return -1.0
    size = min(SILHOUETTE_SAMPLE, len(matrix))
    return float(silhouette_score(matrix, assignment, metric="cosine", sample_size=size, random_state=SEED))


def label_phrases(texts: list[str], assignment: np.ndarray, k: int) -> list[list[str]]:
    """Each topic's key phrases, most distinctive first: class-based TF-IDF (Grootendorst, BERTopic)
    over the papers that use a phrase — its share of the topic's papers against its share of the
    other papers — kept when at least MIN_SHARE of the topic's papers use it, longer phrases first."""
    from sklearn.feature_extraction.text import CountVectorizer

    vectorizer = CountVectorizer(analyzer=phrases.phrases, binary=True, min_df=2)
    try:
        used = vectorizer.fit_transform(texts).tocsc()
    except ValueError:  # no phrase occurs twice (a tiny library)
        return [[] for _ in range(k)]
    names = vectorizer.get_feature_names_out()
    lengths = np.array([1 + name.count(" ") for name in names])
    n = len(texts)
    sizes = np.bincount(assignment, minlength=k)
    per_topic = np.zeros((k, used.shape[1]))
    for topic in range(k):
        per_topic[topic] = np.asarray(used[assignment == topic].sum(axis=0)).ravel()
    everywhere = per_topic.sum(axis=0)
    found = []
    for topic in range(k):
        inside = per_topic[topic] / max(sizes[topic], 1)
        outside = (everywhere - per_topic[topic]) / max(n - sizes[topic], 1)
        lift = np.log((inside + 1 / n) / (outside + 1 / n))
        scores = inside * lift * (1 + LONGER_PHRASE_WEIGHT * (lengths - 1))
        scores[(inside < MIN_SHARE) | (per_topic[topic] < 2) | (lift <= 0)] = 0
        ranked = (str(names[j]) for j in np.argsort(-scores, kind="stable") if scores[j] > 0)
        found.append(phrases.distinct(ranked, KEYWORDS))
    return found


def led_apart(keywords: list[list[str]]) -> list[list[str]]:
    """Each topic's phrases (topics largest first), led, when its first phrase is in a larger topic's
    label, by its first one that is in none. The map names a topic by its first phrase: at 11.5k papers
    two topics were both "large language models"; the smaller is now led by what sets it apart
    ("in-context learning, large language models, prompt")."""
    taken: set[str] = set()
    led = []
    for found in keywords:
        if found and found[0] in taken and (lead := next((p for p in found if p not in taken), None)):
            found = [lead, *(p for p in found if p != lead)]
        taken.update(found[:LABEL_PHRASES])
        led.append(found)
    return led


def _layout(matrix: np.ndarray, assignment: np.ndarray, report: Progress) -> np.ndarray:
    from sklearn.manifold import TSNE

    n = len(matrix)
    report("map", 0, TSNE_ITERATIONS)
    if n <= MAP_TSNE_LIMIT:
        tsne = TSNE(
            n_components=2,
            perplexity=min(30.0, (n - 1) / 3),
            init="pca",
            random_state=SEED,
            metric="cosine",
            max_iter=TSNE_ITERATIONS,
            verbose=2,
        )
        # scikit-learn reports t-SNE's iterations only by printing them: its lines become progress.
        with contextlib.redirect_stdout(_Iterations(report)):
            xy = tsne.fit_transform(matrix)
    else:
        xy = _islands(matrix, assignment)
    report("map", TSNE_ITERATIONS, TSNE_ITERATIONS)
    low, high = xy.min(axis=0), xy.max(axis=0)
    return (xy - low) / np.where(high > low, high - low, 1)


def _islands(matrix: np.ndarray, assignment: np.ndarray) -> np.ndarray:
    """Each topic an island: its centre placed by t-SNE over the topics' centres (fast: they are at most
    MAX_TOPICS), its papers around it along the two main directions in which papers differ from their
    topic's centre (a PCA fitted on a sample, applied a chunk at a time: no copy of a large matrix),
    scaled to keep the island off its nearest neighbour's."""
    from sklearn.decomposition import PCA
    from sklearn.manifold import TSNE

    k = int(assignment.max()) + 1
    centres = np.vstack([matrix[assignment == t].mean(axis=0) for t in range(k)])
    centres /= np.maximum(np.linalg.norm(centres, axis=1, keepdims=True), 1e-9)
    if k < 3:
        places = np.zeros((k, 2)) if k == 1 else np.array([[0.0, 0.0], [1.0, 0.0]])
    else:
        places = TSNE(
            n_components=2, perplexity=min(30.0, (k - 1) / 3), init="pca", random_state=SEED, metric="cosine"
        ).fit_transform(centres)
    gaps = np.linalg.norm(places[:, None] - places[None], axis=2) + np.eye(k) * 1e9
    radius = ISLAND_REACH * gaps.min(axis=1) if k > 1 else np.ones(1)
    step = max(1, len(matrix) // WORD_FIT_SAMPLE)
    pca = PCA(n_components=2, random_state=SEED).fit(matrix[::step] - centres[assignment[::step]])
    xy = np.empty((len(matrix), 2))
    for start in range(0, len(matrix), WORD_CHUNK):
        rows = slice(start, start + WORD_CHUNK)
        xy[rows] = pca.transform(matrix[rows] - centres[assignment[rows]])
    for t in range(k):
        members = assignment == t
        reach = np.percentile(np.linalg.norm(xy[members], axis=1), ISLAND_HELD) if members.any() else 1.0
        xy[members] = places[t] + xy[members] * (radius[t] / max(reach, 1e-9))
    return xy


class _Iterations(io.TextIOBase):
    """A stdout that turns t-SNE's "[t-SNE] Iteration 250: ..." lines into ("map", 250, total) progress."""

    def __init__(self, report: Progress) -> None:
        self.report = report

    def write(self, text: str) -> int:
        for match in re.finditer(r"Iteration (\d+):", text):
            self.report("map", int(match.group(1)), TSNE_ITERATIONS)
        return len(text)
