"""Paging through the OpenReview API v2 (/notes) and the arXiv API (/api/query), one saved file per
page. A page already in the folder is not fetched again, so an interrupted fetch resumes."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from paperscope.atomic import replacing
from paperscope.errors import PaperscopeError
from paperscope.fetch.client import Client
from paperscope.progress import Progress

OPENREVIEW = os.environ.get("PAPERSCOPE_OPENREVIEW_URL", "https://api2.openreview.net")
ARXIV = os.environ.get("PAPERSCOPE_ARXIV_URL", "https://export.arxiv.org")
OPENREVIEW_PAGE = 1_000  # the API's largest page
ARXIV_PAGE = 100
ARXIV_PAUSE = 3.0  # arXiv's API terms: no more than one request every three seconds
MAX_RESULTS = 100_000


@dataclass
class Fetched:
    pages: list[Path] = field(default_factory=list)
    records: int = 0
    fetched: int = 0  # pages fetched now (the rest were in the folder already)
    retries: int = 0


def openreview(
    venue: str,
    folder: Path,
    accepted: bool = False,
    since: int | None = None,
    progress: Progress | None = None,
    client: Client | None = None,
) -> Fetched:
    """Every submission of a venue (e.g. ICLR.cc/2025/Conference); `accepted` keeps only papers whose
    venueid is the venue's; `since` (epoch ms) only those created after."""
    if not re.fullmatch(r"[\w.\-]+(/[\w.\-]+)+", venue):
        raise PaperscopeError(f"not an OpenReview venue id: {venue!r} (like ICLR.cc/2025/Conference)")
    params: dict[str, str | int] = {"invitation": f"{venue}/-/Submission"}
    if accepted:
        params["content.venueid"] = venue
    if since:
        params["mintcdate"] = since

    def count(body: bytes) -> tuple[int, int | None]:
        data = json.loads(body)
        return len(data.get("notes", [])), data.get("count")

    return _pages(
        f"{OPENREVIEW}/notes",
        params,
        ("offset", "limit"),
        OPENREVIEW_PAGE,
        "json",
        count,
        folder,
        progress,
        client or Client(),
    )


def arxiv(
    query: str, folder: Path, most: int = 500, progress: Progress | None = None, client: Client | None = None
) -> Fetched:
    """The results of an arXiv API search (e.g. "cat:cs.LG AND ti:diffusion"), up to `most`."""
    params: dict[str, str | int] = {"search_query": query, "sortBy": "submittedDate", "sortOrder": "descending"}

    def count(body: bytes) -> tuple[int, int | None]:
        entries = body.count(b"<entry>") + body.count(b"<entry ")
        total = re.search(rb"<opensearch:totalResults[^>]*>(\d+)<", body)
        return entries, min(most, int(total.group(1))) if total else None

    return _pages(
        f"{ARXIV}/api/query",
        params,
        ("start", "max_results"),
        ARXIV_PAGE,
        "xml",
        count,
        folder,
        progress,
        client or Client(pause=ARXIV_PAUSE),
        most,
    )


def _pages(
    url: str,
    params: dict[str, str | int],
    names: tuple[str, str],
    size: int,
    suffix: str,
    count: Callable[[bytes], tuple[int, int | None]],
    folder: Path,
    progress: Progress | None,
    client: Client,
    most: int = MAX_RESULTS,
) -> Fetched:
    """Page by page until the API has no more (or `most`); a page's offset is what came before it,
    since an API may return fewer than were asked for."""
    folder.mkdir(parents=True, exist_ok=True)
    result = Fetched()
    total: int | None = None
    try:
        for number in range(most):
            page = folder / f"page-{number:05d}.{suffix}"
            if page.exists():
                body = page.read_bytes()
            else:
                offset_name, size_name = names
                body = client.get(
                    url, {**params, offset_name: result.records, size_name: min(size, most - result.records)}
                )
                with replacing(page) as partial:  # a page is in the folder whole or not at all
                    partial.write_bytes(body)
                result.fetched += 1
            found, reported = count(body)
            total = reported if reported is not None else total
            if found == 0:
                page.unlink()  # an empty page ends the list; keep none of it
                break
            result.pages.append(page)
            result.records += found
            if progress:
                progress("fetched", result.records, total or result.records)
            if result.records >= min(most, total if total is not None else most) or (total is None and found < size):
                break
    finally:
        result.retries = client.retries
        client.close()
    return result
