"""Full-text search on PostgreSQL: papers as weighted tsvectors, queries as tsqueries.

PostgreSQL's own parser splits text differently from SQLite's FTS5 (it keeps "-4" of "GPT-4",
splits on "_" but not on "."), so both sides are tokenised here, the way FTS5's unicode61 does —
lower case, accents removed, letters and digits only, CJK runs as character bigrams — and handed
to PostgreSQL as tsvector and tsquery literals, which it takes as they are. The same query then
matches the same papers on both backends.

`doc` weighs the columns as bm25() does in SQLite: A name, B titles, C models and benchmarks,
D abstract and authors. `fields` holds only what a field: term names (A models, B benchmarks,
C authors), so that `author:` does not match an abstract.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

from paperscope.index import lexical
from paperscope.model import Paper

_TOKEN = re.compile(r"[^\W_]+")
MAX_POSITION = 16_383  # PostgreSQL's largest tsvector position
COLUMN_GAP = 8  # positions between columns, so that a phrase never runs from one into the next
DOC_WEIGHTS = {
    "name": "A",
    "title": "B",
    "display_title": "B",
    "models": "C",
    "benchmarks": "C",
    "abstract": "D",
    "authors": "D",
}
FIELD_WEIGHTS = {"models": "A", "benchmarks": "B", "authors": "C"}
# ts_rank's weights for D, C, B, A: bm25()'s column weights of SQLite (name 6, titles 4/3, ...) over 6
RANK_WEIGHTS = "{0.1667, 0.3333, 0.6667, 1.0}"


def tokens(text: str) -> list[str]:
    plain = lexical.cjk_bigrams(text.lower())
    if not plain.isascii():  # most text is: nothing to decompose (a character at a time, this was most of an ingest)
        plain = unicodedata.normalize("NFKD", plain).translate(_combining())
        if max(plain) > "\uffff":  # beyond the table: the rare marks of the other planes
            plain = "".join(c for c in plain if not unicodedata.combining(c))
    return _TOKEN.findall(plain)


@cache
def _combining() -> dict[int, None]:
    """A str.translate table that deletes the combining marks (accents, once decomposed) of the BMP."""
    return {c: None for c in range(0x10000) if unicodedata.combining(chr(c))}


def _lexeme(token: str) -> str:
    return "'" + token[:1000] + "'"  # tokens hold letters and digits only: nothing to escape


def _vector(columns: list[tuple[list[str], str]]) -> str:
    """A tsvector literal of (tokens, weight) columns, positions running on across columns."""
    positions: dict[str, list[str]] = {}
    position = 1
    for column, weight in columns:
        for token in column:
            positions.setdefault(token, []).append(f"{min(position, MAX_POSITION)}{weight}")
            position += 1
        position += COLUMN_GAP
    return " ".join(f"{_lexeme(t)}:{','.join(p[:256])}" for t, p in positions.items())


def columns(paper: Paper) -> dict[str, list[str]]:
    """The tokens of each indexed column (lexical.COLUMNS) of a paper: what both its tsvectors and
    its postings (pg_bm25.py) are made of."""
    return {c: tokens(text) for c, text in zip(lexical.COLUMNS, lexical.document(paper), strict=True)}


def documents(tokenised: dict[str, list[str]]) -> tuple[str, str]:
    """The (doc, fields) tsvector literals of a paper's tokenised columns."""
    doc = _vector([(tokenised[c], DOC_WEIGHTS[c]) for c in lexical.COLUMNS])
    fields = _vector([(tokenised[c], weight) for c, weight in FIELD_WEIGHTS.items()])
    return doc, fields


def term(fts_term: str) -> tuple[str, str] | None:
    """A parsed query term ('"word"', '"two words"', 'authors : "name"') as (vector, tsquery):
    which of the two tsvectors it searches, and the query; None when no token is left."""
    column, _, quoted = fts_term.rpartition(" : ")
    words = tokens(quoted)
    if not words:
        return None
    column = column.strip()
    if column in FIELD_WEIGHTS:
        return "fields", " <-> ".join(f"{_lexeme(w)}:{FIELD_WEIGHTS[column]}" for w in words)
    weight = f":{DOC_WEIGHTS[column]}" if column in ("name", "title") else ""
    return "doc", " <-> ".join(_lexeme(w) + weight for w in words)


def single_word(fts_term: str) -> str | None:
    """The one word a plain term holds (what a document frequency is kept for), else None."""
    if " : " in fts_term:
        return None
    words = tokens(fts_term)
    return words[0] if len(words) == 1 else None
