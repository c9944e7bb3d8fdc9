"""The library: the one API that the command line, the JSON API and the web pages call."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Generic, Self, TextIO, TypeVar

from paperscope import citekeys
from paperscope.analyze import benchmarks as benchmark_model
from paperscope.analyze import related as related_model
from paperscope.analyze import stats as stats_model
from paperscope.analyze import topics as topic_model
from paperscope.atomic import replacing
from paperscope.embed import embed_missing
from paperscope.errors import PaperscopeError
from paperscope.export import citation, export_format
from paperscope.index import fusion, lexical, semantic, translate
from paperscope.model import Paper
from paperscope.progress import Progress
from paperscope.store import Store, open_store

if TYPE_CHECKING:
    from paperscope import pipeline

MAX_RESULTS = 1_000
MODES = ("hybrid", "lexical", "semantic")
MAX_LIKE_CHARS = 5_000  # a pasted abstract of 300 words is about 2,000
ORDERS = ("relevance", "year", "venue", "name")  # how a search's results may be sorted
FUSED_DEPTH = 100  # how deep each list goes into the fusion
RELATED_CANDIDATES = 60  # how deep related() reads each of its two lists
RELATED_REASONED = 20  # how many of the ranked candidates may be read for what they share with the paper
# From this many papers, related papers sharing nothing named with the paper come last. Among the 51 seeds alone,
# where few words are rare, that cost recall@5 0.05-0.10 (bench/related.py).
RELATED_REASONED_FROM = 1_000
TITLE_CHECKED = 10  # how many of the first results are checked for a title equal to the query
# Facts of the library: how many papers its topics were made of, and how many were placed among them (or
# left the map) since
TOPICS_MADE_OF = "topics_made_of"
TOPICS_PLACED = "topics_placed"
T = TypeVar("T")


class _PerVersion(Generic[T]):
    """A value worked out once per change of the library."""

    def __init__(self) -> None:
        self._held: tuple[object, T] | None = None

    def get(self, version: object, work_out: Callable[[], T]) -> T:
        held = self._held  # one read: another thread may replace it meanwhile
        if held is None or held[0] != version:
            held = self._held = (version, work_out())
        return held[1]


def _words(text: str) -> list[str]:
    return re.findall(r"\w+", text.lower())


class NotFound(PaperscopeError):
    pass


@dataclass
class SearchHit:
    rank: int
    paper: Paper
    score: float  # the mode's own score: BM25, cosine, or the fused score (0–1)
    scores: dict[str, float]  # its parts: lexical (BM25), semantic (cosine), and the rank in each list
    snippet: str  # the abstract around the matched words, marked with \x02 ... \x03 ("" when none matched)


@dataclass
class SearchPage:
    hits: list[SearchHit]
    total: int  # the whole result set, up to MAX_RESULTS
    facets: dict[str, list[tuple[object, int]]]  # over the whole result set without the filters chosen; {} unasked
    capped: bool = False  # more papers match than MAX_RESULTS: `total` is a floor ("1,000+ papers match")
    without_vectors: bool = False  # found nothing by meaning because the library has no vectors (--no-embed)


@dataclass
class Related:
    paper: Paper
    similarity: float | None  # cosine of the two papers' sentence vectors (None: not among the nearest)
    shared: list[str]  # the facts both papers have: "benchmark GSM8K", "model Llama 3"
    phrases: list[str] = field(default_factory=list)  # specific words both use: "speculative decoding"

    @property
    def reason(self) -> str:
        parts = [f"shares {fact}" for fact in self.shared]
        if self.phrases:
            parts.append("both about " + ", ".join(self.phrases))
        if self.similarity is not None:
            parts.append(f"similar meaning {self.similarity:.2f}")
        return "; ".join(parts)


def _sort_key(paper: Paper | None, order: str) -> tuple:
    """Newest first; venue and name alphabetically; papers without the field last."""
    if paper is None:
        return (2,)
    if order == "year":
        return (paper.year is None, -(paper.year or 0))
    if order == "venue":
        return (not paper.venue, (paper.venue or "").lower(), -(paper.year or 0))
    return (not paper.name, (paper.name or paper.display_title).lower())


def _shared(paper: Paper, other: Paper) -> list[str]:
    """The benchmarks and models both papers name. Not their topic: papers near each other by meaning
    fall in the same cluster of the map, so "shares topic" said nothing (over the 51 seeds, whose map
    has two topics, nearly every related paper shared one)."""
    benchmarks = [f"benchmark {b}" for b in paper.benchmarks if b in other.benchmarks]
    models = [f"model {m}" for m in paper.models if m in other.models]
    return [*benchmarks, *models]


class SharedWeights:
    """The related papers' word weights (related_model.Idf) of one library, for the Library objects of
    one process on it (a server's pool): each would read the vocabulary, ~1 s and ~30 MB at 92k papers."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.held: tuple[int, related_model.Idf] | None = None


class Library:
    def __init__(self, db: str | Path, shared: SharedWeights | None = None, progress: Progress | None = None) -> None:
        self.store: Store = open_store(db, progress)
        self._weights = shared or SharedWeights()
        self._stats: _PerVersion[stats_model.Stats] = _PerVersion()
        self._facets: _PerVersion[dict[str, list[tuple[object, int]]]] = _PerVersion()
        self._count: _PerVersion[int] = _PerVersion()
        self._translated: tuple[tuple[str, tuple[int, int]], translate.Translation] | None = None  # the last query's

    def close(self) -> None:
        self.store.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def ingest(
        self,
        paths: Sequence[str | Path],
        *,
        skip_bad: bool = False,
        embed_vectors: bool = True,
        progress: Progress | None = None,
        options: Mapping[str, Sequence[str]] | None = None,
    ) -> pipeline.IngestReport:
        """Read paper lists in one transaction, then embed what is new (unless `embed_vectors` is off);
        `options` are the input formats' options, as pipeline.ingest takes them."""
        from paperscope import pipeline  # here: reading and extraction take ~0.2 s to import, wasted by other commands

        report = pipeline.ingest(paths, self.store, skip_bad=skip_bad, progress=progress, options=options)
        changed = report.papers_created + report.papers_updated + report.papers_removed + report.papers_remade_changed
        if changed:  # the first search after the ingest should not wait for the lexical index
            started = time.perf_counter()
            self.store.catch_up_indexes(prune=True)
            report.seconds["search_index"] = round(time.perf_counter() - started, 2)
        if embed_vectors:
            started = time.perf_counter()
            report.vectors_computed = embed_missing(self.store, progress)
            report.seconds["embed"] = round(time.perf_counter() - started, 2)
        report.vectors_missing = self.store.count_missing_vectors()
        if embed_vectors and (changed or report.vectors_computed) and not report.vectors_missing:
            started = time.perf_counter()
            self._topics_in_step(progress)
            report.seconds["topics"] = round(time.perf_counter() - started, 2)
        return report

    def embed(self, progress: Progress | None = None) -> int:
        """Compute the vectors that are missing or stale, then the topics; resumable. Returns how many."""
        computed = embed_missing(self.store, progress)
        if computed:
            self._topics_in_step(progress)
        return computed

    def analyze(self, count: int | None = None, progress: Progress | None = None) -> list[topic_model.Topic]:
        """Cluster the papers into topics and lay them out on the map; stored, replacing the last."""
        vectors = self.vectors()
        order = sorted(range(len(vectors)), key=vectors.ids.__getitem__)  # id order: the same library, the same topics
        ids = [vectors.ids[i] for i in order]
        papers = (self.store.get_paper(i) for i in ids)
        layout = topic_model.cluster(vectors.matrix[order], [semantic.text_of(p) for p in papers if p], count, progress)
        with self.store.transaction():
            self.store.put_layout(
                ((t.id, t.label, t.keywords, t.size) for t in layout.topics),
                (
                    (pid, int(t), float(x), float(y))
                    for pid, t, (x, y) in zip(ids, layout.assignment, layout.xy, strict=True)
                ),
            )
            self.store.set_fact(TOPICS_MADE_OF, str(len(ids)))
            self.store.set_fact(TOPICS_PLACED, "0")
        return layout.topics

    def _topics_in_step(self, progress: Progress | None) -> None:
        """The topics after papers came, changed or went. Each paper without a place on the map (new, or
        with a new vector) is put among the topics there are (topic_model.place), while the papers so
        placed and those gone since the topics were made are at most topic_model.PLACE_SHARE of the
        papers they were made of: making them again takes ~15 s at 11.5k papers, for a change of two.
        Beyond that share, in a library of fewer than topic_model.PLACE_FROM papers, or with no topics
        yet, they are made again."""
        unplaced, gone = self.store.unplaced(), self.store.gone_count()
        topics = self.store.topics()
        if topics and not unplaced and not gone:
            return  # the map holds the papers it held
        made_of = int(self.store.fact(TOPICS_MADE_OF) or self.store.placed_count())  # made before the fact was kept
        since = int(self.store.fact(TOPICS_PLACED) or 0)
        if (
            not topics
            or made_of < topic_model.PLACE_FROM
            or since + len(unplaced) + gone > topic_model.PLACE_SHARE * made_of
        ):
            self.analyze(progress=progress)
            return
        points = []
        if unplaced:
            vectors, papers = self.vectors(), self.store.get_papers(unplaced)
            new = [pid for pid in unplaced if pid in papers and pid in vectors.position]  # unless changed meanwhile
            found = topic_model.place(
                vectors.matrix,
                [(vectors.position[pid], t, x, y) for pid, _, t, x, y in self.map_points() if pid in vectors.position],
                {topic: keywords for topic, _, keywords, _ in topics},
                [vectors.position[pid] for pid in new],
                [semantic.text_of(papers[pid]) for pid in new],
            )
            points = [(pid, *place) for pid, place in zip(new, found, strict=True)]
        with self.store.transaction():
            self.store.put_places(points)
            self.store.set_fact(TOPICS_PLACED, str(since + len(points) + gone))

    def topics(self) -> list[topic_model.Topic]:
        return [topic_model.Topic(t, label, words, size) for t, label, words, size in self.store.topics()]

    def topic_papers(self, topic: int, limit: int = 3) -> list[Paper]:
        """The papers nearest the centre of a topic: what it is about."""
        members = [pid for pid, *_ in self.store.map_points(lexical.Filters(topic=topic))]
        vectors = self.vectors()
        rows = [vectors.position[pid] for pid in members if pid in vectors.position]
        if not rows:
            return []
        centre = vectors.matrix[rows].mean(axis=0)
        centre /= max(float((centre**2).sum()) ** 0.5, 1e-9)
        nearest = self.store.nearest(centre, limit, lexical.Filters(topic=topic))
        return [p for pid, _ in nearest if (p := self.store.get_paper(pid))]

    def map_points(self, filters: lexical.Filters | None = None) -> list[tuple[str, str, int, float, float]]:
        """(id, display title, topic, x, y) of every paper on the map."""
        return self.store.map_points(filters)

    def stats(self) -> stats_model.Stats:
        """Counts and tops over the whole library; computed once per change of the library."""
        return self._stats.get(
            self.store.version(),
            lambda: stats_model.compute(self.store.paper_groups(), self.store.topic_sizes(), self.store.mentions()),
        )

    def benchmark(self, name: str) -> benchmark_model.Benchmark:
        """One benchmark, however it is written, with its variants and claims; when no paper names it,
        NotFound says which names are close."""
        entries = self.stats().by_benchmark
        found = benchmark_model.find(entries, name)
        if found is None:
            close = benchmark_model.close_names(entries, name)
            raise NotFound(f"no paper names the benchmark {name!r}" + (f"; close: {', '.join(close)}" if close else ""))
        return found

    def count(self, filters: lexical.Filters | None = None) -> int:
        """How many papers pass `filters`; the whole library's once per change (PostgreSQL counts every row:
        29 ms of each browse page at 92.5k papers)."""
        if filters and filters.active:
            return self.store.count_papers(filters)
        return self._count.get(self.store.version(), self.store.count_papers)

    def papers(
        self, order: str = "id", limit: int | None = None, offset: int = 0, filters: lexical.Filters | None = None
    ) -> Iterator[Paper]:
        return self.store.iter_papers(order, limit, offset, filters)

    def facets(self, filters: lexical.Filters | None = None) -> dict[str, list[tuple[object, int]]]:
        """How many papers per venue, year, contribution and has-code, among those passing `filters`; those
        of the whole library (the home and browse pages' first view) once per change of the library."""
        if filters and filters.active:
            return self.store.facet_counts(filters)
        return self._facets.get(self.store.version(), self.store.facet_counts)

    def paper(self, paper_id: str) -> Paper:
        paper = self.store.get_paper(paper_id.strip().lower())
        if paper is None:
            raise NotFound(f"no paper with id {paper_id!r}")
        return paper

    def related(self, paper_id: str, limit: int = 10) -> list[Related]:
        """The papers most like this one, those on the same specific problem first.

        Candidates: the nearest by sentence vector, and a "more like this" BM25 query of the paper's
        most distinctive words. Each is scored by TF-IDF cosine (IDF over the whole library) blended
        with the sentence-vector cosine; in a library of RELATED_REASONED_FROM papers or more, of the
        first RELATED_REASONED (or twice `limit`), those that share a benchmark, a model or a key
        phrase with this one come first."""
        paper = self.paper(paper_id)
        terms = related_model.Terms(semantic.text_of(paper))
        idf = self._library_idf()
        query = lexical.Query(must=[f'"{w}"' for w in related_model.distinctive(terms, idf)])
        by_words = (
            [
                (h.paper_id, h.score)
                for h in self.store.search_lexical(query, RELATED_CANDIDATES + 1)
                if h.paper_id != paper.id
            ]
            if query.must
            else []
        )
        vector = self.store.vector_of(paper.id)
        by_meaning = self.store.nearest(vector, RELATED_CANDIDATES, skip={paper.id}) if vector is not None else []
        cosines = dict(by_meaning)
        mine = related_model.weights(terms, idf)
        candidates = self.store.get_papers(sorted({*cosines, *(pid for pid, _ in by_words)}))
        if vector is not None:  # the lexical list's papers that are not among the nearest by vector
            for pid in candidates.keys() - cosines.keys():
                other_vector = self.store.vector_of(pid)
                cosines[pid] = float(vector @ other_vector) if other_vector is not None else None
        texts = {pid: related_model.Terms(semantic.text_of(p)) for pid, p in candidates.items()}
        lexical_cosines = {pid: related_model.similarity(mine, t, idf) for pid, t in texts.items()}
        # In a large library, a paper sharing neither a fact nor a phrase comes after those that do: at 11.5k
        # papers, 6% of such papers in bench/related.py's lists were judged related, 26% of the others.
        reordered = idf.total >= RELATED_REASONED_FROM
        depth = max(limit * 2, RELATED_REASONED) if reordered else limit
        named: list[Related] = []
        unnamed: list[Related] = []
        for other_id, _ in related_model.rank(lexical_cosines, cosines)[:depth]:
            other = candidates[other_id]
            phrases = related_model.shared_phrases(terms, texts[other_id], idf)
            found = Related(other, cosines.get(other_id), _shared(paper, other), phrases)
            (named if found.shared or found.phrases or not reordered else unnamed).append(found)
            if len(named) == limit:
                break
        return (named + unnamed)[:limit]

    def shared_phrases(self, paper: Paper, other: Paper) -> list[str]:
        """What two papers are both about, as related papers give it ("speculative decoding")."""
        terms = [related_model.Terms(semantic.text_of(p)) for p in (paper, other)]
        return related_model.shared_phrases(*terms, self._library_idf())

    def _library_idf(self) -> related_model.Idf:
        """The library's word weights for related papers; worked out once per change of its papers."""
        version = self.store.papers_version()
        with self._weights.lock:  # the libraries sharing them wait for the one working them out
            if self._weights.held is None or self._weights.held[0] != version:
                self._weights.held = None  # the old table goes before the new one is built
                self._weights.held = (version, related_model.Idf(self.store.vocabulary(), self.store.count_papers()))
            return self._weights.held[1]

    def search(
        self,
        text: str,
        limit: int = 10,
        filters: lexical.Filters | None = None,
        syntax: str = "words",
        mode: str = "hybrid",
        *,
        offset: int | None = None,
        order: str = "relevance",
    ) -> list[SearchHit]:
        """Papers for a query, best first.

        `mode`: lexical (BM25), semantic (sentence vectors) or hybrid (both, fused by their
        normalised scores). `syntax="fts"` passes the text to FTS5 as it is, and is lexical only.
        A paper's id, or a source's own id (an OpenReview id), as the query finds that paper first.
        Paging: with `offset` (or an `order`), the page is cut from the whole result set (up to
        MAX_RESULTS, the set search_page counts), so the pages of a search neither overlap nor skip a
        paper; `order` sorts that set by year (newest first), venue or name first. A hit's
        rank stays its place by relevance.
        """
        limit = max(1, min(limit, MAX_RESULTS))
        paged = offset is not None or order != "relevance"
        query = lexical.parse(text)
        depth = MAX_RESULTS if paged else limit
        ranked, read = self._ranked(text, query, depth, filters, syntax, mode, depth)
        marked = self._lexical_query(text, query, syntax)  # the English words of a Chinese query are marked
        return self._page(ranked[:depth], read, marked, offset or 0, limit, order)

    def search_page(
        self,
        text: str,
        limit: int = 20,
        offset: int = 0,
        filters: lexical.Filters | None = None,
        mode: str = "hybrid",
        order: str = "relevance",
        facets: bool = False,
    ) -> SearchPage:
        """One page of a search, the size of its whole result set (up to MAX_RESULTS; one more found
        says that more match) and, with `facets`, that set's facet counts (taken without `filters`, so
        that each facet shows what choosing it would give): what the search page and the API show,
        from one ranking when no filter is chosen."""
        query = lexical.parse(text)
        ranked, read = self._ranked(text, query, MAX_RESULTS + 1, filters, "words", mode, MAX_RESULTS + 1)
        capped = len(ranked) > MAX_RESULTS
        ranked = ranked[:MAX_RESULTS]
        marked = self._lexical_query(text, query, "words")
        hits = self._page(ranked, read, marked, offset, max(1, min(limit, MAX_RESULTS)), order)
        without_vectors = mode == "semantic" and not hits and not self.has_vectors()
        if not facets:
            return SearchPage(hits, len(ranked), {}, capped, without_vectors)
        unfiltered = (
            ranked
            if not (filters and filters.active)
            else self._ranked(text, query, MAX_RESULTS, None, "words", mode, MAX_RESULTS)[0][:MAX_RESULTS]
        )
        counts = self.store.facet_counts_of([paper_id for paper_id, _, _ in unfiltered])
        return SearchPage(hits, len(ranked), counts, capped, without_vectors)

    def _page(
        self,
        ranked: list[tuple[str, float, dict[str, float]]],
        read: dict[str, Paper],
        query: lexical.Query,
        offset: int,
        limit: int,
        order: str,
    ) -> list[SearchHit]:
        """`limit` hits from `offset` of a ranking, sorted first by `order` (rank stays the place by
        relevance); `read` holds papers already read, which are not read again."""
        if order not in ORDERS:
            raise PaperscopeError(f"unknown order {order!r}; one of {', '.join(ORDERS)}")
        offset = max(0, min(offset, MAX_RESULTS))
        wanted = ranked if order != "relevance" else ranked[offset : offset + limit]
        papers = read | self.store.get_papers([pid for pid, _, _ in wanted if pid not in read])
        places = list(enumerate(ranked, start=1))
        if order != "relevance":
            places.sort(key=lambda place: _sort_key(papers.get(place[1][0]), order))
        hits: list[SearchHit] = []
        for rank, (paper_id, score, parts) in places[offset : offset + limit]:
            if paper := papers.get(paper_id):
                hits.append(SearchHit(rank, paper, score, parts, lexical.snippet(paper.abstract, query)))
        return hits

    def like(
        self,
        text: str,
        limit: int = 10,
        filters: lexical.Filters | None = None,
        *,
        offset: int = 0,
    ) -> list[SearchHit]:
        """The papers nearest in meaning to a pasted text (an abstract, a paragraph): its words are
        not a query (no fields, no operators), only its sentence vector is."""
        text = text.strip()[:MAX_LIKE_CHARS]
        if not text or not self.has_vectors():
            return []
        limit, offset = max(1, min(limit, MAX_RESULTS)), max(0, min(offset, MAX_RESULTS))
        vector = semantic.encoder().encode([text])[0]
        near = self.store.nearest(vector, offset + limit, filters)[offset:]
        papers = ((rank, self.store.get_paper(pid), cosine) for rank, (pid, cosine) in enumerate(near, offset + 1))
        return [SearchHit(rank, p, cosine, {"semantic": cosine}, "") for rank, p, cosine in papers if p]

    def searched_as(self, text: str, mode: str = "hybrid", syntax: str = "words") -> str | None:
        """What the words side of a search looked for when it was not the text as typed: the English
        of a Chinese or mixed query ("推测解码" -> '"speculative decoding"'); None otherwise."""
        if mode == "semantic" or syntax != "words":
            return None
        translation = self._translation(text)
        return translation.text if translation.changed else None

    def _translation(self, text: str) -> translate.Translation:
        if not translate.has_chinese(text):
            return translate.Translation(text, text, ())
        key = (text, self.store.version())  # the senses chosen depend on the library's vocabulary
        last = self._translated  # one read: another thread may replace it meanwhile
        if last is None or last[0] != key:
            counts = self.store.word_counts()
            last = self._translated = (key, translate.translate(text, counts.frequency, counts.present))
        return last[1]

    def _lexical_query(self, text: str, query: lexical.Query, syntax: str) -> lexical.Query:
        """The query BM25 runs: a Chinese query's English (the sentence encoder still reads the original)."""
        if syntax != "words" or not translate.has_chinese(text):
            return query
        translation = self._translation(text)
        if not translation.changed:
            return query
        translated = lexical.parse(translation.text)
        translated.typed = False
        return translated

    def search_lists(
        self,
        text: str,
        query: lexical.Query,
        limit: int,
        filters: lexical.Filters | None = None,
        syntax: str = "words",
        mode: str = "hybrid",
        enough: int | None = None,
    ) -> tuple[list[lexical.LexicalHit] | None, list[tuple[str, float]] | None]:
        """The lexical hits and the semantic neighbours a search fuses (None for a list it does not use)."""
        if syntax not in ("words", "fts"):
            raise PaperscopeError(f"unknown query syntax {syntax!r}; words or fts")
        if mode not in MODES:
            raise PaperscopeError(f"unknown search mode {mode!r}; one of {', '.join(MODES)}")
        semantic_too = mode != "lexical" and syntax == "words" and bool(query.text)
        lexical_too = mode != "semantic" or not semantic_too
        depth = max(limit, FUSED_DEPTH) if semantic_too and lexical_too else limit
        found = semantic_list = None
        if lexical_too:
            # The "any word" pass is skipped once `enough` papers have every word: it is most of the
            # cost on a large library, and only the first `enough` results are shown.
            found = self.store.search_lexical(
                self._lexical_query(text, query, syntax),
                depth,
                filters,
                text if syntax == "fts" else None,
                enough=enough,
            )
        if semantic_too:
            # A phrase or a field in the query is a requirement: meaning then only reorders what has it.
            within = {h.paper_id for h in found} if found is not None and query.strict else None
            # Fused, the semantic list is FUSED_DEPTH deep however deep the lexical one goes: its cosines
            # are scaled over the list, so a deeper one would rank otherwise than the fusion was tuned.
            semantic_list = self._nearest(query, FUSED_DEPTH if lexical_too else depth, filters, within)
        return found, semantic_list

    def _ranked(
        self,
        text: str,
        query: lexical.Query,
        limit: int,
        filters: lexical.Filters | None,
        syntax: str,
        mode: str,
        enough: int,
    ) -> tuple[fusion.Ranked, dict[str, Paper]]:
        """The ranking, with the papers read on the way (those checked for a title equal to the
        query, the one the query names by id)."""
        found, semantic_list = self.search_lists(text, query, limit, filters, syntax, mode, enough)
        ranked, read = self._titled_first(query, fusion.combine(query.text, found, semantic_list))
        direct = self._direct(text)
        if direct:
            parts = next((r[2] for r in ranked if r[0] == direct.id), {})
            ranked = [(direct.id, 0.0, parts), *[r for r in ranked if r[0] != direct.id]]
            read[direct.id] = direct
        return ranked, read

    def _titled_first(self, query: lexical.Query, ranked: fusion.Ranked) -> tuple[fusion.Ranked, dict[str, Paper]]:
        """The papers whose title is the query, word for word, ahead of the rest (they have every
        word); and the papers read to find them."""
        wanted = _words(query.text)
        if len(wanted) < 2:  # one word names a paper by its name, which lexical search already ranks first
            return ranked, {}
        papers = self.store.get_papers([r[0] for r in ranked[:TITLE_CHECKED] if r[2].get("every")])
        titled = [
            r
            for r in ranked[:TITLE_CHECKED]
            if (paper := papers.get(r[0])) and _words(paper.title or paper.display_title) == wanted
        ]
        return [*titled, *(r for r in ranked if r not in titled)], papers

    def _direct(self, text: str) -> Paper | None:
        """The paper a query names by its id or by a source's own id."""
        text = text.strip()
        if not text or any(c.isspace() for c in text):
            return None
        if re.fullmatch(r"[a-zA-Z2-7]{12}", text) and (paper := self.store.get_paper(text.lower())):
            return paper
        return self.store.paper_by_external_id(text)

    def _nearest(
        self, query: lexical.Query, k: int, filters: lexical.Filters | None, within: set[str] | None = None
    ) -> list[tuple[str, float]]:
        # A library ingested without vectors finds nothing by meaning: loading the encoder (0.6 s at the
        # first search) and encoding the query (2 ms each) would be for nothing.
        if not self.has_vectors():
            return []
        vector = semantic.encoder().encode([query.text])[0]
        return self.store.nearest(vector, k, query.filters(filters), within, query.exclude)

    def warm(self) -> None:
        """Load the sentence encoder and the vectors (or their index) ahead of the first semantic search,
        the Chinese segmenter and dictionaries ahead of the first Chinese query, the word weights ahead
        of the first related papers, and bring the lexical index in step ahead of the first search."""
        translate.warm()
        self.store.catch_up_indexes()
        self._library_idf()
        if self.has_vectors():
            self.store.nearest(semantic.encoder().encode(["warm up"])[0], 1)

    def has_vectors(self) -> bool:
        """Whether papers can be found by meaning at all: an ingest with --no-embed computes no vectors."""
        return self.store.has_vectors()

    def vectors(self) -> semantic.Vectors:
        """Every up-to-date vector in one matrix (read once per change of the library)."""
        return self.store.vectors()

    def backup(self, destination: str | Path) -> None:
        destination = Path(destination)
        if destination.exists():
            raise PaperscopeError(f"{destination}: already exists; a backup never overwrites a file")
        with replacing(destination) as partial:
            self.store.backup(partial)

    def check(self) -> dict[str, object]:
        return self.store.check()

    def export(
        self,
        fmt: str,
        out: TextIO,
        ids: Iterable[str] | None = None,
        filters: lexical.Filters | None = None,
        bom: bool = False,
        accepted_only: bool = False,
    ) -> None:
        """Stream papers to `out` in a format: the ids given, or every paper passing `filters`; with
        `accepted_only`, not those rejected, withdrawn or under review. The reference formats leave
        out withdrawn papers' placeholders, and cite each paper by its stored key."""
        chosen = export_format(fmt)
        ids = list(ids) if ids is not None else None
        papers = (self.paper(i) for i in ids) if ids is not None else self.papers(filters=filters)
        if accepted_only:
            papers = (p for p in papers if citation.accepted(p))
        if bom:
            out.write("\ufeff")
        if not chosen.cites:
            chosen.write(papers, out)
            return
        keys = self.store.cite_keys(ids)
        # A library made before keys were stored gets them now, once. Papers chosen by id are asked
        # about alone: the whole library's check was 3% of a loaded server's time.
        if (ids is None or not keys.keys() >= set(ids)) and self.store.papers_without_cite_key(limit=1):
            with self.store.transaction():
                citekeys.ensure(self.store)
            keys = self.store.cite_keys(ids)
        chosen.write((p for p in papers if not citation.placeholder(p)), out, keys)
