"""How fast a library's missing vectors are computed: in this process (two encoder threads) beside
worker processes (one thread each), on copies of one library, in one run.

    python bench/embed_speed.py [--lists iclr2017 uai2023 ...] [--rounds 2]

The library is ingested from corpus lists without vectors, copied, and each copy embedded by
`embed.embed_missing` one way; the rounds alternate, so both see the same machine. It prints
abstracts/s for each way, their ratio, what 1M papers would take, and the smallest cosine between
the two ways' vectors of one paper (they must be the same vectors).
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from pathlib import Path

import numpy as np

from paperscope import embed
from paperscope.library import Library

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus" / "paperlists"


def embedded(db: Path, processes: int | None) -> tuple[float, dict[str, np.ndarray]]:
    """(abstracts/s, vector by paper) of embedding a copy of `db` one way."""
    copy = db.with_name(f"{db.stem}-{processes}.db")
    shutil.copy(db, copy)
    with Library(copy) as library:
        started = time.perf_counter()
        count = embed.embed_missing(library.store, processes=processes)
        rate = count / (time.perf_counter() - started)
        vectors = library.vectors()
        found = {pid: vectors.matrix[i] for pid, i in vectors.position.items()}
    for path in copy.parent.glob(f"{copy.name}*"):
        shutil.rmtree(path) if path.is_dir() else path.unlink()
    return rate, found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--lists", nargs="+", default=["iclr2017", "uai2023", "corl2023", "aistats2023", "naacl2024", "icml2017"]
    )
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "library.db"
        with Library(db) as library:
            library.ingest([CORPUS / f"{name}.json.gz" for name in args.lists], embed_vectors=False)
            papers = library.count()
        print(f"{papers:,} papers ({', '.join(args.lists)})")
        rates: dict[str, list[float]] = {"one process, two threads": [], "worker processes": []}
        kept: dict[str, dict[str, np.ndarray]] = {}
        for _ in range(args.rounds):
            for way, processes in (("one process, two threads", 1), ("worker processes", None)):
                rate, kept[way] = embedded(db, processes)
                rates[way].append(rate)
        for way, measured in rates.items():
            best = max(measured)
            print(
                f"{way:26} {best:6.0f} abstracts/s (rounds: {', '.join(f'{r:.0f}' for r in measured)});"
                f" 1M papers: {1e6 / best / 3600:.1f} h"
            )
        one, many = (max(rates[way]) for way in rates)
        print(f"worker processes / one process: {many / one:.2f}x")
        first, second = kept.values()
        cosines = [float(first[pid] @ second[pid]) for pid in first]
        print(f"same vectors: {len(first) == len(second) == papers}, smallest cosine {min(cosines):.5f}")


if __name__ == "__main__":
    main()
