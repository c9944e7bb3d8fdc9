"""Every JSON reply: what the command line's --json prints and the JSON API answers, built here once.

One function per reply (`*_reply`), each taking what the Library or Personal returned; the parts
(`paper_summary`, `search_hit`, `related_paper`) are the rows the web pages render too. A command and
its route give the same shape (tests/test_contract.py runs each pair).
"""

from __future__ import annotations

import html
import re
from dataclasses import asdict
from typing import TYPE_CHECKING, Any

from paperscope.index.lexical import (
    begins_a_word,
    cjk_bigrams,
    hyphenated_words,
    is_stopword,
    with_joined_compounds,
)
from paperscope.model import Paper
from paperscope.normalize.html import note_to_html

if TYPE_CHECKING:
    from collections.abc import Iterable

    from paperscope.analyze.benchmarks import Benchmark
    from paperscope.analyze.stats import Stats
    from paperscope.analyze.topics import Topic
    from paperscope.library import Library, Related, SearchHit, SearchPage
    from paperscope.personal import Change, Personal, Suggestion


def paper_summary(paper: Paper) -> dict[str, Any]:
    """One row of a paper listing."""
    return {
        "id": paper.id,
        "display_title": paper.display_title,
        "title": paper.title,
        "name": paper.name,
        "venue": paper.venue,
        "year": paper.year,
        "status": paper.status,  # "Reject" on a list of submissions is no paper of that venue
        "sources": len(paper.sources),
        "has_code": bool(paper.urls.code),
    }


def search_hit(hit: SearchHit, query: str = "") -> dict[str, Any]:
    """One search result: the paper's row, its score and the score's parts in numbers and in words
    (`why`; `reasons` holds them for a page to word in its language), and a snippet.

    `query` is what the words side searched: for a Chinese query, its English (`searched_as`), so that
    the matched words are named.

    The snippet is the abstract around the matched words (`snippet_html` marks them with <mark>),
    or the abstract's start when only the meaning matched.
    """
    paper = hit.paper
    marked_text = hit.snippet or _head(paper.abstract)
    reasons = explain(hit, query)
    return {
        **paper_summary(paper),
        "rank": hit.rank,
        "score": round(hit.score, 4),
        "scores": {part: round(value, 4) for part, value in hit.scores.items()},
        "why": explain_in_words(reasons),
        "reasons": reasons,
        "snippet": marked_text.replace("\x02", "").replace("\x03", ""),
        "snippet_html": html.escape(marked_text).replace("\x02", "<mark>").replace("\x03", "</mark>"),
    }


_FIELDS = (
    ("title", lambda p: p.display_title),
    ("name", lambda p: p.name or ""),
    ("benchmarks", lambda p: " ".join(p.benchmarks)),
    ("models", lambda p: " ".join(p.models)),
    ("authors", lambda p: " ".join(p.authors)),
    ("abstract", lambda p: p.abstract),
)


def explain(hit: SearchHit, query: str) -> dict[str, Any]:
    """A score's reasons: which query words each field matched (each word told once, in its strongest
    field), the similarity of meaning, and whether the query was the paper's id."""
    typed = query.lower()
    words = list(dict.fromkeys(w for w in re.findall(r"\w+", cjk_bigrams(typed)) if len(w) > 1))
    words = [w for w in words if not is_stopword(w)] or words  # as the search looks for them
    # a word typed with hyphens is found joined too ("fine-tuning": "finetuning"), as the index finds it
    spelled = {word.replace("-", ""): word for word in hyphenated_words(typed)}
    words += [word for word in spelled if word not in words]
    matched = []
    for field, text_of in _FIELDS if "lexical" in hit.scores else ():
        text = cjk_bigrams(with_joined_compounds(text_of(hit.paper)).lower())  # as indexed: "multi-modal" too
        found = [w for w in words if begins_a_word(text, w)]
        if found:
            parts = {part for word in found if word in spelled for part in spelled[word].split("-")}
            told = [spelled.get(w, w) for w in found if w not in parts]  # "fine-tuning", as typed, for its parts
            matched.append({"words": told, "field": field})
            words = [w for w in words if w not in found]
    similar = hit.scores.get("semantic")
    # a cosine of zero or below says the meanings are unalike: no reason for a place ("similar meaning -0.05")
    alike = round(similar, 2) if similar and similar > 0 else None
    return {"by_id": not hit.scores, "matched": matched, "similar_meaning": alike}


def explain_in_words(reasons: dict[str, Any]) -> str:
    """ "matched: speculative, decoding in title; similar meaning 0.62" """
    parts = ["the paper's id"] if reasons["by_id"] else []
    parts += [f"{', '.join(m['words'])} in {m['field']}" for m in reasons["matched"]]
    if reasons["matched"]:
        parts[-len(reasons["matched"])] = "matched: " + parts[-len(reasons["matched"])]
    if reasons["similar_meaning"] is not None:
        parts.append(f"similar meaning {reasons['similar_meaning']:.2f}")
    return "; ".join(parts)


def related_paper(related: Related) -> dict[str, Any]:
    """One related paper: its row, the similarity and the reason in words."""
    similarity = None if related.similarity is None else round(related.similarity, 4)
    return {
        **paper_summary(related.paper),
        "similarity": similarity,
        "shared": related.shared,
        "phrases": related.phrases,
        "reason": related.reason,
    }


