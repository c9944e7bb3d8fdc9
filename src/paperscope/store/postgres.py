"""The PostgreSQL store: the same library on a server several readers and writers share.

Papers, sources and the reader's own data are the tables of the SQLite store; searching differs.
Each paper carries two tsvectors (pg_text.py) with GIN indexes, ranked by ts_rank per term times
the term's inverse document frequency, kept exact in `terms` as papers come and go (ts_rank has
no IDF of its own, and counting a common word's papers at query time costs tens of milliseconds).
Vectors are pgvector `halfvec`s under an HNSW index, searched with iterative scans so that a
filter still yields k papers.

Connections come from a pool; a transaction holds one connection for its thread. Whatever decides
which papers exist (reading candidates, writing papers, replacing the map) first takes one
transaction-scoped advisory lock, so concurrent ingests of overlapping lists take turns and
never both create a paper; tagging and searching do not wait for it. Unique keys back this up.
"""

from __future__ import annotations

import math
import threading
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import orjson
import psycopg
from pgvector import HalfVector
from pgvector.psycopg import register_vector
from psycopg_pool import ConnectionPool

from paperscope.errors import PaperscopeError
from paperscope.index import lexical, semantic
from paperscope.model import Paper, RawRecord
from paperscope.store import pg_text, safe_location
from paperscope.store.base import FileRow, LibraryPaper
from paperscope.store.rows import (
    COLUMNS,
    VectorCache,
    change_detail,
    dump_query,
    identities,
    now,
    now_precise,
    pack,
    tally_facets,
    unpack,
)

_LOCK = 0x70617065  # the advisory lock of "which papers exist" ("pape")
POOL_SIZE = 16
EF_SEARCH = 100  # HNSW candidates per query: recall against exact search in bench/postgres.py
_TEXT = 'TEXT COLLATE "C"'  # byte order, as SQLite sorts: the same export order on both stores

MIGRATIONS: list[str] = [
    # 1: the library: files, papers with their search vectors, sources, dedupe keys, vectors, the map, changes
    f"""
    CREATE EXTENSION IF NOT EXISTS vector;
    CREATE TABLE files (
        id BIGSERIAL PRIMARY KEY, path {_TEXT} NOT NULL UNIQUE, name TEXT NOT NULL, sha256 TEXT NOT NULL,
        format TEXT NOT NULL, records INTEGER NOT NULL, ingested_at TEXT NOT NULL);
    CREATE INDEX files_sha256 ON files(sha256);
    CREATE TABLE papers (
        seq BIGSERIAL UNIQUE, id {_TEXT} PRIMARY KEY, key TEXT NOT NULL UNIQUE, title_key TEXT, venue {_TEXT},
        year INTEGER, display_title {_TEXT} NOT NULL, contribution {_TEXT}, has_code BOOLEAN NOT NULL,
        data TEXT NOT NULL, bands TEXT NOT NULL, updated_at TEXT NOT NULL, embed_hash TEXT NOT NULL,
        doc TSVECTOR NOT NULL, fields TSVECTOR NOT NULL);
    CREATE INDEX papers_title_key ON papers(title_key);
    CREATE INDEX papers_venue_year ON papers(lower(venue), year);
    CREATE INDEX papers_doc ON papers USING gin(doc);
    CREATE INDEX papers_fields ON papers USING gin(fields);
    CREATE TABLE terms (term TEXT PRIMARY KEY, papers INTEGER NOT NULL);
    CREATE TABLE sources (
        id BIGSERIAL PRIMARY KEY, paper_id TEXT NOT NULL, file_id BIGINT NOT NULL REFERENCES files(id),
        line INTEGER NOT NULL, key TEXT NOT NULL, record TEXT NOT NULL, external_id TEXT, UNIQUE (file_id, line));
    CREATE INDEX sources_paper ON sources(paper_id);
    CREATE INDEX sources_key ON sources(key);
    CREATE INDEX sources_external_id ON sources(external_id) WHERE external_id IS NOT NULL;
    CREATE TABLE paper_bands (band BIGINT NOT NULL, paper_id TEXT NOT NULL, PRIMARY KEY (band, paper_id));
    CREATE TABLE paper_ids (identity TEXT NOT NULL, paper_id TEXT NOT NULL, PRIMARY KEY (identity, paper_id));
    CREATE INDEX paper_ids_paper ON paper_ids(paper_id);
    CREATE TABLE vectors (paper_id TEXT PRIMARY KEY, embed_hash TEXT NOT NULL, vector BYTEA NOT NULL,
                          embedding HALFVEC({semantic.DIMENSIONS}) NOT NULL);
    CREATE INDEX vectors_hnsw ON vectors USING hnsw (embedding halfvec_cosine_ops);
    CREATE TABLE topics (id INTEGER PRIMARY KEY, label TEXT NOT NULL, keywords TEXT NOT NULL, size INTEGER NOT NULL);
    CREATE TABLE paper_topics (paper_id TEXT PRIMARY KEY, topic INTEGER NOT NULL, x DOUBLE PRECISION NOT NULL,
                               y DOUBLE PRECISION NOT NULL);
    CREATE INDEX paper_topics_topic ON paper_topics(topic);
    CREATE TABLE changes (id BIGSERIAL PRIMARY KEY, at TEXT NOT NULL, paper_id TEXT NOT NULL, kind TEXT NOT NULL,
                          detail TEXT NOT NULL);
    CREATE INDEX changes_at ON changes(at);
    CREATE SEQUENCE library_version;
    """,
    # 2: each reader's own tags, reading list, notes and saved searches
    f"""
    CREATE TABLE tags (reader {_TEXT} NOT NULL, paper_id TEXT NOT NULL, tag {_TEXT} NOT NULL, added_at TEXT NOT NULL,
                       PRIMARY KEY (reader, paper_id, tag));
    CREATE INDEX tags_tag ON tags(reader, tag);
    CREATE TABLE reading (reader {_TEXT} NOT NULL, paper_id TEXT NOT NULL, updated_at TEXT NOT NULL,
                          state TEXT NOT NULL CHECK (state IN ('to read', 'reading', 'read')),
                          PRIMARY KEY (reader, paper_id));
    CREATE TABLE notes (reader {_TEXT} NOT NULL, paper_id TEXT NOT NULL, text TEXT NOT NULL, updated_at TEXT NOT NULL,
                        PRIMARY KEY (reader, paper_id));
    CREATE TABLE saved_searches (reader {_TEXT} NOT NULL, name {_TEXT} NOT NULL, query TEXT NOT NULL,
                                 mode TEXT NOT NULL, filters TEXT NOT NULL, last_seen TEXT NOT NULL,
                                 PRIMARY KEY (reader, name));
    """,
    # 3: citation keys, assigned once (paperscope.citekeys); a gone paper's key stays taken
    """
    CREATE TABLE cite_keys (key TEXT NOT NULL, paper_id TEXT NOT NULL UNIQUE);
    CREATE UNIQUE INDEX cite_keys_key ON cite_keys(lower(key));
    """,
]
SCHEMA_VERSION = len(MIGRATIONS)
_ORDERS = {
    "id": "p.id",
    "venue": "p.venue NULLS FIRST, p.year NULLS FIRST, p.id",
    "year": "p.year NULLS FIRST, p.venue NULLS FIRST, p.id",
    "title": "p.display_title, p.id",
}
_FACETS = ("venue", "year", "contribution", "has_code")
_TOPIC_LABEL = "(SELECT t.label FROM paper_topics AS pt JOIN topics AS t ON t.id = pt.topic WHERE pt.paper_id = p.id)"
_MISSING = (
    " FROM papers AS p LEFT JOIN vectors AS v ON v.paper_id = p.id AND v.embed_hash = p.embed_hash"
    " WHERE v.paper_id IS NULL"
)
_CURRENT = " FROM vectors AS v JOIN papers AS p ON p.id = v.paper_id AND p.embed_hash = v.embed_hash"


