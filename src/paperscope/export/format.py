"""What an export format declares of itself, in its own module: the CLI, the API and the web pages
read all they know of a format from it (through the registry, paperscope.export.FORMATS)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class ExportFormat:
    name: str  # `paperscope export --format NAME`, `/api/export?format=NAME`
    media_type: str  # the API's Content-Type
    extension: str  # a download is named papers.EXTENSION
    write: Callable[..., None]  # write(papers, out), and write(papers, out, keys) when `cites`
    cites: bool = False  # a reference format: each paper cited by its stored key, withdrawn placeholders left out
    on_paper_page: bool = True  # offered as a download on a paper's page
