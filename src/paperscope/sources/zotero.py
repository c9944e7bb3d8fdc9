"""Better BibTeX JSON (Zotero's export of a library: `{"config": …, "items": [{itemType, creators, …}]}`)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from paperscope.errors import InputError
from paperscope.model import RawRecord, Source
from paperscope.normalize.names import literal
from paperscope.sources.files import read_json
from paperscope.sources.format import InputFormat

NAME = "zotero-json"
# Zotero item types with the CSL type of the work (Zotero's own mapping); others say nothing more.
KINDS = {
    "journalArticle": "article-journal",
    "conferencePaper": "paper-conference",
    "book": "book",
    "bookSection": "chapter",
    "thesis": "thesis",
    "report": "report",
    "manuscript": "manuscript",
    "webpage": "webpage",
    "newspaperArticle": "article-newspaper",
    "magazineArticle": "article-magazine",
}
_VENUES = ("publicationTitle", "bookTitle", "proceedingsTitle", "websiteTitle", "university", "institution")


def sniff(name: str, head: bytes) -> bool:
    text = head.decode("utf-8", errors="ignore").lstrip("\ufeff \t\r\n")
    return text.startswith("{") and '"items"' in text and '"itemType"' in text


def read(path: Path) -> Iterator[RawRecord]:
    data = read_json(path)
    items = data.get("items") if isinstance(data, dict) else None
    if not isinstance(items, list):
        raise InputError(path.name, 1, "not Better BibTeX JSON: expected an object with an `items` array")
    for number, item in enumerate(items, start=1):
        if not isinstance(item, dict):
            raise InputError(path.name, number, "not Better BibTeX JSON: an item is not an object")
        year = re.search(r"\b\d{4}\b", str(item.get("date", "")))
        urls = {"site": item["url"]} if item.get("url") else {}
        if item.get("DOI"):
            urls["doi"] = "https://doi.org/" + str(item["DOI"])
        yield RawRecord(
            source=Source(path.name, number, None, NAME, item.get("citationKey") or item.get("DOI")),
            title=_text(item, "title"),
            abstract=_text(item, "abstractNote"),
            authors=[n for c in item.get("creators", []) if c.get("creatorType") == "author" and (n := _name(c))],
            venue=next((v for key in _VENUES if (v := _text(item, key))), None),
            year=int(year.group()) if year else None,
            keywords=[t["tag"] for t in item.get("tags", []) if isinstance(t, dict) and t.get("tag")],
            urls=urls,
            kind=KINDS.get(str(item.get("itemType"))),
        )


def _text(item: dict[str, Any], key: str) -> str | None:
    value = item.get(key)
    return str(value).strip() or None if value else None


def _name(creator: dict[str, Any]) -> str:
    """ "Family, Given" for a person, an organisation (one `name` field) in braces."""
    if creator.get("lastName"):
        return ", ".join(p for p in (creator["lastName"], creator.get("firstName")) if p)
    return literal(str(creator["name"])) if creator.get("name") else ""


FORMAT = InputFormat(NAME, sniff, read)
