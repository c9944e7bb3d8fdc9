"""The web pages in a real headless Chromium, as a user meets them."""

from __future__ import annotations

import json
import re
from urllib.parse import quote_plus

import httpx
import pytest
from playwright.sync_api import Page, expect

from paperscope.web.outbound import paper_searches

from ..conftest import CORPUS, run_cli
from .conftest import HOSTILE, serving


def test_typing_a_query_shows_results_and_puts_it_in_the_url(server, page: Page):
    page.goto(server + "/")
    page.fill("#q", "speculative decoding")
    expect(page.locator("#results .result").first).to_be_visible()
    expect(page).to_have_url(re.compile(r"q=speculative\+decoding"))
    assert page.locator("#results mark").count() > 0  # matched words highlighted
    page.reload()  # the URL alone brings the same search back
    expect(page.locator("#results .result-link").first).to_contain_text("Speculative", ignore_case=True)


def test_a_chinese_query_shows_the_english_it_searched(server, page: Page):
    page.goto(server + "/?lang=zh")
    page.fill("#q", "推测解码")
    expect(page.locator("#results .searched-as")).to_have_text("关键词按英文检索：speculative decoding")
    expect(page.locator("#results .result-link").first).to_contain_text("Speculative Decoding")
    assert page.locator("#results mark").count() > 0  # the English words are marked in the abstracts
    expect(page.locator("#results .why").first).to_contain_text("speculative, decoding")  # and named in why
    page.goto(server + "/?q=speculative+decoding&lang=en")
    expect(page.locator("#results .result").first).to_be_visible()
    assert page.locator("#results .searched-as").count() == 0


def test_facets_narrow_the_results(server, page: Page):
    page.goto(server + "/?q=language+models")
    page.get_by_role("link", name="with code").click()
    expect(page).to_have_url(re.compile("has_code=true"))
    results = page.locator("#results .result")
    assert results.count() > 0
    for i in range(results.count()):
        expect(results.nth(i).locator(".tag")).to_have_text("Code")
    # the chosen facet can be cleared, by a link that says so (it read "<built-in method clear of dict …>")
    page.get_by_role("link", name="✕ clear").click()
    expect(page).not_to_have_url(re.compile("has_code"))


def test_the_keyboard_alone_finds_and_opens_a_paper(server, page: Page):
    page.goto(server + "/browse")
    page.keyboard.press("/")
    expect(page.locator("#q")).to_have_count(0)  # no search box on browse: "/" does nothing there
    page.goto(server + "/")
    page.evaluate("document.activeElement.blur()")  # (a click could land on one of the home page's links)
    page.keyboard.press("/")
    expect(page.locator("#q")).to_be_focused()
    page.keyboard.type("NEMO")
    # the home page lists a sample of papers until the search's own results replace them
    expect(page.locator("#results .result-link").first).to_contain_text("NEMO")
    page.keyboard.press("ArrowDown")
    expect(page.locator("#results .result-link").first).to_be_focused()
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"/papers/[a-z2-7]{12}$"))
    expect(page.locator("h1")).to_contain_text("NEMO")


def test_math_renders_as_mathml(server, page: Page):
    found = httpx.get(f"{server}/api/search", params={"q": "sqrt log", "mode": "lexical", "limit": 50}).json()
    with_math = next(
        r for r in found["results"] if "<math" in httpx.get(f"{server}/api/papers/{r['id']}").json()["abstract_html"]
    )
    page.goto(f"{server}/papers/{with_math['id']}")
    assert page.locator(".abstract math").count() > 0
    assert page.locator(".abstract").inner_text().count("$") == 0  # no raw TeX left


def test_links_on_a_paper_page_are_safe(server, page: Page):
    coded = httpx.get(f"{server}/api/papers", params={"has_code": "true", "limit": 1}).json()["papers"][0]
    page.goto(f"{server}/papers/{coded['id']}")
    external = page.locator("main a[href^='http']")
    assert external.count() > 0
    for i in range(external.count()):
        rel = external.nth(i).get_attribute("rel") or ""
        assert "nofollow" in rel and "noopener" in rel