def _where(filters: lexical.Filters | None) -> tuple[str, list]:
    """An AND-clause over papers (alias p) and its parameters, as Filters.sql() is for SQLite."""
    filters = filters or lexical.Filters()
    clauses, params = [], []
    if filters.venue:
        clauses.append("lower(p.venue) = lower(%s)")
        params.append(filters.venue)
    if filters.years:
        clauses.append("p.year BETWEEN %s AND %s")
        params += list(filters.years)
    if filters.contribution:
        clauses.append("p.contribution = %s")
        params.append(filters.contribution)
    if filters.has_code is not None:
        clauses.append("p.has_code = %s")
        params.append(filters.has_code)
    if filters.topic is not None:
        clauses.append("p.id IN (SELECT paper_id FROM paper_topics WHERE topic = %s)")
        params.append(filters.topic)
    return "".join(f" AND {c}" for c in clauses), params


def _matches(terms: Iterable[str], joiner: str) -> tuple[str, list]:
    """SQL matching parsed query terms (AND or OR), each against the tsvector it searches."""
    parts, params = [], []
    for found in filter(None, map(pg_text.term, terms)):
        parts.append(f"p.{found[0]} @@ %s::tsquery")
        params.append(found[1])
    return (f"({f' {joiner} '.join(parts)})" if parts else ""), params


def _all_and_any(required: list[str], words: list[str]) -> tuple[str, list]:
    """SQL matching every required term and any of the words."""
    every, every_params = _matches(required, "AND")
    some, some_params = _matches(words, "OR")
    if not every or not some:
        return every or some, every_params or some_params
    return f"{every} AND {some}", [*every_params, *some_params]


def _excluding(query: lexical.Query, where: str, params: list) -> tuple[str, list]:
    """The filter clause, with the query's -excluded terms added."""
    if query.exclude and (excluded := _matches(query.exclude, "OR"))[0]:
        return where + f" AND NOT {excluded[0]}", [*params, *excluded[1]]
    return where, params


