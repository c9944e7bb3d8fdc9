"""The query language of lexical search, and what a paper is indexed under; no database here.

`document()` is the text a paper is indexed under (the store writes it, in the ingest's
transaction); `parse()` turns any user text into a safe `Query` of FTS5-quoted terms, which each
store runs its own way (store/fts5.py: BM25 on SQLite; store/postgres.py: tsvectors); `snippet()`
marks the query's words in a result. Chinese, Japanese and Korean runs are indexed as overlapping
character bigrams, since FTS5's unicode61 tokenizer would keep a whole run as one token.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from importlib.resources import files
from itertools import pairwise

import inflection

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
_COMPOUND = re.compile(r"(?<![\w-])[^\W_]+(?:-[^\W_]+)+(?![\w-])")  # "pre-trained", "GPT-4", "state-of-the-art"
# Up to this many words (stop words aside) a query is keywords, whose adjacent words are looked for
# side by side (Query.pairs); a longer one is a description, worded otherwise than the paper it
# describes: on the tune parts of bench/search_eval.py, pairs cost descriptions 0.970 → 0.948 MRR@10
# (lexical alone) and gained the keyword queries nothing more than at up to 5 words. Not a blind
# choice: it was made after the held-out parts had been read once with pairs at every length, where
# descriptions fell further (0.923 → 0.889).
PAIRS_UP_TO = 5
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


def is_stopword(word: str) -> bool:
    """A word (in lower case) so common that a search leaves it out when other words remain."""
    return word in _STOPWORDS


def cjk_bigrams(text: str) -> str:
    """ "大语言模型" -> "大语 语言 言模 模型": CJK runs as overlapping bigrams, the rest unchanged."""
    if text.isascii():  # most texts: Python knows this without reading them, the pattern would scan them
        return text

    def pairs(match: re.Match[str]) -> str:
        run = match.group()
        return " " + (" ".join(run[i : i + 2] for i in range(len(run) - 1)) if len(run) > 1 else run) + " "

    return CJK.sub(pairs, text)


def with_joined_compounds(text: str) -> str:
    """The text, then each of its hyphenated words joined ("pre-trained ... pretrained"): papers spell such
    a word both ways (of the corpus's 92,874 papers, 1,966 write "pre-trained" and 773 "pretrained",
    1,281 "fine-tuning" and 234 "finetuning"), and the index splits a hyphenated word in two, so a query
    of the joined spelling missed the papers that hyphenate it. After the text, not beside each word,
    so that "pre-trained language models" stays a phrase."""
    joined = joined_words(text)
    return f"{text} {' '.join(joined)}" if joined else text


def joined_words(text: str) -> list[str]:
    """Each hyphenated word of the text, joined: "pre-trained GPT-4" -> ["pretrained", "GPT4"]."""
    return [word.replace("-", "") for word in hyphenated_words(text)]


def hyphenated_words(text: str) -> list[str]:
    """The words of the text written with hyphens, but numbers ("2019-2020") and CJK: "pre-trained", "GPT-4"."""
    return [match.group() for match in _joinable(text)]


def joined_phrase(phrase: str) -> str | None:
    """A phrase's words with its hyphenated words joined ("pre-trained language models" -> "pretrained
    language models"), as a paper that joins them writes it; None when it has no hyphenated word."""
    pieces, at = [], 0
    for match in _joinable(phrase):
        pieces += [phrase[at : match.start()], match.group().replace("-", "")]
        at = match.end()
    if not pieces:
        return None
    return " ".join(_WORD.findall(cjk_bigrams("".join([*pieces, phrase[at:]]))))


def _joinable(text: str) -> Iterator[re.Match[str]]:
    if "-" not in text:
        return
    for match in _hyphenated(text):
        word = match.group()
        if not word.replace("-", "").isdigit() and not CJK.search(word):
            yield match


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
    return tuple(cjk_bigrams(with_joined_compounds(v)) for v in values)


