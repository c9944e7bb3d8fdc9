"""The command as a user runs it: output, one-line errors, nothing written on bad input."""

import gzip
import json
import re
import sqlite3

import pytest

from paperscope.library import Library

from .conftest import CORPUS, SEEDS, run_cli


def papers_in(db_path):
    if not db_path.exists():
        return 0
    db = sqlite3.connect(db_path)
    try:
        return db.execute("SELECT count(*) FROM papers").fetchone()[0]
    except sqlite3.OperationalError:
        return 0
    finally:
        db.close()


def test_ingest_prints_the_summary_and_the_quality_report(db_path):
    run = run_cli("--db", db_path, "ingest", SEEDS)
    assert run.code == 0, run.err
    lines = run.out.splitlines()
    assert lines[0] == "57 records read from 3 files → 51 papers (6 duplicates merged), 0 errors"
    assert "duplicates merged: 6" in run.out
    assert "URLs repaired: 1" in run.out
    assert "  001_3a14d78222ee847b.txt:35" in run.out
    again = run_cli("ingest", SEEDS, "--db", db_path)
    assert (
        again.out.splitlines()[0]
        == "0 records read from 0 files (3 unchanged) → 0 papers (0 duplicates merged), 0 errors"
    )


def test_ingest_json_report(db_path):
    run = run_cli("--db", db_path, "ingest", SEEDS, "--json", "--no-embed")
    report = json.loads(run.out)
    assert (report["records_read"], report["papers"], report["records_merged"], report["errors"]) == (57, 51, 6, 0)
    assert len(report["duplicates_merged"]) == 6


def test_database_from_the_environment(tmp_path):
    db = tmp_path / "env.db"
    assert run_cli("ingest", SEEDS, "--no-embed", env={"PAPERSCOPE_DB": str(db)}).code == 0
    assert papers_in(db) == 51


def test_default_database_is_in_the_current_folder(tmp_path):
    assert run_cli("ingest", SEEDS, "--no-embed", cwd=tmp_path, env={"PAPERSCOPE_DB": ""}).code == 0
    assert papers_in(tmp_path / "paperscope.db") == 51


def test_papers_lists_a_table_and_json(seeded_db):
    table = run_cli("--db", seeded_db, "papers", "--limit", "5")
    assert table.code == 0
    assert "51 papers" in table.out and "showing 1–5 of 51" in table.out
    listing = json.loads(run_cli("--db", seeded_db, "papers", "--json").out)
    assert listing["total"] == 51 and len(listing["papers"]) == 51
    assert set(listing["papers"][0]) == {
        *("id", "display_title", "title", "name", "venue", "year", "status", "sources", "has_code")
    }


def test_show_prints_the_clean_abstract_links_and_sources(seeded_db):
    listing = json.loads(run_cli("--db", seeded_db, "papers", "--json").out)["papers"]
    merit = next(p for p in listing if p["has_code"] and p["sources"] == 2)
    run = run_cli("--db", seeded_db, "show", merit["id"])
    assert run.code == 0
    assert "code: https://github.com/" in run.out
    assert run.out.count("source: ") == 2
    assert "(ICML 2026 论文列表)" in run.out
    shown = json.loads(run_cli("--db", seeded_db, "show", merit["id"], "--json").out)
    assert shown["id"] == merit["id"]


def test_show_prints_formulas_as_the_web_shows_them(seeded_db):
    with Library(seeded_db) as library:
        gorl = library.search("HopperStand", limit=1, mode="lexical")[0].paper
    assert "$3\\times$" in gorl.abstract
    shown = run_cli("--db", seeded_db, "show", gorl.id)
    assert shown.code == 0 and "more than 3× the" in shown.out and "\\times" not in shown.out
    with Library(seeded_db) as library:
        bound = next(p for p in library.papers() if "\\Omega(\\sqrt{\\log L})" in p.abstract)
    assert "Ω(√log L)" in run_cli("--db", seeded_db, "show", bound.id).out


def test_show_an_unknown_id(seeded_db):
    run = run_cli("--db", seeded_db, "show", "nosuchpaper")
    assert run.code == 1
    assert run.err.strip() == "error: no paper with id 'nosuchpaper'"


