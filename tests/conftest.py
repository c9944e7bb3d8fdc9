"""Fixtures: the real shared folder, fresh SQLite files, and the paperscope command as a user runs it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from paperscope.library import Library

os.environ["HF_HUB_OFFLINE"] = "1"  # no model hub is reachable: nothing may try one
ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
SEEDS = SHARED / "seeds"
CORPUS = SHARED / "corpus" / "paperlists"


@dataclass
class Run:
    code: int
    out: str
    err: str


def run_cli(*args: str | Path, cwd: Path | None = None, env: dict[str, str] | None = None) -> Run:
    """The installed command, in a real process: what a user would see, stderr included."""
    done = subprocess.run(
        [sys.executable, "-m", "paperscope", *map(str, args)],
        capture_output=True, text=True, cwd=cwd, env={**os.environ, **(env or {})}, check=False,
    )  # fmt: skip
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
def seeded_library(seeded_db: Path):
    """The seed library, open, for tests that only read it."""
    with Library(seeded_db) as library:
        yield library
