"""One row per paper, lists joined with "; ", for spreadsheets."""

from __future__ import annotations

import csv as _csv
from collections.abc import Iterable
from typing import TextIO

from paperscope.export.format import ExportFormat
from paperscope.model import Paper

COLUMNS = [
    "id",
    "display_title",
    "title",
    "name",
    "name_expansion",
    "venue",
    "year",
    "status",
    "authors",
    "abstract",
    "code",
    "other_urls",
    "pdf",
    "site",
    "models",
    "benchmarks",
    "contribution",
    "keywords",
    "sources",
]


def row(paper: Paper) -> list[str | int | None]:
    join = "; ".join
    return [
        paper.id,
        paper.display_title,
        paper.title,
        paper.name,
        paper.name_expansion,
        paper.venue,
        paper.year,
        paper.status,
        join(paper.authors),
        paper.abstract,
        join(paper.urls.code),
        join(paper.urls.other),
        paper.urls.pdf,
        paper.urls.site,
        join(paper.models),
        join(paper.benchmarks),
        paper.contribution,
        join(paper.keywords),
        join(f"{s.path}:{s.line}" for s in paper.sources),
    ]


def write(papers: Iterable[Paper], out: TextIO) -> None:
    writer = _csv.writer(out)
    writer.writerow(COLUMNS)
    for paper in papers:
        writer.writerow(row(paper))


FORMAT = ExportFormat("csv", "text/csv", "csv", write)
