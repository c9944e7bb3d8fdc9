"""The JSON API over a real server process: shapes, statuses, limits."""

from __future__ import annotations

import csv
import io

import httpx


def test_search_returns_the_cli_result_shape(server):
    found = httpx.get(f"{server}/api/search", params={"q": "NEMO", "limit": 3}).json()
    assert found["mode"] == "hybrid" and found["results"][0]["name"] == "NEMO"
    assert {"rank", "id", "display_title", "score", "scores", "snippet", "snippet_html"} <= set(found["results"][0])
    chinese = httpx.get(f"{server}/api/search", params={"q": "蛋白质脂质结合预测", "mode": "semantic", "limit": 1}).json()
    assert chinese["results"][0]["name"] == "LipoPU"


def test_a_paper_is_the_data_contract_and_unknown_ids_are_404(server):
    some = httpx.get(f"{server}/api/papers", params={"limit": 1}).json()["papers"][0]
    paper = httpx.get(f"{server}/api/papers/{some['id']}").json()
    assert {"id", "title", "display_title", "abstract", "abstract_html", "sources", "urls", "claims"} <= set(paper)
    missing = httpx.get(f"{server}/api/papers/nosuchpaper")
    assert missing.status_code == 404 and missing.headers["content-type"] == "application/json"
    assert missing.json()["error"] == "no paper with id 'nosuchpaper'"


def test_bad_parameters_are_422_with_a_message(server):
    for params in ({"q": "x", "limit": 100_000}, {"q": "x", "mode": "fuzzy"}, {"q": "x" * 3000}, {"limit": 0}):
        response = httpx.get(f"{server}/api/search" if "q" in params else f"{server}/api/papers", params=params)
        assert response.status_code == 422, params
        assert response.json()["error"]
    bad_year = httpx.get(f"{server}/api/papers", params={"year": "last year"})
    assert bad_year.status_code == 400 and "year takes a year" in bad_year.json()["error"]


def test_papers_are_paged_and_filtered(server):
    first = httpx.get(f"{server}/api/papers", params={"limit": 10, "order": "title"}).json()
    second = httpx.get(f"{server}/api/papers", params={"limit": 10, "offset": 10, "order": "title"}).json()
    assert first["total"] == 56 and not {p["id"] for p in first["papers"]} & {p["id"] for p in second["papers"]}
    coded = httpx.get(f"{server}/api/papers", params={"has_code": "true", "limit": 500}).json()
    assert coded["total"] == len(coded["papers"]) > 0 and all(p["has_code"] for p in coded["papers"])


def test_related_stats_and_export(server):
    nemo = httpx.get(f"{server}/api/search", params={"q": "NEMO", "limit": 1}).json()["results"][0]
    related = httpx.get(f"{server}/api/papers/{nemo['id']}/related").json()["related"]
    assert related and all("similar abstract" in r["reason"] for r in related)
    stats = httpx.get(f"{server}/api/stats").json()
    assert stats["papers"] == 56 and {"name": "ICML 2026", "papers": 51} in stats["venues"]
    assert stats["topics"] and stats["benchmarks"] and 0 < stats["code_share"] < 1
    exported = httpx.get(f"{server}/api/export", params={"format": "csv"})
    assert exported.headers["content-type"].startswith("text/csv")
    assert len(list(csv.DictReader(io.StringIO(exported.text)))) == 56
    assert httpx.get(f"{server}/api/export", params={"format": "jsonl", "ids": nemo["id"]}).text.count("\n") == 1


def test_openapi_and_security_headers(server):
    assert "/api/search" in httpx.get(f"{server}/openapi.json").json()["paths"]
    assert httpx.get(f"{server}/docs").status_code == 200
    headers = httpx.get(f"{server}/").headers
    assert "script-src 'self'" in headers["content-security-policy"] and "unsafe-inline" not in headers["content-security-policy"]