def test_the_chinese_interface_is_remembered(server, page: Page):
    page.goto(server + "/?lang=zh")
    expect(page.locator("label[for=q]")).to_have_text("搜索论文")
    page.goto(server + "/browse")
    expect(page.locator("h1")).to_have_text("浏览")
    expect(page.locator("html")).to_have_attribute("lang", "zh-CN")
    page.get_by_role("link", name="English").click()
    expect(page.locator("h1")).to_have_text("Browse")


def test_a_375_pixel_screen_needs_no_sideways_scrolling(server, browser):
    context = browser.new_context(viewport={"width": 375, "height": 740})
    page = context.new_page()
    for path in ("/?q=diffusion", "/browse", "/papers/" + _some_id(server), "/map", "/stats", "/benchmarks"):
        page.goto(server + path)
        assert page.evaluate("document.documentElement.scrollWidth") <= 375, path
    page.goto(server + "/")
    expect(page.locator("#q")).to_be_visible()
    context.close()


def _some_id(server: str) -> str:
    return httpx.get(f"{server}/api/search", params={"q": "NEMO", "limit": 1}).json()["results"][0]["id"]


def test_hostile_abstracts_run_no_script(server, page: Page):
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    found = httpx.get(f"{server}/api/papers", params={"limit": 500}).json()["papers"]
    hostile_ids = [p["id"] for p in found if p["venue"] != "ICML"]
    assert len(hostile_ids) == len(HOSTILE)
    paths = [f"/papers/{pid}" for pid in hostile_ids] + ["/?q=script+image+markdown+attributes+security", "/browse"]
    for path in paths:
        page.goto(server + path)
        page.wait_for_load_state("load")
        assert page.evaluate("window.__xss") is None, path
        dangerous = page.locator("[onerror], [onload], [onclick], a[href^='javascript:' i], iframe, object, embed")
        assert dangerous.count() == 0, path
        scripts = page.locator("script")
        assert [scripts.nth(i).get_attribute("src") for i in range(scripts.count())] == ["/static/app.js"], path
    assert dialogs == []


PAGES = [
    "/",
    "/?q=speculative+decoding",
    "/?q=language+models&order=year&page=2",
    "/like?text=speculative+decoding",
    "/browse",
    "/browse?contribution=method&has_code=true",  # chosen facets, each with its "clear" link
    "/browse?lang=zh&contribution=method",
    "/papers/{id}",
    "/papers/{claimed}",
    "/?lang=zh&q=模型",
    "/papers/{claimed}?lang=zh",
    "/list",
    "/recommend",
    "/news",
    "/changes",
    "/map",
    "/stats",
    "/benchmarks",
    "/benchmarks/Sudoku",
]


def _claimed(server: str) -> str:
    """A paper with extracted claims (its page has the claims table)."""
    claims = httpx.get(f"{server}/api/stats").json()["claims"]
    return next(c["paper_id"] for rows in claims.values() for c in rows)


@pytest.mark.parametrize("width", [1280, 375])
@pytest.mark.parametrize("path", PAGES)
def test_no_serious_accessibility_violations(server, browser, vendor, path, width):
    context = browser.new_context(bypass_csp=True, viewport={"width": width, "height": 900})  # to inject axe-core
    page = context.new_page()
    page.goto(server + path.format(id=_some_id(server), claimed=_claimed(server)))
    page.add_script_tag(path=str(vendor / "axe.min.js"))
    result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    serious = [
        f"{v['id']}: {v['help']} ({len(v['nodes'])})"
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
    ]
    assert serious == []
    context.close()


def test_the_map_opens_papers_and_a_search_marks_them(server, page: Page):
    page.goto(server + "/map")
    dots = page.locator("#map circle")
    assert dots.count() == 56
    assert len(set(dots.evaluate_all("all => all.map(d => d.getAttribute('fill'))"))) > 1  # coloured by topic
    page.fill("#map-q", "NEMO")
    expect(page.locator("#map circle.hit").first).to_be_attached()
    assert 0 < page.locator("#map circle.hit").count() <= 50
    before = page.locator("#map").get_attribute("viewBox")
    page.locator("#map").hover()
    page.mouse.wheel(0, -300)
    assert page.locator("#map").get_attribute("viewBox") != before  # zoomed
    first = page.locator("#map circle").first
    paper_id = first.get_attribute("data-id")
    page.click("#map-reset")
    page.locator(f"#map a:has(circle[data-id='{paper_id}'])").dispatch_event("click")
    expect(page).to_have_url(re.compile(f"/papers/{paper_id}$"))


