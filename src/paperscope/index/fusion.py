"""Fusing the lexical and semantic lists into one ranking: a convex combination of normalised scores.

Each list's scores are put on [0, 1] within the list (BM25 divided by the list's best score; cosines
min-max scaled), and a paper's fused score is LEXICAL_WEIGHT × its lexical part + the rest × its
semantic part (0 for a list it is not in). Reciprocal rank fusion (k = 60) was measured beside it
and lost on both evaluations, because it throws away how far ahead a list's first hit is: nDCG@10
on the seed queries 0.842 vs 0.853, known-item MRR@10 0.812 vs 0.892 (bench/search_quality.py,
bench/known_item.py; the weight was chosen on the seed queries and the first 600 known-item queries).
"""

from __future__ import annotations

LEXICAL_WEIGHT = 0.6


def _normalised(ranked: list[tuple[str, float]], scale_from_zero: bool) -> dict[str, float]:
    if not ranked:
        return {}
    best = ranked[0][1]
    low = 0.0 if scale_from_zero else ranked[-1][1]
    span = best - low
    return {pid: (score - low) / span if span > 0 else 1.0 for pid, score in ranked}


def fuse(lists: dict[str, list[tuple[str, float]]]) -> list[tuple[str, float, dict[str, float]]]:
    """(id, fused score, parts) best first, from lists of (id, score) each best first.

    With one list, its own scores are kept. The parts name each list's score and the rank in it.
    """
    parts: dict[str, dict[str, float]] = {}
    for name, ranked in lists.items():
        for rank, (pid, score) in enumerate(ranked, start=1):
            parts.setdefault(pid, {}).update({name: round(score, 4), f"{name}_rank": rank})
    if len(lists) == 1:
        ranked = next(iter(lists.values()))
        return [(pid, score, parts[pid]) for pid, score in ranked]
    lexical = _normalised(lists.get("lexical", []), scale_from_zero=True)
    semantic = _normalised(lists.get("semantic", []), scale_from_zero=False)
    fused = {pid: LEXICAL_WEIGHT * lexical.get(pid, 0.0) + (1 - LEXICAL_WEIGHT) * semantic.get(pid, 0.0)
             for pid in parts}  # fmt: skip
    return [(pid, fused[pid], parts[pid]) for pid in sorted(parts, key=lambda pid: -fused[pid])]
