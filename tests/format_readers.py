"""Independent readers of each export format, as a user would meet them: pybtex (strict), biber
--validate-datamodel, BibTeX with plain.bst and a LaTeX run, pandoc --citeproc, citation-js (node),
citeproc-py, rispy, a Zotero-style RIS name check, csv, sqlite3, json, jq, markdown-it-py, marked (node).

Each reader takes an exported file and returns what it read and what it complained about. A tool
that is missing raises ToolMissing with what to install: a check never passes by not running.
"""

from __future__ import annotations

import csv
import fcntl
import io
import json
import os
import re
import shutil
import sqlite3
import subprocess
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

# npm packages the node readers load, installed on first use into a cache folder (never the repository)
NPM_PACKAGES = (
    "@citation-js/core@0.7.18",
    "@citation-js/plugin-bibtex@0.7.18",
    "@citation-js/plugin-ris@0.7.18",
    "@citation-js/plugin-csl@0.7.18",
    "marked@15.0.12",
)
NPM_CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "paperscope-test-npm"
DEBIAN = {
    "biber": "biber",
    "bibtex": "texlive-binaries",
    "latex": "texlive-latex-base",
    "pandoc": "pandoc",
    "node": "nodejs",
    "npm": "npm",
    "jq": "jq",
}
_NODE_SCRIPT = Path(__file__).with_name("node_readers.cjs")


class ToolMissing(RuntimeError):
    pass


@dataclass
class Reading:
    read: int
    warnings: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def tool(name: str) -> str:
    found = shutil.which(name)
    if not found:
        raise ToolMissing(f"`{name}` is not installed: apt-get install {DEBIAN.get(name, name)} (.ci/run installs it)")
    return found


def _run(args: list[str], cwd: Path, timeout: int = 600) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        args,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
        env={**os.environ, "LC_ALL": "C.UTF-8"},
    )


# BibTeX


def pybtex_strict(path: Path) -> Reading:
    from pybtex import errors as pybtex_errors
    from pybtex.database import parse_file

    pybtex_errors.set_strict_mode(True)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            data = parse_file(str(path), bib_format="bibtex")
        return Reading(len(data.entries), [str(w.message) for w in caught])
    except Exception as error:
        return Reading(0, errors=[f"{error.__class__.__name__}: {error}"])
    finally:
        pybtex_errors.set_strict_mode(False)


def biber_validate(path: Path) -> Reading:
    run = _run(
        [tool("biber"), "--tool", "--validate-datamodel", "--output-file", "-", "--quiet", path.name], path.parent
    )
    log = run.stderr + run.stdout
    found = [line for line in log.splitlines() if line.startswith(("WARN", "ERROR"))]
    read = len(re.findall(r"^@\w+\{", run.stdout, re.MULTILINE))
    errors = [line for line in found if line.startswith("ERROR")] + (
        [f"biber exited {run.returncode}"] if run.returncode else []
    )
    return Reading(read, [line for line in found if line.startswith("WARN")], errors)


# A Chinese, Japanese or Korean character, which LaTeX's default fonts lack, is shown as "?" here, not an
# error: a document citing such titles loads a CJK package. Any other character LaTeX cannot set is an error.
_DOCUMENT = r"""\documentclass{article}
\makeatletter\def\UTFviii@undefined@err#1{\typeout{UNSET CHARACTER #1}?}\makeatother
\begin{document}
\nocite{*}
\bibliographystyle{plain}
\bibliography{%s}
\end{document}
"""


_CJK = re.compile(r"[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]")


