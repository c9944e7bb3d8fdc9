"""The PostgreSQL backend on a real server: the same library as SQLite, copied either way without
loss, shared by concurrent writers, upgraded from an older schema, each reader with their own data."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import httpx
import orjson
import psycopg
import pytest

from paperscope.index import semantic
from paperscope.index.lexical import Filters, LexicalHit, Query, parse
from paperscope.library import Library
from paperscope.personal import Personal
from paperscope.store import fts5, pg_bm25, pg_text, postgres
from paperscope.store.core import where
from paperscope.store.dialect import SQLITE

from .conftest import SEEDS, new_location, run_cli
from .other_forms import found_by_other_forms
from .web.conftest import serving

VSD, NEMO, VGR = "lb4pvidcied2", "drqlcr3nir3z", "uhvjrgippigo"
PG_BEFORE_BROWSE_INDEXES = "DROP INDEX papers_by_venue, papers_by_year, papers_by_title;"  # schema 9's


def _export(location: str | Path, tmp_path: Path, name: str) -> list[dict]:
    out = tmp_path / f"{name}.json"
    run = run_cli("--db", location, "export", "--format", "json", "-o", out)
    assert run.code == 0, run.err
    return orjson.loads(out.read_bytes())


def test_both_backends_export_the_same_library(seeded_location, request, tmp_path):
    """The same seeds ingested on either backend: the same ids, fields, topics and order."""
    backend, location = seeded_location
    other = new_location("postgres" if backend == "sqlite" else "sqlite", request, tmp_path)
    with Library(other) as library:
        library.ingest([SEEDS])
    if backend == "postgres":
        location = request.getfixturevalue("pg_server").new_database(location)
    mine, theirs = _export(location, tmp_path, "mine"), _export(other, tmp_path, "theirs")
    assert len(mine) == 51 and mine == theirs


def test_copy_to_postgresql_and_back_loses_nothing(seeded_copy, request, tmp_path):
    with Library(seeded_copy) as library:
        me = Personal(library, "alice")
        me.tag(VSD, "decoding")
        me.set_note(NEMO, "Compare with **PMVB**.")
        me.save_search("robots", "robot manipulation")
    server = new_location("postgres", request, tmp_path)
    back = tmp_path / "back.db"
    assert run_cli("copy", "--from", seeded_copy, "--to", server).code == 0
    run = run_cli("copy", "--from", server, "--to", back)
    assert run.code == 0, run.err
    assert "papers 51" in run.out and "vectors 51" in run.out and "tags 1" in run.out
    with Library(seeded_copy) as first, Library(server) as middle, Library(back) as last:
        rows = list(first.store.dump())
        assert rows == list(middle.store.dump()) == list(last.store.dump())
        assert [p.id for p in Personal(middle, "alice").listed("decoding")] == [VSD]
        assert middle.search("speculative decoding", 1)[0].paper.id == VSD
    exports = [_export(where, tmp_path, name) for where, name in ((seeded_copy, "a"), (server, "b"), (back, "c"))]
    assert exports[0] == exports[1] == exports[2]


def test_copy_refuses_a_library_that_is_not_empty(seeded_any, seeded_db):
    run = run_cli("copy", "--from", seeded_db, "--to", seeded_any)
    assert run.code == 1 and run.err.strip() == "error: the library copied into must be empty"


def test_concurrent_ingests_of_overlapping_lists_never_duplicate_a_paper(request, tmp_path):
    """Two processes ingest at once: the pages they share (one changed a little, so that it is read
    again, not skipped as a known file) must become the same papers, not two copies."""
    location = new_location("postgres", request, tmp_path)
    pages = sorted(SEEDS.iterdir())
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir(), second.mkdir()
    for page in pages[:2]:
        (first / page.name).write_bytes(page.read_bytes())
    for page in pages[1:]:
        (second / page.name).write_bytes(page.read_bytes() + b"\n")
    runs = [
        subprocess.Popen(
            [sys.executable, "-m", "paperscope", "--db", location, "ingest", str(folder), "--no-embed"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for folder in (first, second)
    ]
    for run in runs:
        _, err = run.communicate(timeout=300)
        assert run.returncode == 0, err
    with Library(location) as library:
        papers = list(library.papers())
        assert len(papers) == 51 and len({p.id for p in papers}) == 51
        assert library.check()["sources"] == 57 + _records(pages[1])  # the shared page's records, read twice


def _records(page: Path) -> int:
    return sum(1 for line in page.read_text(encoding="utf-8").splitlines()[1:] if line.strip())


def test_a_schema_1_database_is_upgraded_in_place(request, tmp_path):
    location = new_location("postgres", request, tmp_path)
    with psycopg.connect(location, autocommit=True) as conn:
        conn.execute(postgres.MIGRATIONS[0].encode())
        conn.execute("CREATE TABLE schema_version (version INTEGER NOT NULL); INSERT INTO schema_version VALUES (1)")
        conn.execute(
            "INSERT INTO files (path, name, sha256, format, records, ingested_at)"
            " VALUES ('/old/list.txt', 'list.txt', 'abc', 'listing', 0, '2026-01-01T00:00:00+00:00')"
        )
    with Library(location) as library:
        assert library.check()["schema"] == postgres.SCHEMA_VERSION == 9
        assert library.store.file_by_path("/old/list.txt").sha256 == "abc"
        other = library.store._all(
            "SELECT table_name FROM information_schema.columns WHERE column_name = 'paper_id'"
            " AND table_schema = current_schema() AND collation_name IS DISTINCT FROM 'C'"
        )
        assert other == []  # schema 6: a join on papers.id can use the other table's index
        library.ingest([SEEDS], embed_vectors=False)
        assert len(set(library.store.cite_keys().values())) == 51  # schema 3: citation keys, stored at ingest
        Personal(library).tag(VSD, "kept")
        assert [p.id for p in Personal(library).listed("kept")] == [VSD]


def test_an_unreachable_server_is_a_one_line_error(tmp_path):
    run = run_cli("--db", f"postgresql://nobody@/nothing?host={tmp_path}", "papers")
    assert run.code == 1
    assert run.err.count("\n") == 1 and "cannot reach the PostgreSQL server" in run.err


def test_the_api_keeps_each_readers_tags_apart(seeded_any):
    tokens = {"alice": "alice-token-123", "bob": "bob-token-4567"}
    env = {"PAPERSCOPE_TOKENS": ",".join(f"{name}={token}" for name, token in tokens.items())}
    with serving(seeded_any, env) as base:

        def as_reader(name: str) -> dict[str, str]:
            return {"Authorization": f"Bearer {tokens[name]}", "X-Paperscope": "1"}

        added = httpx.post(f"{base}/api/papers/{VSD}/tags", json={"tag": "mine"}, headers=as_reader("alice"))
        assert added.status_code == 200 and added.json()["tags"] == ["mine"]
        assert httpx.get(f"{base}/api/papers/{VSD}/mine", headers=as_reader("bob")).json()["tags"] == []
        assert httpx.get(f"{base}/api/papers/{VSD}/mine", headers=as_reader("alice")).json()["tags"] == ["mine"]
        anonymous = httpx.post(f"{base}/api/papers/{VSD}/tags", json={"tag": "x"}, headers={"X-Paperscope": "1"})
        assert anonymous.status_code == 401


def _postings_follow_the_papers(library: Library) -> None:
    """The posting table, document frequencies and length totals are what the papers stored make."""
    papers = list(library.papers())
    expected = {(p.id, term, weight) for p in papers for term, weight in pg_bm25.weights(pg_text.columns(p)).items()}
    store = library.store
    stored = set(store._all("SELECT p.id, s.term, s.weight FROM postings AS s JOIN papers AS p ON p.seq = s.paper"))
    assert stored == expected
    frequencies = Counter(term for p in papers for term in pg_bm25.weights(pg_text.columns(p)))
    assert dict(store._all("SELECT term, papers FROM terms WHERE papers <> 0")) == frequencies
    lengths = sum(pg_bm25.length(pg_text.columns(p)) for p in papers)
    assert store._one("SELECT papers, tokens FROM bm25") == (len(papers), lengths)


Search = Callable[[Query], list[LexicalHit]]


def _fts5(library: Library) -> Search:
    store = library.store
    return lambda query: fts5.search(store.db, query, 10, where(None, SQLITE), None, store._frequencies, None)


def _posting_table(library: Library) -> Search:
    return lambda query: library.store.search_stored(query, 10, Filters(), None, None)


def _tantivy(library: Library) -> Search:
    return lambda query: library.store.search_lexical(query, 10)


def _same_lexical_results(mine: Search, theirs: Search, queries: list[str], rel: float = 1e-4) -> None:
    """Two ways of searching give one ranking: the same scores, the same papers (ties aside); e.g. the
    posting table's BM25 and SQLite's FTS5. Scores agree within `rel`: exactly but for float rounding,
    or, after the library changed, within what the average length the impacts use may have drifted from
    the library's (pg_bm25.DRIFT)."""
    for text in queries:
        ours, others = mine(parse(text)), theirs(parse(text))
        assert [h.score for h in others] == pytest.approx([h.score for h in ours], rel=rel), text
        assert [h.every for h in others] == [h.every for h in ours], text
        cut = (ours[-1].score if len(ours) == 10 else -1) * (1 + 2 * rel)  # papers near the cut may differ
        assert {h.paper_id for h in ours if h.score > cut} <= {h.paper_id for h in others}, text
        assert {h.paper_id for h in others if h.score > cut} <= {h.paper_id for h in ours}, text


