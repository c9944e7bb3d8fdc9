"""Write the phrases the field only writes inside longer ones (src/paperscope/analyze/data/cut_phrases.txt).

    python bench/cut_phrases.py [--papers 20] [--ending 0.15] [--starting 0.05]

A key phrase is at most three words, so "markov chain monte carlo" gives "markov chain monte", and
topic labels read "markov chain monte", "convolutional neural", "multimodal large language". Such a
phrase is one whose run of content words (paperscope.analyze.phrases) goes on after it in nearly every
paper that uses it: across the corpus, "convolutional neural" ends its run in 0% of its 2,202 papers,
"deep metric" in 4%, while "point cloud" ends it in 44% ("point cloud registration", but "a point
cloud."). Counted over the whole corpus, not one library: in a library of multimedia papers "point
cloud" ended its run in 4% of 27 papers ("point cloud compression"). Kept here: the phrases of two or
three words in at least --papers of the corpus's papers that end their run in fewer than --ending of
them, or start it in fewer than --starting ("chain monte carlo"; a phrase cut at its start reads well
more often: "neural networks" starts its run in 23% of its papers, "language models" 18%).
Prints what was read and kept.
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

from corpus_records import corpus_records

from paperscope.analyze import phrases
from paperscope.assemble import prepare

OUT = Path(__file__).resolve().parent.parent / "src" / "paperscope" / "analyze" / "data" / "cut_phrases.txt"
HEADER = (
    "# Phrases of two or three words in at least {papers} of the corpus's {count:,} papers that end their run\n"
    "# of content words in fewer than {ending:.0%} of them or start it in fewer than {starting:.0%} (title and\n"
    "# abstract, as paperscope.analyze.phrases reads them); written by bench/cut_phrases.py.\n"
)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--papers", type=int, default=20)
    parser.add_argument("--ending", type=float, default=0.15)
    parser.add_argument("--starting", type=float, default=0.05)
    args = parser.parse_args()
    used: Counter[str] = Counter()
    ending: Counter[str] = Counter()
    starting: Counter[str] = Counter()
    count = 0
    for record, _ in corpus_records():
        prepared = prepare(record, "")
        for phrase in set(phrases.phrases_and_edges(f"{prepared.title.text}. {prepared.abstract.text}")):
            if phrase.endswith(phrases.ENDS):
                ending[phrase.removesuffix(phrases.ENDS)] += 1
            elif phrase.startswith(phrases.STARTS):
                starting[phrase.removeprefix(phrases.STARTS)] += 1
            elif " " in phrase:
                used[phrase] += 1
        count += 1
    cut = sorted(
        phrase
        for phrase, papers in used.items()
        if papers >= args.papers
        and (ending[phrase] < args.ending * papers or starting[phrase] < args.starting * papers)
    )
    OUT.parent.mkdir(exist_ok=True)
    header = HEADER.format(papers=args.papers, count=count, ending=args.ending, starting=args.starting)
    OUT.write_text(header + "\n".join(cut) + "\n", encoding="utf-8")
    frequent = sum(papers >= args.papers for papers in used.values())
    print(f"{count:,} papers read; {frequent:,} phrases in {args.papers} or more, {len(cut):,} cut -> {OUT.name}")


if __name__ == "__main__":
    main()
