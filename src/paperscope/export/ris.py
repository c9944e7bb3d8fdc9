"""RIS (EndNote, Zotero, Mendeley): one CONF record per paper, written by rispy."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TextIO

import rispy

from paperscope.export.citation import main_url, title_of
from paperscope.model import Paper


class _Writer(rispy.RisWriter):
    """rispy's writer without the "1." line it puts before each record, which some readers reject."""

    def set_header(self, count: int) -> str | None:
        return None


def record(paper: Paper) -> dict:
    fields = {
        "type_of_reference": "CONF",
        "title": title_of(paper),
        "authors": paper.authors,
        "year": str(paper.year or ""),
        "secondary_title": paper.venue or "",
        "abstract": paper.abstract,
        "urls": [u for u in (main_url(paper), *paper.urls.code) if u],
        "id": paper.id,
        "keywords": [*paper.models, *paper.benchmarks],
    }
    return {k: v for k, v in fields.items() if v}


def write(papers: Iterable[Paper], out: TextIO) -> None:
    out.writelines(rispy.dumps([record(paper)], implementation=_Writer) for paper in papers)
