"""Result shapes shared by the command line's --json and the JSON API."""

from __future__ import annotations

import html
from dataclasses import asdict
from typing import TYPE_CHECKING, Any

from paperscope.model import Paper

if TYPE_CHECKING:
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


def search_hit(hit: SearchHit) -> dict[str, Any]:
    """One search result: the paper's row, its score and the score's parts, and a snippet.

    The snippet is the abstract around the matched words (`snippet_html` marks them with <mark>),
    or the abstract's start when only the meaning matched.
    """
    paper = hit.paper
    marked_text = hit.snippet or _head(paper.abstract)
    return {
        **paper_summary(paper),
        "rank": hit.rank,
        "score": round(hit.score, 4),
        "scores": hit.scores,
        "snippet": marked_text.replace("\x02", "").replace("\x03", ""),
        "snippet_html": html.escape(marked_text).replace("\x02", "<mark>").replace("\x03", "</mark>"),
    }


def related_paper(related: Related) -> dict[str, Any]:
    """One related paper: its row, the similarity and the reason in words."""
    similarity = None if related.similarity is None else round(related.similarity, 4)
    return {**paper_summary(related.paper), "similarity": similarity, "shared": related.shared,
            "phrases": related.phrases, "reason": related.reason}  # fmt: skip


def stats_dict(stats: Stats) -> dict[str, Any]:
    return {
        "papers": stats.papers, "with_code": stats.with_code, "code_share": round(stats.code_share, 4),
        **{key: [{"name": k, "papers": n} for k, n in getattr(stats, key)]
           for key in ("venues", "contributions", "topics", "benchmarks", "models")},
        "claims": {b: [asdict(c) for c in rows] for b, rows in stats.claims.items()},
    }  # fmt: skip


def _head(abstract: str, chars: int = 240) -> str:
    if len(abstract) <= chars:
        return abstract
    return abstract[:chars].rsplit(" ", 1)[0] + " …"
