"""What the reference formats (BibTeX, RIS, CSL-JSON) share: one Reference per paper, made from what is
known of it: its kind of work, the decision on it, its venue, DOI and arXiv id.

A paper's citation key is not made here: it is assigned once and stored (paperscope.citekeys).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from paperscope import dedupe
from paperscope.export.venues import proceedings
from paperscope.model import Paper
from paperscope.normalize.names import Name, parse_name
from paperscope.normalize.sentences import first_sentence

# CSL types of what is exported. "article" is CSL's preprint; "manuscript" a paper not (yet) published.
CONFERENCE, JOURNAL, PREPRINT, MANUSCRIPT = "paper-conference", "article-journal", "article", "manuscript"
_REJECTED = re.compile(r"reject|not accepted", re.IGNORECASE)
_WITHDRAWN = re.compile(r"withdr", re.IGNORECASE)
_UNDER_REVIEW = re.compile(r"under review|submitted|pending|active", re.IGNORECASE)
_PLACEHOLDER = re.compile(r"^\W*(?:withdrawn|removed|deleted|placeholder)(?: paper| submission)?\W*$", re.IGNORECASE)
_CATEGORY = re.compile(r"^[a-z\-]+(?:\.[A-Za-z\-]{2,})?$")


@dataclass
class Reference:
    key: str
    type: str  # CSL type
    title: str
    authors: list[Name]
    container: str | None  # proceedings or journal
    year: int | None
    abstract: str
    doi: str | None = None
    arxiv: str | None = None
    primary_class: str | None = None
    url: str | None = None
    code: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    keywords: list[str] = field(default_factory=list)
    paper_id: str = ""


def placeholder(paper: Paper) -> bool:
    """A list's stand-in for a withdrawn paper (titled "Withdrawn", or with neither title nor abstract):
    not a paper to cite."""
    title = paper.title or ""
    return bool(_PLACEHOLDER.match(title)) or (
        not title and (not paper.abstract or bool(_PLACEHOLDER.match(paper.abstract)))
    )


def accepted(paper: Paper) -> bool:
    """Whether the paper was published or accepted as far as its lists say (no decision means accepted)."""
    status = paper.status or ""
    return not (_REJECTED.search(status) or _WITHDRAWN.search(status) or _UNDER_REVIEW.search(status))


def title_of(paper: Paper) -> tuple[str, str | None]:
    """The title to cite, and a note when the list gave none and it was made from the abstract
    (its first sentence, whole: a cut title would look like a real one)."""
    if paper.title:
        return paper.title, None
    first = first_sentence(paper.abstract) if paper.abstract else ""
    if not first:
        return paper.display_title, "Untitled in its list."
    return first.rstrip("."), "Untitled in its list: the title is the abstract's first sentence."


def identities(paper: Paper) -> tuple[str | None, str | None]:
    """(DOI, arXiv id) from the paper's links and its sources' own ids."""
    urls = [u for u in (paper.urls.site, paper.urls.pdf, *paper.urls.other) if u]
    found = sorted(dedupe.paper_identities(((s.external_id, s.format) for s in paper.sources), urls))
    doi = next((i.removeprefix("doi:") for i in found if i.startswith("doi:") and "10.48550/" not in i), None)
    arxiv = next((i.removeprefix("arxiv:") for i in found if i.startswith("arxiv:")), None)
    return doi, arxiv


def main_url(paper: Paper) -> str | None:
    return paper.urls.site or paper.urls.pdf or (paper.urls.code[0] if paper.urls.code else None)


def reference(paper: Paper, key: str) -> Reference:
    title, title_note = title_of(paper)
    doi, arxiv = identities(paper)
    url = main_url(paper)
    ref = Reference(
        key=key,
        type=CONFERENCE,
        title=title,
        authors=[parse_name(a) for a in paper.authors],
        container=None,
        year=paper.year,
        abstract=paper.abstract,
        doi=doi,
        arxiv=arxiv,
        url=url,
        code=[c for c in paper.urls.code if c != url],
        notes=[title_note] if title_note else [],
        keywords=paper.keywords,
        paper_id=paper.id,
    )
    venue = paper.venue if paper.venue and paper.venue.casefold() != "arxiv" else None
    status = paper.status or ""
    if not accepted(paper):
        ref.type = MANUSCRIPT
        where = f"{venue} {paper.year or ''}".strip() if venue else "a venue"
        verdict = (
            "withdrawn" if _WITHDRAWN.search(status) else "rejected" if _REJECTED.search(status) else "under review"
        )
        ref.notes.append(f"Submitted to {where}; {verdict}.")
    elif paper.kind and (paper.kind != CONFERENCE or not venue):  # a conference paper whose volume is unknown too
        ref.type, ref.container = paper.kind, venue
    elif venue:
        ref.container = _workshop(paper, venue) or proceedings(venue, paper.year, paper.status)
    else:
        ref.type = PREPRINT if arxiv else MANUSCRIPT
    if arxiv:
        ref.primary_class = next((k for k in paper.keywords if _CATEGORY.match(k) and "." in k), None)
    return ref


def _workshop(paper: Paper, venue: str) -> str | None:
    """The workshop of a workshop paper: named by its track when the track names it."""
    for label in (paper.track, paper.status):
        if label and "workshop" in label.casefold():
            if label.casefold().removeprefix("poster ").removeprefix("oral ") in ("workshop", "workshop track"):
                return f"{venue} {paper.year or ''} Workshop Track".replace("  ", " ")
            return label
    return None
