"""BM25 search over an FTS5 table in the library's own SQLite file.

Indexing and retrieval are apart: `document()` is the text a paper is indexed under (written by
the store, in the ingest's transaction); `parse()` turns any user text into a safe FTS5 query;
`search()` runs it. Chinese, Japanese and Korean runs are indexed as overlapping character bigrams,
since FTS5's unicode61 tokenizer would keep a whole run as one token.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field

from paperscope.errors import PaperscopeError
from paperscope.model import CONTRIBUTIONS, Paper

COLUMNS = ("name", "title", "display_title", "abstract", "models", "benchmarks", "authors")
WEIGHTS = (6.0, 4.0, 3.0, 1.0, 2.0, 2.0, 1.0)  # bm25() weights, in COLUMNS order
FIELDS = {"name": "name", "title": "title", "author": "authors", "benchmark": "benchmarks", "model": "models"}
MAX_QUERY_CHARS = 2_000
# 3,000 kept too few words of a description: known-item MRR@10 0.890 -> 0.970 at 10,000
# (bench/search_eval.py, tune part)
OR_POSTINGS = 10_000
CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]+")
_TERM = re.compile(r'(?P<neg>-)?(?:(?P<field>[a-z]+):)?(?:"(?P<phrase>[^"]*)"?|(?P<word>[^\s"]+))', re.IGNORECASE)
_WORD = re.compile(r"\w+")
# Words so common that scoring them means scoring nearly every paper; left out of the FTS5 expressions
# whenever other words remain (the snippet and the ranking do not need them).
_STOPWORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "been",
        "but",
        "by",
        "can",
        "do",
        "does",
        "for",
        "from",
        "has",
        "have",
        "how",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "more",
        "most",
        "new",
        "not",
        "of",
        "on",
        "or",
        "our",
        "over",
        "such",
        "than",
        "that",
        "the",
        "their",
        "them",
        "then",
        "there",
        "these",
        "they",
        "this",
        "those",
        "to",
        "towards",
        "under",
        "up",
        "use",
        "using",
        "via",
        "was",
        "we",
        "what",
        "when",
        "where",
        "which",
        "while",
        "who",
        "why",
        "will",
        "with",
        "within",
        "without",
        "you",
    ]
)


def cjk_bigrams(text: str) -> str:
    """ "大语言模型" -> "大语 语言 言模 模型": CJK runs as overlapping bigrams, the rest unchanged."""

    def pairs(match: re.Match[str]) -> str:
        run = match.group()
        return " " + (" ".join(run[i : i + 2] for i in range(len(run) - 1)) if len(run) > 1 else run) + " "

    return CJK.sub(pairs, text)


def document(paper: Paper) -> tuple[str, ...]:
    """The text of each indexed column, in COLUMNS order."""
    values = (
        paper.name or "",
        paper.title or "",
        paper.display_title,
        paper.abstract,
        " ".join(paper.models),
        " ".join(paper.benchmarks),
        " ".join(paper.authors),
    )
    return tuple(cjk_bigrams(v) for v in values)


@dataclass
class Query:
    """A user's text, parsed: what FTS5 must match, and the filters that are not text."""

    must: list[str] = field(default_factory=list)  # FTS5 terms, each quoted, maybe with a column
    exclude: list[str] = field(default_factory=list)
    venue: str | None = None
    years: tuple[int, int] | None = None
    words: list[str] = field(default_factory=list)  # the wanted text as typed, for the sentence encoder
    typed: bool = True  # False for a Chinese query's English: its glossary phrases rank, they do not filter

    @property
    def text(self) -> str:
        return " ".join(self.words)

    @property
    def strict(self) -> bool:
        """Has a "phrase" or a field: term, which a paper must contain to be a result at all."""
        return bool(self.required())

    def required(self) -> list[str]:
        """The "phrases" and field: terms (phrases only when typed: a translation's phrases are preferred)."""
        return [term for term in self.must if " : " in term or (self.typed and " " in term.strip('"'))]

    def filters(self, given: Filters | None) -> Filters:
        """The filters given, completed by the venue: and year: of the query."""
        given = given or Filters()
        return Filters(
            venue=given.venue or self.venue,
            years=given.years or self.years,
            contribution=given.contribution,
            has_code=given.has_code,
            topic=given.topic,
        )

    def all_terms(self) -> str | None:
        """Every term (AND): precise, and fast even on a large library."""
        terms = self.content()
        return _with_exclusions(" ".join(terms), self.exclude) if terms else None

    def any_term(self, frequency: Callable[[str], int] | None = None) -> str | None:
        """Any term (OR): what BM25 ranking needs when no paper has them all; the required ones still required."""
        required = self.required()
        words = [w for w in self.rarest(frequency) if w not in required]
        if len(words) + len(required) < 2 or not words:
            return None
        expression = " OR ".join(words)
        if required:
            expression = " AND ".join([*required, f"({expression})"])
        return _with_exclusions(expression, self.exclude)

    def content(self) -> list[str]:
        """The terms without stop words, unless nothing else is left ("the who")."""
        return [t for t in self.must if t.strip('"') not in _STOPWORDS] or self.must

    def rarest(self, frequency: Callable[[str], int] | None = None) -> list[str]:
        """The terms an "any term" pass scores.

        Scoring an OR costs one step per posting, and a common word has a posting in most papers
        while adding little to BM25. Given each term's document frequency, only the rarest terms
        are kept, until OR_POSTINGS postings (always the two rarest).
        """
        words = self.content()
        if frequency is not None and len(words) > 2:
            kept, postings = [], 0
            for word in sorted(words, key=frequency):
                if len(kept) >= 2 and postings + frequency(word) > OR_POSTINGS:
                    break
                kept.append(word)
                postings += frequency(word)
            words = [w for w in words if w in kept]
        return words


