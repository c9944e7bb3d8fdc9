"""Where a sentence of an abstract ends: after ".", "!" or "?" and a space, before a capital, a digit,
a quote or a bracket; never after an abbreviation ("e.g.", "vs.", "et al."), which 1.3% of the
corpus's abstracts have before such a character ("83.4% vs. 60.0%", "e.g. GPT-4")."""

from __future__ import annotations

import re

_ABBREVIATIONS = ("vs", "e.g", "i.e", "cf", "et al", "Fig", "Eq", "resp", "approx")
SENTENCE_END = re.compile(
    r"(?<=[.!?])" + "".join(rf"(?<!\b{re.escape(word)}\.)" for word in _ABBREVIATIONS) + r"\s+(?=[A-Z0-9\"'“(\[])"
)


def first_sentence(text: str) -> str:
    return SENTENCE_END.split(text.strip(), maxsplit=1)[0].strip()
