"""What reference-manager formats share: citation keys, author names, the paper's main link."""

from __future__ import annotations

import re
import unicodedata

from paperscope.model import Paper

_STOP = frozenset(["a", "an", "the", "of", "on", "for", "in", "to", "and", "with", "towards", "via", "is", "are"])


def ascii_word(text: str) -> str:
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]", "", folded.lower())


def split_name(author: str) -> tuple[str, str]:
    """(family, given) from "Given Family" or "Family, Given"."""
    if "," in author:
        family, given = (part.strip() for part in author.split(",", 1))
        return family, given
    parts = author.split()
    return (parts[-1], " ".join(parts[:-1])) if parts else ("", "")


def citation_key(paper: Paper, taken: set[str]) -> str:
    """`name2026` for a named paper, else `firstauthor2026word`; unique within `taken` (a, b, … added)."""
    year = str(paper.year or "")
    title_words = [w for w in (ascii_word(w) for w in (paper.title or paper.display_title).split()) if w]
    word = next((w for w in title_words if w not in _STOP), "paper")
    if paper.name and ascii_word(paper.name):
        base = ascii_word(paper.name) + year
    else:
        author = ascii_word(split_name(paper.authors[0])[0]) if paper.authors else ""
        base = f"{author or 'anon'}{year}{word}"
    key, suffix = base, 0
    while key in taken:
        suffix += 1
        key = base + "abcdefghijklmnopqrstuvwxyz"[(suffix - 1) % 26] * (1 + (suffix - 1) // 26)
    taken.add(key)
    return key


def main_url(paper: Paper) -> str | None:
    return paper.urls.site or paper.urls.pdf or (paper.urls.code[0] if paper.urls.code else None)


def title_of(paper: Paper) -> str:
    return paper.title or paper.display_title