def _quote(token: str) -> str:
    return '"' + token.replace('"', "") + '"'


def _with_exclusions(positive: str, exclude: list[str]) -> str:
    return f"({positive}) NOT ({' OR '.join(exclude)})" if exclude else positive


def parse(text: str) -> Query:
    """Any text becomes a valid query: quotes, parentheses, operators, LaTeX, emoji and Chinese included.

    Understood: "exact phrases", -excluded, title:/author:/name:/benchmark:/model: words,
    venue:ICML and year:2024 or year:2024..2026. Everything else is words to look for.
    """
    query = Query()
    for match in _TERM.finditer(text[:MAX_QUERY_CHARS]):
        field_name = (match.group("field") or "").lower()
        raw = match.group("phrase") if match.group("phrase") is not None else match.group("word")
        if field_name == "venue" and raw:
            query.venue = raw
            continue
        if field_name == "year" and parse_years(raw):
            query.years = parse_years(raw)
            continue
        tokens = _WORD.findall(cjk_bigrams(raw.lower() if raw else ""))
        if not tokens:
            continue
        column = FIELDS.get(field_name)
        phrase = match.group("phrase") is not None
        terms = [_quote(" ".join(tokens))] if phrase else [_quote(t) for t in tokens]
        if column:
            terms = [f"{column} : {t}" for t in terms]
        if match.group("neg"):
            query.exclude += terms
        else:
            query.must += terms
            query.words.append(raw)
    return query


def parse_years(text: str | None) -> tuple[int, int] | None:
    """(2024, 2026) from "2024..2026", (2024, 2024) from "2024"; None for anything else."""
    match = re.fullmatch(r"(\d{4})(?:\.\.(\d{4}))?", (text or "").strip())
    if not match:
        return None
    first = int(match.group(1))
    return first, int(match.group(2) or first)


@dataclass
class Filters:
    """What narrows a search besides its words; combined with any query."""

    venue: str | None = None
    years: tuple[int, int] | None = None
    contribution: str | None = None
    has_code: bool | None = None
    topic: int | None = None

    @classmethod
    def parse(
        cls,
        venue: str | None = None,
        year: str | None = None,
        contribution: str | None = None,
        has_code: bool | None = None,
        topic: int | None = None,
    ) -> Filters:
        """Filters from what a user typed; a year that is not a year or a range is a clear error."""
        years = parse_years(year)
        if year and years is None:
            raise PaperscopeError(f"year takes a year or a range like 2024..2026, not {year!r}")
        if contribution and contribution not in CONTRIBUTIONS:
            raise PaperscopeError(f"unknown contribution {contribution!r}; one of {', '.join(CONTRIBUTIONS)}")
        return cls(venue=venue or None, years=years, contribution=contribution or None, has_code=has_code, topic=topic)

    @property
    def active(self) -> bool:
        return any(
            value is not None
            for value in (self.venue or None, self.years, self.contribution, self.has_code, self.topic)
        )

    def sql(self) -> tuple[str, tuple]:
        """An AND-clause over the papers table (alias p) and its parameters: constants and placeholders only."""
        clauses, params = [], []
        if self.venue:
            clauses.append("p.venue = ? COLLATE NOCASE")
            params.append(self.venue)
        if self.years:
            clauses.append("p.year BETWEEN ? AND ?")
            params += list(self.years)
        if self.contribution:
            clauses.append("p.contribution = ?")
            params.append(self.contribution)
        if self.has_code is not None:
            clauses.append("p.has_code = ?")
            params.append(int(self.has_code))
        if self.topic is not None:
            clauses.append("p.id IN (SELECT paper_id FROM paper_topics WHERE topic = ?)")
            params.append(self.topic)
        return "".join(f" AND {c}" for c in clauses), tuple(params)


@dataclass
class LexicalHit:
    paper_id: str
    score: float  # BM25 with field weights; higher is better
    every: bool = True  # has every term of the query (False: found by the "any term" pass)


