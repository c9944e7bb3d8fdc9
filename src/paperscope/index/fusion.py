"""Fusing the lexical and semantic lists into one ranking, and where that ranking ends.

Each list's scores are put on [0, 1] within the list (BM25 divided by the list's first score, each
capped by those above it so that the lexical list's order holds: every-word papers first; cosines
min-max scaled), and a paper's fused score is w × its lexical part + (1 − w) × its semantic part
(0 for a list it is not in). The lexical weight w is gated by the query (GATES): its script (Chinese
character bigrams rarely match an English abstract; its translation is searched lexically,
index/translate.py), whether some paper has every word of it, and whether it is a few keywords or a
description of LONG words or more (a CJK word counted as two characters). Reciprocal rank fusion was
measured beside a convex combination and lost, because it throws away how far ahead a list's first
hit is.

The weights, LONG and the cut-off were chosen by bench/fusion_tune.py (`--seen`) on the tune and the
held-out parts of bench/search_eval.py's sets (1,014 queries over 11.5k papers, the seed queries also
with the corpus papers readers judged for them): those held-out parts had been read in earlier rounds
of tuning, so they no longer told blind. The held-out set now is bench/data/search_queries_fresh.json,
written afterwards by reading the seed papers and never tuned on. The rule: the best mean over the sets
among the weights with which hybrid is at least lexical and at least semantic on every set. It gives
keyword queries (under LONG words) to lexical search alone, in English and in Chinese: the encoder
reorders a keyword query's lexical list for the worse. Descriptions keep it (English 0.6, Chinese 0.7),
and so do queries no paper has every word of (0.9).

A search's results end where the evidence ends: every paper with every word of the query, and
the papers holding some of its words (or of its translation's) whose fused score is at least
`cutoff` × the best one; none when no paper holds any word: the nearest papers by meaning are then
guesses, scaled to look like matches (`知识蒸馏` over the 51 seeds, none about distillation, gave
31). Semantic mode still lists them. A paper only the encoder found is no result either: with an
earlier round's lexical weight of 0.7 its first guess scored 0.3, and with the cut-off at 0.3
"speculative decoding" over the seeds listed FuzzEval, which holds neither word. The weights above
were chosen with this rule in force. No labelled query of the tune or held-out sets has an empty
lexical list at 11.5k papers. The cut-off 0.3 leaves a median of 15 results per query (100
without it); it costs the pooled seed queries 0.002–0.003 (their relevant corpus papers can lie
low in the fused list): 0.2 costs nothing and leaves a median of 68 results, which a reader would
take as 68 matches; 0.4 leaves 5 and costs 0.010.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from paperscope.index.lexical import CJK, LexicalHit

GATES = ("every_short", "every_long", "some", "chinese_short", "chinese_long")
LONG = 10  # words from which a query is a description rather than keywords (a CJK word: two characters)


@dataclass(frozen=True)
class Weights:
    lexical: dict[str, float]  # the lexical weight of each gate (GATES)
    cutoff: float  # results: every-word papers, and those fused within this fraction of the best


WEIGHTS = Weights(
    {"every_short": 1.0, "every_long": 0.6, "some": 0.9, "chinese_short": 1.0, "chinese_long": 0.7}, cutoff=0.3
)

Ranked = list[tuple[str, float, dict[str, float]]]


def gate(text: str, lexical: Sequence[LexicalHit], long_from: float | None = None) -> str:
    """Which lexical weight a query gets (one of GATES): by its script, whether some paper has every
    word of it, and whether it is a few keywords or a description (`long_from` words or more)."""
    length = "long" if _words(text) >= (LONG if long_from is None else long_from) else "short"
    if CJK.search(text):
        return f"chinese_{length}"
    return f"every_{length}" if any(hit.every for hit in lexical) else "some"


def _words(text: str) -> float:
    return len(re.findall(r"[^\W\d_]+|\d+", CJK.sub(" ", text))) + sum(map(len, CJK.findall(text))) / 2


def _normalised(ranked: Sequence[tuple[str, float]], scale_from_zero: bool) -> dict[str, float]:
    if not ranked:
        return {}
    best = ranked[0][1]
    low = 0.0 if scale_from_zero else ranked[-1][1]
    span = best - low
    return {pid: (score - low) / span if span > 0 else 1.0 for pid, score in ranked}


def _in_list_order(ranked: Sequence[tuple[str, float]]) -> list[tuple[str, float]]:
    """Each score capped by those above it. The lexical list puts the papers with every word of the query
    before those with some, whatever their BM25; fused on BM25 alone, a paper with some words passed one
    with every word, so that even at a lexical weight of 1 hybrid did not rank as lexical does. So a weak
    every-word paper lowers the some-word papers below it to its score: there, the encoder orders them."""
    capped, cap = [], float("inf")
    for pid, score in ranked:
        cap = min(cap, score)
        capped.append((pid, cap))
    return capped


def fuse(lexical: Sequence[LexicalHit] | None, semantic: Sequence[tuple[str, float]] | None, weight: float) -> Ranked:
    """(id, fused score, parts) best first, from either list or both, each best first.

    With one list, its own scores are kept. The parts name each list's score and the rank in it;
    "every" is 1 for a paper with every word of the query.
    """
    # A search page ranks up to 1,000 papers from each list: the parts are built plainly, and rounded
    # only where they are shown (responses.search_hit).
    parts: dict[str, dict[str, float]] = {}
    for rank, hit in enumerate(lexical or [], start=1):
        parts[hit.paper_id] = {"lexical": hit.score, "lexical_rank": rank, "every": int(hit.every)}
    for rank, (pid, score) in enumerate(semantic or [], start=1):
        if (known := parts.get(pid)) is None:
            parts[pid] = {"semantic": score, "semantic_rank": rank}
        else:
            known["semantic"], known["semantic_rank"] = score, rank
    if lexical is None or semantic is None:
        alone = semantic if lexical is None else [(h.paper_id, h.score) for h in lexical]
        return [(pid, score, parts[pid]) for pid, score in alone or []]
    lexical_part = _normalised(_in_list_order([(h.paper_id, h.score) for h in lexical]), scale_from_zero=True)
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
    if lexical is not None and semantic is not None and not lexical:
        return []  # no paper holds any word of the query: its nearest neighbours by meaning are guesses
    ranked = fuse(lexical, semantic, weights.lexical[gate(text, lexical or [])])
    if lexical is None or semantic is None or not ranked:
        return ranked
    floor = weights.cutoff * max(score for _, score, _ in ranked)
    return [r for r in ranked if r[2].get("every") or ("lexical" in r[2] and r[1] >= floor)]
