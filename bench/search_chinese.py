"""Chinese queries, with and without translation for the words side: nDCG@10 per mode, and what the
translation itself costs per query.

    python bench/search_chinese.py                  # over the 51 seed papers
    python bench/search_chinese.py --library FILE   # over a larger library that holds the seeds
                                                    # (bench/eval_library.py builds the 11.5k one)

The queries are the Chinese ones of bench/data/search_queries.json, graded over the seed papers (in
a larger library every other paper is a distractor). "as typed": the words side searches the Chinese
itself (character bigrams), as before index/translate.py; "translated": as paperscope does now; the
sentence encoder reads the Chinese in both. Beside them, plain BM25 (rank_bm25 over display title
and abstract, lower-case words) on the query as typed and as translated. The glossary was written
with these queries in view: they measure that it works, not how it generalises.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

from rank_bm25 import BM25Okapi
from search_quality import HERE, SEEDS, K, ndcg, source_key  # type: ignore[import-not-found]

from paperscope.index import lexical, translate
from paperscope.library import Library, SearchHit


def labelled(hits: list[SearchHit], relevant: dict[str, int]) -> list[str]:
    ranked = []
    for hit in hits:
        keys = source_key(hit)  # a merged paper counts under whichever of its sources is labelled
        ranked.append(next((k for k in keys if k in relevant), keys[0]))
    return ranked


def words(text: str) -> list[str]:
    return lexical._WORD.findall(text.lower())


def measure(library: Library, queries: list[dict]) -> None:
    started = time.perf_counter()
    translate.warm()
    print(f"loading jieba, the glossary and CC-CEDICT (once per process): {time.perf_counter() - started:.1f} s")
    frequency = library.store.document_frequency
    translations = {}
    costs = []
    for item in queries:
        started = time.perf_counter()
        translations[item["query"]] = translate.translate(item["query"], frequency)
        costs.append((time.perf_counter() - started) * 1000)
    again = []
    for item in queries:
        started = time.perf_counter()
        translate.translate(item["query"], frequency)
        again.append((time.perf_counter() - started) * 1000)
    print(
        f"translation per query (jieba and dictionaries loaded): p50 {statistics.median(costs):.2f} ms, "
        f"max {max(costs):.2f} ms on first sight of its words; "
        f"p50 {statistics.median(again):.2f} ms again"
    )

    papers = list(library.papers())
    bm25 = BM25Okapi([words(f"{p.display_title} {p.abstract}") for p in papers])
    keys = [[f"{s.path}:{s.line}" for s in p.sources] for p in papers]

    def plain(text: str, relevant: dict[str, int]) -> list[str]:
        scores = bm25.get_scores(words(text))
        best = sorted(range(len(papers)), key=lambda i: -scores[i])[:K]
        return [next((k for k in keys[i] if k in relevant), keys[i][0]) for i in best if scores[i] > 0]

    def hybrid_or_lexical(mode: str, translated: bool):
        def run(item: dict) -> list[str]:
            if not translated:  # the words side searches the text as typed, as before translate.py
                library._translation = lambda text: translate.Translation(text, text, ())  # type: ignore[method-assign]
            try:
                return labelled(library.search(item["query"], K, mode=mode), item["relevant"])
            finally:
                library.__dict__.pop("_translation", None)

        return run

    vectors = library.store.count_vectors() > 0  # a library ingested --no-embed: the words side only
    runs = {
        "plain BM25, as typed": lambda item: plain(item["query"], item["relevant"]),
        "plain BM25, translated": lambda item: plain(translations[item["query"]].text, item["relevant"]),
        **{
            f"{mode}, {name}": hybrid_or_lexical(mode, name == "translated")
            for mode in ("lexical", "hybrid")[: 1 + vectors]
            for name in ("as typed", "translated")
        },
    }
    if vectors:
        runs["semantic (reads the Chinese)"] = hybrid_or_lexical("semantic", True)
    print(f"\n{len(queries)} Chinese queries over {len(papers):,} papers: nDCG@10")
    per_query = {name: [ndcg(run(item), item["relevant"]) for item in queries] for name, run in runs.items()}
    for name, scores in per_query.items():
        print(f"  {name:<30} {sum(scores) / len(scores):.3f}")
    mode = "hybrid" if vectors else "lexical"
    print(f"\nper query ({mode} as typed → translated), searched as:")
    before, after = per_query[f"{mode}, as typed"], per_query[f"{mode}, translated"]
    for item, old, new in zip(queries, before, after, strict=True):
        print(f"  {item['query']:<14} {old:.2f} → {new:.2f}   {translations[item['query']].text}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--library", type=Path, help="a library file that holds the seed papers")
    args = parser.parse_args()
    queries = [
        q
        for q in json.loads((HERE / "data" / "search_queries.json").read_text(encoding="utf-8"))["queries"]
        if q["kind"] == "chinese"
    ]
    if args.library:
        with Library(args.library) as library:
            measure(library, queries)
        return
    with tempfile.TemporaryDirectory() as tmp, Library(Path(tmp) / "seeds.db") as library:
        library.ingest([SEEDS])
        measure(library, queries)


if __name__ == "__main__":
    main()
