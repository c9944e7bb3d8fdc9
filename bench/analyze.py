"""Topics on labelled papers (purity, NMI) beside baselines, and the time of topics, map and related.

    python bench/analyze.py [--library FILE]  # quality: the 51 seeds and the ~11.5k-paper evaluation library
    python bench/analyze.py --timing          # time at ~12.6k and ~92k papers

Quality on the seeds: purity against bench/data/seed_topics.json (9 topics, by reading).
Quality at scale, on the evaluation library (bench/eval_library.py; a copy, never the cached file):
every paper gets a coarse field from where it was published — ML (ICML, NeurIPS, ICLR, AISTATS,
UAI, the seeds), NLP (ACL, NAACL, COLM), vision (CVPR, ECCV), robotics (CoRL, ICRA) — and AAAI
papers from their own primary area (vision, NLP, ML, robotics, or "other AI"). Purity and NMI of
the topics against these fields, on a development half (by paper id) and a held-out half, for:
paperscope's topics (count chosen by silhouette), k-means on the vectors with the old count
sqrt(n / 2), and k-means on TF-IDF words with paperscope's count (the plain baseline). Also: the
silhouette and NMI of every candidate count, and two figures on the labels — the share that are
phrases of two or three words, and the share of papers that use one of their topic's label phrases.
Time: clustering + labels + map, and related-paper latency (p50 over 200 papers), on libraries of
the corpus. Vectors: the newest ~12.6k papers are embedded for real; the whole corpus (92.5k) gets
those vectors repeated with a little noise. Targets at ~100k on 2 cores: map + topics ≤ 120 s,
related p50 ≤ 30 ms.
"""

from __future__ import annotations

import gzip
import json
import math
import random
import statistics
import sys
import tempfile
import time
import zlib
from collections import Counter
from pathlib import Path

import numpy as np
from eval_library import SHARED
from library_copy import eval_library_copy
from sklearn.metrics import normalized_mutual_info_score

from paperscope.analyze import phrases
from paperscope.analyze import topics as topic_model
from paperscope.index import semantic
from paperscope.library import Library

HERE = Path(__file__).resolve().parent
FIELDS = {
    "icml": "ML",
    "nips": "ML",
    "iclr": "ML",
    "aistats": "ML",
    "uai": "ML",
    "acl": "NLP",
    "naacl": "NLP",
    "colm": "NLP",
    "cvpr": "vision",
    "eccv": "vision",
    "corl": "robotics",
    "icra": "robotics",
}
AAAI_AREAS = {
    "Computer Vision": "vision",
    "Speech and Natural Language": "NLP",
    "Machine Learning": "ML",
    "Intelligent Robotics": "robotics",
}


def purity(assignment: list[int], labels: list[str]) -> float:
    by_topic: dict[int, Counter] = {}
    for topic, label in zip(assignment, labels, strict=True):
        by_topic.setdefault(topic, Counter())[label] += 1
    return sum(c.most_common(1)[0][1] for c in by_topic.values()) / len(labels)


def seed_purity() -> None:
    named = json.loads((HERE / "data" / "seed_topics.json").read_text(encoding="utf-8"))["topics"]
    labels = {pid: topic for topic, ids in named.items() for pid in ids}
    with tempfile.TemporaryDirectory() as tmp, Library(Path(tmp) / "seeds.db") as library:
        library.ingest([SHARED / "seeds"])
        figures = []
        for count in (None, 9):
            found = library.analyze(count)
            by_label = {t.label: t.id for t in found}
            papers = list(library.papers())
            assignment = [by_label[p.topics[0]] for p in papers]
            truth = [labels[p.id] for p in papers]
            figures.append(
                f"{len(found)} topics: purity {purity(assignment, truth):.3f},"
                f" NMI {normalized_mutual_info_score(truth, assignment):.3f}"
            )
    print("51 seeds (9 topics by reading) — automatic count:", figures[0], "| asked for 9:", figures[1])


def aaai_areas() -> dict[str, str]:
    """AAAI 2022 title (lower case) → coarse field from its primary area."""
    items = json.loads(gzip.decompress((SHARED / "corpus" / "paperlists" / "aaai2022.json.gz").read_bytes()))
    found = {}
    for item in items:
        area = item.get("primary_area") or ""
        field = next((f for a, f in AAAI_AREAS.items() if area.startswith(a)), "other AI")
        found[item["title"].strip().lower()] = field
    return found


def field_of(paper, aaai: dict[str, str]) -> str | None:  # type: ignore[no-untyped-def]
    source = paper.sources[0].path.lower()
    if source.startswith("aaai"):
        return aaai.get((paper.title or "").strip().lower())
    if source.endswith((".html", ".txt", ".md")):  # the seed pages (ICML 2026)
        return "ML"
    return next((f for prefix, f in FIELDS.items() if source.startswith(prefix)), None)


def tfidf_kmeans(texts: list[str], k: int) -> np.ndarray:
    from sklearn.cluster import MiniBatchKMeans
    from sklearn.feature_extraction.text import TfidfVectorizer

    words = TfidfVectorizer(sublinear_tf=True, stop_words="english", min_df=2, max_features=50_000).fit_transform(texts)
    return MiniBatchKMeans(n_clusters=k, random_state=topic_model.SEED, n_init=3, batch_size=2048).fit_predict(words)


def old_count(n: int) -> int:
    """The topic count paperscope chose before it chose by silhouette: sqrt(n / 2)."""
    return max(2, min(topic_model.MAX_TOPICS, round(math.sqrt(n / 2))))


