"""Citation keys: a paper's key is assigned once, stored, and never moves.

A key imported with the paper (a BibTeX entry's own key) is kept; otherwise it is made from the
paper (`name2026` for a named method, else `firstauthor2026word`). A key already taken, by a paper
or by one that has since gone, gets a letter (a, b, … aa): older keys are never renamed, and a key
never passes to another paper.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Protocol

from paperscope.model import Paper
from paperscope.normalize.names import ascii_word, family_word

if TYPE_CHECKING:
    from paperscope.store import Store

_STOP = frozenset(["a", "an", "the", "of", "on", "for", "in", "to", "and", "with", "towards", "via", "is", "are"])
_IMPORTED = re.compile(r"^[A-Za-z0-9_:.\-+/]{1,64}$")  # keys BibTeX, biber and pandoc all accept
_IMPORTED_FROM = ("bibtex", "csl-json", "zotero-json")
CHUNK = 5_000  # papers given keys at a time
LOOKED_UP_BELOW = 10  # an ingest's new papers look up their keys when the library holds 10× as many
_LETTERS = "abcdefghijklmnopqrstuvwxyz"  # what a taken key gets: a, b, … z, then aa, bb, …


def imported(paper: Paper) -> str | None:
    """The key a BibTeX, CSL-JSON or Better BibTeX source gave the paper, if one is usable as a key."""
    return next(
        (
            s.external_id
            for s in paper.sources
            if s.format in _IMPORTED_FROM and s.external_id and _IMPORTED.match(s.external_id)
        ),
        None,
    )


def base(paper: Paper, families: Mapping[str, str] | None = None) -> str:
    """The key's stem; `families` may hold `family_word()` of the first author already (worked out in the
    ingest's worker processes, where it costs the writer nothing)."""
    year = str(paper.year or "")
    if paper.name and (name := ascii_word(paper.name)):
        return name + year
    # folded one at a time, up to the first that counts: most titles need one or two of their words
    title_words = (ascii_word(w) for w in (paper.title or paper.display_title).split())
    word = next((w for w in title_words if w and w not in _STOP), "paper")
    first = paper.authors[0] if paper.authors else ""
    author = (families[first] if families and first in families else family_word(first)) if first else ""
    return f"{author or 'anon'}{year}{word}"


def wanted(paper: Paper, families: Mapping[str, str] | None = None) -> str:
    """What a key is made from, as one compact line: the paper's id, the key it brings ("" for
    none) and its stem, tab-separated (none of them holds a tab)."""
    return f"{paper.id}\t{imported(paper) or ''}\t{base(paper, families)}"


def ensure(store: Store) -> None:
    """Keys for the papers that have none yet, in id order, inside the caller's transaction; read
    CHUNK papers at a time (a million new papers would not fit in memory at once)."""
    taken: set[str] | None = None
    after = ""
    while missing := store.papers_without_cite_key(after, CHUNK):
        if taken is None:
            taken = _every_key(store)
        store.put_cite_keys(assign(missing, taken))
        after = missing[-1].id


def ensure_wanted(store: Store, lines: Sequence[str]) -> None:
    """As `ensure`, when the papers without a key are known, as `wanted` lines in id order. A few papers
    added to a large library look up only the keys they may take (reading all of a million keys took
    1.4 s); more read every key once, which costs less than looking up each of theirs."""
    if not lines:
        return
    looked = _Looked(store) if len(lines) * LOOKED_UP_BELOW < store.count_papers() else None
    taken: Taken = looked or _every_key(store)
    for start in range(0, len(lines), CHUNK):
        chunk = lines[start : start + CHUNK]
        if looked:
            looked.look_up_for(chunk)
        store.put_cite_keys(assign_wanted(chunk, taken))


def _every_key(store: Store) -> set[str]:
    """Every key a paper has or had, in lower case."""
    return {key.casefold() for key in store.cite_keys().values()}


class Taken(Protocol):
    """The keys taken, in lower case: a set, or a store's keys looked up as they are asked about."""

    def __contains__(self, key: str) -> bool: ...
    def add(self, key: str) -> None: ...


class _Looked:
    """A store's keys, each looked up once (in batches ahead, when the keys to come are known), and
    the keys given since."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.known: dict[str, bool] = {}  # key (lower case) → taken

    def look_up_for(self, lines: list[str]) -> None:
        """The keys `wanted` lines may take, looked up together: the key each brings and its stem, and
        the lettered keys of a stem already taken or wanted twice."""
        fields = [line.split("\t") for line in lines]
        self.look_up([key for _, brought, stem in fields for key in (brought, stem) if key])
        wanted_twice = {stem for stem, count in Counter(stem for _, _, stem in fields).items() if count > 1}
        clashing = {stem for _, _, stem in fields if stem in wanted_twice or stem in self}
        self.look_up([stem + letter for stem in clashing for letter in _LETTERS])

    def look_up(self, keys: Iterable[str]) -> None:
        new = sorted({folded for folded in map(str.casefold, keys) if folded not in self.known})
        found = self.store.taken_cite_keys(new)
        self.known.update((key, key in found) for key in new)

    def __contains__(self, key: str) -> bool:
        key = key.casefold()
        if key not in self.known:  # a letter added after a clash: rare, so one at a time
            self.look_up([key])
        return self.known[key]

    def add(self, key: str) -> None:
        self.known[key.casefold()] = True


def assign(papers: Iterable[Paper], taken: Taken) -> dict[str, str]:
    """New keys for `papers` (paper id → key), none of them in `taken`, which they are added to."""
    return assign_wanted(map(wanted, papers), taken)


def assign_wanted(lines: Iterable[str], taken: Taken) -> dict[str, str]:
    """As `assign`, from `wanted` lines."""
    keys: dict[str, str] = {}
    for line in lines:
        paper_id, brought, stem = line.split("\t")
        key = brought if brought and brought.casefold() not in taken else _free(stem, taken)
        taken.add(key.casefold())
        keys[paper_id] = key
    return keys


def _free(stem: str, taken: Taken) -> str:
    key, suffix = stem, 0
    while key.casefold() in taken:
        suffix += 1
        key = stem + _LETTERS[(suffix - 1) % 26] * (1 + (suffix - 1) // 26)
    return key
