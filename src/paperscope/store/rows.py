"""What both stores make of rows alike, in Python: a paper as stored, its identities, timestamps, facet tallies."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import fields
from datetime import UTC, datetime

import orjson

from paperscope import dedupe
from paperscope.index import semantic
from paperscope.model import Claim, Mentions, Paper

_SAME_AS_ABSTRACT = ("abstract_raw", "abstract_html")
_FIELDS = tuple(f.name for f in fields(Paper))


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def now_precise() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


def pack(paper: Paper) -> str:
    """The paper as stored: the raw and HTML abstracts are left out where they equal the plain one
    (most abstracts have no markup), which takes a third off a large library. Encoded once, from
    its fields in order (the same text as encoding the paper, decoding and encoding it again)."""
    data = {name: getattr(paper, name) for name in _FIELDS}
    for key in _SAME_AS_ABSTRACT:
        if data[key] == data["abstract"]:
            del data[key]
    return orjson.dumps(data).decode()


def unpack(stored: str, topic: str | None = None) -> Paper:
    data = orjson.loads(stored)
    for key in _SAME_AS_ABSTRACT:
        data.setdefault(key, data["abstract"])
    if topic:
        data["topics"] = [topic]
    return Paper.from_dict(data)


# How `pack` writes a paper that names no model, benchmark or claim (its fields in order, no spaces):
# what a statement finds in the stored text without decoding it.
NAMES_NOTHING = '"models":[],"benchmarks":[],"claims":[]'


def mentions(paper_id: str, display_title: str, stored: str) -> Mentions:
    data = orjson.loads(stored)
    return Mentions(paper_id, display_title, data["models"], data["benchmarks"], [Claim(**c) for c in data["claims"]])


def identities(paper: Paper) -> set[str]:
    urls = [u for u in (paper.urls.site, paper.urls.pdf, *paper.urls.other) if u]
    return dedupe.paper_identities(((s.external_id, s.format) for s in paper.sources), urls)


def change_detail(before: Paper, after: Paper) -> str:
    """What an update changed that a reader cares about; "" when nothing of it."""
    changed = [
        f"{name}: {_short(getattr(before, name))} → {_short(getattr(after, name))}"
        for name in ("status", "title", "abstract")
        if getattr(before, name) != getattr(after, name)
    ]
    return "; ".join(changed)


def _short(value: object, chars: int = 60) -> str:
    text = "none" if value is None else str(value)
    return text if len(text) <= chars else text[: chars - 1] + "…"


FACETS = ("venue", "year", "contribution", "has_code", "topic")


def tally_facets(rows: Iterable[tuple]) -> dict[str, list[tuple[object, int]]]:
    """Papers per value of each facet, most first (then by value), from rows of (venue, year, contribution,
    has_code, topic, papers): each row counts its papers for each of its values that is not None."""
    counts: dict[str, dict[object, int]] = {column: {} for column in FACETS}
    for *values, papers in rows:
        for column, value in zip(FACETS, values, strict=True):
            if value is not None:
                counts[column][value] = counts[column].get(value, 0) + papers
    return {column: sorted(found.items(), key=lambda item: (-item[1], item[0])) for column, found in counts.items()}


class VectorCache:
    """Every up-to-date vector in one matrix, read again only after the library has changed."""

    def __init__(self) -> None:
        self._held: tuple[object, semantic.Vectors] | None = None

    def get(self, version: object, read: Callable[[], semantic.Vectors]) -> semantic.Vectors:
        if self._held is None or self._held[0] != version:
            self._held = None  # the old matrix goes before the new one is read
            self._held = (version, read())
        return self._held[1]
