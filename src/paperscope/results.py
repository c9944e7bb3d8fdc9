"""Result shapes shared by the command line's --json and (later) the JSON API."""

from __future__ import annotations

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
