"""The PostgreSQL backend on a real server: the same library as SQLite, copied either way without
loss, shared by concurrent writers, upgraded from an older schema, each reader with their own data."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import httpx
import orjson
import psycopg

from paperscope.library import Library
from paperscope.personal import Personal
from paperscope.store import postgres

from .conftest import SEEDS, new_location, run_cli
from .web.conftest import serving

VSD, NEMO = "lb4pvidcied2", "drqlcr3nir3z"


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
        assert library.check()["schema"] == postgres.SCHEMA_VERSION == 4
        assert library.store.file_by_path("/old/list.txt").sha256 == "abc"
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
