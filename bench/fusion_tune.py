"""Choosing the fusion weights and the cut-off on the tune parts of bench/search_eval.py's sets (--seen:
also on the held-out parts earlier rounds had read; the shipped weights were chosen so).

    python bench/fusion_tune.py [--seen]

Each tune query's lexical hits and semantic neighbours are fetched once. A query's lexical weight
depends on its gate alone (fusion.gate: Chinese, some paper has every word, or not), so every
query is scored once per weight on the GRID, and any combination of per-gate weights is then a sum.
A combination qualifies when hybrid is at least lexical and at least semantic on every set; among
those, the best mean over the sets wins. The cut-off is the largest on CUTOFFS that costs no set
more than CUTOFF_LOSS. Held-out queries are loaded only with --seen: the held-out parts of these sets were
read in earlier rounds of tuning, so they no longer tell blind; bench/data/search_queries_fresh.json,
written afterwards and never tuned on, is the held-out set then (bench/search_eval.py's fresh_* sets).
"""

from __future__ import annotations

import argparse
import statistics
from collections import Counter
from dataclasses import replace

import eval_library  # type: ignore[import-not-found]
import numpy as np
from search_eval import K, LabelledSet, Query, load_sets  # type: ignore[import-not-found]

from paperscope.index import fusion, lexical
from paperscope.index.lexical import LexicalHit
from paperscope.library import Library

GRID = [round(0.1 * i, 1) for i in range(11)]
CUTOFFS = [0.0, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7]
CUTOFF_LOSS = 0.005


LONGS = [4, 6, 8, 10, 12, 14]  # where a query stops being keywords (fusion.LONG)
TUNED = ["known_en", "known_zh", "title", "seeds_en", "seeds_zh", "seeds_en_pooled", "seeds_zh_pooled"]


class Row:
    def __init__(
        self, labelled: LabelledSet, query: Query, found: list[LexicalHit], near: list[tuple[str, float]], text: str
    ) -> None:
        self.labelled, self.query, self.found, self.near, self.text = labelled, query, found, near, text

    def score(
        self, lexical_part: list[LexicalHit] | None, semantic_part: list | None, weights: fusion.Weights
    ) -> tuple[float, int]:
        ranked = fusion.combine(self.text, lexical_part, semantic_part, weights)
        return self.labelled.score([pid for pid, _, _ in ranked], self.query), len(ranked)


def fetch(library: Library, sets: list[LabelledSet], splits: tuple[str, ...]) -> list[Row]:
    rows = []
    for labelled in sets:
        for query in (q for q in labelled.queries if q.split in splits):
            parsed = lexical.parse(query.text)
            found, near = library.search_lists(query.text, parsed, K, enough=K)
            rows.append(Row(labelled, query, found or [], near or [], parsed.text))
    return rows


def means(rows: list[Row], value: dict[int, float]) -> dict[str, float]:
    by_set: dict[str, list[float]] = {}
    for i, row in enumerate(rows):
        by_set.setdefault(row.labelled.name, []).append(value[i])
    return {name: statistics.fmean(values) for name, values in by_set.items()}


def show(label: str, figures: dict[str, float]) -> None:
    print(f"  {label:<24}" + "  ".join(f"{name} {value:.3f}" for name, value in figures.items()))


def uniform(weight: float, cutoff: float = 0.0) -> fusion.Weights:
    return fusion.Weights(dict.fromkeys(fusion.GATES, weight), cutoff)


