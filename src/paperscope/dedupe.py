"""Group records into papers: exact keys first, then near duplicates by MinHash over word shingles.

The rules were chosen on the real corpus (docs/dedupe.md has the figures):
- Abstract similarity alone is not enough: different papers with identical abstracts exist
  (scraping errors), and one lab's papers reach a shingle Jaccard of 0.85.
- A title alone is not enough either: two different IROS 2010 papers share one title.
So two groups merge only when they do not disagree (no two different titles, no two different
venue-years) and their abstracts agree: Jaccard >= 0.5 when both carry the same title, >= 0.9
when at least one has no title (the listing pages have none).
Bibliographic records add two rules: an article, a book and a chapter are different works whatever
their titles (BibTeX's xampl.bib has all three with one title), and so are two records with
different DOIs (an arXiv DOI aside: a preprint's DOI differs from the published paper's).
"""

from __future__ import annotations

import hashlib
import re
from base64 import b32encode
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import rensa

NUM_PERM = 64
NUM_BANDS = 16
SHINGLE_WORDS = 3
MIN_WORDS = 12  # shorter abstracts ("Preface to ACML 2019.") match only exactly
JACCARD_SAME_TITLE = 0.5
JACCARD_UNTITLED = 0.9
_ROWS = NUM_PERM // NUM_BANDS  # 16 bands of 4: a pair at Jaccard 0.9 shares a band with p > 0.999
_WORD_RE = re.compile(r"\w+")
_NOT_WORD = str.maketrans({chr(c): " " for c in range(128) if not (chr(c).isalnum() or chr(c) == "_")})
_MIX = 0x9E3779B97F4A7C15
_MASK = (1 << 64) - 1


def words(text: str | None) -> list[str]:
    if text and text.isascii():  # the same words, split without the pattern engine
        return text.lower().translate(_NOT_WORD).split()
    return _WORD_RE.findall(text.casefold()) if text else []


def title_key(title: str | None) -> str | None:
    return " ".join(words(title)) or None


def shingles(abstract_words: Sequence[str]) -> frozenset[str]:
    """Word 3-grams; too short an abstract has none (it can only match exactly)."""
    return frozenset(_shingle_list(abstract_words))


def _shingle_list(abstract_words: Sequence[str]) -> list[str]:
    """The word 3-grams in order, a repeated one as often as it occurs."""
    if len(abstract_words) < MIN_WORDS:
        return []
    return list(map(" ".join, zip(*(abstract_words[i:] for i in range(SHINGLE_WORDS)), strict=False)))


def bands(items: list[str]) -> tuple[int, ...]:
    """MinHash LSH band hashes (signed 64-bit, to fit SQLite) of shingles: similar sets share at least one. A
    repeat changes nothing (each permutation keeps its least hash), so no set need be made of them."""
    if not items:
        return ()
    signature = rensa.RMinHash(num_perm=NUM_PERM, seed=7)
    signature.update(items)
    v = signature.digest()
    # Fold each band's four 32-bit values into one signed 64-bit key; a collision only adds a
    # candidate pair, which is then verified on exact Jaccard.
    return tuple(
        _signed(((v[i] << 32 | v[i + 1]) ^ ((v[i + 2] << 32 | v[i + 3]) * _MIX) ^ band) & _MASK)
        for band, i in enumerate(range(0, NUM_PERM, _ROWS))
    )


def _signed(value: int) -> int:
    return value - (1 << 64) if value >= 1 << 63 else value


_WORK_CLASSES = {"book": "book", "chapter": "chapter", "thesis": "thesis"}
_ARXIV_DOI = "doi:10.48550/"


def work_class(kind: str | None) -> str | None:
    """What kind of work a CSL type names, as far as telling works apart goes: a book, a chapter, a
    thesis, or an article (journal, conference, report, manuscript: one paper in its versions)."""
    return None if kind is None else _WORK_CLASSES.get(kind, "article")


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / len(a | b) if a and b else 0.0


def paper_id(key: str) -> str:
    """A short id that depends on the dedupe key alone: 12 base32 characters (60 bits)."""
    return b32encode(hashlib.sha1(key.encode()).digest()).decode()[:12].lower()


