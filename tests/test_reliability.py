"""Nothing is lost or half-written: killed ingests and embeddings, backups, injection attempts."""

from __future__ import annotations

import gc
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
import weakref
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import psutil
import pytest

from paperscope import pipeline, workers
from paperscope.embed import COMMIT_EVERY, FIRST_BATCHES
from paperscope.errors import PaperscopeError
from paperscope.library import Library
from paperscope.normalize import latex
from paperscope.store import sqlite as sqlite_store

from .conftest import CORPUS, SEEDS, run_cli

LISTS = [CORPUS / name for name in ("naacl2024.json.gz", "iros2013.json.gz", "wacv2025.json.gz")]  # ~2,750 records
KILLED_RUNS = 8  # ingests killed at moments spread over one ingest's duration
WAL_HEADER = 32  # bytes of SQLite's write-ahead log before its first page
# ~7,100 records: above pipeline.PARALLEL_ABOVE, so prepared in worker processes
LARGE = [*LISTS, *(CORPUS / name for name in ("eccv2022.json.gz", "eccv2020.json.gz", "icra2021.json.gz"))]


def snapshot(db: Path) -> tuple:
    with closing(sqlite3.connect(db)) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        return tuple(
            connection.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
            for table in ("files", "papers", "sources", "papers_fts", "paper_bands", "vectors")
        )


def start(*args: str | Path) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "paperscope", *map(str, args)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )


def kill_after(process: subprocess.Popen, seconds: float) -> bool:
    """SIGKILL after `seconds` unless it ended first; says whether it was killed."""
    try:
        process.wait(timeout=seconds)
        return False
    except subprocess.TimeoutExpired:
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
        return True


def kill_while_writing(process: subprocess.Popen, written: Path, size: int) -> bool:
    """SIGKILL once the file the ingest writes its transaction into holds more than `size` bytes (it stays
    as it was while the ingest reads and prepares), unless the ingest ended first."""
    while process.poll() is None:
        if written.exists() and written.stat().st_size > size:
            os.kill(process.pid, signal.SIGKILL)
            process.wait()
            return True
        time.sleep(0.002)
    return False


@pytest.mark.slow
def test_an_ingest_killed_at_any_moment_leaves_the_library_before_or_after(seeded_copy, tmp_path):
    before = snapshot(seeded_copy)
    finished = tmp_path / "finished.db"
    finished.write_bytes(seeded_copy.read_bytes())
    started = time.perf_counter()
    assert start("--db", finished, "ingest", *LISTS, "--no-embed").wait() == 0
    duration = time.perf_counter() - started
    after = snapshot(finished)
    assert after != before

    def run(name: str, kill: Callable[[subprocess.Popen, Path], bool]) -> bool:
        db = tmp_path / f"{name}.db"
        db.write_bytes(seeded_copy.read_bytes())
        was_killed = kill(start("--db", db, "ingest", *LISTS, "--no-embed"), db)
        assert snapshot(db) in (before, after), f"{name}: a partial ingest"
        return was_killed

    # Killed at moments evenly spread from start-up to 70% of a whole ingest (later runs are warmer, so
    # faster), while it reads and prepares; then twice while it writes its one transaction.
    moments = [0.2 + (0.7 * duration - 0.2) * k / (KILLED_RUNS - 1) for k in range(KILLED_RUNS)]
    killed = sum(run(f"after {moment:.2f} s", lambda p, _, m=moment: kill_after(p, m)) for moment in moments)
    assert killed >= 0.75 * KILLED_RUNS  # most runs really were cut short
    for written in (0, 4 << 20):  # its first page, and 4 MiB into it
        name = f"after {written} bytes written"
        assert run(name, lambda p, db, w=written: kill_while_writing(p, beside(db, "-wal"), WAL_HEADER + w)), name


def beside(db: Path, suffix: str) -> Path:
    """SQLite's file beside the library: its write-ahead log ("-wal") or rollback journal ("-journal")."""
    return db.with_name(db.name + suffix)


