"""Any input gives a result or the project's own one-line error: never another exception, never a
hang, never unsafe HTML (hypothesis; the long run is bench/fuzz.py)."""

from __future__ import annotations

import gzip
import json
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paperscope.errors import PaperscopeError
from paperscope.index.lexical import parse
from paperscope.normalize.text import clean_text
from paperscope.normalize.urls import clean_url

from .conftest import SEEDS
from .fuzzing import read_any, unsafe_html

FAST = settings(max_examples=150, deadline=2_000, suppress_health_check=[HealthCheck.too_slow])
PIECES = [
    "\\textbf{",
    "}",
    "$",
    "\\(",
    "\\)",
    "**",
    "[a](",
    ")",
    "<script>",
    "</script>",
    "<img src=x onerror=alert(1)>",
    "javascript:alert(1)",
    "\\href{javascript:x}{y}",
    "https://github. com/a/b",
    "\\%",
    "&amp;",
    "{",
    "\\",
    "`",
    "\n",
    "\t",
    "\u202e",
    "\x00",
    "中文",
    "😀",
    '"><svg onload=x>',
    "\\url{",
    "$$",
    "\\begin{align}",
]
texts = st.lists(st.one_of(st.sampled_from(PIECES), st.text(max_size=12)), max_size=40).map("".join)
SEED_LINES = (SEEDS / "003_27e213eb8034c1f7.txt").read_text(encoding="utf-8").splitlines()


def read_bytes_as_file(data: bytes, name: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / name
        path.write_bytes(data)
        try:
            read_any(path)
        except PaperscopeError as error:
            assert "\n" not in str(error) and str(error)


@FAST
@given(st.binary(max_size=2_000), st.sampled_from(["page.txt", "list.json", "list.json.gz", "x"]))
def test_any_bytes_are_read_or_refused_cleanly(data, name):
    read_bytes_as_file(data, name)


@FAST
@given(st.lists(texts, min_size=1, max_size=6))
def test_any_listing_page_is_read_or_refused_cleanly(lines):
    read_bytes_as_file(("ICML 2026 Papers\n" + "\n".join(lines)).encode("utf-8", "surrogatepass"), "page.txt")


@FAST
@given(
    st.lists(
        st.dictionaries(
            st.sampled_from(["title", "abstract", "author", "site", "github", "id", "status"]),
            st.one_of(texts, st.integers(), st.none(), st.lists(texts, max_size=3)),
            min_size=1,
        ),
        min_size=1,
        max_size=4,
    ),
    st.booleans(),
)
def test_any_paper_list_is_read_or_refused_cleanly(items, zipped):
    data = json.dumps(items).encode()
    read_bytes_as_file(gzip.compress(data) if zipped else data, "icml2026.json.gz" if zipped else "icml2026.json")


@FAST
@given(st.integers(0, len(SEED_LINES) - 1), st.integers(0, 2_000), texts)
def test_mutated_seed_lines_stay_clean(line, at, inserted):
    original = SEED_LINES[line]
    mutated = original[:at] + inserted + original[at:]
    cleaned = clean_text(mutated)
    assert unsafe_html(cleaned.html) is None


@FAST
@given(texts)
def test_url_repair_gives_a_web_url_or_nothing(text):
    url = clean_url(text)
    assert url is None or url.startswith(("http://", "https://"))


@FAST
@given(texts)
def test_any_query_parses(text):
    query = parse(text)
    assert all(term.count('"') % 2 == 0 for term in query.must + query.exclude)


def test_the_inspector_sees_what_a_browser_would_run():
    assert unsafe_html('<a href="javascript:x">y</a>') and unsafe_html("<img src=x onerror=y>")
    assert unsafe_html('<p>fine <a href="https://x.org">link</a> <math><mi>x</mi></math></p>') is None


def test_inputs_the_long_run_found(tmp_path):
    """Each once broke a reader (bench/fuzz.py): an arXiv link without href, a CSV header with a
    stray quote, XML that feedparser's own handler cannot take."""
    for name, text in (
        (
            "page.txt",
            (
                '<feed xmlns="http://www.w3.org/2005/Atom"><title>arXiv</title><entry><id>http://arxiv.org/abs/1</id>'
                '<title>T</title><link rel="related" title="pdf"/></entry></feed>'
            ),
        ),
        ("papers.csv", 'title,"abs"tract\na,b\n'),
        ("f", '<feed xmlns="http://www.w3.org/2005/Atom" xmlns:a="x"><title>arXiv</title><entry a:b:c="1"/></feed>'),
    ):
        read_bytes_as_file(text.encode(), name)
