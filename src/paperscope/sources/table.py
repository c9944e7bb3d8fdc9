"""CSV and TSV paper tables: columns recognised by their header names, `|` or `;` between authors."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from pathlib import Path

from paperscope.errors import InputError, PaperscopeError
from paperscope.model import RawRecord, Source
from paperscope.sources.files import decode_utf8, read_bytes
from paperscope.sources.format import InputFormat, Option

NAME = "table"
COLUMNS = {
    "title": ("title", "paper title", "name"),
    "abstract": ("abstract", "summary", "tldr"),
    "authors": ("authors", "author", "author names"),
    "venue": ("venue", "conference", "booktitle", "journal"),
    "year": ("year", "publication year"),
    "id": ("uid", "id", "paper id", "openreview id", "forum"),
    "url": ("url", "link", "pdf", "site"),
    "keywords": ("keywords", "tags", "topics"),
}


def sniff(name: str, head: bytes) -> bool:
    """A header row with a title column, or any delimited first row in a file named .csv or .tsv."""
    first = head.decode("utf-8", errors="ignore").lstrip("\ufeff").split("\n", 1)[0].lower()
    delimited = ("," in first or "\t" in first) and not first.lstrip().startswith(("[", "{", "@"))
    named = name.lower().removesuffix(".gz").endswith((".csv", ".tsv"))
    return delimited and ("title" in first or named)


def read(path: Path, columns: dict[str, str] | None = None) -> Iterator[RawRecord]:
    """`columns` maps header names to fields ({"Paper Title": "title"}), over the recognised names."""
    text = decode_utf8(read_bytes(path), path.name)
    dialect = csv.excel_tab if "\t" in text.split("\n", 1)[0] else csv.excel
    reader = csv.DictReader(io.StringIO(text, newline=""), dialect=dialect, strict=True)
    try:
        header = {(name or "").strip().lower(): name for name in reader.fieldnames or []}
    except csv.Error as exc:
        raise InputError(path.name, 1, f"broken CSV header: {exc}") from None
    chosen = {field: next((header[n] for n in names if n in header), None) for field, names in COLUMNS.items()}
    for column, field in (columns or {}).items():
        if column.strip().lower() not in header:
            raise InputError(path.name, 1, f"no column named {column!r} (--map {column}={field})")
        chosen[field] = header[column.strip().lower()]
    if not chosen["title"] and not chosen["abstract"]:
        raise InputError(path.name, 1, "no title or abstract column in the header")
    try:
        for row in reader:

            def value(field: str, row: dict[str, str | None] = row) -> str | None:
                column = chosen[field]
                text = (row.get(column) or "").strip() if column else ""
                return text or None

            year = re.search(r"\d{4}", value("year") or "")
            url = value("url")
            yield RawRecord(
                source=Source(path.name, reader.line_num, None, NAME, value("id")),
                title=value("title"),
                abstract=value("abstract"),
                authors=_split(value("authors")),
                venue=value("venue"),
                year=int(year.group()) if year else None,
                keywords=_split(value("keywords")),
                urls={"site": url} if url else {},
            )
    except csv.Error as exc:  # the underlying reader's line: DictReader's own counts only rows it finished
        raise InputError(path.name, reader.reader.line_num, f"broken CSV: {exc}") from None


def parse_map(pairs: list[str]) -> dict[str, str]:
    """{"Paper Title": "title"} from ["Paper Title=title"]; an unknown field is a clear error."""
    found = {}
    for pair in pairs:
        column, _, field = pair.rpartition("=")
        if not column or field not in COLUMNS:
            raise PaperscopeError(f"--map takes COLUMN=FIELD with FIELD one of {', '.join(COLUMNS)}, not {pair!r}")
        found[column] = field
    return found


def _split(text: str | None) -> list[str]:
    if not text:
        return []
    separator = "|" if "|" in text else ";" if ";" in text else ","
    return [part.strip() for part in text.split(separator) if part.strip()]


FORMAT = InputFormat(NAME, sniff, read, options=(Option("map", "columns", parse_map),))
