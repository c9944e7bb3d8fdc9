"""What a command costs before it does its work: the processor time of short commands, source trees side by side.

    python bench/command_start.py [--src SRC_A SRC_B …] [--runs 9]

Each command runs as a user runs it (`python -m paperscope …`) on a library of the seeds (made once,
`--no-embed`), `--runs` times per tree, the trees taking turns so that both see the same machine. The
figure is the child's user + system time (`os.wait4`), not wall time: on this shared machine the wall
clock counts other jobs' turns. Most of a short command's time is its imports, so the median over the
runs tells how much of that a change saved; the last column is the last tree's median over the first's.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
SEEDS = HERE.parent.parent / "shared" / "seeds"
COMMANDS = {
    "--help": ["--help"],
    "papers": ["papers", "--limit", "5"],
    "search": ["search", "speculative decoding", "--mode", "lexical"],
    "export bibtex": ["export", "--format", "bibtex"],
    "related": ["related", "{paper}"],
    "ingest (unchanged)": ["ingest", str(SEEDS), "--no-embed"],
}


def processor_seconds(src: Path, library: Path, args: list[str]) -> float:
    """The user + system time of one command run against `library` with `src` on the path."""
    process = subprocess.Popen(
        [sys.executable, "-m", "paperscope", "--db", str(library), *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(src)},
    )
    _, status, usage = os.wait4(process.pid, 0)
    if os.waitstatus_to_exitcode(status):
        sys.exit(f"{' '.join(args)} failed with {src}: {process.stderr.read().decode()[-500:]}")  # type: ignore[union-attr]
    return usage.ru_utime + usage.ru_stime


def first_paper(src: Path, library: Path) -> str:
    """The id of a paper of `library`, for `related`."""
    listed = subprocess.run(
        [sys.executable, "-m", "paperscope", "--db", str(library), "papers", "--json", "--limit", "1"],
        capture_output=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(src)},
    )
    return json.loads(listed.stdout)["papers"][0]["id"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--src", nargs="+", type=Path, default=[HERE.parent / "src"])
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        library = Path(folder) / "seeds.db"
        processor_seconds(args.src[0], library, ["ingest", str(SEEDS), "--no-embed"])
        paper = first_paper(args.src[0], library)
        times: dict[tuple[str, Path], list[float]] = {}
        for _ in range(args.runs):
            for name, command in COMMANDS.items():
                for src in args.src:
                    command = [word.format(paper=paper) for word in command]
                    times.setdefault((name, src), []).append(processor_seconds(src, library, command))
    print(f"median processor seconds over {args.runs} runs; trees: " + ", ".join(map(str, args.src)))
    print(f"{'command':20}" + "".join(f"{i:>10}" for i in range(1, len(args.src) + 1)) + "     last/first")
    for name in COMMANDS:
        medians = [statistics.median(times[name, src]) for src in args.src]
        print(f"{name:20}" + "".join(f"{m:10.3f}" for m in medians) + f"{medians[-1] / medians[0]:15.2f}")


if __name__ == "__main__":
    main()
