"""Export formats, one module per format, each declaring its FORMAT (name, media type, extension,
writer: see format.py). FORMATS is the registry the CLI, the API and the web pages read; adding a
format is its module and its line here."""

from __future__ import annotations

from paperscope.errors import PaperscopeError
from paperscope.export import bibtex, csl, csv, json, jsonl, markdown, ris
from paperscope.export.format import ExportFormat

# In the order they are offered: the reference formats first.
FORMATS: dict[str, ExportFormat] = {
    export.name: export
    for export in (bibtex.FORMAT, ris.FORMAT, csl.FORMAT, csv.FORMAT, markdown.FORMAT, json.FORMAT, jsonl.FORMAT)
}


def export_format(name: str) -> ExportFormat:
    try:
        return FORMATS[name]
    except KeyError:
        raise PaperscopeError(f"unknown export format {name!r}; one of {', '.join(FORMATS)}") from None