@dataclass
class Query:
    """A user's text, parsed: what FTS5 must match, and the filters that are not text."""

    must: list[str] = field(default_factory=list)  # FTS5 terms, each quoted, maybe with a column
    exclude: list[str] = field(default_factory=list)
    venue: str | None = None
    years: tuple[int, int] | None = None
    words: list[str] = field(default_factory=list)  # the wanted text as typed, for the sentence encoder
    typed: bool = True  # False for a Chinese query's English: its glossary phrases rank, they do not filter
    pairs: list[tuple[str, str]] = field(default_factory=list)  # adjacent words: a paper holding one ranks higher
    # a hyphenated word typed, as its terms ('"fine"', '"tuning"') and its joined spelling ('"finetuning"'),
    # which the index holds for the papers that hyphenate it and which the papers that join it write; a
    # phrase with one, as the phrase and the phrase joined ('"pretrained language models"')
    joined: list[tuple[tuple[str, ...], str]] = field(default_factory=list)

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
        return [t for t in self.must if not is_stopword(t.strip('"'))] or self.must

    def joined_within(self, terms: list[str]) -> list[tuple[tuple[str, ...], str]]:
        """`joined`, each word's terms narrowed to `terms` (content() leaves "state-of-the-art" "state", "art")."""
        kept = set(terms)
        return [
            (tuple(t for t in apart if t in kept), together) for apart, together in self.joined if kept & set(apart)
        ]

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
    previous = None  # the last word of the free text just before, which the next word is adjacent to
    for match in _TERM.finditer(text[:MAX_QUERY_CHARS]):
        field_name = (match.group("field") or "").lower()
        raw = match.group("phrase") if match.group("phrase") is not None else match.group("word")
        if field_name == "venue" and raw:
            query.venue, previous = raw, None
            continue
        if field_name == "year" and parse_years(raw):
            query.years, previous = parse_years(raw), None
            continue
        tokens = _WORD.findall(cjk_bigrams(raw.lower() if raw else ""))
        if not tokens:
            continue
        column = FIELDS.get(field_name)
        free = not column and not match.group("neg")
        if free:
            query.pairs += _adjacent([previous, *tokens])
        previous = tokens[-1] if free else None
        phrase = match.group("phrase") is not None
        terms = [_quote(" ".join(tokens))] if phrase else [_quote(t) for t in tokens]
        if column:
            terms = [f"{column} : {t}" for t in terms]
        elif free and (together := joined_phrase(raw.lower())) and (phrase or together == "".join(tokens)):
            query.joined.append((tuple(terms), _quote(together)))  # a phrase, or one hyphenated word
        if match.group("neg"):
            query.exclude += terms
        else:
            query.must += terms
            query.words.append(raw)
    if len(query.content()) > PAIRS_UP_TO:
        query.pairs = []
    return query


def _adjacent(tokens: list[str | None]) -> list[tuple[str, str]]:
    """Neighbouring words that make a pair worth finding side by side: neither a stop word nor
    Chinese (CJK runs are indexed as overlapping bigrams, which are side by side already)."""
    return [
        (a, b)
        for a, b in pairwise(tokens)
        if a and b and a not in _STOPWORDS and b not in _STOPWORDS and not CJK.search(a + b)
    ]


NUMBER_FORMS = files("paperscope.index") / "data" / "number_forms.tsv"  # made by index/number_forms.py


@functools.lru_cache(maxsize=65_536)
def other_forms(word: str) -> tuple[str, ...]:
    """The word in its other number, as a paper may write it: "policy" → "policies", "matrices" →
    "matrix", "llm" → "llms". Words of letters only; a form no paper uses is harmless (it matches nothing).
    Kept once worked out: every result's snippet asks again."""
    if not inflects(word):
        return ()
    one = singular(word)
    return tuple(sorted({one, *plurals(one)} - {word}))