@pytest.mark.parametrize("fmt", ["jsonl", "json", "csv", "markdown"])
def test_export_formats_to_a_file(seeded_db, tmp_path, fmt):
    out = tmp_path / f"papers.{fmt}"
    run = run_cli("--db", seeded_db, "export", "--format", fmt, "-o", out)
    assert run.code == 0, run.err
    text = out.read_text(encoding="utf-8")
    if fmt == "jsonl":
        assert len(text.splitlines()) == 51
    elif fmt == "json":
        assert len(json.loads(text)) == 51
    elif fmt == "csv":
        assert text.startswith("id,display_title,")
    else:
        assert text.count("\n## ") + text.startswith("## ") == 51
    assert not list(tmp_path.glob("*.partial"))


def test_export_into_a_folder_that_is_not_there_is_one_line_naming_the_file(seeded_db, tmp_path):
    out = tmp_path / "missing" / "papers.bib"
    run = run_cli("--db", seeded_db, "export", "--format", "bibtex", "-o", out)
    assert run.code == 1
    assert run.err.strip() == f"error: {out}: No such file or directory"


def test_export_an_unknown_format(seeded_db):
    run = run_cli("--db", seeded_db, "export", "--format", "docx")
    assert run.code == 1
    assert run.err.startswith("error: unknown export format 'docx'")


def test_every_command_has_help_with_an_example():
    for command in ("ingest", "papers", "show", "export"):
        run = run_cli(command, "--help")
        assert run.code == 0
        assert "Example: paperscope" in run.out


# Bad input: one line on stderr naming the file (and line), exit status 1, nothing written.


def write(path, content):
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    return path


def bad_inputs(tmp_path):
    long_line = "ICML 2026 Papers\n\n" + "word " * 5000 + "\n"
    truncated = gzip.compress((CORPUS / "uai2019.json.gz").read_bytes())[:200]
    folder = tmp_path / "empty_folder"
    folder.mkdir()
    return {
        "missing path": (tmp_path / "nope.txt", r"error: .*nope.txt: no such file or folder"),
        "empty folder": (folder, r"error: .*empty_folder: folder holds no files to read"),
        "empty file": (write(tmp_path / "empty.txt", ""), r"error: empty.txt: empty file"),
        "header only": (write(tmp_path / "header.txt", "ICML 2026 Papers\n\n"), r"error: header.txt:1: no abstracts"),
        "not UTF-8": (
            write(tmp_path / "latin.txt", "ICML 2026 Papers\n\nna\xefve\n".encode("latin-1")),
            r"error: latin.txt:3: not UTF-8 text \(byte 0xef\)",
        ),
        "truncated gzip": (write(tmp_path / "cut.json.gz", truncated), r"error: cut.json.gz: broken gzip data"),
        "JSON not a paper list": (write(tmp_path / "conf.json", '{"name": "x"}'), r"error: conf.json: unknown format"),
        "truncated JSON object": (
            write(tmp_path / "cut.json", '{"papers": [{"title": "Broken", "abstract": "x"\n'),
            r"error: cut.json:2: invalid JSON",
        ),
        "a number for a title": (
            write(tmp_path / "typed.json", '[{"title": "A", "abstract": "an abstract"},\n {"title": 5}]'),
            r"error: typed.json:2: field 'title' is a number, not text",
        ),
        "array of non-papers": (
            write(tmp_path / "nums.json", '[{"title": "A"}, {"x": 1}]'),
            r"error: nums.json:2: not a paper list",
        ),
        "invalid JSON": (
            write(tmp_path / "broken.json", '[{"title": "A",\n "abstract": }]'),
            r"error: broken.json:2: invalid JSON",
        ),
        "line too long": (write(tmp_path / "long.txt", long_line), r"error: long.txt:3: line is longer than 20,000"),
        "unknown format": (write(tmp_path / "blob.bin", b"\x00\x01binary\x00"), r"error: blob.bin: unknown format"),
    }


CASES = [
    "missing path",
    "empty folder",
    "empty file",
    "header only",
    "not UTF-8",
    "truncated gzip",
    "JSON not a paper list",
    "truncated JSON object",
    "a number for a title",
    "array of non-papers",
    "invalid JSON",
    "line too long",
    "unknown format",
]


