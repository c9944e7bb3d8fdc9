"""The library quality figures are measured on, built once and kept between runs.

`open_eval_library()` ingests (and embeds) the lists named in bench/data/eval_library.json plus the
seed pages into a SQLite file under the user's cache folder (PAPERSCOPE_BENCH_CACHE overrides it),
and reuses that file while the list of lists is unchanged (`rebuild=True` makes it anew, e.g. after a
change to ingest or extraction). Papers are named
in label sets by a source's file:line, so `paper_by_source()` maps those names to paper ids.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from paperscope.library import Library

HERE = Path(__file__).resolve().parent
SHARED = HERE.parent.parent / "shared"
DEFINITION = HERE / "data" / "eval_library.json"


def paths() -> list[Path]:
    spec = json.loads(DEFINITION.read_text(encoding="utf-8"))
    lists = [SHARED / "corpus" / "paperlists" / f"{name}.json.gz" for name in spec["lists"]]
    return lists + ([SHARED / "seeds"] if spec.get("seeds") else [])


def _cache_file() -> Path:
    folder = Path(os.environ.get("PAPERSCOPE_BENCH_CACHE", Path.home() / ".cache" / "paperscope-bench"))
    folder.mkdir(parents=True, exist_ok=True)
    key = hashlib.sha256(DEFINITION.read_bytes()).hexdigest()[:12]
    return folder / f"eval_library-{key}.db"


def open_eval_library(rebuild: bool = False) -> Library:
    """The evaluation library, ingested and embedded on first use (a few minutes), then reused."""
    path = _cache_file()
    if rebuild or not path.exists():
        partial = path.with_suffix(".partial")
        partial.unlink(missing_ok=True)
        with Library(partial) as library:
            report = library.ingest(paths())
            print(f"evaluation library built: {report.papers:,} papers in {path}")
        partial.replace(path)
    return Library(path)


def paper_by_source(library: Library) -> dict[str, str]:
    """'file:line' of every source → the id of the paper read there."""
    return {f"{s.path}:{s.line}": p.id for p in library.papers() for s in p.sources}