def test_the_chinese_stats_page_names_kinds_in_chinese(server, page: Page):
    page.goto(server + "/stats?lang=zh")
    labels = page.locator("svg.chart text").evaluate_all("all => all.map(e => e.textContent.trim())")
    assert "方法" in labels and "method" not in labels


def test_a_browse_page_past_the_last_says_so(server, page: Page):
    assert page.goto(server + "/browse?page=999").status == 404
    expect(page.locator("main")).to_contain_text("no page 999: these papers fill 3")  # 56 papers, 20 a page
    assert page.goto(server + "/browse?page=3").status == 200


def test_stats_and_benchmark_pages_draw_and_link(server, page: Page):
    page.goto(server + "/stats")
    assert page.locator("svg.chart").count() >= 4
    assert page.locator("svg.chart rect").count() > 10
    page.goto(server + "/benchmarks")
    page.get_by_role("link", name="Sudoku", exact=True).click()
    expect(page.locator("h1")).to_have_text("Sudoku")
    expect(page.locator("main")).to_contain_text("not a verified leaderboard")
    row = page.locator("tbody tr").filter(has_text="+69.7%")
    expect(row).to_contain_text("on Countdown and Sudoku")  # the claim's sentence
    assert page.goto(server + "/benchmarks/AlpcaEval").status == 404
    expect(page.locator("main")).to_contain_text("no paper names the benchmark 'AlpcaEval'")
    page.get_by_role("link", name="AlpacaEval 2.0", exact=True).click()  # the close name, as a link
    expect(page.locator("h1")).to_have_text("AlpacaEval 2.0")


def test_the_topic_facet_narrows_a_search(server, page: Page):
    page.goto(server + "/?q=language+models")
    topic_links = page.locator("section.facet:has(h2:text('Topic')) a")
    assert topic_links.count() >= 2
    topic_links.first.click()
    expect(page).to_have_url(re.compile(r"topic=\d+"))
    topic = int(re.search(r"topic=(\d+)", page.url).group(1))
    members = {p["id"] for p in httpx.get(f"{server}/api/map", params={"topic": topic}).json()["points"]}
    shown = page.locator("#results a.result-link").evaluate_all("all => all.map(a => a.getAttribute('href'))")
    assert shown and all(href.rsplit("/", 1)[1] in members for href in shown)


def test_queue_tag_and_note_from_the_pages(server, page: Page):
    page.goto(server + "/?q=NEMO")
    page.locator("#results [data-queue]").first.click()
    expect(page.locator("#results [data-queue]").first).to_have_text("✓")
    page.locator("#results a.result-link").first.click()
    expect(page.locator("[data-state='to read']")).to_have_attribute("aria-pressed", "true")
    page.fill("#new-tag", "optimisation")
    page.locator("#tag-form button").click()
    expect(page.locator("#tag-list")).to_contain_text("optimisation")
    page.fill("#note-text", "Compare with **PMVB** <img src=x onerror=window.__xss=9>")
    page.click("#note-save")
    expect(page.locator("#note-html strong")).to_have_text("PMVB")
    assert page.locator("#note-html img").count() == 0 and page.evaluate("window.__xss") is None
    page.goto(server + "/list")
    expect(page.locator("main")).to_contain_text("NEMO")
    page.goto(server + "/recommend?tag=optimisation")
    assert page.locator("ol.results li").count() > 0
    page.goto(server + "/papers/" + _some_id(server))
    page.locator("[data-untag='optimisation']").click()
    expect(page.locator("#tag-list")).not_to_contain_text("optimisation")
    page.locator("[data-state='']").click()
    expect(page.locator("[data-state='']")).to_have_attribute("aria-pressed", "true")