class PostgresStore:
    concurrent = True

    def __init__(self, url: str) -> None:
        self.url = url
        self._local = threading.local()
        self._frequencies: dict[str, int] = {}
        self._frequencies_version = -1
        self._vocabulary: tuple[object, dict[str, int]] = (None, {})
        self._stamp = now_precise()
        self._vectors = VectorCache()
        try:
            with psycopg.connect(url, autocommit=True, connect_timeout=10) as conn:
                self._migrate(conn)
        except psycopg.OperationalError as exc:
            raise PaperscopeError(
                f"{safe_location(url)}: cannot reach the PostgreSQL server ({_first_line(exc)})"
            ) from None
        self.pool = ConnectionPool(
            url, min_size=1, max_size=POOL_SIZE, kwargs={"autocommit": True}, configure=_configure, open=True
        )

    def _migrate(self, conn: psycopg.Connection) -> None:
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK,))  # two first opens do not both migrate
            conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            row = conn.execute("SELECT version FROM schema_version").fetchone()
            version = row[0] if row else 0
            if version > SCHEMA_VERSION:
                raise PaperscopeError(
                    f"{safe_location(self.url)}: made by a newer paperscope (schema {version} > {SCHEMA_VERSION})"
                )
            if (
                version < SCHEMA_VERSION
                and not conn.execute("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'").fetchone()
            ):
                raise PaperscopeError(
                    f"{safe_location(self.url)}: the server has no pgvector (the `vector` extension);"
                    " install it, or use a SQLite file"
                )
            for number in range(version, SCHEMA_VERSION):
                conn.execute(MIGRATIONS[number].encode())
            if not row:
                conn.execute("INSERT INTO schema_version VALUES (%s)", (SCHEMA_VERSION,))
            else:
                conn.execute("UPDATE schema_version SET version = %s", (SCHEMA_VERSION,))

    @contextmanager
    def _conn(self) -> Iterator[psycopg.Connection]:
        """The thread's transaction connection, or one from the pool for a statement on its own."""
        held = getattr(self._local, "conn", None)
        if held is not None:
            yield held
            return
        with self.pool.connection() as conn:
            yield conn

    def _all(self, sql: str, params: Iterable = ()) -> list[tuple]:
        with self._conn() as conn:
            return conn.execute(sql, list(params)).fetchall()

    def _one(self, sql: str, params: Iterable = ()) -> tuple | None:
        with self._conn() as conn:
            return conn.execute(sql, list(params)).fetchone()

    def _run(self, sql: str, params: Iterable = ()) -> None:
        with self._conn() as conn:
            conn.execute(sql, list(params))

    def _many(self, sql: str, rows: Iterable[Iterable]) -> None:
        with self._conn() as conn, conn.cursor() as cursor:
            cursor.executemany(sql, [list(r) for r in rows])

    def _stream(self, sql: str, params: Iterable = ()) -> Iterator[tuple]:
        """Rows read a thousand at a time through a server-side cursor, in one snapshot."""
        with self._conn() as conn, conn.transaction(), conn.cursor(name="paperscope_stream") as cursor:
            cursor.execute(sql, list(params))
            while batch := cursor.fetchmany(1_000):
                yield from batch

    def _exclusive(self) -> None:
        """Take the "which papers exist" lock for the rest of this transaction."""
        if not getattr(self._local, "exclusive", False):
            self._run("SELECT pg_advisory_xact_lock(%s)", (_LOCK,))
            self._local.exclusive = True

    @contextmanager
    def transaction(self) -> Iterator[None]:
        if getattr(self._local, "conn", None) is not None:
            yield  # already inside one: part of it
            return
        with self.pool.connection() as conn:
            self._local.conn, self._local.exclusive = conn, False
            self._stamp = now_precise()
            try:
                with conn.transaction():
                    yield
            finally:
                self._local.conn = None
            # After the commit: a reader that sees the new version sees the new data.
            conn.execute("SELECT nextval('library_version')")

    @contextmanager
    def bulk(self) -> Iterator[None]:
        yield  # the server's own memory settings apply

    def close(self) -> None:
        self.pool.close()

    def version(self) -> tuple[int, int]:
        row = self._one("SELECT last_value, is_called FROM library_version")
        return (int(row[0]) if row and row[1] else 0), 0

    # files

    def file_by_path(self, path: str) -> FileRow | None:
        row = self._one("SELECT id, path, sha256 FROM files WHERE path = %s", (path,))
        return FileRow(*row) if row else None

    def has_file_hash(self, sha256: str) -> bool:
        return self._one("SELECT 1 FROM files WHERE sha256 = %s", (sha256,)) is not None

    def put_file(self, path: str, name: str, sha256: str, fmt: str, records: int) -> tuple[int, set[str]]:
        self._exclusive()
        old = self.file_by_path(path)
        if old is None:
            row = self._one(
                "INSERT INTO files (path, name, sha256, format, records, ingested_at)"
                " VALUES (%s, %s, %s, %s, %s, %s) RETURNING id",
                (path, name, sha256, fmt, records, now()),
            )
            return int(row[0]), set()  # type: ignore[index]
        affected = {r[0] for r in self._all("SELECT paper_id FROM sources WHERE file_id = %s", (old.id,))}
        self._run("DELETE FROM sources WHERE file_id = %s", (old.id,))
        self._run(
            "UPDATE files SET name = %s, sha256 = %s, format = %s, records = %s, ingested_at = %s WHERE id = %s",
            (name, sha256, fmt, records, now(), old.id),
        )
        return old.id, affected

    # sources and papers

    def candidates(
        self, keys: Iterable[str], bands: Iterable[int], title_keys: Iterable[str], identities: Iterable[str] = ()
    ) -> list[LibraryPaper]:
        self._exclusive()
        ids: set[str] = set()
        for sql, values in (
            ("SELECT paper_id FROM sources WHERE key = ANY(%s)", list(set(keys))),
            ("SELECT paper_id FROM paper_bands WHERE band = ANY(%s)", list(set(bands))),
            ("SELECT id FROM papers WHERE title_key = ANY(%s)", list(set(title_keys))),
            ("SELECT paper_id FROM paper_ids WHERE identity = ANY(%s)", list(set(identities))),
        ):
            if values:
                ids.update(r[0] for r in self._all(sql, (values,)))
        rows = self._all(
            "SELECT id, key, title_key, venue, year, data::json->>'abstract',"
            " (SELECT array_agg(identity ORDER BY identity) FROM paper_ids WHERE paper_id = papers.id)"
            " FROM papers WHERE id = ANY(%s) ORDER BY id",
            (sorted(ids),),
        )
        return [LibraryPaper(*row[:6], tuple(row[6] or ())) for row in rows]

    def add_sources(self, rows: Iterable[tuple[str, int, int, str, RawRecord]]) -> None:
        self._many(
            "INSERT INTO sources (paper_id, file_id, line, key, record, external_id) VALUES (%s, %s, %s, %s, %s, %s)",
            (
                (pid, fid, line, key, orjson.dumps(rec).decode(), rec.source.external_id)
                for pid, fid, line, key, rec in rows
            ),
        )

    def source_records(self, paper_id: str) -> list[RawRecord]:
        rows = self._all("SELECT record FROM sources WHERE paper_id = %s ORDER BY id", (paper_id,))
        return [RawRecord.from_dict(orjson.loads(r[0])) for r in rows]

    def add_papers(self, rows: Iterable[tuple[Paper, str, str | None, tuple[int, ...]]]) -> None:
        rows = list(rows)
        self._exclusive()
        self._insert(rows)
        self._log((p.id, "added", p.display_title) for p, _, _, _ in rows)

    def _insert(
        self, rows: list[tuple[Paper, str, str | None, tuple[int, ...]]], stamps: list[str] | None = None
    ) -> None:
        stamps = stamps or [now()] * len(rows)
        self._many(
            "INSERT INTO papers (id, key, title_key, venue, year, display_title, contribution, has_code, data, bands,"
            " updated_at, embed_hash, doc, fields) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s,"
            " %s::tsvector, %s::tsvector)",
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
                    *pg_text.documents(p),
                )
                for (p, key, title_key, bands), stamp in zip(rows, stamps, strict=True)
            ),
        )
        self._many(
            "INSERT INTO paper_ids (identity, paper_id) VALUES (%s, %s) ON CONFLICT DO NOTHING",
            ((identity, p.id) for p, _, _, _ in rows for identity in identities(p)),
        )
        self._many(
            "INSERT INTO paper_bands (band, paper_id) VALUES (%s, %s) ON CONFLICT DO NOTHING",
            ((band, p.id) for p, _, _, bands in rows for band in bands),
        )
        self._count_terms((p for p, _, _, _ in rows), +1)

    def _count_terms(self, papers: Iterable[Paper], sign: int) -> None:
        counts = Counter(t for p in papers for t in pg_text.unique_tokens(p))
        self._many(
            "INSERT INTO terms (term, papers) VALUES (%s, %s)"
            " ON CONFLICT (term) DO UPDATE SET papers = terms.papers + excluded.papers",
            sorted((term, sign * n) for term, n in counts.items()),
        )

    def put_paper(self, paper: Paper, key: str, title_key: str | None, bands: tuple[int, ...]) -> str:
        self._exclusive()
        data = pack(paper)
        old = self._one("SELECT data FROM papers WHERE id = %s", (paper.id,))
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
        row = self._one("DELETE FROM papers WHERE id = %s RETURNING data, bands", (paper_id,))
        if row:
            self._run(
                "DELETE FROM paper_bands WHERE band = ANY(%s) AND paper_id = %s", (orjson.loads(row[1]), paper_id)
            )
            self._run("DELETE FROM paper_ids WHERE paper_id = %s", (paper_id,))
            self._count_terms([unpack(row[0])], -1)

    def remove_orphans(self) -> int:
        self._exclusive()
        orphans = self._all(
            "SELECT id, display_title FROM papers AS p"
            " WHERE NOT EXISTS (SELECT 1 FROM sources AS s WHERE s.paper_id = p.id)"
        )
        for paper_id, _ in orphans:
            self._drop(paper_id)
        self._log((paper_id, "removed", title) for paper_id, title in orphans)
        self._run("DELETE FROM vectors AS v WHERE NOT EXISTS (SELECT 1 FROM papers AS p WHERE p.id = v.paper_id)")
        return len(orphans)

    def _log(self, rows: Iterable[tuple[str, str, str]]) -> None:
        self._many(
            "INSERT INTO changes (at, paper_id, kind, detail) VALUES (%s, %s, %s, %s)",
            ((self._stamp, pid, kind, detail) for pid, kind, detail in rows),
        )

    def changes(self, since: str | None = None) -> list[tuple[str, str, str, str]]:
        if since is None:
            return self._all(
                "SELECT at, paper_id, kind, detail FROM changes"
                " WHERE at = (SELECT max(at) FROM changes) ORDER BY kind, id"
            )
        return self._all("SELECT at, paper_id, kind, detail FROM changes WHERE at > %s ORDER BY at, kind, id", (since,))

    def added_since(self, since: str) -> set[str]:
        return {r[0] for r in self._all("SELECT paper_id FROM changes WHERE kind = 'added' AND at > %s", (since,))}

    def document_frequency(self, word: str) -> int:
        return self._frequency()(f'"{word}"')

    def vocabulary(self) -> dict[str, int]:
        """Every indexed word with its document frequency, read in one pass and kept until the library changes."""
        version = self.version()
        if self._vocabulary[0] != version:
            self._vocabulary = (version, {term: int(n) for term, n in self._all("SELECT term, papers FROM terms")})
        return self._vocabulary[1]

    def _frequency(self) -> Callable[[str], int]:
        """Document frequency of a parsed query term, from `terms`, remembered until the library changes."""
        version = self.version()[0]
        if version != self._frequencies_version:
            self._frequencies, self._frequencies_version = {}, version

        def frequency(fts_term: str) -> int:
            word = pg_text.single_word(fts_term)
            if word is None:
                return 0
            if word not in self._frequencies:
                row = self._one("SELECT papers FROM terms WHERE term = %s", (word,))
                self._frequencies[word] = int(row[0]) if row else 0
            return self._frequencies[word]

        return frequency

    # the reader's own library

    def tag(self, reader: str, paper_id: str, tag: str, on: bool) -> None:
        if on:
            self._run(
                "INSERT INTO tags (reader, paper_id, tag, added_at) VALUES (%s, %s, %s, %s) ON CONFLICT DO NOTHING",
                (reader, paper_id, tag, now()),
            )
        else:
            self._run("DELETE FROM tags WHERE reader = %s AND paper_id = %s AND tag = %s", (reader, paper_id, tag))

    def tags(self, reader: str, paper_id: str | None = None) -> list[tuple[str, int]]:
        if paper_id is not None:
            rows = self._all(
                "SELECT tag FROM tags WHERE reader = %s AND paper_id = %s ORDER BY tag", (reader, paper_id)
            )
            return [(t, 1) for (t,) in rows]
        return self._all("SELECT tag, count(*) FROM tags WHERE reader = %s GROUP BY tag ORDER BY tag", (reader,))

    def set_state(self, reader: str, paper_id: str, state: str | None) -> None:
        if state is None:
            self._run("DELETE FROM reading WHERE reader = %s AND paper_id = %s", (reader, paper_id))
        else:
            self._run(
                "INSERT INTO reading (reader, paper_id, state, updated_at) VALUES (%s, %s, %s, %s)"
                " ON CONFLICT (reader, paper_id) DO UPDATE SET state = excluded.state,"
                " updated_at = excluded.updated_at",
                (reader, paper_id, state, now()),
            )

    def state(self, reader: str, paper_id: str) -> str | None:
        row = self._one("SELECT state FROM reading WHERE reader = %s AND paper_id = %s", (reader, paper_id))
        return row[0] if row else None

    def set_note(self, reader: str, paper_id: str, text: str) -> None:
        if text.strip():
            self._run(
                "INSERT INTO notes (reader, paper_id, text, updated_at) VALUES (%s, %s, %s, %s)"
                " ON CONFLICT (reader, paper_id) DO UPDATE SET text = excluded.text,"
                " updated_at = excluded.updated_at",
                (reader, paper_id, text, now()),
            )
        else:
            self._run("DELETE FROM notes WHERE reader = %s AND paper_id = %s", (reader, paper_id))

    def note(self, reader: str, paper_id: str) -> str | None:
        row = self._one("SELECT text FROM notes WHERE reader = %s AND paper_id = %s", (reader, paper_id))
        return row[0] if row else None

    def listed(self, reader: str, tag: str | None = None, state: str | None = None) -> list[str]:
        clauses, params = [], []
        if tag is not None:
            clauses.append("id IN (SELECT paper_id FROM tags WHERE reader = %s AND tag = %s)")
            params += [reader, tag]
        if state is not None:
            clauses.append("id IN (SELECT paper_id FROM reading WHERE reader = %s AND state = %s)")
            params += [reader, state]
        if not clauses:
            clauses.append("id IN (SELECT paper_id FROM reading WHERE reader = %s)")
            params.append(reader)
        return [
            r[0]
            for r in self._all(f"SELECT id FROM papers WHERE {' AND '.join(clauses)} ORDER BY display_title", params)
        ]

    def save_search(self, reader: str, name: str, query: str, mode: str, filters: str) -> None:
        self._run(
            "INSERT INTO saved_searches (reader, name, query, mode, filters, last_seen)"
            " VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (reader, name) DO UPDATE SET query = excluded.query,"
            " mode = excluded.mode, filters = excluded.filters, last_seen = excluded.last_seen",
            (reader, name, query, mode, filters, now_precise()),
        )

    def saved_searches(self, reader: str) -> list[tuple[str, str, str, str, str]]:
        return self._all(
            "SELECT name, query, mode, filters, last_seen FROM saved_searches WHERE reader = %s ORDER BY name",
            (reader,),
        )

    def seen(self, reader: str, name: str) -> None:
        self._run(
            "UPDATE saved_searches SET last_seen = %s WHERE reader = %s AND name = %s", (now_precise(), reader, name)
        )

    # vectors

    def count_missing_vectors(self) -> int:
        return int(self._one("SELECT count(*)" + _MISSING)[0])  # type: ignore[index]

    def missing_vectors(self, limit: int) -> list[tuple[str, str, Paper]]:
        rows = self._all("SELECT p.id, p.embed_hash, p.data" + _MISSING + " ORDER BY p.seq LIMIT %s", (limit,))
        return [(pid, digest, unpack(data)) for pid, digest, data in rows]

    def put_vectors(self, rows: Iterable[tuple[str, str, bytes]]) -> None:
        self._many(
            "INSERT INTO vectors (paper_id, embed_hash, vector, embedding) VALUES (%s, %s, %s, %s)"
            " ON CONFLICT (paper_id) DO UPDATE SET embed_hash = excluded.embed_hash,"
            " vector = excluded.vector, embedding = excluded.embedding",
            ((pid, digest, blob, _halfvec(blob)) for pid, digest, blob in rows),
        )

    def count_vectors(self) -> int:
        return int(self._one("SELECT count(*)" + _CURRENT)[0])  # type: ignore[index]

    def vector_rows(self) -> Iterator[tuple[str, bytes]]:
        for paper_id, blob in self._stream("SELECT v.paper_id, v.vector" + _CURRENT + " ORDER BY p.seq"):
            yield paper_id, bytes(blob)

    def vectors(self) -> semantic.Vectors:
        """Every vector in memory (for the map and recommendations; searching asks the index)."""
        return self._vectors.get(
            self.version(), lambda: semantic.Vectors.from_rows(self.count_vectors(), self.vector_rows())
        )

    def vector_of(self, paper_id: str) -> np.ndarray | None:
        row = self._one("SELECT v.vector" + _CURRENT + " WHERE v.paper_id = %s", (paper_id,))
        return np.frombuffer(bytes(row[0]), dtype=semantic.STORED_DTYPE).astype(np.float32) if row else None

    def nearest(
        self,
        vector: np.ndarray,
        k: int,
        filters: lexical.Filters | None = None,
        within: set[str] | None = None,
        exclude: list[str] | None = None,
        skip: set[str] | None = None,
    ) -> list[tuple[str, float]]:
        """The HNSW index's k nearest by cosine, filters applied during the scan (iterative scan)."""
        if k <= 0 or (within is not None and not within):
            return []
        where, params = _where(filters)
        if within is not None:
            where += " AND p.id = ANY(%s)"
            params.append(sorted(within))
        if exclude and (excluded := _matches(exclude, "OR"))[0]:
            where += f" AND NOT {excluded[0]}"
            params += excluded[1]
        query = HalfVector(vector.astype(np.float32))
        skip = skip or set()
        if not where:  # the index alone, then the papers: a join first would hide the index from the planner
            rows = self._all(
                "SELECT n.paper_id, n.distance FROM (SELECT paper_id, embed_hash, embedding <=> %s AS distance"
                " FROM vectors ORDER BY embedding <=> %s LIMIT %s) AS n JOIN papers AS p ON p.id = n.paper_id"
                " AND p.embed_hash = n.embed_hash ORDER BY n.distance",
                (query, query, k + len(skip) + 10),
            )
            return [(paper_id, 1.0 - float(distance)) for paper_id, distance in rows if paper_id not in skip][:k]
        if skip:
            where += " AND NOT (p.id = ANY(%s))"
            params.append(sorted(skip))
        rows = self._all(
            "SELECT v.paper_id, v.embedding <=> %s AS distance" + _CURRENT + f" WHERE TRUE {where}"
            " ORDER BY distance LIMIT %s",
            (query, *params, k),
        )
        return [(paper_id, 1.0 - float(distance)) for paper_id, distance in rows]

    # searching

    def search_lexical(
        self,
        query: lexical.Query,
        limit: int,
        filters: lexical.Filters | None = None,
        raw: str | None = None,
        enough: int | None = None,
    ) -> list[lexical.LexicalHit]:
        """Papers with every term first, then with any of the rarest, each by IDF-weighted ts_rank.

        `raw` is taken as PostgreSQL's web-search syntax (the SQLite store takes FTS5's)."""
        where, params = _where(query.filters(filters))
        if raw is not None:
            websearch = "websearch_to_tsquery('simple', %s)"
            return self._ranked(
                f"p.doc @@ {websearch}",
                [raw],
                (f"ts_rank('{pg_text.RANK_WEIGHTS}', p.doc, {websearch}, 32)", [raw]),
                where,
                params,
                limit,
            )
        if not query.must:
            rows = self._all(
                f"SELECT p.id FROM papers AS p WHERE TRUE {where} ORDER BY p.year DESC NULLS LAST, p.id LIMIT %s",
                (*params, limit),
            )
            return [lexical.LexicalHit(pid, 0.0) for (pid,) in rows]
        frequency = self._frequency()
        total = max(self._papers_total(), 1)
        where, params = _excluding(query, where, params)
        required = query.required()
        passes = [(query.content(), _matches(query.content(), "AND"))]
        if (words := [w for w in query.rarest(frequency) if w not in required]) and len(words) + len(required) > 1:
            passes.append(([*required, *words], _all_and_any(required, words)))  # the required ones still required
        hits: list[lexical.LexicalHit] = []
        seen: set[str] = set()
        for every, (terms, condition) in zip((True, False), passes, strict=False):
            if len(hits) >= (enough or limit):
                break
            scored = [(term, found) for term in terms if (found := pg_text.term(term))]
            score = (
                " + ".join(
                    f"%s * ts_rank('{pg_text.RANK_WEIGHTS}', p.{vector}, %s::tsquery, 32)" for _, (vector, _) in scored
                ),
                [x for term, (_, tsquery) in scored for x in (_idf(_idf_frequency(term, frequency), total), tsquery)],
            )
            for hit in self._ranked(*condition, score, where, params, limit):
                if hit.paper_id not in seen:
                    seen.add(hit.paper_id)
                    hit.every = every
                    hits.append(hit)
        return hits[:limit]

    def count_every(self, query: lexical.Query, filters: lexical.Filters | None = None) -> int:
        if not query.must:
            return self.count_papers(query.filters(filters))
        where, params = _excluding(query, *_where(query.filters(filters)))
        condition, condition_params = _matches(query.content(), "AND")
        if not condition:
            return 0
        row = self._one(f"SELECT count(*) FROM papers AS p WHERE {condition} {where}", (*condition_params, *params))
        return int(row[0])  # type: ignore[index]

    def _ranked(
        self, condition: str, condition_params: list, score: tuple[str, list], where: str, params: list, limit: int
    ) -> list[lexical.LexicalHit]:
        if not condition:
            return []
        rows = self._all(
            f"SELECT p.id, {score[0]} AS score FROM papers AS p WHERE {condition} {where}"
            " ORDER BY score DESC, p.id LIMIT %s",
            (*score[1], *condition_params, *params, limit),
        )
        return [lexical.LexicalHit(pid, float(value)) for pid, value in rows]

    def _papers_total(self) -> int:
        return int(self._one("SELECT count(*) FROM papers")[0])  # type: ignore[index]

    def filtered_ids(self, filters: lexical.Filters) -> set[str]:
        where, params = _where(filters)
        return {r[0] for r in self._all(f"SELECT p.id FROM papers AS p WHERE TRUE {where}", params)}

    def matching_ids(self, expression: str) -> set[str]:
        """Ids of the papers a query in PostgreSQL's web-search syntax matches."""
        return {
            r[0]
            for r in self._all("SELECT id FROM papers WHERE doc @@ websearch_to_tsquery('simple', %s)", (expression,))
        }

    # moving a whole library

    def dump(self) -> Iterator[tuple[str, list[tuple]]]:
        for table in COLUMNS:
            batch: list[tuple] = []
            for row in self._stream(dump_query(table)):
                batch.append(tuple(bytes(v) if isinstance(v, memoryview) else v for v in row))
                if len(batch) == 1_000:
                    yield table, batch
                    batch = []
            if batch:
                yield table, batch

    def load(self, table: str, rows: list[tuple]) -> None:
        if table == "papers":
            self._insert(
                [(unpack(data), key, title_key, tuple(orjson.loads(bands))) for data, key, title_key, bands, _ in rows],
                [stamp for *_, stamp in rows],
            )
            return
        if table == "vectors":
            self.put_vectors(rows)
            return
        columns = COLUMNS[table]
        self._many(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join(['%s'] * len(columns))})", rows)
        if table == "files":
            self._run("SELECT setval('files_id_seq', GREATEST((SELECT max(id) FROM files), 1))")

    # safekeeping

    def backup(self, destination: str | Path) -> None:
        """A SQLite file holding the whole library, read in one snapshot."""
        from paperscope.store.copy import copy_store
        from paperscope.store.sqlite import SQLiteStore

        target = SQLiteStore(destination)
        try:
            copy_store(self, target)
        finally:
            target.close()

    def check(self) -> dict[str, object]:
        counts = {
            table: int(self._one(f"SELECT count(*) FROM {table}")[0])  # type: ignore[index]
            for table in ("files", "papers", "sources", "vectors", "topics")
        }
        orphans = self._one(
            "SELECT count(*) FROM sources AS s WHERE NOT EXISTS (SELECT 1 FROM papers AS p WHERE p.id = s.paper_id)"
        )[0]  # type: ignore[index]
        return {
            "integrity": "ok" if not orphans else [f"{orphans} sources of papers not stored"],
            **counts,
            "vectors_missing": self.count_missing_vectors(),
            "schema": SCHEMA_VERSION,
        }

    # reading

    def paper_by_external_id(self, external_id: str) -> Paper | None:
        row = self._one(
            "SELECT p.data FROM sources AS s JOIN papers AS p ON p.id = s.paper_id WHERE s.external_id = %s LIMIT 1",
            (external_id,),
        )
        return unpack(row[0]) if row else None

    def count_papers(self, filters: lexical.Filters | None = None) -> int:
        where, params = _where(filters)
        return int(self._one(f"SELECT count(*) FROM papers AS p WHERE TRUE {where}", params)[0])  # type: ignore[index]

    def facet_counts(self, filters: lexical.Filters | None = None) -> dict[str, list[tuple[object, int]]]:
        where, params = _where(filters)
        counts = {
            column: [
                _facet(row)
                for row in self._all(
                    f"SELECT p.{column}, count(*) AS n FROM papers AS p WHERE TRUE {where} AND p.{column} IS NOT NULL"
                    f" GROUP BY p.{column} ORDER BY n DESC, p.{column}",
                    params,
                )
            ]
            for column in _FACETS
        }
        counts["topic"] = [
            tuple(row)
            for row in self._all(
                f"SELECT pt.topic, count(*) AS n FROM papers AS p JOIN paper_topics AS pt ON pt.paper_id = p.id"
                f" WHERE TRUE {where} GROUP BY pt.topic ORDER BY n DESC, pt.topic",
                params,
            )
        ]
        return counts  # type: ignore[return-value]

    def facet_counts_of(self, paper_ids: list[str]) -> dict[str, list[tuple[object, int]]]:
        return tally_facets(
            self._all(
                "SELECT p.venue, p.year, p.contribution, p.has_code::int, pt.topic FROM papers AS p"
                " LEFT JOIN paper_topics AS pt ON pt.paper_id = p.id WHERE p.id = ANY(%s)",
                (paper_ids,),
            )
        )

    # topics and the map

    def put_layout(
        self, topics: Iterable[tuple[int, str, list[str], int]], points: Iterable[tuple[str, int, float, float]]
    ) -> None:
        self._exclusive()
        self._run("DELETE FROM topics")
        self._run("DELETE FROM paper_topics")
        self._many(
            "INSERT INTO topics (id, label, keywords, size) VALUES (%s, %s, %s, %s)",
            ((t, label, orjson.dumps(words).decode(), size) for t, label, words, size in topics),
        )
        self._many("INSERT INTO paper_topics (paper_id, topic, x, y) VALUES (%s, %s, %s, %s)", points)

    def topics(self) -> list[tuple[int, str, list[str], int]]:
        rows = self._all("SELECT id, label, keywords, size FROM topics ORDER BY size DESC, id")
        return [(t, label, orjson.loads(words), size) for t, label, words, size in rows]

    def map_points(self, filters: lexical.Filters | None = None) -> list[tuple[str, str, int, float, float]]:
        where, params = _where(filters)
        return self._all(
            "SELECT p.id, p.display_title, pt.topic, pt.x, pt.y FROM papers AS p JOIN paper_topics AS pt"
            f" ON pt.paper_id = p.id WHERE TRUE {where} ORDER BY p.id",
            params,
        )

    def cite_keys(self) -> dict[str, str]:
        return dict(self._all("SELECT paper_id, key FROM cite_keys"))

    def papers_without_cite_key(self) -> list[Paper]:
        rows = self._all("SELECT data FROM papers WHERE id NOT IN (SELECT paper_id FROM cite_keys) ORDER BY id")
        return [unpack(data) for (data,) in rows]

    def put_cite_keys(self, keys: dict[str, str]) -> None:
        self._many("INSERT INTO cite_keys (paper_id, key) VALUES (%s, %s)", keys.items())

    def get_paper(self, paper_id: str) -> Paper | None:
        row = self._one(f"SELECT p.data, {_TOPIC_LABEL} FROM papers AS p WHERE p.id = %s", (paper_id,))
        return unpack(*row) if row else None

    def iter_papers(
        self, order: str = "id", limit: int | None = None, offset: int = 0, filters: lexical.Filters | None = None
    ) -> Iterator[Paper]:
        if order not in _ORDERS:
            raise PaperscopeError(f"unknown order {order!r}; one of {', '.join(_ORDERS)}")
        where, params = _where(filters)
        sql = (
            f"SELECT p.data, {_TOPIC_LABEL} FROM papers AS p WHERE TRUE {where} ORDER BY {_ORDERS[order]}"
            " LIMIT %s OFFSET %s"
        )
        for data, topic in self._stream(sql, (*params, limit, offset)):
            yield unpack(data, topic)


