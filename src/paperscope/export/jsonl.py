"""The data contract as JSON Lines: one paper per line."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TextIO

import orjson

from paperscope.export.format import ExportFormat
from paperscope.model import Paper


def write(papers: Iterable[Paper], out: TextIO) -> None:
    for paper in papers:
        out.write(orjson.dumps(paper.to_dict()).decode())
        out.write("\n")


# Not on a paper's page: for one paper it is the json download on one line.
FORMAT = ExportFormat("jsonl", "application/x-ndjson", "jsonl", write, on_paper_page=False)
