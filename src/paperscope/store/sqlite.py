"""The SQLite store: one file, WAL, schema versioned by PRAGMA user_version.

The paper's exported JSON is stored whole (`papers.data`), with the columns that are filtered,
sorted or joined on beside it; sources keep the raw record they came from, so every paper can be
rebuilt from its sources at any time. The statements both stores share are core.py's; here is
what is SQLite's own: the schema and its migrations, the connection, transactions, backup, and
exact vector search over the matrix in memory (lexical search: tantivy_lexical.py, with fts5.py
the index of record and the fallback).
"""

from __future__ import annotations

import glob
import os
import shutil
import sqlite3
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from paperscope.errors import PaperscopeError
from paperscope.index import lexical, semantic, vector_file
from paperscope.model import Paper
from paperscope.progress import Progress
from paperscope.store import fts5, tantivy_lexical
from paperscope.store.base import DEFAULT_READER, WordCounts
from paperscope.store.core import LIBRARY_FACTS, SQLCore, browse_order_indexes, where
from paperscope.store.dialect import SQLITE
from paperscope.store.rows import identities, now_precise, unpack
from paperscope.store.upgrade import Upgrade


def _add_search(db: sqlite3.Connection) -> None:
    """2: the FTS5 index and the columns search filters on, filled from the papers already stored."""
    db.execute("ALTER TABLE papers ADD COLUMN contribution TEXT")
    db.execute("ALTER TABLE papers ADD COLUMN has_code INTEGER NOT NULL DEFAULT 0")
    db.execute(fts5.CREATE)
    rows = db.execute("SELECT rowid, data FROM papers").fetchall()
    for rowid, data in rows:
        paper = unpack(data)
        db.execute(
            "UPDATE papers SET contribution = ?, has_code = ? WHERE rowid = ?",
            (paper.contribution, bool(paper.urls.code), rowid),
        )
        db.execute(fts5.INSERT, (rowid, paper.id, *lexical.document(paper)))


def _add_vectors(db: sqlite3.Connection) -> None:
    """3: sentence vectors (kept apart from papers, keyed by the hash of the text they embed) and
    a source's own id (OpenReview, arXiv) as a column, so that it can be looked up."""
    db.execute("ALTER TABLE papers ADD COLUMN embed_hash TEXT")
    db.execute("CREATE TABLE vectors (paper_id TEXT PRIMARY KEY, embed_hash TEXT NOT NULL, vector BLOB NOT NULL)")
    for rowid, data in db.execute("SELECT rowid, data FROM papers").fetchall():
        db.execute("UPDATE papers SET embed_hash = ? WHERE rowid = ?", (semantic.text_hash(unpack(data)), rowid))
    db.execute("ALTER TABLE sources ADD COLUMN external_id TEXT")
    db.execute("UPDATE sources SET external_id = json_extract(record, '$.source.external_id')")
    db.execute("CREATE INDEX sources_external_id ON sources(external_id) WHERE external_id IS NOT NULL")


def _add_identities(db: sqlite3.Connection) -> None:
    """6: each paper's arXiv, DOI and OpenReview identities, which dedupe matches across sources."""
    db.execute(
        "CREATE TABLE paper_ids (identity TEXT NOT NULL, paper_id TEXT NOT NULL, PRIMARY KEY (identity, paper_id))"
        " WITHOUT ROWID"
    )
    db.execute("CREATE INDEX paper_ids_paper ON paper_ids(paper_id)")
    papers = [unpack(data) for (data,) in db.execute("SELECT data FROM papers")]
    db.executemany(
        "INSERT OR IGNORE INTO paper_ids (identity, paper_id) VALUES (?, ?)",
        ((identity, paper.id) for paper in papers for identity in identities(paper)),
    )


def _add_readers(db: sqlite3.Connection) -> None:
    """7: tags, reading states, notes and saved searches belong to a reader (until now, DEFAULT_READER's)."""
    for table, columns, key in _READER_TABLES:
        db.execute(f"ALTER TABLE {table} RENAME TO {table}_v6")
        db.execute(f"CREATE TABLE {table} (reader TEXT NOT NULL, {columns}, PRIMARY KEY (reader, {key}))")
        db.execute(f"INSERT INTO {table} SELECT ?, * FROM {table}_v6", (DEFAULT_READER,))
        db.execute(f"DROP TABLE {table}_v6")
    db.execute("CREATE INDEX tags_tag ON tags(reader, tag)")


