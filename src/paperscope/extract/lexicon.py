"""The curated name lists shipped as package data (extract/data/*.txt), as fast matchers.

A list of a few hundred names as one regular-expression alternation is slow in Python's `re`
(every branch is tried at every position). Names are found in two steps instead: where any of them
occurs at all (one pass of a trie-shaped pattern that `re` skips through quickly, since it starts
with a capital or digit; the few names that start lower-case are searched as plain substrings),
and then, at those few places only, which name of the place's first two letters matches as a word.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache, lru_cache
from importlib.resources import files

# What may follow a model family: versions, sizes and variant words ("-3.1-8B", "2.5-VL-3B", "-0.5B", "-4o",
# "-4V", " Sonnet 4.5").
_VARIANTS = (
    "VL|Instruct|Chat|Coder|Next|Base|Large|Small|Tiny|Medium|XL|XXL|mini|turbo|Turbo|Pro|Flash|Sonnet|Opus|"
    "Haiku|Vision|Math|base|large|small|R1|V3|Omni|Lite|Distill"
)
_PART = (
    rf"(?:(?:[1-9]\d*(?:\.\d+)?|0\.\d+)[BMKbmk](?![\w])|\d+(?:\.\d+)*(?:[a-z]|V(?![\w]))?|v\d+(?:\.\d+)*|M\d+(?:\.\d+)*|(?:{_VARIANTS})(?![\w])|"
    r"(?<=-)it(?![\w])|(?<=\d-)V(?![\w]))"  # "gemma-2-9b-it", not "ViT it is"; "GPT4-V"
)
_SUFFIX_PART = re.compile(rf"[-\s]?{_PART}")


def _lines(name: str) -> list[str]:
    text = files("paperscope.extract").joinpath("data", name).read_text(encoding="utf-8")
    return [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")]


class Lexicon:
    """Names indexed by their first word; `find` reports each match as (start, end)."""

    def __init__(self, names: list[str], with_suffix: bool = False) -> None:
        self.needs_suffix = {n[:-1] for n in names if n.endswith("*")}
        self.names = sorted({n.rstrip("*") for n in names}, key=len, reverse=True)
        self.with_suffix = with_suffix
        self.by_start: dict[str, list[str]] = {}
        for name in self.names:
            self.by_start.setdefault(name[:2], []).append(name)
        # Most words of an abstract are lower-case: look only at capitalised ones and the few
        # lower-case beginnings some names have ("o1", "mT5", "wav2vec").
        lower = sorted({re.escape(k) for k in self.by_start if not k[0].isupper() and not k[0].isdigit()})
        self.words = re.compile(rf"(?<![\w-])(?:[A-Z0-9]{'|' if lower else ''}{'|'.join(lower)})[\w.+/-]*")
        capitalised = [n for n in self.names if n[0].isupper() or n[0].isdigit()]
        self.occurring = re.compile(_trie(capitalised)) if capitalised else None
        self.lower_names = [n for n in self.names if not (n[0].isupper() or n[0].isdigit())]
        self._found = lru_cache(maxsize=8)(lambda text: tuple(self._find(text)))

    def find(self, text: str) -> tuple[tuple[int, int], ...]:
        """Each match as (start, end), in order; the last few texts' are kept, as steps search one in turn."""
        return self._found(text)

    def _find(self, text: str) -> Iterator[tuple[int, int]]:
        position = 0
        for start in self._starts(text):
            if start < position or not self._word_start(text, start):
                continue
            for name in self.by_start.get(text[start : start + 2], ()):
                end = self._match(text, start, name)
                if end:
                    position = end
                    yield start, end
                    break

    def _starts(self, text: str) -> list[int]:
        """Where one of the names occurs in the text (as a word or not), in order."""
        found = [m.start() for m in self.occurring.finditer(text)] if self.occurring else []
        for name in self.lower_names:
            at = text.find(name)
            while at >= 0:
                found.append(at)
                at = text.find(name, at + 1)
        return sorted(set(found)) if self.lower_names else found

    def _word_start(self, text: str, start: int) -> bool:
        """Whether a word the `words` pattern finds, scanning the text, starts here: the first place in
        its run of word characters and `.+/-` that follows no word character or hyphen."""
        run = start
        while run and (text[run - 1].isalnum() or text[run - 1] in "_.+/-"):
            run -= 1
        word = self.words.search(text, run, start + 2)  # a name's first two letters decide
        return word is not None and word.start() == start

    def _match(self, text: str, start: int, name: str) -> int | None:
        if not text.startswith(name, start):
            return None
        end = start + len(name)
        if self.with_suffix:
            # the longest run of suffix parts that ends a word: "Llama-3" of "Llama-3 2D features"
            longest, at = None, end
            while part := _SUFFIX_PART.match(text, at):
                at = part.end()
                longest = at if not _continues(text, at) else longest
            if longest:
                end = longest
            elif name in self.needs_suffix:
                return None
        return None if _continues(text, end) else end

    def fullmatch(self, text: str) -> bool:
        return any(self._match(text, 0, name) == len(text) for name in self.by_start.get(text[:2], ()))


def _trie(names: list[str]) -> str:
    """A pattern that matches the first character wherever one of the names begins (the rest in a
    lookahead, so that overlapping names are all found), shaped as a trie so that `re` tries few branches."""
    root: dict = {}
    for name in names:
        node = root
        for char in name:
            node = node.setdefault(char, {})
        node[""] = {}

    def rest(node: dict) -> str:
        branches = [re.escape(char) + rest(child) for char, child in sorted(node.items()) if char]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 and "" not in node else f"(?:{'|'.join(branches)})"
        return body + ("?" if "" in node else "")

    return "|".join(
        re.escape(char) + (f"(?={tail})" if (tail := rest(child)) else "") for char, child in sorted(root.items())
    )


def _continues(text: str, end: int) -> bool:
    """The match stops inside a word: "RefCOCO" in "RefCOCOg", "GPT" in "GPTs"."""
    return end < len(text) and (text[end].isalnum() or text[end] in "+_")


@cache
def benchmarks() -> Lexicon:
    return Lexicon(_lines("benchmarks.txt"))


@cache
def models() -> Lexicon:
    return Lexicon(_lines("models.txt"), with_suffix=True)


@cache
def eponyms() -> frozenset[str]:
    """The people and languages a method, distribution or pair is named after (eponyms.txt)."""
    return frozenset(word for line in _lines("eponyms.txt") for word in line.split())


@cache
def fields() -> dict[str, re.Pattern[str]]:
    """The letters of each field, task or tool (fields.txt), with the long forms that mean it."""
    found: dict[str, re.Pattern[str]] = {}
    for line in _lines("fields.txt"):
        names, long_forms = line.split("\t")
        found.update(dict.fromkeys(names.split(), re.compile(long_forms, re.IGNORECASE)))
    return found
