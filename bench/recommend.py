"""Recommendations beside baselines, side by side: precision@5 and @10 on topic-tag tests.

    python bench/recommend.py [--library FILE]

On the evaluation library (bench/eval_library.py, ~11.5k papers; a copy). A topic is the papers
whose title holds a key phrase ("point cloud", "machine translation"). A reader tags TAGGED of
them (3 or 5, drawn at random; TRIALS draws each); the rest of the topic is hidden among the other
papers. precision@k = the share of the first k suggestions that are hidden papers of the topic — a
lower bound, as a paper on the topic without the phrase in its title counts as a miss. The phrases
are split in two: DEVELOPMENT (looked at while tuning) and HELD_OUT (never looked at while tuning).
Compared: paperscope's recommender (logistic regression on sentence vectors, then on sentence
vectors and TF-IDF words for the first 1,000), its first stage alone, the nearest-neighbour
baseline (the highest cosine to any tagged paper) and TF-IDF cosine to the tagged papers' centroid.
Then negative feedback: the first suggestions that are not on the topic are marked not relevant
and the suggestions asked for again.
"""

from __future__ import annotations

import random
import re
import statistics
from collections.abc import Callable

import numpy as np
from library_copy import eval_library_copy

from paperscope.analyze.recommend import recommend
from paperscope.index import semantic

DEVELOPMENT = [
    "point cloud",
    "machine translation",
    "reinforcement learning",
    "question answering",
    "object detection",
    "pose estimation",
]
HELD_OUT = [
    "semantic segmentation",
    "dialogue",
    "optical flow",
    "adversarial",
    "bandit",
    "super-resolution",
    "named entity",
    "motion planning",
]
TAGGED = (3, 5)
TRIALS = 1
DISMISSED = 3  # off-topic suggestions marked not relevant in the feedback round
Method = Callable[[list[str], list[str]], list[str]]  # (tagged, not relevant) → 10 suggestions


def methods(vectors: semantic.Vectors, texts: dict[str, str]) -> dict[str, Method]:
    from sklearn.feature_extraction.text import TfidfVectorizer

    words = TfidfVectorizer(sublinear_tf=True, stop_words="english", min_df=2).fit_transform(
        [texts[pid] for pid in vectors.ids]
    )

    def text_of(ids: list[str]) -> list[str]:
        return [texts[i] for i in ids]

    def ours(tagged: list[str], dismissed: list[str]) -> list[str]:
        return [s.paper_id for s in recommend(vectors, tagged, 10, texts=text_of, disliked=dismissed)]

    def first_stage(tagged: list[str], dismissed: list[str]) -> list[str]:
        return [s.paper_id for s in recommend(vectors, tagged, 10, disliked=dismissed)]

    def nearest(tagged: list[str], _: list[str]) -> list[str]:
        rows = [vectors.position[p] for p in tagged]
        scores = (vectors.matrix @ vectors.matrix[rows].T).max(axis=1)
        scores[rows] = -np.inf
        return [vectors.ids[i] for i in np.argsort(-scores)[:10]]

    def tfidf(tagged: list[str], _: list[str]) -> list[str]:
        rows = [vectors.position[p] for p in tagged]
        scores = np.asarray(words @ np.asarray(words[rows].mean(axis=0)).ravel()).ravel()
        scores[rows] = -np.inf
        return [vectors.ids[i] for i in np.argsort(-scores)[:10]]

    return {"paperscope": ours, "vectors only": first_stage, "nearest (baseline)": nearest, "TF-IDF": tfidf}


def run(phrases: list[str], titles: dict[str, str], compared: dict[str, Method]) -> None:
    rng = random.Random(4)
    header = "".join(f"{name:>20}" for name in compared)
    print(f"  {'topic (title holds)':<22} {'papers':>6} {'tagged':>6}{header}   (precision@5 / @10)")
    totals: dict[str, list[tuple[float, float]]] = {name: [] for name in compared}
    feedback: list[tuple[float, float]] = []
    for phrase in phrases:
        pattern = re.compile(rf"\b{re.escape(phrase)}", re.IGNORECASE)
        topic = sorted(pid for pid, title in titles.items() if pattern.search(title))
        if len(topic) < 20:
            print(f"  {phrase:<22} {len(topic):>6}  (too few papers; skipped)")
            continue
        for size in TAGGED:
            scores: dict[str, list[tuple[float, float]]] = {name: [] for name in compared}
            for _ in range(TRIALS):
                tagged = rng.sample(topic, size)
                hidden = set(topic) - set(tagged)
                for name, method in compared.items():
                    found = method(tagged, [])
                    scores[name].append((sum(p in hidden for p in found[:5]) / 5, sum(p in hidden for p in found) / 10))
                    if name == "paperscope":
                        dismissed = [p for p in found if p not in hidden][:DISMISSED]
                        again = list(method(tagged, dismissed))
                        feedback.append((scores[name][-1][1], sum(p in hidden for p in again) / 10))
            cells = ""
            for name in compared:
                at5, at10 = statistics.mean(s[0] for s in scores[name]), statistics.mean(s[1] for s in scores[name])
                totals[name].append((at5, at10))
                cells += f"{at5:>13.2f} / {at10:.2f}"
            print(f"  {phrase:<22} {len(topic):>6} {size:>6}{cells}")
    means = {n: (statistics.mean(t[0] for t in totals[n]), statistics.mean(t[1] for t in totals[n])) for n in compared}
    cells = "".join(f"{at5:>13.3f} / {at10:.2f}" for at5, at10 in means.values())
    print(f"  {'mean':<22} {'':>6} {'':>6}{cells}")
    before, after = statistics.mean(f[0] for f in feedback), statistics.mean(f[1] for f in feedback)
    print(
        f"  negative feedback: {DISMISSED} off-topic suggestions marked not relevant → paperscope precision@10"
        f" {before:.3f} → {after:.3f} (over {len(feedback)} trials)"
    )


def main() -> None:
    with eval_library_copy() as library:
        vectors = library.vectors()
        papers = [p for p in library.papers() if p.id in vectors.position]
        titles = {p.id: p.title or p.display_title for p in papers}
        texts = {p.id: semantic.text_of(p) for p in papers}
        compared = methods(vectors, texts)
        print(f"{len(vectors):,} papers; a reader tags 3 or 5 papers of a topic, {TRIALS} draws each")
        print("development phrases (looked at while tuning):")
        run(DEVELOPMENT, titles, compared)
        print("held-out phrases (never looked at while tuning):")
        run(HELD_OUT, titles, compared)


if __name__ == "__main__":
    main()
