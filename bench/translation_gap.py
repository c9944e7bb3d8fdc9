"""What a query loses by being typed in Chinese: English queries and their Chinese twins over the eval library.

    python bench/translation_gap.py [--queries]

bench/data/translation_pairs.json holds 438 pairs. Helpers wrote them after reading one corpus paper
each (of the eval library's lists): the query a researcher would type to find papers on its topic, and
the same search as a Chinese-speaking researcher would type it, without seeing the glossary or running
the translator: 320 first, then 118 more after the first batch's tune part had taught the glossary.
A pair is held out when the SHA-1 of its English is 0 modulo 3 (about a third); the glossary may be
taught from the tune part only.

No relevance was judged: the English query's own results stand for what its twin should find. Per
split, in one run:
- terms: the share of the English query's words (stop words aside, either number) in the English
  that the Chinese query was searched as;
- overlap@10: of the papers the English query ranks in its first 10, the share its Chinese twin ranks
  in its first 10 (both hybrid);
- source MRR@10: where the paper a pair was written from ranks, for the English query (hybrid, plain
  BM25) and for the Chinese one (hybrid, and plain BM25 of the Chinese as typed: the baseline).
Each Chinese figure is given twice: translated with the project's glossary, and with CC-CEDICT alone
(the glossary emptied). `--queries` prints the tune part's pairs whose translation misses a word.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import statistics
from dataclasses import dataclass
from pathlib import Path

import eval_library  # type: ignore[import-not-found]
from glossary_eval import glossary_in_use  # type: ignore[import-not-found]
from search_eval import SPLITS, K, paperscope, plain_bm25, reciprocal_rank, source_ids  # type: ignore[import-not-found]

from paperscope.index import lexical
from paperscope.library import Library

PAIRS = Path(__file__).resolve().parent / "data" / "translation_pairs.json"
CHINESE = ("terms", "overlap", "source")


@dataclass(frozen=True)
class Pair:
    en: str
    zh: str
    source: str  # the paper's id

    @property
    def split(self) -> str:
        return "held_out" if int(hashlib.sha1(self.en.encode()).hexdigest(), 16) % 3 == 0 else "tune"


def english_words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z0-9]+", text.lower()) if w not in lexical._STOPWORDS}


def term_share(english: str, searched: str) -> float:
    """The share of the English query's words that the translation holds, in either number."""
    wanted = english_words(english)
    found = english_words(searched)
    held = {w for w in wanted if w in found or any(form in found for form in lexical.other_forms(w))}
    return len(held) / len(wanted) if wanted else 1.0


def overlap(ranked: list[str], reference: list[str]) -> float:
    return len(set(ranked[:K]) & set(reference[:K])) / len(reference[:K]) if reference else 0.0


def load_pairs(library: Library) -> list[Pair]:
    by_source = source_ids(library)
    pairs = json.loads(PAIRS.read_text(encoding="utf-8"))["pairs"]
    return [Pair(p["en"], p["zh"], by_source[p["from"]]) for p in pairs]


def chinese_figures(library: Library, pairs: list[Pair], english_top: dict[str, list[str]]) -> dict[Pair, dict]:
    hybrid = paperscope(library, "hybrid")
    figures = {}
    for pair in pairs:
        searched = library._translation(pair.zh).text
        ranked = hybrid(pair.zh)
        figures[pair] = {
            "searched": searched,
            "terms": term_share(pair.en, searched),
            "overlap": overlap(ranked, english_top[pair.en]),
            "source": reciprocal_rank(ranked, {pair.source: 1}),
        }
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", action="store_true", help="print the tune part's pairs missing a word")
    args = parser.parse_args()
    with Library(eval_library.path()) as library:
        library.warm()
        pairs = load_pairs(library)
        hybrid, bm25 = paperscope(library, "hybrid"), plain_bm25(library)
        english_top = {pair.en: hybrid(pair.en) for pair in pairs}
        english = {
            pair: {
                "source": reciprocal_rank(english_top[pair.en], {pair.source: 1}),
                "bm25": reciprocal_rank(bm25(pair.en), {pair.source: 1}),
                "bm25_zh": reciprocal_rank(bm25(pair.zh), {pair.source: 1}),
            }
            for pair in pairs
        }
        with_glossary = chinese_figures(library, pairs, english_top)
        with glossary_in_use(library, {}):
            without = chinese_figures(library, pairs, english_top)
        papers = library.count()
    print(f"{len(pairs)} pairs over {papers:,} papers (bench/data/eval_library.json); means per split\n")
    print(table(pairs, english, with_glossary, without))
    if args.queries:
        for pair in pairs:
            found = with_glossary[pair]
            if pair.split == "tune" and found["terms"] < 1:
                print(f"\n{found['terms']:.2f} {found['overlap']:.1f}  {pair.zh}")
                print(f"  en: {pair.en}\n  as: {found['searched']}")


def table(pairs: list[Pair], english: dict[Pair, dict], glossary: dict[Pair, dict], cedict: dict[Pair, dict]) -> str:
    lines = [
        f"{'split':<9} {'n':>4}  source MRR@10: en hybrid, en bm25, zh bm25 as typed"
        "  | zh hybrid with the glossary / CC-CEDICT alone: terms, overlap@10, source MRR@10"
    ]
    for split in SPLITS:
        chosen = [p for p in pairs if p.split == split]

        def mean(figures: dict[Pair, dict], key: str, chosen: list[Pair] = chosen) -> float:
            return statistics.fmean(figures[p][key] for p in chosen)

        chinese = "  ".join(f"{key} {mean(glossary, key):.3f} / {mean(cedict, key):.3f}" for key in CHINESE)
        lines.append(
            f"{split:<9} {len(chosen):>4}  {mean(english, 'source'):.3f}, {mean(english, 'bm25'):.3f},"
            f" {mean(english, 'bm25_zh'):.3f}  | {chinese}"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    main()
