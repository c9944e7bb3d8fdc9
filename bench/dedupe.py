"""The figures behind the dedupe rules: similar pairs in the whole corpus, and what the rules do with them.

    python bench/dedupe.py

Every record of ../shared/corpus/paperlists is cleaned; pairs that share a MinHash band or a title
are verified on exact shingle Jaccard, and counted by similarity and by how their titles and
venues relate. The decisions column is what paperscope does with such a pair.
"""

from __future__ import annotations

import itertools
import time
from collections import Counter
from pathlib import Path

from paperscope import dedupe
from paperscope.assemble import prepare
from paperscope.sources import format_of

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus" / "paperlists"
BINS = [0.0, 0.3, 0.5, 0.7, 0.8, 0.9, 0.95, 1.01]


def main() -> None:
    started = time.perf_counter()
    prepared = [prepare(r, path.name) for path in sorted(CORPUS.iterdir()) for r in format_of(path).read(path)]
    units = [p.unit for p in prepared]
    representatives = sorted({u.key: i for i, u in reversed(list(enumerate(units)))}.values())
    pairs = dedupe._similar_pairs(units, representatives)
    grouping = dedupe.group(units)
    elapsed = time.perf_counter() - started
    table: Counter[tuple[str, str]] = Counter()
    for a, b, similarity in pairs:
        ua, ub = units[a], units[b]
        titles = "same title" if ua.title and ua.title == ub.title else "different titles"
        venues = "same venue" if ua.venue == ub.venue else "different venues"
        band = next(f"{lo:.2f}–{hi:.2f}" for lo, hi in itertools.pairwise(BINS) if lo <= similarity < hi)
        table[(f"{titles}, {venues}", band)] += 1
    print(
        f"{len(prepared):,} records, {len(representatives):,} distinct exact keys, {len(pairs):,} candidate pairs"
        f" verified, in {elapsed:.0f} s"
    )
    print(f"exact duplicates merged: {len(prepared) - len(representatives):,} records")
    print(
        f"near duplicates merged: {len(grouping.near_merges)} pairs; similar pairs held apart by a title or venue "
        f"conflict: {len(grouping.held_apart)}"
    )
    kinds = sorted({kind for kind, _ in table})
    bands = [f"{lo:.2f}–{hi:.2f}" for lo, hi in itertools.pairwise(BINS)]
    print(f"\n{'jaccard':>11} | " + " | ".join(f"{k:>34}" for k in kinds))
    for band in bands:
        print(f"{band:>11} | " + " | ".join(f"{table[(k, band)]:>34}" for k in kinds))
    print("\nexamples of merged near duplicates:")
    for a, b, similarity in grouping.near_merges[:8]:
        print(f"  {similarity:.2f}  {prepared[a].where} ~ {prepared[b].where}: {prepared[a].raw.title!r}")


if __name__ == "__main__":
    main()
