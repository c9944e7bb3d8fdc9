"""Related papers against a judged set: recall@3 and recall@5 over the seed papers.

    python bench/related.py

bench/data/related_judged.json names, for 28 seed papers, the three others most related to each
(judged by reading). Compared side by side: paperscope's related papers (nearest by sentence
vector) and a TF-IDF cosine over the same texts (scikit-learn). Target: recall@5 ≥ 0.8.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import numpy as np
from sklearn.feature_extraction.text import TfidfVectorizer

from paperscope.index import semantic
from paperscope.library import Library

HERE = Path(__file__).resolve().parent
SEEDS = HERE.parent.parent / "shared" / "seeds"


def recall(found: list[str], wanted: list[str], k: int) -> float:
    return len(set(found[:k]) & set(wanted)) / len(wanted)


def main() -> None:
    judged = json.loads((HERE / "data" / "related_judged.json").read_text(encoding="utf-8"))["judged"]
    with tempfile.TemporaryDirectory() as tmp, Library(Path(tmp) / "seeds.db") as library:
        library.ingest([SEEDS])
        papers = list(library.papers())
        tfidf = TfidfVectorizer(sublinear_tf=True, stop_words="english").fit_transform(
            [semantic.text_of(p) for p in papers])
        similarity = (tfidf @ tfidf.T).toarray()
        position = {p.id: i for i, p in enumerate(papers)}

        def by_tfidf(pid: str) -> list[str]:
            order = np.argsort(-similarity[position[pid]])
            return [papers[i].id for i in order if papers[i].id != pid][:5]

        methods = {"paperscope related": lambda pid: [r.paper.id for r in library.related(pid, 5)],
                   "TF-IDF cosine": by_tfidf}  # fmt: skip
        print(f"{len(judged)} judged seed papers, 3 related papers each; target recall@5 ≥ 0.8")
        for name, related in methods.items():
            found = {pid: related(pid) for pid in judged}
            r3 = sum(recall(found[p], w, 3) for p, w in judged.items()) / len(judged)
            r5 = sum(recall(found[p], w, 5) for p, w in judged.items()) / len(judged)
            print(f"  {name:<20} recall@3 {r3:.3f}   recall@5 {r5:.3f}")


if __name__ == "__main__":
    main()
