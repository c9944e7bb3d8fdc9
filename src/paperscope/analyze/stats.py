"""Statistics of a library: what the stats command and page show."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from paperscope.analyze.benchmarks import Benchmark, ClaimRow, canonical, group, spelled
from paperscope.model import Mentions

TOP = 15


@dataclass
class Stats:
    papers: int = 0
    with_code: int = 0
    venues: list[tuple[str, int]] = field(default_factory=list)  # "ICML 2026", count
    contributions: list[tuple[str, int]] = field(default_factory=list)
    topics: list[tuple[str, int]] = field(default_factory=list)
    benchmarks: list[tuple[str, int]] = field(default_factory=list)
    models: list[tuple[str, int]] = field(default_factory=list)
    by_benchmark: list[Benchmark] = field(default_factory=list)  # one entry per benchmark, its variants and claims

    @property
    def code_share(self) -> float:
        return self.with_code / self.papers if self.papers else 0.0


def compute(
    groups: Iterable[tuple[str | None, int | None, str, int, int]],
    topics: Iterable[tuple[str, int]],
    mentions: Iterable[Mentions],
) -> Stats:
    """The statistics of a library from the number of its papers per (venue, year, contribution, has code)
    met, per topic, and what each paper naming something names."""
    stats = Stats()
    venues, contributions = Counter(), Counter()
    for venue, year, contribution, has_code, papers in groups:
        stats.papers += papers
        stats.with_code += papers if has_code else 0
        venues[" ".join(str(x) for x in (venue, year) if x) or "unknown"] += papers
        contributions[contribution] += papers
    benchmarks, benchmark_papers, models, model_papers = Counter(), Counter(), Counter(), Counter()
    claims: list[ClaimRow] = []
    for paper in mentions:
        benchmarks.update(set(paper.benchmarks))
        benchmark_papers.update({canonical(b) for b in paper.benchmarks})
        models.update(set(paper.models))
        model_papers.update({spelled(m) for m in paper.models})
        claims += [
            ClaimRow(paper.id, paper.display_title, c.value, c.metric, c.baseline, c.text, c.benchmark, c.direction)
            for c in paper.claims
            if c.benchmark
        ]
    claims.sort(key=lambda row: row.paper_id)  # by paper, in whatever order the store read them
    stats.venues = sorted(venues.items(), key=lambda item: item[0])
    stats.contributions = most_common(contributions.items())
    stats.topics = most_common(topics)
    stats.by_benchmark = group(benchmarks, benchmark_papers, claims)
    # One row per benchmark, however papers write it: "CIFAR10" and "CIFAR-10" were two bars.
    stats.benchmarks = most_common((entry.name, entry.papers) for entry in stats.by_benchmark)
    stats.models = most_common(_by_model(models, model_papers))[:TOP]
    return stats


def _by_model(written: Counter[str], papers: Counter[str]) -> list[tuple[str, int]]:
    """One row per model, named as most papers write it, counting the papers that name it any way: "Llama 2",
    "LLaMA-2" and "llama-2" are one (a version is part of a model's name: GPT-4 and GPT-4o are two)."""
    names: dict[str, str] = {}
    for name, _ in most_common(written.items()):
        names.setdefault(spelled(name), name)
    return [(name, papers[key]) for key, name in names.items()]


SHOWN = 20  # the rows a chart or table of counts shows, the largest when there are more


def largest(rows: list[tuple[str, int]], most: int = SHOWN) -> list[tuple[str, int]]:
    """All the rows, or, of more, the `most` largest: the venues, in name order, showed a whole corpus's first
    20 by name, its smallest lists among them."""
    return rows if len(rows) <= most else most_common(rows)[:most]


def most_common(rows: Iterable[tuple[str, int]]) -> list[tuple[str, int]]:
    """(name, count) rows, most first, ties by name: the same library prints the same way."""
    return sorted(rows, key=lambda item: (-item[1], str(item[0])))
