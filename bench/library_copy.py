"""A private copy of the evaluation library, for benchmarks that compute topics or read it at length.

`--library FILE` names a built copy to read instead of the cached one (bench/eval_library.py).
"""

from __future__ import annotations

import sqlite3
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from eval_library import path

from paperscope.library import Library


def copy_of_eval_library(folder: Path) -> Path:
    """The evaluation library copied into `folder` (built and cached first if need be)."""
    source = Path(sys.argv[sys.argv.index("--library") + 1]) if "--library" in sys.argv else path()
    copy = folder / "eval.db"
    # SQLite's backup: the copy holds what is still in the source's write-ahead log, too.
    with sqlite3.connect(f"file:{source}?mode=ro", uri=True) as cached, sqlite3.connect(copy) as target:
        cached.backup(target)
    return copy


@contextmanager
def eval_library_copy() -> Iterator[Library]:
    """The evaluation library, open on a private copy that is deleted afterwards."""
    with tempfile.TemporaryDirectory() as tmp, Library(copy_of_eval_library(Path(tmp))) as library:
        yield library
