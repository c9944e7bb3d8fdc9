"""The reader's own library: reading list, tags, notes, saved searches and what is new for them,
changes between ingests, and recommendations. Stored in the same library as the papers, keyed by
the stable paper ids, so all of it survives re-ingesting the lists; each reader has their own."""

from __future__ import annotations

import re
from dataclasses import dataclass

import orjson

from paperscope.analyze.recommend import recommend
from paperscope.errors import PaperscopeError
from paperscope.index import lexical
from paperscope.index.semantic import text_of
from paperscope.library import MODES, Library, NotFound, SearchHit
from paperscope.model import Paper
from paperscope.store import DEFAULT_READER

STATES = ("to read", "reading", "read")
NOT_RELEVANT = "not relevant"  # the tag that marks what the reader does not want suggested
MAX_TAG = 60
MAX_NOTE = 20_000
_TAG = re.compile(r"[^\s,;][^,;]*")


@dataclass
class Suggestion:
    paper: Paper
    score: float
    because: Paper  # the liked paper it is nearest to
    similarity: float
    shared_phrases: list[str]

    @property
    def reason(self) -> str:
        shared = f"; both about {', '.join(self.shared_phrases)}" if self.shared_phrases else ""
        return f"near {self.because.display_title} ({self.similarity:.2f}){shared}"


@dataclass
class Change:
    at: str
    paper_id: str
    kind: str  # added, changed, removed
    detail: str


class Personal:
    def __init__(self, library: Library, reader: str = DEFAULT_READER) -> None:
        self.library = library
        self.store = library.store
        self.reader = reader  # whose tags, states, notes and saved searches these are

    def tag(self, paper_id: str, tag: str, on: bool = True) -> Paper:
        paper = self.library.paper(paper_id)
        with self.store.transaction():
            self.store.tag(self.reader, paper.id, clean_tag(tag), on)
        return paper

    def tags(self, paper_id: str | None = None) -> list[tuple[str, int]]:
        return self.store.tags(self.reader, paper_id)

    def set_state(self, paper_id: str, state: str | None) -> Paper:
        if state is not None and state not in STATES:
            raise PaperscopeError(f"unknown reading state {state!r}; one of {', '.join(STATES)}")
        paper = self.library.paper(paper_id)
        with self.store.transaction():
            self.store.set_state(self.reader, paper.id, state)
        return paper

    def state(self, paper_id: str) -> str | None:
        return self.store.state(self.reader, paper_id)

    def set_note(self, paper_id: str, text: str) -> Paper:
        if len(text) > MAX_NOTE:
            raise PaperscopeError(f"a note is at most {MAX_NOTE:,} characters")
        paper = self.library.paper(paper_id)
        with self.store.transaction():
            self.store.set_note(self.reader, paper.id, text)
        return paper

    def note(self, paper_id: str) -> str | None:
        return self.store.note(self.reader, paper_id)

    def listed(self, tag: str | None = None, state: str | None = None) -> list[Paper]:
        if state is not None and state not in STATES:
            raise PaperscopeError(f"unknown reading state {state!r}; one of {', '.join(STATES)}")
        return [self.library.paper(pid) for pid in self.store.listed(self.reader, tag and clean_tag(tag), state)]

    def mark_not_relevant(self, paper_id: str, on: bool = True) -> Paper:
        """Mark a paper not relevant (or take the mark off): never suggested, and a negative example."""
        return self.tag(paper_id, NOT_RELEVANT, on)

    def recommend(self, tag: str | None = None, limit: int = 20) -> list[Suggestion]:
        """Papers like those with `tag` (or on the reading list) and unlike those marked not relevant,
        best first, each with its reason; never one the reader has already listed or tagged."""
        if tag is not None and clean_tag(tag) == NOT_RELEVANT:
            raise PaperscopeError(f"{NOT_RELEVANT!r} marks what not to suggest; recommend from another tag")
        liked = self.store.listed(self.reader, tag and clean_tag(tag), None)
        if not liked:
            raise NotFound(f"no paper is tagged {tag!r}" if tag else "the reading list is empty")
        disliked = self.store.listed(self.reader, NOT_RELEVANT, None)
        found = recommend(
            self.library.vectors(), liked, limit, exclude=self._kept(), texts=self._texts, disliked=disliked
        )
        suggestions = []
        for item in found:
            paper, because = self.library.paper(item.paper_id), self.library.paper(item.nearest)
            shared = self.library.shared_phrases(paper, because)
            suggestions.append(Suggestion(paper, item.score, because, item.similarity, shared))
        return suggestions

    def _kept(self) -> set[str]:
        """The papers the reader has already, never suggested: on the reading list (to read, reading or
        read) or tagged with any tag."""
        kept = set(self.store.listed(self.reader))
        for tag, _ in self.store.tags(self.reader):
            kept.update(self.store.listed(self.reader, tag))
        return kept

    def _texts(self, paper_ids: list[str]) -> list[str]:
        return [text_of(self.library.paper(pid)) for pid in paper_ids]

    def save_search(self, name: str, query: str, mode: str = "hybrid", filters: lexical.Filters | None = None) -> None:
        if mode not in MODES:
            raise PaperscopeError(f"unknown search mode {mode!r}; one of {', '.join(MODES)}")
        if not name.strip():
            raise PaperscopeError("a saved search needs a name")
        stored = orjson.dumps((filters or lexical.Filters()).__dict__).decode()
        with self.store.transaction():
            self.store.save_search(self.reader, name.strip(), query, mode, stored)

    def saved_searches(self) -> list[tuple[str, str, str]]:
        return [(name, query, mode) for name, query, mode, _, _ in self.store.saved_searches(self.reader)]

    def news(self, mark_seen: bool = True, limit: int = 100) -> dict[str, list[SearchHit]]:
        """For each saved search, its results among the papers added since it was last looked at."""
        found: dict[str, list[SearchHit]] = {}
        for name, query, mode, filters, last_seen in self.store.saved_searches(self.reader):
            fresh = self.store.added_since(last_seen)
            stored = orjson.loads(filters)
            chosen = lexical.Filters(**{**stored, "years": tuple(stored["years"]) if stored.get("years") else None})
            hits = self.library.search(query, 1_000, chosen, mode=mode) if fresh else []
            found[name] = [hit for hit in hits if hit.paper.id in fresh][:limit]
            if mark_seen:
                with self.store.transaction():
                    self.store.seen(self.reader, name)
        return found

    def changes(self, since: str | None = None) -> list[Change]:
        return [Change(*row) for row in self.store.changes(since)]


def clean_tag(tag: str) -> str:
    match = _TAG.search(tag.strip())
    if not match or len(match.group().strip()) > MAX_TAG:
        raise PaperscopeError(f"a tag is 1–{MAX_TAG} characters without commas or semicolons, not {tag!r}")
    return match.group().strip()
