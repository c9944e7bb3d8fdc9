"""The data contract as one JSON array."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TextIO

import orjson

from paperscope.export.format import ExportFormat
from paperscope.model import Paper


def write(papers: Iterable[Paper], out: TextIO) -> None:
    """A JSON array, written paper by paper so that a large library is never held in memory."""
    out.write("[")
    for index, paper in enumerate(papers):
        out.write(",\n" if index else "\n")
        out.write(orjson.dumps(paper.to_dict(), option=orjson.OPT_INDENT_2).decode())
    out.write("\n]\n")


FORMAT = ExportFormat("json", "application/json", "json", write)
