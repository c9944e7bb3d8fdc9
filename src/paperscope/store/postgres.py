"""The PostgreSQL store: the same library on a server several readers and writers share.

Papers, sources and the reader's own data are the tables of the SQLite store, read and written by
the same statements (core.py); what is PostgreSQL's own is here: the schema, the pool, searching.
Plain words are ranked by BM25 from a posting table of precomputed impacts (pg_bm25.py), which
reads the best postings of each word rather than scoring every paper that matches. Each paper also
carries two tsvectors (pg_text.py) with GIN indexes, for phrases and field terms, ranked by ts_rank
per term times the term's idf. Document frequencies are kept exact in `terms` as papers come and go
(counting a common word's papers at query time costs tens of milliseconds). Many rows are written by
COPY.
Vectors are pgvector `halfvec`s under an HNSW index, searched with iterative scans so that a
filter still yields k papers; without a filter, a search reads the reading machine's own copy of
the vectors once it is current (pg_vectors.py).

Connections come from a pool; a transaction holds one connection for its thread. Whatever decides
which papers exist (reading candidates, writing papers, replacing the map) first takes one
transaction-scoped advisory lock, so concurrent ingests of overlapping lists take turns and
never both create a paper; tagging and searching do not wait for it. Unique keys back this up.
An ingest into an empty library builds the indexes only searching reads after its papers are in.
"""

from __future__ import annotations

import hashlib
import math
import re
import threading
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import psycopg
from pgvector import HalfVector
from pgvector.psycopg import register_vector
from psycopg_pool import ConnectionPool

from paperscope.errors import PaperscopeError
from paperscope.index import lexical, semantic
from paperscope.model import Paper
from paperscope.progress import Progress
from paperscope.store import pg_bm25, pg_text, pg_vectors, tantivy_lexical
from paperscope.store.base import WordCounts
from paperscope.store.core import CURRENT, LIBRARY_FACTS, SQLCore, browse_order_indexes, where
from paperscope.store.dialect import POSTGRES
from paperscope.store.location import safe_location
from paperscope.store.rows import now_precise, unpack
from paperscope.store.upgrade import Upgrade

_LOCK = 0x70617065  # the advisory lock of "which papers exist" ("pape")
POOL_SIZE = 16
# HNSW candidates per query. On the corpus's 92.5k real vectors, 200 title queries against the exact
# scan: recall@10 0.940 and @100 0.885 at 100 (4.4 ms for 10); 0.979 and 0.954 at 200 (5.8 ms);
# 0.991 and 0.979 at 400 (9.0 ms). Hybrid search reads 100.
EF_SEARCH = 200
_TEXT = 'TEXT COLLATE "C"'  # byte order, as SQLite sorts: the same export order on both stores

MIGRATIONS: list[str | Callable[[psycopg.Connection], None]] = [
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
    # 4: BM25 by a posting table of precomputed impacts (pg_bm25.py), filled from the papers stored
    lambda conn: _add_postings(conn),
    # 5: the rows the tantivy index on the reading machine must read again (tantivy_lexical.py), logged
    # by statement triggers in the writer's transaction (put_paper deletes and inserts a changed paper:
    # a new seq; an UPDATE is logged too, should one ever rewrite a paper in place). Whatever writes
    # papers holds the advisory lock until it commits, so the log's numbers commit in order: a reader
    # that sees one sees every one before it (a skipped number is a rolled-back writer's).
    """
    CREATE TABLE lexical_changes (seq BIGSERIAL PRIMARY KEY, row BIGINT NOT NULL);
    CREATE FUNCTION paperscope_papers_added() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN INSERT INTO lexical_changes (row) SELECT seq FROM added ORDER BY seq; RETURN NULL; END $$;
    CREATE FUNCTION paperscope_papers_removed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN INSERT INTO lexical_changes (row) SELECT seq FROM removed ORDER BY seq; RETURN NULL; END $$;
    CREATE FUNCTION paperscope_papers_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        INSERT INTO lexical_changes (row) SELECT seq FROM removed UNION SELECT seq FROM added ORDER BY 1;
        RETURN NULL;
    END $$;
    CREATE TRIGGER papers_added AFTER INSERT ON papers REFERENCING NEW TABLE AS added
        FOR EACH STATEMENT EXECUTE FUNCTION paperscope_papers_added();
    CREATE TRIGGER papers_removed AFTER DELETE ON papers REFERENCING OLD TABLE AS removed
        FOR EACH STATEMENT EXECUTE FUNCTION paperscope_papers_removed();
    CREATE TRIGGER papers_changed AFTER UPDATE ON papers REFERENCING OLD TABLE AS removed NEW TABLE AS added
        FOR EACH STATEMENT EXECUTE FUNCTION paperscope_papers_changed();
    """,
    # 6: every paper_id byte-ordered like papers.id: compared with a column of another collation, a join
    # on p.id could use no index of the other table (a page's ten papers with their topic labels read all
    # of paper_topics ten times: 12 ms at 11.5k papers, 0.4 ms after)
    ";".join(
        f"ALTER TABLE {table} ALTER COLUMN paper_id TYPE {_TEXT}"
        for table in (
            *("sources", "paper_bands", "paper_ids", "vectors", "paper_topics", "changes"),
            *("tags", "reading", "notes", "cite_keys"),
        )
    ),
    lambda conn: _index_joined_compounds(conn),
    LIBRARY_FACTS,
    browse_order_indexes(" NULLS FIRST"),
]
SCHEMA_VERSION = len(MIGRATIONS)
_INSERT = re.compile(
    r"INSERT INTO (?P<table>\w+) \((?P<columns>[\w, ]+)\) VALUES \([?:\w, ]+\)(?P<conflict> ON CONFLICT DO NOTHING)?"
)
COPY_FROM = 64  # rows from which an insert goes by COPY
# Indexes that only searching reads: an ingest into an empty library builds them after its load.
DEFERRED_INDEXES = ("postings_best", "papers_doc", "papers_fields")
BUILD_MEMORY = "256MB"  # maintenance_work_mem while they are built


