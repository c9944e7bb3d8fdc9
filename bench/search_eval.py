"""Search quality at library scale: every labelled set, tune and held-out parts, beside plain BM25, in one run.

    python bench/search_eval.py [--json] [--sets known_en,known_zh,title,seeds_en,seeds_zh,topical_en,topical_zh]

The library is bench/data/eval_library.json (~11.5k papers, built once and cached: bench/eval_library.py).
Sets, each split into a tune part (what fusion weights may be chosen on) and a held-out part (not tuned
on by bench/fusion_tune.py unless --seen; earlier rounds read them, and the shipped weights were chosen
with --seen, so the blind figures are the fresh_* sets below):
- known_en / known_zh: one paper looked for by a description in English / Chinese
  (bench/data/known_items.json, split as labelled there); MRR@10.
- known_fresh_en / known_fresh_zh: the same kind of queries for 80 other papers, written after the
  shipped weights were chosen and never tuned on (bench/data/known_items_fresh.json); all held out.
- known_fresh2_en / known_fresh2_zh: 80 more papers, written the same way to judge an expansion of the
  Chinese glossary after known_fresh had been looked at for it (bench/data/known_items_fresh2.json);
  all held out.
- vague_en / vague_zh: the same, by vaguer descriptions in everyday words, without the paper's
  rare words (bench/data/known_items_vague.json); MRR@10. Not used to tune the fusion.
- title: TITLES corpus titles (unique in the library) sampled with a fixed seed, every other one
  held out; MRR@10.
- seeds_en / seeds_zh: every graded seed query among the distractors; nDCG@10. They join the queries of
  bench/data/search_queries.json (every fourth held out) and the topical ones below.
- topical_en / topical_zh: the topical queries of bench/data/search_queries_topical.json alone, each in
  English and Chinese, split as labelled there (alternating, fixed when written); nDCG@10.
- fresh_en / fresh_zh (and _pooled): the fresh held-out set, bench/data/search_queries_fresh.json, 40
  queries over the seed papers in English and Chinese, with corpus papers readers graded
  (search_queries_fresh_pooled.json). It was written after the held-out parts above had been read in
  earlier rounds of tuning (so those no longer tell blind; bench/fusion_tune.py --seen tunes on them),
  and is never tuned on. Every query is held out.
- *_pooled: the seed and topical sets again, where the corpus papers readers graded for each query
  (bench/data/search_queries_pooled.json, pooled by bench/judge_pool.py) count too: a corpus paper on
  speculative decoding answers "speculative decoding" as well as the seed paper does.
Systems: paperscope's lexical, semantic and hybrid modes, and plain BM25 (bm25s over the same
title + abstract texts the encoder sees). Hybrid latency: p50 and p95 over every hybrid query run.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import re
import statistics
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import bm25s
import eval_library  # type: ignore[import-not-found]

from paperscope.index import semantic
from paperscope.library import MODES, Library

HERE = Path(__file__).resolve().parent
K = 10
TITLES = 600
SPLITS = ("tune", "held_out")
SYSTEMS = (*MODES, "bm25")
TARGETS = {
    ("known_en", "MRR@10"): 0.85,
    ("known_zh", "MRR@10"): 0.80,
    ("known_fresh_en", "MRR@10"): 0.85,
    ("known_fresh_zh", "MRR@10"): 0.80,
    ("known_fresh2_en", "MRR@10"): 0.85,
    ("known_fresh2_zh", "MRR@10"): 0.80,
    ("seeds_en", "nDCG@10"): 0.75,
    ("seeds_zh", "nDCG@10"): 0.70,
    ("title", "MRR@10"): 0.95,
}


@dataclass
class Query:
    text: str
    relevant: dict[str, int]  # paper id -> grade (known items: the one paper, grade 1)
    split: str


@dataclass
class LabelledSet:
    name: str
    metric: str  # "MRR@10" or "nDCG@10"
    queries: list[Query] = field(default_factory=list)

    def score(self, ranked: list[str], query: Query) -> float:
        return (ndcg if self.metric == "nDCG@10" else reciprocal_rank)(ranked, query.relevant)


def ndcg(ranked: list[str], relevant: dict[str, int]) -> float:
    dcg = sum((2 ** relevant.get(pid, 0) - 1) / math.log2(i + 2) for i, pid in enumerate(ranked[:K]))
    ideal = sum((2**g - 1) / math.log2(i + 2) for i, g in enumerate(sorted(relevant.values(), reverse=True)[:K]))
    return dcg / ideal if ideal else 0.0


def reciprocal_rank(ranked: list[str], relevant: dict[str, int]) -> float:
    return next((1 / (i + 1) for i, pid in enumerate(ranked[:K]) if pid in relevant), 0.0)


def source_ids(library: Library) -> dict[str, str]:
    """ "file:line" of every source -> the paper read from it."""
    return {f"{s.path}:{s.line}": p.id for p in library.papers() for s in p.sources}


def seed_sets(by_source: dict[str, str]) -> list[LabelledSet]:
    """seeds_en / seeds_zh (every graded seed query) and topical_en / topical_zh (the topical file's part),
    each also "_pooled": with the corpus papers graded for the query (bench/data/search_queries_pooled.json)."""
    data = HERE / "data"
    queries = json.loads((data / "search_queries.json").read_text(encoding="utf-8"))["queries"]
    topical = json.loads((data / "search_queries_topical.json").read_text(encoding="utf-8"))["queries"]
    graded = _GradedSets(["seeds_en", "seeds_zh", "topical_en", "topical_zh"], "search_queries_pooled.json", by_source)
    for i, item in enumerate(queries):
        language = "zh" if item["kind"] == "chinese" else "en"
        graded.add(f"seeds_{language}", item["query"], item["query"], item["relevant"], SPLITS[i % 4 == 3])
    for item in topical:
        for language in ("en", "zh"):
            for kind in ("seeds", "topical"):
                graded.add(f"{kind}_{language}", item[language], item["en"], item["relevant"], item["split"])
    return list(graded.sets.values())


def fresh_sets(by_source: dict[str, str]) -> list[LabelledSet]:
    """fresh_en / fresh_zh, and "_pooled" with the corpus papers readers graded: the fresh held-out set
    (bench/data/search_queries_fresh.json), written after the other sets' held-out parts had been read
    in tuning, and never tuned on. Every query is held out."""
    queries = json.loads((HERE / "data" / "search_queries_fresh.json").read_text(encoding="utf-8"))["queries"]
    graded = _GradedSets(["fresh_en", "fresh_zh"], "search_queries_fresh_pooled.json", by_source)
    for item in queries:
        for language in ("en", "zh"):
            graded.add(f"fresh_{language}", item[language], item["en"], item["relevant"], item["split"])
    return list(graded.sets.values())


class _GradedSets:
    """Graded query sets (nDCG@10), each beside its "_pooled" twin, where the corpus papers readers graded
    for a query (`pooled_file`, keyed by the query's English text) count too."""

    def __init__(self, names: list[str], pooled_file: str, by_source: dict[str, str]) -> None:
        self.by_source = by_source
        self.pooled = json.loads((HERE / "data" / pooled_file).read_text(encoding="utf-8"))["grades"]
        self.sets = {each: LabelledSet(each, "nDCG@10") for name in names for each in (name, f"{name}_pooled")}

    def add(self, name: str, text: str, key: str, relevant: dict[str, int], split: str) -> None:
        strict = _grades(relevant, self.by_source)
        corpus = _grades({source: grade for source, grade in self.pooled[key].items() if grade}, self.by_source)
        self.sets[name].queries.append(Query(text, strict, split))
        self.sets[f"{name}_pooled"].queries.append(Query(text, strict | corpus, split))


def _grades(relevant: dict[str, int], by_source: dict[str, str]) -> dict[str, int]:
    """Grades by paper id: a paper read from two seed files keeps its higher grade."""
    grades: dict[str, int] = {}
    for key, grade in relevant.items():
        grades[by_source[key]] = max(grade, grades.get(by_source[key], 0))
    return grades


def known_item_sets(
    by_source: dict[str, str], name: str = "known", file: str = "known_items.json"
) -> list[LabelledSet]:
    """The description queries of a known-item file in bench/data (none while it does not exist)."""
    path = HERE / "data" / file
    if not path.exists():
        return []
    data = json.loads(path.read_text(encoding="utf-8"))
    sets = {language: LabelledSet(f"{name}_{language}", "MRR@10") for language in ("en", "zh")}
    for item in data["queries"]:
        paper_id = by_source[item["source"]]
        for language, labelled in sets.items():
            if item.get(language):
                labelled.queries.append(Query(item[language], {paper_id: 1}, item["split"]))
    return list(sets.values())


def title_set(library: Library) -> LabelledSet:
    """Corpus titles that name one paper only, sampled with a fixed seed; every other one held out."""
    papers = [(p.id, p.title) for p in library.papers() if p.title and not p.sources[0].path.endswith(".txt")]
    counts = Counter(_normal(title) for _, title in papers)
    unique = sorted((pid, title) for pid, title in papers if counts[_normal(title)] == 1)
    chosen = random.Random(17).sample(unique, min(TITLES, len(unique)))
    return LabelledSet("title", "MRR@10", [Query(t, {pid: 1}, SPLITS[i % 2]) for i, (pid, t) in enumerate(chosen)])


def _normal(title: str) -> str:
    return " ".join(re.findall(r"\w+", title.lower()))


def plain_bm25(library: Library) -> Callable[[str], list[str]]:
    """bm25s over the same title + abstract texts the encoder sees: the baseline."""
    papers = list(library.papers())
    ids = [p.id for p in papers]
    retriever = bm25s.BM25()
    retriever.index(
        bm25s.tokenize([semantic.text_of(p) for p in papers], stopwords="en", show_progress=False), show_progress=False
    )

    def search(text: str) -> list[str]:
        tokens = bm25s.tokenize([text], stopwords="en", show_progress=False)
        if not tokens.vocab:
            return []
        found, scores = retriever.retrieve(tokens, k=K, show_progress=False)
        return [ids[i] for i, s in zip(found[0], scores[0], strict=True) if s > 0]

    return search


def paperscope(library: Library, mode: str) -> Callable[[str], list[str]]:
    return lambda text: [hit.paper.id for hit in library.search(text, limit=K, mode=mode)]


def evaluate(
    sets: list[LabelledSet],
    systems: dict[str, Callable[[str], list[str]]],
    timings: dict[str, list[float]] | None = None,
) -> dict:
    """{set: {split: {system: mean score, "n": queries}}}; times every query into `timings` by system."""
    results: dict = {}
    for labelled in sets:
        for split in SPLITS:
            queries = [q for q in labelled.queries if q.split == split]
            row: dict[str, float] = {"n": len(queries)}
            for name, run in systems.items():
                scores = []
                for query in queries:
                    started = time.perf_counter()
                    ranked = run(query.text)
                    if timings is not None:
                        timings.setdefault(name, []).append(time.perf_counter() - started)
                    scores.append(labelled.score(ranked, query))
                row[name] = round(statistics.fmean(scores), 3) if scores else float("nan")
            results.setdefault(labelled.name, {})[split] = row
    return results


def load_sets(library: Library, names: list[str]) -> list[LabelledSet]:
    by_source = source_ids(library)
    sets = [
        *known_item_sets(by_source),
        *known_item_sets(by_source, "vague", "known_items_vague.json"),
        *known_item_sets(by_source, "known_fresh", "known_items_fresh.json"),
        *known_item_sets(by_source, "known_fresh2", "known_items_fresh2.json"),
        title_set(library),
        *seed_sets(by_source),
        *fresh_sets(by_source),
    ]
    return [s for s in sets if s.name in names]


def table(results: dict, sets: list[LabelledSet]) -> str:
    lines = [f"{'set':<18} {'metric':<8} {'split':<9} {'n':>4}  " + "  ".join(f"{s:>8}" for s in SYSTEMS) + "  target"]
    for labelled in sets:
        for split in SPLITS:
            row = results[labelled.name][split]
            target = TARGETS.get((labelled.name, labelled.metric))
            mark = (
                ""
                if target is None or split == "tune"
                else f"  ≥ {target:.2f} {'met' if row['hybrid'] >= target else 'MISSED'}"
            )
            lines.append(
                f"{labelled.name:<18} {labelled.metric:<8} {split:<9} {row['n']:>4}  "
                + "  ".join(f"{row[s]:8.3f}" for s in SYSTEMS)
                + mark
            )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--sets",
        default="known_en,known_zh,vague_en,vague_zh,title,seeds_en,seeds_zh,topical_en,topical_zh,"
        "seeds_en_pooled,seeds_zh_pooled,topical_en_pooled,topical_zh_pooled,"
        "fresh_en,fresh_zh,fresh_en_pooled,fresh_zh_pooled,known_fresh_en,known_fresh_zh,"
        "known_fresh2_en,known_fresh2_zh",
    )
    args = parser.parse_args()
    with Library(eval_library.path()) as library:
        library.warm()
        sets = load_sets(library, args.sets.split(","))
        systems = {mode: paperscope(library, mode) for mode in MODES} | {"bm25": plain_bm25(library)}
        timings: dict[str, list[float]] = {}
        results = evaluate(sets, systems, timings)
        papers = library.count()
    hybrid = sorted(timings["hybrid"])
    latency = {
        "p50_ms": round(statistics.median(hybrid) * 1000, 2),
        "p95_ms": round(hybrid[int(len(hybrid) * 0.95) - 1] * 1000, 2),
        "queries": len(hybrid),
    }
    if args.json:
        print(json.dumps({"papers": papers, "results": results, "hybrid_latency": latency}, indent=1))
        return
    print(f"{papers:,} papers (bench/data/eval_library.json); {', '.join(s.name for s in sets)}\n")
    print(table(results, sets))
    print(
        f"\nhybrid latency over {latency['queries']} queries: "
        f"p50 {latency['p50_ms']:.1f} ms, p95 {latency['p95_ms']:.1f} ms"
    )


if __name__ == "__main__":
    main()
