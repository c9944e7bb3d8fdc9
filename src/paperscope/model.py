"""The data contract: the records input formats yield and the papers the library keeps.

Nothing here imports the rest of the project.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, NamedTuple

CONTRIBUTIONS = ("method", "benchmark", "dataset", "theory", "analysis", "system", "position", "survey")


@dataclass(frozen=True)
class Source:
    """One place a paper was read from."""

    path: str  # file name, no directories
    line: int  # 1-based physical line (or record number for formats without lines)
    listing: str | None  # the listing's header or collection name
    format: str  # the input format it was read in
    external_id: str | None = None


@dataclass
class RawRecord:
    """One record exactly as its input format read it: raw strings, nothing cleaned."""

    source: Source
    title: str | None = None
    abstract: str | None = None
    authors: list[str] = field(default_factory=list)
    venue: str | None = None
    year: int | None = None
    status: str | None = None
    track: str | None = None
    keywords: list[str] = field(default_factory=list)
    urls: dict[str, str] = field(default_factory=dict)  # pdf, site, code, project ... as given
    kind: str | None = None  # the work's CSL type when the source says (article-journal, book, chapter, ...)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RawRecord:
        return cls(**{**data, "source": Source(**data["source"])})


@dataclass(frozen=True)
class Unread:
    """A record an input format found but could not make a paper of (a BibTeX @misc with no title): reported."""

    source: Source
    reason: str


@dataclass(frozen=True)
class Claim:
    value: str
    unit: str | None = None  # %, ×, points, percentage points; None for a bare score
    direction: str | None = None  # improves or reduces, when the sentence says
    metric: str | None = None
    benchmark: str | None = None
    baseline: str | None = None
    text: str = ""


@dataclass
class Urls:
    pdf: str | None = None
    site: str | None = None
    code: list[str] = field(default_factory=list)
    other: list[str] = field(default_factory=list)


@dataclass
class Paper:
    """A paper as exported: see the data contract in docs/architecture.md."""

    id: str
    title: str | None
    display_title: str
    name: str | None
    name_expansion: str | None
    abstract: str
    abstract_raw: str
    abstract_html: str
    authors: list[str]
    venue: str | None
    year: int | None
    sources: list[Source]
    urls: Urls
    models: list[str] = field(default_factory=list)
    benchmarks: list[str] = field(default_factory=list)
    claims: list[Claim] = field(default_factory=list)
    contribution: str = "method"
    topics: list[str] = field(default_factory=list)
    keywords: list[str] = field(default_factory=list)
    status: str | None = None
    track: str | None = None  # the list's track: "main", "Workshop", "Demo Track" ...
    kind: str | None = None  # CSL type of the work when a source says (article-journal, book, chapter, ...)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Paper:
        return cls(
            **{
                **data,
                "sources": [Source(**s) for s in data["sources"]],
                "urls": Urls(**data["urls"]),
                "claims": [Claim(**c) for c in data["claims"]],
            }
        )


class Mentions(NamedTuple):
    """What a paper names: the models, benchmarks and claims a library's statistics gather."""

    id: str
    display_title: str
    models: list[str]
    benchmarks: list[str]
    claims: list[Claim]

    @classmethod
    def of(cls, paper: Paper) -> Mentions:
        return cls(paper.id, paper.display_title, paper.models, paper.benchmarks, paper.claims)
