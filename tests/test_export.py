"""What the reference exports say: entry types from what is known, names, text, stable keys.
(tests/test_export_readers.py reads every export with independent readers.)"""

from __future__ import annotations

import io
import json
import re

import bibtexparser
import pytest
import rispy

from paperscope.library import Library
from paperscope.normalize.math import to_unicode

from .conftest import BEFORE_BROWSE_INDEXES, CORPUS, SEEDS, run_cli


def exported(db, fmt: str, ids=None, accepted_only: bool = False) -> str:
    out = io.StringIO()
    with Library(db) as library:
        library.export(fmt, out, ids, accepted_only=accepted_only)
    return out.getvalue()


def bib_entries(db, ids=None) -> dict:
    return {e.key: e for e in bibtexparser.parse_string(exported(db, "bibtex", ids)).entries}


def by_title(entries: dict, words: str):
    return next(e for e in entries.values() if words in e["title"])


def test_math_becomes_plain_unicode():
    assert to_unicode(r"a $\times$ b") == "a × b"
    assert to_unicode(r"$\Omega(\sqrt{\log L})$ regret") == "Ω(√log L) regret"
    assert to_unicode(r"$\ell_1$, $x^2 \leq 3$, $x_{t+1}$, $\alpha$-div") == "ℓ₁, x² ≤ 3, xₜ₊₁, α-div"
    assert to_unicode(r"costs \$5 and \$10") == "costs $5 and $10"  # prices are not formulas


def test_entry_types_follow_the_decision_and_the_venue(export_libraries):
    entries = bib_entries(export_libraries["iclr2017"])
    with Library(export_libraries["iclr2017"]) as library:
        papers, keys = list(library.papers()), library.store.cite_keys()
    conference = "International Conference on Learning Representations (ICLR 2017)"
    expected = {
        "Poster": ("inproceedings", conference),
        "Oral": ("inproceedings", conference),
        "Workshop": ("inproceedings", "ICLR 2017 Workshop Track"),
        "Reject": ("misc", None),
    }
    for paper in papers:
        if not paper.title and not paper.abstract:
            assert keys[paper.id] not in entries  # an empty record is not a paper to cite
            continue
        entry = entries[keys[paper.id]]
        assert (entry.entry_type, entry.get("booktitle") and entry["booktitle"]) == expected[paper.status]
        if paper.status == "Reject":
            assert entry["note"].startswith("Submitted to ICLR 2017; rejected.")
    accepted = bibtexparser.parse_string(exported(export_libraries["iclr2017"], "bibtex", accepted_only=True)).entries
    assert len(accepted) == sum(p.status != "Reject" for p in papers) == 245


def test_seed_decisions_workshops_and_placeholders(export_libraries):
    db = export_libraries["seeds"]
    entries = bib_entries(db)
    accepted = by_title(entries, "Accepted Paper")
    assert accepted.entry_type == "inproceedings"
    assert accepted["booktitle"] == "Advances in Neural Information Processing Systems (NeurIPS 2024)"
    assert (
        accepted["author"] == r"Daum{\'e}, III, Hal and Klinger, Tim and van der Maaten, Laurens and Capp{\'e}, Olivier"
    )
    assert by_title(entries, "Workshop Paper")["booktitle"] == "NeurIPS 2024 Workshop Track"
    assert by_title(entries, "Rejected Paper")["note"] == "Submitted to NeurIPS 2024; rejected."
    assert not any(e["title"] == "{Withdrawn}" for e in entries.values())  # a placeholder is not a paper
    csl = {i["title"]: i for i in json.loads(exported(db, "csl-json"))}
    assert csl["An Accepted Paper on Sparse Attention"]["author"] == [
        {"family": "Daumé", "given": "Hal", "suffix": "III"},
        {"family": "Klinger", "given": "Tim"},
        {"family": "Maaten", "given": "Laurens", "non-dropping-particle": "van der"},
        {"family": "Cappé", "given": "Olivier"},
    ]
    assert csl["A Rejected Paper on Dense Attention"]["type"] == "manuscript"
    ris = {r["title"]: r for r in rispy.loads(exported(db, "ris"))}
    assert ris["An Accepted Paper on Sparse Attention"]["authors"] == [
        "Daumé, Hal, III",
        "Klinger, Tim",
        "van der Maaten, Laurens",
        "Cappé, Olivier",
    ]
    assert ris["An Accepted Paper on Sparse Attention"]["type_of_reference"] == "CPAPER"
    assert ris["A Rejected Paper on Dense Attention"]["type_of_reference"] == "UNPB"


