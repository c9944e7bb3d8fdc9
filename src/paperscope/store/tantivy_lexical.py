"""The SQLite store's lexical search through the tantivy index beside its file (index/lexical_index.py).

The documents are read from the FTS5 table, which the ingest fills in its own transaction and
which stays the index of record: the tantivy index is derived from it, caught up before a search
answers (`catch_up`), and FTS5 answers whenever it cannot be.
"""

from __future__ import annotations

import glob
import os
import shutil
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

import numpy as np

from paperscope.index import lexical
from paperscope.index.lexical_index import LexicalIndex

_COLUMNS = ", ".join(lexical.COLUMNS)
_BATCH = 500
T = TypeVar("T")


def documents(db: sqlite3.Connection, rows: list[int] | None = None) -> Iterator[tuple[int, tuple[str, ...]]]:
    """(rowid, texts in lexical.COLUMNS order) of every indexed paper, or of those `rows`."""
    if rows is None:
        for rowid, *texts in db.execute(f"SELECT rowid, {_COLUMNS} FROM papers_fts"):
            yield rowid, tuple(texts)
        return
    for batch in _batches(rows):
        marks = ", ".join("?" * len(batch))
        for rowid, *texts in db.execute(f"SELECT rowid, {_COLUMNS} FROM papers_fts WHERE rowid IN ({marks})", batch):
            yield rowid, tuple(texts)


def _batches(rows: list[int]) -> Iterator[list[int]]:
    for start in range(0, len(rows), _BATCH):
        yield rows[start : start + _BATCH]


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


_HEAD = (
    "SELECT coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'lexical_changes'), 0),"
    " (SELECT min(seq) FROM lexical_changes)"
)


def _logged_since(position: int, oldest: int | None) -> bool:
    """Every change after `position` is still in the log, whose first row left is `oldest`: only rows
    up to some position are ever deleted, so none after `position` went when the first one left follows
    it (called when the head is past `position`: an empty log then lost what came after it)."""
    return oldest is not None and oldest <= position + 1


class PaperIds:
    """Paper id by rowid, in one array: a search maps its hits without reading the papers table (100
    rowid lookups there cost ~8 ms at 92k papers, the pages cold), and a dict of a million ids would
    hold ~120 MB."""

    def __init__(self) -> None:
        self.ids = np.array([], dtype="U1")

    def of(self, rows: list[int]) -> list[str]:
        return [str(self.ids[row]) if row < len(self.ids) else "" for row in rows]

    def put(self, pairs: list[tuple[int, str]], removed: list[int]) -> None:
        """`pairs` (rowid, id) now hold, `removed` rows no longer do (a row in both is a new paper's)."""
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