def bibtex_latex(path: Path) -> Reading:
    """BibTeX with plain.bst, then LaTeX typesetting the bibliography (errors such as "Missing $ inserted")."""
    folder = path.parent
    (folder / "refs.tex").write_text(_DOCUMENT % path.stem, encoding="utf-8")
    latex = [tool("latex"), "-interaction=nonstopmode", "-halt-on-error", "refs.tex"]
    _run(latex, folder)
    bibtex = _run([tool("bibtex"), "-terse", "refs"], folder)
    errors, warned = [], []
    blg = (folder / "refs.blg").read_text(encoding="utf-8", errors="replace") if (folder / "refs.blg").exists() else ""
    warned += [line for line in blg.splitlines() if line.startswith("Warning--")]
    errors += [
        line
        for line in blg.splitlines()
        if "I was expecting" in line or "error message" in line or line.startswith("I'm skipping")
    ]
    if bibtex.returncode > 1:
        errors.append(f"bibtex exited {bibtex.returncode}")
    second = _run(latex, folder)
    log = (folder / "refs.log").read_text(encoding="utf-8", errors="replace")
    errors += [line for line in log.splitlines() if line.startswith("!")]
    errors += [line for line in log.splitlines() if line.startswith("UNSET CHARACTER") and not _CJK.search(line)]
    if second.returncode:
        errors.append(f"latex exited {second.returncode}")
    warned += [
        line
        for line in log.splitlines()
        if "LaTeX Warning" in line and "Rerun" not in line and "undefined references" not in line
    ]
    bbl = (folder / "refs.bbl").read_text(encoding="utf-8", errors="replace") if (folder / "refs.bbl").exists() else ""
    return Reading(bbl.count("\\bibitem"), warned, errors)


# pandoc


def pandoc_citeproc(path: Path) -> Reading:
    """Every entry rendered by pandoc --citeproc (.bib or CSL-JSON as the bibliography) to HTML, formulas as
    MathML (pandoc's plain-text writer cannot show some formulas, such as a square root, and says so)."""
    document = path.with_suffix(".refs.md")
    document.write_text(f"---\nbibliography: {path.name}\nnocite: '@*'\n---\n", encoding="utf-8")
    run = _run([tool("pandoc"), "--citeproc", "-t", "html", "--mathml", "--wrap=none", document.name], path.parent)
    path.with_suffix(".pandoc.html").write_text(run.stdout, encoding="utf-8")
    read = run.stdout.count('<div id="ref-')
    found = [line for line in run.stderr.splitlines() if line.strip()]
    errors = [line for line in found if "WARNING" not in line] + (
        [f"pandoc exited {run.returncode}"] if run.returncode else []
    )
    return Reading(read, [line for line in found if "WARNING" in line], errors)


def pandoc_markdown(path: Path) -> Reading:
    run = _run([tool("pandoc"), "-f", "markdown", "-t", "json", path.name], path.parent)
    if run.returncode:
        return Reading(0, errors=[run.stderr.strip() or f"pandoc exited {run.returncode}"])
    blocks = json.loads(run.stdout)["blocks"]
    headings = [b for b in blocks if b["t"] == "Header" and b["c"][0] == 2]
    return Reading(len(headings), [line for line in run.stderr.splitlines() if line.strip()])


def markdown_it(path: Path) -> Reading:
    """markdown-it-py (CommonMark): every paper a second-level heading."""
    from markdown_it import MarkdownIt

    tokens = MarkdownIt("commonmark").parse(path.read_text(encoding="utf-8"))
    return Reading(sum(1 for t in tokens if t.type == "heading_open" and t.tag == "h2"))


def pandoc_csv(path: Path) -> Reading:
    run = _run([tool("pandoc"), "-f", "csv", "-t", "json", path.name], path.parent)
    if run.returncode:
        return Reading(0, errors=[run.stderr.strip() or f"pandoc exited {run.returncode}"])
    table = next(b for b in json.loads(run.stdout)["blocks"] if b["t"] == "Table")
    return Reading(
        sum(len(body[3]) for body in table["c"][4]), [line for line in run.stderr.splitlines() if line.strip()]
    )


# node: citation-js and marked


