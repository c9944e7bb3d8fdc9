"""How fast one process prepares corpus records (clean, dedupe identity, extract), per stage, beside a reference tree.

    python bench/prepare_speed.py [--sample 20000] [--reference ../main/src] [--rounds 2]

The sample is spread over the whole corpus (every N-th record). Stages are timed as separate passes
over the sample: `clean` is clean_text on title and abstract, `extract` is extract() on the cleaned
text, and `identity` is what `prepare` costs beyond those two (dedupe key, shingles, MinHash bands,
ids). Times are the process's CPU time (time.process_time), not wall time: on a shared machine the
wall clock counts other jobs' turns, which made the subtracted `identity` stage come out negative.
With --reference the same passes run in a child process on the reference tree, alternating rounds
with this one, so that both see the same machine load; each tree's best round is reported.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from corpus_records import CORPUS, corpus_records

from paperscope.assemble import prepare
from paperscope.extract import extract
from paperscope.normalize import clean_text

TOTAL_RECORDS = 92_874


def timed(sample: list) -> dict[str, float]:
    """CPU seconds per stage for one pass over the sample."""
    gc.disable()  # as in ingest
    started = time.process_time()
    cleaned = [(clean_text(raw.title), clean_text(raw.abstract), raw.abstract) for raw, _ in sample]
    clean = time.process_time() - started
    started = time.process_time()
    for title, abstract, raw in cleaned:
        extract(title.text or None, abstract.text, raw or "")
    facts = time.process_time() - started
    started = time.process_time()
    for raw, file_hash in sample:
        prepare(raw, file_hash)
    whole = time.process_time() - started
    gc.enable()
    return {"clean": clean, "identity": whole - clean - facts, "extract": facts, "prepare": whole}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--reference", type=Path, help="the reference tree's src folder (e.g. ../main/src)")
    parser.add_argument("--child", action="store_true", help="time one round and print it as JSON (child mode)")
    args = parser.parse_args()
    sample = list(corpus_records(args.corpus, max(1, TOTAL_RECORDS // args.sample)))[: args.sample]
    if args.child:
        print(json.dumps(timed(sample)))
        return
    rounds: dict[str, list[dict[str, float]]] = {"this tree": []}
    if args.reference:
        rounds["reference"] = []
        here = Path(__file__).resolve().parent
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(args.reference.resolve()), str(here)])}
        command = [sys.executable, __file__, "--child", "--sample", str(args.sample), "--corpus", str(args.corpus)]
    for _ in range(args.rounds):
        if args.reference:
            done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
            rounds["reference"].append(json.loads(done.stdout))
        rounds["this tree"].append(timed(sample))
    print(f"{len(sample):,} records, one process, best of {args.rounds} rounds; load {os.getloadavg()[0]:.2f}")
    print(f"{'':10} " + " ".join(f"{stage:>20}" for stage in rounds["this tree"][0]))
    for tree, times in rounds.items():
        best = {stage: min(t[stage] for t in times) for stage in times[0]}
        cells = [f"{1e6 * s / len(sample):7.0f} µs {len(sample) / s:6,.0f}/s" for s in best.values()]
        print(f"{tree:10} " + " ".join(f"{c:>20}" for c in cells))


if __name__ == "__main__":
    main()
