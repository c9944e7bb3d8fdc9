"""Exports for reference managers read back with the libraries those formats are made for."""

from __future__ import annotations

import io
import json
import re

import bibtexparser
import pytest
import rispy
from citeproc import Citation, CitationItem, CitationStylesBibliography, CitationStylesStyle, formatter
from citeproc.source.json import CiteProcJSON

from paperscope.library import Library

from .conftest import CORPUS, SEEDS, run_cli

TRICKY = [
    r"We reach 95\% accuracy & more on {curly} sets with the Schrödinger–Poisson solver of Gödel.",
    "我们提出一种方法: 在中文和 English 混合的摘要上 & 50% 的提升.",
    r"Costs are $O(n^2)$ with \textbf{bold} and [a link](https://example.org/x_y) in it.",
]


@pytest.fixture(scope="module")
def libraries(tmp_path_factory):
    folder = tmp_path_factory.mktemp("export")
    tricky = folder / "tricky.txt"
    tricky.write_text("Tricky Papers\n" + "\n".join(TRICKY) + "\n", encoding="utf-8")
    paths = {"seeds": folder / "seeds.db", "corpus": folder / "uai.db"}
    with Library(paths["seeds"]) as library:
        library.ingest([SEEDS, tricky], embed_vectors=False)
    with Library(paths["corpus"]) as library:
        library.ingest([CORPUS / "uai2019.json.gz"], embed_vectors=False)
    return paths


def exported(db, fmt: str) -> tuple[str, list]:
    out = io.StringIO()
    with Library(db) as library:
        library.export(fmt, out)
        return out.getvalue(), list(library.papers())


@pytest.mark.parametrize("which", ["seeds", "corpus"])
def test_bibtex_parses_back_with_unique_keys(libraries, which):
    text, papers = exported(libraries[which], "bibtex")
    parsed = bibtexparser.parse_string(text)
    assert parsed.failed_blocks == []
    assert len(parsed.entries) == len(papers)
    keys = [e.key for e in parsed.entries]
    assert len(set(keys)) == len(keys)
    for entry, paper in zip(parsed.entries, sorted(papers, key=lambda p: p.id), strict=True):
        assert entry["paperscope_id"] == paper.id
        if paper.venue:
            assert entry.entry_type == "inproceedings" and entry["booktitle"] == f"Proceedings of {paper.venue} {paper.year}"
        else:
            assert entry.entry_type == "misc" and "booktitle" not in entry
    again, _ = exported(libraries[which], "bibtex")
    assert again == text  # stable keys


def test_bibtex_escapes_latex_specials_and_names_its_keys(libraries):
    text, _ = exported(libraries["seeds"], "bibtex")
    entries = {e["paperscope_id"]: e for e in bibtexparser.parse_string(text).entries}
    assert any(e.key == "nemo2026" for e in entries.values())
    tricky = next(e for e in entries.values() if "Schr" in e["abstract"])
    assert r"95{\%} accuracy {\&} more" in tricky["abstract"]
    assert not re.search(r"(?<!\\)[%&#_]", tricky["abstract"])  # every special character escaped
    assert "Schr" in tricky["abstract"] and "ö" not in tricky["abstract"]  # accents as LaTeX
    chinese = next(e for e in entries.values() if "中文" in e["abstract"])
    assert r"{\&} 50{\%}" in chinese["abstract"]


@pytest.mark.parametrize("which", ["seeds", "corpus"])
def test_ris_reads_back_with_rispy(libraries, which):
    text, papers = exported(libraries[which], "ris")
    records = rispy.loads(text)
    assert len(records) == len(papers)
    by_id = {r["id"]: r for r in records}
    for paper in papers:
        record = by_id[paper.id]
        assert record["type_of_reference"] == "CONF"
        assert record["abstract"] == paper.abstract
        assert record.get("authors", []) == paper.authors


@pytest.mark.parametrize("which", ["seeds", "corpus"])
def test_csl_json_renders_with_citeproc(libraries, which):
    text, papers = exported(libraries[which], "csl-json")
    items = json.loads(text)
    assert len(items) == len(papers)

    style = CitationStylesStyle("harvard-cite-them-right", validate=False)
    bibliography = CitationStylesBibliography(style, CiteProcJSON(items), formatter.plain)
    for item in items[:20]:
        bibliography.register(Citation([CitationItem(item["id"])]))
    rendered = [str(entry) for entry in bibliography.bibliography()]
    assert len(rendered) == min(20, len(items)) and all(rendered)
    assert any(items[0]["title"][:20] in r for r in rendered)


def test_every_format_from_the_command_line_and_the_api_list(seeded_db, tmp_path):
    for fmt in ("bibtex", "ris", "csl-json"):
        out = tmp_path / f"papers.{fmt}"
        run = run_cli("--db", seeded_db, "export", "--format", fmt, "-o", out)
        assert run.code == 0 and out.stat().st_size > 10_000, fmt