def node_packages() -> Path:
    """The npm packages, installed into the cache folder the first time."""
    modules = NPM_CACHE / "node_modules"
    NPM_CACHE.mkdir(parents=True, exist_ok=True)
    # Test processes running side by side (pytest -n) install one at a time; the others wait, then find it done.
    with (NPM_CACHE / "install.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not all((modules / p.rsplit("@", 1)[0]).is_dir() for p in NPM_PACKAGES):
            npm = [tool("npm"), "install", "--no-audit", "--no-fund", "--silent", "--prefix", str(NPM_CACHE)]
            run = _run([*npm, *NPM_PACKAGES], NPM_CACHE)
            if run.returncode:
                raise ToolMissing(f"npm could not install {' '.join(NPM_PACKAGES)}: {run.stderr.strip()[-300:]}")
    return modules


def node_reader(fmt: str) -> Callable[[Path], Reading]:
    def read(path: Path) -> Reading:
        run = subprocess.run(
            [tool("node"), str(_NODE_SCRIPT), fmt, str(path)],
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
            env={**os.environ, "NODE_PATH": str(node_packages())},
        )
        if run.returncode:
            return Reading(0, errors=[run.stderr.strip()[-500:] or f"node exited {run.returncode}"])
        result = json.loads(run.stdout)
        return Reading(result["read"], result["warnings"], result["errors"])

    read.__name__ = f"citation_js_{fmt}" if fmt != "markdown" else "marked"
    return read


# CSL-JSON


def citeproc_py(path: Path) -> Reading:
    from citeproc import Citation, CitationItem, CitationStylesBibliography, CitationStylesStyle, formatter
    from citeproc.source.json import CiteProcJSON

    items = json.loads(path.read_text(encoding="utf-8"))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        bibliography = CitationStylesBibliography(
            CitationStylesStyle("harvard-cite-them-right", validate=False), CiteProcJSON(items), formatter.plain
        )
        for item in items:
            bibliography.register(Citation([CitationItem(item["id"])]))
        rendered = [str(entry) for entry in bibliography.bibliography()]
    path.with_suffix(".citeproc.txt").write_text("\n".join(rendered), encoding="utf-8")
    return Reading(sum(1 for r in rendered if r.strip()), [str(w.message) for w in caught])


# RIS


def rispy_loads(path: Path) -> Reading:
    import rispy

    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            records = rispy.loads(path.read_text(encoding="utf-8"))
    except Exception as error:
        return Reading(0, errors=[f"{error.__class__.__name__}: {error}"])
    return Reading(len(records), [str(w.message) for w in caught])


# The RIS types Zotero's translator imports as a type of its own (others fall back to a document).
ZOTERO_TYPES = {"JOUR", "CPAPER", "CONF", "BOOK", "CHAP", "THES", "RPRT", "UNPB", "ELEC", "NEWS", "MGZN", "PAMP", "GEN"}


def zotero_names(path: Path, organisations: frozenset[str] = frozenset()) -> Reading:
    """What Zotero's RIS translator needs to store names in two fields and the type as itself: every AU
    "Family, Given" (or a one-word family name; an organisation whole), no empty name; a type it knows;
    TY first, ER last."""
    read, problems = 0, []
    for number, record in enumerate(
        re.split(r"^ER  - *$", path.read_text(encoding="utf-8"), flags=re.MULTILINE)[:-1], 1
    ):
        lines = [line for line in record.strip("\n").splitlines() if line.strip()]
        if not lines or not lines[0].startswith("TY  - "):
            problems.append(f"record {number}: does not start with TY")
            continue
        read += 1
        if lines[0][6:].strip() not in ZOTERO_TYPES:
            problems.append(f"record {number}: type {lines[0][6:]!r} unknown to Zotero")
        for line in lines:
            if line.startswith("AU  - "):
                person = line[6:].strip()
                family = person.split(",", 1)[0].strip()
                if not family or (" " in person and "," not in person and person not in organisations):
                    problems.append(f"record {number}: author {person!r} is not 'Family, Given'")
    return Reading(read, errors=problems)


# CSV and JSON Lines


def python_csv(path: Path) -> Reading:
    with path.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.reader(handle, strict=True))
    width = len(rows[0])
    return Reading(
        len(rows) - 1,
        errors=[f"row {i}: {len(r)} cells, not {width}" for i, r in enumerate(rows, 1) if len(r) != width],
    )


