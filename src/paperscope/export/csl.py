"""CSL-JSON (citeproc, Zotero, pandoc, citation-js): a JSON array of items, streamed; text in plain Unicode."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, TextIO

import orjson

from paperscope.export.citation import Reference, reference
from paperscope.export.format import ExportFormat
from paperscope.model import Paper
from paperscope.normalize.math import to_unicode
from paperscope.normalize.names import Name


def name(person: Name) -> dict[str, str]:
    if person.literal:
        return {"literal": person.family}
    parts = {
        "family": person.family,
        "given": person.given,
        "non-dropping-particle": person.particle,
        "suffix": person.suffix,
    }
    return {k: v for k, v in parts.items() if v}


def item(ref: Reference) -> dict[str, Any]:
    fields: dict[str, Any] = {
        "id": ref.key,
        "type": ref.type,
        "title": to_unicode(ref.title),
        "author": [name(a) for a in ref.authors],
        "container-title": ref.container,
        "issued": {"date-parts": [[ref.year]]} if ref.year else None,
        "abstract": to_unicode(ref.abstract),
        "DOI": ref.doi,
        "URL": ref.url,
        "number": f"arXiv:{ref.arxiv}" if ref.arxiv else None,
        "note": " ".join(
            [*(to_unicode(n) for n in ref.notes), *(["Code: " + ", ".join(ref.code)] if ref.code else [])]
        ),
        "keyword": ", ".join(ref.keywords),
    }
    return {k: v for k, v in fields.items() if v}


def write(papers: Iterable[Paper], out: TextIO, keys: Mapping[str, str]) -> None:
    out.write("[")
    out.writelines(
        ("," if i else "") + "\n" + orjson.dumps(item(reference(paper, keys[paper.id]))).decode()
        for i, paper in enumerate(papers)
    )
    out.write("\n]\n")


FORMAT = ExportFormat("csl-json", "application/vnd.citationstyles.csl+json", "csl.json", write, cites=True)