@functools.lru_cache(maxsize=2**18)  # the whole corpus's papers hold 226,799 distinct words
def singular(word: str) -> str:
    """The word in the singular ("policies" → "policy", "biases" → "bias", "matrices" → "matrix"), a verb's
    -s form as the verb ("achieves" → "achieve"); a word of other characters than letters, or shorter than
    three, as it is. The English dictionary's (NUMBER_FORMS) where it differs from inflection's rules, which
    alone made "bia" of "bias" and "biase" of "biases", "wafe" of "waves", so that the two numbers never met;
    the rules' elsewhere ("llms" → "llm"). Kept once worked out: the lexical index asks for every word of
    every paper."""
    if not inflects(word):
        return word
    return _number_forms()[0].get(word) or rule_singular(word)


def plurals(word: str) -> tuple[str, ...]:
    """A singular's plurals: the dictionary's where they differ from inflection's rules ("corpus" → "corpora",
    "corpuses"), else the one the rules make; none of a word inflection counts uncountable."""
    if word in inflection.UNCOUNTABLES:
        return ()
    return _number_forms()[1].get(word) or (rule_plural(word),)


def rule_singular(word: str) -> str:
    """inflection.singularize(word), by the compiled rules."""
    uncountable, _, singulars = _number_rules()
    return word if uncountable.search(word) else _first_rule(singulars, word)


def rule_plural(word: str) -> str:
    """inflection.pluralize(word), by the compiled rules."""
    _, rules, _ = _number_rules()
    return word if word in inflection.UNCOUNTABLES else _first_rule(rules, word)


def inflects(word: str) -> bool:
    """Whether a word has another number to look for: three letters or more, of a to z."""
    return len(word) >= 3 and word.isascii() and word.isalpha()


@functools.cache
def _number_forms() -> tuple[dict[str, str], dict[str, tuple[str, ...]]]:
    """NUMBER_FORMS: singulars by word, plurals by singular."""
    singulars: dict[str, str] = {}
    plurals: dict[str, tuple[str, ...]] = {}
    for line in NUMBER_FORMS.read_text(encoding="utf-8").splitlines():
        kind, word, forms = line.split("\t")
        if kind == "singular":
            singulars[word] = forms
        else:
            plurals[word] = tuple(forms.split())
    return singulars, plurals


@functools.cache
def _number_rules() -> tuple[re.Pattern[str], list[tuple[re.Pattern[str], str]], list[tuple[re.Pattern[str], str]]]:
    """inflection's rules (its uncountable words, its plural and singular rules in its order), compiled once:
    inflection.pluralize and singularize pass each rule to `re` as a string, one after another, ~0.1 ms a word,
    a tenth of a lexical search at 92.5k papers for each word no search had asked for before."""
    uncountable = re.compile(rf"(?i)\b(?:{'|'.join(inflection.UNCOUNTABLES)})\Z")
    return (
        uncountable,
        [(re.compile(rule), replacement) for rule, replacement in inflection.PLURALS],
        [(re.compile(rule), replacement) for rule, replacement in inflection.SINGULARS],
    )


def _first_rule(rules: list[tuple[re.Pattern[str], str]], word: str) -> str:
    for pattern, replacement in rules:
        if pattern.search(word):
            return pattern.sub(replacement, word)
    return word


def parse_years(text: str | None) -> tuple[int, int] | None:
    """(2024, 2026) from "2024..2026", (2024, 2024) from "2024"; None for anything else."""
    match = re.fullmatch(r"(\d{4})(?:\.\.(\d{4}))?", (text or "").strip())
    if not match:
        return None
    first = int(match.group(1))
    last = int(match.group(2) or first)
    return min(first, last), max(first, last)  # "2026..2020" is the same years (it matched nothing)


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


@dataclass
class LexicalHit:
    paper_id: str
    score: float  # higher is better: BM25 with field weights (SQLite), IDF-weighted ts_rank (PostgreSQL)
    every: bool = True  # has every term of the query (False: found by the "any term" pass)


