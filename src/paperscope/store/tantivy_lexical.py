"""A store's lexical search through a tantivy index (index/lexical_index.py) kept in step with its papers.

Every insert into or delete from `papers` leaves the paper's row number in a `lexical_changes` log,
in the writer's transaction (SQLite: the rowid, migration 9, inserts logged by the store as it indexes
them in FTS5 since migration 12; PostgreSQL: `seq`, by statement triggers, migration 5). The index
records the log position it is in step with; before a search answers it reads, in one snapshot of the
database, the log's head, the documents of the rows changed since and the rows the filters let through
(`catch_up`). The index is derived data: missing, unreadable or inconsistent, it is built again from
the papers. When it cannot be brought in step (another process holds its writer, a read-only folder)
it answers nothing, and the store searches its own index of record (SQLite: FTS5; PostgreSQL: the
posting table).

SQLite keeps the index in a folder beside its file; PostgreSQL in a cache folder of the machine that
reads (`cache_folder`), named by the database's identity, which a streaming replica shares with its
primary: a server on a replica builds its own index and catches up from the replicated log.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Protocol, TypeVar

import numpy as np

from paperscope.index import lexical
from paperscope.index.lexical_index import LexicalIndex
from paperscope.store.dialect import SQLITE, Dialect

_COLUMNS = ", ".join(lexical.COLUMNS)
BATCH = 500
REBUILD_SHARE = 0.1  # of the index's documents replaced (deleted ones still counted), beyond which it is built again
T = TypeVar("T")
CACHE_VARIABLE = "PAPERSCOPE_CACHE"


def cache_folder() -> Path:
    """Where derived data of a library on a server is kept on this machine: $PAPERSCOPE_CACHE, else
    paperscope/ in $XDG_CACHE_HOME or ~/.cache."""
    given = os.environ.get(CACHE_VARIABLE)
    if given:
        return Path(given)
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "paperscope"


def fts5_documents(db: sqlite3.Connection, rows: list[int] | None) -> Iterator[tuple[int, tuple[str, ...]]]:
    """(rowid, texts in lexical.COLUMNS order) of every paper in SQLite's FTS5 table, or of those `rows`."""
    if rows is None:
        for rowid, *texts in db.execute(f"SELECT rowid, {_COLUMNS} FROM papers_fts"):
            yield rowid, tuple(texts)
        return
    for clause, params in SQLITE.members(rows):
        for rowid, *texts in db.execute(f"SELECT rowid, {_COLUMNS} FROM papers_fts WHERE rowid {clause}", params):
            yield rowid, tuple(texts)


def batches(rows: list[int]) -> Iterator[list[int]]:
    """`rows` a bounded number at a time (what a server's documents are read by: each paper's data whole)."""
    for start in range(0, len(rows), BATCH):
        yield rows[start : start + BATCH]


# Every insert into or delete from papers leaves the paper's rowid here, in the writer's transaction:
# what the index must read again, after the position it records. An ingest deletes the rows the index
# has read (`forget_read`); the head is then sqlite_sequence's, which AUTOINCREMENT never lowers.
_LOG = (
    "CREATE TABLE lexical_changes (seq INTEGER PRIMARY KEY AUTOINCREMENT, row INTEGER NOT NULL)",
    "CREATE TRIGGER papers_added AFTER INSERT ON papers"
    " BEGIN INSERT INTO lexical_changes (row) VALUES (new.rowid); END",
    "CREATE TRIGGER papers_removed AFTER DELETE ON papers"
    " BEGIN INSERT INTO lexical_changes (row) VALUES (old.rowid); END",
)


def add_log(db: sqlite3.Connection) -> None:
    """9: the rows the tantivy index beside the file must read again."""
    for statement in _LOG:
        db.execute(statement)


def log_added(db: sqlite3.Connection, rows: list[int]) -> None:
    """Rows just inserted into SQLite's papers, into the log (the trigger that did it went in migration 12)."""
    db.executemany("INSERT INTO lexical_changes (row) VALUES (?)", ((row,) for row in rows))


SQLITE_HEAD = (
    "SELECT coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'lexical_changes'), 0),"
    " (SELECT min(seq) FROM lexical_changes)"
)


def _logged_since(position: int, oldest: int | None) -> bool:
    """Every change after `position` is still in the log, whose first row left is `oldest`: only rows
    up to some position are ever deleted, so none after `position` went when the first one left follows
    it (called when the head is past `position`: an empty log then lost what came after it)."""
    return oldest is not None and oldest <= position + 1


