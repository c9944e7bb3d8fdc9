"""Known-item search on the real corpus: find a paper by its title when the title is not indexed.

    python bench/known_item.py [--papers 10000] [--queries 2000]

A random sample of corpus papers with abstracts (default 10,000: embedding all 92k takes ~12
minutes here, so a sample is indexed) is written as one paper list with every title removed, and
ingested (and embedded). Each of 2,000 sampled titles is then a query; its own paper must come
first. Reported per mode: MRR@10, and how often the paper is first and in the top 10.
Target: hybrid MRR@10 ≥ 0.9.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import tempfile
import time
from pathlib import Path

from paperscope.library import MODES, Library

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus" / "paperlists"


def sample(n: int, seed: int = 11) -> list[dict]:
    items = []
    for path in sorted(CORPUS.iterdir()):
        for item in json.loads(gzip.decompress(path.read_bytes())):
            if item.get("title") and item.get("abstract") and len(item["abstract"]) > 200:
                items.append({**item, "id": f"{path.name.split('.')[0]}:{item.get('id', len(items))}"})
    return random.Random(seed).sample(items, n)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--papers", type=int, default=10_000)
    parser.add_argument("--queries", type=int, default=2_000)
    args = parser.parse_args()
    items = sample(args.papers)
    with tempfile.TemporaryDirectory() as tmp:
        listing = Path(tmp) / "sample2026.json"
        listing.write_text(json.dumps([{k: v for k, v in i.items() if k != "title"} for i in items]))
        with Library(Path(tmp) / "known.db") as library:
            started = time.perf_counter()
            report = library.ingest([listing])
            print(
                f"{report.papers:,} papers (titles withheld) ingested and embedded in "
                f"{time.perf_counter() - started:.0f} s ({report.seconds.get('embed', 0):.0f} s embedding: "
                f"{report.vectors_computed / max(report.seconds.get('embed', 1), 1e-9):.0f} abstracts/s)"
            )
            targets = random.Random(5).sample(items, args.queries)
            want = {}
            for item in targets:
                paper = library.store.paper_by_external_id(item["id"])
                if paper:
                    want[item["title"]] = paper.id
            print(f"{len(want):,} title queries; the paper must come first\n")
            for mode in MODES:
                reciprocal, first, top10 = 0.0, 0, 0
                started = time.perf_counter()
                for title, paper_id in want.items():
                    ranked = [h.paper.id for h in library.search(title, limit=10, mode=mode)]
                    if paper_id in ranked:
                        rank = ranked.index(paper_id) + 1
                        reciprocal += 1 / rank
                        first += rank == 1
                        top10 += 1
                n = len(want)
                print(
                    f"  {mode:<9} MRR@10 {reciprocal / n:.3f}   first {first / n:.1%}   top 10 {top10 / n:.1%}"
                    f"   ({(time.perf_counter() - started) / n * 1000:.1f} ms/query)"
                )


if __name__ == "__main__":
    main()
