"""The reader's own library over HTTP: tags, reading list, notes, recommendations, saved searches,
news and changes. Every request that changes data passes `writer` (token and cross-site checks)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Path, Query, Request

from paperscope.api.security import reader, writer
from paperscope.index.lexical import MAX_QUERY_CHARS
from paperscope.library import MODES
from paperscope.normalize.html import note_to_html
from paperscope.personal import MAX_NOTE, MAX_TAG, STATES, Personal
from paperscope.results import paper_summary, search_hit

router = APIRouter(prefix="/api")
TAG = r"[^\s,;]"  # a tag needs one character that is not a space, comma or semicolon (personal.clean_tag)
Writer = Annotated[None, Depends(writer)]


def mine(personal: Personal, paper_id: str) -> dict[str, Any]:
    """What the reader added to one paper."""
    note = personal.note(paper_id)
    return {
        "id": paper_id,
        "tags": [t for t, _ in personal.tags(paper_id)],
        "state": personal.state(paper_id),
        "note": note,
        "note_html": note_to_html(note) if note else None,
    }


@router.get(
    "/papers/{paper_id}/mine", summary="The reader's tags, reading state and note on a paper", operation_id="getMine"
)
def get_mine(request: Request, paper_id: str) -> dict[str, Any]:
    with request.app.state.shared.use() as library:
        return mine(Personal(library, reader(request)), library.paper(paper_id).id)


@router.post(
    "/papers/{paper_id}/tags",
    summary="Tag a paper",
    operation_id="addTag",
    responses={
        200: {
            "links": {
                "removeTag": {
                    "operationId": "removeTag",
                    "parameters": {"paper_id": "$request.path.paper_id", "tag": "$request.body#/tag"},
                }
            }
        }
    },
)
def add_tag(
    request: Request, paper_id: str, _: Writer, tag: Annotated[str, Body(embed=True, max_length=MAX_TAG, pattern=TAG)]
) -> dict[str, Any]:
    with request.app.state.shared.use() as library:
        personal = Personal(library, reader(request))
        return mine(personal, personal.tag(paper_id, tag).id)


@router.delete("/papers/{paper_id}/tags/{tag}", summary="Take a tag off a paper", operation_id="removeTag")
def remove_tag(request: Request, paper_id: str, tag: Annotated[str, Path(pattern=TAG)], _: Writer) -> dict[str, Any]:
    with request.app.state.shared.use() as library:
        personal = Personal(library, reader(request))
        return mine(personal, personal.tag(paper_id, tag, on=False).id)


@router.put(
    "/papers/{paper_id}/state",
    summary="Set a paper's reading state (null: off the reading list)",
    operation_id="setState",
)
def set_state(
    request: Request,
    paper_id: str,
    _: Writer,
    state: Annotated[str | None, Body(embed=True, pattern=f"^({'|'.join(STATES)})$")] = None,
) -> dict[str, Any]:
    with request.app.state.shared.use() as library:
        personal = Personal(library, reader(request))
        return mine(personal, personal.set_state(paper_id, state).id)


@router.put(
    "/papers/{paper_id}/note", summary="Write a paper's note (markdown; empty deletes it)", operation_id="setNote"
)
def set_note(
    request: Request, paper_id: str, _: Writer, text: Annotated[str, Body(embed=True, max_length=MAX_NOTE)]
) -> dict[str, Any]:
    with request.app.state.shared.use() as library:
        personal = Personal(library, reader(request))
        return mine(personal, personal.set_note(paper_id, text).id)


@router.put("/papers/{paper_id}/not-relevant", summary="Mark a paper not relevant: never suggested, a negative example")
def mark_not_relevant(request: Request, paper_id: str, _: Writer) -> dict[str, Any]:
    with request.app.state.shared.use() as library:
        personal = Personal(library, reader(request))
        return mine(personal, personal.mark_not_relevant(paper_id).id)


@router.delete("/papers/{paper_id}/not-relevant", summary="Take the not-relevant mark off a paper")
def unmark_not_relevant(request: Request, paper_id: str, _: Writer) -> dict[str, Any]:
    with request.app.state.shared.use() as library:
        personal = Personal(library, reader(request))
        return mine(personal, personal.mark_not_relevant(paper_id, on=False).id)


@router.get("/tags", summary="Every tag and how many papers carry it")
def tags(request: Request) -> dict[str, Any]:
    with request.app.state.shared.use() as library:
        return {"tags": [{"tag": t, "papers": n} for t, n in Personal(library, reader(request)).tags()]}


@router.get("/list", summary="The reading list, or the papers with a tag")
def listed(
    request: Request,
    tag: Annotated[str | None, Query(max_length=MAX_TAG, pattern=TAG)] = None,
    state: Annotated[str | None, Query(pattern=f"^({'|'.join(STATES)})$")] = None,
) -> dict[str, Any]:
    with request.app.state.shared.use() as library:
        personal = Personal(library, reader(request))
        return {"papers": [{**paper_summary(p), "state": personal.state(p.id)} for p in personal.listed(tag, state)]}


@router.get(
    "/recommend",
    summary="Papers like those with a tag (or on the reading list), unlike those marked not relevant, with the reason",
)
def recommend(
    request: Request,
    tag: Annotated[str | None, Query(max_length=MAX_TAG, pattern=TAG)] = None,
    limit: Annotated[int, Query(ge=1, le=200)] = 20,
) -> dict[str, Any]:
    with request.app.state.shared.use() as library:
        found = Personal(library, reader(request)).recommend(tag, limit)
    return {
        "tag": tag,
        "suggestions": [
            {**paper_summary(s.paper), "score": round(s.score, 4), "because": s.because.id, "reason": s.reason}
            for s in found
        ],
    }


@router.get("/searches", summary="The saved searches")
def searches(request: Request) -> dict[str, Any]:
    with request.app.state.shared.use() as library:
        return {
            "searches": [
                {"name": n, "q": q, "mode": m} for n, q, m in Personal(library, reader(request)).saved_searches()
            ]
        }


@router.post("/searches", summary="Save a search, for news after later ingests")
def save_search(
    request: Request,
    _: Writer,
    name: Annotated[str, Body(max_length=100, pattern=r"\S")],
    q: Annotated[str, Body(max_length=MAX_QUERY_CHARS)],
    mode: Annotated[str, Body(pattern=f"^({'|'.join(MODES)})$")] = "hybrid",
) -> dict[str, Any]:
    with request.app.state.shared.use() as library:
        Personal(library, reader(request)).save_search(name, q, mode)
    return {"saved": name}


@router.get("/news", summary="For each saved search, the papers added since it was last looked at")
def news(request: Request, peek: bool = True) -> dict[str, Any]:
    if not peek:
        writer(request)  # marking news as seen changes data
    with request.app.state.shared.use() as library:
        found = Personal(library, reader(request)).news(mark_seen=not peek)
    return {"news": {name: [search_hit(h) for h in hits] for name, hits in found.items()}}


@router.get("/changes", summary="What the last ingest (or every ingest since a time) changed")
def changes(request: Request, since: Annotated[str | None, Query(max_length=40)] = None) -> dict[str, Any]:
    with request.app.state.shared.use() as library:
        return {"changes": [c.__dict__ for c in Personal(library, reader(request)).changes(since)]}
