"""Statistics of a library: what the stats command and page show."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from paperscope.analyze.benchmarks import Benchmark, ClaimRow, canonical, group
from paperscope.model import Paper

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


def compute(papers: Iterable[Paper]) -> Stats:
    """One pass over the papers."""
    stats = Stats()
    venues, contributions, topics, benchmarks, models = Counter(), Counter(), Counter(), Counter(), Counter()
    benchmark_papers: Counter[str] = Counter()
    claims: list[ClaimRow] = []
    for paper in papers:
        stats.papers += 1
        stats.with_code += bool(paper.urls.code)
        venues[" ".join(str(x) for x in (paper.venue, paper.year) if x) or "unknown"] += 1
        contributions[paper.contribution] += 1
        topics.update(paper.topics)
        benchmarks.update(set(paper.benchmarks))
        benchmark_papers.update({canonical(b) for b in paper.benchmarks})
        models.update(set(paper.models))
        claims += [
            ClaimRow(paper.id, paper.display_title, c.value, c.metric, c.baseline, c.text, c.benchmark, c.direction)
            for c in paper.claims
            if c.benchmark
        ]
    stats.venues = sorted(venues.items(), key=lambda item: item[0])
    stats.contributions = _most_common(contributions)
    stats.topics = _most_common(topics)
    stats.benchmarks = _most_common(benchmarks)
    stats.models = _most_common(models)[:TOP]
    stats.by_benchmark = group(benchmarks, benchmark_papers, claims)
    return stats


def _most_common(counter: Counter) -> list[tuple[str, int]]:
    """Most first, ties by name: the same library prints the same way."""
    return sorted(counter.items(), key=lambda item: (-item[1], str(item[0])))
