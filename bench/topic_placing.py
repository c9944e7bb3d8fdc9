"""Papers placed among the topics there are, against the topics made again with them, and the time of each.

    python bench/topic_placing.py [--library FILE]

An ingest that adds a few papers to a library with topics places each among them (topic_model.place:
the nearest topic centre, each of the topic's key phrases in the paper's text adding KEY_PHRASE_WEIGHT)
instead of clustering the whole library again. Measured on a copy of the
evaluation library (bench/eval_library.py, ~11.5k papers): its topics are made whole, then 5% of its
papers, drawn with a fixed seed, are taken off the map and placed again as new papers would be. A
placed paper agrees when it gets the topic the clustering of the whole library gave it. The drawn papers
are split in two halves by that seed: "tune", the half rules may be chosen on, and "held-out".

Beside paperscope's rule, in the same run and from the same vectors: the topic of the nearest paper
alone, the vote of the K nearest papers (each its cosine), and the plain baseline, the topic whose centre
(mean sentence vector of its papers) is nearest.
Time: making the topics whole (`Library.analyze`) against placing the drawn papers (`_topics_in_step`).
"""

from __future__ import annotations

import random
import time

import numpy as np
from library_copy import eval_library_copy

from paperscope.analyze import topics as topic_model
from paperscope.library import TOPICS_PLACED, Library

SHARE = 0.05
SEED = 11
VOTERS = (5, 10, 20, 40)  # the nearest papers whose topics, weighted by their cosine, vote


def agreement(found: dict[str, int], truth: dict[str, int], papers: list[str]) -> float:
    return sum(found[p] == truth[p] for p in papers) / len(papers)


def by_rule(library: Library, drawn: list[str], truth: dict[str, int]) -> dict[str, dict[str, int]]:
    """Each rule's topic for the drawn papers, from the other papers' vectors and topics."""
    vectors = library.vectors()
    taken = set(drawn)
    rest = np.array([i for i, pid in enumerate(vectors.ids) if pid not in taken])
    rest_topics = np.array([truth[vectors.ids[i]] for i in rest])
    matrix = vectors.matrix[rest]
    centres = np.vstack([matrix[rest_topics == t].mean(axis=0) for t in range(rest_topics.max() + 1)])
    centres /= np.linalg.norm(centres, axis=1, keepdims=True)
    found: dict[str, dict[str, int]] = {"nearest paper": {}, "nearest centre (baseline)": {}}
    found.update({f"{k} nearest papers' vote": {} for k in VOTERS})
    for pid in drawn:
        vector = vectors.matrix[vectors.position[pid]]
        similarities = matrix @ vector
        found["nearest paper"][pid] = int(rest_topics[int(np.argmax(similarities))])
        found["nearest centre (baseline)"][pid] = int(np.argmax(centres @ vector))
        for k in VOTERS:
            nearest = np.argpartition(-similarities, k)[:k]
            votes = np.bincount(rest_topics[nearest], weights=similarities[nearest], minlength=len(centres))
            found[f"{k} nearest papers' vote"][pid] = int(np.argmax(votes))
    return found


def main() -> None:
    with eval_library_copy() as library:
        started = time.perf_counter()
        library.analyze()
        whole = time.perf_counter() - started
        truth = {pid: topic for pid, _, topic, _, _ in library.map_points()}
        ids = sorted(truth)
        drawn = random.Random(SEED).sample(ids, round(SHARE * len(ids)) - 1)  # within the share placed
        halves = {"tune": drawn[: len(drawn) // 2], "held-out": drawn[len(drawn) // 2 :]}
        rules = by_rule(library, drawn, truth)
        library.store._run(f"DELETE FROM paper_topics WHERE paper_id IN ({', '.join('?' * len(drawn))})", drawn)
        library.store.set_fact(TOPICS_PLACED, "0")
        started = time.perf_counter()
        library._topics_in_step(None)
        placing = time.perf_counter() - started
        rules = {"paperscope (placed)": {pid: topic for pid, _, topic, _, _ in library.map_points()}, **rules}
        print(f"{len(ids)} papers, {len(library.topics())} topics; {len(drawn)} papers placed again")
        print(f"{'rule':28} {'tune':>7} {'held-out':>9}")
        for name, found in rules.items():
            tune, held = (agreement(found, truth, half) for half in halves.values())
            print(f"{name:28} {tune:7.3f} {held:9.3f}")
        print(f"topics made whole: {whole:.1f} s; {len(drawn)} papers placed: {placing:.2f} s ({whole / placing:.0f}x)")
        print(f"key phrase weight: {topic_model.KEY_PHRASE_WEIGHT}")


if __name__ == "__main__":
    main()
