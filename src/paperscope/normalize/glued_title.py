"""The end of a paper's title glued before its abstract by a broken CSV export: ECCV 2020's list splits a title
at its first comma, and its abstract begins with the rest and the cell separator ("Model, and Shape Recovery from
a Single View\",\"Automated capture of animal pose …")."""

from __future__ import annotations

_SEPARATOR = '","'
_LONGEST_TAIL = 400


def without_title_tail(title: str, abstract: str) -> str:
    """The abstract without a tail of the title and a cell separator at its start (letters and digits compared,
    case aside: "no landmarks!\"\" - Unsupervised, model-based …" ends "“Look Ma, no landmarks!” – Unsupervised,
    Model-based …")."""
    cut = abstract.find(_SEPARATOR, 0, _LONGEST_TAIL)
    if cut <= 0:
        return abstract
    tail = _letters(abstract[:cut])
    return abstract[cut + len(_SEPARATOR) :].lstrip() if tail and _letters(title).endswith(tail) else abstract


def _letters(text: str) -> str:
    return "".join(ch for ch in text.casefold() if ch.isalnum())
