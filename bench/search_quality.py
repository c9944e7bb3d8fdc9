"""Search quality on the seed papers: nDCG@10 and recall@10 per mode and per kind of query.

    python bench/search_quality.py

The queries (bench/data/search_queries.json) were written by reading the 51 seed papers, with
graded relevance: 2 for what a query is after, 1 for a good second answer. Each mode runs over a
library ingested from ../shared/seeds. Modes not built yet are not listed (only lexical, so far).
"""

from __future__ import annotations

import json
import math
import tempfile
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

from paperscope.library import Library, SearchHit

HERE = Path(__file__).resolve().parent
SEEDS = HERE.parent.parent / "shared" / "seeds"
K = 10
TARGETS = "targets: hybrid nDCG@10 ≥ 0.85 overall, ≥ 0.75 on Chinese queries; hybrid above both single modes"


MODES: dict[str, Callable[[Library, str], list[SearchHit]]] = {
    mode: lambda library, query, mode=mode: library.search(query, limit=K, mode=mode)
    for mode in ("lexical", "semantic", "hybrid")
}


def ndcg(ranked: list[str], relevant: dict[str, int]) -> float:
    gains = [relevant.get(key, 0) for key in ranked[:K]]
    dcg = sum((2**g - 1) / math.log2(i + 2) for i, g in enumerate(gains))
    ideal = sorted(relevant.values(), reverse=True)[:K]
    best = sum((2**g - 1) / math.log2(i + 2) for i, g in enumerate(ideal))
    return dcg / best if best else 0.0


def recall(ranked: list[str], relevant: dict[str, int]) -> float:
    return len(set(ranked[:K]) & set(relevant)) / len(relevant)


def source_key(hit: SearchHit) -> list[str]:
    return [f"{s.path}:{s.line}" for s in hit.paper.sources]


def main() -> None:
    queries = json.loads((HERE / "data" / "search_queries.json").read_text(encoding="utf-8"))["queries"]
    with tempfile.TemporaryDirectory() as tmp, Library(Path(tmp) / "seeds.db") as library:
        library.ingest([SEEDS])
        print(f"{len(queries)} queries over {library.count()} seed papers; {TARGETS}")
        for mode, run in MODES.items():
            by_kind: dict[str, list[tuple[float, float]]] = defaultdict(list)
            for item in queries:
                relevant = item["relevant"]
                ranked = []
                for hit in run(library, item["query"]):
                    keys = source_key(hit)  # a merged paper counts under whichever of its sources is labelled
                    ranked.append(next((k for k in keys if k in relevant), keys[0]))
                by_kind[item["kind"]].append((ndcg(ranked, relevant), recall(ranked, relevant)))
            by_kind["all"] = [pair for kind in list(by_kind) for pair in by_kind[kind]]
            print(f"\n{mode}")
            for kind, pairs in by_kind.items():
                n = len(pairs)
                print(
                    f"  {kind:<11} n={n:<3} nDCG@10 {sum(p[0] for p in pairs) / n:.3f}"
                    f"   recall@10 {sum(p[1] for p in pairs) / n:.3f}"
                )


if __name__ == "__main__":
    main()