def test_arxiv_journal_and_doi_from_the_samples(export_libraries):
    db = export_libraries["formats"]
    entries = bib_entries(db)
    preprint = by_title(entries, "WebView-Oriented Testing")
    assert preprint.entry_type == "misc" and preprint["archiveprefix"] == "arXiv" and preprint["eprint"]
    assert preprint["primaryclass"] == "cs.SE"
    journal = [e for e in entries.values() if e.entry_type == "article"]
    assert journal and all(e["journal"] for e in journal)
    assert sum("doi" in e for e in entries.values()) >= 9 + 1  # the arXiv feed's 9 DOIs, the RIS record's
    csl = json.loads(exported(db, "csl-json"))
    assert {i["type"] for i in csl} >= {"article-journal", "article", "chapter", "book", "paper-conference"}
    assert {"literal": "Court of Arbitration for Sport"} in [a for i in csl for a in i.get("author", [])]
    ris = rispy.loads(exported(db, "ris"))
    assert {r["type_of_reference"] for r in ris} >= {"JOUR", "UNPB", "CHAP", "BOOK", "CPAPER"}
    assert (
        sum(bool(r.get("doi")) for r in ris)
        == sum(bool(i.get("DOI")) for i in csl)
        == sum("doi" in e for e in entries.values())
    )


def test_text_is_latex_in_bibtex_and_unicode_elsewhere(export_libraries):
    db = export_libraries["seeds"]
    entries = bib_entries(db)
    tricky = by_title(entries, "Schr")
    assert r"95\% accuracy \& more" in tricky["abstract"] and r"Schr{\"o}dinger--Poisson" in tricky["abstract"]
    assert "Untitled in its list" in tricky["note"]  # an honest title: the abstract's first sentence, whole
    assert "…" not in exported(db, "bibtex")
    assert "$O(n^{2})$" in by_title(entries, "Costs are")["title"]  # math stays math
    braces = by_title(entries, "unbalanced")
    assert r"\textbraceright{} brace, a stray \textbraceleft{} one" in braces["abstract"]
    assert r"$\Omega(\sqrt{\log L})$" in braces["abstract"] and r"3$\times$3" in braces["abstract"]
    for fmt in ("bibtex", "ris", "csl-json", "csv", "markdown", "jsonl"):
        assert not re.search(r"[\x00-\x08\x0b\x0c\x0e-\x1f]", exported(db, fmt).replace("\\u0002", "\x02")), fmt
    csl = {i["id"]: i for i in json.loads(exported(db, "csl-json"))}
    item = next(i for i in csl.values() if "unbalanced" in i["title"])
    assert "Ω(√log L) bound and the Kullback–Leibler term" in item["abstract"] and "3×3" in item["abstract"]
    markdown = exported(db, "markdown")
    assert r"$\Omega(\sqrt{\log L})$" in markdown and r"\\Omega" not in markdown


def test_keys_are_kept_stable_and_never_move(export_libraries, library_location):
    entries = bib_entries(export_libraries["formats"])
    assert "defazio21" in entries  # a BibTeX source's own key is kept
    with Library(library_location) as library:
        library.ingest([CORPUS / "iclr2017.json.gz"], embed_vectors=False)
        whole = {e["url"]: e.key for e in bibtexparser.parse_string(_export(library, "bibtex")).entries}
        some = [p.id for p in library.papers(limit=3)]
        subset = {e["url"]: e.key for e in bibtexparser.parse_string(_export(library, "bibtex", some)).entries}
        assert subset and all(whole[url] == key for url, key in subset.items())
        library.ingest([CORPUS / "iclr2014.json.gz"], embed_vectors=False)
        after = {e["url"]: e.key for e in bibtexparser.parse_string(_export(library, "bibtex")).entries if "url" in e}
        assert all(after[url] == key for url, key in whole.items())  # no key moved when another list came in
        keys = list(after.values())
        assert len(keys) == len({k.casefold() for k in keys})


