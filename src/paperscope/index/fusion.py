"""Fusing the lexical and semantic lists into one ranking, and where that ranking ends.

Each list's scores are put on [0, 1] within the list (BM25 divided by the list's best score; cosines
min-max scaled), and a paper's fused score is w × its lexical part + (1 − w) × its semantic part
(0 for a list it is not in). The lexical weight w is gated by how strong the lexical evidence is:
some paper has every word of the query; papers have only some of its words; the query is Chinese
(its character bigrams rarely match an English abstract). Reciprocal rank fusion was measured
beside a convex combination and lost, because it throws away how far ahead a list's first hit is.
The weights and the cut-off were chosen on the tune parts of bench/search_eval.py's sets only
(bench/fusion_tune.py: 462 queries over 11.5k papers; the held-out parts were not looked at), as the
best mean over the sets among the weights with which hybrid is at least lexical and at least
semantic on every set: every word 0.8; some words 1.0 (for a description with no every-word match,
the sentence encoder added nothing to BM25 over its words: known-item MRR@10 0.970 either way);
Chinese 0.7, with the query translated for the lexical side (index/translate.py): known-item
MRR@10 0.940, lexical 0.863, semantic 0.700; seed queries nDCG@10 0.646, lexical 0.641.

A search's results end where the evidence ends: every paper with every word of the query, and
the papers whose fused score is at least `cutoff` × the best one. Beyond that lies the semantic
tail of the whole library, which a user would read as matches. 0.4 cost no tune set anything
(median results per query 183 -> 4). With translation, cut-offs up to 0.6 cost nothing either, but
these sets only judge the first ten results: 0.6 leaves a median of one result, which would hide
papers a reader wants, so the cut-off stays 0.4.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from paperscope.index.lexical import CJK, LexicalHit


@dataclass(frozen=True)
class Weights:
    every: float  # lexical weight when some paper has every word of the query
    some: float  # when papers have only some of its words
    chinese: float  # when the query is written in CJK characters
    cutoff: float  # results: every-word papers, and those fused within this fraction of the best


WEIGHTS = Weights(every=0.8, some=1.0, chinese=0.7, cutoff=0.4)

Ranked = list[tuple[str, float, dict[str, float]]]


def gate(text: str, lexical: Sequence[LexicalHit]) -> str:
    """Which lexical weight a query gets: "chinese", "every" or "some" (a field of Weights)."""
    if CJK.search(text):
        return "chinese"
    return "every" if any(hit.every for hit in lexical) else "some"


def _normalised(ranked: Sequence[tuple[str, float]], scale_from_zero: bool) -> dict[str, float]:
    if not ranked:
        return {}
    best = ranked[0][1]
    low = 0.0 if scale_from_zero else ranked[-1][1]
    span = best - low
    return {pid: (score - low) / span if span > 0 else 1.0 for pid, score in ranked}


def fuse(lexical: Sequence[LexicalHit] | None, semantic: Sequence[tuple[str, float]] | None, weight: float) -> Ranked:
    """(id, fused score, parts) best first, from either list or both, each best first.

    With one list, its own scores are kept. The parts name each list's score and the rank in it;
    "every" is 1 for a paper with every word of the query.
    """
    parts: dict[str, dict[str, float]] = {}
    for rank, hit in enumerate(lexical or [], start=1):
        parts[hit.paper_id] = {"lexical": round(hit.score, 4), "lexical_rank": rank, "every": int(hit.every)}
    for rank, (pid, score) in enumerate(semantic or [], start=1):
        parts.setdefault(pid, {}).update({"semantic": round(score, 4), "semantic_rank": rank})
    if lexical is None or semantic is None:
        alone = semantic if lexical is None else [(h.paper_id, h.score) for h in lexical]
        return [(pid, score, parts[pid]) for pid, score in alone or []]
    lexical_part = _normalised([(h.paper_id, h.score) for h in lexical], scale_from_zero=True)
    semantic_part = _normalised(semantic, scale_from_zero=False)
    fused = {pid: weight * lexical_part.get(pid, 0.0) + (1 - weight) * semantic_part.get(pid, 0.0) for pid in parts}
    return [(pid, fused[pid], parts[pid]) for pid in sorted(parts, key=lambda pid: -fused[pid])]


def combine(
    text: str,
    lexical: Sequence[LexicalHit] | None,
    semantic: Sequence[tuple[str, float]] | None,
    weights: Weights = WEIGHTS,
) -> Ranked:
    """A search's results: the lists fused with the gated weight, and, when both were searched, cut
    where the evidence ends (every-word papers, and those within `weights.cutoff` of the best)."""
    ranked = fuse(lexical, semantic, getattr(weights, gate(text, lexical or [])))
    if lexical is None or semantic is None or not ranked:
        return ranked
    floor = weights.cutoff * max(score for _, score, _ in ranked)
    return [r for r in ranked if r[2].get("every") or r[1] >= floor]
