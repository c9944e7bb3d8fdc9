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
from collections.abc import Iterator
from pathlib import Path

from paperscope.index import lexical
from paperscope.index.lexical_index import LexicalIndex

_COLUMNS = ", ".join(lexical.COLUMNS)
_BATCH = 500


def documents(db: sqlite3.Connection, rows: list[int] | None = None) -> Iterator[tuple[int, tuple[str, ...]]]:
    """(rowid, texts in lexical.COLUMNS order) of every indexed paper, or of those `rows`."""
    if rows is None:
        for rowid, *texts in db.execute(f"SELECT rowid, {_COLUMNS} FROM papers_fts"):
            yield rowid, tuple(texts)
        return
    for start in range(0, len(rows), _BATCH):
        batch = rows[start : start + _BATCH]
        marks = ", ".join("?" * len(batch))
        for rowid, *texts in db.execute(f"SELECT rowid, {_COLUMNS} FROM papers_fts WHERE rowid IN ({marks})", batch):
            yield rowid, tuple(texts)


def search(
    db: sqlite3.Connection,
    index: LexicalIndex,
    query: lexical.Query,
    limit: int,
    where: tuple[str, list],
    enough: int | None,
) -> list[lexical.LexicalHit]:
    """As fts5.search for a parsed query; filters as the set of rows that pass them."""
    where_sql, params = where
    rows = None
    if where_sql:
        rows = {r[0] for r in db.execute(f"SELECT p.rowid FROM papers AS p WHERE TRUE {where_sql}", params)}
        if not rows:
            return []
    found = index.search(query, limit, enough, rows)
    if not found:
        return []
    marks = ", ".join("?" * len(found))
    ids = dict(db.execute(f"SELECT rowid, id FROM papers WHERE rowid IN ({marks})", [row for row, _, _ in found]))
    return [lexical.LexicalHit(ids[row], score, every) for row, score, every in found if row in ids]


# Every insert into or delete from papers leaves the paper's rowid here, in the writer's transaction:
# what the index must read again, after the position it records.
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

    def ready(self) -> LexicalIndex | None:
        """The index, in step with every committed paper; None when FTS5 must answer."""
        if self.db.in_transaction:  # the caller's own uncommitted writes: FTS5 sees them, the index must not
            return None
        try:
            self.db.execute("BEGIN")  # one snapshot for the position and the documents read at it
            try:
                return self._caught_up()
            finally:
                self.db.execute("COMMIT")
        except (OSError, ValueError, sqlite3.DatabaseError):
            self.index = None
            return None

    def _caught_up(self) -> LexicalIndex:
        head = self.db.execute("SELECT coalesce(max(seq), 0) FROM lexical_changes").fetchone()[0]
        opened = self.index is None
        if self.index is None:
            self.index = self._opened()
        if self.index.position != head:
            self.index.refresh()  # another process may have caught it up
        position = self.index.position
        if position == head and not (opened and self._count_differs()):
            return self.index
        if position is not None and position < head:
            changed = self.db.execute("SELECT DISTINCT row FROM lexical_changes WHERE seq > ?", (position,))
            rows = [r[0] for r in changed]
            self.index.update(rows, documents(self.db, rows), head)
            if not self._count_differs():
                return self.index
        self.index.clear()
        self.index.update([], documents(self.db), head)
        return self.index

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