def test_a_paper_is_marked_not_relevant_from_its_page_and_unmarked_again(server, page: Page):
    """A user found the mark on the recommendations page only, and shown on a paper as a tag."""
    paper_id = httpx.get(f"{server}/api/search", params={"q": "FuzzEval", "limit": 1}).json()["results"][0]["id"]
    page.goto(f"{server}/papers/{paper_id}")
    button = page.locator("#not-relevant")
    expect(button).to_have_attribute("aria-pressed", "false")
    button.click()
    expect(button).to_have_attribute("aria-pressed", "true")
    assert "not relevant" in httpx.get(f"{server}/api/papers/{paper_id}/mine").json()["tags"]
    page.reload()
    expect(page.locator("#not-relevant")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#tag-list")).not_to_contain_text("not relevant")  # the toggle says it, not a tag
    page.locator("#not-relevant").click()
    expect(page.locator("#not-relevant")).to_have_attribute("aria-pressed", "false")
    assert "not relevant" not in httpx.get(f"{server}/api/papers/{paper_id}/mine").json()["tags"]


def test_a_listed_paper_shows_its_state_on_results_instead_of_a_button_that_would_overwrite_it(server, page: Page):
    paper_id = httpx.get(f"{server}/api/search", params={"q": "NEMO", "limit": 1}).json()["results"][0]["id"]
    marked = httpx.put(f"{server}/api/papers/{paper_id}/state", json={"state": "read"}, headers={"X-Paperscope": "1"})
    assert marked.status_code == 200
    page.goto(server + "/?q=NEMO")
    first = page.locator("#results li.result").first
    expect(first.locator(".state")).to_have_text("Read")
    assert first.locator("[data-queue]").count() == 0
    assert httpx.get(f"{server}/api/papers/{paper_id}/mine").json()["state"] == "read"
    httpx.put(f"{server}/api/papers/{paper_id}/state", json={"state": None}, headers={"X-Paperscope": "1"})
    page.reload()
    assert first.locator("[data-queue]").count() == 1


def test_the_home_page_has_something_to_explore_before_typing(server, page: Page):
    page.goto(server + "/")
    expect(page.locator("#results h1")).to_have_text("56 papers")
    topics = page.locator(".home .topics > li")
    assert topics.count() >= 2
    expect(topics.first.locator("ul a").first).to_be_visible()  # a topic comes with its central papers
    assert page.locator(".home .sample a").count() == 8
    page.locator(".home .sample a").first.click()
    expect(page).to_have_url(re.compile(r"/papers/[a-z2-7]{12}$"))


def test_a_filter_chosen_before_any_words_lists_its_papers(server, page: Page):
    """A user clicked a venue on the home page and saw its count beside the whole library's topics."""
    page.goto(server + "/")
    facet = page.locator(".facets a[href*='venue=']").first
    venue = facet.get_attribute("href").split("venue=")[1].split("&")[0]
    facet.click()
    expect(page).to_have_url(re.compile(rf"/browse\?venue={re.escape(venue)}$"))
    listed = page.locator("main ol.results li")
    assert 0 < listed.count() <= 20
    page.select_option("#order", "title")  # and its sort applies when chosen
    expect(page).to_have_url(re.compile("order=title"))


def test_a_paper_page_lists_the_related_papers_the_api_gives_with_their_reasons(server, page: Page):
    """The page showed 8 where the CLI and the API give 10."""
    paper_id = httpx.get(f"{server}/api/search", params={"q": "VSD", "limit": 1}).json()["results"][0]["id"]
    related = httpx.get(f"{server}/api/papers/{paper_id}/related").json()["related"]
    page.goto(f"{server}/papers/{paper_id}")
    shown = page.locator("section[aria-labelledby=related-h] li")
    expect(shown).to_have_count(len(related))
    assert len(related) == 10 and shown.first.locator("a").inner_text() == related[0]["display_title"]
    expect(shown.first.locator(".meta")).to_contain_text(related[0]["phrases"][0])


def test_a_papers_claims_say_which_way_they_go_and_their_sentence(server, page: Page):
    """A user read SLiM's "70% | FLOPs" where the abstract says a 70% reduction."""
    paper_id = httpx.get(f"{server}/api/search", params={"q": "VSD", "limit": 1}).json()["results"][0]["id"]
    claims = httpx.get(f"{server}/api/papers/{paper_id}").json()["claims"]
    page.goto(f"{server}/papers/{paper_id}")
    first = page.locator("section[aria-labelledby=claims-h] tbody tr").first
    expect(first.locator("td").nth(1)).to_have_text(claims[0]["direction"])  # improves
    expect(first.locator("td.sentence")).to_have_text(claims[0]["text"])
    page.goto(f"{server}/papers/{paper_id}?lang=zh")
    expect(page.locator("section[aria-labelledby=claims-h] tbody tr td").nth(1)).to_have_text("提升")


def test_a_search_pages_through_all_its_results(server, page: Page):
    total = httpx.get(f"{server}/api/search", params={"q": "language models"}).json()["total"]
    assert total > 20
    page.goto(server + "/?q=language+models")
    expect(page.locator("#results .summary").first).to_have_text(f"Showing 1–20 / {total} results")
    first = page.locator("#results a.result-link").evaluate_all("all => all.map(a => a.href)")
    page.get_by_role("link", name="Next →").click()
    expect(page.locator("#results .summary").first).to_have_text(f"Showing 21–{min(40, total)} / {total} results")
    second = page.locator("#results a.result-link").evaluate_all("all => all.map(a => a.href)")
    assert second and not set(first) & set(second)
    page.get_by_role("link", name="← Previous").click()
    expect(page.locator("#results .summary").first).to_have_text(f"Showing 1–20 / {total} results")
    assert page.locator("#results a.result-link").evaluate_all("all => all.map(a => a.href)") == first


def test_the_api_pages_and_sorts_a_search_and_counts_its_whole_result_set(server):
    def ids(**params):
        found = httpx.get(f"{server}/api/search", params={"q": "language models", "limit": 10, **params}).json()
        return [r["id"] for r in found["results"]], found

    everything, found = ids(limit=1000, facets="true")
    pages = [i for offset in range(0, found["total"], 10) for i in ids(offset=offset)[0]]
    assert pages == everything and len(everything) == found["total"]
    assert sum(n["papers"] for n in found["facets"]["has_code"]) == found["total"]  # the whole set, not a page
    years = [r["year"] or 0 for r in ids(limit=1000, order="year")[1]["results"]]
    assert years == sorted(years, reverse=True)
    named = [r["name"].lower() for r in ids(limit=1000, order="name")[1]["results"] if r["name"]]
    assert named == sorted(named)


def test_the_sort_control_reorders_the_results(server, page: Page):
    page.goto(server + "/?q=language+models")
    page.select_option("#order", "name")  # applies when chosen, with no button pressed
    expect(page).to_have_url(re.compile("order=name"))
    names = page.locator("#results .meta").all_inner_texts()
    shown = [m.split(" · ")[1].lower() for m in names if m.count(" · ") and not m.split(" · ")[1].startswith("Code")]
    assert shown == sorted(shown) and len(shown) > 5


def test_scores_are_explained_in_words(server, page: Page):
    page.goto(server + "/?q=speculative+decoding")
    why = page.locator("#results .why").first.inner_text()
    assert why.startswith("matched: ") and "in title" in why and re.search(r"similar meaning 0\.\d\d$", why), why
    page.goto(server + "/?q=" + quote_plus("微调"))  # found by its English; the Chinese is far from English abstracts
    whys = page.locator("#results .why").all_inner_texts()
    assert len(whys) > 5 and all("fine-tuning" in w for w in whys[:2]) and not any("meaning -" in w for w in whys), whys


def test_find_papers_like_a_pasted_abstract(server, page: Page):
    nemo = httpx.get(f"{server}/api/search", params={"q": "NEMO", "limit": 1}).json()["results"][0]
    abstract = httpx.get(f"{server}/api/papers/{nemo['id']}").json()["abstract"]
    pasted = (
        abstract
        + " "
        + " ".join(["We evaluate the agents on many optimization problems and report where they fail."] * 20)
    )
    assert len(pasted.split()) >= 300
    page.goto(server + "/")
    page.get_by_role("link", name="Find papers like a pasted abstract →").click()
    page.fill("#like-text", pasted)
    page.get_by_role("button", name="Find similar papers").click()
    expect(page.locator("ol.results a.result-link").first).to_have_text(nemo["display_title"])
    assert page.locator("ol.results li").count() == 20


def test_a_paper_page_shows_the_abstract_first_and_ways_out(server, page: Page):
    bare = next(
        p for p in httpx.get(f"{server}/api/papers", params={"limit": 500}).json()["papers"] if p["venue"] != "ICML"
    )
    page.goto(f"{server}/papers/{bare['id']}")
    order = page.evaluate("[...document.querySelectorAll('#abstract-h, #mine-h, #links-h')].map(h => h.id)")
    assert order == ["abstract-h", "mine-h", "links-h"]
    title = httpx.get(f"{server}/api/papers/{bare['id']}").json()["display_title"]
    for site, host in (
        ("arXiv", "arxiv.org"),
        ("Semantic Scholar", "semanticscholar.org"),
        ("Google Scholar", "scholar.google.com"),
        ("OpenReview", "openreview.net"),
    ):
        link = page.get_by_role("link", name=site, exact=True)
        href = link.get_attribute("href")
        assert host in href and quote_plus(title[:30]) in href, href
        assert "noopener" in link.get_attribute("rel")
    wide = page.locator("#mine").bounding_box()
    assert wide["x"] > page.locator("#abstract-h").bounding_box()["x"] + 300  # beside the abstract at 1200 px


def test_an_untitled_paper_says_its_heading_is_made_and_searches_its_abstract_elsewhere(server, page: Page):
    papers = httpx.get(f"{server}/api/papers", params={"limit": 500}).json()["papers"]
    untitled = next(p for p in papers if p["venue"] == "ICML" and not p["title"])
    page.goto(f"{server}/papers/{untitled['id']}")
    expect(page.locator(".untitled")).to_have_text("Its list gives no title: this heading is made from the abstract.")
    abstract = httpx.get(f"{server}/api/papers/{untitled['id']}").json()["abstract"]
    href = page.get_by_role("link", name="arXiv", exact=True).get_attribute("href")
    assert "searchtype=abstract" in href and quote_plus(" ".join(abstract.split()[:5])) in href, href
    expect(page.locator(".elsewhere")).to_contain_text("Search the abstract's first words on")
    titled = dict(paper_searches("Attention Is All You Need", abstract))  # this library's papers have no titles
    assert titled["arXiv"].endswith("searchtype=title&query=%22Attention+Is+All+You+Need%22")


def test_the_chinese_interface_uses_its_own_words(server, page: Page):
    page.goto(f"{server}/papers/{_claimed(server)}?lang=zh")
    expect(page.locator("#claims-h")).to_have_text("论断")
    expect(page.locator("#claims-h + .table-wrap th").first).to_have_text("结果")
    text = page.locator("body").inner_text()
    for english in (
        "Claims",
        "Abstract",
        "My library",
        "Search the title on",
        "Sources",
        "Export",
        "Related papers",
        "similar meaning",
        "both about",
        "shares topic",
    ):
        assert english not in text, english
    assert "语义相似度" in page.locator("ol.results").inner_text()
    page.goto(server + "/?lang=zh&q=speculative+decoding")
    assert "Sort by" not in page.locator("body").inner_text() and "排序" in page.locator("#order").inner_text()
    why = page.locator("#results .why").first.inner_text()
    assert why.startswith("匹配：标题中的 speculative, decoding；语义相似度 0."), why


def test_every_page_and_the_api_docs_work_with_no_network(server, browser):
    """Only the server itself is reachable: anything else a page asks for is aborted and counted."""
    context = browser.new_context()
    outside: list[str] = []
    context.route(
        re.compile(r"^(?!" + re.escape(server) + r")"), lambda route: (outside.append(route.request.url), route.abort())
    )
    page = context.new_page()
    failed: list[str] = []
    page.on("requestfailed", lambda request: failed.append(request.url))
    page.goto(server + "/docs")
    expect(page.locator(".swagger-ui .opblock").first).to_be_visible(timeout=30_000)
    assert page.locator(".swagger-ui .opblock").count() >= 20
    for path in PAGES:
        page.goto(server + path.format(id=_some_id(server), claimed=_claimed(server)))
        page.wait_for_load_state("networkidle")
        assert page.locator("main").count() == 1, path
        # a template's word that is a Python attribute ("t.clear" of a dict) shows as "<built-in method …>"
        assert not re.search(r"built-in method|bound method| object at 0x", page.inner_text("body")), path
    assert outside == [] and failed == []
    context.close()


def test_a_search_matching_more_papers_than_it_ranks_says_its_count_is_a_floor(page: Page, tmp_path):
    """Over 1,000 of AAAI 2022's 1,319 papers hold "we": a search ranks the first 1,000 and says that more
    match (command line, API, page, whose facets say what they count), not that exactly 1,000 do; a
    narrower search counts exactly what it ranks."""
    db = tmp_path / "aaai.db"
    ingested = run_cli("--db", db, "ingest", CORPUS / "aaai2022.json.gz", "--no-embed")
    assert ingested.code == 0 and ingested.out.startswith("1,319 records read from 1 file → 1,319 papers")
    shown = run_cli("--db", db, "search", "we", "--mode", "lexical", "--limit", "1")
    assert shown.out.startswith("1,000+ papers match; the first 1:")
    assert run_cli("--db", db, "stats").out.startswith("1,319 papers, ")
    with serving(db) as url:
        wide = httpx.get(f"{url}/api/search", params={"q": "we", "mode": "lexical"}).json()
        assert (wide["total"], wide["capped"]) == (1000, True)
        narrow = httpx.get(f"{url}/api/search", params={"q": "reinforcement", "limit": 1000}).json()
        assert not narrow["capped"] and narrow["total"] == len(narrow["results"]) < 1000
        page.goto(f"{url}/?q=we&mode=lexical")
        expect(page.locator("#results .summary").first).to_have_text("Showing 1–20 / 1,000+ results")
        expect(page.locator(".facets .hint")).to_have_text("Counted over the first 1,000 results.")
        page.goto(f"{url}/?q=reinforcement")
        expect(page.locator("#results .summary").first).to_have_text(f"Showing 1–20 / {narrow['total']} results")
        assert page.locator(".facets .hint").count() == 0
        page.goto(f"{url}/stats")  # counts are grouped as the command line groups them
        expect(page.locator("p.big")).to_contain_text("1,319 papers")


def test_a_chart_of_more_rows_than_it_draws_shows_the_largest_and_says_so(page: Page, tmp_path):
    """23 lists (ACML 2010-2024, AISTATS 1995-2009): the venue chart draws the 20 largest, not the
    first 20 by name, and its title says how many there are; so does the command line's table."""
    lists = sorted(CORPUS.glob("acml20*.json.gz")) + sorted(CORPUS.glob("aistats*.json.gz"))[:8]
    db = tmp_path / "many.db"
    assert run_cli("--db", db, "ingest", *lists, "--no-embed").code == 0
    venues = json.loads(run_cli("--db", db, "stats", "--json").out)["venues"]
    assert len(venues) == 23
    ranked = sorted(venues, key=lambda venue: (-venue["papers"], venue["name"]))
    printed = run_cli("--db", db, "stats").out.splitlines()
    at = printed.index("venue and year: the 20 largest of 23 (--json lists all)")
    assert [line.split()[:2] for line in printed[at + 2 : at + 22]] == [venue["name"].split() for venue in ranked[:20]]
    with serving(db) as url:
        page.goto(f"{url}/stats")
        chart = page.locator('svg.chart[aria-label^="Venue and year"]')
        expect(chart).to_have_attribute("aria-label", "Venue and year: the 20 largest of 23")
        drawn = chart.locator("rect title").all_text_contents()
        assert drawn == [f"{venue['name']}: {venue['papers']}" for venue in ranked[:20]]


def test_a_search_by_meaning_counts_papers_ranked_not_matches(server, page: Page):
    page.goto(server + "/?q=speculative+decoding&mode=semantic")
    expect(page.locator("#results p.summary").first).to_contain_text("papers, nearest in meaning first")
    page.goto(server + "/?q=speculative+decoding")
    expect(page.locator("#results p.summary").first).to_contain_text("results")


def test_a_library_without_vectors_says_so_where_nothing_is_found_by_meaning(tmp_path):
    from ..conftest import SEEDS

    assert run_cli("--db", tmp_path / "lib.db", "ingest", SEEDS, "--no-embed").code == 0
    with serving(tmp_path / "lib.db") as url:
        semantic = httpx.get(f"{url}/", params={"q": "speculative decoding", "mode": "semantic"}).text
        like = httpx.get(f"{url}/like", params={"text": "We speed up decoding with a draft model."}).text
        hybrid = httpx.get(f"{url}/", params={"q": "speculative decoding"}).text
    assert "no sentence vectors yet" in semantic and "paperscope embed" in semantic
    assert "no sentence vectors yet" in like
    assert "VSD" in hybrid and "no sentence vectors yet" not in hybrid  # words still find
    cli = run_cli("--db", tmp_path / "lib.db", "search", "speculative decoding", "--mode", "semantic")
    assert cli.out.startswith("no papers match: the library has no sentence vectors yet")