def label_figures(layout: topic_model.Layout, texts: list[str]) -> str:
    chosen = [t.label.split(", ") for t in layout.topics]
    phrases_shown = [p for label in chosen for p in label if not p.startswith("topic ")]
    longer = sum(" " in p for p in phrases_shown) / max(len(phrases_shown), 1)
    covered = sum(
        bool(set(chosen[t]) & set(phrases.phrases(text))) for t, text in zip(layout.assignment, texts, strict=True)
    )
    return (
        f"labels: {len(phrases_shown)} phrases, {longer:.0%} of two or three words;"
        f" {covered / len(texts):.0%} of papers use one of their topic's label phrases"
    )


def scale_quality() -> None:
    with eval_library_copy() as library:
        vectors = library.vectors()
        order = sorted(range(len(vectors)), key=vectors.ids.__getitem__)
        ids = [vectors.ids[i] for i in order]
        papers = [library.paper(pid) for pid in ids]
        matrix = vectors.matrix[order]
        aaai = aaai_areas()
        fields = [field_of(p, aaai) for p in papers]
        texts = [semantic.text_of(p) for p in papers]
        started = time.perf_counter()
        layout = topic_model.cluster(matrix, texts)
        took = time.perf_counter() - started
        k = len(layout.topics)
        labelled = [i for i, f in enumerate(fields) if f]
        halves = {
            name: [i for i in labelled if zlib.crc32(ids[i].encode()) % 2 == side]
            for side, name in ((0, "development"), (1, "held out"))
        }
        print(
            f"\nevaluation library: {len(ids):,} papers, {len(labelled):,} with a field"
            f" ({', '.join(f'{f} {n:,}' for f, n in Counter(f for f in fields if f).most_common())})"
        )
        print(
            f"paperscope topics + map in {took:.0f} s (loaded machine);"
            " candidate counts (silhouette, NMI on development):"
        )
        points = topic_model.with_words(matrix, texts)
        for count, score in layout.silhouettes.items():
            assignment = topic_model._kmeans(points, count)
            dev = halves["development"]
            nmi = normalized_mutual_info_score([fields[i] for i in dev], [int(assignment[i]) for i in dev])
            mark = "  ← chosen" if count == k else ""
            print(f"  {count:>3} topics: silhouette {score:.4f}, NMI {nmi:.3f}{mark}")
        compared = {
            f"paperscope ({k} topics, by silhouette)": layout.assignment,
            f"old count sqrt(n/2) ({old_count(len(ids))} topics)": topic_model._kmeans(points, old_count(len(ids))),
            f"sentence vectors alone ({k} topics, before)": topic_model._kmeans(matrix, k),
            f"TF-IDF k-means ({k} topics, baseline)": tfidf_kmeans(texts, k),
        }
        print(f"  {'':<44} {'development':>22}  {'held out':>22}")
        print(f"  {'':<44} {'purity':>10} {'NMI':>11}  {'purity':>10} {'NMI':>11}")
        for name, assignment in compared.items():
            row = []
            for half in halves.values():
                truth, found = [fields[i] for i in half], [int(assignment[i]) for i in half]
                row += [f"{purity(found, truth):>10.3f}", f"{normalized_mutual_info_score(truth, found):>11.3f}"]
            print(f"  {name:<44} {row[0]} {row[1]}  {row[2]} {row[3]}")
        print(" ", label_figures(layout, texts))
        for topic in sorted(layout.topics, key=lambda t: -t.size)[:12]:
            print(f"    {topic.size:>5}  {topic.label}")


def timing(library: Library, label: str) -> None:
    started = time.perf_counter()
    found = library.analyze()
    took = time.perf_counter() - started
    ids = random.Random(1).sample(library.vectors().ids, 200)
    times = []
    for paper_id in ids:
        began = time.perf_counter()
        library.related(paper_id, 10)
        times.append(time.perf_counter() - began)
    print(
        f"  {label}: {library.count():,} papers → {len(found)} topics + map in {took:.1f} s;"
        f" related p50 {statistics.median(times) * 1000:.1f} ms, p95 {sorted(times)[189] * 1000:.1f} ms"
    )


def fill_with_noise(library: Library, source: semantic.Vectors) -> None:
    rng = np.random.default_rng(0)
    while missing := library.store.missing_vectors(5_000):
        rows = source.matrix[rng.integers(0, len(source), len(missing))]
        rows = rows + rng.normal(0, 0.02, rows.shape).astype(np.float32)
        rows /= np.linalg.norm(rows, axis=1, keepdims=True)
        with library.store.transaction():
            library.store.put_vectors(
                (pid, digest, semantic.to_blob(v)) for (pid, digest, _), v in zip(missing, rows, strict=True)
            )


def time_at_scale() -> None:
    files = sorted((SHARED / "corpus" / "paperlists").iterdir())
    print("time (2 cores):")
    with tempfile.TemporaryDirectory() as tmp:
        with Library(Path(tmp) / "sample.db") as library:
            library.ingest(files[-60:])
            timing(library, "sample")
            sample = library.vectors()
        with Library(Path(tmp) / "all.db") as library:
            library.ingest(files, embed_vectors=False)
            fill_with_noise(library, sample)
            timing(library, "whole corpus")


def main() -> None:
    if "--timing" in sys.argv:
        time_at_scale()
        return
    seed_purity()
    scale_quality()


if __name__ == "__main__":
    main()
