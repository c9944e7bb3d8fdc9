"""Semantic Scholar Graph API papers (`/paper/{id}` JSON): the paper, and its references and
citations that carry a title, each a record of its own."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from paperscope.errors import InputError
from paperscope.model import RawRecord, Source
from paperscope.sources.files import read_json
from paperscope.sources.format import InputFormat

NAME = "semantic-scholar"


def sniff(name: str, head: bytes) -> bool:
    text = head[:4096].decode("utf-8", errors="ignore").lstrip("\ufeff \t\r\n")
    return text.startswith(("{", "[")) and '"paperId"' in text


def read(path: Path) -> Iterator[RawRecord]:
    data = read_json(path)
    papers = data if isinstance(data, list) else [data]
    number = 0
    for paper in papers:
        if not isinstance(paper, dict) or "paperId" not in paper:
            raise InputError(path.name, number + 1, "not a Semantic Scholar paper: no paperId")
        related = [("paper", paper)] + [
            (kind, item.get("citedPaper") or item.get("citingPaper") or item)
            for kind in ("references", "citations")
            for item in paper.get(kind) or []
        ]
        for kind, item in related:
            number += 1
            if isinstance(item, dict) and item.get("title"):
                yield _record(item, Source(path.name, number, kind, NAME, _external_id(item)))


def _record(item: dict[str, Any], source: Source) -> RawRecord:
    ids = item.get("externalIds") or {}
    urls = {"site": item["url"]} if item.get("url") else {}
    if ids.get("DOI"):
        urls["doi"] = "https://doi.org/" + str(ids["DOI"]).lower()
    if (item.get("openAccessPdf") or {}).get("url"):
        urls["pdf"] = item["openAccessPdf"]["url"]
    year = item.get("year")
    return RawRecord(
        source=source,
        title=str(item["title"]),
        abstract=item.get("abstract") or ((item.get("tldr") or {}).get("text")),
        authors=[a["name"] for a in item.get("authors") or [] if isinstance(a, dict) and a.get("name")],
        venue=item.get("venue") or ((item.get("journal") or {}).get("name")) or None,
        year=int(year) if str(year or "").isdigit() else None,
        keywords=[str(f) for f in item.get("fieldsOfStudy") or []],
        urls=urls,
    )


def _external_id(item: dict[str, Any]) -> str | None:
    ids = item.get("externalIds") or {}
    if ids.get("ArXiv"):
        return f"arXiv:{ids['ArXiv']}"
    if ids.get("DOI"):
        return str(ids["DOI"]).lower()
    return f"S2:{item['paperId']}" if item.get("paperId") else None


FORMAT = InputFormat(NAME, sniff, read)
