"""CSL-JSON (citeproc, Zotero, pandoc): a JSON array of paper-conference items, streamed."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, TextIO

import orjson

from paperscope.export.citation import citation_key, main_url, split_name, title_of
from paperscope.model import Paper


def item(paper: Paper, key: str) -> dict[str, Any]:
    fields: dict[str, Any] = {
        "id": key,
        "type": "paper-conference",
        "title": title_of(paper),
        "author": [dict(zip(("family", "given"), split_name(a), strict=True)) for a in paper.authors],
        "container-title": f"{paper.venue} {paper.year or ''}".strip() if paper.venue else None,
        "issued": {"date-parts": [[paper.year]]} if paper.year else None,
        "abstract": paper.abstract,
        "URL": main_url(paper),
        "note": f"paperscope: {paper.id}",
    }
    return {k: v for k, v in fields.items() if v}


def write(papers: Iterable[Paper], out: TextIO) -> None:
    taken: set[str] = set()
    out.write("[")
    out.writelines(("," if i else "") + "\n" + orjson.dumps(item(paper, citation_key(paper, taken))).decode() for i, paper in enumerate(papers))
    out.write("\n]\n")
