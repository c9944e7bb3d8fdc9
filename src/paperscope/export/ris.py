"""RIS (EndNote, Zotero, Mendeley): one record per paper, written by rispy, names as "Family, Given"."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TextIO

import rispy

from paperscope.export.citation import Reference, reference
from paperscope.export.format import ExportFormat
from paperscope.model import Paper
from paperscope.normalize.math import to_unicode
from paperscope.normalize.names import Name

# CSL type → RIS reference type (the pairs Zotero's RIS translator maps both ways)
TYPES = {
    "paper-conference": "CPAPER",
    "article-journal": "JOUR",
    "article": "UNPB",
    "manuscript": "UNPB",
    "book": "BOOK",
    "chapter": "CHAP",
    "thesis": "THES",
    "report": "RPRT",
    "webpage": "ELEC",
    "article-newspaper": "NEWS",
    "article-magazine": "MGZN",
    "pamphlet": "PAMP",
}


class _Writer(rispy.RisWriter):
    """rispy's writer without the "1." line it puts before each record, which some readers reject."""

    def set_header(self, count: int) -> str | None:
        return None


def name(person: Name) -> str:
    """ "Family, Given, Suffix": the form RIS readers split into the parts of a name (an organisation whole)."""
    return ", ".join(p for p in (person.full_family(), person.given, person.suffix) if p)


def record(ref: Reference) -> dict:
    fields = {
        "type_of_reference": TYPES.get(ref.type, "GEN"),
        "title": to_unicode(ref.title),
        "authors": [name(a) for a in ref.authors],
        "year": str(ref.year or ""),
        "secondary_title": ref.container or "",
        "abstract": to_unicode(ref.abstract),
        "doi": ref.doi or "",
        "urls": [u for u in (ref.url, *ref.code) if u],
        "notes": [to_unicode(n) for n in ref.notes] + [f"arXiv:{ref.arxiv}"] * bool(ref.arxiv),
        "id": ref.key,
        "keywords": ref.keywords,
    }
    return {k: v for k, v in fields.items() if v}


def write(papers: Iterable[Paper], out: TextIO, keys: Mapping[str, str]) -> None:
    out.writelines(rispy.dumps([record(reference(paper, keys[paper.id]))], implementation=_Writer) for paper in papers)


FORMAT = ExportFormat("ris", "application/x-research-info-systems", "ris", write, cites=True)
