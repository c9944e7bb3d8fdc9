"""Instructions a lexical search takes, counted by valgrind, for source trees side by side.

    python bench/search_instructions.py --library LIB.db [LIB_B.db …] [--src SRC_A SRC_B …]
                                        [--warm 200] [--searches 200]

Wall-clock latency on a shared virtual machine moved by half from one run to the next this year (the same
code's lexical p50 at 92.5k papers read 2.5–5.4 ms in one afternoon), so small changes to the search path
cannot be told apart by timing. Instructions can: two runs of the same code differed by 15 M of 20.6 G
(under 1% of what 200 searches take). For each tree, two processes run under valgrind's cachegrind
(Debian's `valgrind`): one opens the library and
searches `--warm` titles, the other does the same and then searches `--searches` titles never searched
before; the difference, divided by `--searches`, is what a search costs once the process is warm. Titles
are drawn from the library with a fixed seed; searches are `library.search(title, limit=10,
mode="lexical")`, snippets and papers included. PYTHONHASHSEED is fixed so that both runs hash alike.
Trees whose indexes differ take a copy of the library each (`--library` once per tree, in `--src` order), each
searched once beforehand so that its index is built before counting.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
_SEARCHES = """
import random, sys
from paperscope.library import Library
library = Library(sys.argv[1])
warm, searches = int(sys.argv[2]), int(sys.argv[3])
titles = [p.title for p in random.Random(7).sample([p for p in library.papers() if p.title], warm + searches)]
for title in titles:
    library.search(title, limit=10, mode="lexical")
"""


def built(src: Path, library: Path) -> None:
    """One search in the library with `src`, not counted: it builds the tree's index if the library has none."""
    subprocess.run(
        [sys.executable, "-c", _SEARCHES, str(library), "1", "0"],
        check=True,
        env={**os.environ, "PYTHONPATH": str(src)},
    )


def instructions(src: Path, library: Path, warm: int, searches: int) -> int:
    """Instructions valgrind counts for opening the library and searching `warm` + `searches` titles."""
    done = subprocess.run(
        [
            "valgrind",
            "--tool=cachegrind",
            "--cache-sim=no",
            "--cachegrind-out-file=/dev/null",
            sys.executable,
            "-c",
            _SEARCHES,
            str(library),
            str(warm),
            str(searches),
        ],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(src), "PYTHONHASHSEED": "0"},
    )
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if done.returncode or not found:
        sys.exit(f"valgrind failed for {src}: {done.stderr.strip()[-500:]}")
    return int(found.group(1).replace(",", ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--library",
        type=Path,
        nargs="+",
        required=True,
        help="a library file (e.g. the whole corpus ingested), or one per tree",
    )
    parser.add_argument("--src", type=Path, nargs="+", default=[HERE.parent / "src"], help="source trees' src folders")
    parser.add_argument("--warm", type=int, default=200, help="titles searched before the counted ones")
    parser.add_argument("--searches", type=int, default=200, help="titles counted")
    args = parser.parse_args()
    if len(args.library) not in (1, len(args.src)):
        parser.error("--library takes one library, or one per --src tree")
    libraries = args.library * len(args.src) if len(args.library) == 1 else args.library
    per_search = {}
    with ThreadPoolExecutor(2) as pool:  # the two runs of a tree at once: one per core
        for src, library in zip(args.src, libraries, strict=True):
            built(src, library)
            runs = [pool.submit(instructions, src, library, args.warm, n) for n in (0, args.searches)]
            warm, both = (run.result() for run in runs)
            per_search[src] = (both - warm) / args.searches
            print(f"{src}: {per_search[src] / 1e6:,.2f} M instructions a search ({args.searches} after {args.warm})")
    first = per_search[args.src[0]]
    for src in args.src[1:]:
        print(f"{src} / {args.src[0]}: {per_search[src] / first:.3f}")


if __name__ == "__main__":
    main()
