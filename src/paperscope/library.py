"""The library: the one API that the command line (and later the web pages) call."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import TextIO

from paperscope import pipeline
from paperscope.errors import PaperscopeError
from paperscope.export import writer_for
from paperscope.model import Paper
from paperscope.store import Store, open_store


class NotFound(PaperscopeError):
    pass


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

    def export(self, fmt: str, out: TextIO, ids: Iterable[str] | None = None) -> None:
        writer = writer_for(fmt)
        writer((self.paper(i) for i in ids) if ids is not None else self.papers(), out)
