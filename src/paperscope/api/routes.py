"""The JSON API: the same Library calls and result shapes as the command line (paperscope.results)."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from dataclasses import asdict
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query, Request
from fastapi.responses import StreamingResponse

from paperscope.export import FORMATS
from paperscope.index.lexical import MAX_QUERY_CHARS, Filters
from paperscope.library import MAX_LIKE_CHARS, MAX_RESULTS, MODES
from paperscope.library import ORDERS as SEARCH_ORDERS
from paperscope.model import CONTRIBUTIONS
from paperscope.results import benchmark_dict, benchmarks_list, paper_summary, related_paper, search_hit, stats_dict

router = APIRouter(prefix="/api")
MAX_PAGE = 500
MAX_OFFSET = 10_000_000  # far past any library, well inside SQLite's integers
MAX_TOPIC = 10_000
YEARS = r"^\s*\d{4}(\.\.\d{4})?\s*$"
ORDERS = ("id", "venue", "year", "title")
# Where a listing's paper ids lead (OpenAPI links: schemathesis follows them in its stateful phase).
PAPER_OPERATIONS = ("getPaper", "getRelated", "getMine", "addTag", "setState", "setNote")


def links_to_papers(pointer: str) -> dict[int | str, dict[str, Any]]:
    """A 200 response whose body has a paper id at the JSON pointer `pointer`, linked to the operations on
    that paper."""
    return {
        200: {
            "links": {
                name: {"operationId": name, "parameters": {"paper_id": f"$response.body#{pointer}"}}
                for name in PAPER_OPERATIONS
            }
        }
    }


def filters(
    venue: Annotated[str | None, Query(max_length=200, description="Only this venue.")] = None,
    year: Annotated[
        str | None, Query(max_length=20, pattern=YEARS, description="A year or a range, 2024..2026.")
    ] = None,
    contribution: Annotated[
        str | None, Query(pattern=f"^({'|'.join(CONTRIBUTIONS)})?$", description="method, benchmark, …")
    ] = None,
    has_code: Annotated[bool | None, Query(description="Only papers with (true) or without (false) code.")] = None,
    topic: Annotated[
        int | None, Query(ge=0, le=MAX_TOPIC, description="Only this topic (an id from /api/topics).")
    ] = None,
) -> Filters:
    return Filters.parse(venue, year, contribution, has_code, topic)


FiltersParam = Annotated[Filters, Depends(filters)]


@router.get(
    "/papers",
    summary="All papers, paged and sorted, with the search filters",
    responses=links_to_papers("/papers/0/id"),
)
def list_papers(
    request: Request,
    chosen: FiltersParam,
    order: Annotated[str, Query(pattern="^(id|venue|year|title)$")] = "id",
    offset: Annotated[int, Query(ge=0, le=MAX_OFFSET)] = 0,
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = 50,
) -> dict[str, Any]:
    with request.app.state.shared.use() as library:
        total = library.count(chosen)
        rows = [paper_summary(p) for p in library.papers(order, limit, offset, chosen)]
    return {"total": total, "offset": offset, "limit": limit, "papers": rows}


@router.get("/papers/{paper_id}", summary="One paper, in the data contract", operation_id="getPaper")
def get_paper(request: Request, paper_id: str) -> dict[str, Any]:
    with request.app.state.shared.use() as library:
        return library.paper(paper_id).to_dict()


@router.get(
    "/papers/{paper_id}/related", summary="The papers most like this one, with the reason", operation_id="getRelated"
)
def related(request: Request, paper_id: str, limit: Annotated[int, Query(ge=1, le=50)] = 10) -> dict[str, Any]:
    with request.app.state.shared.use() as library:
        return {"id": paper_id, "related": [related_paper(r) for r in library.related(paper_id, limit)]}


@router.get(
    "/search",
    summary="Search by words and meaning (hybrid), or one of them",
    responses=links_to_papers("/results/0/id"),
)
def search(
    request: Request,
    chosen: FiltersParam,
    q: Annotated[str, Query(max_length=MAX_QUERY_CHARS, description="Any text; see docs/cli.md#search.")],
    mode: Annotated[str, Query(pattern=f"^({'|'.join(MODES)})$")] = "hybrid",
    limit: Annotated[int, Query(ge=1, le=MAX_RESULTS)] = 10,
    offset: Annotated[int, Query(ge=0, le=MAX_RESULTS, description="Skip this many results (a later page).")] = 0,
    order: Annotated[
        str,
        Query(pattern=f"^({'|'.join(SEARCH_ORDERS)})$", description="relevance, year (newest first), venue or name."),
    ] = "relevance",
    facets: Annotated[
        bool,
        Query(
            description="Also count the whole result set per venue, year, contribution, "
            "code, topic (without the filters chosen)."
        ),
    ] = False,
) -> dict[str, Any]:
    with request.app.state.shared.use() as library:
        found = library.search_page(q, limit, offset, chosen, mode, order)
        searched_as = library.searched_as(q, mode)
    answer = {
        "query": q,
        "mode": mode,
        "searched_as": searched_as,
        "order": order,
        "total": found.total,
        "offset": offset,
        "limit": limit,
        "results": [search_hit(h, q) for h in found.hits],
    }
    if facets:
        answer["facets"] = {key: [{"value": v, "papers": n} for v, n in rows] for key, rows in found.facets.items()}
    return answer


@router.get("/like", summary="Papers nearest in meaning to a pasted text (an abstract); its words are no query")
def like(
    request: Request,
    chosen: FiltersParam,
    text: Annotated[str, Query(min_length=1, max_length=MAX_LIKE_CHARS, description="An abstract or a paragraph.")],
    limit: Annotated[int, Query(ge=1, le=MAX_RESULTS)] = 10,
    offset: Annotated[int, Query(ge=0, le=MAX_RESULTS)] = 0,
) -> dict[str, Any]:
    with request.app.state.shared.use() as library:
        hits = library.like(text, limit, chosen, offset=offset)
    return {"offset": offset, "limit": limit, "results": [search_hit(h) for h in hits]}


@router.get("/stats", summary="Papers per venue and year, contribution, topic; top benchmarks and models; claims")
def stats(request: Request) -> dict[str, Any]:
    with request.app.state.shared.use() as library:
        return stats_dict(library.stats())


@router.get("/benchmarks", summary="One entry per benchmark: name, papers, the variants as written, claims on it")
def benchmarks(request: Request) -> dict[str, Any]:
    with request.app.state.shared.use() as library:
        return benchmarks_list(library.stats())


@router.get(
    "/benchmarks/{name}",
    summary="One benchmark, however written: variants and the claims on it, each "
    "with its sentence; 404 names close benchmarks when none matches",
)
def benchmark(request: Request, name: Annotated[str, Path(max_length=200)]) -> dict[str, Any]:
    with request.app.state.shared.use() as library:
        return benchmark_dict(library.benchmark(name))


@router.get("/topics", summary="The topics: id, label, keywords, size")
def topics(request: Request) -> dict[str, Any]:
    with request.app.state.shared.use() as library:
        return {"topics": [asdict(t) for t in library.topics()]}


@router.get("/map", summary="Every paper's place on the map: id, display title, topic, x and y in [0, 1]")
def map_points(request: Request, chosen: FiltersParam) -> dict[str, Any]:
    with request.app.state.shared.use() as library:
        points = library.map_points(chosen)
    return {
        "points": [
            {"id": i, "display_title": t, "topic": c, "x": round(x, 4), "y": round(y, 4)} for i, t, c, x, y in points
        ]
    }


@router.get(
    "/export",
    summary="Export papers (all, or the ids given) in one of the export formats",
    response_class=StreamingResponse,
    responses={200: {"content": {f.media_type: {"schema": {}} for f in FORMATS.values()}}},
)
def export(
    request: Request,
    format: Annotated[str, Query(pattern=f"^({'|'.join(FORMATS)})$")] = "jsonl",
    ids: Annotated[list[str] | None, Query(max_length=MAX_PAGE)] = None,
) -> StreamingResponse:
    # Written first to a spooled file (memory up to 8 MB, then disk), then streamed: the response
    # never holds a large library in memory, and an unknown id is a 404 before anything is sent.
    spool = tempfile.SpooledTemporaryFile(max_size=8 * 2**20, mode="w+", encoding="utf-8", newline="")  # noqa: SIM115 (closed by chunks())
    with request.app.state.shared.use() as library:
        library.export(format, spool, ids or None)
    spool.seek(0)

    def chunks() -> Iterator[str]:
        with spool:
            yield from iter(lambda: spool.read(2**16), "")

    chosen = FORMATS[format]
    return StreamingResponse(
        chunks(),
        media_type=chosen.media_type,
        headers={"Content-Disposition": f'attachment; filename="papers.{chosen.extension}"'},
    )
