"""Ingest the whole corpus into a fresh database, end to end through the CLI, and measure it.

    python bench/ingest.py [--corpus ../shared/corpus/paperlists] [--reference ../main/src]

Prints records/s, peak RSS (the largest process, workers included), database size, and the
time of a second, unchanged re-ingest — each beside its target. With --reference, a first ingest
by the reference tree (its `src` folder first on PYTHONPATH) runs after this tree's, into its own
database, and its records/s and stages are printed beside this tree's.
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


def run_ingest(corpus: Path, db: Path, src: Path | None = None) -> tuple[float, dict]:
    env = {**os.environ, "PYTHONPATH": str(src.resolve())} if src else None
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "paperscope", "--db", str(db), "ingest", str(corpus), "--no-embed", "--json"],
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )
    elapsed = time.perf_counter() - started
    if done.returncode:
        sys.exit(f"ingest failed: {done.stderr.strip()}")
    return elapsed, json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--reference", type=Path, help="the reference tree's src folder (e.g. ../main/src)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.db"
        first, report = run_ingest(args.corpus, db)
        load = os.getloadavg()[0]
        peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        second, again = run_ingest(args.corpus, db)
        size_mb = sum(p.stat().st_size for p in Path(tmp).iterdir()) / 2**20
    if args.reference:  # after this tree's runs, so that the peak RSS above is this tree's alone
        with tempfile.TemporaryDirectory() as tmp:
            seconds, reference = run_ingest(args.corpus, Path(tmp) / "reference.db", args.reference)
        rate = reference["records_read"] / seconds
        print(f"reference tree, first ingest: {rate:,.0f} records/s; load {os.getloadavg()[0]:.1f}")
        print(f"  where the time goes: {_stages(reference)}")
    records = report["records_read"]
    rate = records / first
    print(f"cores: {os.cpu_count()}")
    print(
        f"records: {records:,} from {report['files_read']} files → {report['papers']:,} papers "
        f"({report['records_merged']:,} merged, {len(report['near_duplicates'])} near-duplicate pairs merged, "
        f"{len(report['held_apart'])} held apart), {report['errors']} errors"
    )
    print(f"first ingest: {first:.1f} s = {rate:,.0f} records/s (target ≥ 3,000: {rate / 3000:.2f}× target)")
    print(f"  where the time goes: {_stages(report)}; load {load:.1f}")
    print(f"peak RSS: {peak_mb:,.0f} MB (target < 1,024 MB: {peak_mb / 1024:.2f} of it)")
    print(f"database size: {size_mb:,.0f} MB")
    print(
        f"unchanged re-ingest: {second:.1f} s (target < 10 s: {second / 10:.2f} of it); "
        f"{again['files_unchanged']} files skipped, {again['records_read']} records read"
    )


def _stages(report: dict) -> str:
    return ", ".join(f"{stage} {seconds:.1f} s" for stage, seconds in report["seconds"].items())


if __name__ == "__main__":
    main()
