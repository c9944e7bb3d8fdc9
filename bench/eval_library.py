"""The library every quality figure is measured on (bench/data/eval_library.json), built once and cached.

    python bench/eval_library.py      # build it (or say where the cached copy is)

About 11.5k papers: the named corpus lists plus the seeds, ingested and embedded with the current
sentence encoder. Embedding takes minutes here, so the SQLite file is kept in the temp directory
(PAPERSCOPE_BENCH_CACHE names another folder) under a name that changes with the lists and the
encoder; a half-built file is never used. A cached copy is ingested again at each use (a second when
nothing changed), so that papers an earlier version of paperscope made are made again from their records.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
import time
from pathlib import Path

from paperscope.index import semantic
from paperscope.library import Library

HERE = Path(__file__).resolve().parent
SHARED = HERE.parent.parent / "shared"
CORPUS = SHARED / "corpus" / "paperlists"
SEEDS = SHARED / "seeds"


def sources() -> list[Path]:
    spec = json.loads((HERE / "data" / "eval_library.json").read_text(encoding="utf-8"))
    return [CORPUS / f"{name}.json.gz" for name in spec["lists"]] + ([SEEDS] if spec["seeds"] else [])


def cache_dir() -> Path:
    folder = Path(os.environ.get("PAPERSCOPE_BENCH_CACHE") or Path(tempfile.gettempdir()) / "paperscope-bench")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def path() -> Path:
    """The cached library's file; built on first use."""
    paths = sources()
    key = hashlib.sha1(json.dumps([semantic.MODEL, *(p.name for p in paths)]).encode()).hexdigest()[:12]
    built = cache_dir() / f"eval-{key}.db"
    if built.exists():  # unchanged lists are skipped; papers an earlier paperscope made are made again
        with Library(built) as library:
            report = library.ingest(paths)
        if remade := report.papers_remade:
            print(f"eval library: {remade:,} papers made again ({report.papers_remade_changed:,} changed)")
    else:
        partial = built.with_name(built.name + ".partial")
        partial.unlink(missing_ok=True)
        started = time.perf_counter()
        with Library(partial) as library:
            report = library.ingest(paths)
        print(f"eval library: {report.papers:,} papers ingested and embedded in {time.perf_counter() - started:.0f} s")
        partial.replace(built)
        for leftover in partial.parent.glob(f"{partial.name}.*"):  # its indexes, named after its path
            if leftover.is_dir():
                shutil.rmtree(leftover)
            else:
                leftover.unlink()
    return built


if __name__ == "__main__":
    print(path())
