"""The other input formats, read from the real samples in ../shared/formats, and broken variants."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from paperscope.errors import InputError
from paperscope.library import Library
from paperscope.model import Unread
from paperscope.sources import format_of

from .conftest import SHARED, run_cli

FORMATS = SHARED / "formats"


def read(name: str) -> tuple[str, list]:
    """The format and the records of a sample (entries that are not papers left out)."""
    path = FORMATS / name
    source_format = format_of(path)
    return source_format.name, [r for r in source_format.read(path) if not isinstance(r, Unread)]


@pytest.mark.parametrize(
    ("name", "fmt", "count"),
    [
        ("arxiv_atom.xml", "arxiv", 40),
        ("arxiv_atom_legacy.xml", "arxiv", 10),
        ("arxiv_rss.xml", "arxiv", 4),
        ("proceedings.bib", "bibtex", 39),
        ("tricky.bib", "bibtex", 34),
        ("papers.csv", "table", 40),
        ("sample.csl.json", "csl-json", 26),
        ("sample.ris", "ris", 1),
        ("openreview_v1_notes.json", "openreview", 2),
        ("semantic_scholar.json", "semantic-scholar", 40),
        ("sample.zotero.json", "zotero-json", 26),
    ],
)
def test_each_sample_is_sniffed_and_read(name, fmt, count):
    found, records = read(name)
    assert (found, len(records)) == (fmt, count)
    assert all(r.title for r in records)


def test_arxiv_records_carry_ids_links_and_categories():
    _, records = read("arxiv_atom.xml")
    first = records[0]
    assert first.source.external_id == "arXiv:2202.12139" and first.year == 2022
    assert first.urls["pdf"].startswith("http") and first.urls["site"] == "https://arxiv.org/abs/2202.12139"
    assert first.authors and first.keywords
    assert sum(1 for r in records if "doi" in r.urls) == 9  # the README: 9 entries with a DOI
    _, rss = read("arxiv_rss.xml")
    assert all(r.abstract and not r.abstract.startswith("arXiv:") for r in rss)  # the "Announce Type" prefix is gone


def test_bibtex_macros_crossref_and_latex():
    _, records = read("tricky.bib")
    venues = {r.venue for r in records if r.venue}
    assert not any("\\" in v or "{" in v for v in venues)  # \mbox{G-Animal's} Journal → G-Animal's Journal
    _, proceedings = read("proceedings.bib")
    assert all(r.abstract for r in proceedings) and proceedings[0].source.line == 16


def test_every_bibtex_entry_is_read_or_reported():
    path = FORMATS / "tricky.bib"
    found = list(format_of(path).read(path))
    unread = [r for r in found if isinstance(r, Unread)]
    assert len(found) == 36  # the README: 36 entries
    assert [(u.source.line, u.reason) for u in unread] == [
        (228, "@misc{misc-minimal}: no title"),
        (360, "@misc{random-note-crossref}: no title"),
    ]
    kinds = {r.source.external_id: r.kind for r in found if not isinstance(r, Unread)}
    assert (kinds["article-full"], kinds["book-full"], kinds["inbook-full"]) == ("article-journal", "book", "chapter")
    authors = {r.source.external_id: r.authors for r in found if not isinstance(r, Unread)}
    assert authors["unpublished-full"] == ["Ulrich Ünderwood", "Ned Ñet", "Paul P̄ot"]  # LaTeX names become text


def test_csv_columns_and_author_lists():
    _, records = read("papers.csv")
    assert records[0].source.external_id == "B1xSperKvH" and len(records[0].authors) == 4
    assert records[0].source.line == 2


def test_zotero_items_keep_their_kind_and_organisations():
    _, items = read("sample.zotero.json")
    assert [i.kind for i in items].count("article-journal") == 15 and items[1].kind == "chapter"
    assert items[1].authors == ["Duncan, Margaret Carlisle", "Messner, Michael A."]  # authors, not editors
    assert ["{TIME USA}"] in [i.authors for i in items]  # an organisation stays one name


def test_csl_and_ris_names_and_years():
    _, items = read("sample.csl.json")
    assert all(r.authors for r in items) and any(r.year for r in items)
    _, ris = read("sample.ris")
    assert ris[0].authors == ["Federico, S.", "Grillo, A.", "Herzog, W."] and ris[0].year == 2004


@pytest.mark.parametrize(
    ("name", "text", "problem"),
    [
        ("broken.bib", "@article{x, title = {unclosed\n", "broken.bib:1: broken BibTeX entry: it is never closed"),
        ("keyless.bib", "@article{x title={A}}\n", "keyless.bib:1: broken BibTeX entry: Expected comma"),
        ("broken.csv", 'title,abstract\n"unclosed,quote\n', "broken CSV"),
        ("late.csv", 'title,abstract\n"A","B"\n"C","D"\n"Broken,"x\n', "late.csv:4: broken CSV"),  # its own line
        ("nocols.csv", "paper,notes on titles\na,b\n", "no title or abstract column"),
        ("broken.csl.json", '[{"type": "article", "family": "x", ', "invalid JSON"),
        ("feed.xml", "<feed xmlns='http://www.w3.org/2005/Atom'><title>arXiv</title><entry>", None),
    ],
)
def test_broken_files_are_one_line_errors(tmp_path, name, text, problem):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    run = run_cli("--db", tmp_path / "lib.db", "ingest", path, "--no-embed")
    if problem is None:  # feedparser reads what it can of a truncated feed; it must not crash
        assert run.code in (0, 1) and "Traceback" not in run.err
        return
    assert run.code == 1 and run.err.startswith(f"error: {name}") and problem in run.err
    assert run.err.count("\n") == 1


def test_every_sample_ingests_together_with_the_seeds(tmp_path):
    samples = [
        FORMATS / n
        for n in (
            "arxiv_atom.xml",
            "arxiv_atom_legacy.xml",
            "arxiv_rss.xml",
            "proceedings.bib",
            "tricky.bib",
            "papers.csv",
            "sample.csl.json",
            "sample.ris",
            "sample.zotero.json",
            "openreview_v1_notes.json",
            "semantic_scholar.json",
        )
    ]
    with Library(tmp_path / "all.db") as library:
        report = library.ingest([SHARED / "seeds", *samples], embed_vectors=False)
        assert (
            report.skipped_files == [] and report.records_read == 57 + 40 + 10 + 4 + 39 + 34 + 40 + 26 + 1 + 26 + 2 + 40
        )
        assert len(report.records_unread) == 3  # entries without a title: proceedings.bib's volume, two of tricky.bib
        paper = library.search("arXiv:2202.12139", limit=1)[0].paper
        assert paper.sources[0].format == "arxiv"


def test_versions_of_one_arxiv_paper_are_one_paper(tmp_path):
    feed = (FORMATS / "arxiv_atom.xml").read_text(encoding="utf-8")
    start, end = feed.index("<entry>"), feed.index("</entry>") + len("</entry>")
    entry = feed[start:end]
    second = entry.replace("2202.12139v1", "2202.12139v2").replace("</summary>", " We add a new experiment.</summary>")
    Path(tmp_path / "versions.xml").write_text(
        feed[:start] + entry + second + feed[feed.index("</feed>") :], encoding="utf-8"
    )
    with Library(tmp_path / "v.db") as library:
        report = library.ingest([tmp_path / "versions.xml"], embed_vectors=False)
        assert report.records_read == 2 and library.count() == 1


def test_unknown_formats_are_refused_by_name(tmp_path):
    settings = tmp_path / "settings.json"
    settings.write_text('{"config": {"label": "not papers"}, "rows": [1, 2]}', encoding="utf-8")
    run = run_cli("--db", tmp_path / "lib.db", "ingest", settings)
    assert run.code == 1 and run.err.startswith("error: settings.json: unknown format") and "Traceback" not in run.err
    with pytest.raises(InputError):
        format_of(settings)


def test_openreview_v1_submissions_with_their_decisions():
    _, records = read("openreview_v1_notes.json")
    assert [r.source.external_id for r in records] == ["HkghWScuoQ", "r1eLk2mKiX"]
    assert all(r.status == "accept" and r.venue == "NIPS" and r.year == 2018 for r in records)
    assert records[0].urls["pdf"].startswith("https://openreview.net/pdf/")
    assert records[0].authors[0] == "Aidan N. Gomez"


# API v2 notes, in the shape the public API documentation and openreview-py's Note model give
# (no saved v2 response exists in ../shared/formats): every content value wrapped as {"value": …},
# `invitations` a list, the decision in `content.venue`, `venueid` beside it.
V2_RESPONSE = {
    "notes": [
        {
            "id": "abc123XYZ",
            "forum": "abc123XYZ",
            "replyto": None,
            "invitations": ["ICLR.cc/2025/Conference/-/Submission"],
            "domain": "ICLR.cc/2025/Conference",
            "cdate": 1727740800000,
            "content": {
                "title": {"value": "A Paper on \\textbf{Things}"},
                "abstract": {"value": "We study $x^2$ things."},
                "authors": {"value": ["Ada Lovelace", "Alan Turing"]},
                "keywords": {"value": ["things"]},
                "venue": {"value": "ICLR 2025 Poster"},
                "venueid": {"value": "ICLR.cc/2025/Conference"},
                "pdf": {"value": "/pdf/0123456789abcdef.pdf"},
            },
        },
        {
            "id": "reply1",
            "forum": "abc123XYZ",
            "replyto": "abc123XYZ",
            "invitations": ["ICLR.cc/2025/Conference/-/Comment"],
            "content": {"comment": {"value": "Nice."}},
        },
    ]
}


def test_openreview_v2_notes(tmp_path):
    path = tmp_path / "iclr2025_notes.json"
    path.write_text(json.dumps(V2_RESPONSE), encoding="utf-8")
    source_format = format_of(path)
    records = list(source_format.read(path))
    assert source_format.name == "openreview" and len(records) == 1  # the reply is not a paper
    record = records[0]
    assert (record.title, record.status, record.venue, record.year) == (
        "A Paper on \\textbf{Things}",
        "ICLR 2025 Poster",
        "ICLR",
        2025,
    )
    assert (
        record.authors == ["Ada Lovelace", "Alan Turing"]
        and record.urls["pdf"] == "https://openreview.net/pdf/0123456789abcdef.pdf"
    )


def test_semantic_scholar_paper_with_references_and_citations():
    _, records = read("semantic_scholar.json")
    paper = records[0]
    assert paper.title == "Computing Machinery and Intelligence" and paper.year == 1950
    assert paper.source.external_id == "10.1093/mind/lix.236.433"  # DOI case folded
    assert {r.source.listing for r in records} == {"paper", "references", "citations"}


def test_the_same_papers_from_a_paper_list_and_a_bibtex_file_become_one(tmp_path):
    # Real records in two files: ACML 2021 as a paper list (corpus) and as PMLR's BibTeX (formats).
    with Library(tmp_path / "acml.db") as library:
        library.ingest(
            [SHARED / "corpus" / "paperlists" / "acml2021.json.gz", FORMATS / "proceedings.bib"], embed_vectors=False
        )
        both = [p for p in library.papers() if {s.format for s in p.sources} == {"paperlists", "bibtex"}]
        assert len(both) == 37  # of 39 BibTeX entries: the preface is too short to match, one title differs in its TeX
        assert all(len(p.sources) == 2 for p in both)


def test_one_arxiv_id_joins_a_preprint_and_its_published_version(tmp_path):
    _, records = read("arxiv_atom.xml")
    preprint = records[0]
    published = tmp_path / "published.bib"
    published.write_text(
        "@inproceedings{published2023,\n  title = {Deep Learning Models Compared, Published Version},\n"
        "  booktitle = {Proceedings of Some Conference},\n  year = {2023},\n"
        "  url = {https://arxiv.org/abs/2202.12139v3}\n}\n",
        encoding="utf-8",
    )
    other = tmp_path / "other.bib"
    other.write_text(
        "@inproceedings{other,\n  title = {Deep Learning Models Compared, Published Version},\n"
        "  booktitle = {Another Conference},\n  year = {2023}\n}\n",
        encoding="utf-8",
    )
    with Library(tmp_path / "ids.db") as library:
        library.ingest([FORMATS / "arxiv_atom.xml"], embed_vectors=False)
        library.ingest([published, other], embed_vectors=False)  # a later ingest: matched against the library
        joined = library.search("arXiv:2202.12139", limit=1)[0].paper
        assert {s.format for s in joined.sources} == {"arxiv", "bibtex"} and joined.title == preprint.title
        alone = [p for p in library.papers() if any(s.external_id == "other" for s in p.sources)]
        assert len(alone) == 1 and len(alone[0].sources) == 1  # the same title without the id stays apart


@pytest.mark.slow
def test_a_table_with_unknown_headers_is_read_with_a_map(tmp_path):
    table = tmp_path / "odd.tsv"
    table.write_text(
        "Headline\tBlurb\tWriters\nA Paper Title\tWe study things at length here.\tA. One|B. Two\n", encoding="utf-8"
    )
    db = ("--db", tmp_path / "lib.db")
    refused = run_cli(*db, "ingest", table, "--no-embed")
    assert refused.code == 1 and "no title or abstract column" in refused.err
    run = run_cli(
        *db,
        "ingest",
        table,
        "--no-embed",
        "--map",
        "Headline=title",
        "--map",
        "blurb=abstract",
        "--map",
        "Writers=authors",
    )
    assert run.code == 0, run.err
    paper = json.loads(run_cli(*db, "export").out)
    assert (paper["title"], paper["authors"]) == ("A Paper Title", ["A. One", "B. Two"])
    bad = run_cli(*db, "ingest", table, "--map", "Headline=headline")
    assert bad.code == 1 and "--map takes COLUMN=FIELD" in bad.err
    missing = run_cli("--db", tmp_path / "other.db", "ingest", table, "--map", "Nope=title")
    assert missing.code == 1 and "no column named 'Nope'" in missing.err