def _matches(terms: Iterable[str], joiner: str) -> tuple[str, list]:
    """SQL matching parsed query terms (AND or OR), each against the tsvector it searches."""
    parts, params = [], []
    for found in filter(None, map(pg_text.term, terms)):
        parts.append(f"p.{found[0]} @@ ?::tsquery")
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


class PostgresStore(SQLCore):
    concurrent = True
    dialect = POSTGRES
    schema_version = SCHEMA_VERSION
    row_column = "seq"
    _cite_key_match = "lower(key)"
    lexical_head = "SELECT coalesce(max(seq), 0), min(seq) FROM lexical_changes"
    database_errors = (psycopg.Error,)
    _search_columns = (("doc", "?::tsvector"), ("fields", "?::tsvector"), ("length", "?"))

    def __init__(self, url: str, progress: Progress | None = None) -> None:
        super().__init__()
        self.url = url
        self._local = threading.local()
        self._frequencies: dict[str, int] = {}
        self._frequencies_version = -1
        self._vocabulary: tuple[object, dict[str, int]] = (None, {})
        try:
            with psycopg.connect(url, autocommit=True, connect_timeout=10) as conn:
                self.read_only = conn.execute("SHOW transaction_read_only").fetchone()[0] == "on"
                if self.read_only:
                    self._check_replica(conn)
                    upgrade = Upgrade(SCHEMA_VERSION, SCHEMA_VERSION, None)
                else:
                    upgrade = self._migrate(conn, progress)
        except psycopg.OperationalError as exc:
            raise PaperscopeError(
                f"{safe_location(url)}: cannot reach the PostgreSQL server ({_first_line(exc)})"
            ) from None
        self.pool = ConnectionPool(
            url, min_size=1, max_size=POOL_SIZE, kwargs={"autocommit": True}, configure=_configure, open=True
        )
        self._identity: str | None = None
        self._lexical = tantivy_lexical.IndexBeside(self)
        upgrade.finish(self._lexical.ready)
        self._vectors_beside = pg_vectors.VectorsBeside(
            lambda: self.cache_path("vectors"), self.papers_version, self._vectors_state, self._vector_rows_counted
        )

    def _migrate(self, conn: psycopg.Connection, progress: Progress | None) -> Upgrade:
        with conn.transaction():
            conn.execute(POSTGRES.prepare("SELECT pg_advisory_xact_lock(?)"), (_LOCK,))  # two first opens: one migrates
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
            upgrade = Upgrade(version, SCHEMA_VERSION, progress)
            for number in upgrade.steps():
                step = MIGRATIONS[number]
                step(conn) if callable(step) else conn.execute(step.encode())
            if not row:
                conn.execute(POSTGRES.prepare("INSERT INTO schema_version VALUES (?)"), (SCHEMA_VERSION,))
            else:
                conn.execute(POSTGRES.prepare("UPDATE schema_version SET version = ?"), (SCHEMA_VERSION,))
        return upgrade

    def _check_replica(self, conn: psycopg.Connection) -> None:
        """A read-only server (a streaming replica) is read as it is: its schema comes from the primary."""
        found = conn.execute("SELECT to_regclass('schema_version') IS NOT NULL").fetchone()[0]
        row = conn.execute("SELECT version FROM schema_version").fetchone() if found else None
        if not row or row[0] != SCHEMA_VERSION:
            raise PaperscopeError(
                f"{safe_location(self.url)}: a read-only server (a replica) holding schema {row[0] if row else 0},"
                f" not {SCHEMA_VERSION}; open the library once on the primary with this paperscope"
            )

    # how a statement runs: `?` as psycopg's `%s` (dialect.prepare)

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
            return conn.execute(POSTGRES.prepare(sql), list(params)).fetchall()

    def _one(self, sql: str, params: Iterable = ()) -> tuple | None:
        with self._conn() as conn:
            return conn.execute(POSTGRES.prepare(sql), list(params)).fetchone()

    def _run(self, sql: str, params: Iterable = ()) -> None:
        with self._conn() as conn:
            conn.execute(POSTGRES.prepare(sql), list(params))

    def _many(self, sql: str, rows: Iterable[Iterable]) -> None:
        """Many rows of one statement; a plain INSERT (or one that skips conflicts) of COPY_FROM rows or
        more goes by COPY, the fastest way into PostgreSQL (skipping conflicts: through a staging table)."""
        rows = [tuple(r) for r in rows]
        insert = _INSERT.fullmatch(sql)
        if insert is None or len(rows) < COPY_FROM:
            with self._conn() as conn, conn.cursor() as cursor:
                cursor.executemany(POSTGRES.prepare(sql), rows)
        elif not insert["conflict"]:
            self._copy(f"COPY {insert['table']} ({insert['columns']}) FROM STDIN", rows)
        else:
            columns = insert["columns"]
            self._run("DROP TABLE IF EXISTS paperscope_staged")  # left by a statement that failed outside a transaction
            self._run(f"CREATE TEMP TABLE paperscope_staged AS SELECT {columns} FROM {insert['table']} WITH NO DATA")
            self._copy(f"COPY paperscope_staged ({columns}) FROM STDIN", rows)
            self._run(
                f"INSERT INTO {insert['table']} ({columns}) SELECT {columns} FROM paperscope_staged"
                " ON CONFLICT DO NOTHING"
            )
            self._run("DROP TABLE paperscope_staged")

    def _copy(self, sql: str, rows: Iterable[Iterable]) -> None:
        with self._conn() as conn, conn.cursor() as cursor, cursor.copy(sql) as copy:
            for row in rows:
                copy.write_row(row)

    def _stream(self, sql: str, params: Iterable = ()) -> Iterator[tuple]:
        """Rows read a thousand at a time through a server-side cursor, in one snapshot; bytea as bytes."""
        with self._conn() as conn, conn.transaction(), conn.cursor(name="paperscope_stream") as cursor:
            cursor.execute(POSTGRES.prepare(sql), list(params))
            while batch := cursor.fetchmany(1_000):
                for row in batch:
                    yield tuple(bytes(v) if isinstance(v, memoryview) else v for v in row)

    def _exclusive(self) -> None:
        """Take the "which papers exist" lock for the rest of this transaction."""
        if not getattr(self._local, "exclusive", False):
            self._run("SELECT pg_advisory_xact_lock(?)", (_LOCK,))
            self._local.exclusive = True

    @contextmanager
    def transaction(self) -> Iterator[None]:
        if getattr(self._local, "conn", None) is not None:
            yield  # already inside one: part of it
            return
        if self.read_only:
            raise PaperscopeError(f"{safe_location(self.url)}: a read-only server (a replica); write on the primary")
        with self.pool.connection() as conn:
            self._local.conn, self._local.exclusive, self._local.deferred = conn, False, None
            self._local.terms = Counter()
            self._stamp = now_precise()
            try:
                with conn.transaction():
                    yield
                    self._write_terms()
                    _build_indexes(conn, self._local.deferred or [])
            finally:
                self._local.conn = None
            # After the commit: a reader that sees the new version sees the new data. setval writes the
            # value to the WAL each time (nextval alone logs 32 ahead), so a replica sees every step.
            conn.execute("SELECT setval('library_version', nextval('library_version'))")

    @contextmanager
    def bulk(self) -> Iterator[None]:
        yield  # the server's own memory settings apply

    def _insert(
        self, rows: list[tuple[Paper, str, str | None, tuple[int, ...]]], stamps: list[str] | None = None
    ) -> None:
        self._defer_indexes()
        self._local.tokenised = {p.id: pg_text.columns(p) for p, _, _, _ in rows}  # read by both search indexes
        try:
            super()._insert(rows, stamps)
        finally:
            self._local.tokenised = {}

    def _tokenised(self, paper: Paper) -> dict[str, list[str]]:
        return getattr(self._local, "tokenised", {}).get(paper.id) or pg_text.columns(paper)

    def _defer_indexes(self) -> None:
        """The first papers a transaction writes into an empty library: the indexes only searching reads
        are dropped, and built again before the commit. Built once over a whole load
        they cost a fraction of inserting into them paper by paper, at random places in B-trees and GIN
        trees larger than the server's cache. Readers of the library wait for the commit meanwhile
        (dropping an index locks its table); they would have found no papers."""
        if getattr(self._local, "conn", None) is None or getattr(self._local, "deferred", []) is not None:
            return  # outside a transaction (nothing would build them again), or decided already
        self._local.deferred = []
        if self._no_papers():
            self._local.deferred = _drop_indexes(self._local.conn, DEFERRED_INDEXES)

    def close(self) -> None:
        self.pool.close()

    def version(self) -> tuple[int, int]:
        row = self._one("SELECT last_value, is_called FROM library_version")
        return (int(row[0]) if row and row[1] else 0), 0

    def papers_version(self) -> int:
        return self.version()[0]

    # the search index: two tsvectors and the postings of each paper, document frequencies in `terms`

    def _search_values(self, paper: Paper) -> tuple:
        tokenised = self._tokenised(paper)
        return (*pg_text.documents(tokenised), pg_bm25.length(tokenised))

    def _index(self, papers: list[Paper]) -> None:
        if not papers:
            return
        stored = {
            pid: (seq, size)
            for pid, seq, size in self._all(
                "SELECT id, seq, length FROM papers WHERE id = ANY(?)", ([p.id for p in papers],)
            )
        }
        avgdl = pg_bm25.average_length(self._one, self._run, len(papers), sum(size for _, size in stored.values()))
        counts: Counter[str] = Counter()
        postings = pg_bm25.postings(((self._tokenised(p), stored[p.id][0]) for p in papers), avgdl, counts)
        with self._conn() as conn, conn.cursor() as cursor, cursor.copy(pg_bm25.COPY) as copy:
            copy.write(postings)
        self._count_terms(counts, +1)

    def _unindex(self, paper_id: str, data: str) -> None:
        seq, size = self._one("SELECT seq, length FROM papers WHERE id = ?", (paper_id,))  # type: ignore[misc]
        terms = self._all("DELETE FROM postings WHERE paper = ? RETURNING term", (seq,))
        pg_bm25.average_length(self._one, self._run, -1, -size)
        self._count_terms(Counter(term for (term,) in terms), -1)

    def _count_terms(self, counts: Counter[str], sign: int) -> None:
        """Adds (sign +1) or takes away papers from words' document frequencies. A transaction gathers
        them and writes them once, before it commits or reads them (_write_terms): each write of a word's
        row adds a version of it that every later write steps over until the commit, and a load into an
        empty library spent most of its time there by 550k papers (a batch at a time: quadratic)."""
        pending = getattr(self._local, "terms", None) if getattr(self._local, "conn", None) is not None else None
        if pending is None:
            self._write_terms(Counter({term: sign * n for term, n in counts.items()}))
        elif sign > 0:
            pending.update(counts)
        else:
            pending.subtract(counts)

    def _write_terms(self, counts: Counter[str] | None = None) -> None:
        """Writes these changes of document frequencies, or those the transaction has gathered."""
        if counts is None:
            if getattr(self._local, "conn", None) is None:
                return
            counts, self._local.terms = self._local.terms, Counter()
        terms = sorted(term for term, n in counts.items() if n)
        if terms:
            self._run(
                "INSERT INTO terms (term, papers) SELECT * FROM unnest(?::text[], ?::integer[])"
                " ON CONFLICT (term) DO UPDATE SET papers = terms.papers + excluded.papers",
                (terms, [counts[t] for t in terms]),
            )

    def word_counts(self) -> WordCounts:
        frequency = self._frequency()
        return WordCounts(lambda word: frequency(f'"{word}"'), lambda word: frequency(f'"{word}"') > 0)

    def vocabulary(self) -> dict[str, int]:
        """Every indexed word with its document frequency, read in one pass and kept until the library changes."""
        self._write_terms()
        version = self.version()
        if self._vocabulary[0] != version:
            self._vocabulary = (version, {term: int(n) for term, n in self._all("SELECT term, papers FROM terms")})
        return self._vocabulary[1]

    def _frequency(self) -> Callable[[str], int]:
        """Document frequency of a parsed query term, from `terms`, remembered until the library changes."""
        self._write_terms()
        version = self.version()[0]
        if version != self._frequencies_version:
            self._frequencies, self._frequencies_version = {}, version

        def frequency(fts_term: str) -> int:
            word = pg_text.single_word(fts_term)
            if word is None:
                return 0
            if word not in self._frequencies:
                row = self._one("SELECT papers FROM terms WHERE term = ?", (word,))
                self._frequencies[word] = int(row[0]) if row else 0
            return self._frequencies[word]

        return frequency

    # searching

    def _search(
        self, query: lexical.Query, limit: int, filters: lexical.Filters, raw: str | None, enough: int | None
    ) -> list[lexical.LexicalHit]:
        """Through the tantivy index on this machine; by the server's own index (search_stored) for a raw
        expression, or when the tantivy index cannot be brought in step."""
        if raw is None and (hits := self._lexical.search(query, limit, where(filters, POSTGRES), enough)) is not None:
            return hits
        return self.search_stored(query, limit, filters, raw, enough)

    def search_stored(
        self, query: lexical.Query, limit: int, filters: lexical.Filters, raw: str | None, enough: int | None
    ) -> list[lexical.LexicalHit]:
        """Papers with every term first, then with any of the rarest, each by BM25 from the posting table
        (IDF-weighted ts_rank when a pass holds a phrase or a field term).

        `raw` is taken as PostgreSQL's web-search syntax (the SQLite store takes FTS5's)."""
        where_sql, params = where(filters, POSTGRES)
        if raw is not None:
            websearch = "websearch_to_tsquery('simple', ?)"
            return self._ranked(
                f"p.doc @@ {websearch}",
                [raw],
                (f"ts_rank('{pg_text.RANK_WEIGHTS}', p.doc, {websearch}, 32)", [raw]),
                where_sql,
                params,
                limit,
            )
        frequency = self._frequency()
        total = max(self._papers_total(), 1)
        where_sql, params = _excluding(query, where_sql, params)
        required = query.required()
        passes = [(query.content(), _matches(query.content(), "AND"))]
        if (words := [w for w in query.rarest(frequency) if w not in required]) and len(words) + len(required) > 1:
            passes.append(([*required, *words], _all_and_any(required, words)))  # the required ones still required
        hits: list[lexical.LexicalHit] = []
        seen: set[str] = set()
        for every, (terms, condition) in zip((True, False), passes, strict=False):
            if len(hits) >= (enough or limit):
                break
            plain = [pg_text.single_word(term) for term in terms]
            if all(plain):  # plain words: BM25 from the posting table
                found = self._best(plain, frequency, total, limit, every, where_sql, params)  # type: ignore[arg-type]
            else:  # a phrase or a field: IDF-weighted ts_rank over the tsvectors
                found = self._ranked(*condition, _rank(terms, frequency, total), where_sql, params, limit)
            for hit in found:
                if hit.paper_id not in seen:
                    seen.add(hit.paper_id)
                    hit.every = every
                    hits.append(hit)
        return hits[:limit]

    def _best(
        self,
        words: list[str],
        frequency: Callable[[str], int],
        total: int,
        limit: int,
        every: bool,
        where_sql: str,
        params: list,
    ) -> list[lexical.LexicalHit]:
        """The papers with the highest BM25 for these words (all of them, with `every`), by id among equals."""
        repeats = Counter(words)  # a word typed twice counts twice, as in FTS5
        idfs = [pg_bm25.idf(frequency(f'"{w}"'), total) * n for w, n in repeats.items()]
        found = pg_bm25.best(self._all, list(repeats), idfs, limit, every, where_sql, params)
        ids = dict(self._all("SELECT seq, id FROM papers WHERE seq = ANY(?)", ([hit.seq for hit in found],)))
        hits = [lexical.LexicalHit(ids[hit.seq], hit.score) for hit in found]
        return sorted(hits, key=lambda hit: (-hit.score, hit.paper_id))

    def _ranked(
        self, condition: str, condition_params: list, score: tuple[str, list], where: str, params: list, limit: int
    ) -> list[lexical.LexicalHit]:
        if not condition:
            return []
        rows = self._all(
            f"SELECT p.id, {score[0]} AS score FROM papers AS p WHERE {condition} {where}"
            " ORDER BY score DESC, p.id LIMIT ?",
            (*score[1], *condition_params, *params, limit),
        )
        return [lexical.LexicalHit(pid, float(value)) for pid, value in rows]

    def _papers_total(self) -> int:
        return int(self._one("SELECT papers FROM bm25")[0])  # type: ignore[index]  # kept exact; count(*) reads them all

    def matching_ids(self, expression: str) -> set[str]:
        """Ids of the papers a query in PostgreSQL's web-search syntax matches."""
        return {
            r[0]
            for r in self._all("SELECT id FROM papers WHERE doc @@ websearch_to_tsquery('simple', ?)", (expression,))
        }

    # vectors: pgvector's HNSW index

    def _write_vectors(self, rows: list[tuple[str, str, bytes]]) -> None:
        self._many(
            "INSERT INTO vectors (paper_id, embed_hash, vector, embedding) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (paper_id) DO UPDATE SET embed_hash = excluded.embed_hash,"
            " vector = excluded.vector, embedding = excluded.embedding",
            ((pid, digest, blob, _halfvec(blob)) for pid, digest, blob in rows),
        )

    def _vectors_state(self) -> tuple[int, int]:
        """Changes whenever the current vectors do: their count and the sum of their ids' and texts' hashes."""
        count, total = self._one("SELECT count(*), coalesce(sum(hashtext(v.paper_id || v.embed_hash)), 0)" + CURRENT)  # type: ignore[misc]
        return int(count), int(total)

    def wait_for_vectors(self, timeout: float | None = None) -> bool:
        """Whether this machine's copy of the vectors is current, once its refresh under way has finished."""
        return self._vectors_beside.wait(timeout) is not None

    def vector_of(self, paper_id: str) -> np.ndarray | None:
        row = self._one("SELECT v.vector" + CURRENT + " WHERE v.paper_id = ?", (paper_id,))
        return np.frombuffer(bytes(row[0]), dtype=semantic.STORED_DTYPE).astype(np.float32) if row else None

    def catch_up_indexes(self, prune: bool = False) -> None:
        """The tantivy index on this machine takes in the papers written since it last did (the tsvectors
        and postings change with the papers, in the same transaction). The log is not pruned: the indexes
        of other machines and replicas read it at their own pace."""
        self._lexical.ready()

    # the tantivy index in this machine's cache folder (tantivy_lexical.IndexBeside)

    @contextmanager
    def lexical_snapshot(self) -> Iterator[bool]:
        if getattr(self._local, "conn", None) is not None:
            yield False
            return
        with self.pool.connection() as conn:
            self._local.conn = conn
            try:
                with conn.transaction():
                    conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
                    yield True
            finally:
                self._local.conn = None

    def lexical_documents(self, rows: list[int] | None) -> Iterator[tuple[int, tuple[str, ...]]]:
        """The text of each column as SQLite's FTS5 table holds it (lexical.document), so both rank alike."""
        if rows is None:
            for seq, data in self._stream("SELECT seq, data FROM papers"):
                yield seq, lexical.document(unpack(data))
            return
        for batch in tantivy_lexical.batches(rows):
            for seq, data in self._all("SELECT seq, data FROM papers WHERE seq = ANY(?)", (batch,)):
                yield seq, lexical.document(unpack(data))

    def lexical_folder(self) -> Path:
        return self.cache_path("lexical")

    def cache_path(self, kind: str) -> Path:
        """This library's `kind` in the cache folder, named by the server's system identifier, which a
        streaming replica shares with its primary, and the database's oid (a library dropped and made
        again has another). A replica's is its own even on the primary's machine (its papers lag behind
        the primary's): the name adds the server's address."""
        if self._identity is None:
            system, database, replica = self._one(  # type: ignore[misc]
                "SELECT (SELECT system_identifier FROM pg_control_system()),"
                " (SELECT oid FROM pg_database WHERE datname = current_database()), pg_is_in_recovery()"
            )
            self._identity = f"{system}-{database}"
            if replica:
                with self._conn() as conn:
                    address = f"{conn.info.host}:{conn.info.port}".encode()
                self._identity += f"-replica-{hashlib.sha256(address).hexdigest()[:12]}"
        folder = tantivy_lexical.cache_folder() / f"{kind}-postgresql-{self._identity}"
        folder.parent.mkdir(parents=True, exist_ok=True)
        return folder

    def nearest(
        self,
        vector: np.ndarray,
        k: int,
        filters: lexical.Filters | None = None,
        within: set[str] | None = None,
        exclude: list[str] | None = None,
        skip: set[str] | None = None,
    ) -> list[tuple[str, float]]:
        """The k nearest by cosine: from this machine's copy of the vectors (pg_vectors.py) when it is
        current and nothing filters them, else from the HNSW index, filters applied during the scan
        (iterative scan)."""
        if k <= 0 or (within is not None and not within):
            return []
        where_sql, params = where(filters, POSTGRES)
        if not where_sql and within is None and not exclude and (copy := self._vectors_beside.current()):
            return copy.nearest(vector, k, exclude=skip or None)
        if within is not None:
            where_sql += " AND p.id = ANY(?)"
            params.append(sorted(within))
        if exclude and (excluded := _matches(exclude, "OR"))[0]:
            where_sql += f" AND NOT {excluded[0]}"
            params += excluded[1]
        query = HalfVector(vector.astype(np.float32))
        skip = skip or set()
        if not where_sql:  # the index alone, then the papers: a join first would hide the index from the planner
            rows = self._all(
                "SELECT n.paper_id, n.distance FROM (SELECT paper_id, embed_hash, embedding <=> ? AS distance"
                " FROM vectors ORDER BY embedding <=> ? LIMIT ?) AS n JOIN papers AS p ON p.id = n.paper_id"
                " AND p.embed_hash = n.embed_hash ORDER BY n.distance",
                (query, query, k + len(skip) + 10),
            )
            return [(paper_id, 1.0 - float(distance)) for paper_id, distance in rows if paper_id not in skip][:k]
        if skip:
            where_sql += " AND NOT (p.id = ANY(?))"
            params.append(sorted(skip))
        rows = self._all(
            "SELECT v.paper_id, v.embedding <=> ? AS distance" + CURRENT + f" WHERE TRUE {where_sql}"
            " ORDER BY distance LIMIT ?",
            (query, *params, k),
        )
        return [(paper_id, 1.0 - float(distance)) for paper_id, distance in rows]

    # moving a whole library, safekeeping

    def load(self, table: str, rows: list[tuple]) -> None:
        super().load(table, rows)
        if table == "files":  # ids were given: the next one the sequence hands out follows them
            self._run("SELECT setval('files_id_seq', GREATEST((SELECT max(id) FROM files), 1))")

    def backup(self, destination: str | Path) -> None:
        """A SQLite file holding the whole library, read in one snapshot."""
        from paperscope.store.copy import copy_store
        from paperscope.store.sqlite import SQLiteStore

        target = SQLiteStore(destination)
        try:
            copy_store(self, target)
        finally:
            target.close()

    def _integrity(self) -> str | list[str]:
        orphans = self._one(
            "SELECT count(*) FROM sources AS s WHERE NOT EXISTS (SELECT 1 FROM papers AS p WHERE p.id = s.paper_id)"
        )[0]  # type: ignore[index]
        return "ok" if not orphans else [f"{orphans} sources of papers not stored"]


