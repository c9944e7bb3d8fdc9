"""A tantivy index of the papers' lexical documents, searched with the query language of lexical.py.

FTS5 scores every posting of an "any word" pass (~3 µs each, so 7 ms at 92k papers); tantivy skips
the postings that cannot reach the top (block-max WAND) and answers the same query in well under a
millisecond (bench/lexical_engines.py). The ranking is made to match FTS5's: one field holds each
column's text repeated as often as its weight (`lexical.WEIGHTS` are whole numbers), so a term's
frequency there is FTS5's weighted frequency, scored by BM25 with the same k1 1.2 and b 0.75. What
still differs: tantivy's IDF is ln(1 + (N - n + 0.5) / (n + 0.5)) where FTS5 has no "1 +", and the
repeated text lengthens a document by its weighted columns. The columns a query may name (title:,
author:, …) are indexed apart too, and such a term is scored in its column alone, as FTS5 does.
A second field holds the weighted text with each word in the singular (`lexical.singular`): a word's
other number, which FTS5 does not look for, is found through it (OTHER_FORM).
An index made before that field existed no longer opens with this schema, nor one whose singulars were made
by another table of the dictionary's forms or version of inflection (the folder's `made-by`), and its caller
builds it again.

Each document carries its paper's rowid (`row`, a fast field); the caller maps rowids to papers and
tells the index which rows changed. The position the index is in step with (a number of the
caller's choosing) is written in the folder after each commit, so an interrupted update is applied
again, which is harmless: a row's document is always deleted before it is added.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.metadata
import json
import math
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

import tantivy

from paperscope.atomic import replacing
from paperscope.index import lexical

TEXT = "text"
SINGULAR = "singular"  # the weighted text with each word in the singular (lexical.singular)
ROW = "row"
TOKENIZER = "words"  # unicode words, lower case, accents folded: FTS5's unicode61 remove_diacritics 2
_POSITION = "position"
_META = "meta.json"  # tantivy's list of segments, with the deletions each holds
_MADE_BY = "made-by"  # what made the singular field's words (_singulars_made_by)
_PROBES = ("biases", "waves", "semantics", "lenses", "criteria", "achieves", "data", "llms")
_COLUMN_FIELDS = tuple(sorted(set(lexical.FIELDS.values())))
_REPEATS = tuple(int(weight) for weight in lexical.WEIGHTS)
_TERM = re.compile(r'^(?:(?P<column>\w+) : )?"(?P<words>.*)"$')
# What the writer gathers before it writes a segment (taken as needed: a small update holds little).
# At 64 MB the whole corpus was written as 3 segments and searched in 1.67 ms at p50 (200 titles,
# words seen before); at 256 MB as 1 segment, in 1.44 ms.
_WRITER_HEAP = 256_000_000
_DELETED_AT_ONCE = 10_000
# How much a pair of a keyword query's adjacent words (lexical.Query.pairs) found side by side adds,
# as a share of that phrase's BM25 score: "policy optimization" ranks papers about it above papers
# with "policy" in one sentence and "optimization" in another. Chosen on the tune parts of
# bench/search_eval.py's sets (0.3 against 0.1–2, and windows of 2 and 8 words): at 11.5k papers,
# hybrid seed queries 0.670 → 0.701 nDCG@10, the mean over the sets 0.816 → 0.822.
PROXIMITY = 0.3
# A query word also finds its other number ("policy" finds "policies", lexical.other_forms): the index does
# not stem, and a translated Chinese query gives "hallucination" where papers write "hallucinations". A paper
# must hold either number, looked for by their singular (lexical.singular), which earns this share of the
# word's score; the word as typed earns the rest, so a paper with the other number alone scores about this
# share of one with the word. Chosen when the two words were a disjunction (the better match, the other at this
# share): summed as OR alternatives they cost the description queries 0.970 → 0.896 MRR@10 (lexical, tune parts
# of bench/search_eval.py); at 0.5 against 0.3, 0.7 and 1.0 they gained Chinese descriptions 0.863 → 0.914 and
# Chinese seed queries 0.657 → 0.706 (lexical), and the mean over the sets in hybrid 0.820 → 0.837. The
# singular ranks within 0.001 of that or better on every tune part (vague English descriptions 0.433 → 0.466,
# hybrid) and takes 17% fewer instructions a search at 92.5k papers.
OTHER_FORM = 0.5
# A Chinese query's English (lexical.Query.typed False) takes the other number at this share: Chinese marks
# no number, so "contexts" is as likely as the "context" its translation gives. Chosen on the tune parts of
# bench/search_eval.py's Chinese sets, against 0.5 (as typed), 0.85 and 1.0: seed queries 0.706 → 0.716,
# topical 0.724 → 0.735, vague descriptions 0.931 → 0.935 (hybrid), no set lower; at 1.0 the strict sets
# gained more (0.719, 0.739) and the pooled ones lost (0.750 → 0.736). Held out: known items 0.968 →
# 0.976, the fresh known items 0.967 → 0.973 and 0.905 → 0.907, vague 0.747 → 0.745, seed queries 0.678 → 0.679.
OTHER_FORM_TRANSLATED = 0.7


_ANALYZER = (
    tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.simple())
    .filter(tantivy.Filter.lowercase())
    .filter(tantivy.Filter.ascii_fold())
    .build()
)

_MUST, _SHOULD = tantivy.Occur.Must, tantivy.Occur.Should
_REMEMBERED = 100_000  # terms or frequencies a reader keeps before it forgets them all
Terms = Callable[[str], list[tantivy.Query]]  # a quoted term of lexical.parse -> its parts (LexicalIndex._term)
K = TypeVar("K")
V = TypeVar("V")


@dataclass(frozen=True)
class _Reader:
    """A searcher, and what searches work out from its statistics (document frequencies, each term's query
    with its FTS5-matching boost), kept until the searcher is replaced: most of a query's words were asked
    for by earlier searches. At 92.5k papers, 200 titles never searched before, after 200 others, took
    3.7% fewer instructions (valgrind) than when every search worked them out again. Replaced as one, so
    that a search running while another thread refreshes the index uses one generation throughout."""

    searcher: tantivy.Searcher
    frequencies: dict[tuple[str, str], int] = field(default_factory=dict)
    terms: dict[tuple[str, float], list[tantivy.Query]] = field(default_factory=dict)

    def doc_freq(self, field_name: str, word: str) -> int:
        return _remembered(self.frequencies, (field_name, word), lambda: self.searcher.doc_freq(field_name, word))


def _remembered(kept: dict[K, V], key: K, make: Callable[[], V]) -> V:
    """`kept[key]`, made and kept if missing; `kept` is emptied when it holds _REMEMBERED entries."""
    if (known := kept.get(key)) is None:
        if len(kept) >= _REMEMBERED:
            kept.clear()
        known = kept[key] = make()
    return known


def _schema() -> tantivy.Schema:
    builder = tantivy.SchemaBuilder()
    builder.add_unsigned_field(ROW, indexed=True, fast=True)
    builder.add_text_field(TEXT, tokenizer_name=TOKENIZER)
    builder.add_text_field(SINGULAR, tokenizer_name=TOKENIZER, index_option="freq")  # no phrases: no positions
    for column in _COLUMN_FIELDS:
        builder.add_text_field(column, tokenizer_name=TOKENIZER)
    return builder.build()


class LexicalIndex:
    """Documents by rowid, in a folder (or in memory when `folder` is None)."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder
        self.schema = _schema()
        if folder is not None:
            folder.mkdir(exist_ok=True)
            _check_made_by(folder)
        self.index = tantivy.Index(self.schema, None if folder is None else str(folder), reuse=True)
        self.index.register_tokenizer(TOKENIZER, _ANALYZER)
        self._position = self._read_position()
        self._reader = _Reader(self.index.searcher())

    @property
    def position(self) -> int | None:
        """Where the documents are in step with the caller's changes; None before the first update."""
        return self._position

    def refresh(self) -> None:
        """See what another process committed since."""
        self.index.reload()
        self._reader = _Reader(self.index.searcher())
        self._position = self._read_position()

    def update(self, removed: Iterable[int], added: Iterable[tuple[int, tuple[str, ...]]], position: int) -> None:
        """Delete the documents of the `removed` rows, add `added` (rowid, texts in lexical.COLUMNS
        order) and record `position`. Raises ValueError when another writer holds the index."""
        writer = self.index.writer(_WRITER_HEAP, 1)
        rows = list(removed)
        try:
            # By query, not delete_documents_by_term: tantivy-py makes a Python int an i64 term, which
            # matches no document of the u64 field, so that nothing was deleted (the papers' count then
            # differed, and the caller built the whole index again).
            for start in range(0, len(rows), _DELETED_AT_ONCE):
                batch = rows[start : start + _DELETED_AT_ONCE]
                writer.delete_documents_by_query(tantivy.Query.term_set_query(self.schema, ROW, batch))
            for row, texts in added:
                writer.add_document(self._document(row, texts))
            writer.commit()
            writer.wait_merging_threads()
        except BaseException:
            writer.rollback()
            raise
        self._write_position(position)
        self.refresh()

    def clear(self) -> None:
        writer = self.index.writer(_WRITER_HEAP, 1)
        writer.delete_all_documents()
        writer.commit()
        writer.wait_merging_threads()
        self._position = None
        if self.folder is not None:
            (self.folder / _POSITION).unlink(missing_ok=True)
        self.refresh()

    def count(self) -> int:
        return self._reader.searcher.num_docs

    def deleted(self) -> int:
        """Documents deleted but still counted in term statistics, until tantivy merges their segments away
        (in memory: 0, not counted)."""
        if self.folder is None:
            return 0
        try:
            meta = json.loads((self.folder / _META).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return 0
        return sum((segment.get("deletes") or {}).get("num_deleted_docs", 0) for segment in meta["segments"])

    def _document(self, row: int, texts: tuple[str, ...]) -> tantivy.Document:
        document = tantivy.Document()
        document.add_unsigned(ROW, row)
        document.add_text(TEXT, _weighted(texts))
        document.add_text(
            SINGULAR, _weighted([" ".join(map(lexical.singular, _ANALYZER.analyze(text))) for text in texts])
        )
        for column, text in zip(lexical.COLUMNS, texts, strict=True):
            if column in _COLUMN_FIELDS and text:
                document.add_text(column, text)
        return document

    def _read_position(self) -> int | None:
        if self.folder is None:
            return getattr(self, "_position", None)
        try:
            return int((self.folder / _POSITION).read_text(encoding="ascii"))
        except (OSError, ValueError):
            return None

    def _write_position(self, position: int) -> None:
        self._position = position
        if self.folder is not None:
            with replacing(self.folder / _POSITION) as partial:
                partial.write_text(str(position), encoding="ascii")

    # searching

    def search(
        self, query: lexical.Query, limit: int, enough: int | None = None, rows: set[int] | None = None
    ) -> list[tuple[int, float, bool]]:
        """(rowid, score, has every term) of the papers matching every term first, then of those
        matching any of the rarest (lexical.Query.rarest), each group by BM25; within `rows` if given."""
        # Each term's query is made once for a searcher, and only for a pass that runs: a phrase's costs a
        # search of its own (_idf_ratio), and the rarest terms are in both passes.
        reader = self._reader
        other_form = OTHER_FORM if query.typed else OTHER_FORM_TRANSLATED
        term = functools.partial(self._term, reader, other_form=other_form)
        exclude = [term(t)[0] for t in query.exclude]
        near = self._side_by_side(query.pairs)
        hits: list[tuple[int, float, bool]] = []
        seen: set[int] = set()
        frequency = functools.partial(_frequency, reader)
        passes = ((True, lambda: _every(query, term)), (False, lambda: _any(query, term, frequency)))
        for every, musts in passes:
            if len(hits) >= (enough or limit) or (found := musts()) is None:
                continue
            for row, score in self._run(reader, found, exclude, limit, rows, near):
                if row not in seen:
                    seen.add(row)
                    hits.append((row, score, every))
        return hits[:limit]

    def _side_by_side(self, pairs: list[tuple[str, str]]) -> list[tantivy.Query]:
        """A query per pair of adjacent words, which scores the papers holding the two as a phrase."""
        found = []
        for pair in pairs:
            words = [token for word in pair for token in _ANALYZER.analyze(word)]
            if len(words) == 2:
                found.append(tantivy.Query.boost_query(tantivy.Query.phrase_query(self.schema, TEXT, words), PROXIMITY))
        return found

    def _run(
        self,
        reader: _Reader,
        musts: list[tantivy.Query],
        exclude: list[tantivy.Query],
        limit: int,
        rows: set[int] | None,
        near: list[tantivy.Query],
    ) -> list[tuple[int, float]]:
        """The best `limit` papers matching every one of `musts`, none of `exclude`, within `rows`;
        those matching any of `near` as well score higher."""
        clauses = [(tantivy.Occur.Must, q) for q in musts]
        clauses += [(tantivy.Occur.Should, q) for q in near]
        clauses += [(tantivy.Occur.MustNot, q) for q in exclude]
        if rows is not None:
            within = tantivy.Query.term_set_query(self.schema, ROW, list(rows))
            clauses.append((tantivy.Occur.Must, tantivy.Query.const_score_query(within, 0.0)))
        found = reader.searcher.search(tantivy.Query.boolean_query(clauses), limit, count=False).hits
        if not found:
            return []
        numbers = reader.searcher.fast_field_values(ROW, [address for _, address in found])
        return [(row, score) for (score, _), row in zip(found, numbers, strict=True)]

    def _term(self, reader: _Reader, term: str, other_form: float) -> list[tantivy.Query]:
        """A quoted term of lexical.parse (`"word"`, `"two words"`, `title : "word"`) as the queries whose
        scores add up to its score, the first of them what a paper must match: on the weighted text, or, when
        it names a column, on that column alone (as FTS5 counts it). A word whose other number the papers
        hold is two: its singular, which both numbers share, earning `other_form` of the score, then the word
        as typed, earning the rest. The singular is one posting list, which tantivy skips through where a
        disjunction of the two words scored every posting of each window it sought into (at 92.5k papers,
        ~30% of a search's instructions)."""

        def make() -> list[tantivy.Query]:
            words, column = _words(term)
            field = TEXT if column is None else column
            if not words:
                return [tantivy.Query.empty_query()]
            if len(words) > 1:
                phrase = tantivy.Query.phrase_query(self.schema, field, words)
                return [self._scored_as_fts5(reader, phrase, field, words)]
            word = self._word(reader, field, words[0])
            if field != TEXT:
                return [word]
            forms = [f for f in lexical.other_forms(words[0]) if reader.doc_freq(TEXT, f)]
            if not forms:
                return [word]
            # the two numbers may have two singulars ("lens"; "lenses" -> "lense"): each form's singular is looked for
            keys = [
                self._word(reader, SINGULAR, key) for key in sorted({lexical.singular(w) for w in (words[0], *forms)})
            ]
            either = keys[0] if len(keys) == 1 else tantivy.Query.boolean_query([(_SHOULD, k) for k in keys])
            return [tantivy.Query.boost_query(either, other_form), tantivy.Query.boost_query(word, 1 - other_form)]

        return _remembered(reader.terms, (term, other_form), make)

    def _word(self, reader: _Reader, field: str, word: str) -> tantivy.Query:
        return self._scored_as_fts5(reader, tantivy.Query.term_query(self.schema, field, word), field, [word])

    def _scored_as_fts5(self, reader: _Reader, query: tantivy.Query, field: str, words: list[str]) -> tantivy.Query:
        if field not in (TEXT, SINGULAR):
            return query
        return tantivy.Query.boost_query(query, _idf_ratio(reader, query, field, words))


@functools.cache
def _singulars_made_by() -> str:
    """What makes lexical.singular's words (its table of the dictionary's forms, inflection's rules) and what it
    makes of a few words whose singulars changed before: another table or version may make others."""
    table = hashlib.sha256(lexical.NUMBER_FORMS.read_bytes()).hexdigest()[:12]
    made_by = f"number_forms.tsv {table}, inflection {importlib.metadata.version('inflection')}"
    return f"{made_by}: " + " ".join(f"{word}>{lexical.singular(word)}" for word in _PROBES)


def _check_made_by(folder: Path) -> None:
    """Raises ValueError when `folder` holds an index whose singulars were made otherwise (or not recorded); in a
    folder without an index, records what will make them, before the index exists: another process opening the
    folder never finds an index without its record (and would remove it as one made otherwise)."""
    if not (folder / _META).exists():
        with replacing(folder / _MADE_BY) as partial:
            partial.write_text(_singulars_made_by(), encoding="utf-8")
        return
    try:
        made_by = (folder / _MADE_BY).read_text(encoding="utf-8")
    except OSError:
        made_by = None
    if made_by != _singulars_made_by():
        raise ValueError(f"{folder}: its singulars were made by {made_by or 'an unrecorded version'}")


def _weighted(texts: Iterable[str]) -> str:
    """The columns' texts, each repeated as often as its weight (lexical.WEIGHTS)."""
    return " ".join(" ".join([text] * repeat) for text, repeat in zip(texts, _REPEATS, strict=True) if text)


def _every(query: lexical.Query, term: Terms) -> list[tantivy.Query] | None:
    terms = query.content()
    return _joined_or_apart(terms, query.joined_within(terms), term, every=True) if terms else None


def _any(query: lexical.Query, term: Terms, frequency: Callable[[str], int]) -> list[tantivy.Query] | None:
    """The required terms, and any of the rarest others, their parts side by side in one disjunction: of
    term scorers alone, tantivy walks it the faster."""
    required = query.required()
    words = [w for w in query.rarest(frequency) if w not in required]
    if len(words) + len(required) < 2 or not words:
        return None
    clauses = _joined_or_apart(words, query.joined_within(words), term, every=False)
    either = tantivy.Query.boolean_query([(_SHOULD, clause) for clause in clauses])
    return [*_joined_or_apart(required, query.joined_within(required), term, every=True), either]


def _matched(parts: list[tantivy.Query]) -> tantivy.Query:
    """A term's parts (LexicalIndex._term) as one query, which a paper matches by the first."""
    if len(parts) == 1:
        return parts[0]
    return tantivy.Query.boolean_query([(_MUST, parts[0]), *((_SHOULD, part) for part in parts[1:])])


def _words(term: str) -> tuple[list[str], str | None]:
    """The words of a quoted term of lexical.parse as the index holds them, and the column it names."""
    match = _TERM.match(term)
    text, column = (match.group("words"), match.group("column")) if match else (term, None)
    return _ANALYZER.analyze(text), column


def _frequency(reader: _Reader, term: str) -> int:
    """Documents holding a quoted one-word term; 0 (rare) for phrases and column-bound terms, as FTS5's."""
    words, column = _words(term)
    if column is not None or len(words) != 1:
        return 0
    return reader.doc_freq(TEXT, words[0])


def _idf_ratio(reader: _Reader, query: tantivy.Query, field: str, words: list[str]) -> float:
    """FTS5's idf of a term over tantivy's, so that the term scores as FTS5 scores it. tantivy's idf
    is ln(1 + (N - n + 0.5) / (n + 0.5)) per word (a phrase: the sum over its words); FTS5's is
    ln((N - n + 0.5) / (n + 0.5)) of the term's own matches, at least 1e-6. In a small library the
    two differ most: a word nearly every paper holds weighs ~0 in FTS5 and ~0.25 in tantivy, which
    let papers matching only such words pass the results' cut-off."""
    total = reader.searcher.num_docs

    def idf(hits: int, plus_one: bool) -> float:
        ratio = (total - hits + 0.5) / (hits + 0.5)
        return math.log(1 + ratio) if plus_one else max(math.log(ratio), 1e-6)

    ours = sum(idf(reader.doc_freq(field, word), True) for word in words)
    hits = reader.doc_freq(field, words[0]) if len(words) == 1 else reader.searcher.search(query, 1).count
    return idf(hits or 0, False) / ours if ours > 0 else 1.0


def _joined_or_apart(
    terms: list[str], joined: list[tuple[tuple[str, ...], str]], term: Terms, every: bool
) -> list[tantivy.Query]:
    """A query per term (`every`: each to be matched; else: each term's parts, any of them), but a hyphenated
    word's terms ("fine", "tuning"; all or any of them) make one, which its joined spelling ("finetuning")
    meets as well (a phrase with one: the phrase joined), scored as the better of the two, the joined
    spelling's BM25 at OTHER_FORM's share, as another form of a word is. A paper that hyphenates the word
    holds both spellings (lexical.with_joined_compounds): counted twice, it outranked papers with the query's
    other words (bench/search_eval.py's tune parts: vague_en 0.436 -> 0.417), and at its full score the rarer
    joined word outweighed its parts ("post-training" above "diffusion language models")."""
    occur = _MUST if every else _SHOULD
    found, at = [], 0
    while at < len(terms):
        group = next(
            ((apart, together) for apart, together in joined if tuple(terms[at : at + len(apart)]) == apart), None
        )
        if group is None:
            parts = term(terms[at])
            found += [_matched(parts)] if every else parts
            at += 1
            continue
        apart, together = group
        words = tantivy.Query.boolean_query([(occur, _matched(term(t))) for t in apart])
        joined_up = tantivy.Query.boost_query(_matched(term(together)), OTHER_FORM)
        found.append(tantivy.Query.disjunction_max_query([words, joined_up]))
        at += len(apart)
    return found
