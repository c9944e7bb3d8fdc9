"""A long fuzzing run over the readers and the text pipeline: inputs tried, failures found (target 0).

    python -m bench.fuzz [--inputs 100000] [--seed 1]     (from the repository's root: it uses tests/fuzzing.py)

Inputs: mutations of real files from ../shared (the seed pages, corpus lists, the sample files of
other formats: byte flips, truncations, insertions of hostile pieces, line shuffles, gzip or not)
and pages and paper lists built from hostile pieces. Each is written to a file and read as an
ingest reads it (sniff, read, clean, extract). A failure is any exception other than the project's
own error, unsafe HTML in the output, or more than 2 s on one input.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import signal
import tempfile
import time
from pathlib import Path

from paperscope.errors import PaperscopeError
from tests.fuzzing import read_any

SHARED = Path(__file__).resolve().parent.parent.parent / "shared"
PIECES = [
    "\\textbf{",
    "}",
    "{",
    "$",
    "$$",
    "\\(",
    "**",
    "[a](",
    "](",
    "<script>alert(1)</script>",
    "<img src=x onerror=y>",
    "javascript:alert(1)",
    "\\href{javascript:x}{y}",
    "https://github. com/a/b",
    "\\%",
    "&",
    "\\",
    "\n",
    "\r\n",
    "\u202e",
    "\x00",
    "中文",
    "😀",
    '"><svg onload=x>',
    "\\url{",
    "\\begin{equation}",
    "\\end{",
    "\\frac{1}{",
    '"',
    "[",
    "]",
    ",",
    ":",
    "null",
    "\ufeff",
    "\\'",
    "%",
    "\\\\",
]
LIMIT_SECONDS = 2


class Hang(Exception):
    pass


def real_files() -> list[bytes]:
    files = sorted((SHARED / "seeds").iterdir()) + sorted((SHARED / "corpus" / "paperlists").iterdir())[:3]
    files += [p for p in sorted((SHARED / "formats").iterdir()) if p.is_file()]
    return [(gzip.decompress(p.read_bytes()) if p.name.endswith(".gz") else p.read_bytes())[:200_000] for p in files]


def mutate(data: bytes, rng: random.Random) -> bytes:
    data = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        kind = rng.random()
        at = rng.randrange(len(data) + 1)
        if kind < 0.3 and data:
            data[min(at, len(data) - 1)] = rng.randrange(256)
        elif kind < 0.6:
            data[at:at] = rng.choice(PIECES).encode()
        elif kind < 0.75:
            del data[at : at + rng.randint(1, 200)]
        elif kind < 0.85:
            data = data[: rng.randrange(len(data) + 1)]
        else:
            lines = bytes(data).split(b"\n")
            rng.shuffle(lines)
            data = bytearray(b"\n".join(lines))
    result = bytes(data)
    return gzip.compress(result) if rng.random() < 0.2 else result


def built(rng: random.Random) -> tuple[bytes, str]:
    def text() -> str:
        return "".join(
            rng.choice(PIECES) if rng.random() < 0.5 else chr(rng.randrange(32, 0x3000))
            for _ in range(rng.randint(0, 60))
        )

    if rng.random() < 0.5:
        return ("ICML 2026 Papers\n" + "\n".join(text() for _ in range(rng.randint(1, 5)))).encode(
            "utf-8", "replace"
        ), "page.txt"
    items = [
        {k: text() for k in rng.sample(["title", "abstract", "author", "site", "github", "id"], 3)}
        for _ in range(rng.randint(1, 4))
    ]
    return json.dumps(items).encode(), "icml2026.json"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--inputs", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    originals = real_files()
    failures: list[str] = []
    outcomes = {"read": 0, "refused": 0}
    signal.signal(signal.SIGALRM, lambda *_: (_ for _ in ()).throw(Hang()))
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        for number in range(args.inputs):
            if rng.random() < 0.6:
                data, name = mutate(rng.choice(originals), rng), rng.choice(["list.json", "page.txt", "x.json.gz", "f"])
            else:
                data, name = built(rng)
            path = Path(tmp) / name
            path.write_bytes(data)
            signal.alarm(LIMIT_SECONDS)
            try:
                read_any(path)
                outcomes["read"] += 1
            except PaperscopeError:
                outcomes["refused"] += 1
            except Hang:
                failures.append(f"input {number}: more than {LIMIT_SECONDS} s")
                (Path(tmp) / f"hang-{number}").write_bytes(data)
            except Exception as error:
                failures.append(f"input {number} ({name}): {error.__class__.__name__}: {str(error)[:120]}")
            finally:
                signal.alarm(0)
            if (number + 1) % 10_000 == 0:
                print(
                    f"  {number + 1:,} inputs, {len(failures)} failures, {time.perf_counter() - started:.0f} s",
                    flush=True,
                )
    print(
        f"{args.inputs:,} inputs tried ({outcomes['read']:,} read, {outcomes['refused']:,} refused with a one-line "
        f"error) in {time.perf_counter() - started:.0f} s: {len(failures)} failures (target 0)"
    )
    for failure in failures[:20]:
        print("  " + failure)


if __name__ == "__main__":
    main()
