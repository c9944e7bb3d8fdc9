"""The library: the one API that the command line (and later the web pages) call."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from paperscope import pipeline
from paperscope.errors import PaperscopeError
from paperscope.export import writer_for
from paperscope.index import lexical
from paperscope.model import Paper
from paperscope.store import Store, open_store

MAX_RESULTS = 1_000


class NotFound(PaperscopeError):
    pass


@dataclass
class SearchHit:
    rank: int
    paper: Paper
    lexical: lexical.LexicalHit


class Library:
    def __init__(self, db: str | Path) -> None:
        self.store: Store = open_store(db)

    def close(self) -> None:
        self.store.close()

    def __enter__(self) -> Library:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def ingest(self, paths: Sequence[str | Path], *, skip_bad: bool = False,
               progress: pipeline.Progress | None = None) -> pipeline.IngestReport:  # fmt: skip
        return pipeline.ingest(paths, self.store, skip_bad=skip_bad, progress=progress)

    def count(self) -> int:
        return self.store.count_papers()

    def papers(self, order: str = "id", limit: int | None = None, offset: int = 0) -> Iterator[Paper]:
        return self.store.iter_papers(order, limit, offset)

    def paper(self, paper_id: str) -> Paper:
        paper = self.store.get_paper(paper_id.strip().lower())
        if paper is None:
            raise NotFound(f"no paper with id {paper_id!r}")
        return paper

    def search(self, text: str, limit: int = 10, filters: lexical.Filters | None = None,
               syntax: str = "words") -> list[SearchHit]:  # fmt: skip
        """Papers for a query, best first. `syntax="fts"` passes the text to FTS5 as it is.

        A paper's id as the query finds that paper first.
        """
        if syntax not in ("words", "fts"):
            raise PaperscopeError(f"unknown query syntax {syntax!r}; words or fts")
        limit = max(1, min(limit, MAX_RESULTS))
        hits = self.store.search_lexical(lexical.parse(text), limit, filters, text if syntax == "fts" else None)
        found = [(self.store.get_paper(h.paper_id), h) for h in hits]
        direct = self.store.get_paper(text.strip().lower()) if re.fullmatch(r"\s*[a-z2-7]{12}\s*", text) else None
        if direct:
            found = [(direct, lexical.LexicalHit(direct.id, 0.0, "")), *[f for f in found if f[1].paper_id != direct.id]]
        return [SearchHit(rank, paper, hit) for rank, (paper, hit) in enumerate(found[:limit], start=1) if paper]

    def export(self, fmt: str, out: TextIO, ids: Iterable[str] | None = None) -> None:
        writer = writer_for(fmt)
        writer((self.paper(i) for i in ids) if ids is not None else self.papers(), out)
