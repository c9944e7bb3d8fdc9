"""The pool of corpus papers the graded seed queries were judged over (bench/data/search_queries_pooled.json).

    python bench/judge_pool.py OUTDIR [--parts 3] [--fresh]

The seed queries (bench/data/search_queries.json, search_queries_topical.json) grade seed papers only,
so a corpus paper that answers a query counts as a miss among the distractors. This writes, for every
query, the corpus papers that any system (paperscope's three modes and plain BM25, the query in each of
its languages) ranks in its top 10 on the eval library, in a shuffled order that does not say which
system found them, split into `--parts` files for readers to grade on the seed queries' scale
(2 = what the query is after, 1 = a good second answer, 0 = neither). bench/search_eval.py adds the
grades to the seed sets' "pooled" variants; a paper outside the pool stays 0.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from pathlib import Path

import eval_library  # type: ignore[import-not-found]
from search_eval import HERE, plain_bm25, source_ids

from paperscope.library import MODES, Library

DEPTH = 10


def intents(fresh: bool = False) -> list[dict]:
    """Every graded seed query: its key (the English text, or the query as written), its texts. `fresh`:
    those of the fresh held-out set (bench/data/search_queries_fresh.json) instead."""
    data = HERE / "data"
    if fresh:
        written = json.loads((data / "search_queries_fresh.json").read_text(encoding="utf-8"))["queries"]
        return [{"query": item["en"], "texts": [item["en"], item["zh"]]} for item in written]
    written = json.loads((data / "search_queries.json").read_text(encoding="utf-8"))["queries"]
    topical = json.loads((data / "search_queries_topical.json").read_text(encoding="utf-8"))["queries"]
    return [{"query": item["query"], "texts": [item["query"]]} for item in written] + [
        {"query": item["en"], "texts": [item["en"], item["zh"]]} for item in topical
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--parts", type=int, default=3)
    parser.add_argument("--fresh", action="store_true", help="pool the fresh held-out set's queries")
    args = parser.parse_args()
    with Library(eval_library.path()) as library:
        library.warm()
        by_source = source_ids(library)
        seeds = {pid for key, pid in by_source.items() if ".txt:" in key}
        source_of = {pid: key for key, pid in by_source.items() if pid not in seeds}
        bm25 = plain_bm25(library)
        pools = []
        for intent in intents(args.fresh):
            found: set[str] = set()
            for text in intent["texts"]:
                found.update(bm25(text)[:DEPTH])
                for mode in MODES:
                    found.update(hit.paper.id for hit in library.search(text, limit=DEPTH, mode=mode))
            corpus = sorted((pid for pid in found if pid in source_of), key=lambda pid: _shuffled(intent["query"], pid))
            papers = [library.paper(pid) for pid in corpus]
            candidates = [{"source": source_of[p.id], "title": p.title, "abstract": p.abstract} for p in papers]
            pools.append({"query": intent["query"], "texts": intent["texts"], "candidates": candidates})
    args.out.mkdir(parents=True, exist_ok=True)
    total = sum(len(pool["candidates"]) for pool in pools)
    for part in range(args.parts):
        chosen = pools[part :: args.parts]
        (args.out / f"pool-{part + 1}.json").write_text(
            json.dumps(chosen, ensure_ascii=False, indent=1), encoding="utf-8"
        )
    print(f"{len(pools)} queries, {total} corpus papers to grade, in {args.parts} parts under {args.out}")


def _shuffled(query: str, paper_id: str) -> str:
    return hashlib.sha256(f"{query}\0{paper_id}".encode()).hexdigest()


if __name__ == "__main__":
    main()