def _configure(conn: psycopg.Connection) -> None:
    register_vector(conn)
    conn.execute(f"SET hnsw.ef_search = {EF_SEARCH}")
    conn.execute("SET hnsw.iterative_scan = relaxed_order")


def _halfvec(blob: bytes) -> HalfVector:
    return HalfVector(np.frombuffer(blob, dtype=semantic.STORED_DTYPE))


def _rank(terms: list[str], frequency: Callable[[str], int], total: int) -> tuple[str, list]:
    """The score of terms that are not all plain words: each term's ts_rank weighted by its idf."""
    scored = [(term, found) for term in terms if (found := pg_text.term(term))]
    return (
        " + ".join(f"? * ts_rank('{pg_text.RANK_WEIGHTS}', p.{vector}, ?::tsquery, 32)" for _, (vector, _) in scored),
        [x for term, (_, tsquery) in scored for x in (_idf(_idf_frequency(term, frequency), total), tsquery)],
    )


def _add_postings(conn: psycopg.Connection) -> None:
    """4: the posting table, filled from the papers stored."""
    conn.execute(pg_bm25.SCHEMA.encode())
    _index_stored(conn, Counter())


def _index_joined_compounds(conn: psycopg.Connection) -> None:
    """7: every paper indexed again as lexical.document gives it now (a hyphenated word also joined:
    "pre-trained" is found by "pretrained"), with the words' document frequencies. Rewriting the papers'
    search vectors logs each for the tantivy index of every reading machine (migration 5's trigger)."""
    conn.execute("TRUNCATE postings")
    conn.execute("DELETE FROM terms")
    deferred = _drop_indexes(conn, DEFERRED_INDEXES)  # built once after: at 92.5k papers 120 s, kept 229 s
    counts: Counter[str] = Counter()
    _index_stored(conn, counts)
    _build_indexes(conn, deferred)
    terms = sorted(counts)
    conn.execute(
        "INSERT INTO terms (term, papers) SELECT * FROM unnest(%s::text[], %s::integer[])",
        (terms, [counts[t] for t in terms]),
    )


