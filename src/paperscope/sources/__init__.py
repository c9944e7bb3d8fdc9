"""Readers, one module per input format, chosen by sniffing the content.

A reader module has `FORMAT` (its name), `sniff(name, head) -> bool` over the first bytes of
the (decompressed) file, and `read(path) -> Iterator[RawRecord]` that raises InputError.
Adding a format is one new module and one line in READERS.
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

from paperscope.errors import InputError
from paperscope.sources import arxiv, bibtex, csl, listing, openreview, paperlists, ris, semantic_scholar, table, zotero
from paperscope.sources.files import read_head

# Most specific first: CSL-JSON is also a JSON array with titles; a listing page accepts almost any text.
READERS: list[ModuleType] = [openreview, semantic_scholar, zotero, csl, paperlists, arxiv, bibtex, ris, table, listing]


def reader_for(path: Path) -> ModuleType:
    """The reader whose sniff accepts the file's first bytes."""
    head = read_head(path)
    if not head.strip():
        raise InputError(path.name, None, "empty file")
    for reader in READERS:
        if reader.sniff(path.name, head):
            return reader
    raise InputError(
        path.name,
        None,
        "unknown format: not a listing page, paper-list JSON, OpenReview notes, arXiv "
        "feed, BibTeX, RIS, CSL-JSON, Better BibTeX JSON, Semantic Scholar JSON or CSV",
    )
