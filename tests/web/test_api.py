"""The JSON API over a real server process: shapes, statuses, limits."""

from __future__ import annotations

import asyncio
import csv
import io
import json
import os
import signal
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import psutil

from ..conftest import CORPUS, run_cli
from .conftest import server_process, serving


def test_search_returns_the_cli_result_shape(server):
    found = httpx.get(f"{server}/api/search", params={"q": "NEMO", "limit": 3}).json()
    assert found["mode"] == "hybrid" and found["results"][0]["name"] == "NEMO"
    assert {"rank", "id", "display_title", "score", "scores", "snippet", "snippet_html"} <= set(found["results"][0])
    assert found["searched_as"] is None  # English is searched as typed
    chinese = httpx.get(
        f"{server}/api/search", params={"q": "蛋白质脂质结合预测", "mode": "semantic", "limit": 1}
    ).json()
    assert chinese["results"][0]["name"] == "LipoPU" and chinese["searched_as"] is None
    translated = httpx.get(f"{server}/api/search", params={"q": "推测解码", "limit": 1}).json()
    assert translated["searched_as"] == "speculative decoding" and translated["results"][0]["name"] == "VSD"


def test_a_search_ends_where_its_evidence_ends_for_the_map_too(server):
    # the map marks the results of /api/search?limit=50: the decoding papers, not all 51 dots
    found = httpx.get(f"{server}/api/search", params={"q": "speculative decoding", "limit": 50}).json()
    assert found["total"] == len(found["results"]) < 10
    assert {"VSD", "Aurora"} <= {r["name"] for r in found["results"]}


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
    assert bad_year.status_code == 422
    assert bad_year.json()["error"] == "year: 'last year' is not a year or a range of years (2024, 2020..2024)"
    bad_mode = httpx.get(f"{server}/api/search", params={"q": "x", "mode": "fuzzy"}).json()["error"]
    assert bad_mode == "mode: 'fuzzy' is not one of hybrid, lexical, semantic"
    unknown_tag = httpx.get(f"{server}/api/recommend", params={"tag": "never-used"})
    assert unknown_tag.status_code == 404 and unknown_tag.json() == {
        "error": "no paper is tagged 'never-used'",
        "status": 404,
    }
    traced = httpx.request("TRACE", f"{server}/api/searches")
    assert traced.status_code == 405 and traced.headers["allow"] == "GET, POST" and traced.json()["status"] == 405


def test_papers_are_paged_and_filtered(server):
    first = httpx.get(f"{server}/api/papers", params={"limit": 10, "order": "title"}).json()
    second = httpx.get(f"{server}/api/papers", params={"limit": 10, "offset": 10, "order": "title"}).json()
    assert first["total"] == 56 and not {p["id"] for p in first["papers"]} & {p["id"] for p in second["papers"]}
    coded = httpx.get(f"{server}/api/papers", params={"has_code": "true", "limit": 500}).json()
    assert coded["total"] == len(coded["papers"]) > 0 and all(p["has_code"] for p in coded["papers"])


def test_related_stats_and_export(server):
    nemo = httpx.get(f"{server}/api/search", params={"q": "NEMO", "limit": 1}).json()["results"][0]
    related = httpx.get(f"{server}/api/papers/{nemo['id']}/related").json()["related"]
    assert related and all(r["reason"] for r in related) and any("similar meaning" in r["reason"] for r in related)
    stats = httpx.get(f"{server}/api/stats").json()
    assert stats["papers"] == 56 and {"name": "ICML 2026", "papers": 51} in stats["venues"]
    assert stats["topics"] and stats["benchmarks"] and 0 < stats["code_share"] < 1
    listed = httpx.get(f"{server}/api/benchmarks").json()["benchmarks"]
    assert any(b["name"] == "AlpacaEval 2.0" and b["claims"] for b in listed)
    alpaca = httpx.get(f"{server}/api/benchmarks/alpacaeval").json()
    assert alpaca["benchmark"] == "AlpacaEval 2.0" and all(c["text"] for c in alpaca["claims"])
    missing = httpx.get(f"{server}/api/benchmarks/AlpcaEval")
    assert missing.status_code == 404 and "close: AlpacaEval 2.0" in missing.json()["error"]
    exported = httpx.get(f"{server}/api/export", params={"format": "csv"})
    assert exported.headers["content-type"].startswith("text/csv")
    assert len(list(csv.DictReader(io.StringIO(exported.text)))) == 56
    assert httpx.get(f"{server}/api/export", params={"format": "jsonl", "ids": nemo["id"]}).text.count("\n") == 1


