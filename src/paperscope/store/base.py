"""The Store protocol: everything the pipeline and the explorers ask of a database."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Protocol

from paperscope.index import lexical
from paperscope.model import Paper, RawRecord


@dataclass(frozen=True)
class FileRow:
    id: int
    path: str
    sha256: str


@dataclass(frozen=True)
class LibraryPaper:
    """What dedupe needs of a paper already stored."""

    id: str
    key: str
    title_key: str | None
    venue: str | None
    year: int | None
    abstract: str


class Store(Protocol):
    def transaction(self) -> AbstractContextManager[None]: ...
    def close(self) -> None: ...

    # files
    def file_by_path(self, path: str) -> FileRow | None: ...
    def has_file_hash(self, sha256: str) -> bool: ...
    def put_file(self, path: str, name: str, sha256: str, fmt: str, records: int) -> tuple[int, set[str]]: ...

    # sources and papers, as the pipeline writes them
    def candidates(self, keys: Iterable[str], bands: Iterable[int], title_keys: Iterable[str]) -> list[LibraryPaper]: ...
    def add_sources(self, rows: Iterable[tuple[str, int, int, str, RawRecord]]) -> None: ...
    def source_records(self, paper_id: str) -> list[RawRecord]: ...
    def add_papers(self, rows: Iterable[tuple[Paper, str, str | None, tuple[int, ...]]]) -> None: ...
    def put_paper(self, paper: Paper, key: str, title_key: str | None, bands: tuple[int, ...]) -> str: ...
    def remove_orphans(self) -> int: ...

    # searching
    def search_lexical(self, query: lexical.Query, limit: int, filters: lexical.Filters | None = None,
                       raw: str | None = None) -> list[lexical.LexicalHit]: ...  # fmt: skip

    # reading
    def count_papers(self) -> int: ...
    def get_paper(self, paper_id: str) -> Paper | None: ...
    def iter_papers(self, order: str = "id", limit: int | None = None, offset: int = 0) -> Iterator[Paper]: ...