@dataclass
class Unit:
    """What dedupe needs of one new record, or of one paper already in the library.

    Shingles are rebuilt from the text when a pair is verified, not kept: 90k records' shingle
    sets would take over a gigabyte, and only a few hundred records ever reach verification.
    """

    key: str
    title: str | None  # title_key()
    venue: tuple[str, int] | None  # (venue casefolded, year) when both are known
    text: str  # the clean abstract
    paper_id: str | None = None  # set for papers already in the library
    bands: tuple[int, ...] = ()
    ids: tuple[str, ...] = ()  # identities from outside: "arxiv:2202.12139", "doi:10.…", "openreview:…"
    work: str | None = None  # work_class() of the record's kind, when its source says

    @classmethod
    def of(
        cls,
        key: str,
        title: str | None,
        venue: tuple[str, int] | None,
        text: str,
        paper_id: str | None = None,
        text_words: Sequence[str] | None = None,
        ids: Iterable[str] = (),
        kind: str | None = None,
    ) -> Unit:
        """A unit with its LSH bands computed from the text (or from its words, when at hand)."""
        found = words(text) if text_words is None else text_words
        signature = bands(_shingle_list(found))
        return cls(key, title, venue, text, paper_id, signature, tuple(sorted(set(ids))), work_class(kind))

    def shingles(self) -> frozenset[str]:
        return shingles(words(self.text))


_ARXIV = re.compile(
    r"arxiv\.org/(?:abs|pdf)/(?P<id>(?:\d{4}\.\d{4,5})|(?:[a-z\-]+(?:\.[A-Z]{2})?/\d{7}))", re.IGNORECASE
)
_ARXIV_ID = re.compile(r"^arxiv:(?P<id>.+?)(?:v\d+)?$", re.IGNORECASE)
_DOI = re.compile(r"(?:doi\.org/|^)(?P<id>10\.\d{4,9}/\S+)", re.IGNORECASE)
_OPENREVIEW = re.compile(r"openreview\.net/(?:forum|pdf)\?id=(?P<id>[\w\-]+)", re.IGNORECASE)
# Each pattern with a piece of text it cannot match without (in lower case): most links hold none.
_ID_PATTERNS = ((_ARXIV, "arxiv", "arxiv.org/"), (_DOI, "doi", "10."), (_OPENREVIEW, "openreview", "openreview.net/"))


def identities(external_id: str | None, fmt: str, urls: Iterable[str]) -> set[str]:
    """A record's ids that name the paper anywhere: arXiv ids (without version), DOIs (lower case)
    and OpenReview forum ids, from its own id and its links."""
    found: set[str] = set()
    for url in urls:
        lower = url.lower() if url.isascii() else ""  # beyond ASCII, case-insensitive matching has more to it
        for pattern, prefix, needle in _ID_PATTERNS:
            if lower and needle not in lower:
                continue
            match = pattern.search(url)
            if match:
                value = match.group("id").removesuffix(".pdf")
                found.add(f"{prefix}:{value if prefix == 'openreview' else value.lower()}")
    if external_id:
        if match := _ARXIV_ID.match(external_id):
            found.add(f"arxiv:{match.group('id').lower()}")
        elif match := _DOI.match(external_id):
            found.add(f"doi:{match.group('id').lower()}")
        elif fmt == "openreview":
            found.add(f"openreview:{external_id}")  # OpenReview ids are case-sensitive
    return {re.sub(r"v\d+$", "", i) if i.startswith("arxiv:") else i for i in found}


def paper_identities(sources: Iterable[tuple[str | None, str]], urls: Iterable[str]) -> set[str]:
    """Every identity of a stored paper: those of its sources' own ids ((id, format) pairs) and its links."""
    found = identities(None, "", urls)
    for external_id, fmt in sources:
        found |= identities(external_id, fmt, ())
    return found


def record_key(
    title: str | None,
    abstract_words: Sequence[str],
    venue: str | None,
    year: int | None,
    authors: Iterable[str],
    fallback: str,
) -> str:
    """The exact-duplicate key: what stays of a record once case, markup and punctuation are gone."""
    body = " ".join(abstract_words)
    titled = title_key(title)
    if not body and not titled:
        return f"source:{fallback}"
    people = "" if body else ";".join(" ".join(words(a)) for a in authors)
    text = f"{(venue or '').casefold()}|{year or ''}|{titled or ''}|{body}|{people}"
    return "k:" + hashlib.sha1(text.encode()).hexdigest()


@dataclass
class _Group:
    members: list[int]
    titles: set[str]
    venues: set[tuple[str, int]]
    paper_id: str | None
    works: set[str]
    dois: set[str]

    @classmethod
    def of(cls, index: int, unit: Unit) -> _Group:
        return cls(
            [index],
            {unit.title} if unit.title else set(),
            {unit.venue} if unit.venue else set(),
            unit.paper_id,
            {unit.work} if unit.work else set(),
            {i for i in unit.ids if i.startswith("doi:") and not i.startswith(_ARXIV_DOI)},
        )

    def compatible(self, other: _Group, same_identity: bool = False) -> bool:
        """Two library papers never merge, nor do different kinds of work or records with different DOIs.
        Records of one arXiv, DOI or OpenReview id merge whatever their titles and venues say (a
        preprint's title and venue differ from the published one's); other records only when
        neither titles nor venues conflict."""
        if self.paper_id and other.paper_id:
            return False
        if len(self.works | other.works) > 1 or (self.dois and other.dois and not self.dois & other.dois):
            return False
        return same_identity or (len(self.titles | other.titles) <= 1 and len(self.venues | other.venues) <= 1)

    def absorb(self, other: _Group) -> None:
        self.members += other.members
        self.titles |= other.titles
        self.venues |= other.venues
        self.works |= other.works
        self.dois |= other.dois
        self.paper_id = self.paper_id or other.paper_id