@pytest.mark.slow
def test_a_first_load_killed_while_writing_leaves_an_empty_library_in_the_write_ahead_log(tmp_path):
    """A first load writes the library's file through a rollback journal (SQLiteStore.bulk), not the log.
    Its page cache is made small here, so that it writes pages into the file long before its commit."""
    db = tmp_path / "first.db"
    Library(db).close()
    empty = snapshot(db)
    small_cache = "import sys; from paperscope.store import sqlite; sqlite._WRITING_CACHE = -1024; " + (
        "from paperscope.cli import main; sys.argv[0] = 'paperscope'; main()"
    )
    load = subprocess.Popen(
        [sys.executable, "-c", small_cache, "--db", str(db), "ingest", *map(str, LISTS), "--no-embed"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    assert kill_while_writing(load, db, db.stat().st_size + (4 << 20)), "the load never wrote into the file itself"
    assert beside(db, "-journal").exists(), "killed after its commit"
    assert snapshot(db) == empty == (0, 0, 0, 0, 0, 0)
    library = Library(db)
    assert library.store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    library.close()


def test_a_reader_of_an_empty_library_keeps_reading_while_it_is_loaded(tmp_path):
    """Only a first load nobody else has open goes through a rollback journal, which would lock readers out:
    a reader in the middle of a read keeps the library as it was, then sees the load once it commits."""
    db = tmp_path / "library.db"
    library = Library(db)
    reader = sqlite3.connect(db, isolation_level=None)
    reader.execute("BEGIN")
    assert reader.execute("SELECT count(*) FROM papers").fetchone() == (0,)
    library.ingest([SEEDS], embed_vectors=False)
    assert reader.execute("SELECT count(*) FROM papers").fetchone() == (0,)
    reader.execute("COMMIT")
    assert reader.execute("SELECT count(*) FROM papers").fetchone() == (51,)
    assert library.store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    reader.close()
    library.close()


def test_opening_a_library_another_process_is_loading_says_so(tmp_path, monkeypatch):
    db = tmp_path / "library.db"
    Library(db).close()
    loading = sqlite3.connect(db, isolation_level=None)
    loading.execute("PRAGMA journal_mode=DELETE")  # as a first load writes (SQLiteStore.bulk), holding the file
    loading.execute("BEGIN EXCLUSIVE")
    monkeypatch.setattr(sqlite_store, "_BUSY_MS", 50)
    with pytest.raises(PaperscopeError, match=r"library\.db: another process is loading it; try again once it is done"):
        Library(db)
    loading.execute("ROLLBACK")
    loading.close()
    Library(db).close()


@pytest.mark.slow
def test_a_killed_ingest_leaves_no_worker_processes(seeded_copy):
    before = snapshot(seeded_copy)
    ingest = start("--db", seeded_copy, "ingest", *LARGE, "--no-embed")
    parent = psutil.Process(ingest.pid)
    deadline = time.monotonic() + 60
    while len(children := parent.children()) < 2 and ingest.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    assert len(children) >= 2, "the ingest never started its worker processes"
    os.kill(ingest.pid, signal.SIGKILL)
    ingest.wait()
    _, alive = psutil.wait_procs(children, timeout=5)
    for orphan in alive:  # the test leaves none behind either way
        orphan.kill()
    assert not alive, f"{len(alive)} worker processes outlived the killed ingest"
    assert snapshot(seeded_copy) == before


class _Batch:
    """Stands for a batch of records: something a caller holds while it converts LaTeX."""


def _convert_holding(batch: _Batch) -> str:
    return latex.latex_to_markdown(r"the {loss} of \textbf{NEMO}")[0]


def test_an_ingest_frees_what_latex_parsing_tied_into_cycles_batch_by_batch():
    """pylatexenc leaves a cycle through its traceback, which holds its callers' frames: with the
    collector off for an ingest, a writer's or a worker's whole batch stayed (1.4 GB by 370k records)."""
    batch = _Batch()
    held = weakref.ref(batch)
    with pipeline._collected_per_batch() as collect:
        _convert_holding(batch)
        del batch
        assert held() is not None, "the conversion no longer leaves a cycle: this test shows nothing"
        collect()
        assert held() is None


def test_the_ingest_workers_collect_cycles_though_the_ingest_turned_the_collector_off():
    with pipeline._collected_per_batch(), workers.pool(1) as pool:
        assert not gc.isenabled()
        assert pool.submit(gc.isenabled).result()


@pytest.mark.slow
def test_embedding_killed_at_any_moment_keeps_whole_batches(tmp_path):
    assert COMMIT_EVERY % FIRST_BATCHES == 0  # so every sum of whole batches is a multiple of FIRST_BATCHES
    db = tmp_path / "lib.db"
    with Library(db) as library:
        library.ingest([CORPUS / "nips2009.json.gz"], embed_vectors=False)  # 262 papers: three batches
        total = library.count()
    rng = random.Random(3)
    for _ in range(6):
        kill_after(start("--db", db, "embed"), rng.uniform(0.5, 4.0))
        with sqlite3.connect(db) as connection:
            assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            count, lengths = connection.execute(
                "SELECT count(*), group_concat(DISTINCT length(vector)) FROM vectors"
            ).fetchone()
        assert count == total or count % FIRST_BATCHES == 0, count  # whole batches only (16, 16, then 128 each)
        assert lengths in (None, "1024")  # no vector half-written
    assert run_cli("--db", db, "embed").code == 0
    with Library(db) as library:
        assert library.check()["vectors_missing"] == 0


def test_a_backup_restores_the_library(seeded_db, tmp_path):
    copy = tmp_path / "backup.db"
    assert run_cli("--db", seeded_db, "backup", copy).code == 0
    assert snapshot(copy) == snapshot(seeded_db)
    with Library(copy) as restored, Library(seeded_db) as original:
        assert [p.to_dict() for p in restored.papers()] == [p.to_dict() for p in original.papers()]
        assert restored.search("NEMO", limit=1)[0].paper.name == "NEMO"
    again = run_cli("--db", seeded_db, "backup", copy)
    assert again.code == 1 and "already exists" in again.err
    check = run_cli("--db", copy, "check")
    assert check.code == 0 and check.out.startswith("integrity ok") and "papers 51" in check.out


INJECTIONS = [
    "' OR 1=1 --",
    "x'); DROP TABLE papers; --",
    '" OR ""="',
    "1; DELETE FROM sources",
    "%' --",
    "NEAR(a b)",
    "papers_fts MATCH '*'",
    "\\x00",
    "名' OR '1'='1",
]


@pytest.mark.parametrize("payload", INJECTIONS)
def test_injection_payloads_are_just_text(seeded_copy, payload):
    before = snapshot(seeded_copy)
    with Library(seeded_copy) as library:
        library.search(payload, limit=5)
        assert library.count(filters=library_filters(payload)) == 0
        with pytest.raises(Exception, match="no paper with id"):
            library.paper(payload)
    assert run_cli("--db", seeded_copy, "search", payload, "--venue", payload).code == 0
    assert snapshot(seeded_copy) == before


def library_filters(payload: str):
    from paperscope.index.lexical import Filters

    return Filters(venue=payload, contribution=None)
