"""Result shapes shared by the command line's --json and (later) the JSON API."""

from __future__ import annotations

import html
from typing import Any

from paperscope.model import Paper


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


def search_hit(rank: int, paper: Paper, score: float, snippet: str) -> dict[str, Any]:
    """One search result; `snippet` marks matched words with \x02 ... \x03 (as FTS5 gives them)."""
    plain = snippet.replace("\x02", "").replace("\x03", "") if snippet else paper.abstract[:240]
    marked = html.escape(snippet or paper.abstract[:240]).replace("\x02", "<mark>").replace("\x03", "</mark>")
    return {
        **paper_summary(paper),
        "rank": rank,
        "score": round(score, 4),
        "scores": {"lexical": round(score, 4)},
        "snippet": plain,
        "snippet_html": marked,
    }
