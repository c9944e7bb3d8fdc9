"""Every corpus record prepared by this tree and by a reference tree (main), compared field by field.

    python bench/prepare_equivalence.py --reference ../main/src [--corpus DIR] [--every N] [--show 5]

What is compared is all that ingest keeps of a prepared record: the cleaned title and abstract (text,
HTML, URLs, problems, repaired URLs), the raw abstract, the dedupe identity (key, title key, venue, LSH
bands, ids, kind of work) and the extracted facts. The reference tree runs in a child process (its
`src` folder first on PYTHONPATH) and streams one JSON line per record; this process prepares the same
records and compares line by line. Prints the number of records that differ, and the first few.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import asdict
from pathlib import Path

from corpus_records import CORPUS, corpus_records

from paperscope.assemble import prepare


def prepared_lines(corpus: Path, every: int) -> Iterator[str]:
    for raw, file_hash in corpus_records(corpus, every):
        item = prepare(raw, file_hash)
        fields = {
            "where": item.where,
            "title": asdict(item.title),
            "abstract": asdict(item.abstract),
            "abstract_raw": item.raw.abstract,
            "key": item.key,
            "unit": asdict(item.unit),
            "facts": asdict(item.facts),
        }
        yield json.dumps(fields, ensure_ascii=False, sort_keys=True)


def differences(ours: dict, theirs: dict) -> list[str]:
    return [name for name in sorted(ours.keys() | theirs.keys()) if ours.get(name) != theirs.get(name)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reference", type=Path, help="the reference tree's src folder (e.g. ../main/src)")
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--every", type=int, default=1, help="compare every N-th record only")
    parser.add_argument("--show", type=int, default=5, help="differing records printed in full")
    parser.add_argument("--emit", action="store_true", help="print this tree's JSON lines (the child's mode)")
    args = parser.parse_args()
    if args.emit:
        for line in prepared_lines(args.corpus, args.every):
            print(line)
        return
    if args.reference is None:
        parser.error("--reference is required")
    here = Path(__file__).resolve().parent
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(args.reference.resolve()), str(here)])}
    command = [sys.executable, __file__, "--emit", "--corpus", str(args.corpus), "--every", str(args.every)]
    with subprocess.Popen(command, stdout=subprocess.PIPE, text=True, encoding="utf-8", env=env) as child:
        assert child.stdout is not None
        compared = differing = 0
        for ours, theirs in zip(prepared_lines(args.corpus, args.every), child.stdout, strict=True):
            compared += 1
            if ours != theirs.rstrip("\n"):
                differing += 1
                mine, reference = json.loads(ours), json.loads(theirs)
                fields = differences(mine, reference)
                if differing <= args.show:
                    print(f"{mine['where']}: differs in {', '.join(fields)}")
                    for name in fields:
                        print(f"  ours:      {json.dumps(mine.get(name), ensure_ascii=False)[:600]}")
                        print(f"  reference: {json.dumps(reference.get(name), ensure_ascii=False)[:600]}")
    if child.returncode:
        sys.exit(f"the reference tree failed (exit {child.returncode})")
    print(f"{compared:,} records compared, {differing:,} differ")


if __name__ == "__main__":
    main()
