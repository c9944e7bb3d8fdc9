"""Write the words the whole field writes (src/paperscope/analyze/data/common_words.txt) from the corpus.

    python bench/common_words.py [--share SHARE] [--lists 0.75]

A related paper's reason names words both papers use that are rare in the library. In a small
library rarity says little: among the 51 seeds a word two papers use is "rare", and reasons read
"both about outperform", "both about solution". So a reason also leaves out the words that more
than --share (related.REASON_SHARE, 1%) of the papers use in at least --lists of the corpus's
lists (of 50 papers or more), in their title or abstract as paperscope.analyze.related.words reads
them (lower case, plurals folded). Common in every part of the field, these are how papers write,
not what two papers share; a word common in one part only ("planner", "occlusion" in robotics and
vision lists) stays a reason in a library where it is rare. Prints what was read and kept.
"""

from __future__ import annotations

import argparse
from collections import Counter, defaultdict
from pathlib import Path

from corpus_records import corpus_records

from paperscope.analyze import related
from paperscope.assemble import prepare

OUT = Path(__file__).resolve().parent.parent / "src" / "paperscope" / "analyze" / "data" / "common_words.txt"
SMALLEST_LIST = 50
HEADER = (
    "# Words more than {share:.0%} of the papers use in at least {lists:.0%} of the corpus's {count} lists of\n"
    "# {smallest} papers or more (title and abstract, as paperscope.analyze.related.words reads them);\n"
    "# written by bench/common_words.py.\n"
)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--share", type=float, default=related.REASON_SHARE)
    parser.add_argument("--lists", type=float, default=0.75)
    args = parser.parse_args()
    words: dict[str, Counter[str]] = defaultdict(Counter)  # per list: how many papers use each word
    papers: Counter[str] = Counter()
    for record, list_hash in corpus_records():
        prepared = prepare(record, "")
        words[list_hash].update(set(related.words(f"{prepared.title.text} {prepared.abstract.text}")))
        papers[list_hash] += 1
    lists = [h for h in papers if papers[h] >= SMALLEST_LIST]
    common_in = Counter(w for h in lists for w, n in words[h].items() if n > args.share * papers[h])
    common = sorted(w for w, n in common_in.items() if n >= args.lists * len(lists))
    OUT.parent.mkdir(exist_ok=True)
    header = HEADER.format(share=args.share, lists=args.lists, count=len(lists), smallest=SMALLEST_LIST)
    OUT.write_text(header + "\n".join(common) + "\n", encoding="utf-8")
    print(f"{sum(papers.values()):,} papers in {len(papers)} lists read; {len(common):,} words -> {OUT.name}")


if __name__ == "__main__":
    main()