def snippet(text: str, query: Query, chars: int = 240) -> str:
    """The stretch of `text` with the most query words, those words between \x02 and \x03; "" if none.

    Made here rather than by FTS5's snippet(), which re-reads every matching row's text: for the
    100 rows a hybrid search takes from each list, that was most of its time.
    """
    wanted = _marked_words((*query.must, *(joined for _, joined in query.joined)))
    spans = _whole_words(text, wanted) if wanted and text else []
    if not spans:
        return ""
    best = _busiest([start for start, _ in spans], chars)
    begin = max(0, best - chars // 4)
    begin = text.rfind(" ", 0, begin) + 1 if begin else 0
    end = text.find(" ", begin + chars)
    end = len(text) if end == -1 else end
    marked, at = [], begin
    for start, stop in spans:
        if begin <= start and stop <= end:
            marked += [text[at:start], "\x02", text[start:stop], "\x03"]
            at = stop
    marked.append(text[at:end])
    return ("…" if begin else "") + "".join(marked) + ("…" if end < len(text) else "")


def _busiest(starts: list[int], chars: int) -> int:
    """The first of `starts` (in order, distinct) with the most starts in the `chars` from it."""
    best, most, ahead = starts[0], 0, 0
    for at, start in enumerate(starts):
        while ahead < len(starts) and starts[ahead] < start + chars:
            ahead += 1
        if ahead - at > most:
            best, most = start, ahead - at
    return best


@functools.lru_cache(maxsize=1_024)
def _marked_words(must: tuple[str, ...]) -> frozenset[str]:
    """The words a snippet marks for a query's terms: in lower case, stop words aside, each with its
    other number (as the index finds them). Worked out once a query, not once a result."""
    wanted = {w for term in must for w in _WORD.findall(term.split(":")[-1].lower())} - _STOPWORDS
    return frozenset(wanted | {form for word in wanted for form in other_forms(word)})


def _whole_words(text: str, words: frozenset[str]) -> list[tuple[int, int]]:
    """Where any of `words` (lower case) stands in `text` as a whole word, in any case, in order.

    str.find per word rather than one regular expression of them all: compiling that took ~0.3 ms a
    query, more than the whole search of a warm index."""
    lowered = text.lower()
    if len(lowered) != len(text):  # a letter or two grow when lowered ("İ"): keep those as they are
        lowered = "".join(c if len(c.lower()) != 1 else c.lower() for c in text)
    spans = []
    for word in words:
        at = lowered.find(word)
        while at != -1:
            stop = at + len(word)
            if not (_word_char(lowered, at - 1) or _word_char(lowered, stop)):
                spans.append((at, stop))
            at = lowered.find(word, stop)
    if "-" in lowered:  # a word the query joins, written hyphenated: "pretrained" marks "pre-trained"
        spans += [span for span in _joined_in(lowered, words) if not any(s < span[1] and span[0] < e for s, e in spans)]
    return sorted(spans)


def _joined_in(lowered: str, words: frozenset[str]) -> list[tuple[int, int]]:
    """Where a hyphenated word of `lowered` stands whose joined form is one of `words`."""
    return [found.span() for found in _hyphenated(lowered) if found.group().replace("-", "") in words]


def _hyphenated(text: str) -> Iterator[re.Match[str]]:
    """The hyphenated words of a text ("pre-trained", "GPT-4"), found by walking from hyphen to hyphen:
    a pattern scanning the whole text for them tripled a snippet's cost."""
    at = text.find("-")
    while at != -1:
        start = at
        while start and text[start - 1].isalnum():
            start -= 1
        found = _COMPOUND.match(text, start)
        if found and found.end() > at:
            yield found
            at = found.end()
        at = text.find("-", at + 1)


def begins_a_word(text: str, word: str) -> bool:
    """Whether `word` stands in `text` where a word begins (what the pattern \\bword finds), without
    compiling that pattern: explaining ten results compiled hundreds, 2 ms of an API search."""
    at = text.find(word)
    while at != -1:
        if not _word_char(text, at - 1):
            return True
        at = text.find(word, at + 1)
    return False


def _word_char(text: str, at: int) -> bool:
    """Whether `text[at]` exists and is a letter, digit or underscore (what \\w matches)."""
    return 0 <= at < len(text) and (text[at].isalnum() or text[at] == "_")
