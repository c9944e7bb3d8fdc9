"""Glyphs a PDF text extractor wrote as "(cid:N)" where it could not map a font's character: 1,604 titles and
abstracts of the NIPS lists of 1987–2007 hold 4,528 soft hyphens at line breaks ("inte(cid:173) grating"), and
TeX's ligatures and math letters by their place in its fonts ("classi(cid:12)er", "a parameter (cid:11)")."""

from __future__ import annotations

import re

from paperscope.normalize.hyphens import is_word

_SOFT_HYPHEN = re.compile(r"(\w*)\(cid:173\)\s*(\w*)")
# OT1 text fonts place ligatures at 11–15, the math italic font Greek letters there; inside a word a glyph is a
# ligature ("e(cid:11)ective", "coe(cid:14)cients"), alone a letter ("parameter (cid:11)", "(cid:15)-tube")
_LIGATURES = {"2": "fi", "11": "ff", "12": "fi", "13": "fl", "14": "ffi", "15": "ffl"}
_LETTERS = {"11": "α", "14": "δ", "15": "ε", "96": "ℓ", "0": "−", "147": "“", "148": "”"}
_GLYPH = re.compile(r"\(cid:(\d+)\)")


def replace_glyphs(text: str) -> str:
    """The text with the glyphs it is known to mean; others are left as written."""
    if "(cid:" not in text:
        return text
    text = _SOFT_HYPHEN.sub(_line_break, text)

    def glyph(match: re.Match[str]) -> str:
        number, start, end = match.group(1), match.start(), match.end()
        in_word = (start and text[start - 1].isalpha()) or (end < len(text) and text[end].isalpha())
        if in_word and number in _LIGATURES:
            return _LIGATURES[number]
        return _LETTERS.get(number, match.group())

    return _GLYPH.sub(glyph, text)


def _line_break(soft: re.Match[str]) -> str:
    """A word the line break split, joined ("inte-grating", "Connection-ist"); or a compound, which keeps its hyphen
    ("history-dependent", "Winner-Take-All"): both parts words, and no word when joined."""
    head, tail = soft.groups()
    compound = head and tail and not is_word((head + tail).lower()) and is_word(head.lower()) and is_word(tail.lower())
    return f"{head}-{tail}" if compound else head + tail
