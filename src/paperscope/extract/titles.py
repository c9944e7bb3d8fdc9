"""A readable title for papers that come without one, built from the name and what the abstract says."""

from __future__ import annotations

import re

from paperscope.extract.text import after, find_cue, intro_sentences, sentences

MAX_TITLE_CHARS = 90


def display_title(title: str | None, abstract: str, name: str | None = None, expansion: str | None = None) -> str:
    """The title if there is one; else "NAME: what it is"; else the sentence that introduces the work."""
    if title:
        return title
    if not abstract.strip():
        return "(untitled)"
    introducing = intro_sentences(abstract)
    if name:
        what = expansion or _description(name, abstract) or _introduced(introducing, name)
        return _shorten(f"{name}: {what}" if what else name)
    if introducing:
        return _shorten(_capitalise(_after_cue(introducing[0])))
    return _shorten(sentences(abstract)[0].rstrip(".")) or "(untitled)"


_APPOSITION = re.compile(r",\s+((?:a|an|the|which)\s[^.;:]+)")


def _description(name: str, abstract: str) -> str | None:
    """ "NEMO, a system that translates ..." -> "a system that translates ..."."""
    for rest in after(abstract, name):
        match = _APPOSITION.match(rest)
        if match:
            return re.sub(r"^which\s+", "", match.group(1))
    return None


def _introduced(introducing: list[str], name: str) -> str | None:
    """ "we propose a proactive framework for X, named as ProCAD" -> "a proactive framework for X"."""
    for sentence in introducing:
        if name in sentence:
            what = re.split(r",?\s+(?:named|called|dubbed|termed)\b|\s*,\s*" + re.escape(name), _after_cue(sentence))[0]
            if what and what != name and name not in what:
                return what
    return None


def _after_cue(sentence: str) -> str:
    cue = find_cue(sentence)
    rest = sentence[cue[1] :] if cue else sentence
    return re.sub(r"^\s*(?:to\s+|that\s+|a\s+|an\s+|the\s+)?", "", rest).rstrip(".")


def _capitalise(text: str) -> str:
    return text[:1].upper() + text[1:]


def _shorten(text: str) -> str:
    text = " ".join(text.split()).rstrip(".,;: ")
    if len(text) <= MAX_TITLE_CHARS:
        return text
    return text[: MAX_TITLE_CHARS - 1].rsplit(" ", 1)[0].rstrip(",;:") + "…"
