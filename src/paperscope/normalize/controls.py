"""Control characters (U+0000–U+001F but tab and newlines, U+007F–U+009F) removed from a raw record at
ingest: they mean nothing in a title or a name, and they break every export format."""

from __future__ import annotations

import re
from dataclasses import fields, replace

from paperscope.model import RawRecord
from paperscope.normalize.glued_title import without_title_tail
from paperscope.normalize.names import clean_authors

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def strip_controls(text: str) -> str:
    return _CONTROL.sub("", text)


def scrub(record: RawRecord) -> RawRecord:
    """The record with control characters gone from every text, one person per author entry, and no end of
    the title glued before the abstract."""
    changes: dict[str, object] = {}
    for item in fields(record):
        value = getattr(record, item.name)
        if isinstance(value, str):
            changes[item.name] = strip_controls(value)
        elif isinstance(value, list):
            changes[item.name] = [strip_controls(v) for v in value]
        elif isinstance(value, dict):
            changes[item.name] = {k: strip_controls(v) for k, v in value.items()}
    changes["authors"] = clean_authors(changes["authors"])  # type: ignore[arg-type]
    title, abstract = changes.get("title"), changes.get("abstract")
    if isinstance(title, str) and isinstance(abstract, str):
        changes["abstract"] = without_title_tail(title, abstract)
    return replace(record, **changes)