def test_a_searchs_results_export_as_the_search_found_them(server, page):
    found = httpx.get(f"{server}/api/search", params={"q": "speculative decoding", "limit": 50}).json()
    exported = httpx.get(f"{server}/api/export", params={"format": "jsonl", "q": "speculative decoding"}).text
    assert [json.loads(line)["id"] for line in exported.splitlines()] == [r["id"] for r in found["results"]]
    assert found["total"] == 2  # the results end where the evidence ends: not the whole library
    nothing = httpx.get(f"{server}/api/export", params={"format": "jsonl", "q": "zyxwvutsrqp"})
    assert nothing.status_code == 200 and nothing.text == ""  # not every paper
    icml = httpx.get(f"{server}/api/export", params={"format": "jsonl", "venue": "ICML"}).text
    assert icml.count("\n") == 51  # the filters, without a query, choose the papers
    page.goto(server + "/?q=speculative+decoding")
    link = page.locator(".exports a", has_text="ris")
    assert "q=speculative+decoding" in link.get_attribute("href") and "format=ris" in link.get_attribute("href")
    ris = httpx.get(server + link.get_attribute("href")).text
    assert ris.count("TY  - ") == 2


def test_openapi_and_security_headers(server):
    assert "/api/search" in httpx.get(f"{server}/openapi.json").json()["paths"]
    docs = httpx.get(f"{server}/docs")
    assert docs.status_code == 200 and "content-security-policy" not in docs.headers  # Swagger UI's inline script
    headers = httpx.get(f"{server}/").headers
    assert (
        "script-src 'self'" in headers["content-security-policy"]
        and "unsafe-inline" not in headers["content-security-policy"]
    )
    missing = httpx.get(f"{server}/api/papers/nothing")  # an error's reply has them too
    assert missing.status_code == 404 and "script-src 'self'" in missing.headers["content-security-policy"]
    assert (missing.headers["x-content-type-options"], missing.headers["referrer-policy"]) == ("nosniff", "no-referrer")


def test_searches_during_an_ingest_see_before_or_after_never_an_error(seeded_copy):
    seen: set[int] = set()
    errors: list[str] = []
    done = threading.Event()
    with serving(seeded_copy) as server:
        before = httpx.get(f"{server}/api/stats").json()["papers"]

        def hammer() -> None:
            with httpx.Client(base_url=server, timeout=30) as client:
                while not done.is_set():
                    for path, params in (
                        ("/api/search", {"q": "robot learning", "mode": "lexical"}),
                        ("/api/papers", {"limit": 1}),
                    ):
                        response = client.get(path, params=params)
                        if response.status_code != 200:
                            errors.append(f"{response.status_code} {response.text[:100]}")
                        elif path == "/api/papers":  # the library's size (a search's total is its own)
                            seen.add(response.json()["total"])

        workers = [threading.Thread(target=hammer) for _ in range(4)]
        for worker in workers:
            worker.start()
        ingest = run_cli("--db", seeded_copy, "ingest", CORPUS / "iros2013.json.gz", "--no-embed")
        time.sleep(1)
        done.set()
        for worker in workers:
            worker.join()
        after = httpx.get(f"{server}/api/stats").json()["papers"]
    assert ingest.code == 0, ingest.err
    assert after > before and errors == []
    assert seen <= {before, after} and after in seen  # never a part of the ingest