def test_a_key_taken_in_an_earlier_ingest_goes_to_no_other_paper(tmp_path, library_location):
    abstracts = [
        "We propose NEMO, a memory system that lets agents recall long dialogues across sessions.",
        "We introduce NEMO, a neural solver for mixed-integer programs trained on branching decisions.",
        "We present NEMO, a benchmark of noisy medical images for segmentation under label shift.",
    ]
    with Library(library_location) as library:
        library.ingest([SEEDS], embed_vectors=False)  # among them ICML 2026's NEMO: nemo2026
        for number, abstract in enumerate(abstracts):  # one paper among 51: its keys are looked up
            page = tmp_path / f"page{number}.txt"
            page.write_text(f"ICML 2026 Papers\n\n{abstract}\n", encoding="utf-8")
            library.ingest([page], embed_vectors=False)
        keys = {paper.abstract: key for paper, key in _keyed(library)}
    assert "nemo2026" in keys.values()
    assert [keys[abstract] for abstract in abstracts] == ["nemo2026a", "nemo2026b", "nemo2026c"]


def _keyed(library):
    keys = library.store.cite_keys()
    return [(paper, keys[paper.id]) for paper in library.papers()]


def _export(library, fmt, ids=None) -> str:
    out = io.StringIO()
    library.export(fmt, out, ids)
    return out.getvalue()


def test_a_library_made_before_keys_were_stored_gets_them_once(tmp_path):
    import sqlite3

    db = tmp_path / "old.db"
    with Library(db) as library:
        library.ingest([SEEDS], embed_vectors=False)
        chosen = next(library.papers()).id
    with sqlite3.connect(db) as raw:  # as an older paperscope left it: schema 7, no keys, no lexical log
        raw.execute("DROP TABLE cite_keys")
        raw.execute("DROP TRIGGER papers_removed")  # papers_added went in schema 12
        raw.execute("DROP TABLE lexical_changes")
        raw.execute("DROP INDEX papers_embed")
        raw.execute("DROP INDEX vectors_current")
        raw.execute("DROP INDEX papers_facets")
        raw.execute("DROP TABLE library_facts")
        raw.executescript(BEFORE_BROWSE_INDEXES)
        raw.execute("PRAGMA user_version = 7")
    one = exported(db, "bibtex", [chosen])  # an export of one paper is the first to need a key
    first = exported(db, "bibtex")
    assert first == exported(db, "bibtex") and len(bib_entries(db)) == 51
    assert one.startswith("@") and one.strip() in first


@pytest.mark.slow
def test_every_format_from_the_command_line(seeded_db, tmp_path):
    for fmt in ("bibtex", "ris", "csl-json", "markdown", "csv", "jsonl"):
        out = tmp_path / f"papers.{fmt}"
        run = run_cli("--db", seeded_db, "export", "--format", fmt, "--accepted-only", "-o", out)
        assert run.code == 0 and out.stat().st_size > 10_000, fmt


def test_bibliographic_dedupe_keeps_kinds_and_dois_apart(tmp_path):
    bib = tmp_path / "same.bib"
    bib.write_text(
        """@article{a, author = {Ann Author}, title = {One Title}, journal = {J}, year = 2020, doi = {10.1000/a}}
@book{b, author = {Ann Author}, title = {One Title}, publisher = {P}, year = 2020}
@incollection{c, author = {Ann Author}, title = {One Title}, booktitle = {B}, year = 2020}
@article{d, author = {Ann Author}, title = {One Title}, journal = {J}, year = 2020, doi = {10.1000/d}}
@article{e, author = {Ann Author}, title = {One Title}, journal = {J}, year = 2020, doi = {10.1000/a}}
""",
        encoding="utf-8",
    )
    with Library(tmp_path / "lib.db") as library:
        library.ingest([bib], embed_vectors=False)
        groups = sorted(sorted(s.external_id for s in p.sources) for p in library.papers())
    assert groups == [["a", "e"], ["b"], ["c"], ["d"]]


def test_an_author_a_list_gives_twice_is_one_author(tmp_path):
    """Every ICRA and IROS list gives each paper's authors twice ("A;B;A;B"): 35,918 papers of the corpus
    showed and exported every author two times."""
    db = tmp_path / "icra.db"
    with Library(db) as library:
        library.ingest([CORPUS / "icra2023.json.gz"], embed_vectors=False)
        papers = list(library.papers())
    assert len(papers) == 1341 and all(len(set(p.authors)) == len(p.authors) for p in papers)
    stereo = by_title(bib_entries(db), "Multi-View Photometric Stereo for Non-Stationary Robots")
    assert stereo["author"].count("Roznere") == 1 and stereo["author"].count(" and ") == 3
