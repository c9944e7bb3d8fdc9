"""BibTeX that BibTeX, biber, pybtex, pandoc and citation-js read alike.

The entry type follows the Reference: @inproceedings (accepted, with its proceedings), @article (a
journal's), @misc (preprints with eprint/archivePrefix/primaryClass, and papers not accepted, with
a note). Kinds whose required fields paperscope does not know (a book's publisher, a thesis's
school) are @misc too, so that BibTeX's standard styles have nothing to warn about.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TextIO

from paperscope.export.citation import CONFERENCE, JOURNAL, Reference, reference
from paperscope.export.format import ExportFormat
from paperscope.export.latex import latex
from paperscope.model import Paper
from paperscope.normalize.names import Name


def name(person: Name) -> str:
    """ "von Last, Jr, First", each part braced where BibTeX would split it (a comma, an "and");
    an organisation braced whole."""
    if person.literal:
        return "{" + latex(person.family) + "}"
    parts = (
        [person.full_family(), person.suffix, person.given] if person.suffix else [person.full_family(), person.given]
    )
    return (
        ", ".join(_protected(latex(p)) for p in parts if p)
        if person.given or person.suffix
        else _protected(latex(person.family))
    )


def _protected(part: str) -> str:
    return "{" + part + "}" if "," in part or " and " in part.casefold() else part


def fields(ref: Reference) -> tuple[str, dict[str, str]]:
    has_authors = bool(ref.authors)
    entry_type = "misc"
    values: dict[str, str] = {"title": "{" + latex(ref.title) + "}"}  # braces keep the title's capitals
    if ref.type == CONFERENCE and ref.container and ref.year and has_authors:
        entry_type, values["booktitle"] = "inproceedings", latex(ref.container)
    elif ref.type == JOURNAL and ref.container and ref.year and has_authors:
        entry_type, values["journal"] = "article", latex(ref.container)
    elif ref.container:
        values["howpublished"] = latex(ref.container)
    if has_authors:
        values["author"] = " and ".join(name(a) for a in ref.authors)
    else:
        values["key"] = ref.key  # what BibTeX's styles sort and label an entry without authors by
    if ref.year:
        values["year"] = str(ref.year)
    else:
        values["date"] = "XXXX"  # EDTF for "year unknown": biblatex's data model wants a date on every entry
    if ref.doi:
        values["doi"] = ref.doi
    if ref.arxiv:
        values.update(eprint=ref.arxiv, archiveprefix="arXiv")
        if ref.primary_class:
            values["primaryclass"] = ref.primary_class
    if ref.url:
        values["url"] = ref.url
    notes = [latex(n) for n in ref.notes] + ([latex("Code: " + ", ".join(ref.code))] if ref.code else [])
    if notes:
        values["note"] = " ".join(notes)
    if ref.abstract:
        values["abstract"] = latex(ref.abstract)
    return entry_type, values


def entry(ref: Reference) -> str:
    entry_type, values = fields(ref)
    width = max(len(k) for k in values)
    body = ",\n".join(f"  {k.ljust(width)} = {{{v}}}" for k, v in values.items())
    return f"@{entry_type}{{{ref.key},\n{body}\n}}\n"


def write(papers: Iterable[Paper], out: TextIO, keys: Mapping[str, str]) -> None:
    for paper in papers:
        out.write(entry(reference(paper, keys[paper.id])))
        out.write("\n")


FORMAT = ExportFormat("bibtex", "application/x-bibtex", "bib", write, cites=True)
