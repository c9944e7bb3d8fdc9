"""The records of one paper, cleaned, become one Paper: provenance kept, the best text chosen."""

from __future__ import annotations

from dataclasses import dataclass

from paperscope import dedupe
from paperscope.extract import Facts, extract, split_links
from paperscope.model import Paper, RawRecord, Urls
from paperscope.normalize import CleanText, clean_text
from paperscope.normalize.controls import scrub
from paperscope.normalize.names import family_word
from paperscope.normalize.urls import clean_url, listed_urls

# The version of how a paper is made from its records (cleaning, extraction, assembly). Raise it when
# what they make changes (tests/test_ingest.py's digest of the papers made from a sample of the corpus
# fails until then): a library whose papers an earlier version made has them made again from their
# stored records at its next ingest, so that what a better extractor finds reaches it.
VERSION = 50


@dataclass
class Prepared:
    """A raw record with its cleaned text and its dedupe identity."""

    raw: RawRecord
    title: CleanText
    abstract: CleanText
    key: str
    unit: dedupe.Unit
    file_hash: str
    facts: Facts  # extracted here, in the worker processes, not when the paper is assembled
    family: str  # the first author's family name as a citation key takes it ("" without authors)

    @property
    def where(self) -> str:
        return f"{self.raw.source.path}:{self.raw.source.line}"


def prepare(raw: RawRecord, file_hash: str) -> Prepared:
    """The record scrubbed (in an ingest's worker processes, not its writer), cleaned and extracted."""
    raw = scrub(raw)
    title, abstract = clean_text(raw.title), clean_text(raw.abstract)
    if raw.abstract == abstract.text:
        raw.abstract = abstract.text  # the same string object, so it is held (and pickled) once
    fallback = f"{file_hash}:{raw.source.line}"
    abstract_words = dedupe.words(abstract.text)
    key = dedupe.record_key(title.text, abstract_words, raw.venue, raw.year, raw.authors, fallback)
    venue = (raw.venue.casefold(), raw.year) if raw.venue and raw.year else None
    ids = dedupe.identities(raw.source.external_id, raw.source.format, raw.urls.values())
    unit = dedupe.Unit.of(
        key, dedupe.title_key(title.text), venue, abstract.text, text_words=abstract_words, ids=ids, kind=raw.kind
    )
    facts = extract(title.text or None, abstract.text, raw.abstract or "")
    family = family_word(raw.authors[0]) if raw.authors else ""
    return Prepared(raw, title, abstract, key, unit, file_hash, facts, family)


def first_families(items: list[Prepared]) -> dict[str, str]:
    """The family name of each record's first author, by the author as written: what citekeys.base takes."""
    return {item.raw.authors[0]: item.family for item in items if item.raw.authors}


def _preference(item: Prepared) -> tuple:
    """The record whose text a paper shows: one with a title, then the longest abstract, then file order."""
    source = item.raw.source
    return (not item.title.text, -len(item.abstract.text), source.path, source.line)


def assemble(paper_id: str, items: list[Prepared]) -> Paper:
    items = sorted(items, key=_preference)
    best = items[0]
    raw = best.raw
    given = [
        url
        for item in items
        for key, field in item.raw.urls.items()
        if key not in ("pdf", "site")
        for url in listed_urls(field)
    ]
    code, other = split_links([*given, *best.abstract.urls], best.abstract.text)
    facts = best.facts
    return Paper(
        id=paper_id,
        title=best.title.text or None,
        display_title=facts.display_title,
        name=facts.name,
        name_expansion=facts.name_expansion,
        abstract=best.abstract.text,
        abstract_raw=raw.abstract or "",
        abstract_html=best.abstract.html,
        # once each: ICRA 2023's list, among others, gives every author twice ("A;B;A;B")
        authors=list(dict.fromkeys(next((item.raw.authors for item in items if item.raw.authors), []))),
        venue=next((item.raw.venue for item in items if item.raw.venue), None),
        year=next((item.raw.year for item in items if item.raw.year), None),
        sources=sorted({item.raw.source for item in items}, key=lambda s: (s.path, s.line)),
        urls=Urls(
            pdf=_first_url(items, "pdf"),
            site=_first_url(items, "site"),
            code=code,
            other=other,
        ),
        models=facts.models,
        benchmarks=facts.benchmarks,
        claims=facts.claims,
        contribution=facts.contribution,
        keywords=list(dict.fromkeys(k for item in items for k in item.raw.keywords)),
        status=next((item.raw.status for item in items if item.raw.status), None),
        track=next((item.raw.track for item in items if item.raw.track), None),
        kind=next((item.raw.kind for item in items if item.raw.kind), None),
    )


def _first_url(items: list[Prepared], kind: str) -> str | None:
    return next((url for item in items if (url := clean_url(item.raw.urls.get(kind, "")))), None)
