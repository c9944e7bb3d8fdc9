"""CSL-JSON (Zotero, citeproc, pandoc): an array of items with `type`, `title`, `author` as name parts."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from paperscope.errors import InputError
from paperscope.model import RawRecord, Source
from paperscope.normalize.names import literal
from paperscope.sources.files import read_json
from paperscope.sources.format import InputFormat

NAME = "csl-json"
# CSL types that say what the work is; "article" (a preprint) and "document" say nothing more than no type.
KINDS = frozenset(
    {
        "article-journal",
        "article-magazine",
        "article-newspaper",
        "paper-conference",
        "book",
        "chapter",
        "thesis",
        "report",
        "manuscript",
        "webpage",
        "pamphlet",
        "dataset",
        "software",
    }
)


def sniff(name: str, head: bytes) -> bool:
    text = head.decode("utf-8", errors="ignore").lstrip("\ufeff \t\r\n")
    return (
        text.startswith("[")
        and '"type"' in text[:4096]
        and ('"family"' in text or '"issued"' in text or '"container-title"' in text)
    )


def read(path: Path) -> Iterator[RawRecord]:
    items = read_json(path)
    if not isinstance(items, list):
        raise InputError(path.name, 1, "not CSL-JSON: expected an array of items")
    for number, item in enumerate(items, start=1):
        if not isinstance(item, dict):
            raise InputError(path.name, number, "not CSL-JSON: an item is not an object")
        issued = item.get("issued") or {}
        parts = issued.get("date-parts") if isinstance(issued, dict) else None
        year = parts[0][0] if parts and parts[0] and str(parts[0][0]).isdigit() else None
        if year is None and isinstance(issued, dict) and re.search(r"\d{4}", str(issued.get("raw", ""))):
            year = re.search(r"\d{4}", str(issued["raw"])).group()  # type: ignore[union-attr]
        urls = {"site": item["URL"]} if item.get("URL") else {}
        if item.get("DOI"):
            urls["doi"] = "https://doi.org/" + str(item["DOI"])
        yield RawRecord(
            source=Source(path.name, number, None, NAME, str(item.get("DOI") or item.get("id") or "") or None),
            title=_text(item.get("title")),
            abstract=_text(item.get("abstract")),
            authors=[_name(a) for a in item.get("author", []) if isinstance(a, dict) and _name(a)],
            venue=_text(item.get("container-title")) or _text(item.get("event")),
            year=int(year) if year else None,
            keywords=[k.strip() for k in str(item.get("keyword", "")).split(",") if k.strip()],
            urls=urls,
            kind=item.get("type") if item.get("type") in KINDS else None,
        )


def _text(value: object) -> str | None:
    return str(value).strip() or None if value else None


def _name(author: dict) -> str:
    person = " ".join(p for p in (author.get("given"), author.get("family")) if p)
    return person or (literal(str(author["literal"])) if author.get("literal") else "")


FORMAT = InputFormat(NAME, sniff, read)
