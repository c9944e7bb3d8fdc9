"""Lexical search engines side by side in one run: SQLite FTS5, tantivy and bm25s; latency and quality.

    python bench/lexical_engines.py [--latency FILE] [--skip-quality]

Latency (`--latency FILE`, default the 92.5k library of the bench cache, copied first): warm p50 and
p95, in process, of the store's lexical search as a lexical search calls it (10 results) and as a
hybrid search does (100 results, the "any word" pass skipped once 10 have every word), over 200
titles drawn from the library (seed 7) and the English known-item descriptions (long, many words).
FTS5 is store/fts5.py's search; tantivy is the store's own lexical search, through the index beside
the file (store/tantivy_lexical.py, index/lexical_index.py) built from the same FTS5 documents;
bm25s scores the same documents' words (no field weights, no passes), top 10 and top 100.

Quality: the labelled sets of bench/search_eval.py (tune and held-out parts) on the eval library,
paperscope's lexical and hybrid modes with each engine answering the lexical side, beside bm25s.
"""

from __future__ import annotations

import argparse
import json
import random
import sqlite3
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import bm25s
import eval_library  # type: ignore[import-not-found]
import search_eval  # type: ignore[import-not-found]
from library_copy import eval_library_copy  # type: ignore[import-not-found]
from search_latency import percentiles, timed  # type: ignore[import-not-found]

from paperscope.index import lexical
from paperscope.library import Library
from paperscope.store import fts5
from paperscope.store.core import where
from paperscope.store.dialect import SQLITE

HERE = Path(__file__).resolve().parent
QUERIES = 200
ENGINES = ("fts5", "tantivy")
SETS = ["known_en", "known_zh", "vague_en", "vague_zh", "title", "seeds_en", "seeds_zh"]


def built_index(library: Library) -> None:
    """The store's tantivy index beside its file, built now (as a first search after an ingest would)."""
    started = time.perf_counter()
    index = library.store._lexical.ready()  # type: ignore[attr-defined]
    assert index is not None, "the tantivy index could not be built"
    print(f"tantivy index of {index.count():,} papers built in {time.perf_counter() - started:.1f} s")


def use_engine(library: Library, engine: str) -> None:
    """The library's store answers lexical queries with `engine`: its own (tantivy) or FTS5."""
    store = library.store
    store.__dict__.pop("_search", None)
    if engine == "fts5":

        def search(query, limit, filters, raw, enough):  # type: ignore[no-untyped-def]
            return fts5.search(store.db, query, limit, where(filters, SQLITE), raw, store._frequencies, enough)  # type: ignore[attr-defined]

        store._search = search  # type: ignore[method-assign]


def bm25s_over(library: Library) -> Callable[[str, int], list[str]]:
    db = library.store.db  # type: ignore[attr-defined]
    rows = list(db.execute("SELECT paper_id, " + ", ".join(lexical.COLUMNS) + " FROM papers_fts"))
    ids = [r[0] for r in rows]
    retriever = bm25s.BM25()
    retriever.index(bm25s.tokenize([" ".join(r[1:]) for r in rows], show_progress=False), show_progress=False)

    def search(text: str, k: int) -> list[str]:
        tokens = bm25s.tokenize([text], show_progress=False)
        if not tokens.vocab:
            return []
        found, scores = retriever.retrieve(tokens, k=min(k, len(ids)), show_progress=False)
        return [ids[i] for i, s in zip(found[0], scores[0], strict=True) if s > 0]

    return search


def latency(source: Path) -> None:
    with tempfile.TemporaryDirectory(dir=source.parent) as tmp:
        copy = Path(tmp) / "library.db"
        with sqlite3.connect(f"file:{source}?mode=ro", uri=True) as read, sqlite3.connect(copy) as target:
            read.backup(target)
        with Library(copy) as library:
            papers = [p for p in library.papers() if p.title]
            titles = [p.title for p in random.Random(7).sample(papers, QUERIES)]
            descriptions = [d["en"] for d in json.loads((HERE / "data" / "known_items.json").read_text())["queries"]]
            built_index(library)
            bm25 = bm25s_over(library)
            print(f"{library.count():,} papers; {len(titles)} titles, {len(descriptions)} English descriptions")
            for name, queries in (("titles", titles), ("descriptions", descriptions)):
                for label, limit in (("lexical (10)", 10), ("hybrid's list (100)", 100)):
                    for engine in ENGINES:
                        use_engine(library, engine)

                        def run(text: str, limit: int = limit) -> object:
                            return library.store.search_lexical(lexical.parse(text), limit, enough=10)

                        print(f"  {name:<12} {label:<20} {engine:<8} {percentiles(timed(run, queries))}")
                    times = timed(lambda text, limit=limit: bm25(text, limit), queries)
                    print(f"  {name:<12} {label:<20} {'bm25s':<8} {percentiles(times)}")
            for engine in ENGINES:
                use_engine(library, engine)
                times = timed(lambda text: library.search(text, limit=10, mode="lexical"), titles)
                print(f"  titles       Library.search lexical {engine:<8} {percentiles(times)}")


def quality() -> None:
    with eval_library_copy() as library:
        library.warm()
        built_index(library)
        sets = search_eval.load_sets(library, SETS)
        plain = search_eval.plain_bm25(library)
        results = {}
        for engine in ENGINES:
            use_engine(library, engine)
            systems = {f"{mode}_{engine}": search_eval.paperscope(library, mode) for mode in ("lexical", "hybrid")}
            for name, figures in search_eval.evaluate(sets, systems).items():
                for split, row in figures.items():
                    results.setdefault(name, {}).setdefault(split, {}).update(row)
        for name, figures in search_eval.evaluate(sets, {"bm25": plain}).items():
            for split, row in figures.items():
                results[name][split].update(row)
        columns = [f"{m}_{e}" for m in ("lexical", "hybrid") for e in ENGINES] + ["bm25"]
        print(f"\n{library.count():,} papers (bench/data/eval_library.json, {eval_library.path().name})")
        print(f"{'set':<9} {'split':<9} {'n':>4}  " + "  ".join(f"{c:>15}" for c in columns))
        for labelled in sets:
            for split in search_eval.SPLITS:
                row = results[labelled.name][split]
                print(f"{labelled.name:<9} {split:<9} {row['n']:>4}  " + "  ".join(f"{row[c]:15.3f}" for c in columns))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--latency", type=Path, default=eval_library.cache_dir() / "load-92k.db")
    parser.add_argument("--skip-quality", action="store_true")
    parser.add_argument("--skip-latency", action="store_true")
    args = parser.parse_args()
    if not args.skip_latency:
        latency(args.latency)
    if not args.skip_quality:
        quality()


if __name__ == "__main__":
    main()
