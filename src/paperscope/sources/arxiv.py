"""arXiv feeds: the API's Atom output (current and legacy) and the RSS listing, parsed by feedparser.

Versions of one paper (2202.12139v1, v2) carry the same arXiv id without the version, which is the
record's external id, so they become one paper.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from paperscope.errors import InputError
from paperscope.model import RawRecord, Source
from paperscope.sources.files import read_bytes
from paperscope.sources.format import InputFormat

NAME = "arxiv"
_ID = re.compile(r"(?:arxiv\.org/abs/|oai:arXiv\.org:)(?P<id>[\w.\-/]+?)(?:v\d+)?$", re.IGNORECASE)


def sniff(name: str, head: bytes) -> bool:
    text = head[:4096].decode("utf-8", errors="ignore").lower()
    return ("<feed" in text or "<rss" in text or "<rdf:rdf" in text) and "arxiv" in text


def read(path: Path) -> Iterator[RawRecord]:
    import feedparser  # here: its import would hold up every command's start, most of which read no feed

    try:
        feed = feedparser.parse(read_bytes(path))
    except Exception as error:
        raise InputError(path.name, None, f"not a readable feed: {error.__class__.__name__}") from None
    if feed.bozo and not feed.entries:
        raise InputError(
            path.name,
            getattr(feed.bozo_exception, "getLineNumber", lambda: None)(),
            f"not a readable feed: {feed.bozo_exception}",
        )
    listing = feed.feed.get("title")
    for number, entry in enumerate(feed.entries, start=1):
        match = _ID.search(entry.get("id", "") or entry.get("link", ""))
        arxiv_id = match.group("id") if match else None
        published = entry.get("published_parsed") or entry.get("updated_parsed")
        urls = {"site": f"https://arxiv.org/abs/{arxiv_id}"} if arxiv_id else {}
        for link in entry.get("links", []):
            href = link.get("href")
            if href and (link.get("title") == "pdf" or link.get("type") == "application/pdf"):
                urls["pdf"] = href
            elif href and link.get("title") == "doi":
                urls["doi"] = href
        yield RawRecord(
            source=Source(path.name, number, listing, NAME, f"arXiv:{arxiv_id}" if arxiv_id else None),
            title=_one_line(entry.get("title")),
            abstract=_abstract(entry.get("summary")),
            authors=[a.get("name", "").strip() for a in entry.get("authors", []) if a.get("name")]
            or [a.strip() for a in (entry.get("author") or "").split(",") if a.strip()],
            venue="arXiv",
            year=published.tm_year if published else None,
            keywords=[t["term"] for t in entry.get("tags", []) if t.get("term")],
            urls=urls,
        )


def _one_line(text: str | None) -> str | None:
    return " ".join(text.split()) if text else None


def _abstract(text: str | None) -> str | None:
    """The RSS listing puts "arXiv:… Announce Type: new Abstract: …" before the abstract."""
    if not text:
        return None
    return _one_line(re.sub(r"^.*?\bAbstract:\s*", "", text, count=1, flags=re.DOTALL))


FORMAT = InputFormat(NAME, sniff, read)