def test_two_worker_processes_answer_alike_share_the_connections_see_each_others_writes_and_end_with_the_command(
    seeded_copy,
):
    with server_process(seeded_copy, workers=2) as (command, server):
        workers = [c for c in psutil.Process(command.pid).children() if "spawn_main" in " ".join(c.cmdline())]
        assert len(workers) == 2
        ids = [p["id"] for p in httpx.get(f"{server}/api/papers", params={"limit": 12}).json()["papers"]]

        def tag(paper_id: str) -> int:
            url = f"{server}/api/papers/{paper_id}/tags"
            return httpx.post(url, json={"tag": "shared"}, headers={"X-Paperscope": "1"}).status_code

        def first_result(_: int) -> str:
            return httpx.get(f"{server}/api/search", params={"q": "NEMO", "limit": 1}).json()["results"][0]["name"]

        with ThreadPoolExecutor(8) as clients:
            assert set(clients.map(tag, ids)) == {200}
            tags = list(clients.map(lambda _: httpx.get(f"{server}/api/tags").json()["tags"], range(24)))
            names = set(clients.map(first_result, range(24)))
        assert all(t == [{"tag": "shared", "papers": 12}] for t in tags)  # whichever process answered
        assert names == {"NEMO"}
        held = _connections_held(server, workers, clients=32)
        assert min(held) >= 6, f"kept-alive connections per worker: {held}"  # spread at random: fewer in 1 of 9,000
        os.kill(command.pid, signal.SIGKILL)
        command.wait()
        _, alive = psutil.wait_procs(workers, timeout=5)
        for orphan in alive:
            orphan.kill()
        assert not alive, "worker processes outlived the killed command"


def _connections_held(server: str, workers: list[psutil.Process], clients: int) -> list[int]:
    """How many of `clients` kept-alive connections, opened at once (as a browser or a load balancer
    would), each worker process holds."""
    port = int(server.rsplit(":", 1)[1])

    async def burst() -> list[int]:
        limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
        async with httpx.AsyncClient(base_url=server, limits=limits, timeout=30) as client:
            found = await asyncio.gather(
                *(client.get("/api/search", params={"q": "robot", "mode": "lexical"}) for _ in range(clients))
            )
            assert {response.status_code for response in found} == {200}
            return [
                sum(c.status == psutil.CONN_ESTABLISHED and c.laddr.port == port for c in worker.net_connections("tcp"))
                for worker in workers
            ]

    # In a thread of its own: a browser test before this one in the same process leaves Playwright's event
    # loop running in this thread, where asyncio.run refuses to start another.
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, burst()).result()


def test_changing_data_needs_a_same_site_request(server):
    paper = f"{server}/api/papers/{_nemo(server)}"
    assert httpx.post(f"{paper}/tags", json={"tag": "x"}).status_code == 403  # no X-Paperscope header: a plain form
    cross = httpx.post(
        f"{paper}/tags", json={"tag": "x"}, headers={"X-Paperscope": "1", "Origin": "https://evil.example"}
    )
    assert cross.status_code == 403 and "cross-site" in cross.json()["error"]
    ok = httpx.post(f"{paper}/tags", json={"tag": "optimisation"}, headers={"X-Paperscope": "1"})
    assert ok.status_code == 200 and "optimisation" in ok.json()["tags"]
    assert httpx.delete(f"{paper}/tags/optimisation", headers={"X-Paperscope": "1"}).json()["tags"] == []
    big = httpx.put(
        f"{paper}/note",
        content=b'{"text": "' + b"x" * 300_000 + b'"}',
        headers={"X-Paperscope": "1", "Content-Type": "application/json"},
    )
    assert big.status_code == 413


def test_a_server_with_a_token_wants_it_for_writes_only(seeded_copy):
    with serving(seeded_copy, env={"PAPERSCOPE_TOKEN": "s3cret-token"}) as server:
        paper = f"{server}/api/papers/{_nemo(server)}"
        headers = {"X-Paperscope": "1"}
        assert httpx.get(paper).status_code == 200  # reading stays open
        assert httpx.put(f"{paper}/state", json={"state": "read"}, headers=headers).status_code == 401
        wrong = {**headers, "Authorization": "Bearer nope"}
        assert httpx.put(f"{paper}/state", json={"state": "read"}, headers=wrong).status_code == 401
        right = {**headers, "Authorization": "Bearer s3cret-token"}
        assert httpx.put(f"{paper}/state", json={"state": "read"}, headers=right).json()["state"] == "read"
        with httpx.Client(base_url=server) as browser_like:
            browser_like.get("/login", params={"token": "s3cret-token"})
            assert browser_like.put(f"{paper}/state", json={"state": None}, headers=headers).json()["state"] is None


def _nemo(server: str) -> str:
    return httpx.get(f"{server}/api/search", params={"q": "NEMO", "limit": 1}).json()["results"][0]["id"]