def sqlite_csv(path: Path) -> Reading:
    """sqlite3's own CSV import (the command-line shell's .import), as a spreadsheet-like reader."""
    run = _run(
        [tool("sqlite3"), ":memory:", ".mode csv", f".import '{path.name}' papers", "SELECT count(*) FROM papers;"],
        path.parent,
    )
    found = [line for line in run.stderr.splitlines() if line.strip()]
    try:
        return Reading(int(run.stdout.strip().splitlines()[-1]), errors=found)
    except (ValueError, IndexError):
        return Reading(0, errors=found or [f"sqlite3 exited {run.returncode}"])


def python_json(path: Path) -> Reading:
    errors, read = [], 0
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        try:
            read += isinstance(json.loads(line), dict)
        except json.JSONDecodeError as error:
            errors.append(f"line {number}: {error}")
    return Reading(read, errors=errors)


def jq_lines(path: Path) -> Reading:
    run = _run([tool("jq"), "-c", ".id", path.name], path.parent)
    return Reading(len(run.stdout.splitlines()), errors=[line for line in run.stderr.splitlines() if line.strip()])


def sqlite_json(path: Path) -> Reading:
    """SQLite's JSON functions, a third JSON parser: every line must be valid JSON with an id."""
    with sqlite3.connect(":memory:") as db:
        lines = path.read_text(encoding="utf-8").splitlines()
        bad = [i for i, line in enumerate(lines, 1) if not db.execute("SELECT json_valid(?)", (line,)).fetchone()[0]]
        read = sum(1 for line in lines if db.execute("SELECT json_extract(?, '$.id')", (line,)).fetchone()[0])
    return Reading(read, errors=[f"line {i}: invalid JSON" for i in bad])


READERS: dict[str, list[Callable[[Path], Reading]]] = {
    "bibtex": [pybtex_strict, biber_validate, bibtex_latex, pandoc_citeproc, node_reader("bibtex")],
    "csl-json": [citeproc_py, pandoc_citeproc, node_reader("csl-json")],
    "ris": [rispy_loads, node_reader("ris"), zotero_names],
    "csv": [python_csv, pandoc_csv, sqlite_csv],
    "jsonl": [python_json, jq_lines, sqlite_json],
    "markdown": [pandoc_markdown, markdown_it, node_reader("markdown")],
}
SUFFIX = {"bibtex": ".bib", "csl-json": ".json", "ris": ".ris", "csv": ".csv", "jsonl": ".jsonl", "markdown": ".md"}


def read_all(fmt: str, text: str, folder: Path, organisations: frozenset[str] = frozenset()) -> dict[str, Reading]:
    """Every reader of `fmt` over the exported `text`, each in a folder of its own (`organisations`: the
    authors that are organisations, which RIS writes whole)."""
    results = {}
    for reader in READERS[fmt]:
        place = folder / reader.__name__
        place.mkdir(parents=True, exist_ok=True)
        path = place / f"export{SUFFIX[fmt]}"
        path.write_text(text, encoding="utf-8")
        results[reader.__name__] = reader(path, organisations) if reader is zotero_names else reader(path)
    return results


def export_text(library, fmt: str) -> str:  # type: ignore[no-untyped-def]
    out = io.StringIO()
    library.export(fmt, out)
    return out.getvalue()


def organisations(library) -> frozenset[str]:  # type: ignore[no-untyped-def]
    """The library's authors that are organisations (kept in braces)."""
    return frozenset(a[1:-1] for p in library.papers() for a in p.authors if a.startswith("{") and a.endswith("}"))
