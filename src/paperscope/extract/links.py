"""Code repositories apart from other links."""

from __future__ import annotations

import re
from collections.abc import Iterable

from paperscope.extract.text import sentences
from paperscope.normalize.urls import clean_url, is_code_host

# "Source code is available at https://gitlab.kitware.com/…", "Our implementation … at: https://…/GRRO-master.zip"
_CODE_WORD = re.compile(r"\b(?:code|codes|implementations?|software|toolbox|library|package)\b", re.IGNORECASE)
# a sentence that offers a page beside the code ("Code and videos are at …") does not say which the link is
_OTHER_PAGE = re.compile(
    r"\b(?:project (?:page|website)|videos?|demos?|supplementary|homepage|web ?pages?|website)\b", re.IGNORECASE
)


def split_links(urls: Iterable[str], text: str = "") -> tuple[list[str], list[str]]:
    """(code, other): cleaned, in order of appearance, without repeats (a repo's ".git" twin included). A link
    is code on a code host, or where the text says the code is at it."""
    code: dict[str, None] = {}
    other: dict[str, None] = {}
    for url in urls:
        cleaned = clean_url(url)
        if cleaned:
            (code if is_code_host(cleaned) or _said_to_be_code(cleaned, text) else other).setdefault(cleaned)
    return list(code), [url for url in other if url not in code]


def _said_to_be_code(url: str, text: str) -> bool:
    """Whether the sentence holding the link names code before it, with no other link or page between."""
    if url not in text:
        return False
    sentence = next((s for s in sentences(text) if url in s), "")
    before = sentence[: sentence.find(url)]
    words = list(_CODE_WORD.finditer(before))
    return bool(words) and "://" not in before[words[-1].end() :] and not _OTHER_PAGE.search(sentence)
