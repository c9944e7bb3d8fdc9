"""Code repositories apart from other links."""

from __future__ import annotations

from collections.abc import Iterable

from paperscope.normalize.urls import clean_url, is_code_host


def split_links(urls: Iterable[str]) -> tuple[list[str], list[str]]:
    """(code, other): cleaned, in order of appearance, without repeats (a repo's ".git" twin included)."""
    code: dict[str, None] = {}
    other: dict[str, None] = {}
    for url in urls:
        cleaned = clean_url(url)
        if cleaned:
            (code if is_code_host(cleaned) else other).setdefault(cleaned)
    return list(code), [url for url in other if url not in code]