def _index_stored(conn: psycopg.Connection, counts: Counter[str]) -> None:
    """The search index of the papers stored, into an empty posting table: their search vectors and
    lengths first (the average length every impact needs), then each word's impact, its papers counted
    into `counts`; the papers are read a thousand at a time."""
    for batch in _stored_papers(conn):
        tokenised = [pg_text.columns(paper) for paper, _ in batch]
        documents = [pg_text.documents(columns) for columns in tokenised]
        conn.execute(
            "UPDATE papers AS p SET doc = v.doc::tsvector, fields = v.fields::tsvector, length = v.length"
            " FROM unnest(%s::bigint[], %s::text[], %s::text[], %s::integer[]) AS v(seq, doc, fields, length)"
            " WHERE p.seq = v.seq",
            (
                [seq for _, seq in batch],
                [doc for doc, _ in documents],
                [fields for _, fields in documents],
                [pg_bm25.length(columns) for columns in tokenised],
            ),
        )
    conn.execute(
        "UPDATE bm25 SET papers = t.papers, tokens = t.tokens, avgdl = t.tokens::float8 / greatest(t.papers, 1)"
        " FROM (SELECT count(*) AS papers, coalesce(sum(length), 0) AS tokens FROM papers) AS t"
    )
    avgdl = conn.execute("SELECT avgdl FROM bm25").fetchone()[0]  # type: ignore[index]
    for batch in _stored_papers(conn):
        postings = pg_bm25.postings(((pg_text.columns(paper), seq) for paper, seq in batch), avgdl, counts)
        with conn.cursor() as cursor, cursor.copy(pg_bm25.COPY) as copy:
            copy.write(postings)


