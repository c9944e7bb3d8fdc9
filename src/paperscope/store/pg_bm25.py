"""BM25 on PostgreSQL that does not score every matching row: a posting table of precomputed impacts.

Each (word, paper) pair of a paper's indexed text is a row of `postings`: the word's weighted
frequency there (FTS5's column weights, lexical.WEIGHTS) and its impact, BM25's saturated term
frequency for the paper's length against the average length (k1 1.2, b 0.75, as FTS5's bm25()).
A term's score in a paper is its idf (from `terms`, exact) times its impact, summed over the query's
terms: SQLite's bm25() but for the average length, which is the one the impacts were computed with
(`bm25.avgdl`). The library's own average is kept beside it, and all impacts are recomputed in the
writing transaction when the two drift more than DRIFT apart; a paper removed does not recompute.

A search reads each term's postings best impact first (the index on (term, impact DESC)), `depth`
of them, and sums what it read (a threshold algorithm): a paper seen in some lists scores between
what was read and that plus the last impact read of each list it is missing from; a paper seen in
none at most Σ idf × the last impact read of each term. Once the limit-th best lower bound reaches
every other upper bound, the best are settled and only they are completed, by looking up their
other terms (the primary key (paper, term)); otherwise the depth grows fourfold. "Every word"
results must hold every term: once one term's list is read whole, every such paper has been seen.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from paperscope.index import lexical

K1, B = 1.2, 0.75  # FTS5's bm25() constants
DRIFT = 0.1  # the library's average length may move this far from the impacts' before they are recomputed
FIRST_DEPTH = 64  # postings read per term in a search's first round
_WEIGHTS = dict(zip(lexical.COLUMNS, lexical.WEIGHTS, strict=True))

SCHEMA = """
    ALTER TABLE papers ADD COLUMN length INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE postings (term TEXT COLLATE "C" NOT NULL, paper BIGINT NOT NULL, weight REAL NOT NULL,
                           impact REAL NOT NULL, PRIMARY KEY (paper, term));
    CREATE INDEX postings_best ON postings (term, impact DESC) INCLUDE (paper);
    CREATE TABLE bm25 (papers BIGINT NOT NULL, tokens BIGINT NOT NULL, avgdl DOUBLE PRECISION NOT NULL);
    INSERT INTO bm25 VALUES (0, 0, 0);
"""
COPY = "COPY postings (term, paper, weight, impact) FROM STDIN"
_RECOMPUTE = (
    f"UPDATE postings AS s SET impact = s.weight * {K1 + 1} / (s.weight + {K1} * ({1 - B} + {B} * p.length / ?))"
    " FROM papers AS p WHERE p.seq = s.paper"
)
_BEST = (
    "SELECT q.i, s.paper, s.impact FROM unnest(?::text[]) WITH ORDINALITY AS q(term, i) CROSS JOIN LATERAL"
    " (SELECT ps.paper, ps.impact FROM postings AS ps{join} WHERE ps.term = q.term{where}"
    " ORDER BY ps.impact DESC LIMIT ?) AS s"
)
_PROBE = "SELECT paper, term, impact FROM postings WHERE paper = ANY(?) AND term = ANY(?)"

Rows = Callable[[str, Iterable], list[tuple]]


def length(tokenised: dict[str, list[str]]) -> int:
    """A paper's length as FTS5 counts it: tokens in all its columns."""
    return sum(map(len, tokenised.values()))


def weights(tokenised: dict[str, list[str]]) -> dict[str, float]:
    """Each word's frequency in a paper, a column's occurrences counted at its weight."""
    found: dict[str, float] = {}
    for column, words in tokenised.items():
        for word in words:
            found[word] = found.get(word, 0.0) + _WEIGHTS[column]
    return found


def impact(weight: float, size: int, avgdl: float) -> float:
    return weight * (K1 + 1) / (weight + K1 * (1 - B + B * size / avgdl))


def idf(papers: int, total: int) -> float:
    """FTS5's idf: a word in more than half the papers counts for (almost) nothing."""
    value = math.log((total - papers + 0.5) / (papers + 0.5))
    return value if value > 0 else 1e-6


def postings(papers: Iterable[tuple[dict[str, list[str]], int]], avgdl: float, terms: Counter) -> str:
    """The COPY text (COPY's columns) of the postings of papers given as their tokenised columns
    (pg_text.columns) with their seqs; counts each paper's words into `terms` (their document
    frequencies) as it goes. Made as text, not row by row through psycopg's write_row, which took a
    tenth of a load's writer. Words hold letters and digits only: nothing to escape."""
    lines = []
    for tokenised, seq in papers:
        size = length(tokenised)
        found = weights(tokenised)
        terms.update(found.keys())
        lines.extend(f"{term}\t{seq}\t{weight}\t{impact(weight, size, avgdl)}\n" for term, weight in found.items())
    return "".join(lines)