def search(
    db: sqlite3.Connection,
    query: Query,
    limit: int,
    filters: Filters | None = None,
    raw: str | None = None,
    known: dict[str, object] | None = None,
    enough: int | None = None,
) -> list[LexicalHit]:
    """Papers matching every term first, then papers matching any, each group by BM25.

    `raw` is an FTS5 expression used as it is (the --syntax fts escape hatch). `known` remembers
    document frequencies between searches on one connection (the caller owns it). With `enough`,
    the "any word" pass is skipped once the "every word" pass found that many: hybrid search asks
    for 100 papers but shows 10, and the "any word" pass is most of the cost on a large library.
    """
    where, params = query.filters(filters).sql()
    hits: list[LexicalHit] = []
    seen: set[str] = set()
    if raw is not None:
        expressions = [raw]
    elif not query.must:  # only filters: every paper that passes them
        return [
            LexicalHit(pid, 0.0)
            for (pid,) in db.execute(
                f"SELECT p.id FROM papers AS p WHERE 1 {where} ORDER BY p.year DESC, p.id LIMIT ?", (*params, limit)
            )
        ]
    else:
        frequency = _frequencies(db, {} if known is None else known)
        expressions = [query.all_terms(), query.any_term(frequency)]
    for every, expression in zip((True, False), expressions, strict=False):
        if expression is None or len(hits) >= (enough or limit):
            continue
        for hit in _run(db, expression, limit, where, params):
            if hit.paper_id not in seen:
                seen.add(hit.paper_id)
                hit.every = every
                hits.append(hit)
    return hits[:limit]


def count_every(db: sqlite3.Connection, query: Query, filters: Filters | None = None) -> int:
    """How many papers have every term of the query (all the papers passing the filters, for none)."""
    where, params = query.filters(filters).sql()
    if not query.must:
        return int(db.execute(f"SELECT count(*) FROM papers AS p WHERE 1 {where}", params).fetchone()[0])
    join = " JOIN papers AS p ON p.rowid = f.rowid" if where else ""
    sql = f"SELECT count(*) FROM papers_fts AS f{join} WHERE papers_fts MATCH ? {where}"
    return int(db.execute(sql, (query.all_terms(), *params)).fetchone()[0])


def _frequencies(db: sqlite3.Connection, known: dict[str, object]) -> Callable[[str], int]:
    """Document frequency of a quoted term, from FTS5's own vocabulary, remembered in `known`.

    Phrases and column-bound terms count as rare. What is remembered is dropped when the database
    has changed since (an ingest came in between).
    """
    # Both counters are O(1): data_version moves when another connection commits, total_changes
    # when this one writes. (max(rowid) of an FTS5 table, the obvious alternative, costs milliseconds.)
    version = (db.execute("PRAGMA data_version").fetchone()[0], db.total_changes)
    if known.get(" version") != version:
        if " version" not in known:
            db.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.papers_vocab USING fts5vocab(main, papers_fts, 'row')")
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


def _run(db: sqlite3.Connection, expression: str, limit: int, where: str, params: tuple) -> list[LexicalHit]:
    weights = ", ".join(str(w) for w in (0.0, *WEIGHTS))  # the first column is the paper id
    # The join is made only for filters, on rowid (an index row shares its paper's rowid): joined on
    # the paper id it ran for every match before the sort, and tripled the time of a search.
    join = " JOIN papers AS p ON p.rowid = f.rowid" if where else ""
    sql = (
        f"SELECT f.paper_id, -bm25(papers_fts, {weights}) AS score"
        f" FROM papers_fts AS f{join}"
        f" WHERE papers_fts MATCH ? {where} ORDER BY bm25(papers_fts, {weights}) LIMIT ?"
    )
    rows = db.execute(sql, (expression, *params, limit)).fetchall()
    return [LexicalHit(paper_id, score) for paper_id, score in rows]


def snippet(text: str, query: Query, chars: int = 240) -> str:
    """The stretch of `text` with the most query words, those words between \x02 and \x03; "" if none.

    Made here rather than by FTS5's snippet(), which re-reads every matching row's text: for the
    100 rows a hybrid search takes from each list, that was most of its time.
    """
    wanted = {w for term in query.must for w in _WORD.findall(term.split(":")[-1].lower())} - _STOPWORDS
    if not wanted or not text:
        return ""
    alternatives = "|".join(map(re.escape, sorted(wanted, key=len, reverse=True)))
    pattern = re.compile(rf"\b(?:{alternatives})s?\b", re.IGNORECASE)
    starts = [match.start() for match in pattern.finditer(text)]
    if not starts:
        return ""
    best = max(starts, key=lambda start: sum(start <= other < start + chars for other in starts))
    begin = max(0, best - chars // 4)
    begin = text.rfind(" ", 0, begin) + 1 if begin else 0
    end = text.find(" ", begin + chars)
    end = len(text) if end == -1 else end
    marked = pattern.sub(lambda match: f"\x02{match.group()}\x03", text[begin:end])
    return ("…" if begin else "") + marked + ("…" if end < len(text) else "")