def best_choice(
    rows: list[Row], scores: np.ndarray, gates: list[str], floor: np.ndarray, names: list[str]
) -> tuple[tuple, dict[str, float], np.ndarray]:
    """Among every choice of a weight per gate: those with hybrid ≥ both parts on every set, then the best
    mean over the sets, then the widest worst margin. `scores[w, i]`: query i's score at GRID[w]."""
    counts = np.array([sum(r.labelled.name == n for r in rows) for n in names], dtype=float)
    # sums[g, w, s]: the summed scores of gate g's queries of set s, at weight GRID[w]
    sums = np.zeros((len(fusion.GATES), len(GRID), len(names)))
    for i, row in enumerate(rows):
        sums[fusion.GATES.index(gates[i]), :, names.index(row.labelled.name)] += scores[:, i]
    total = np.zeros((len(GRID),) * len(fusion.GATES) + (len(names),))
    for g in range(len(fusion.GATES)):
        shape = [1] * len(fusion.GATES) + [len(names)]
        shape[g] = len(GRID)
        total = total + sums[g].reshape(shape)
    figures = total / counts
    # rounded: at a weight of 1 hybrid is lexical, and the two means, summed in another order, differ by ~1e-16
    margin = np.round((figures - floor).min(axis=-1), 9)
    mean = np.round(figures.mean(axis=-1), 4)
    key = np.where(margin >= 0, 10.0, 0.0) + mean + margin * 1e-5
    at = np.unravel_index(int(np.argmax(key)), margin.shape)
    weights = {gate: GRID[w] for gate, w in zip(fusion.GATES, at, strict=True)}
    return (bool(margin[at] >= 0), float(mean[at]), float(margin[at])), weights, figures[at]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--seen",
        action="store_true",
        help="tune on the held-out parts too: read in earlier rounds, they are no longer blind (the fresh set is)",
    )
    args = parser.parse_args()
    splits = ("tune", "held_out") if args.seen else ("tune",)
    with Library(eval_library.path()) as library:
        library.warm()
        rows = fetch(library, load_sets(library, TUNED), splits)
    names = list(dict.fromkeys(r.labelled.name for r in rows))
    lexical_alone = means(rows, {i: r.score(r.found, None, uniform(0.5))[0] for i, r in enumerate(rows)})
    semantic_alone = means(rows, {i: r.score(None, r.near, uniform(0.5))[0] for i, r in enumerate(rows)})
    floor = np.array([max(lexical_alone[n], semantic_alone[n]) for n in names])
    print(f"{len(rows)} queries ({' and '.join(splits)} parts)")
    show("lexical", lexical_alone)
    show("semantic", semantic_alone)
    show(
        "hybrid, shipped weights",
        means(rows, {i: r.score(r.found, r.near, fusion.WEIGHTS)[0] for i, r in enumerate(rows)}),
    )
    scores = np.array([[r.score(r.found, r.near, uniform(w))[0] for r in rows] for w in GRID])
    best = None
    for long_from in LONGS:
        gates = [fusion.gate(r.text, r.found, long_from) for r in rows]
        key, weights, figures = best_choice(rows, scores, gates, floor, names)
        print(f"long from {long_from:>2} words: {key}, {weights}; per gate {dict(Counter(gates))}")
        if best is None or key > best[0]:
            best = (key, long_from, weights, figures)
    assert best is not None
    (qualifies, mean, margin), long_from, weights, figures = best
    print(
        f"\nchosen: long from {long_from} words, {weights}: hybrid ≥ both parts on every set: {qualifies}; "
        f"mean {mean:.3f}, worst margin {margin:+.3f}"
    )
    show("hybrid, chosen", dict(zip(names, figures, strict=True)))
    print("\ncut-off: median results per query, worst loss over the sets")
    chosen_cutoff = 0.0
    chosen = fusion.Weights(weights, 0.0)
    fusion.LONG = long_from  # the gate's threshold, as shipping it would set it
    for cutoff in CUTOFFS:
        scored = [r.score(r.found, r.near, replace(chosen, cutoff=cutoff)) for r in rows]
        cut = means(rows, {i: s for i, (s, _) in enumerate(scored)})
        loss = max(f - cut[n] for n, f in zip(names, figures, strict=True))
        if loss <= CUTOFF_LOSS:
            chosen_cutoff = cutoff
        show(f"{cutoff:.1f}: {statistics.median(n for _, n in scored):4.0f} results, -{loss:.3f}", cut)
    print(f"\nchosen cut-off {chosen_cutoff}")


if __name__ == "__main__":
    main()