@pytest.mark.parametrize("case", CASES)
def test_bad_input_is_one_line_and_writes_nothing(tmp_path, case):
    path, message = bad_inputs(tmp_path)[case]
    db = tmp_path / "lib.db"
    run = run_cli("--db", db, "ingest", SEEDS, path)
    assert run.code == 1
    assert len(run.err.strip().splitlines()) == 1, run.err
    assert "Traceback" not in run.err
    assert re.match(message, run.err.strip()), run.err
    assert papers_in(db) == 0


def test_skip_bad_ingests_the_good_files_and_lists_the_bad(tmp_path):
    inputs = bad_inputs(tmp_path)
    db = tmp_path / "lib.db"
    run = run_cli(
        "--db", db, "ingest", SEEDS, inputs["empty file"][0], inputs["not UTF-8"][0], "--skip-bad", "--no-embed"
    )
    assert run.code == 0
    assert "→ 51 papers (6 duplicates merged), 2 errors" in run.out
    assert "files skipped: 2" in run.out and "latin.txt:3: not UTF-8 text" in run.out
    assert papers_in(db) == 51


def test_a_file_that_is_not_a_database(tmp_path):
    db = write(tmp_path / "notes.db", "these are my notes, not a database" * 100)
    run = run_cli("--db", db, "papers")
    assert run.code == 1
    assert run.err.startswith("error: ") and "not a paperscope database" in run.err


def test_a_library_in_a_folder_that_does_not_exist(tmp_path):
    run = run_cli("--db", tmp_path / "missing" / "lib.db", "ingest", SEEDS)
    assert run.code == 1
    assert run.err.strip().endswith("cannot create the library there: its folder does not exist")


@pytest.mark.parametrize(
    "command",
    [["papers"], ["search", "decoding"], ["stats"], ["export", "-f", "csv"], ["serve"], ["tag", "abc", "x"], ["embed"]],
)
def test_a_mistyped_db_is_refused_not_created(tmp_path, command):
    typo = tmp_path / "libary.db"
    run = run_cli("--db", typo, *command)
    assert run.code == 1 and run.out == ""
    assert run.err.strip().splitlines() == [
        f"error: {typo}: no library there (a mistyped --db?); `paperscope ingest` makes one"
    ]
    assert not typo.exists()


def test_copy_from_a_library_that_does_not_exist(tmp_path):
    run = run_cli("copy", "--from", tmp_path / "nope.db", "--to", tmp_path / "new.db")
    assert run.code == 1 and "nope.db: no library there" in run.err
    assert not (tmp_path / "nope.db").exists() and not (tmp_path / "new.db").exists()


def test_files_in_a_folder_that_are_no_lists_are_skipped_and_listed(tmp_path):
    folder = tmp_path / "lists"
    folder.mkdir()
    for seed in SEEDS.iterdir():
        (folder / seed.name).write_bytes(seed.read_bytes())
    write(folder / "README.md", "# My lists\n\nDownloaded from the conference site on Monday.\nSee notes.\n")
    write(folder / "LICENSE", "Permission is hereby granted, free of charge, to any person\n")
    write(folder / "empty.txt", "")
    db = tmp_path / "lib.db"
    run = run_cli("--db", db, "ingest", folder, "--no-embed")
    assert run.code == 0, run.err
    assert "→ 51 papers (6 duplicates merged), 0 errors" in run.out
    assert "not paper lists, skipped: 3" in run.out and "README.md: not a paper list (.md)" in run.out
    assert "empty.txt: not a paper list (empty file)" in run.out
    assert papers_in(db) == 51
    named = run_cli("--db", tmp_path / "other.db", "ingest", SEEDS, folder / "README.md", "--no-embed")
    assert named.code == 1 and papers_in(tmp_path / "other.db") == 0
    assert named.err.strip() == "error: README.md: not a paper list (.md)"


def test_dash_as_output_is_standard_output(seeded_db, tmp_path):
    exported = run_cli("--db", seeded_db, "export", "-f", "csv", "-o", "-", cwd=tmp_path)
    assert exported.code == 0 and exported.out.startswith("id,display_title,")
    assert len(exported.out.strip().splitlines()) > 51
    drawn = run_cli("--db", seeded_db, "map", "-o", "-", cwd=tmp_path)
    assert drawn.code == 0 and drawn.out.lstrip().startswith("<svg")
    assert list(tmp_path.iterdir()) == []  # no file named "-"
