"""BibTeX: one @inproceedings per paper (@misc without a venue), written by bibtexparser, values LaTeX-escaped by pylatexenc."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TextIO

import bibtexparser
from bibtexparser import model
from pylatexenc.latexencode import UnicodeToLatexEncoder

from paperscope.export.citation import citation_key, main_url, title_of
from paperscope.model import Paper

# Non-ASCII letters without a LaTeX form (Chinese, say) stay as they are: BibTeX files are UTF-8 now.
_ENCODER = UnicodeToLatexEncoder(unknown_char_policy="keep", non_ascii_only=False, replacement_latex_protection="braces-all")


def latex(text: str) -> str:
    return _ENCODER.unicode_to_latex(text)


def entry(paper: Paper, key: str) -> model.Entry:
    fields = {
        "title": "{" + latex(title_of(paper)) + "}",  # braces keep the title's capitals (names, acronyms)
        "author": " and ".join(latex(a) for a in paper.authors),
        "booktitle": latex(f"Proceedings of {paper.venue} {paper.year or ''}".strip()) if paper.venue else "",
        "year": str(paper.year or ""),
        "url": main_url(paper) or "",
        "abstract": latex(paper.abstract),
        "note": f"code: {', '.join(paper.urls.code)}" if paper.urls.code else "",
        "paperscope_id": paper.id,
    }
    return model.Entry("inproceedings" if paper.venue else "misc", key, [model.Field(k, v) for k, v in fields.items() if v])


def write(papers: Iterable[Paper], out: TextIO) -> None:
    taken: set[str] = set()
    for paper in papers:
        out.write(bibtexparser.write_string(bibtexparser.Library([entry(paper, citation_key(paper, taken))])))
        out.write("\n")
