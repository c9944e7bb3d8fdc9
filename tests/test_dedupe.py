"""Deduplication on real records: the seeds, and corpus cases that chose the rules."""

import gzip
import json

from paperscope import dedupe
from paperscope.assemble import prepare
from paperscope.model import RawRecord, Source

from .conftest import CORPUS


def record(abstract=None, title=None, venue="ICML", year=2026, line=1, path="a.txt", authors=()):
    return RawRecord(
        Source(path, line, None, "test"), title=title, abstract=abstract, venue=venue, year=year, authors=list(authors)
    )


def groups_of(*records):
    prepared = [prepare(r, "h") for r in records]
    return sorted(sorted(members) for _, members in dedupe.group([p.unit for p in prepared]).groups)


ABSTRACT = (
    "We study how large language models process negation mechanistically. We find late-layer attention promotes "
    "shortcuts, and ablating those modules improves accuracy on negation questions across several model families."
)


def corpus_records(name, title_start):
    items = json.loads(gzip.decompress((CORPUS / name).read_bytes()))
    venue = name[:-12].upper()
    return [
        record(r["abstract"], r["title"], venue, int(name[-12:-8]), i, name)
        for i, r in enumerate(items, 1)
        if r["title"].startswith(title_start)
    ]


def test_markup_case_whitespace_and_punctuation_differences_merge():
    variant = ABSTRACT.replace("large language models", "**Large Language Models**").replace(", and", " and")
    assert groups_of(record(ABSTRACT), record("  " + variant.upper() + " ", line=2)) == [[0, 1]]


def test_a_titled_record_and_an_untitled_listing_line_with_one_abstract_merge():
    assert groups_of(record(ABSTRACT), record(ABSTRACT + " Code is released.", title="Negation in LLMs")) == [[0, 1]]


def test_papers_sharing_a_first_sentence_stay_apart():
    other = (
        ABSTRACT.split(". ")[0] + ". Instead we propose a retrieval benchmark of ten thousand questions, and show "
        "that current retrievers fail on half of them, leaving a large gap to human performance on every domain."
    )
    assert groups_of(record(ABSTRACT), record(other, line=2)) == [[0], [1]]


def test_two_different_papers_with_one_title_in_one_venue_stay_apart():
    # iros2010 lists two different papers titled "Mixed reality for unmanned aerial vehicle operations ..."
    records = corpus_records("iros2010.json.gz", "Mixed reality for unmanned aerial vehicle operations")
    assert len(records) == 2
    assert groups_of(*records) == [[0], [1]]


def test_identical_abstracts_under_different_titles_stay_apart():
    assert groups_of(record(ABSTRACT, title="Paper one"), record(ABSTRACT, title="Paper two", line=2)) == [[0], [1]]


def test_the_same_text_in_two_venues_stays_apart():
    # ICLR 2017 and ICML 2017 both list "The Predictron" with abstracts at Jaccard 0.9: two listings, two papers.
    records = corpus_records("iclr2017.json.gz", "The Predictron") + corpus_records(
        "icml2017.json.gz", "The Predictron"
    )
    assert groups_of(*records) == [[0], [1]]


def test_a_near_duplicate_within_one_venue_merges():
    # iros2006 lists a video and a paper whose abstracts differ in a word ("This video" / "This paper").
    records = corpus_records("iros2006.json.gz", "Robust Self-Localization in Industrial Environments")
    assert len(records) == 2
    assert groups_of(*records) == [[0, 1]]


def test_boilerplate_titles_without_abstracts_stay_apart_by_author():
    assert groups_of(record(title="Poster", authors=["A"]), record(title="Poster", authors=["B"], line=2)) == [[0], [1]]


def test_records_with_no_text_never_merge():
    assert groups_of(record(), record(line=2)) == [[0], [1]]


def test_ids_depend_only_on_the_key():
    key = dedupe.record_key("T", dedupe.words(ABSTRACT), "ICML", 2026, [], "x")
    assert dedupe.paper_id(key) == dedupe.paper_id(key)
    assert len(dedupe.paper_id(key)) == 12
