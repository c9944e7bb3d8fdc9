"""Ingest the whole corpus into a fresh database, end to end through the CLI, and measure it.

    python bench/ingest.py [--corpus ../shared/corpus/paperlists] [--lists N] [--copies N]
                           [--src SRC_A SRC_B …] [--compare]

Prints, for each source tree given (default: the one imported here), records/s, where the time goes
per stage, the peak RSS of the ingest's main process, of each worker and of the whole process tree
(sampled with psutil), the database size, and the time of a second, unchanged re-ingest. `--copies N`
ingests the corpus N times over, copies 1 … N-1 with perturbed ids, titles and abstracts (scale.py's
`replicate`), to show how memory grows with the input. `--compare` dumps the libraries
the source trees made and says whether they hold the same rows (timestamps aside).
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

from process_tree import TreeMemory
from scale import replicate

HERE = Path(__file__).resolve().parent
DEFAULT_CORPUS = HERE.parent.parent / "shared" / "corpus" / "paperlists"


def run_ingest(src: Path, lists: list[Path], db: Path) -> tuple[float, dict, TreeMemory]:
    started = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "paperscope", "--db", str(db), "ingest", *map(str, lists), "--no-embed", "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(src)},
    )
    memory = TreeMemory(process.pid)
    cpu_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out, err = process.communicate()
    memory.stop()
    cpu_after = resource.getrusage(resource.RUSAGE_CHILDREN)
    memory.tree_cpu = (cpu_after.ru_utime + cpu_after.ru_stime) - (cpu_before.ru_utime + cpu_before.ru_stime)
    elapsed = time.perf_counter() - started
    if process.returncode:
        sys.exit(f"ingest failed: {err.strip()}")
    return elapsed, json.loads(out), memory


_DIGEST = """
import hashlib, json, sys
from paperscope.store import open_store
from paperscope.store.core import COLUMNS
store = open_store(sys.argv[1])
rows_of = {}
for table, rows in store.dump():
    kept = [i for i, column in enumerate(COLUMNS[table]) if column not in ("at", "ingested_at", "updated_at")]
    rows_of.setdefault(table, []).extend(
        json.dumps([row[i].hex() if isinstance(row[i], bytes) else row[i] for i in kept]) for row in rows
    )
digest = {t: [len(r), hashlib.sha256("\\n".join(sorted(r)).encode()).hexdigest()[:16]] for t, r in rows_of.items()}
json.dump(digest, sys.stdout)
"""


def dump_digest(src: Path, db: Path) -> dict[str, list]:
    """Rows and a hash of each table's dump, timestamps left out (they differ between any two runs)."""
    done = subprocess.run(
        [sys.executable, "-c", _DIGEST, str(db)],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(src)},
    )
    return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--lists", type=int, help="only the first N lists (by name)")
    parser.add_argument("--copies", type=int, default=1, help="the corpus this many times, perturbed")
    parser.add_argument("--src", type=Path, nargs="+", default=[HERE.parent / "src"], help="source trees to run")
    parser.add_argument("--compare", action="store_true", help="compare the libraries' dumps")
    parser.add_argument("--no-reingest", action="store_true", help="skip the unchanged re-ingest")
    args = parser.parse_args()
    lists = sorted(args.corpus.glob("*.json.gz"))[: args.lists]
    print(f"cores: {os.cpu_count()}; load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    with tempfile.TemporaryDirectory() as tmp:
        if args.copies > 1:
            replicate(lists, args.copies, Path(tmp) / "input")
        inputs = [Path(tmp) / "input"] if args.copies > 1 else lists
        digests = []
        for number, src in enumerate(args.src):
            db = Path(tmp) / f"bench{number}.db"
            print(f"\n== {src}")
            first, report, memory = run_ingest(src, inputs, db)
            _print(first, report, memory, db)
            if not args.no_reingest:
                second, again, _ = run_ingest(src, inputs, db)
                print(
                    f"unchanged re-ingest: {second:.1f} s (target < 10 s); "
                    f"{again['files_unchanged']} files skipped, {again['records_read']} records read"
                )
            if args.compare:
                digests.append(dump_digest(src, db))
            print(f"load average now: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        if args.compare:
            _print_comparison(args.src, digests)


def _print(seconds: float, report: dict, memory: TreeMemory, db: Path) -> None:
    records = report["records_read"]
    print(
        f"records: {records:,} from {report['files_read']} files → {report['papers']:,} papers "
        f"({report['records_merged']:,} merged, {len(report['near_duplicates'])} near-duplicate pairs merged, "
        f"{len(report['held_apart'])} held apart), {report['errors']} errors"
    )
    print(f"first ingest: {seconds:.1f} s = {records / seconds:,.0f} records/s (target ≥ 3,000)")
    stages = ", ".join(f"{stage} {took:.1f} s" for stage, took in report["seconds"].items())
    print(f"  where the time goes (main process; prepare_workers: the workers' processor time): {stages}")
    workers = ", ".join(f"{rss / 2**20:,.0f}" for rss in sorted(memory.workers.values(), reverse=True)[:4])
    print(
        f"peak RSS: main {memory.main / 2**20:,.0f} MB, workers [{workers}] MB, "
        f"whole tree {memory.total / 2**20:,.0f} MB (target < 1,536 MB)"
    )
    print(
        f"processor time: {memory.tree_cpu:,.1f} s in all = {records / memory.tree_cpu:,.0f} records per CPU-second; "
        f"main process ≥ {memory.main_cpu:,.1f} s (its last sample)"
    )
    size = sum(p.stat().st_size for p in db.parent.glob(db.name + "*"))
    print(f"database size: {size / 2**20:,.0f} MB")


def _print_comparison(sources: list[Path], digests: list[dict[str, list]]) -> None:
    print("\n== dumps compared (rows, hash of the sorted rows, timestamps left out)")
    for table in digests[0]:
        cells = [d.get(table) for d in digests]
        same = "same" if all(c == cells[0] for c in cells) else "DIFFERENT"
        print(f"  {table:15} {same:9} " + "  ".join(f"{c[0]:,} {c[1]}" for c in cells if c))


if __name__ == "__main__":
    main()