def _index_joined_compounds(db: sqlite3.Connection) -> None:
    """13: every paper indexed again as lexical.document gives it now (a hyphenated word also joined:
    "pre-trained" is found by "pretrained"), and logged for the tantivy index beside the file to read again."""
    db.execute("DELETE FROM papers_fts")
    papers = db.execute("SELECT rowid, id, data FROM papers")
    db.executemany(fts5.INSERT, ((rowid, pid, *lexical.document(unpack(data))) for rowid, pid, data in papers))
    db.execute("INSERT INTO lexical_changes (row) SELECT rowid FROM papers")


_READER_TABLES = (
    ("tags", "paper_id TEXT NOT NULL, tag TEXT NOT NULL, added_at TEXT NOT NULL", "paper_id, tag"),
    (
        "reading",
        (
            "paper_id TEXT NOT NULL, state TEXT NOT NULL CHECK (state IN ('to read', 'reading', 'read')),"
            " updated_at TEXT NOT NULL"
        ),
        "paper_id",
    ),
    ("notes", "paper_id TEXT NOT NULL, text TEXT NOT NULL, updated_at TEXT NOT NULL", "paper_id"),
    (
        "saved_searches",
        ("name TEXT NOT NULL, query TEXT NOT NULL, mode TEXT NOT NULL, filters TEXT NOT NULL, last_seen TEXT NOT NULL"),
        "name",
    ),
)

MIGRATIONS: list[str | Callable[[sqlite3.Connection], None]] = [
    # 1: files, papers, sources, LSH bands
    """
    CREATE TABLE files (
        id INTEGER PRIMARY KEY,
        path TEXT NOT NULL UNIQUE,
        name TEXT NOT NULL,
        sha256 TEXT NOT NULL,
        format TEXT NOT NULL,
        records INTEGER NOT NULL,
        ingested_at TEXT NOT NULL
    );
    CREATE INDEX files_sha256 ON files(sha256);
    CREATE TABLE papers (
        id TEXT PRIMARY KEY,
        key TEXT NOT NULL UNIQUE,
        title_key TEXT,
        venue TEXT,
        year INTEGER,
        display_title TEXT NOT NULL,
        data TEXT NOT NULL,
        bands TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );
    CREATE INDEX papers_title_key ON papers(title_key);
    CREATE INDEX papers_venue_year ON papers(venue, year);
    CREATE TABLE sources (
        id INTEGER PRIMARY KEY,
        paper_id TEXT NOT NULL REFERENCES papers(id) DEFERRABLE INITIALLY DEFERRED,
        file_id INTEGER NOT NULL REFERENCES files(id),
        line INTEGER NOT NULL,
        key TEXT NOT NULL,
        record TEXT NOT NULL,
        UNIQUE (file_id, line)
    );
    CREATE INDEX sources_paper ON sources(paper_id);
    CREATE INDEX sources_key ON sources(key);
    CREATE TABLE paper_bands (
        band INTEGER NOT NULL,
        paper_id TEXT NOT NULL,
        PRIMARY KEY (band, paper_id)
    ) WITHOUT ROWID;
    """,
    _add_search,
    _add_vectors,
    # 4: topics and the map, recomputed whole by `analyze` (Library.analyze)
    """
    CREATE TABLE topics (id INTEGER PRIMARY KEY, label TEXT NOT NULL, keywords TEXT NOT NULL, size INTEGER NOT NULL);
    CREATE TABLE paper_topics (paper_id TEXT PRIMARY KEY, topic INTEGER NOT NULL, x REAL NOT NULL, y REAL NOT NULL);
    CREATE INDEX paper_topics_topic ON paper_topics(topic);
    """,
    # 5: the reader's own library, keyed by the stable paper id (it outlives re-ingests), and what
    # each ingest changed
    """
    CREATE TABLE tags (paper_id TEXT NOT NULL, tag TEXT NOT NULL, added_at TEXT NOT NULL, PRIMARY KEY (paper_id, tag));
    CREATE INDEX tags_tag ON tags(tag);
    CREATE TABLE reading (paper_id TEXT PRIMARY KEY,
                          state TEXT NOT NULL CHECK (state IN ('to read', 'reading', 'read')),
                          updated_at TEXT NOT NULL);
    CREATE TABLE notes (paper_id TEXT PRIMARY KEY, text TEXT NOT NULL, updated_at TEXT NOT NULL);
    CREATE TABLE saved_searches (name TEXT PRIMARY KEY, query TEXT NOT NULL, mode TEXT NOT NULL, filters TEXT NOT NULL,
                                 last_seen TEXT NOT NULL);
    CREATE TABLE changes (id INTEGER PRIMARY KEY, at TEXT NOT NULL, paper_id TEXT NOT NULL, kind TEXT NOT NULL,
                          detail TEXT NOT NULL);
    CREATE INDEX changes_at ON changes(at);
    CREATE INDEX changes_paper ON changes(paper_id);
    """,
    _add_identities,
    _add_readers,
    # 8: citation keys, assigned once (paperscope.citekeys); a gone paper's key stays taken
    """
    CREATE TABLE cite_keys (key TEXT PRIMARY KEY COLLATE NOCASE, paper_id TEXT NOT NULL UNIQUE);
    """,
    tantivy_lexical.add_log,
    # 10: FTS5 gathers up to 64 MiB of new terms before it writes them as a segment; with the default
    # 1 MiB a large ingest wrote and merged many small ones (inserts 1.5x faster at 92k papers)
    f"INSERT INTO papers_fts (papers_fts, rank) VALUES ('hashsize', {fts5.PENDING_BYTES})",
    # 11: which papers lack a current vector, read from two indexes alone: embed_hash, added by migration 3,
    # stands after the paper's JSON in its row, and counting them after every ingest read every paper's
    # row whole and every vector's row (1M papers: 3.9 s → 0.31 s)
    """
    CREATE INDEX papers_embed ON papers(id, embed_hash);
    CREATE INDEX vectors_current ON vectors(paper_id, embed_hash);
    """,
    # 12: a paper inserted is logged for the tantivy index by the store (tantivy_lexical.log_added), not by
    # a trigger: SQLite runs row triggers only, and with one the papers inserts of a large ingest took over
    # twice the CPU (the whole corpus: 3.4 s against 1.3, the rows alone)
    "DROP TRIGGER papers_added",
    _index_joined_compounds,
    # 14: the facets (the browse page's side bar) counted from one covering index: contribution and has_code
    # had none, and counting them read every paper's row whole (92.5k papers: 412 ms a browse page, 49 after);
    # with the id, the topics of the papers a filter keeps are counted from it too
    "CREATE INDEX papers_facets ON papers(contribution, has_code, venue, year, id)",
    LIBRARY_FACTS,
    # 16: papers_by_venue begins with papers_venue_year's two columns; an ascending index puts NULLs first
    f"DROP INDEX papers_venue_year; {browse_order_indexes('')}",
]
SCHEMA_VERSION = len(MIGRATIONS)
_READING_CACHE = -32_768  # KiB: 32 MiB
_WRITING_CACHE = -131_072  # 128 MiB
_BUSY_MS = 30_000  # how long a statement waits for another connection's lock


