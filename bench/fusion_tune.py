"""Choosing the fusion weights and the cut-off on the tune parts of bench/search_eval.py's sets only.

    python bench/fusion_tune.py

Each tune query's lexical hits and semantic neighbours are fetched once. A query's lexical weight
depends on its gate alone (fusion.gate: Chinese, some paper has every word, or not), so every
query is scored once per weight on the GRID, and any combination of per-gate weights is then a sum.
A combination qualifies when hybrid is at least lexical and at least semantic on every set; among
those, the best mean over the sets wins. The cut-off is the largest on CUTOFFS that costs no set
more than CUTOFF_LOSS. Held-out queries are never loaded.
"""

from __future__ import annotations

import itertools
import statistics
from dataclasses import replace

import eval_library  # type: ignore[import-not-found]
from search_eval import K, LabelledSet, Query, load_sets  # type: ignore[import-not-found]

from paperscope.index import fusion, lexical
from paperscope.index.lexical import LexicalHit
from paperscope.library import Library

GRID = [round(0.1 * i, 1) for i in range(11)]
CUTOFFS = [0.0, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7]
CUTOFF_LOSS = 0.005
GATES = ("every", "some", "chinese")


class Row:
    def __init__(
        self, labelled: LabelledSet, query: Query, found: list[LexicalHit], near: list[tuple[str, float]], text: str
    ) -> None:
        self.labelled, self.query, self.found, self.near, self.text = labelled, query, found, near, text
        self.gate = fusion.gate(text, found)

    def score(
        self, lexical_part: list[LexicalHit] | None, semantic_part: list | None, weights: fusion.Weights
    ) -> tuple[float, int]:
        ranked = fusion.combine(self.text, lexical_part, semantic_part, weights)
        return self.labelled.score([pid for pid, _, _ in ranked], self.query), len(ranked)


def fetch(library: Library, sets: list[LabelledSet]) -> list[Row]:
    rows = []
    for labelled in sets:
        for query in (q for q in labelled.queries if q.split == "tune"):
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
    print(f"  {label:<22}" + "  ".join(f"{name} {value:.3f}" for name, value in figures.items()))


def main() -> None:
    with Library(eval_library.path()) as library:
        library.warm()
        rows = fetch(library, load_sets(library, ["known_en", "known_zh", "title", "seeds_en", "seeds_zh"]))
    base = fusion.Weights(0.5, 0.5, 0.5, 0.0)
    lexical_alone = means(rows, {i: r.score(r.found, None, base)[0] for i, r in enumerate(rows)})
    semantic_alone = means(rows, {i: r.score(None, r.near, base)[0] for i, r in enumerate(rows)})
    floor = {name: max(lexical_alone[name], semantic_alone[name]) for name in lexical_alone}
    print(f"{len(rows)} tune queries; per gate: { ({g: sum(r.gate == g for r in rows) for g in GATES}) }")
    show("lexical", lexical_alone)
    show("semantic", semantic_alone)
    show(
        "hybrid, shipped weights",
        means(rows, {i: r.score(r.found, r.near, fusion.WEIGHTS)[0] for i, r in enumerate(rows)}),
    )
    # per query, its score for each weight of its own gate
    by_weight = {
        w: {i: r.score(r.found, r.near, fusion.Weights(w, w, w, 0.0))[0] for i, r in enumerate(rows)} for w in GRID
    }
    best = None
    for choice in itertools.product(GRID, repeat=len(GATES)):
        weight_of = dict(zip(GATES, choice, strict=True))
        figures = means(rows, {i: by_weight[weight_of[r.gate]][i] for i, r in enumerate(rows)})
        margin = min(figures[n] - floor[n] for n in figures)
        key = (margin >= 0, round(statistics.fmean(figures.values()), 4), margin)
        if best is None or key > best[0]:
            best = (key, fusion.Weights(*choice, cutoff=0.0), figures)
    assert best is not None
    (qualifies, mean, margin), weights, figures = best
    print(
        f"\nchosen {weights}: hybrid ≥ both parts on every set: {qualifies}; "
        f"mean {mean:.3f}, worst margin {margin:+.3f}"
    )
    show("hybrid, chosen", figures)
    print("\ncut-off: median results per query, worst loss over the sets")
    chosen_cutoff = 0.0
    for cutoff in CUTOFFS:
        scored = [r.score(r.found, r.near, replace(weights, cutoff=cutoff)) for r in rows]
        cut = means(rows, {i: s for i, (s, _) in enumerate(scored)})
        loss = max(figures[n] - cut[n] for n in figures)
        if loss <= CUTOFF_LOSS:
            chosen_cutoff = cutoff
        show(f"{cutoff:.1f}: {statistics.median(n for _, n in scored):4.0f} results, -{loss:.3f}", cut)
    print(f"\nchosen cut-off {chosen_cutoff}")


if __name__ == "__main__":
    main()