def average_length(
    one: Callable[[str, Iterable], tuple], run: Callable[[str, Iterable], None], papers: int, tokens: int
) -> float:
    """Counts `papers` and `tokens` more (fewer, negative) into the library's totals; the average
    length impacts are to be computed with. When the library's own average has drifted more than DRIFT
    from the one the stored impacts used, they are recomputed with it (inside the caller's
    transaction, before new postings are written)."""
    count, total, used = one(
        "UPDATE bm25 SET papers = papers + ?, tokens = tokens + ? RETURNING papers, tokens, avgdl", (papers, tokens)
    )
    current = total / count if count else 0.0
    if current and (not used or abs(current / used - 1) > DRIFT):
        run("UPDATE bm25 SET avgdl = ?", (current,))
        if used:
            run(_RECOMPUTE, (current,))
        return current
    return used or 1.0


@dataclass
class Hit:
    seq: int
    score: float


def best(
    rows: Rows, terms: list[str], idfs: list[float], limit: int, every: bool, where: str, params: list
) -> list[Hit]:
    """The `limit` papers with the highest BM25 over `terms` (single words), best first: those with
    any of them, or with `every` those with all of them; `where` filters the papers (alias p)."""
    depth = max(limit, FIRST_DEPTH)
    sql = _BEST.format(join=" JOIN papers AS p ON p.seq = ps.paper" if where else "", where=where)
    while True:
        scores: dict[int, float] = {}
        seen: dict[int, set[int]] = {}
        read = [0] * len(terms)
        last = [0.0] * len(terms)
        for i, seq, value in rows(sql, (terms, *params, depth)):
            i -= 1
            scores[seq] = scores.get(seq, 0.0) + idfs[i] * value
            seen.setdefault(seq, set()).add(i)
            read[i] += 1
            last[i] = value
        whole = [n < depth for n in read]  # the term's list read to its end
        bound = [0.0 if whole[i] else idfs[i] * last[i] for i in range(len(terms))]
        found = _settled(rows, terms, idfs, scores, seen, whole, bound, limit, every)
        if found is not None:
            return found
        depth *= 4


def _settled(
    rows: Rows,
    terms: list[str],
    idfs: list[float],
    scores: dict[int, float],
    seen: dict[int, set[int]],
    whole: list[bool],
    bound: list[float],
    limit: int,
    every: bool,
) -> list[Hit] | None:
    """The best `limit` papers once what was read settles them, else None (read deeper).

    A paper read in some lists scores at least what was read and at most that plus the bound of each
    list it was not read in; an unread paper at most the sum of the bounds. The best are settled when
    the limit-th best lower bound reaches every other upper bound; only they are then completed by
    looking their other terms up. With `every`, a paper missing from a list read whole is out, and
    once some list was read whole every paper left is looked up (they are that list's)."""
    missing = {seq: [i for i in range(len(terms)) if i not in found] for seq, found in seen.items()}
    if every:
        missing = {seq: gaps for seq, gaps in missing.items() if not any(whole[i] for i in gaps)}
        if any(whole):
            _look_up(rows, terms, idfs, scores, seen, [seq for seq, gaps in missing.items() if gaps])
            return _ranked(scores, [seq for seq in missing if len(seen[seq]) == len(terms)], limit)
    upper = {seq: scores[seq] + sum(bound[i] for i in gaps) for seq, gaps in missing.items()}
    candidates = [seq for seq, gaps in missing.items() if not (every and gaps)]  # with `every`: complete ones only
    top = sorted(candidates, key=lambda seq: -scores[seq])[:limit]
    floor = scores[top[-1]] if len(top) == limit else 0.0
    chosen = set(top)
    others = max((upper[seq] for seq in missing if seq not in chosen), default=0.0)
    if not all(whole) and (len(top) < limit or floor < max(others, sum(bound))):
        return None
    _look_up(rows, terms, idfs, scores, seen, [seq for seq in top if any(not whole[i] for i in missing[seq])])
    return _ranked(scores, top, limit)


def _look_up(
    rows: Rows, terms: list[str], idfs: list[float], scores: dict[int, float], seen: dict[int, set[int]], papers: list
) -> None:
    """Adds to these papers' scores their terms not read yet (the primary key (paper, term))."""
    if not papers:
        return
    position = {term: i for i, term in enumerate(terms)}
    for seq, term, value in rows(_PROBE, (papers, terms)):
        i = position[term]
        if i not in seen[seq]:
            seen[seq].add(i)
            scores[seq] += idfs[i] * value


def _ranked(scores: dict[int, float], papers: list[int], limit: int) -> list[Hit]:
    return sorted((Hit(seq, scores[seq]) for seq in papers), key=lambda hit: -hit.score)[:limit]
