"""The statements both stores run, written once over a Dialect.

`SQLCore` is everything of the Store protocol that SQLite and PostgreSQL say alike: files, sources
and papers as the pipeline writes them, the reader's own library, changes, topics and the map,
reading papers, facets, vectors as rows, dump and load. A store subclasses it and gives what really
differs: how a statement runs (`_all`, `_one`, `_run`, `_many`, `_stream`), its schema, its lexical
search (`_search` and the search index kept beside the papers: `_search_columns`,
`_index`, `_unindex`), vector search, transactions, backup and the integrity check.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator
from pathlib import Path

import orjson

from paperscope.errors import PaperscopeError
from paperscope.index import lexical, semantic
from paperscope.model import Mentions, Paper, RawRecord
from paperscope.store.base import FileRow, LibraryPaper, WordCounts
from paperscope.store.dialect import Dialect
from paperscope.store.rows import (
    NAMES_NOTHING,
    VectorCache,
    change_detail,
    identities,
    mentions,
    now,
    now_precise,
    pack,
    tally_facets,
    unpack,
)

# SQLite 15, PostgreSQL 8: facts about a library as a whole, such as which version of paperscope's
# making of papers made its papers (pipeline.MADE_BY): one made before an extractor improved is made
# again from its records at its next ingest
LIBRARY_FACTS = "CREATE TABLE library_facts (name TEXT PRIMARY KEY, value TEXT NOT NULL)"


def browse_order_indexes(nulls_first: str) -> str:
    """SQLite 16, PostgreSQL 9: an index in each order the papers are listed in (ORDERS). A browse page sorted
    by year or title read and sorted every paper for its twenty (92.5k papers: SQLite 184 ms, PostgreSQL 70 ms;
    page 100 twice that). `nulls_first` is how the backend's index puts a column's NULLs first, as ORDERS asks."""
    return ";".join(
        f"CREATE INDEX papers_by_{name} ON papers({columns.format(n=nulls_first)})"
        for name, columns in (
            ("venue", "venue{n}, year{n}, id"),
            ("year", "year{n}, venue{n}, id"),
            ("title", "display_title, id"),
        )
    )


COLUMNS = {
    "files": ("id", "path", "name", "sha256", "format", "records", "ingested_at"),
    "papers": ("data", "key", "title_key", "bands", "updated_at"),
    "sources": ("paper_id", "file_id", "line", "key", "record", "external_id"),
    "vectors": ("paper_id", "embed_hash", "vector"),
    "topics": ("id", "label", "keywords", "size"),
    "paper_topics": ("paper_id", "topic", "x", "y"),
    "tags": ("reader", "paper_id", "tag", "added_at"),
    "reading": ("reader", "paper_id", "state", "updated_at"),
    "notes": ("reader", "paper_id", "text", "updated_at"),
    "saved_searches": ("reader", "name", "query", "mode", "filters", "last_seen"),
    "changes": ("at", "paper_id", "kind", "detail"),
    "cite_keys": ("key", "paper_id"),
    "library_facts": ("name", "value"),
}
"""What `dump` yields and `load` takes, table by table in this order, as rows of these columns
(text, numbers, and the vectors' float16 bytes). Bands, identities and the search index are
rebuilt from the papers; ids of files are kept, those of sources and changes follow their order."""
_DUMP_ORDER = {
    "files": "id",
    "papers": "id",
    "sources": "id",
    "vectors": "paper_id",
    "topics": "id",
    "paper_topics": "paper_id",
    "tags": "reader, paper_id, tag",
    "reading": "reader, paper_id",
    "notes": "reader, paper_id",
    "saved_searches": "reader, name",
    "changes": "id",
    "cite_keys": "paper_id",
    "library_facts": "name",
}
_PAPER_COLUMNS = (
    "id",
    "key",
    "title_key",
    "venue",
    "year",
    "display_title",
    "contribution",
    "has_code",
    "data",
    "bands",
    "updated_at",
    "embed_hash",
)
ORDERS = {
    "id": "p.id",
    "venue": "p.venue NULLS FIRST, p.year NULLS FIRST, p.id",
    "year": "p.year NULLS FIRST, p.venue NULLS FIRST, p.id",
    "title": "p.display_title, p.id",
}
# A paper's topic label, kept beside the paper (topics are recomputed whole, papers are not rewritten)
_TOPIC_LABEL = "(SELECT t.label FROM paper_topics AS pt JOIN topics AS t ON t.id = pt.topic WHERE pt.paper_id = p.id)"
_MISSING = (
    " FROM papers AS p LEFT JOIN vectors AS v ON v.paper_id = p.id AND v.embed_hash = p.embed_hash"
    " WHERE v.paper_id IS NULL"
)
CURRENT = " FROM vectors AS v JOIN papers AS p ON p.id = v.paper_id AND p.embed_hash = v.embed_hash"
_GONE = "NOT EXISTS (SELECT 1 FROM papers AS p WHERE p.id = paper_topics.paper_id)"
_CHECKED = ("files", "papers", "sources", "vectors", "topics")  # the tables `check` counts


def where(filters: lexical.Filters | None, dialect: Dialect) -> tuple[str, list]:
    """An AND-clause over the papers table (alias p) and its parameters: constants and placeholders only."""
    filters = filters or lexical.Filters()
    clauses, params = [], []
    if filters.venue:
        clauses.append(dialect.nocase.format("p.venue"))
        params.append(filters.venue)
    if filters.years:
        clauses.append("p.year BETWEEN ? AND ?")
        params += list(filters.years)
    if filters.contribution:
        clauses.append("p.contribution = ?")
        params.append(filters.contribution)
    if filters.has_code is not None:
        clauses.append("p.has_code = ?")
        params.append(filters.has_code)
    if filters.topic is not None:
        clauses.append("p.id IN (SELECT paper_id FROM paper_topics WHERE topic = ?)")
        params.append(filters.topic)
    return "".join(f" AND {c}" for c in clauses), params


class SQLCore(ABC):
    dialect: Dialect
    schema_version: int
    # Columns of the papers table that hold its search index, with how each value is written (PostgreSQL's
    # tsvectors); SQLite's index is a table of its own (`_index`).
    _search_columns: tuple[tuple[str, str], ...] = ()
    # The file a large library's approximate vector index is saved beside (index/ann.py); None: none is
    # made (PostgreSQL searches its own HNSW index).
    vector_index_beside: Path | None = None
    # How a citation key is matched in any case by its index (SQLite: the column is COLLATE NOCASE;
    # PostgreSQL indexes lower(key)).
    _cite_key_match: str = "key"

    def __init__(self) -> None:
        self._stamp = now_precise()  # every change logged in one transaction carries its stamp
        self._vectors = VectorCache()

    # how a statement runs: `?` marks each value (Dialect.prepare)

    @abstractmethod
    def _all(self, sql: str, params: Iterable = ()) -> list[tuple]: ...
    @abstractmethod
    def _one(self, sql: str, params: Iterable = ()) -> tuple | None: ...
    @abstractmethod
    def _run(self, sql: str, params: Iterable = ()) -> None: ...
    @abstractmethod
    def _many(self, sql: str, rows: Iterable[Iterable]) -> None: ...
    @abstractmethod
    def _stream(self, sql: str, params: Iterable = ()) -> Iterator[tuple]:
        """Rows as they are read, for results too large to hold (whole tables, every paper)."""

    @abstractmethod
    def _exclusive(self) -> None:
        """Called before whatever decides which papers exist (reading candidates, writing papers,
        replacing the map), so that two writers take turns there."""

    # the search index beside the papers

    def _search_values(self, paper: Paper) -> tuple:
        return ()

    @abstractmethod
    def _index(self, papers: list[Paper]) -> None:
        """Papers just written, into the search index."""

    @abstractmethod
    def _unindex(self, paper_id: str, data: str) -> None:
        """A paper (`data` as stored) out of the search index, before its row goes."""

    @abstractmethod
    def _search(
        self, query: lexical.Query, limit: int, filters: lexical.Filters, raw: str | None, enough: int | None
    ) -> list[lexical.LexicalHit]:
        """search_lexical for a raw expression or a query with terms."""

    @abstractmethod
    def _integrity(self) -> str | list[str]:
        """What the database's own check says: "ok", or the problems found."""

    # files

    def file_by_path(self, path: str) -> FileRow | None:
        row = self._one("SELECT id, path, sha256 FROM files WHERE path = ?", (path,))
        return FileRow(*row) if row else None

    def has_file_hash(self, sha256: str) -> bool:
        return self._one("SELECT 1 FROM files WHERE sha256 = ?", (sha256,)) is not None

    def put_file(self, path: str, name: str, sha256: str, fmt: str, records: int) -> tuple[int, set[str]]:
        """Record a file read now; a new version of a known file drops the old version's sources."""
        self._exclusive()
        old = self.file_by_path(path)
        if old is None:
            self._run(
                "INSERT INTO files (path, name, sha256, format, records, ingested_at) VALUES (?, ?, ?, ?, ?, ?)",
                (path, name, sha256, fmt, records, now()),
            )
            return self.file_by_path(path).id, set()  # type: ignore[union-attr]
        affected = {r[0] for r in self._all("SELECT paper_id FROM sources WHERE file_id = ?", (old.id,))}
        self._run("DELETE FROM sources WHERE file_id = ?", (old.id,))
        self._run(
            "UPDATE files SET name = ?, sha256 = ?, format = ?, records = ?, ingested_at = ? WHERE id = ?",
            (name, sha256, fmt, records, now(), old.id),
        )
        return old.id, affected

    # sources and papers

    def candidates(
        self, keys: Iterable[str], bands: Iterable[int], title_keys: Iterable[str], identities: Iterable[str] = ()
    ) -> list[LibraryPaper]:
        """Stored papers that share an exact key, an LSH band, a title or an identity with the records given."""
        self._exclusive()
        ids: set[str] = set()
        for sql, values in (
            ("SELECT paper_id FROM sources WHERE key {}", keys),
            ("SELECT paper_id FROM paper_bands WHERE band {}", bands),
            ("SELECT id FROM papers WHERE title_key {}", title_keys),
            ("SELECT paper_id FROM paper_ids WHERE identity {}", identities),
        ):
            for clause, params in self.dialect.members(list(set(values))):
                ids.update(r[0] for r in self._all(sql.format(clause), params))
        found: list[LibraryPaper] = []
        abstract = self.dialect.json_text.format(column="data", key="abstract")
        for clause, params in self.dialect.members(sorted(ids)):
            known: dict[str, list[str]] = {}
            for paper_id, identity in self._all(
                f"SELECT paper_id, identity FROM paper_ids WHERE paper_id {clause} ORDER BY identity", params
            ):
                known.setdefault(paper_id, []).append(identity)
            rows = self._all(
                f"SELECT id, key, title_key, venue, year, {abstract}, bands FROM papers WHERE id {clause} ORDER BY id",
                params,
            )
            found.extend(
                LibraryPaper(*row[:6], tuple(orjson.loads(row[6])), tuple(known.get(row[0], ()))) for row in rows
            )
        return found

    def add_sources(self, rows: Iterable[tuple[str, int, int, str, RawRecord]]) -> None:
        """Rows of (paper id, file id, line, exact key, raw record)."""
        self._many(
            "INSERT INTO sources (paper_id, file_id, line, key, record, external_id) VALUES (?, ?, ?, ?, ?, ?)",
            (
                (pid, fid, line, key, orjson.dumps(rec).decode(), rec.source.external_id)
                for pid, fid, line, key, rec in rows
            ),
        )

    def fact(self, name: str) -> str | None:
        """A fact about the library as a whole (None: not known)."""
        row = self._one("SELECT value FROM library_facts WHERE name = ?", (name,))
        return row[0] if row else None

    def set_fact(self, name: str, value: str) -> None:
        self._run(
            "INSERT INTO library_facts (name, value) VALUES (?, ?)"
            " ON CONFLICT (name) DO UPDATE SET value = excluded.value",
            (name, value),
        )

    def paper_keys(self) -> dict[str, str]:
        """Every paper's dedupe key, by id."""
        return dict(self._all("SELECT id, key FROM papers"))

    def source_records(self, paper_id: str) -> list[RawRecord]:
        rows = self._all("SELECT record FROM sources WHERE paper_id = ? ORDER BY id", (paper_id,))
        return [RawRecord.from_dict(orjson.loads(r[0])) for r in rows]

    def add_papers(self, rows: Iterable[tuple[Paper, str, str | None, tuple[int, ...]]]) -> None:
        """Insert papers known to be new: rows of (paper, key, title key, LSH bands); logged as added."""
        rows = list(rows)
        self._exclusive()
        self._insert(rows)
        self._log((p.id, "added", p.display_title) for p, _, _, _ in rows)

    def _insert(
        self, rows: list[tuple[Paper, str, str | None, tuple[int, ...]]], stamps: list[str] | None = None
    ) -> None:
        stamps = stamps or [now()] * len(rows)
        columns = ", ".join((*_PAPER_COLUMNS, *(name for name, _ in self._search_columns)))
        values = ", ".join(("?",) * len(_PAPER_COLUMNS) + tuple(value for _, value in self._search_columns))
        self._many(
            f"INSERT INTO papers ({columns}) VALUES ({values})",
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
                    *self._search_values(p),
                )
                for (p, key, title_key, bands), stamp in zip(rows, stamps, strict=True)
            ),
        )
        self._many(
            "INSERT INTO paper_ids (identity, paper_id) VALUES (?, ?) ON CONFLICT DO NOTHING",
            ((identity, p.id) for p, _, _, _ in rows for identity in identities(p)),
        )
        # in the index's order: random band values inserted as they come cost 1.7× the CPU at 92k papers
        self._many(
            "INSERT INTO paper_bands (band, paper_id) VALUES (?, ?) ON CONFLICT DO NOTHING",
            sorted((band, p.id) for p, _, _, bands in rows for band in bands),
        )
        self._index([p for p, _, _, _ in rows])

    def put_paper(
        self, paper: Paper, key: str, title_key: str | None, bands: tuple[int, ...], added: bool = False
    ) -> str:
        """Insert or replace a paper; says whether it was created, updated or left unchanged. `added`:
        the paper was added earlier in this transaction, so it stays "created" (logged as added only)."""
        self._exclusive()
        data = pack(paper)
        old = self._one("SELECT data FROM papers WHERE id = ?", (paper.id,))
        if not old:
            self.add_papers([(paper, key, title_key, bands)])
            return "created"
        if old[0] == data:
            return "created" if added else "unchanged"
        self._drop(paper.id)
        self._insert([(paper, key, title_key, bands)])
        if added:
            return "created"
        if detail := change_detail(unpack(old[0]), paper):
            self._log([(paper.id, "changed", detail)])
        return "updated"

    def _drop(self, paper_id: str) -> None:
        """A paper out of the papers table, its bands, identities and search index."""
        row = self._one("SELECT data, bands FROM papers WHERE id = ?", (paper_id,))
        if row is None:
            return
        for clause, params in self.dialect.members(orjson.loads(row[1])):
            self._run(f"DELETE FROM paper_bands WHERE paper_id = ? AND band {clause}", (paper_id, *params))
        self._unindex(paper_id, row[0])
        self._run("DELETE FROM paper_ids WHERE paper_id = ?", (paper_id,))
        self._run("DELETE FROM papers WHERE id = ?", (paper_id,))

    def remove_orphans(self, candidates: Iterable[str]) -> int:
        """Delete the papers among `candidates` that no source points at any more (their list changed);
        returns how many. Sources go only when a new version of their file comes in (put_file), so only
        the papers it named can be orphans: an unchanged re-ingest of a million papers checks none."""
        self._exclusive()
        orphans = [
            row
            for clause, params in self.dialect.members(sorted(candidates))
            for row in self._all(
                f"SELECT id, display_title FROM papers AS p WHERE id {clause}"
                " AND NOT EXISTS (SELECT 1 FROM sources AS s WHERE s.paper_id = p.id)",
                params,
            )
        ]
        for paper_id, _ in orphans:
            self._drop(paper_id)
            # A changed paper keeps its vector while the text it embeds is the same; a removed one loses it.
            self._run("DELETE FROM vectors WHERE paper_id = ?", (paper_id,))
        self._log((paper_id, "removed", title) for paper_id, title in orphans)
        return len(orphans)

    def _log(self, rows: Iterable[tuple[str, str, str]]) -> None:
        self._many(
            "INSERT INTO changes (at, paper_id, kind, detail) VALUES (?, ?, ?, ?)",
            ((self._stamp, pid, kind, detail) for pid, kind, detail in rows),
        )

    def changes(self, since: str | None = None) -> list[tuple[str, str, str, str]]:
        """(at, paper id, kind, detail) of the changes after `since` (default: the last ingest that changed
        anything)."""
        if since is None:
            return self._all(
                "SELECT at, paper_id, kind, detail FROM changes"
                " WHERE at = (SELECT max(at) FROM changes) ORDER BY kind, id"
            )
        return self._all("SELECT at, paper_id, kind, detail FROM changes WHERE at > ? ORDER BY at, kind, id", (since,))

    def added_since(self, since: str) -> set[str]:
        return {r[0] for r in self._all("SELECT paper_id FROM changes WHERE kind = 'added' AND at > ?", (since,))}

    # searching

    def document_frequency(self, word: str) -> int:
        """How many papers' indexed text holds `word` (remembered)."""
        return self.word_counts().frequency(word)

    @abstractmethod
    def word_counts(self) -> WordCounts:
        """Document frequencies for the many words of one query: whether the library changed, which
        drops what is remembered, is asked once, here."""

    @abstractmethod
    def catch_up_indexes(self, prune: bool = False) -> None:
        """Bring the search indexes kept beside the store in step with its papers now, rather than
        in the next search; `prune` (the writer, after an ingest): then drop the change log they have read."""

    def search_lexical(
        self,
        query: lexical.Query,
        limit: int,
        filters: lexical.Filters | None = None,
        raw: str | None = None,
        enough: int | None = None,
    ) -> list[lexical.LexicalHit]:
        """Papers matching every term first, then papers matching any, each group by relevance.

        `raw` is an expression in the backend's own syntax, used as it is (the --syntax fts escape
        hatch). With `enough`, the "any word" pass is skipped once the "every word" pass found that
        many: hybrid search asks for 100 papers but shows 10, and the "any word" pass is most of the
        cost on a large library. A query of filters alone gives the newest papers that pass them.
        """
        filters = query.filters(filters)
        if raw is None and not query.must:
            where_sql, params = where(filters, self.dialect)
            rows = self._all(
                f"SELECT p.id FROM papers AS p WHERE TRUE {where_sql} ORDER BY p.year DESC NULLS LAST, p.id LIMIT ?",
                (*params, limit),
            )
            return [lexical.LexicalHit(pid, 0.0) for (pid,) in rows]
        return self._search(query, limit, filters, raw, enough)

    def filtered_ids(self, filters: lexical.Filters) -> set[str]:
        where_sql, params = where(filters, self.dialect)
        return {r[0] for r in self._all(f"SELECT p.id FROM papers AS p WHERE TRUE {where_sql}", params)}

    # the reader's own library

    def tag(self, reader: str, paper_id: str, tag: str, on: bool) -> None:
        if on:
            self._run(
                "INSERT INTO tags (reader, paper_id, tag, added_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (reader, paper_id, tag, now()),
            )
        else:
            self._run("DELETE FROM tags WHERE reader = ? AND paper_id = ? AND tag = ?", (reader, paper_id, tag))

    def tags(self, reader: str, paper_id: str | None = None) -> list[tuple[str, int]]:
        """(tag, papers) over the reader's library, or the tags of one paper (count 1 each)."""
        if paper_id is not None:
            rows = self._all("SELECT tag FROM tags WHERE reader = ? AND paper_id = ? ORDER BY tag", (reader, paper_id))
            return [(t, 1) for (t,) in rows]
        return self._all("SELECT tag, count(*) FROM tags WHERE reader = ? GROUP BY tag ORDER BY tag", (reader,))

    def set_state(self, reader: str, paper_id: str, state: str | None) -> None:
        if state is None:
            self._run("DELETE FROM reading WHERE reader = ? AND paper_id = ?", (reader, paper_id))
        else:
            self._run(
                "INSERT INTO reading (reader, paper_id, state, updated_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (reader, paper_id) DO UPDATE SET state = excluded.state,"
                " updated_at = excluded.updated_at",
                (reader, paper_id, state, now()),
            )

    def state(self, reader: str, paper_id: str) -> str | None:
        row = self._one("SELECT state FROM reading WHERE reader = ? AND paper_id = ?", (reader, paper_id))
        return row[0] if row else None

    def set_note(self, reader: str, paper_id: str, text: str) -> None:
        if text.strip():
            self._run(
                "INSERT INTO notes (reader, paper_id, text, updated_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (reader, paper_id) DO UPDATE SET text = excluded.text,"
                " updated_at = excluded.updated_at",
                (reader, paper_id, text, now()),
            )
        else:
            self._run("DELETE FROM notes WHERE reader = ? AND paper_id = ?", (reader, paper_id))

    def note(self, reader: str, paper_id: str) -> str | None:
        row = self._one("SELECT text FROM notes WHERE reader = ? AND paper_id = ?", (reader, paper_id))
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
        sql = f"SELECT id FROM papers WHERE {' AND '.join(clauses)} ORDER BY display_title"
        return [r[0] for r in self._all(sql, params)]

    def save_search(self, reader: str, name: str, query: str, mode: str, filters: str) -> None:
        self._run(
            "INSERT INTO saved_searches (reader, name, query, mode, filters, last_seen) VALUES (?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (reader, name) DO UPDATE SET query = excluded.query, mode = excluded.mode,"
            " filters = excluded.filters, last_seen = excluded.last_seen",
            (reader, name, query, mode, filters, now_precise()),
        )

    def saved_searches(self, reader: str) -> list[tuple[str, str, str, str, str]]:
        return self._all(
            "SELECT name, query, mode, filters, last_seen FROM saved_searches WHERE reader = ? ORDER BY name", (reader,)
        )

    def seen(self, reader: str, name: str) -> None:
        self._run(
            "UPDATE saved_searches SET last_seen = ? WHERE reader = ? AND name = ?", (now_precise(), reader, name)
        )

    # vectors, as rows

    def count_missing_vectors(self) -> int:
        return int(self._one("SELECT count(*)" + _MISSING)[0])  # type: ignore[index]

    def missing_vectors(self, limit: int) -> list[tuple[str, str, Paper]]:
        """Papers whose vector is missing or stale: (id, text hash, paper), in a stable order."""
        sql = f"SELECT p.id, p.embed_hash, p.data{_MISSING} ORDER BY p.{self.dialect.insertion_order} LIMIT ?"
        return [(pid, digest, unpack(data)) for pid, digest, data in self._all(sql, (limit,))]

    def count_vectors(self) -> int:
        return int(self._one("SELECT count(*)" + CURRENT)[0])  # type: ignore[index]

    def has_vectors(self) -> bool:
        """Whether any paper has a vector (current or not): cheaper than counting them."""
        return bool(self._one("SELECT EXISTS (SELECT 1 FROM vectors)")[0])  # type: ignore[index]

    def vector_rows(self) -> Iterator[tuple[str, bytes]]:
        """(paper id, vector) of every paper whose vector is up to date, streamed."""
        yield from self._stream(f"SELECT v.paper_id, v.vector{CURRENT} ORDER BY p.{self.dialect.insertion_order}")

    def vectors(self) -> semantic.Vectors:
        """Every up-to-date vector in one matrix, read once, and again only after the library has changed."""
        return self._vectors.get(self.version(), self._loaded_vectors)

    def _loaded_vectors(self) -> semantic.Vectors:
        """The vectors as they are now, with their approximate index when they are many."""
        return self._read_vectors().indexed(self.vector_index_beside)

    def _read_vectors(self) -> semantic.Vectors:
        return semantic.Vectors.from_rows(*self._vector_rows_counted())

    def _vector_rows_counted(self) -> tuple[int, Iterator[tuple[str, bytes]]]:
        """How many current vectors there are, and their rows, streamed."""
        return self.count_vectors(), self.vector_rows()

    @abstractmethod
    def version(self) -> tuple[int, int]: ...
    @abstractmethod
    def papers_version(self) -> int: ...
    def put_vectors(self, rows: Iterable[tuple[str, str, bytes]]) -> None:
        """(paper id, text hash, vector) rows written; each paper leaves the map (its place came from its
        old vector) until the topics place it again."""
        rows = list(rows)
        self._write_vectors(rows)
        self._unplace([pid for pid, _, _ in rows])

    @abstractmethod
    def _write_vectors(self, rows: list[tuple[str, str, bytes]]) -> None: ...

    # moving a whole library

    def dump(self) -> Iterator[tuple[str, list[tuple]]]:
        """Every table as (name, rows) batches, in the order and shape of COLUMNS."""
        for table in COLUMNS:
            batch: list[tuple] = []
            sql = f"SELECT {', '.join(COLUMNS[table])} FROM {table} ORDER BY {_DUMP_ORDER[table]}"
            for row in self._stream(sql):
                batch.append(row)
                if len(batch) == 1_000:
                    yield table, batch
                    batch = []
            if batch:
                yield table, batch

    def load(self, table: str, rows: list[tuple]) -> None:
        """Rows of one table as `dump` gives them (inside the caller's transaction; into an empty library)."""
        if table == "papers":
            self._insert(
                [(unpack(data), key, title_key, tuple(orjson.loads(bands))) for data, key, title_key, bands, _ in rows],
                [stamp for *_, stamp in rows],
            )
        elif table == "vectors":
            self._write_vectors(rows)  # the map's places come with the library, in their own table
        else:
            columns = COLUMNS[table]
            self._many(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})", rows)

    def check(self) -> dict[str, object]:
        """The database's own check and what the library holds."""
        integrity = self._integrity()
        counts = {table: int(self._one(f"SELECT count(*) FROM {table}")[0]) for table in _CHECKED}  # type: ignore
        return {
            "integrity": integrity,
            **counts,
            "vectors_missing": self.count_missing_vectors(),
            "schema": self.schema_version,
        }

    # reading

    def paper_by_external_id(self, external_id: str) -> Paper | None:
        row = self._one(
            "SELECT p.data FROM sources AS s JOIN papers AS p ON p.id = s.paper_id WHERE s.external_id = ? LIMIT 1",
            (external_id,),
        )
        return unpack(row[0]) if row else None

    def _no_papers(self) -> bool:
        """Nothing stored yet: a load into such a library is written the store's faster way (nobody has
        anything to read until it commits)."""
        return not self._one("SELECT EXISTS (SELECT 1 FROM papers)")[0]  # type: ignore[index]

    def count_papers(self, filters: lexical.Filters | None = None) -> int:
        where_sql, params = where(filters, self.dialect)
        row = self._one(f"SELECT count(*) FROM papers AS p WHERE TRUE {where_sql}", params)
        return int(row[0])  # type: ignore[index]

    def paper_groups(self, filters: lexical.Filters | None = None) -> list[tuple]:
        """(venue, year, contribution, has code as 0/1, papers) of the papers passing `filters`, one row per
        combination met: read from the index that holds the four (SQLite), in its order."""
        where_sql, params = where(filters, self.dialect)
        return self._all(
            "SELECT p.venue, p.year, p.contribution, CAST(p.has_code AS INTEGER), count(*) FROM papers AS p"
            f" WHERE TRUE {where_sql} GROUP BY p.contribution, p.has_code, p.venue, p.year",
            params,
        )

    def topic_sizes(self) -> list[tuple[str, int]]:
        """(label, papers) of each topic of the map."""
        return self._all(
            "SELECT t.label, count(*) FROM paper_topics AS pt JOIN topics AS t ON t.id = pt.topic"
            " GROUP BY t.id, t.label"
        )

    def facet_counts(self, filters: lexical.Filters | None = None) -> dict[str, list[tuple[object, int]]]:
        """Papers per venue, year, contribution, has-code and topic among those passing `filters`, most first.

        One pass over the papers for the first four, grouped by all of them at once (`paper_groups`: a
        few thousand groups at 92.5k papers): a query per facet read the papers four times (SQLite 49 ->
        29 ms at 92.5k papers)."""
        where_sql, params = where(filters, self.dialect)
        by_columns = [(*group, None, papers) for *group, papers in self.paper_groups(filters)]
        # papers first (CROSS JOIN keeps SQLite's order), read from the index the filters' columns are in:
        # scanning paper_topics first read every paper's row to test a venue (11.5k papers: 70 -> 6 ms)
        by_topic = self._all(
            "SELECT NULL, NULL, NULL, NULL, pt.topic, count(*) FROM papers AS p CROSS JOIN paper_topics AS pt"
            f" WHERE pt.paper_id = p.id {where_sql} GROUP BY pt.topic",
            params,
        )
        return tally_facets([*by_columns, *by_topic])

    def facet_counts_of(self, paper_ids: list[str]) -> dict[str, list[tuple[object, int]]]:
        """The facet counts of `facet_counts` over these papers."""
        rows = (
            row
            for clause, params in self.dialect.members(paper_ids)
            for row in self._all(
                "SELECT p.venue, p.year, p.contribution, CAST(p.has_code AS INTEGER), pt.topic, 1 FROM papers AS p"
                f" LEFT JOIN paper_topics AS pt ON pt.paper_id = p.id WHERE p.id {clause}",
                params,
            )
        )
        return tally_facets(rows)

    def get_paper(self, paper_id: str) -> Paper | None:
        row = self._one(f"SELECT p.data, {_TOPIC_LABEL} FROM papers AS p WHERE p.id = ?", (paper_id,))
        return unpack(*row) if row else None

    def get_papers(self, paper_ids: list[str]) -> dict[str, Paper]:
        """The papers of these ids that exist, by id, read in one statement (one round trip to a server)."""
        papers = (
            unpack(data, topic)
            for clause, params in self.dialect.members(paper_ids)
            for data, topic in self._all(f"SELECT p.data, {_TOPIC_LABEL} FROM papers AS p WHERE p.id {clause}", params)
        )
        return {paper.id: paper for paper in papers}

    def mentions(self) -> Iterator[Mentions]:
        """What each paper naming a model, a benchmark or a claim names. The others are passed over by their
        stored text, undecoded: reading every paper whole for the statistics took 2.6-3.0 s at 92.5k papers."""
        sql = f"SELECT p.id, p.display_title, p.data FROM papers AS p WHERE p.data NOT LIKE '%{NAMES_NOTHING}%'"
        for row in self._stream(sql):
            yield mentions(*row)

    def iter_papers(
        self, order: str = "id", limit: int | None = None, offset: int = 0, filters: lexical.Filters | None = None
    ) -> Iterator[Paper]:
        if order not in ORDERS:
            raise PaperscopeError(f"unknown order {order!r}; one of {', '.join(ORDERS)}")
        where_sql, params = where(filters, self.dialect)
        sql = (
            f"SELECT p.data, {_TOPIC_LABEL} FROM papers AS p WHERE TRUE {where_sql} ORDER BY {ORDERS[order]}"
            " LIMIT ? OFFSET ?"
        )
        for data, topic in self._stream(sql, (*params, self.dialect.no_limit if limit is None else limit, offset)):
            yield unpack(data, topic)

    # topics and the map

    def put_layout(
        self, topics: Iterable[tuple[int, str, list[str], int]], points: Iterable[tuple[str, int, float, float]]
    ) -> None:
        """Replace every topic and map position (inside the caller's transaction)."""
        self._exclusive()
        self._run("DELETE FROM topics")
        self._run("DELETE FROM paper_topics")
        self._many(
            "INSERT INTO topics (id, label, keywords, size) VALUES (?, ?, ?, ?)",
            ((t, label, orjson.dumps(words).decode(), size) for t, label, words, size in topics),
        )
        self._many("INSERT INTO paper_topics (paper_id, topic, x, y) VALUES (?, ?, ?, ?)", points)

    def unplaced(self) -> list[str]:
        """Papers with a current vector and no place on the map: new since the topics were made, or
        with a new vector (put_vectors takes their place away), in id order."""
        return [
            r[0]
            for r in self._all(
                "SELECT v.paper_id" + CURRENT + " LEFT JOIN paper_topics AS pt ON pt.paper_id = v.paper_id"
                " WHERE pt.paper_id IS NULL ORDER BY v.paper_id"
            )
        ]

    def placed_count(self) -> int:
        """Papers on the map."""
        return int(self._one("SELECT count(*) FROM paper_topics AS pt JOIN papers AS p ON p.id = pt.paper_id")[0])  # type: ignore[index]

    def gone_count(self) -> int:
        """Places on the map of papers no longer in the library (put_places forgets them)."""
        return int(self._one(f"SELECT count(*) FROM paper_topics WHERE {_GONE}")[0])  # type: ignore[index]

    def put_places(self, points: list[tuple[str, int, float, float]]) -> None:
        """Put papers on the map among the topics there are, forget the places of papers gone, and count
        each topic's papers again (a topic left without any goes); inside the caller's transaction."""
        self._exclusive()
        self._many(
            "INSERT INTO paper_topics (paper_id, topic, x, y) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING", points
        )
        self._run(f"DELETE FROM paper_topics WHERE {_GONE}")
        self._run("UPDATE topics SET size = (SELECT count(*) FROM paper_topics AS pt WHERE pt.topic = topics.id)")
        self._run("DELETE FROM topics WHERE size = 0")

    def _unplace(self, paper_ids: list[str]) -> None:
        """Take these papers off the map: their vectors are new, their place was found by the old ones."""
        for clause, params in self.dialect.members(paper_ids):
            self._run(f"DELETE FROM paper_topics WHERE paper_id {clause}", params)

    def topics(self) -> list[tuple[int, str, list[str], int]]:
        rows = self._all("SELECT id, label, keywords, size FROM topics ORDER BY size DESC, id")
        return [(t, label, orjson.loads(words), size) for t, label, words, size in rows]

    def map_points(self, filters: lexical.Filters | None = None) -> list[tuple[str, str, int, float, float]]:
        """(paper id, display title, topic, x, y) of every paper on the map."""
        where_sql, params = where(filters, self.dialect)
        return self._all(
            "SELECT p.id, p.display_title, pt.topic, pt.x, pt.y FROM papers AS p JOIN paper_topics AS pt"
            f" ON pt.paper_id = p.id WHERE TRUE {where_sql} ORDER BY p.id",
            params,
        )

    # citation keys

    def cite_keys(self, paper_ids: list[str] | None = None) -> dict[str, str]:
        """Paper id → key, gone papers' too; only those of `paper_ids` when given (a one-paper export
        read all 92k keys of the bench library: a fifth of a loaded server's time)."""
        if paper_ids is None:
            return dict(self._all("SELECT paper_id, key FROM cite_keys"))
        return {
            paper_id: key
            for clause, params in self.dialect.members(paper_ids)
            for paper_id, key in self._all(f"SELECT paper_id, key FROM cite_keys WHERE paper_id {clause}", params)
        }

    def papers_without_cite_key(self, after: str = "", limit: int | None = None) -> list[Paper]:
        """Papers with no citation key, in id order: those after the id `after`, at most `limit`."""
        rows = self._all(
            "SELECT data FROM papers WHERE id > ? AND id NOT IN (SELECT paper_id FROM cite_keys) ORDER BY id LIMIT ?",
            (after, self.dialect.no_limit if limit is None else limit),
        )
        return [unpack(data) for (data,) in rows]

    def taken_cite_keys(self, keys: list[str]) -> set[str]:
        """Those of `keys` (lower case) that a paper has or had, in any case."""
        return {
            key.lower()
            for clause, params in self.dialect.members(keys)
            for (key,) in self._all(f"SELECT key FROM cite_keys WHERE {self._cite_key_match} {clause}", params)
        }

    def put_cite_keys(self, keys: dict[str, str]) -> None:
        self._many("INSERT INTO cite_keys (paper_id, key) VALUES (?, ?)", keys.items())