class PaperIds:
    """Paper id by row number, in one array: a search maps its hits without reading the papers table (100
    rowid lookups there cost ~8 ms at 92k papers, the pages cold), and a dict of a million ids would
    hold ~120 MB."""

    def __init__(self) -> None:
        self.ids = np.array([], dtype="U1")

    def of(self, rows: list[int]) -> list[str]:
        ids = self.ids  # another thread may put a grown array in its place meanwhile
        wanted = np.asarray(rows, dtype=np.int64)
        known = wanted < len(ids)
        found = np.full(len(wanted), "", dtype=ids.dtype)
        found[known] = ids[wanted[known]]
        return found.tolist()

    def put(self, pairs: list[tuple[int, str]], removed: list[int]) -> None:
        """`pairs` (row, id) now hold, `removed` rows no longer do (a row in both is a new paper's)."""
        self.ids[[row for row in removed if row < len(self.ids)]] = ""
        if not pairs:
            return
        top = max(row for row, _ in pairs)
        width = max(self.ids.dtype.itemsize // 4, *(len(pid) for _, pid in pairs))
        if top >= len(self.ids) or width > self.ids.dtype.itemsize // 4:
            grown = np.full(max(top + 1 + top // 4, len(self.ids)), "", dtype=f"U{width}")
            grown[: len(self.ids)] = self.ids
            self.ids = grown
        rows, ids = zip(*pairs, strict=True)
        self.ids[list(rows)] = ids


class Indexed(Protocol):
    """What a store gives its tantivy index: statements, snapshots, the documents and a folder."""

    dialect: Dialect
    row_column: str  # the papers table's column the log and the documents name a paper by
    lexical_head: str  # a statement giving the log's head (its last number) and its first row left
    database_errors: tuple[type[Exception], ...]

    def _all(self, sql: str, params: Iterable = ()) -> list[tuple]: ...
    def _one(self, sql: str, params: Iterable = ()) -> tuple | None: ...
    def _run(self, sql: str, params: Iterable = ()) -> None: ...

    def lexical_snapshot(self) -> AbstractContextManager[bool]:
        """One read-only snapshot for the statements run inside; yields False when the caller's own
        transaction is open (its uncommitted writes are the store's own index's to see, not this one's)."""
        ...

    def lexical_documents(self, rows: list[int] | None) -> Iterable[tuple[int, tuple[str, ...]]]:
        """(row, texts in lexical.COLUMNS order, as SQLite's FTS5 table holds them) of every paper or of `rows`."""
        ...

    def lexical_folder(self) -> Path | None:
        """The index's folder (None: in memory), other indexes of the same library removed."""
        ...


class _Renew(Exception):
    """The index is ahead of this snapshot: another process caught it up with papers committed since."""


class IndexBeside:
    """A store's tantivy index, caught up with its papers before each search.

    A missing, unreadable or inconsistent index is built again from the papers; one that cannot be
    brought in step (another process holds its writer, a read-only folder) answers nothing, and the
    store searches its own index instead. Threads share it: one at a time brings it in step.
    """

    def __init__(self, store: Indexed) -> None:
        self.store = store
        self.index: LexicalIndex | None = None
        self.ids = PaperIds()
        self.ids_at: int | None = None  # the position the ids are in step with
        self.lock = threading.Lock()

    def search(
        self, query: lexical.Query, limit: int, where: tuple[str, list], enough: int | None
    ) -> list[lexical.LexicalHit] | None:
        """As the store's own search for a parsed query, filters as the set of rows that pass them; None
        when the index cannot answer and the store's own index must."""
        return self._in_step(lambda index: self._found(index, query, limit, where, enough))

    def ready(self) -> LexicalIndex | None:
        """The index, in step with every committed paper (None when it cannot be)."""
        return self._in_step(lambda index: index)

    def forget_read(self) -> None:
        """Delete the log rows the index has read. Another connection whose ids (or index) are older than
        the rows left reads them all again, so only the index's own position bounds this."""
        if (index := self.ready()) is not None and index.position is not None:
            self.store._run("DELETE FROM lexical_changes WHERE seq <= ?", (index.position,))

    def _in_step(self, use: Callable[[LexicalIndex], T]) -> T | None:
        try:
            if (index := self._current()) is not None:
                return use(index)
            for fresh in (False, True):
                with self.store.lexical_snapshot() as open_:  # the position, the documents and the filters
                    if not open_:
                        return None
                    try:
                        with self.lock:
                            index = self._caught_up(fresh)
                    except _Renew:
                        continue  # a new snapshot sees the papers the index holds
                    return use(index)
        except (OSError, ValueError, *self.store.database_errors):
            self.index = None
        return None

    def _current(self) -> LexicalIndex | None:
        """The index, when it is already at the log's head: read without a snapshot of its own (on
        PostgreSQL a snapshot costs three more round trips). The filters and ids read after may see later
        papers, which the index then lacks, or miss removed ones, whose ids no longer map: either way only
        committed papers are found. Inside the caller's own transaction, its writes move the head."""
        index, at = self.index, self.ids_at
        if index is None or at is None:
            return None
        head, _ = self._head()
        return index if index.position == head == at else None

    def _found(
        self, index: LexicalIndex, query: lexical.Query, limit: int, where: tuple[str, list], enough: int | None
    ) -> list[lexical.LexicalHit]:
        where_sql, params = where
        rows = None
        if where_sql:
            column = self.store.row_column
            rows = {r[0] for r in self.store._all(f"SELECT p.{column} FROM papers AS p WHERE TRUE {where_sql}", params)}
            if not rows:
                return []
        found = index.search(query, limit, enough, rows)
        ids = self.ids.of([row for row, _, _ in found])
        return [lexical.LexicalHit(pid, score, every) for pid, (_, score, every) in zip(ids, found, strict=True) if pid]

    def _caught_up(self, fresh: bool) -> LexicalIndex:
        head, oldest = self._head()
        opened = self.index is None
        if self.index is None:
            self.index = self._opened()
        if self.index.position != head:
            self.index.refresh()  # another process may have caught it up
        position = self.index.position
        if position is not None and position > head and not fresh:
            # Another process committed papers since this snapshot began, and caught the index up.
            # (Still ahead in a new snapshot, the database went back: built again below.)
            raise _Renew
        self._ids_caught_up(head, oldest)
        if position == head and not (opened and self._count_differs()):
            return self.index
        if position is not None and position < head and _logged_since(position, oldest):
            rows = self._changed_since(position)
            # A deleted or replaced document still counts in its segment's term statistics until tantivy merges
            # the segment (bench's eval library, its papers made again over several versions, had "the" in 13,409
            # documents of 11,471, and ranked unlike a fresh build): when many papers were replaced, at once or
            # one small change after another, the index is built again instead.
            if self._replaced(len(rows)) + self.index.deleted() < REBUILD_SHARE * self.index.count():
                self.index.update(rows, self.store.lexical_documents(rows), head)
                if not self._count_differs():
                    return self.index
        self.index.clear()
        self.index.update([], self.store.lexical_documents(None), head)
        return self.index

    def _ids_caught_up(self, head: int, oldest: int | None) -> None:
        if self.ids_at == head:
            return
        column = self.store.row_column
        if self.ids_at is None or self.ids_at > head or not _logged_since(self.ids_at, oldest):
            ids = PaperIds()
            ids.put(self.store._all(f"SELECT {column}, id FROM papers"), [])
            self.ids = ids
        else:
            rows = self._changed_since(self.ids_at)
            pairs = [
                pair
                for clause, params in self.store.dialect.members(rows)
                for pair in self.store._all(f"SELECT {column}, id FROM papers WHERE {column} {clause}", params)
            ]
            self.ids.put(pairs, rows)
        self.ids_at = head

    def _head(self) -> tuple[int, int | None]:
        head, oldest = self.store._one(self.store.lexical_head)  # type: ignore[misc]
        return head, oldest

    def _changed_since(self, position: int) -> list[int]:
        return [r[0] for r in self.store._all("SELECT DISTINCT row FROM lexical_changes WHERE seq > ?", (position,))]

    def _replaced(self, changed: int) -> int:
        """Of the rows changed since the index's position, about how many it holds: the rest were added."""
        assert self.index is not None
        return changed - max(0, self._papers() - self.index.count())

    def _count_differs(self) -> bool:
        """The index does not hold one document per paper (a half-deleted folder, another library's index)."""
        assert self.index is not None
        return self.index.count() != self._papers()

    def _papers(self) -> int:
        return self.store._one("SELECT count(*) FROM papers")[0]  # type: ignore[index]

    def _opened(self) -> LexicalIndex:
        folder = self.store.lexical_folder()
        try:
            return LexicalIndex(folder)
        except ValueError:  # not an index any more: made again
            if folder is not None:
                shutil.rmtree(folder, ignore_errors=True)
            return LexicalIndex(folder)

    def folder(self) -> Path | None:
        return self.store.lexical_folder()