QUERIES = [
    "speculative decoding",
    "robot manipulation",
    "language models",
    "quantization of large language models",
    "hallucinations diffusion",
    "NEMO",
    "the",
    "a benchmark for reasoning reasoning",
]


def test_posting_bm25_ranks_the_seeds_as_fts5_does(seeded_db, request, tmp_path):
    server = new_location("postgres", request, tmp_path)
    assert run_cli("copy", "--from", seeded_db, "--to", server).code == 0
    with Library(seeded_db) as sqlite, Library(server) as postgres:
        _postings_follow_the_papers(postgres)
        titles = [p.title for p in sqlite.papers() if p.title]
        _same_lexical_results(_fts5(sqlite), _posting_table(postgres), QUERIES + titles)
        assert postgres.search("speculative decoding", limit=1, mode="lexical")[0].paper.id == VSD


def test_tantivy_on_postgresql_ranks_the_seeds_as_on_sqlite_and_finds_what_the_posting_table_finds(
    seeded_db, cache_folder, request, tmp_path
):
    """Both stores' tantivy indexes hold the same text per column: the same scores. The posting table
    (FTS5's scores, which tantivy's differ from by its document lengths) matches the same papers, but
    for those writing a query word in its other number (tests/other_forms.py)."""
    server = new_location("postgres", request, tmp_path)
    assert run_cli("copy", "--from", seeded_db, "--to", server).code == 0
    with Library(seeded_db) as sqlite, Library(server) as postgres:
        index = postgres.store._lexical.ready()
        assert index is not None and index.count() == postgres.count() == 51
        assert index.folder.parent == cache_folder  # the session's PAPERSCOPE_CACHE
        titles = [p.title for p in sqlite.papers() if p.title]
        _same_lexical_results(_tantivy(sqlite), _tantivy(postgres), QUERIES + titles)
        filtered_out = 0
        for text in QUERIES + titles:
            for filters in (Filters(), Filters(has_code=True)):
                everything = postgres.store.search_lexical(parse(text), 51, filters)
                stored = postgres.store.search_stored(parse(text), 51, filters, None, None)
                found_by_other_forms(postgres, parse(text), everything, stored)
                filtered_out += len(stored) if filters.active else -len(stored)
        assert filtered_out < 0  # the filter left papers out
        assert postgres.search("speculative decoding", limit=1, mode="lexical")[0].paper.id == VSD


