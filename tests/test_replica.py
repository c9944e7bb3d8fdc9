"""Readers on a streaming replica: a PostgreSQL primary and a hot standby of it (tests/postgres.py);
`paperscope ingest` writes on the primary while `paperscope serve` on the replica answers searches,
and the replica's answers become the primary's once the ingest has committed and been replayed."""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import psycopg
import pytest

from paperscope.library import Library
from tests.conftest import SEEDS, run_cli
from tests.postgres import Server, start_replica, start_server
from tests.web.conftest import serving

QUERY = "hallucination in vision language models"
MODES = ("lexical", "semantic", "hybrid")
CATCH_UP_SECONDS = 30


@pytest.fixture(scope="module")
def servers() -> Iterator[tuple[Server, Server]]:
    """A primary of its own (the session's server may be one PAPERSCOPE_TEST_PG names) and its replica."""
    with tempfile.TemporaryDirectory(prefix="paperscope-replication-") as folder:
        primary = start_server(None, Path(folder))
        try:
            replica = start_replica(primary)
            try:
                yield primary, replica
            finally:
                replica.stop()
        finally:
            primary.stop()


def _replayed(primary: Server, replica: Server) -> None:
    """Wait until the replica has replayed everything the primary has written so far."""
    with psycopg.connect(primary.url, autocommit=True) as conn:
        written = conn.execute("SELECT pg_current_wal_lsn()").fetchone()[0]
    deadline = time.monotonic() + CATCH_UP_SECONDS
    with psycopg.connect(replica.url, autocommit=True) as conn:
        while not conn.execute("SELECT pg_last_wal_replay_lsn() >= %s::pg_lsn", (written,)).fetchone()[0]:
            assert time.monotonic() < deadline, "the replica did not catch up"
            time.sleep(0.1)


def _ids(base: str, mode: str) -> list[str]:
    answer = httpx.get(f"{base}/api/search", params={"q": QUERY, "mode": mode}, timeout=60)
    assert answer.status_code == 200, answer.text
    return [hit["id"] for hit in answer.json()["results"]]


def _primary_ids(location: str) -> dict[str, list[str]]:
    with Library(location) as library:
        return {mode: [h.paper.id for h in library.search(QUERY, 10, mode=mode)] for mode in MODES}


def test_a_serve_on_the_replica_answers_during_an_ingest_on_the_primary_and_catches_up(servers, cache_folder, tmp_path):
    primary, replica = servers
    location = primary.new_database()
    pages = sorted(SEEDS.iterdir())
    first, rest = tmp_path / "first", tmp_path / "rest"
    first.mkdir(), rest.mkdir()
    (first / pages[0].name).write_bytes(pages[0].read_bytes())
    for page in pages[1:]:
        (rest / page.name).write_bytes(page.read_bytes())
    assert run_cli("--db", location, "ingest", first).code == 0
    before = _primary_ids(location)
    _replayed(primary, replica)

    with serving(replica.same_database(location)) as base:
        assert {mode: _ids(base, mode) for mode in MODES} == before
        ingest = subprocess.Popen(
            [sys.executable, "-m", "paperscope", "--db", location, "ingest", str(rest)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        answered = 0
        while ingest.poll() is None:  # every search during the ingest is answered
            _ids(base, "hybrid")
            answered += 1
        assert ingest.returncode == 0, ingest.stderr.read()
        after = _primary_ids(location)
        assert answered and all(set(after[m]) - set(before[m]) for m in MODES)  # the ingest changed every answer

        deadline = time.monotonic() + CATCH_UP_SECONDS
        while (seen := {mode: _ids(base, mode) for mode in MODES}) != after:
            assert time.monotonic() < deadline, f"the replica still answers {seen}, the primary {after}"
            time.sleep(0.2)

    # The replica's lexical answers came from its own tantivy index, caught up from the replicated log.
    with psycopg.connect(replica.same_database(location), autocommit=True) as conn:
        head = conn.execute("SELECT max(seq) FROM lexical_changes").fetchone()[0]
        database = conn.execute("SELECT oid FROM pg_database WHERE datname = current_database()").fetchone()[0]
    (index,) = cache_folder.glob(f"lexical-postgresql-*-{database}-replica-*")
    assert (index / "position").read_text(encoding="ascii") == str(head)


def test_writing_on_the_replica_is_a_one_line_error(servers, tmp_path):
    primary, replica = servers
    location = primary.new_database()
    assert run_cli("--db", location, "ingest", SEEDS, "--no-embed").code == 0
    _replayed(primary, replica)
    run = run_cli("--db", replica.same_database(location), "ingest", SEEDS, "--no-embed")
    assert run.code == 1 and run.err.count("\n") == 1
    assert "a read-only server (a replica); write on the primary" in run.err


def test_a_replica_of_a_database_never_opened_by_paperscope_says_so(servers):
    primary, replica = servers
    location = primary.new_database()
    _replayed(primary, replica)
    run = run_cli("--db", replica.same_database(location), "papers")
    assert run.code == 1 and run.err.count("\n") == 1
    assert "a read-only server (a replica) holding schema 0" in run.err
