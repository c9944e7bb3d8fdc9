"""Ingest the whole corpus into a fresh database, end to end through the CLI, and measure it.

    python bench/ingest.py [--corpus ../shared/corpus/paperlists]

Prints records/s, peak RSS (the largest process, workers included), database size, and the
time of a second, unchanged re-ingest — each beside its target.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_CORPUS = HERE.parent.parent / "shared" / "corpus" / "paperlists"


def run_ingest(corpus: Path, db: Path) -> tuple[float, dict]:
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "paperscope", "--db", str(db), "ingest", str(corpus), "--no-embed", "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    elapsed = time.perf_counter() - started
    if done.returncode:
        sys.exit(f"ingest failed: {done.stderr.strip()}")
    return elapsed, json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.db"
        first, report = run_ingest(args.corpus, db)
        peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        second, again = run_ingest(args.corpus, db)
        size_mb = sum(p.stat().st_size for p in Path(tmp).iterdir()) / 2**20
    records = report["records_read"]
    rate = records / first
    print(f"cores: {os.cpu_count()}")
    print(
        f"records: {records:,} from {report['files_read']} files → {report['papers']:,} papers "
        f"({report['records_merged']:,} merged, {len(report['near_duplicates'])} near-duplicate pairs merged, "
        f"{len(report['held_apart'])} held apart), {report['errors']} errors"
    )
    print(f"first ingest: {first:.1f} s = {rate:,.0f} records/s (target ≥ 2,000: {rate / 2000:.2f}× target)")
    stages = ", ".join(f"{stage} {seconds:.1f} s" for stage, seconds in report["seconds"].items())
    print(f"  where the time goes: {stages}")
    print(f"peak RSS: {peak_mb:,.0f} MB (target < 1,024 MB: {peak_mb / 1024:.2f} of it)")
    print(f"database size: {size_mb:,.0f} MB")
    print(
        f"unchanged re-ingest: {second:.1f} s (target < 10 s: {second / 10:.2f} of it); "
        f"{again['files_unchanged']} files skipped, {again['records_read']} records read"
    )


if __name__ == "__main__":
    main()