def test_a_postgresql_library_dropped_and_made_again_gets_its_index_built_again(pg_server, request, tmp_path):
    """Made again in the same database, the library's index is the same folder, ahead of the new log and
    counting other papers: built again. In a database made again under the same name, another folder."""
    location = new_location("postgres", request, tmp_path)
    page = tmp_path / "page.txt"
    lines = (SEEDS / "003_27e213eb8034c1f7.txt").read_text(encoding="utf-8").split("\n")
    page.write_text("\n".join(lines[:6]), encoding="utf-8")  # two papers
    with Library(location) as library:
        library.ingest([SEEDS], embed_vectors=False)
        assert library.search("NEMO", limit=1, mode="lexical")[0].paper.name == "NEMO"
        folder = library.store._lexical.folder()
    with psycopg.connect(location, autocommit=True) as conn:
        conn.execute("DROP SCHEMA public CASCADE; CREATE SCHEMA public")
    with Library(location) as library:
        library.ingest([page], embed_vectors=False)
        assert library.store._lexical.folder() == folder
        assert [h.paper.name for h in library.search("NEMO", mode="lexical")] == []
        assert library.search("hallucinations diffusion", limit=1, mode="lexical")[0].paper.name == "VGR"
        index = library.store._lexical.ready()
        assert index is not None and index.count() == library.count() == 2
    name = psycopg.conninfo.conninfo_to_dict(location)["dbname"]
    with psycopg.connect(pg_server.url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE "{name}"')
        conn.execute(f'CREATE DATABASE "{name}"')
    with Library(location) as library:
        assert library.store._lexical.folder() != folder


def test_postings_follow_reingest_merge_and_removal(request, tmp_path):
    """The same lists, changed the same way, on both stores: after each step the postings are the papers'
    and both rank alike."""
    pages = sorted(SEEDS.iterdir())
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir(), second.mkdir()
    for page in pages[:3]:
        (first / page.name).write_bytes(page.read_bytes())
    for page in pages[2:5]:  # the third page again, changed a little: its records merge into the same papers
        (second / page.name).write_bytes(page.read_bytes() + b"\n")
    shared = second / pages[2].name
    with Library(tmp_path / "lib.db") as sqlite, Library(new_location("postgres", request, tmp_path)) as postgres:
        for step in ("ingest", "merge", "remove"):
            if step == "remove":  # the shared page's first records leave both its versions: those papers go
                for folder in (first, second):
                    lines = (folder / pages[2].name).read_text(encoding="utf-8").split("\n")
                    (folder / pages[2].name).write_text("\n".join(lines[:1] + lines[7:]), encoding="utf-8")
            for library in (sqlite, postgres):
                library.ingest([first] if step == "ingest" else [first, second], embed_vectors=False)
            assert sqlite.count() == postgres.count()
            _postings_follow_the_papers(postgres)
            titles = [p.title for p in sqlite.papers() if p.title]
            _same_lexical_results(_fts5(sqlite), _posting_table(postgres), QUERIES + titles[:10], rel=pg_bm25.DRIFT)
        assert shared.exists() and postgres.check()["papers"] == sqlite.count()


def _search_indexes(library: Library) -> dict[str, int]:
    """The indexes only searching reads, by name, with their oids (an index built again has a new one)."""
    return dict(
        library.store._all(
            "SELECT relname, oid::bigint FROM pg_class WHERE relname = ANY(?)", (list(postgres.DEFERRED_INDEXES),)
        )
    )


def test_an_ingest_into_an_empty_library_builds_the_search_indexes_after_its_papers(request, tmp_path):
    """Into an empty library the search indexes are built again once the papers are in; into a library
    with papers they are kept and grow. Either way searching finds what the papers hold."""
    first = tmp_path / "first"
    first.mkdir()
    page = sorted(SEEDS.iterdir())[0]
    (first / page.name).write_bytes(page.read_bytes())
    with Library(new_location("postgres", request, tmp_path)) as library:
        made = _search_indexes(library)
        library.ingest([first], embed_vectors=False)
        built = _search_indexes(library)
        assert built.keys() == made.keys() == set(postgres.DEFERRED_INDEXES)
        assert not set(built.values()) & set(made.values())
        library.ingest([SEEDS], embed_vectors=False)
        assert _search_indexes(library) == built and library.count() == 51
        _postings_follow_the_papers(library)
        phrase = library.store.search_stored(parse('"speculative decoding"'), 10, Filters(), None, None)
        assert VSD in {hit.paper_id for hit in phrase}
        assert library.store.search_stored(parse("NEMO"), 1, Filters(), None, None)[0].paper_id == NEMO


def test_an_interrupted_load_into_an_empty_library_leaves_its_indexes_and_word_counts(seeded_db, request, tmp_path):
    with Library(seeded_db) as sqlite:
        papers = list(sqlite.papers())[:2]
    with Library(new_location("postgres", request, tmp_path)) as library:
        made = _search_indexes(library)
        with pytest.raises(KeyboardInterrupt), library.store.transaction():
            library.store.add_papers([(paper, paper.id, None, ()) for paper in papers])
            assert _search_indexes(library) == {}  # dropped, in the load's transaction
            words = Counter(term for paper in papers for term in pg_bm25.weights(pg_text.columns(paper)))
            assert library.store.vocabulary() == words  # the frequencies gathered are written before a read
            raise KeyboardInterrupt
        assert _search_indexes(library) == made and library.count() == 0
        assert library.store._all("SELECT count(*) FROM terms") == [(0,)]


def test_a_schema_3_database_gets_its_postings(seeded_db, request, tmp_path):
    server = new_location("postgres", request, tmp_path)
    assert run_cli("copy", "--from", seeded_db, "--to", server).code == 0
    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(
            "DROP TABLE postings; DROP TABLE bm25; ALTER TABLE papers DROP COLUMN length;"
            " DROP TABLE lexical_changes; DROP FUNCTION paperscope_papers_added, paperscope_papers_removed,"
            " paperscope_papers_changed CASCADE; DROP TABLE library_facts;"
            f" {PG_BEFORE_BROWSE_INDEXES} UPDATE schema_version SET version = 3"
        )
    reports = []
    with Library(server, progress=lambda *report: reports.append(report)) as postgres, Library(seeded_db) as sqlite:
        assert postgres.check()["schema"] == 9
        assert reports == [("upgrade", done, 7) for done in range(8)]  # six migrations, then the tantivy index
        _postings_follow_the_papers(postgres)
        _same_lexical_results(_fts5(sqlite), _posting_table(postgres), QUERIES)


def test_a_schema_6_database_is_indexed_again_with_joined_spellings(seeded_db, request, tmp_path):
    """Schema 7 indexes every paper again (lexical.with_joined_compounds), reported as the library opens:
    "multimodal" then finds the paper that writes "Multi-modal" in the posting table, as in SQLite's FTS5."""
    server = new_location("postgres", request, tmp_path)
    assert run_cli("copy", "--from", seeded_db, "--to", server).code == 0
    with psycopg.connect(server, autocommit=True) as conn:  # the word as schema 6 left it: not indexed
        conn.execute(
            "DELETE FROM postings WHERE term = 'multimodal'; DELETE FROM terms WHERE term = 'multimodal';"
            " UPDATE papers SET doc = ts_delete(doc, 'multimodal'); DROP TABLE library_facts;"
            f" {PG_BEFORE_BROWSE_INDEXES} UPDATE schema_version SET version = 6"
        )
    reports = []
    with Library(server, progress=lambda *report: reports.append(report)) as postgres, Library(seeded_db) as sqlite:
        assert postgres.check()["schema"] == 9
        assert reports == [("upgrade", done, 4) for done in range(5)]
        _postings_follow_the_papers(postgres)
        assert VGR in postgres.store.matching_ids("multimodal")
        _same_lexical_results(_fts5(sqlite), _posting_table(postgres), [*QUERIES, "multimodal", "pretrained"])


def test_a_backup_of_a_postgresql_library_restores_it(seeded_db, request, tmp_path):
    """`backup` of a PostgreSQL library is a SQLite file holding it whole."""
    server = new_location("postgres", request, tmp_path)
    assert run_cli("copy", "--from", seeded_db, "--to", server).code == 0
    with Library(server) as library:
        Personal(library, "alice").tag(VSD, "decoding")
    out = tmp_path / "backup.db"
    run = run_cli("--db", server, "backup", out)
    assert run.code == 0, run.err
    with Library(out) as restored:
        assert restored.check()["papers"] == 51
        assert [p.id for p in Personal(restored, "alice").listed("decoding")] == [VSD]
        assert restored.search("speculative decoding", 1)[0].paper.id == VSD
    assert _export(out, tmp_path, "restored") == _export(server, tmp_path, "original")


def test_semantic_search_reads_this_machines_copy_of_the_vectors_once_it_is_current(seeded_db, request, tmp_path):
    """The copy in the cache folder gives the exact nearest papers, as SQLite does; the HNSW index
    answers until it is ready; a tag does not make it read again, a new paper does."""
    location = new_location("postgres", request, tmp_path)
    run = run_cli("copy", "--from", seeded_db, "--to", location)
    assert run.code == 0, run.err
    with Library(seeded_db) as sqlite, Library(location) as library:
        store = library.store
        queries = ["speculative decoding", "model merging", "知识蒸馏"]
        vectors = semantic.encoder().encode(queries)
        exact = [sqlite.store.vectors().nearest(v, 10) for v in vectors]
        store.nearest(vectors[0], 10)  # the first search starts the copy
        assert store.wait_for_vectors(timeout=60)
        for vector, truth in zip(vectors, exact, strict=True):
            found = store.nearest(vector, 10)
            assert [p for p, _ in found] == [p for p, _ in truth]
            assert found[0][1] == pytest.approx(truth[0][1], abs=1e-6)
        assert store.nearest(vectors[0], 5, skip={exact[0][0][0]})[0][0] == exact[0][1][0]
        (copied,) = store.cache_path("vectors").glob("library.vectors-*.npy")
        copy = store._vectors_beside.current()
        Personal(library).tag(VSD, "to-read")
        assert store.wait_for_vectors(timeout=60) and store._vectors_beside.current() is copy  # not read again
        extra = tmp_path / "extra.txt"
        extra.write_text("More Papers\nWe study speculative decoding with tiny draft models.\n", encoding="utf-8")
        library.ingest([SEEDS, extra])
        assert store.wait_for_vectors(timeout=60)
        (replaced,) = store.cache_path("vectors").glob("library.vectors-*.npy")
        assert replaced != copied and len(store._vectors_beside.current()) == 52
        filtered = store.nearest(vectors[0], 5, Filters(venue="no such venue"))
        assert filtered == []  # a filter is answered by the server, as before
