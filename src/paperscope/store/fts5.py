"""The SQLite store's lexical search: BM25 over an FTS5 table in the library's own file.

`papers_fts` holds one row per paper, with the paper's rowid, of the text `lexical.document()`
gives (CJK runs as bigrams), written in the same transaction as the paper. A parsed query
(`lexical.parse`) is run as FTS5 expressions: every term first, then any of the rarest.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

from paperscope.index import lexical
from paperscope.model import Paper
from paperscope.store.dialect import SQLITE

_COLUMNS = ", ".join(lexical.COLUMNS)
PENDING_BYTES = 64 * 2**20  # new terms a writer gathers in memory before writing them as a segment
CREATE = (
    f"CREATE VIRTUAL TABLE papers_fts USING fts5(paper_id UNINDEXED, {_COLUMNS},"
    " tokenize = 'unicode61 remove_diacritics 2')"
)
INSERT = f"INSERT INTO papers_fts (rowid, paper_id, {_COLUMNS}) VALUES (?, ?{', ?' * len(lexical.COLUMNS)})"
_FIRST_MATCH = "SELECT 1 FROM papers_fts WHERE papers_fts MATCH ? LIMIT 1"
_VOCABULARY = "CREATE VIRTUAL TABLE IF NOT EXISTS temp.papers_vocab USING fts5vocab(main, papers_fts, 'row')"


def index(db: sqlite3.Connection, papers: list[Paper]) -> list[int]:
    """Papers just written to the papers table, into the index (each under its paper's rowid); their rowids.

    The rowids are read first and the rows inserted as values: an `INSERT … SELECT … FROM papers`
    runs in a statement journal, and FTS5 writes the terms it has gathered as a segment at each one,
    which made indexing the whole corpus take 2.3× the CPU (20.9 s against 9.2)."""
    rowids: dict[str, int] = {}
    for clause, chunk in SQLITE.members([p.id for p in papers]):
        rowids.update(db.execute(f"SELECT id, rowid FROM papers WHERE id {clause}", chunk))
    db.executemany(INSERT, ((rowids[p.id], p.id, *lexical.document(p)) for p in papers))
    return [rowids[p.id] for p in papers]


def unindex(db: sqlite3.Connection, paper_id: str) -> None:
    db.execute("DELETE FROM papers_fts WHERE rowid = (SELECT rowid FROM papers WHERE id = ?)", (paper_id,))


def search(
    db: sqlite3.Connection,
    query: lexical.Query,
    limit: int,
    where: tuple[str, list],
    raw: str | None,
    known: dict[str, object],
    enough: int | None,
) -> list[lexical.LexicalHit]:
    """Papers matching every term first, then papers matching any, each group by BM25.

    `raw` is an FTS5 expression used as it is. `known` remembers document frequencies between
    searches on one connection (the caller owns it).
    """
    expressions = [raw] if raw is not None else [query.all_terms(), query.any_term(frequencies(db, known))]
    hits: list[lexical.LexicalHit] = []
    seen: set[str] = set()
    for every, expression in zip((True, False), expressions, strict=False):
        if expression is None or len(hits) >= (enough or limit):
            continue
        for hit in _run(db, expression, limit, *where):
            if hit.paper_id not in seen:
                seen.add(hit.paper_id)
                hit.every = every
                hits.append(hit)
    return hits[:limit]


def matching_ids(db: sqlite3.Connection, expression: str) -> set[str]:
    """Ids of the papers an FTS5 expression matches."""
    return {r[0] for r in db.execute("SELECT paper_id FROM papers_fts WHERE papers_fts MATCH ?", (expression,))}


def vocabulary(db: sqlite3.Connection) -> dict[str, int]:
    """Every indexed word with its document frequency (FTS5's own vocabulary)."""
    db.execute(_VOCABULARY)
    return dict(db.execute("SELECT term, doc FROM temp.papers_vocab"))


def frequencies(db: sqlite3.Connection, known: dict[str, object]) -> Callable[[str], int]:
    """Document frequency of a quoted term, from FTS5's own vocabulary, remembered in `known`.

    Phrases and column-bound terms count as rare. What is remembered is dropped when the database
    has changed since (an ingest came in between).
    """
    # Both counters are O(1): data_version moves when another connection commits, total_changes
    # when this one writes. (max(rowid) of an FTS5 table, the obvious alternative, costs milliseconds.)
    version = (db.execute("PRAGMA data_version").fetchone()[0], db.total_changes)
    if known.get(" version") != version:
        if " version" not in known:
            db.execute(_VOCABULARY)
        known.clear()
        known[" version"] = version  # type: ignore[assignment]

    def frequency(term: str) -> int:
        word = term.strip('"')
        if " " in word or ":" in term:
            return 0
        if word not in known:
            row = db.execute("SELECT doc FROM temp.papers_vocab WHERE term = ?", (word,)).fetchone()
            known[word] = row[0] if row else 0
        return known[word]

    return frequency


def presence(
    db: sqlite3.Connection, known: dict[str, object], frequency: Callable[[str], int]
) -> Callable[[str], bool]:
    """Whether any paper's indexed text holds a lower-case word: its count when remembered, else its first
    match, remembered in `known` beside the counts (`frequency` made from it, so that both are dropped
    together). FTS5 counts a word's papers by reading all its postings, milliseconds for a common
    word; the first match takes a tenth of that. A word not of ASCII letters and digits alone is
    counted: the tokenizer might fold it into another."""

    def present(word: str) -> bool:
        if word in known or not (word.isascii() and word.isalnum()):
            return frequency(f'"{word}"') > 0
        if (found := known.get(f" {word}")) is None:
            found = known[f" {word}"] = db.execute(_FIRST_MATCH, (f'"{word}"',)).fetchone() is not None
        return bool(found)

    return present


def _run(db: sqlite3.Connection, expression: str, limit: int, where: str, params: list) -> list[lexical.LexicalHit]:
    weights = ", ".join(str(w) for w in (0.0, *lexical.WEIGHTS))  # the first column is the paper id
    # The join is made only for filters, on rowid (an index row shares its paper's rowid): joined on
    # the paper id it ran for every match before the sort, and tripled the time of a search.
    # Only rowids are sorted, and BM25 is computed once per match (ordered by its alias); the paper
    # ids are read for the kept rows alone, since reading one for every match of an "any word" pass
    # (up to OR_POSTINGS) meant a content-table lookup per match.
    join = " JOIN papers AS p ON p.rowid = f.rowid" if where else ""
    sql = (
        f"SELECT papers.id, top.score FROM (SELECT f.rowid, -bm25(papers_fts, {weights}) AS score"
        f" FROM papers_fts AS f{join} WHERE papers_fts MATCH ? {where} ORDER BY score DESC LIMIT ?) AS top"
        " JOIN papers ON papers.rowid = top.rowid ORDER BY top.score DESC"
    )
    rows = db.execute(sql, (expression, *params, limit)).fetchall()
    return [lexical.LexicalHit(paper_id, score) for paper_id, score in rows]
