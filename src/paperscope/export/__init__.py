"""Exporters, one module per format, each `write(papers, out)` streaming papers to a text stream; the
reference formats (REFERENCES) also take the papers' citation keys: `write(papers, out, keys)`."""

from __future__ import annotations

from collections.abc import Callable

from paperscope.errors import PaperscopeError
from paperscope.export import bibtex, csl, csv, jsonl, markdown, ris

Writer = Callable[..., None]
FORMATS: dict[str, Writer] = {
    "jsonl": jsonl.write_jsonl,
    "json": jsonl.write_json,
    "csv": csv.write,
    "markdown": markdown.write,
    "bibtex": bibtex.write,
    "ris": ris.write,
    "csl-json": csl.write,
}
REFERENCES = frozenset({"bibtex", "ris", "csl-json"})


def writer_for(name: str) -> Writer:
    try:
        return FORMATS[name]
    except KeyError:
        raise PaperscopeError(f"unknown export format {name!r}; one of {', '.join(FORMATS)}") from None
