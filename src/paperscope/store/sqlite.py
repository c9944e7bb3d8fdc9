"""The SQLite store: one file, WAL, schema versioned by PRAGMA user_version.

The paper's exported JSON is stored whole (`papers.data`), with the columns that are filtered,
sorted or joined on beside it; sources keep the raw record they came from, so every paper can be
rebuilt from its sources at any time.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import orjson

from paperscope.errors import PaperscopeError
from paperscope.index import lexical, semantic, vector_file
from paperscope.model import Paper, RawRecord
from paperscope.store.base import DEFAULT_READER, FileRow, LibraryPaper
from paperscope.store.rows import (
    COLUMNS,
    VectorCache,
    change_detail,
    chunks,
    dump_query,
    identities,
    now,
    now_precise,
    pack,
    tally_facets,
    unpack,
)


def _add_search(db: sqlite3.Connection) -> None:
    """2: the FTS5 index and the columns search filters on, filled from the papers already stored."""
    db.execute("ALTER TABLE papers ADD COLUMN contribution TEXT")
    db.execute("ALTER TABLE papers ADD COLUMN has_code INTEGER NOT NULL DEFAULT 0")
    columns = ", ".join(lexical.COLUMNS)
    db.execute(
        f"CREATE VIRTUAL TABLE papers_fts USING fts5(paper_id UNINDEXED, {columns},"
        " tokenize = 'unicode61 remove_diacritics 2')"
    )
    rows = db.execute("SELECT rowid, data FROM papers").fetchall()
    for rowid, data in rows:
        paper = unpack(data)
        db.execute(
            "UPDATE papers SET contribution = ?, has_code = ? WHERE rowid = ?",
            (paper.contribution, bool(paper.urls.code), rowid),
        )
        db.execute(_FTS_INSERT, (rowid, paper.id, *lexical.document(paper)))


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
    for (data,) in db.execute("SELECT data FROM papers").fetchall():
        _put_identities(db, [unpack(data)])


def _put_identities(db: sqlite3.Connection, papers: Iterable[Paper]) -> None:
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

_FTS_FROM_PAPER = (
    f"INSERT INTO papers_fts (rowid, paper_id, {', '.join(lexical.COLUMNS)})"
    f" SELECT rowid, ?{', ?' * len(lexical.COLUMNS)} FROM papers WHERE id = ?"
)
_FTS_INSERT = (
    f"INSERT INTO papers_fts (rowid, paper_id, {', '.join(lexical.COLUMNS)})"
    f" VALUES (?, ?{', ?' * len(lexical.COLUMNS)})"
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
]
SCHEMA_VERSION = len(MIGRATIONS)
_ORDERS = {"id": "id", "venue": "venue, year, id", "year": "year, venue, id", "title": "display_title, id"}
_READING_CACHE = -32_768  # KiB: 32 MiB
_WRITING_CACHE = -131_072  # 128 MiB
_FACETS = ("venue", "year", "contribution", "has_code")  # constants: the only columns grouped on
# A paper's topic label, kept beside the paper (topics are recomputed whole, papers are not rewritten)
_TOPIC_LABEL = "(SELECT t.label FROM paper_topics AS pt JOIN topics AS t ON t.id = pt.topic WHERE pt.paper_id = p.id)"


class SQLiteStore:
    concurrent = False  # one connection: callers take turns

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        if self.path != ":memory:" and not Path(self.path).parent.is_dir():
            raise PaperscopeError(f"{path}: cannot create the library there: its folder does not exist")
        try:
            self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=30)
            self.db.execute("PRAGMA journal_mode=WAL")
        except sqlite3.DatabaseError as exc:
            raise PaperscopeError(f"{path}: not a paperscope database ({exc})") from None
        self.db.execute("PRAGMA foreign_keys=ON")
        self._frequencies: dict[str, object] = {}
        self._vocabulary: tuple[object, dict[str, int]] = (None, {})
        self._vectors = VectorCache()  # document frequencies search has looked up
        self._stamp = now_precise()
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.execute(f"PRAGMA cache_size={_READING_CACHE}")
        self._migrate()

    def _migrate(self) -> None:
        version = self.db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise PaperscopeError(f"{self.path}: made by a newer paperscope (schema {version} > {SCHEMA_VERSION})")
        for number in range(version, SCHEMA_VERSION):
            with self.transaction():
                step = MIGRATIONS[number]
                if callable(step):
                    step(self.db)
                else:
                    for statement in step.split(";"):
                        if statement.strip():
                            self.db.execute(statement)
                self.db.execute(f"PRAGMA user_version = {number + 1}")

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
        i.e. at random places; a server keeps the small one (it reads few pages per request)."""
        self.db.execute(f"PRAGMA cache_size={_WRITING_CACHE}")
        try:
            yield
        finally:
            self.db.execute(f"PRAGMA cache_size={_READING_CACHE}")

    # files

    def file_by_path(self, path: str) -> FileRow | None:
        row = self.db.execute("SELECT id, path, sha256 FROM files WHERE path = ?", (path,)).fetchone()
        return FileRow(*row) if row else None

    def has_file_hash(self, sha256: str) -> bool:
        return self.db.execute("SELECT 1 FROM files WHERE sha256 = ?", (sha256,)).fetchone() is not None

    def put_file(self, path: str, name: str, sha256: str, fmt: str, records: int) -> tuple[int, set[str]]:
        """Record a file read now; a new version of a known file drops the old version's sources."""
        old = self.file_by_path(path)
        if old is None:
            cursor = self.db.execute(
                "INSERT INTO files (path, name, sha256, format, records, ingested_at) VALUES (?, ?, ?, ?, ?, ?)",
                (path, name, sha256, fmt, records, now()),
            )
            return int(cursor.lastrowid or 0), set()
        affected = {r[0] for r in self.db.execute("SELECT paper_id FROM sources WHERE file_id = ?", (old.id,))}
        self.db.execute("DELETE FROM sources WHERE file_id = ?", (old.id,))
        self.db.execute(
            "UPDATE files SET name = ?, sha256 = ?, format = ?, records = ?, ingested_at = ? WHERE id = ?",
            (name, sha256, fmt, records, now(), old.id),
        )
        return old.id, affected

    # sources and papers

    def candidates(
        self, keys: Iterable[str], bands: Iterable[int], title_keys: Iterable[str], identities: Iterable[str] = ()
    ) -> list[LibraryPaper]:
        """Stored papers that share an exact key, an LSH band, a title or an identity with the records given."""
        ids: set[str] = set()
        for sql, values in (
            ("SELECT paper_id FROM sources WHERE key IN ({})", list(set(keys))),
            ("SELECT paper_id FROM paper_bands WHERE band IN ({})", list(set(bands))),
            ("SELECT id FROM papers WHERE title_key IN ({})", list(set(title_keys))),
            ("SELECT paper_id FROM paper_ids WHERE identity IN ({})", list(set(identities))),
        ):
            for chunk in chunks(values):
                ids.update(r[0] for r in self.db.execute(sql.format(",".join("?" * len(chunk))), chunk))
        found: list[LibraryPaper] = []
        for chunk in chunks(sorted(ids)):
            rows = self.db.execute(
                "SELECT id, key, title_key, venue, year, json_extract(data, '$.abstract'),"
                " (SELECT group_concat(identity, char(31)) FROM paper_ids WHERE paper_id = papers.id) FROM papers"
                f" WHERE id IN ({','.join('?' * len(chunk))}) ORDER BY id",
                chunk,
            )
            found.extend(LibraryPaper(*row[:6], tuple(row[6].split("\x1f")) if row[6] else ()) for row in rows)
        return found

    def add_sources(self, rows: Iterable[tuple[str, int, int, str, RawRecord]]) -> None:
        """Rows of (paper id, file id, line, exact key, raw record)."""
        self.db.executemany(
            "INSERT INTO sources (paper_id, file_id, line, key, record, external_id) VALUES (?, ?, ?, ?, ?, ?)",
            (
                (pid, fid, line, key, orjson.dumps(rec).decode(), rec.source.external_id)
                for pid, fid, line, key, rec in rows
            ),
        )

    def source_records(self, paper_id: str) -> list[RawRecord]:
        rows = self.db.execute("SELECT record FROM sources WHERE paper_id = ? ORDER BY id", (paper_id,))
        return [RawRecord.from_dict(orjson.loads(r[0])) for r in rows]

    def add_papers(self, rows: Iterable[tuple[Paper, str, str | None, tuple[int, ...]]]) -> None:
        """Insert papers known to be new: rows of (paper, key, title key, LSH bands); logged as added."""
        rows = list(rows)
        self._insert(rows)
        self._log((p.id, "added", p.display_title) for p, _, _, _ in rows)

    def _insert(
        self, rows: list[tuple[Paper, str, str | None, tuple[int, ...]]], stamps: list[str] | None = None
    ) -> None:
        stamps = stamps or [now()] * len(rows)
        self.db.executemany(
            "INSERT INTO papers (id, key, title_key, venue, year, display_title, contribution, has_code, data,"
            " bands, updated_at, embed_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                (
                    p.id,
                    key,
                    title_key,
                    p.venue,
                    p.year,
                    p.display_title,
                    p.contribution,
                    bool(p.urls.code),
                    pack(p),
                    orjson.dumps(bands).decode(),
                    stamp,
                    semantic.text_hash(p),
                )
                for (p, key, title_key, bands), stamp in zip(rows, stamps, strict=True)
            ),
        )
        self.db.executemany(_FTS_FROM_PAPER, ((p.id, *lexical.document(p), p.id) for p, _, _, _ in rows))
        _put_identities(self.db, (p for p, _, _, _ in rows))
        self.db.executemany(
            "INSERT INTO paper_bands (band, paper_id) VALUES (?, ?)",
            ((band, p.id) for p, _, _, bands in rows for band in bands),
        )

    def put_paper(self, paper: Paper, key: str, title_key: str | None, bands: tuple[int, ...]) -> str:
        """Insert or replace a paper; says whether it was created, updated or left unchanged."""
        data = pack(paper)
        old = self.db.execute("SELECT data FROM papers WHERE id = ?", (paper.id,)).fetchone()
        if old and old[0] == data:
            return "unchanged"
        if not old:
            self.add_papers([(paper, key, title_key, bands)])
            return "created"
        self._drop(paper.id)
        self._insert([(paper, key, title_key, bands)])
        if detail := change_detail(unpack(old[0]), paper):
            self._log([(paper.id, "changed", detail)])
        return "updated"

    def _drop(self, paper_id: str) -> None:
        """A paper out of the papers table, its bands and its search index row."""
        row = self.db.execute("SELECT rowid, bands FROM papers WHERE id = ?", (paper_id,)).fetchone()
        if row:
            self.db.executemany(
                "DELETE FROM paper_bands WHERE band = ? AND paper_id = ?", ((b, paper_id) for b in orjson.loads(row[1]))
            )
            self.db.execute("DELETE FROM papers_fts WHERE rowid = ?", (row[0],))
            self.db.execute("DELETE FROM paper_ids WHERE paper_id = ?", (paper_id,))
            self.db.execute("DELETE FROM papers WHERE rowid = ?", (row[0],))

    def remove_orphans(self) -> int:
        """Delete papers no source points at any more (their list changed); returns how many."""
        orphans = self.db.execute(
            "SELECT id, display_title FROM papers WHERE id NOT IN (SELECT paper_id FROM sources)"
        ).fetchall()
        for paper_id, _ in orphans:
            self._drop(paper_id)
        self._log((paper_id, "removed", title) for paper_id, title in orphans)
        # A changed paper keeps its vector while the text it embeds is the same; a removed one loses it.
        self.db.execute("DELETE FROM vectors WHERE paper_id NOT IN (SELECT id FROM papers)")
        return len(orphans)

    def _log(self, rows: Iterable[tuple[str, str, str]]) -> None:
        self.db.executemany(
            "INSERT INTO changes (at, paper_id, kind, detail) VALUES (?, ?, ?, ?)",
            ((self._stamp, pid, kind, detail) for pid, kind, detail in rows),
        )

    def changes(self, since: str | None = None) -> list[tuple[str, str, str, str]]:
        """(at, paper id, kind, detail) of the changes after `since` (default: the last ingest that changed
        anything)."""
        if since is None:
            last = self.db.execute("SELECT max(at) FROM changes").fetchone()[0]
            rows = self.db.execute(
                "SELECT at, paper_id, kind, detail FROM changes WHERE at = ? ORDER BY kind, id", (last,)
            )
        else:
            rows = self.db.execute(
                "SELECT at, paper_id, kind, detail FROM changes WHERE at > ? ORDER BY at, kind, id", (since,)
            )
        return rows.fetchall()

    def added_since(self, since: str) -> set[str]:
        return {r[0] for r in self.db.execute("SELECT paper_id FROM changes WHERE kind = 'added' AND at > ?", (since,))}

    def document_frequency(self, word: str) -> int:
        """How many papers' indexed text holds `word` (FTS5's own vocabulary; remembered)."""
        return lexical._frequencies(self.db, self._frequencies)(f'"{word}"')

    def vocabulary(self) -> dict[str, int]:
        """Every indexed word with its document frequency, read in one pass and kept until the library changes."""
        version = self.version()
        if self._vocabulary[0] != version:
            self.db.execute(
                "CREATE VIRTUAL TABLE IF NOT EXISTS temp.papers_vocab USING fts5vocab(main, papers_fts, 'row')"
            )
            self._vocabulary = (version, dict(self.db.execute("SELECT term, doc FROM temp.papers_vocab")))
        return self._vocabulary[1]

    # the reader's own library

    def tag(self, reader: str, paper_id: str, tag: str, on: bool) -> None:
        if on:
            self.db.execute(
                "INSERT OR IGNORE INTO tags (reader, paper_id, tag, added_at) VALUES (?, ?, ?, ?)",
                (reader, paper_id, tag, now()),
            )
        else:
            self.db.execute("DELETE FROM tags WHERE reader = ? AND paper_id = ? AND tag = ?", (reader, paper_id, tag))

    def tags(self, reader: str, paper_id: str | None = None) -> list[tuple[str, int]]:
        """(tag, papers) over the reader's library, or the tags of one paper (count 1 each)."""
        if paper_id is not None:
            rows = self.db.execute(
                "SELECT tag FROM tags WHERE reader = ? AND paper_id = ? ORDER BY tag", (reader, paper_id)
            )
            return [(t, 1) for (t,) in rows]
        return self.db.execute(
            "SELECT tag, count(*) FROM tags WHERE reader = ? GROUP BY tag ORDER BY tag", (reader,)
        ).fetchall()

    def set_state(self, reader: str, paper_id: str, state: str | None) -> None:
        if state is None:
            self.db.execute("DELETE FROM reading WHERE reader = ? AND paper_id = ?", (reader, paper_id))
        else:
            self.db.execute(
                "INSERT OR REPLACE INTO reading (reader, paper_id, state, updated_at) VALUES (?, ?, ?, ?)",
                (reader, paper_id, state, now()),
            )

    def state(self, reader: str, paper_id: str) -> str | None:
        row = self.db.execute(
            "SELECT state FROM reading WHERE reader = ? AND paper_id = ?", (reader, paper_id)
        ).fetchone()
        return row[0] if row else None

    def set_note(self, reader: str, paper_id: str, text: str) -> None:
        if text.strip():
            self.db.execute(
                "INSERT OR REPLACE INTO notes (reader, paper_id, text, updated_at) VALUES (?, ?, ?, ?)",
                (reader, paper_id, text, now()),
            )
        else:
            self.db.execute("DELETE FROM notes WHERE reader = ? AND paper_id = ?", (reader, paper_id))

    def note(self, reader: str, paper_id: str) -> str | None:
        row = self.db.execute("SELECT text FROM notes WHERE reader = ? AND paper_id = ?", (reader, paper_id)).fetchone()
        return row[0] if row else None

    def listed(self, reader: str, tag: str | None = None, state: str | None = None) -> list[str]:
        """Ids of the papers with this tag and/or in this reading state (any state: the reading list)."""
        clauses, params = [], []
        if tag is not None:
            clauses.append("id IN (SELECT paper_id FROM tags WHERE reader = ? AND tag = ?)")
            params += [reader, tag]
        if state is not None:
            clauses.append("id IN (SELECT paper_id FROM reading WHERE reader = ? AND state = ?)")
            params += [reader, state]
        if not clauses:
            clauses.append("id IN (SELECT paper_id FROM reading WHERE reader = ?)")
            params.append(reader)
        return [
            r[0]
            for r in self.db.execute(
                f"SELECT id FROM papers WHERE {' AND '.join(clauses)} ORDER BY display_title", params
            )
        ]

    def save_search(self, reader: str, name: str, query: str, mode: str, filters: str) -> None:
        self.db.execute(
            "INSERT OR REPLACE INTO saved_searches (reader, name, query, mode, filters, last_seen)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (reader, name, query, mode, filters, now_precise()),
        )

    def saved_searches(self, reader: str) -> list[tuple[str, str, str, str, str]]:
        return self.db.execute(
            "SELECT name, query, mode, filters, last_seen FROM saved_searches WHERE reader = ? ORDER BY name", (reader,)
        ).fetchall()

    def seen(self, reader: str, name: str) -> None:
        self.db.execute(
            "UPDATE saved_searches SET last_seen = ? WHERE reader = ? AND name = ?", (now_precise(), reader, name)
        )

    # vectors

    _MISSING = (
        " FROM papers AS p LEFT JOIN vectors AS v ON v.paper_id = p.id AND v.embed_hash = p.embed_hash"
        " WHERE v.paper_id IS NULL"
    )

    def count_missing_vectors(self) -> int:
        return int(self.db.execute("SELECT count(*)" + self._MISSING).fetchone()[0])

    def missing_vectors(self, limit: int) -> list[tuple[str, str, Paper]]:
        """Papers whose vector is missing or stale: (id, text hash, paper), in a stable order."""
        sql = "SELECT p.id, p.embed_hash, p.data" + self._MISSING + " ORDER BY p.rowid LIMIT ?"
        return [(pid, digest, unpack(data)) for pid, digest, data in self.db.execute(sql, (limit,))]

    def put_vectors(self, rows: Iterable[tuple[str, str, bytes]]) -> None:
        self.db.executemany("INSERT OR REPLACE INTO vectors (paper_id, embed_hash, vector) VALUES (?, ?, ?)", rows)

    _CURRENT = " FROM vectors AS v JOIN papers AS p ON p.id = v.paper_id AND p.embed_hash = v.embed_hash"

    def count_vectors(self) -> int:
        return int(self.db.execute("SELECT count(*)" + self._CURRENT).fetchone()[0])

    def vector_rows(self) -> Iterator[tuple[str, bytes]]:
        """(paper id, vector) of every paper whose vector is up to date, streamed."""
        return self.db.execute("SELECT v.paper_id, v.vector" + self._CURRENT + " ORDER BY p.rowid")

    def vectors(self) -> semantic.Vectors:
        """Every up-to-date vector, loaded once, and again only after the library has changed."""
        return self._vectors.get(self.version(), self._mapped_vectors)

    def _mapped_vectors(self) -> semantic.Vectors:
        def read() -> semantic.Vectors:
            return semantic.Vectors.from_rows(self.count_vectors(), self.vector_rows())

        if self.path == ":memory:":
            return read()
        return vector_file.load(self.path, vector_file.state(self.path, self._vectors_state()), read)

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

    def version(self) -> tuple[int, int]:
        """Changes whenever the library does (another connection's commit or this one's write); O(1)."""
        return self.db.execute("PRAGMA data_version").fetchone()[0], self.db.total_changes

    # searching

    def search_lexical(
        self,
        query: lexical.Query,
        limit: int,
        filters: lexical.Filters | None = None,
        raw: str | None = None,
        enough: int | None = None,
    ) -> list[lexical.LexicalHit]:
        try:
            return lexical.search(self.db, query, limit, filters, raw, self._frequencies, enough)
        except sqlite3.OperationalError as exc:  # only a raw FTS5 expression can be malformed
            raise PaperscopeError(f"invalid FTS5 query: {exc}") from None

    def count_every(self, query: lexical.Query, filters: lexical.Filters | None = None) -> int:
        return lexical.count_every(self.db, query, filters)

    def filtered_ids(self, filters: lexical.Filters) -> set[str]:
        where, params = filters.sql()
        return {r[0] for r in self.db.execute(f"SELECT p.id FROM papers AS p WHERE 1 {where}", params)}

    def matching_ids(self, expression: str) -> set[str]:
        """Ids of the papers an FTS5 expression matches (what `-word` excludes, in any mode)."""
        return {
            r[0] for r in self.db.execute("SELECT paper_id FROM papers_fts WHERE papers_fts MATCH ?", (expression,))
        }

    # moving a whole library

    def dump(self) -> Iterator[tuple[str, list[tuple]]]:
        """Every table as (name, rows) batches, in the order and shape of rows.COLUMNS."""
        for table in COLUMNS:
            cursor = self.db.execute(dump_query(table))
            while batch := cursor.fetchmany(1_000):
                yield table, batch

    def load(self, table: str, rows: list[tuple]) -> None:
        """Rows of one table as `dump` gives them (inside the caller's transaction; into an empty library)."""
        if table == "papers":
            self._insert(
                [(unpack(data), key, title_key, tuple(orjson.loads(bands))) for data, key, title_key, bands, _ in rows],
                [stamp for *_, stamp in rows],
            )
            return
        columns = COLUMNS[table]
        self.db.executemany(
            f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})", rows
        )

    # safekeeping

    def backup(self, destination: str | Path) -> None:
        """A consistent copy through SQLite's online backup: safe while others read and write."""
        target = sqlite3.connect(str(destination))
        try:
            self.db.backup(target, pages=4096)
        finally:
            target.close()

    def check(self) -> dict[str, object]:
        """PRAGMA integrity_check and what the library holds."""
        problems = [row[0] for row in self.db.execute("PRAGMA integrity_check")]
        counts = {
            table: int(self.db.execute(f"SELECT count(*) FROM {table}").fetchone()[0])
            for table in ("files", "papers", "sources", "vectors", "topics")
        }
        return {
            "integrity": "ok" if problems == ["ok"] else problems,
            **counts,
            "vectors_missing": self.count_missing_vectors(),
            "schema": SCHEMA_VERSION,
        }

    # reading

    def paper_by_external_id(self, external_id: str) -> Paper | None:
        row = self.db.execute(
            "SELECT p.data FROM sources AS s JOIN papers AS p ON p.id = s.paper_id WHERE s.external_id = ? LIMIT 1",
            (external_id,),
        ).fetchone()
        return unpack(row[0]) if row else None

    def count_papers(self, filters: lexical.Filters | None = None) -> int:
        where, params = (filters or lexical.Filters()).sql()
        return int(self.db.execute(f"SELECT count(*) FROM papers AS p WHERE 1 {where}", params).fetchone()[0])

    def facet_counts(self, filters: lexical.Filters | None = None) -> dict[str, list[tuple[object, int]]]:
        """Papers per venue, year, contribution and has-code among those passing `filters`, most first."""
        where, params = (filters or lexical.Filters()).sql()
        return {
            column: [
                tuple(row)
                for row in self.db.execute(  # type: ignore[misc]
                    f"SELECT p.{column}, count(*) AS n FROM papers AS p WHERE 1 {where} AND p.{column} IS NOT NULL"
                    f" GROUP BY p.{column} ORDER BY n DESC, p.{column}",
                    params,
                )
            ]
            for column in _FACETS
        } | {
            "topic": [
                tuple(row)
                for row in self.db.execute(  # type: ignore[misc]
                    f"SELECT pt.topic, count(*) AS n FROM papers AS p JOIN paper_topics AS pt ON pt.paper_id = p.id"
                    f" WHERE 1 {where} GROUP BY pt.topic ORDER BY n DESC, pt.topic",
                    params,
                )
            ]
        }

    def facet_counts_of(self, paper_ids: list[str]) -> dict[str, list[tuple[object, int]]]:
        """The facet counts of `facet_counts` over these papers."""
        rows = (
            row
            for chunk in chunks(paper_ids)
            for row in self.db.execute(
                f"SELECT p.venue, p.year, p.contribution, p.has_code, pt.topic FROM papers AS p"
                f" LEFT JOIN paper_topics AS pt ON pt.paper_id = p.id WHERE p.id IN ({', '.join('?' * len(chunk))})",
                chunk,
            )
        )
        return tally_facets(rows)

    # topics and the map

    def put_layout(
        self, topics: Iterable[tuple[int, str, list[str], int]], points: Iterable[tuple[str, int, float, float]]
    ) -> None:
        """Replace every topic and map position (inside the caller's transaction)."""
        self.db.execute("DELETE FROM topics")
        self.db.execute("DELETE FROM paper_topics")
        self.db.executemany(
            "INSERT INTO topics (id, label, keywords, size) VALUES (?, ?, ?, ?)",
            ((t, label, orjson.dumps(words).decode(), size) for t, label, words, size in topics),
        )
        self.db.executemany("INSERT INTO paper_topics (paper_id, topic, x, y) VALUES (?, ?, ?, ?)", points)

    def topics(self) -> list[tuple[int, str, list[str], int]]:
        rows = self.db.execute("SELECT id, label, keywords, size FROM topics ORDER BY size DESC, id")
        return [(t, label, orjson.loads(words), size) for t, label, words, size in rows]

    def map_points(self, filters: lexical.Filters | None = None) -> list[tuple[str, str, int, float, float]]:
        """(paper id, display title, topic, x, y) of every paper on the map."""
        where, params = (filters or lexical.Filters()).sql()
        return self.db.execute(
            "SELECT p.id, p.display_title, pt.topic, pt.x, pt.y FROM papers AS p JOIN paper_topics AS pt"
            f" ON pt.paper_id = p.id WHERE 1 {where} ORDER BY p.id",
            params,
        ).fetchall()

    def cite_keys(self) -> dict[str, str]:
        return dict(self.db.execute("SELECT paper_id, key FROM cite_keys"))

    def papers_without_cite_key(self) -> list[Paper]:
        rows = self.db.execute("SELECT data FROM papers WHERE id NOT IN (SELECT paper_id FROM cite_keys) ORDER BY id")
        return [unpack(data) for (data,) in rows]

    def put_cite_keys(self, keys: dict[str, str]) -> None:
        self.db.executemany("INSERT INTO cite_keys (paper_id, key) VALUES (?, ?)", keys.items())

    def get_paper(self, paper_id: str) -> Paper | None:
        row = self.db.execute(f"SELECT p.data, {_TOPIC_LABEL} FROM papers AS p WHERE p.id = ?", (paper_id,)).fetchone()
        return unpack(*row) if row else None

    def iter_papers(
        self, order: str = "id", limit: int | None = None, offset: int = 0, filters: lexical.Filters | None = None
    ) -> Iterator[Paper]:
        if order not in _ORDERS:
            raise PaperscopeError(f"unknown order {order!r}; one of {', '.join(_ORDERS)}")
        where, params = (filters or lexical.Filters()).sql()
        sql = (
            f"SELECT p.data, {_TOPIC_LABEL} FROM papers AS p WHERE 1 {where} ORDER BY {_ORDERS[order]} LIMIT ? OFFSET ?"
        )
        for data, topic in self.db.execute(sql, (*params, -1 if limit is None else limit, offset)):
            yield unpack(data, topic)
