"""Each command's --json and its API route, over the same library, give the same reply."""

from __future__ import annotations

import gzip
import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from paperscope.app import create_app
from paperscope.library import Library
from paperscope.personal import Personal

from .conftest import CORPUS, run_cli

VSD, AURORA = "lb4pvidcied2", "etoxgtwakr3b"  # two decoding papers of the seeds

# (command line after --db, API path and parameters): each pair asks the same question.
PAIRS = {
    "papers": (["papers", "--limit", "20", "--offset", "5"], "/api/papers", {"limit": 20, "offset": 5}),
    "paper": (["show", VSD], f"/api/papers/{VSD}", {}),
    "search": (["search", "decoding", "--limit", "5"], "/api/search", {"q": "decoding", "limit": 5}),
    "related": (["related", VSD], f"/api/papers/{VSD}/related", {}),
    "topics": (["topics"], "/api/topics", {}),
    "stats": (["stats"], "/api/stats", {}),
    "list": (["list"], "/api/list", {}),
    "tags": (["tags"], "/api/tags", {}),
    "news": (["news", "--peek"], "/api/news", {}),
    "changes": (["changes"], "/api/changes", {}),
    "recommend": (["recommend", "--tag", "decoding", "--limit=5"], "/api/recommend", {"tag": "decoding", "limit": 5}),
}


@pytest.fixture(scope="module")
def library_db(seeded_db: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The seeds with a reader's tags and reading list, and a saved search with news: three papers
    of a later ingest that it finds."""
    folder = tmp_path_factory.mktemp("contract")
    db = folder / "contract.db"
    shutil.copy(seeded_db, db)
    later = json.loads(gzip.decompress((CORPUS / "uai2019.json.gz").read_bytes()))[:3]
    listing = folder / "uai2019.json"
    listing.write_text(json.dumps(later), encoding="utf-8")
    with Library(db) as library:
        mine = Personal(library)
        mine.tag(VSD, "decoding")
        mine.tag(AURORA, "decoding")
        mine.set_state(VSD, "to read")
        mine.save_search("later", later[0]["title"], "lexical")
        library.ingest([listing])
    return db


@pytest.fixture(scope="module")
def api(library_db: Path) -> Iterator[TestClient]:
    with TestClient(create_app(library_db)) as client:
        yield client


def shape(value: Any) -> Any:
    """The keys (recursively) and types of a JSON value; a list's shape is that of its items."""
    if isinstance(value, dict):
        return {key: shape(item) for key, item in value.items()}
    if isinstance(value, list):
        return [shape(item) for item in value[:1]]
    return type(value).__name__


@pytest.mark.parametrize("reply", PAIRS)
def test_a_command_and_its_route_give_the_same_reply(reply: str, library_db: Path, api: TestClient) -> None:
    command, path, params = PAIRS[reply]
    run = run_cli("--db", library_db, *command, "--json")
    assert run.code == 0, run.err
    printed = json.loads(run.out)
    response = api.get(path, params=params)
    assert response.status_code == 200, response.text
    answered = response.json()
    assert shape(printed) == shape(answered)
    assert printed == answered


def test_the_replies_compared_are_not_empty(api: TestClient) -> None:
    """So that the comparisons above compare something: every listing has rows."""
    news = api.get("/api/news").json()["news"]["later"]
    assert news and all(hit["venue"] == "UAI" and hit["year"] == 2019 for hit in news)
    assert {p["id"] for p in api.get("/api/list").json()["papers"]} == {VSD}
    assert api.get("/api/list").json()["papers"][0]["tags"] == ["decoding"]
    assert all(t["papers"] for t in api.get("/api/topics").json()["topics"])
    assert len(api.get("/api/recommend", params={"tag": "decoding", "limit": 5}).json()["suggestions"]) == 5
    assert {c["kind"] for c in api.get("/api/changes").json()["changes"]} == {"added"}
