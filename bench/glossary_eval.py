"""What a change to the Chinese glossary does to search: each Chinese set with an older glossary and with
the shipped one, in one run over the eval library.

    git show <commit>:src/paperscope/index/data/zh_glossary.tsv > old.tsv
    python bench/glossary_eval.py --before old.tsv [--sets known_zh,vague_zh,…] [--queries]

For each set and split (bench/search_eval.py's): MRR@10 or nDCG@10 in lexical and hybrid mode before and
after, how many queries' translations changed, and how many queries rank better or worse in hybrid.
`--queries` prints each changed query with both translations, for tune parts only: held-out and blind
parts are reported as figures, never as queries, so that reading them does not tune the glossary.
"""

from __future__ import annotations

import argparse
import statistics
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import eval_library  # type: ignore[import-not-found]
from search_eval import SPLITS, K, LabelledSet, Query, load_sets  # type: ignore[import-not-found]

from paperscope.index import translate
from paperscope.library import Library

MODES = ("lexical", "hybrid")
CHINESE_SETS = (
    "known_zh,vague_zh,seeds_zh,seeds_zh_pooled,topical_zh,topical_zh_pooled,"
    "known_fresh_zh,known_fresh2_zh,fresh_zh,fresh_zh_pooled"
)


def run(library: Library, sets: list[LabelledSet]) -> dict[tuple[str, str], tuple[str, dict[str, float]]]:
    """(set, query) -> (the query as searched, {mode: score})."""
    found = {}
    for labelled in sets:
        for query in labelled.queries:
            scores = {
                mode: labelled.score([hit.paper.id for hit in library.search(query.text, limit=K, mode=mode)], query)
                for mode in MODES
            }
            found[(labelled.name, query.text)] = (library._translation(query.text).text, scores)
    return found


@contextmanager
def glossary_in_use(library: Library, glossary: dict[str, list[str]]) -> Iterator[None]:
    """Chinese queries translated by `glossary` meanwhile, then by the shipped one again; the library's
    last translation is forgotten both times, so that none made by the other glossary is reused."""
    resources = translate._resources()
    shipped = resources.glossary
    resources.use_glossary(glossary)
    library._translated = None
    try:
        yield
    finally:
        resources.use_glossary(shipped)
        library._translated = None


def report(sets: list[LabelledSet], before: dict, after: dict, show_queries: bool) -> None:
    for labelled in sets:
        for split in SPLITS:
            queries: list[Query] = [q for q in labelled.queries if q.split == split]
            if not queries:
                continue
            keys = [(labelled.name, q.text) for q in queries]
            means = "   ".join(
                f"{mode} {statistics.fmean(before[k][1][mode] for k in keys):.3f}"
                f" → {statistics.fmean(after[k][1][mode] for k in keys):.3f}"
                for mode in MODES
            )
            moved = [after[k][1]["hybrid"] - before[k][1]["hybrid"] for k in keys]
            changed = sum(before[k][0] != after[k][0] for k in keys)
            print(
                f"{labelled.name:18} {split:9} {len(queries):4}  {means}   translations changed {changed},"
                f" hybrid better {sum(m > 1e-9 for m in moved)}, worse {sum(m < -1e-9 for m in moved)}"
            )
            if show_queries and split == "tune":
                for key, move in zip(keys, moved, strict=True):
                    if move:
                        print(f"    {move:+.2f}  {key[1]}")
                        print(f"      before: {before[key][0]}\n      after:  {after[key][0]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, required=True, help="the older glossary file")
    parser.add_argument("--sets", default=CHINESE_SETS)
    parser.add_argument("--queries", action="store_true", help="print the tune parts' changed queries")
    args = parser.parse_args()
    older = translate.read_glossary(args.before.read_text(encoding="utf-8"))
    with Library(eval_library.path()) as library:
        library.warm()
        sets = load_sets(library, args.sets.split(","))
        with glossary_in_use(library, older):
            before = run(library, sets)
        after = run(library, sets)
        papers = library.count()
    shipped = translate._resources().glossary
    print(f"glossary {len(older):,} → {len(shipped):,} terms; {papers:,} papers; MRR@10 or nDCG@10\n")
    report(sets, before, after, args.queries)


if __name__ == "__main__":
    main()