def _drop_indexes(conn: psycopg.Connection, names: Iterable[str]) -> list[str]:
    """Drops those of these indexes that exist; their definitions, to build them again (_build_indexes)."""
    definitions = conn.execute(
        "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() AND indexname = ANY(%s)",
        (list(names),),
    ).fetchall()
    for name, _ in definitions:
        conn.execute(f"DROP INDEX {name}".encode())
    return [definition for _, definition in definitions]


def _build_indexes(conn: psycopg.Connection, definitions: list[str]) -> None:
    """Builds indexes from their definitions, with BUILD_MEMORY to sort in (inside a transaction)."""
    if definitions:
        conn.execute(f"SET LOCAL maintenance_work_mem = '{BUILD_MEMORY}'".encode())
        for definition in definitions:
            conn.execute(definition.encode())


def _stored_papers(conn: psycopg.Connection) -> Iterator[list[tuple[Paper, int]]]:
    """(paper, seq) of every paper stored, a thousand at a time (read through a server-side cursor)."""
    with conn.cursor(name="paperscope_papers") as cursor:
        cursor.execute("SELECT data, seq FROM papers ORDER BY seq")
        while batch := cursor.fetchmany(1_000):
            yield [(unpack(data), seq) for data, seq in batch]


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


def _first_line(exc: Exception) -> str:
    return (str(exc).strip().splitlines() or ["no reason given"])[0]