class SQLiteStore(SQLCore):
    concurrent = False  # one connection: callers take turns
    dialect = SQLITE
    schema_version = SCHEMA_VERSION
    row_column = "rowid"
    lexical_head = tantivy_lexical.SQLITE_HEAD
    database_errors = (sqlite3.DatabaseError,)

    def __init__(self, path: str | Path, progress: Progress | None = None) -> None:
        super().__init__()
        self.path = str(path)
        if self.path != ":memory:" and not Path(self.path).parent.is_dir():
            raise PaperscopeError(f"{path}: cannot create the library there: its folder does not exist")
        self.vector_index_beside = None if self.path == ":memory:" else Path(self.path)
        try:
            self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=_BUSY_MS / 1000)
            self.db.execute("PRAGMA journal_mode=WAL")
        except sqlite3.DatabaseError as exc:
            locked = "locked" in str(exc)  # a first load holds it alone (bulk)
            why = "another process is loading it; try again once it is done" if locked else "not a paperscope database"
            raise PaperscopeError(f"{path}: {why} ({exc})") from None
        self.db.execute("PRAGMA foreign_keys=ON")
        self._frequencies: dict[str, object] = {}  # document frequencies search has looked up
        self._vocabulary: tuple[object, dict[str, int]] = (None, {})
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.execute(f"PRAGMA cache_size={_READING_CACHE}")
        upgrade = self._migrate(progress)
        self._lexical = tantivy_lexical.IndexBeside(self)
        upgrade.finish(self._lexical.ready)

    def _migrate(self, progress: Progress | None) -> Upgrade:
        version = self.db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise PaperscopeError(f"{self.path}: made by a newer paperscope (schema {version} > {SCHEMA_VERSION})")
        upgrade = Upgrade(version, SCHEMA_VERSION, progress)
        for number in upgrade.steps():
            with self.transaction():
                step = MIGRATIONS[number]
                if callable(step):
                    step(self.db)
                else:
                    for statement in step.split(";"):
                        if statement.strip():
                            self.db.execute(statement)
                self.db.execute(f"PRAGMA user_version = {number + 1}")
        return upgrade

    # how a statement runs

    def _all(self, sql: str, params: Iterable = ()) -> list[tuple]:
        return self.db.execute(sql, tuple(params)).fetchall()

    def _one(self, sql: str, params: Iterable = ()) -> tuple | None:
        return self.db.execute(sql, tuple(params)).fetchone()

    def _run(self, sql: str, params: Iterable = ()) -> None:
        self.db.execute(sql, tuple(params))

    def _many(self, sql: str, rows: Iterable[Iterable]) -> None:
        self.db.executemany(sql, rows)

    def _stream(self, sql: str, params: Iterable = ()) -> Iterator[tuple]:
        yield from self.db.execute(sql, tuple(params))

    @contextmanager
    def transaction(self) -> Iterator[None]:
        self.db.execute("BEGIN IMMEDIATE")
        self._stamp = now_precise()  # every change logged in this transaction carries it
        try:
            yield
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    def close(self) -> None:
        self.db.close()

    @contextmanager
    def bulk(self) -> Iterator[None]:
        """A large page cache for the length of an ingest, which inserts into indexes keyed by hashes,
        i.e. at random places; a server keeps the small one (it reads few pages per request).

        A first load, into an empty library that no other connection has open, writes through a rollback
        journal. In the write-ahead log, every page the cache does not hold is looked for in the log's
        hash tables, one per 4,096 pages written, newest first: one transaction of a million papers wrote
        9.9 GB there, and the writer spent ever more of its time looking. A rollback journal keeps only
        the pages the library had before (its empty tables), and is no less atomic. It holds the file
        alone: a process that opens the library meanwhile is told another is loading it (it would have
        found no papers). Every connection asks for the write-ahead log as it opens: a library that a
        killed load left with a rollback journal is rolled back and in the log again at its next opening."""
        self.db.execute(f"PRAGMA cache_size={_WRITING_CACHE}")
        journaled = self.path != ":memory:" and self._no_papers() and self._journal("delete")
        try:
            yield
        finally:
            self.db.execute(f"PRAGMA cache_size={_READING_CACHE}")
            if journaled:
                self._journal("wal")

    def _journal(self, mode: str) -> bool:
        """Says whether the library now writes through this journal: another connection holding it open
        keeps it in the write-ahead log, at once (not after the wait for a lock)."""
        self.db.execute("PRAGMA busy_timeout=0")
        try:
            return self.db.execute(f"PRAGMA journal_mode={mode}").fetchone()[0] == mode
        except sqlite3.OperationalError:  # locked: another connection has it open
            return False
        finally:
            self.db.execute(f"PRAGMA busy_timeout={_BUSY_MS}")

    def _exclusive(self) -> None:
        pass  # BEGIN IMMEDIATE took the write lock: writers already take turns

    def version(self) -> tuple[int, int]:
        """Changes whenever the library does (another connection's commit or this one's write); O(1)."""
        return self.db.execute("PRAGMA data_version").fetchone()[0], self.db.total_changes

    def papers_version(self) -> int:
        """The head of the papers' change log (AUTOINCREMENT never lowers it): the same for every connection."""
        return int(self._one(self.lexical_head)[0])  # type: ignore[index]

    def catch_up_indexes(self, prune: bool = False) -> None:
        """The tantivy index beside the file takes in the papers written since it last did."""
        if prune:
            self._lexical.forget_read()
        else:
            self._lexical.ready()

    # the tantivy index beside the file (tantivy_lexical.IndexBeside), read from the FTS5 table

    @contextmanager
    def lexical_snapshot(self) -> Iterator[bool]:
        if self.db.in_transaction:
            yield False
            return
        self.db.execute("BEGIN")
        try:
            yield True
        finally:
            self.db.execute("COMMIT")

    def lexical_documents(self, rows: list[int] | None) -> Iterator[tuple[int, tuple[str, ...]]]:
        return tantivy_lexical.fts5_documents(self.db, rows)

    def lexical_folder(self) -> Path | None:
        """Beside the file, named after it and its inode (a library made again at the same path is another
        file); the folders of the files that were at this path before are removed."""
        if self.path == ":memory:":
            return None
        folder = Path(f"{self.path}.lexical-{os.stat(self.path).st_ino}")
        for other in glob.glob(glob.escape(self.path) + ".lexical-*"):
            if Path(other) != folder:
                shutil.rmtree(other, ignore_errors=True)
        return folder

    # searching: tantivy beside the file (tantivy_lexical.py), FTS5 (fts5.py) for raw expressions and
    # whenever the index cannot be brought in step

    def _index(self, papers: list[Paper]) -> None:
        tantivy_lexical.log_added(self.db, fts5.index(self.db, papers))

    def _unindex(self, paper_id: str, data: str) -> None:
        fts5.unindex(self.db, paper_id)

    def _search(
        self, query: lexical.Query, limit: int, filters: lexical.Filters, raw: str | None, enough: int | None
    ) -> list[lexical.LexicalHit]:
        passing = where(filters, SQLITE)
        if raw is None and (hits := self._lexical.search(query, limit, passing, enough)) is not None:
            return hits
        try:
            return fts5.search(self.db, query, limit, passing, raw, self._frequencies, enough)
        except sqlite3.OperationalError as exc:  # only a raw FTS5 expression can be malformed
            raise PaperscopeError(f"invalid FTS5 query: {exc}") from None

    def matching_ids(self, expression: str) -> set[str]:
        """Ids of the papers an FTS5 expression matches (what `-word` excludes, in any mode)."""
        return fts5.matching_ids(self.db, expression)

    def word_counts(self) -> WordCounts:
        """From FTS5's own vocabulary, or a word's first match (fts5.presence)."""
        frequency = fts5.frequencies(self.db, self._frequencies)
        return WordCounts(lambda word: frequency(f'"{word}"'), fts5.presence(self.db, self._frequencies, frequency))

    def vocabulary(self) -> dict[str, int]:
        """Every indexed word with its document frequency, read in one pass and kept until the library changes."""
        version = self.version()
        if self._vocabulary[0] != version:
            self._vocabulary = (version, fts5.vocabulary(self.db))
        return self._vocabulary[1]

    # vectors: exact search over the matrix in memory

    def _write_vectors(self, rows: list[tuple[str, str, bytes]]) -> None:
        self._many("INSERT OR REPLACE INTO vectors (paper_id, embed_hash, vector) VALUES (?, ?, ?)", rows)

    def _loaded_vectors(self) -> semantic.Vectors:
        """As every store's, but memory-mapped from one file beside the library (index/vector_file.py),
        so that several connections and server processes share one copy; the file's key names them."""
        if self.path == ":memory:":
            return super()._loaded_vectors()
        key = vector_file.state(self.path, self._vectors_state())
        return vector_file.load(self.path, key, self._vector_rows_counted).indexed(self.vector_index_beside, key)

    def _vectors_state(self) -> tuple[int, ...]:
        """Read in a millisecond, and different whenever the current vectors may be: a vector written
        takes a new row number; a paper added or updated too (put_paper inserts it again); a paper
        removed lowers the count and is logged (so removing the last paper and adding another shows)."""
        return self.db.execute(
            "SELECT (SELECT max(rowid) FROM vectors), (SELECT count(*) FROM vectors), (SELECT max(rowid) FROM papers),"
            " (SELECT count(*) FROM papers), (SELECT max(id) FROM changes)"
        ).fetchone()

    def vector_of(self, paper_id: str) -> np.ndarray | None:
        vectors = self.vectors()
        position = vectors.position.get(paper_id)
        return None if position is None else vectors.matrix[position]

    def nearest(
        self,
        vector: np.ndarray,
        k: int,
        filters: lexical.Filters | None = None,
        within: set[str] | None = None,
        exclude: list[str] | None = None,
        skip: set[str] | None = None,
    ) -> list[tuple[str, float]]:
        """Exact cosine search over the vectors in memory: one matrix-vector product."""
        allowed = self.filtered_ids(filters) if filters and filters.active else None
        if within is not None:
            allowed = within if allowed is None else allowed & within
        excluded = (skip or set()) | (self.matching_ids(" OR ".join(exclude)) if exclude else set())
        return self.vectors().nearest(vector, k, allowed, excluded or None)

    # safekeeping

    def backup(self, destination: str | Path) -> None:
        """A consistent copy through SQLite's online backup: safe while others read and write."""
        target = sqlite3.connect(str(destination))
        try:
            self.db.backup(target, pages=4096)
        finally:
            target.close()

    def _integrity(self) -> str | list[str]:
        problems = [row[0] for row in self.db.execute("PRAGMA integrity_check")]
        return "ok" if problems == ["ok"] else problems