class IndexBeside:
    """The tantivy index in a folder beside a SQLite file, caught up with the papers before each search.

    The folder is named after the file and its inode (a library made again at the same path is another
    file). A missing, unreadable or inconsistent index is built again from the FTS5 table; one that
    cannot be brought in step (another process holds its writer, a read-only folder) answers nothing,
    and the store searches FTS5 instead.
    """

    def __init__(self, db: sqlite3.Connection, database: str) -> None:
        self.db = db
        self.database = database
        self.index: LexicalIndex | None = None
        self.ids = PaperIds()
        self.ids_at: int | None = None  # the position the ids are in step with

    def search(
        self, query: lexical.Query, limit: int, where: tuple[str, list], enough: int | None
    ) -> list[lexical.LexicalHit] | None:
        """As fts5.search for a parsed query, filters as the set of rows that pass them; None when the
        index cannot answer and FTS5 must."""
        return self._in_step(lambda index: self._found(index, query, limit, where, enough))

    def ready(self) -> LexicalIndex | None:
        """The index, in step with every committed paper (None when it cannot be)."""
        return self._in_step(lambda index: index)

    def forget_read(self) -> None:
        """Delete the log rows the index has read. Another connection whose ids are older than the rows
        left reads them all again (`_ids_caught_up`), so only the index's own position bounds this."""
        if (index := self.ready()) is not None and index.position is not None:
            self.db.execute("DELETE FROM lexical_changes WHERE seq <= ?", (index.position,))

    def _in_step(self, use: Callable[[LexicalIndex], T]) -> T | None:
        if self.db.in_transaction:  # the caller's own uncommitted writes: FTS5 sees them, the index must not
            return None
        try:
            self.db.execute("BEGIN")  # one snapshot for the position, the documents and the filters
            try:
                return use(self._caught_up())
            finally:
                self.db.execute("COMMIT")
        except (OSError, ValueError, sqlite3.DatabaseError):
            self.index = None
            return None

    def _found(
        self, index: LexicalIndex, query: lexical.Query, limit: int, where: tuple[str, list], enough: int | None
    ) -> list[lexical.LexicalHit]:
        where_sql, params = where
        rows = None
        if where_sql:
            rows = {r[0] for r in self.db.execute(f"SELECT p.rowid FROM papers AS p WHERE TRUE {where_sql}", params)}
            if not rows:
                return []
        found = index.search(query, limit, enough, rows)
        ids = self.ids.of([row for row, _, _ in found])
        return [lexical.LexicalHit(pid, score, every) for pid, (_, score, every) in zip(ids, found, strict=True) if pid]

    def _caught_up(self, fresh: bool = False) -> LexicalIndex:
        head, oldest = self.db.execute(_HEAD).fetchone()
        self._ids_caught_up(head, oldest)
        opened = self.index is None
        if self.index is None:
            self.index = self._opened()
        if self.index.position != head:
            self.index.refresh()  # another process may have caught it up
        position = self.index.position
        if position == head and not (opened and self._count_differs()):
            return self.index
        if position is not None and position > head and not fresh:
            # Another process committed papers since this snapshot began, and caught the index up:
            # a new snapshot sees them. (Still ahead after that, the file went back: built again below.)
            self.db.execute("COMMIT")
            self.db.execute("BEGIN")
            return self._caught_up(fresh=True)
        if position is not None and position < head and _logged_since(position, oldest):
            rows = self._changed_since(position)
            self.index.update(rows, documents(self.db, rows), head)
            if not self._count_differs():
                return self.index
        self.index.clear()
        self.index.update([], documents(self.db), head)
        return self.index

    def _ids_caught_up(self, head: int, oldest: int | None) -> None:
        if self.ids_at == head:
            return
        if self.ids_at is None or self.ids_at > head or not _logged_since(self.ids_at, oldest):
            self.ids = PaperIds()
            self.ids.put(self.db.execute("SELECT rowid, id FROM papers").fetchall(), [])
        else:
            rows = self._changed_since(self.ids_at)
            pairs = [
                pair
                for batch in _batches(rows)
                for pair in self.db.execute(
                    f"SELECT rowid, id FROM papers WHERE rowid IN ({', '.join('?' * len(batch))})", batch
                )
            ]
            self.ids.put(pairs, rows)
        self.ids_at = head

    def _changed_since(self, position: int) -> list[int]:
        return [r[0] for r in self.db.execute("SELECT DISTINCT row FROM lexical_changes WHERE seq > ?", (position,))]

    def _count_differs(self) -> bool:
        """The index does not hold one document per paper (a half-deleted folder, another library's index)."""
        assert self.index is not None
        return self.index.count() != self.db.execute("SELECT count(*) FROM papers").fetchone()[0]

    def _opened(self) -> LexicalIndex:
        folder = self.folder()
        for other in glob.glob(glob.escape(self.database) + ".lexical-*"):
            if Path(other) != folder:
                shutil.rmtree(other, ignore_errors=True)
        try:
            return LexicalIndex(folder)
        except ValueError:  # not an index any more: made again
            shutil.rmtree(folder, ignore_errors=True)
            return LexicalIndex(folder)

    def folder(self) -> Path | None:
        if self.database == ":memory:":
            return None
        return Path(f"{self.database}.lexical-{os.stat(self.database).st_ino}")
