"""Listing pages: a header line ("ICML 2026 Papers"), then one abstract per non-blank line."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from paperscope.errors import InputError
from paperscope.model import RawRecord, Source
from paperscope.sources.files import decode_utf8, read_bytes
from paperscope.sources.format import InputFormat

NAME = "listing"
MAX_LINE_CHARS = 20_000
MAX_HEADER_CHARS = 200
_HEADER_RE = re.compile(r"^\s*(?P<venue>[^\W\d_][\w&.+-]*?)[\s-]*(?P<year>(?:19|20)\d{2})\b")


def sniff(name: str, head: bytes) -> bool:
    """Plain text whose first non-blank line is a short header, not JSON, XML, BibTeX or CSV."""
    text = head.decode("utf-8-sig", errors="replace")  # bad bytes are reported by read(), with their line
    if "\x00" in text:
        return False
    first = next((line.strip() for line in text.splitlines() if line.strip()), "")
    return bool(first) and len(first) <= MAX_HEADER_CHARS and first[0] not in "[{<@%" and "," not in first


def parse_header(header: str) -> tuple[str | None, int | None]:
    """Venue and year from a header such as "ICML 2026 Papers" or "ICML 2026 论文列表"."""
    match = _HEADER_RE.match(header)
    if not match:
        return None, None
    return match.group("venue"), int(match.group("year"))


def read(path: Path) -> Iterator[RawRecord]:
    text = decode_utf8(read_bytes(path), path.name)
    lines = text.split("\n")
    header_at = next((i for i, line in enumerate(lines) if line.strip()), None)
    if header_at is None:
        raise InputError(path.name, None, "empty file")
    header = " ".join(lines[header_at].split())
    if len(header) > MAX_HEADER_CHARS:
        raise InputError(path.name, header_at + 1, f"header line is longer than {MAX_HEADER_CHARS} characters")
    venue, year = parse_header(header)
    found = False
    for number, line in enumerate(lines[header_at + 1 :], start=header_at + 2):
        line = line.rstrip("\r")
        if not line.strip():
            continue
        if len(line) > MAX_LINE_CHARS:
            raise InputError(path.name, number, f"line is longer than {MAX_LINE_CHARS:,} characters")
        found = True
        source = Source(path=path.name, line=number, listing=header, format=NAME)
        yield RawRecord(source=source, abstract=line, venue=venue, year=year)
    if not found:
        raise InputError(path.name, header_at + 1, "no abstracts after the header line")


FORMAT = InputFormat(NAME, sniff, read)
