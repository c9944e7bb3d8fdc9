"""The reader's own library over HTTP: tags, reading list, notes, recommendations, saved searches,
news and changes. Every request that changes data passes `writer` (token and cross-site checks)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Path, Query, Request

from paperscope import responses
from paperscope.face.security import writer
from paperscope.face.shared import PersonalParam
from paperscope.index.lexical import MAX_QUERY_CHARS
from paperscope.library import MODES
from paperscope.personal import MAX_NOTE, MAX_TAG, STATES

router = APIRouter(prefix="/api")
TAG = r"[^\s,;]"  # a tag needs one character that is not a space, comma or semicolon (personal.clean_tag)
Writer = Annotated[None, Depends(writer)]


@router.get(
    "/papers/{paper_id}/mine", summary="The reader's tags, reading state and note on a paper", operation_id="getMine"
)
def get_mine(personal: PersonalParam, paper_id: str) -> dict[str, Any]:
    return responses.mine_reply(personal, personal.library.paper(paper_id).id)


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
    _: Writer,
    personal: PersonalParam,
    paper_id: str,
    tag: Annotated[str, Body(embed=True, max_length=MAX_TAG, pattern=TAG)],
) -> dict[str, Any]:
    return responses.mine_reply(personal, personal.tag(paper_id, tag).id)


@router.delete("/papers/{paper_id}/tags/{tag}", summary="Take a tag off a paper", operation_id="removeTag")
def remove_tag(
    _: Writer, personal: PersonalParam, paper_id: str, tag: Annotated[str, Path(pattern=TAG)]
) -> dict[str, Any]:
    return responses.mine_reply(personal, personal.tag(paper_id, tag, on=False).id)


@router.put(
    "/papers/{paper_id}/state",
    summary="Set a paper's reading state (null: off the reading list)",
    operation_id="setState",
)
def set_state(
    _: Writer,
    personal: PersonalParam,
    paper_id: str,
    state: Annotated[str | None, Body(embed=True, pattern=f"^({'|'.join(STATES)})$")] = None,
) -> dict[str, Any]:
    return responses.mine_reply(personal, personal.set_state(paper_id, state).id)


@router.put(
    "/papers/{paper_id}/note", summary="Write a paper's note (markdown; empty deletes it)", operation_id="setNote"
)
def set_note(
    _: Writer, personal: PersonalParam, paper_id: str, text: Annotated[str, Body(embed=True, max_length=MAX_NOTE)]
) -> dict[str, Any]:
    return responses.mine_reply(personal, personal.set_note(paper_id, text).id)


@router.put("/papers/{paper_id}/not-relevant", summary="Mark a paper not relevant: never suggested, a negative example")
def mark_not_relevant(_: Writer, personal: PersonalParam, paper_id: str) -> dict[str, Any]:
    return responses.mine_reply(personal, personal.mark_not_relevant(paper_id).id)


@router.delete("/papers/{paper_id}/not-relevant", summary="Take the not-relevant mark off a paper")
def unmark_not_relevant(_: Writer, personal: PersonalParam, paper_id: str) -> dict[str, Any]:
    return responses.mine_reply(personal, personal.mark_not_relevant(paper_id, on=False).id)


@router.get("/tags", summary="Every tag and how many papers carry it")
def tags(personal: PersonalParam) -> dict[str, Any]:
    return responses.tags_reply(personal.tags())


@router.get("/list", summary="The reading list, or the papers with a tag")
def listed(
    personal: PersonalParam,
    tag: Annotated[str | None, Query(max_length=MAX_TAG, pattern=TAG)] = None,
    state: Annotated[str | None, Query(pattern=f"^({'|'.join(STATES)})$")] = None,
) -> dict[str, Any]:
    return responses.list_reply(personal, personal.listed(tag, state))


@router.get(
    "/recommend",
    summary="Papers like those with a tag (or on the reading list), unlike those marked not relevant, with the reason",
)
def recommend(
    personal: PersonalParam,
    tag: Annotated[str | None, Query(max_length=MAX_TAG, pattern=TAG)] = None,
    limit: Annotated[int, Query(ge=1, le=200)] = 20,
) -> dict[str, Any]:
    return responses.recommend_reply(tag, personal.recommend(tag, limit))


@router.get("/searches", summary="The saved searches")
def searches(personal: PersonalParam) -> dict[str, Any]:
    return responses.searches_reply(personal.saved_searches())


@router.post("/searches", summary="Save a search, for news after later ingests")
def save_search(
    _: Writer,
    personal: PersonalParam,
    name: Annotated[str, Body(max_length=100, pattern=r"\S")],
    q: Annotated[str, Body(max_length=MAX_QUERY_CHARS)],
    mode: Annotated[str, Body(pattern=f"^({'|'.join(MODES)})$")] = "hybrid",
) -> dict[str, Any]:
    personal.save_search(name, q, mode)
    return responses.saved_reply(name)


@router.get("/news", summary="For each saved search, the papers added since it was last looked at")
def news(request: Request, personal: PersonalParam, peek: bool = True) -> dict[str, Any]:
    if not peek:
        writer(request)  # marking news as seen changes data
    return responses.news_reply(personal.news(mark_seen=not peek))


@router.get("/changes", summary="What the last ingest (or every ingest since a time) changed")
def changes(personal: PersonalParam, since: Annotated[str | None, Query(max_length=40)] = None) -> dict[str, Any]:
    return responses.changes_reply(personal.changes(since))
