"""A reading list in Markdown (pandoc's, with $…$ math): a heading per paper, its facts, its abstract."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TextIO

from paperscope.export.citation import title_of
from paperscope.export.format import ExportFormat
from paperscope.model import Paper
from paperscope.normalize.math import MATH

_SPECIAL = re.compile(r"([\\`*_\[\]<>#|$~^@])")


def escape(text: str) -> str:
    """Markdown specials escaped outside formulas; formulas kept as written, for pandoc's math."""
    parts, position = [], 0
    for match in MATH.finditer(text):
        parts.append(_SPECIAL.sub(r"\\\1", text[position : match.start()]))
        parts.append(match.group())
        position = match.end()
    parts.append(_SPECIAL.sub(r"\\\1", text[position:]))
    return "".join(parts)


def write(papers: Iterable[Paper], out: TextIO) -> None:
    for paper in papers:
        title, title_note = title_of(paper)
        out.write(f"## {escape(title)}\n\n")
        facts = [f"`{paper.id}`"]
        if paper.venue or paper.year:
            facts.append(" ".join(str(x) for x in (paper.venue, paper.year) if x))
        if paper.status:
            facts.append(escape(paper.status))
        if paper.authors:
            facts.append(escape(", ".join(paper.authors)))
        out.write(" · ".join(facts) + "\n\n")
        if title_note:
            out.write(f"- Note: {escape(title_note)}\n")
        out.writelines(f"- Code: <{url}>\n" for url in paper.urls.code)
        if paper.urls.pdf:
            out.write(f"- PDF: <{paper.urls.pdf}>\n")
        sources = ", ".join(f"{s.path}:{s.line}" for s in paper.sources)
        out.write(f"- Sources: {escape(sources)}\n\n")
        if paper.abstract:
            out.write(f"{escape(paper.abstract)}\n\n")


FORMAT = ExportFormat("markdown", "text/markdown", "md", write)