def stats_reply(stats: Stats) -> dict[str, Any]:
    return {
        "papers": stats.papers,
        "with_code": stats.with_code,
        "code_share": round(stats.code_share, 4),
        **{
            key: [{"name": k, "papers": n} for k, n in getattr(stats, key)]
            for key in ("venues", "contributions", "topics", "benchmarks", "models")
        },
        "claims": {b.name: [asdict(c) for c in b.claims] for b in stats.by_benchmark if b.claims},
    }


def benchmark_reply(benchmark: Benchmark) -> dict[str, Any]:
    """One benchmark: its name, the papers naming it, the variants as written, and the claims on it."""
    return {
        "benchmark": benchmark.name,
        "papers": benchmark.papers,
        "variants": [{"name": v, "papers": n} for v, n in benchmark.variants],
        "claims": [asdict(c) for c in benchmark.claims],
    }


def benchmarks_reply(stats: Stats) -> dict[str, Any]:
    return {
        "benchmarks": [
            {"name": b.name, "papers": b.papers, "variants": [v for v, _ in b.variants], "claims": len(b.claims)}
            for b in stats.by_benchmark
        ]
    }


def papers_reply(papers: Iterable[Paper], total: int, offset: int, limit: int) -> dict[str, Any]:
    """One page of the paper listing."""
    return {"total": total, "offset": offset, "limit": limit, "papers": [paper_summary(p) for p in papers]}


def paper_reply(paper: Paper) -> dict[str, Any]:
    """One paper, in the data contract."""
    return paper.to_dict()


def search_reply(
    query: str,
    mode: str,
    searched_as: str | None,
    found: SearchPage,
    *,
    order: str = "relevance",
    offset: int = 0,
    limit: int,
    facets: bool = False,
) -> dict[str, Any]:
    """One page of a search; with `facets`, the counts over its whole result set."""
    reply = {
        "query": query,
        "mode": mode,
        "searched_as": searched_as,
        "order": order,
        "total": found.total,
        "capped": found.capped,
        "offset": offset,
        "limit": limit,
        "results": [search_hit(h, searched_as or query) for h in found.hits],
    }
    if facets:
        reply["facets"] = {key: [{"value": v, "papers": n} for v, n in rows] for key, rows in found.facets.items()}
    return reply


def like_reply(hits: list[SearchHit], offset: int, limit: int) -> dict[str, Any]:
    """The papers nearest in meaning to a pasted text."""
    return {"offset": offset, "limit": limit, "results": [search_hit(h) for h in hits]}


def related_reply(paper_id: str, found: list[Related]) -> dict[str, Any]:
    return {"id": paper_id, "related": [related_paper(r) for r in found]}


def topics_reply(library: Library, topics: list[Topic]) -> dict[str, Any]:
    """Each topic with the papers nearest its centre."""
    return {"topics": [{**asdict(t), "papers": [paper_summary(p) for p in library.topic_papers(t.id)]} for t in topics]}


def map_reply(points: list[tuple[str, str, int, float, float]]) -> dict[str, Any]:
    return {
        "points": [
            {"id": i, "display_title": t, "topic": c, "x": round(x, 4), "y": round(y, 4)} for i, t, c, x, y in points
        ]
    }


def mine_reply(personal: Personal, paper_id: str) -> dict[str, Any]:
    """What the reader added to one paper."""
    note = personal.note(paper_id)
    return {
        "id": paper_id,
        "tags": [t for t, _ in personal.tags(paper_id)],
        "state": personal.state(paper_id),
        "note": note,
        "note_html": note_to_html(note) if note else None,
    }


def tags_reply(tags: list[tuple[str, int]]) -> dict[str, Any]:
    return {"tags": [{"tag": t, "papers": n} for t, n in tags]}


def list_reply(personal: Personal, papers: list[Paper]) -> dict[str, Any]:
    """The reading list (or a tag's papers), each with its state and tags."""
    return {
        "papers": [
            {**paper_summary(p), "state": personal.state(p.id), "tags": [t for t, _ in personal.tags(p.id)]}
            for p in papers
        ]
    }


def recommend_reply(tag: str | None, found: list[Suggestion]) -> dict[str, Any]:
    return {
        "tag": tag,
        "suggestions": [
            {**paper_summary(s.paper), "score": round(s.score, 4), "because": s.because.id, "reason": s.reason}
            for s in found
        ],
    }


def searches_reply(saved: list[tuple[str, str, str]]) -> dict[str, Any]:
    return {"searches": [{"name": n, "q": q, "mode": m} for n, q, m in saved]}


def saved_reply(name: str) -> dict[str, Any]:
    return {"saved": name}


def news_reply(found: dict[str, list[SearchHit]]) -> dict[str, Any]:
    """Per saved search, the papers added since it was last looked at."""
    return {"news": {name: [search_hit(h) for h in hits] for name, hits in found.items()}}


def changes_reply(found: list[Change]) -> dict[str, Any]:
    return {"changes": [asdict(c) for c in found]}


def _head(abstract: str, chars: int = 240) -> str:
    if len(abstract) <= chars:
        return abstract
    return abstract[:chars].rsplit(" ", 1)[0] + " …"
