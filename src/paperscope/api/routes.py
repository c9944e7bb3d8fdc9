"""The JSON API: the same Library calls and replies as the command line (paperscope.responses)."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query
from fastapi.responses import StreamingResponse

from paperscope import responses
from paperscope.export import FORMATS
from paperscope.face.params import FiltersParam
from paperscope.face.shared import LibraryParam
from paperscope.index.lexical import MAX_QUERY_CHARS
from paperscope.library import MAX_LIKE_CHARS, MAX_RESULTS, MODES
from paperscope.library import ORDERS as SEARCH_ORDERS

router = APIRouter(prefix="/api")
MAX_PAGE = 500
MAX_OFFSET = 10_000_000  # far past any library, well inside SQLite's integers
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


@router.get(
    "/papers",
    summary="All papers, paged and sorted, with the search filters",
    responses=links_to_papers("/papers/0/id"),
)
def list_papers(
    library: LibraryParam,
    chosen: FiltersParam,
    order: Annotated[str, Query(pattern="^(id|venue|year|title)$")] = "id",
    offset: Annotated[int, Query(ge=0, le=MAX_OFFSET)] = 0,
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = 50,
) -> dict[str, Any]:
    return responses.papers_reply(library.papers(order, limit, offset, chosen), library.count(chosen), offset, limit)


@router.get("/papers/{paper_id}", summary="One paper, in the data contract", operation_id="getPaper")
def get_paper(library: LibraryParam, paper_id: str) -> dict[str, Any]:
    return responses.paper_reply(library.paper(paper_id))


@router.get(
    "/papers/{paper_id}/related", summary="The papers most like this one, with the reason", operation_id="getRelated"
)
def related(library: LibraryParam, paper_id: str, limit: Annotated[int, Query(ge=1, le=50)] = 10) -> dict[str, Any]:
    return responses.related_reply(paper_id, library.related(paper_id, limit))


@router.get(
    "/search",
    summary="Search by words and meaning (hybrid), or one of them",
    responses=links_to_papers("/results/0/id"),
)
def search(
    library: LibraryParam,
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
    found = library.search_page(q, limit, offset, chosen, mode, order, facets)
    searched_as = library.searched_as(q, mode)
    return responses.search_reply(q, mode, searched_as, found, order=order, offset=offset, limit=limit, facets=facets)


@router.get("/like", summary="Papers nearest in meaning to a pasted text (an abstract); its words are no query")
def like(
    library: LibraryParam,
    chosen: FiltersParam,
    text: Annotated[str, Query(min_length=1, max_length=MAX_LIKE_CHARS, description="An abstract or a paragraph.")],
    limit: Annotated[int, Query(ge=1, le=MAX_RESULTS)] = 10,
    offset: Annotated[int, Query(ge=0, le=MAX_RESULTS)] = 0,
) -> dict[str, Any]:
    return responses.like_reply(library.like(text, limit, chosen, offset=offset), offset, limit)


@router.get("/stats", summary="Papers per venue and year, contribution, topic; top benchmarks and models; claims")
def stats(library: LibraryParam) -> dict[str, Any]:
    return responses.stats_reply(library.stats())


@router.get("/benchmarks", summary="One entry per benchmark: name, papers, the variants as written, claims on it")
def benchmarks(library: LibraryParam) -> dict[str, Any]:
    return responses.benchmarks_reply(library.stats())


@router.get(
    "/benchmarks/{name}",
    summary="One benchmark, however written: variants and the claims on it, each "
    "with its sentence; 404 names close benchmarks when none matches",
)
def benchmark(library: LibraryParam, name: Annotated[str, Path(max_length=200)]) -> dict[str, Any]:
    return responses.benchmark_reply(library.benchmark(name))


@router.get("/topics", summary="The topics: id, label, keywords, size, the papers nearest the centre")
def topics(library: LibraryParam) -> dict[str, Any]:
    return responses.topics_reply(library, library.topics())


@router.get("/map", summary="Every paper's place on the map: id, display title, topic, x and y in [0, 1]")
def map_points(library: LibraryParam, chosen: FiltersParam) -> dict[str, Any]:
    return responses.map_reply(library.map_points(chosen))


@router.get(
    "/export",
    summary="Export papers (all, those the filters let through, the ids given, or a search's results) in a format",
    response_class=StreamingResponse,
    responses={200: {"content": {f.media_type: {"schema": {}} for f in FORMATS.values()}}},
)
def export(
    library: LibraryParam,
    chosen: FiltersParam,
    format: Annotated[str, Query(pattern=f"^({'|'.join(FORMATS)})$")] = "jsonl",
    ids: Annotated[list[str] | None, Query(max_length=MAX_PAGE)] = None,
    q: Annotated[str, Query(max_length=MAX_QUERY_CHARS)] = "",
    mode: Annotated[str, Query(pattern=f"^({'|'.join(MODES)})$")] = "hybrid",
) -> StreamingResponse:
    if q.strip():  # the search page's results, all of them, as `paperscope export --query` gives them
        ids = [hit.paper.id for hit in library.search(q, MAX_RESULTS, chosen, mode=mode)]
    elif not ids:
        ids = None  # every paper the filters let through
    # Written first to a spooled file (memory up to 8 MB, then disk), then streamed: the response
    # never holds a large library in memory, and an unknown id is a 404 before anything is sent.
    spool = tempfile.SpooledTemporaryFile(max_size=8 * 2**20, mode="w+", encoding="utf-8", newline="")  # noqa: SIM115 (closed by chunks())
    library.export(format, spool, ids, chosen)
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
