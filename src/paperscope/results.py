"""Result shapes shared by the command line's --json and the JSON API."""

from __future__ import annotations

import html
import re
from dataclasses import asdict
from typing import TYPE_CHECKING, Any

from paperscope.index.lexical import cjk_bigrams
from paperscope.model import Paper

if TYPE_CHECKING:
    from paperscope.analyze.benchmarks import Benchmark
    from paperscope.analyze.stats import Stats
    from paperscope.library import Related, SearchHit


def paper_summary(paper: Paper) -> dict[str, Any]:
    """One row of a paper listing."""
    return {
        "id": paper.id,
        "display_title": paper.display_title,
        "title": paper.title,
        "name": paper.name,
        "venue": paper.venue,
        "year": paper.year,
        "sources": len(paper.sources),
        "has_code": bool(paper.urls.code),
    }


def search_hit(hit: SearchHit, query: str = "") -> dict[str, Any]:
    """One search result: the paper's row, its score and the score's parts in numbers and in words
    (`why`; `reasons` holds them for a page to word in its language), and a snippet.

    The snippet is the abstract around the matched words (`snippet_html` marks them with <mark>),
    or the abstract's start when only the meaning matched.
    """
    paper = hit.paper
    marked_text = hit.snippet or _head(paper.abstract)
    reasons = explain(hit, query)
    return {
        **paper_summary(paper),
        "rank": hit.rank,
        "score": round(hit.score, 4),
        "scores": hit.scores,
        "why": explain_in_words(reasons),
        "reasons": reasons,
        "snippet": marked_text.replace("\x02", "").replace("\x03", ""),
        "snippet_html": html.escape(marked_text).replace("\x02", "<mark>").replace("\x03", "</mark>"),
    }


_FIELDS = (
    ("title", lambda p: p.display_title),
    ("name", lambda p: p.name or ""),
    ("benchmarks", lambda p: " ".join(p.benchmarks)),
    ("models", lambda p: " ".join(p.models)),
    ("authors", lambda p: " ".join(p.authors)),
    ("abstract", lambda p: p.abstract),
)


def explain(hit: SearchHit, query: str) -> dict[str, Any]:
    """A score's reasons: which query words each field matched (each word told once, in its strongest
    field), the similarity of meaning, and whether the query was the paper's id."""
    words = list(dict.fromkeys(w for w in re.findall(r"\w+", cjk_bigrams(query.lower())) if len(w) > 1))
    matched = []
    for field, text_of in _FIELDS if "lexical" in hit.scores else ():
        text = cjk_bigrams(text_of(hit.paper).lower())
        found = [w for w in words if re.search(rf"\b{re.escape(w)}", text)]
        if found:
            matched.append({"words": found, "field": field})
            words = [w for w in words if w not in found]
    similar = hit.scores.get("semantic")
    return {"by_id": not hit.scores, "matched": matched, "similar_meaning": round(similar, 2) if similar else None}


def explain_in_words(reasons: dict[str, Any]) -> str:
    """ "matched: speculative, decoding in title; similar meaning 0.62" """
    parts = ["the paper's id"] if reasons["by_id"] else []
    parts += [f"{', '.join(m['words'])} in {m['field']}" for m in reasons["matched"]]
    if reasons["matched"]:
        parts[-len(reasons["matched"])] = "matched: " + parts[-len(reasons["matched"])]
    if reasons["similar_meaning"] is not None:
        parts.append(f"similar meaning {reasons['similar_meaning']:.2f}")
    return "; ".join(parts)


def related_paper(related: Related) -> dict[str, Any]:
    """One related paper: its row, the similarity and the reason in words."""
    similarity = None if related.similarity is None else round(related.similarity, 4)
    return {
        **paper_summary(related.paper),
        "similarity": similarity,
        "shared": related.shared,
        "phrases": related.phrases,
        "reason": related.reason,
    }


def stats_dict(stats: Stats) -> dict[str, Any]:
    return {
        "papers": stats.papers,
        "with_code": stats.with_code,
        "code_share": round(stats.code_share, 4),
        **{
            key: [{"name": k, "papers": n} for k, n in getattr(stats, key)]
            for key in ("venues", "contributions", "topics", "benchmarks", "models")
        },
        "claims": {b.name: [asdict(c) for c in b.claims] for b in stats.by_benchmark if b.claims},
    }


def benchmark_dict(benchmark: Benchmark) -> dict[str, Any]:
    """One benchmark: its name, the papers naming it, the variants as written, and the claims on it."""
    return {
        "benchmark": benchmark.name,
        "papers": benchmark.papers,
        "variants": [{"name": v, "papers": n} for v, n in benchmark.variants],
        "claims": [asdict(c) for c in benchmark.claims],
    }


def benchmarks_list(stats: Stats) -> dict[str, Any]:
    return {
        "benchmarks": [
            {"name": b.name, "papers": b.papers, "variants": [v for v, _ in b.variants], "claims": len(b.claims)}
            for b in stats.by_benchmark
        ]
    }


def _head(abstract: str, chars: int = 240) -> str:
    if len(abstract) <= chars:
        return abstract
    return abstract[:chars].rsplit(" ", 1)[0] + " …"