@dataclass
class Grouping:
    """Groups of unit indexes; each has the id of the library paper it joins, if any."""

    groups: list[tuple[str | None, list[int]]]
    near_merges: list[tuple[int, int, float]]  # (unit, unit, jaccard) pairs merged as near duplicates
    held_apart: list[tuple[int, int, float]]  # similar pairs kept apart by a title or venue conflict


def group(units: Sequence[Unit]) -> Grouping:
    """Cluster units. Papers already in the library (with a paper_id) never merge with each other."""
    parent = list(range(len(units)))
    groups: dict[int, _Group] = {}  # made only for units that take part in a merge

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def info(root: int) -> _Group:
        if root not in groups:
            groups[root] = _Group.of(root, units[root])
        return groups[root]

    def merge(a: int, b: int, same_identity: bool = False) -> bool:
        ra, rb = sorted((find(a), find(b)))
        if ra == rb:
            return True
        if not info(ra).compatible(info(rb), same_identity):
            return False
        info(ra).absorb(groups.pop(rb))
        parent[rb] = ra
        return True

    by_key: dict[str, int] = {}
    for i, unit in enumerate(units):
        if unit.key in by_key:
            merge(by_key[unit.key], i)
        else:
            by_key[unit.key] = i

    by_identity: dict[str, int] = {}
    for i, unit in enumerate(units):
        for identity in unit.ids:
            if identity in by_identity:
                merge(by_identity[identity], i, same_identity=True)
            else:
                by_identity[identity] = i

    near, apart = [], []
    for a, b, similarity in _similar_pairs(units, sorted(by_key.values())):
        same_title = units[a].title is not None and units[a].title == units[b].title
        if similarity < (JACCARD_SAME_TITLE if same_title else JACCARD_UNTITLED) or find(a) == find(b):
            continue
        (near if merge(a, b) else apart).append((a, b, similarity))

    result: list[tuple[str | None, list[int]]] = []
    for i in range(len(units)):
        if find(i) == i:
            group_info = groups.get(i)
            result.append((group_info.paper_id, sorted(group_info.members)) if group_info else (units[i].paper_id, [i]))
    return Grouping(result, near, apart)


def _similar_pairs(units: Sequence[Unit], representatives: list[int]) -> list[tuple[int, int, float]]:
    """Candidates share an LSH band or a title; each is verified on exact Jaccard. Most similar first.

    Only one unit per exact key takes part, so a list repeated many times costs nothing here.
    """
    pairs: dict[tuple[int, int], float] = {}
    cache: dict[int, frozenset[str]] = {}

    def shingles_of(i: int) -> frozenset[str]:
        if i not in cache:
            cache[i] = units[i].shingles()
        return cache[i]

    for a, b in _candidates(units, representatives):
        if (a, b) not in pairs and (units[a].paper_id is None or units[b].paper_id is None):
            pairs[(a, b)] = jaccard(shingles_of(a), shingles_of(b))
    return sorted(((a, b, s) for (a, b), s in pairs.items()), key=lambda p: (-p[2], p[0], p[1]))


def _candidates(units: Sequence[Unit], representatives: list[int]) -> Iterable[tuple[int, int]]:
    """Pairs (a < b) that share a band value or a title; bands are matched with one sort in numpy."""
    banded = [i for i in representatives if units[i].bands]
    if banded:
        values = np.array([units[i].bands for i in banded], dtype=np.int64).ravel()
        owners = np.repeat(np.array(banded, dtype=np.int64), NUM_BANDS)
        order = np.argsort(values, kind="stable")
        values, owners = values[order], owners[order]
        starts = np.flatnonzero(np.r_[True, values[1:] != values[:-1]])
        ends = np.r_[starts[1:], len(values)]
        for start, end in zip(starts[ends - starts > 1], ends[ends - starts > 1], strict=True):
            yield from _all_pairs(owners[start:end].tolist())
    titles: dict[str, list[int]] = {}
    for i in banded:
        if units[i].title:
            titles.setdefault(units[i].title, []).append(i)
    for members in titles.values():
        yield from _all_pairs(members)


def _all_pairs(members: list[int]) -> Iterable[tuple[int, int]]:
    members = sorted(set(members))
    for x, a in enumerate(members):
        for b in members[x + 1 :]:
            yield a, b
