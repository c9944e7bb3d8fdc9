"""A reading list in Markdown: a heading per paper, its facts, its abstract."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TextIO

from paperscope.model import Paper

_SPECIAL = re.compile(r"([\\`*_\[\]<>#|])")


def escape(text: str) -> str:
    return _SPECIAL.sub(r"\\\1", text)


def write(papers: Iterable[Paper], out: TextIO) -> None:
    for paper in papers:
        out.write(f"## {escape(paper.display_title)}\n\n")
        facts = [f"`{paper.id}`"]
        if paper.venue or paper.year:
            facts.append(" ".join(str(x) for x in (paper.venue, paper.year) if x))
        if paper.authors:
            facts.append(escape(", ".join(paper.authors)))
        out.write(" · ".join(facts) + "\n\n")
        out.writelines(f"- Code: <{url}>\n" for url in paper.urls.code)
        if paper.urls.pdf:
            out.write(f"- PDF: <{paper.urls.pdf}>\n")
        sources = ", ".join(f"{s.path}:{s.line}" for s in paper.sources)
        out.write(f"- Sources: {escape(sources)}\n\n")
        if paper.abstract:
            out.write(f"{escape(paper.abstract)}\n\n")
