"""Input formats, one module per format, each declaring its FORMAT (name, sniff, read, options: see
format.py); a file's format is the first in FORMATS whose sniff accepts its first bytes. Adding a
format is its module and its place in FORMATS.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from paperscope.errors import InputError, PaperscopeError
from paperscope.sources import arxiv, bibtex, csl, listing, openreview, paperlists, ris, semantic_scholar, table, zotero
from paperscope.sources.files import read_head, read_json
from paperscope.sources.format import InputFormat, Option

# Most specific first: CSL-JSON is also a JSON array with titles; a listing page accepts almost any text.
FORMATS: list[InputFormat] = [
    module.FORMAT
    for module in (openreview, semantic_scholar, zotero, csl, paperlists, arxiv, bibtex, ris, table, listing)
]
OPTIONS: dict[str, Option] = {option.name: option for f in FORMATS for option in f.options}


def format_of(path: Path) -> InputFormat:
    """The input format whose sniff accepts the file's first bytes."""
    head = read_head(path)
    if not head.strip():
        raise InputError(path.name, None, "empty file")
    for source_format in FORMATS:
        if source_format.sniff(path.name, head):
            return source_format
    if head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith((b"{", b"[")):
        read_json(path)  # broken JSON is named as such, with its line
        raise InputError(
            path.name,
            None,
            "unknown format: JSON, but not paper-list JSON, OpenReview notes, CSL-JSON, Better BibTeX JSON "
            "or Semantic Scholar JSON",
        )
    raise InputError(
        path.name,
        None,
        "unknown format: not a listing page, paper-list JSON, OpenReview notes, arXiv "
        "feed, BibTeX, RIS, CSL-JSON, Better BibTeX JSON, Semantic Scholar JSON or CSV",
    )


def parse_options(given: Mapping[str, Sequence[str]]) -> dict[str, object]:
    """The formats' options as given (name → values), parsed; an option given no value is left out."""
    unknown = sorted(set(given) - OPTIONS.keys())
    if unknown:
        raise PaperscopeError(f"no input format takes an option {unknown[0]!r}; options: {', '.join(OPTIONS)}")
    return {name: OPTIONS[name].parse(list(values)) for name, values in given.items() if values}
