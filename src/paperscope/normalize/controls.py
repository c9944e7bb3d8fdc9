"""Control characters (U+0000–U+001F but tab and newlines, U+007F–U+009F) removed from a raw record at
ingest: they mean nothing in a title or a name, and they break every export format."""

from __future__ import annotations

import re
from dataclasses import fields, replace
from functools import cache

from paperscope.model import RawRecord
from paperscope.normalize.glued_title import without_title_tail
from paperscope.normalize.names import clean_authors

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def strip_controls(text: str) -> str:
    # a control character is never printable: most texts are, and need no pattern's scan
    return text if text.isprintable() else _CONTROL.sub("", text)


@cache
def _field_names(kind: type) -> tuple[str, ...]:
    return tuple(item.name for item in fields(kind))


def scrub(record: RawRecord) -> RawRecord:
    """The record with control characters gone from every text, one person per author entry, and no end of
    the title glued before the abstract."""
    changes: dict[str, object] = {}
    for name in _field_names(type(record)):
        value = getattr(record, name)
        if isinstance(value, str):
            changes[name] = strip_controls(value)
        elif isinstance(value, list):
            changes[name] = [strip_controls(v) for v in value]
        elif isinstance(value, dict):
            changes[name] = {k: strip_controls(v) for k, v in value.items()}
    changes["authors"] = clean_authors(changes["authors"])  # type: ignore[arg-type]
    title, abstract = changes.get("title"), changes.get("abstract")
    if isinstance(title, str) and isinstance(abstract, str):
        changes["abstract"] = without_title_tail(title, abstract)
    return replace(record, **changes)
