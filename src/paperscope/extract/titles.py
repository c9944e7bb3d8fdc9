"""A readable label for papers that come without a title."""

from __future__ import annotations

import re

MAX_TITLE_CHARS = 90
_SENTENCE_RE = re.compile(r"(?<=[.!?])\s+(?=[A-Z\u4e00-\u9fff])")


def display_title(title: str | None, abstract: str) -> str:
    """The title if there is one, else the abstract's first sentence, cut at a word near 90 characters."""
    if title:
        return title
    if not abstract:
        return "(untitled)"
    first = _SENTENCE_RE.split(abstract, maxsplit=1)[0].rstrip(".")
    if len(first) <= MAX_TITLE_CHARS:
        return first
    cut = first[: MAX_TITLE_CHARS - 1].rsplit(" ", 1)[0].rstrip(",;:")
    return cut + "…"