def _configure(conn: psycopg.Connection) -> None:
    register_vector(conn)
    conn.execute(f"SET hnsw.ef_search = {EF_SEARCH}")
    conn.execute("SET hnsw.iterative_scan = relaxed_order")


def _halfvec(blob: bytes) -> HalfVector:
    return HalfVector(np.frombuffer(blob, dtype=semantic.STORED_DTYPE))


def _idf_frequency(term: str, frequency: Callable[[str], int]) -> int:
    """The document frequency a term's idf is taken from: a phrase's is its rarest word's (at least as
    many papers hold that word as hold the phrase). Taken as 0, a phrase of common words outweighed
    every rare word beside it ("large language models" quantization ranked LLM papers above the
    quantisation ones)."""
    words = [] if " : " in term else pg_text.tokens(term)
    return min(frequency(f'"{w}"') for w in words) if len(words) > 1 else frequency(term)


def _idf(papers: int, total: int) -> float:
    """BM25's inverse document frequency; a phrase or field term (frequency 0 here) counts as rare."""
    return math.log(1 + (total - papers + 0.5) / (papers + 0.5))


def _facet(row: tuple) -> tuple[object, int]:
    value, count = row
    return (int(value) if isinstance(value, bool) else value), count


def _first_line(exc: Exception) -> str:
    return (str(exc).strip().splitlines() or ["no reason given"])[0]
