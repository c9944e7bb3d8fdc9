"""Words split at a line break and joined back: "neu- ral networks" → "neural networks".

Abstracts copied out of PDFs keep the hyphen and the line break (now a space) where a word was split:
"learn- ing", "algo- rithms", "How- ever". A pair is joined when the joined word is an English word, or
when neither part is a word ("adversar- ial", "multivari- ate": words of the field that the dictionary
lacks). Two words are kept as written ("learning- based", "self- supervised"), and so is a suspended
compound ("first- and second-order", "pre- and post-processing").
"""

from __future__ import annotations

import re
from functools import cache

from english_words import get_english_words_set

_SPLIT = re.compile(r"\b([A-Za-z]+)- ([a-z]+)\b")
_SUSPENDED = frozenset({"and", "or", "nor", "to", "as", "vs", "versus", "than", "but"})
_INFLECTIONS = (("ies", "y"), ("es", ""), ("s", ""), ("ed", ""), ("ed", "e"), ("ing", ""), ("ing", "e"))


@cache
def _words() -> frozenset[str]:
    """Webster's Second and the GCIDE, lower case: loaded only when a field has a split word.

    Entries written with a hyphen or a space are left out: kept as one string ("lowlevel", as the
    package's `alpha` option makes of "low-level") they would join compounds that keep their hyphen.
    """
    return frozenset(word for word in get_english_words_set(["web2", "gcide"], lower=True) if word.isalpha())


def is_word(word: str) -> bool:
    """A dictionary word, or one by a regular plural or verb ending ("algorithms", "modeled")."""
    words = _words()
    if word in words:
        return True
    for ending, stem in _INFLECTIONS:
        base = word[: -len(ending)]
        if word.endswith(ending) and len(base) >= 2:
            doubled = len(base) > 2 and base[-1] == base[-2] and not stem  # "planning", "modelled"
            if base + stem in words or (doubled and base[:-1] in words):
                return True
    return False


def join_split_words(text: str) -> str:
    if "- " not in text:
        return text

    def join(match: re.Match[str]) -> str:
        head, tail = match.groups()
        if tail in _SUSPENDED:
            return match.group()
        if is_word((head + tail).lower()) or not (is_word(head.lower()) or is_word(tail)):
            return head + tail
        return match.group()

    return _SPLIT.sub(join, text)
