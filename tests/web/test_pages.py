"""The web pages in a real headless Chromium, as a user meets them."""

from __future__ import annotations

import re

import httpx
import pytest
from playwright.sync_api import Page, expect

from .conftest import HOSTILE


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
    expect(page.locator("#results .searched-as")).to_have_text('关键词按英文检索："speculative decoding"')
    expect(page.locator("#results .result-link").first).to_contain_text("Speculative Decoding")
    assert page.locator("#results mark").count() > 0  # the English words are marked in the abstracts
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


def test_the_keyboard_alone_finds_and_opens_a_paper(server, page: Page):
    page.goto(server + "/browse")
    page.keyboard.press("/")
    expect(page.locator("#q")).to_have_count(0)  # no search box on browse: "/" does nothing there
    page.goto(server + "/")
    page.locator("body").click()
    page.keyboard.press("/")
    expect(page.locator("#q")).to_be_focused()
    page.keyboard.type("NEMO")
    expect(page.locator("#results .result").first).to_be_visible()
    page.keyboard.press("ArrowDown")
    expect(page.locator("#results .result-link").first).to_be_focused()
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"/papers/[a-z2-7]{12}$"))
    expect(page.locator("h1")).to_contain_text("NEMO")


def test_math_renders_as_mathml(server, page: Page):
    found = httpx.get(f"{server}/api/search", params={"q": "sqrt log", "mode": "lexical", "limit": 50}).json()
    with_math = next(r for r in found["results"]
                     if "<math" in httpx.get(f"{server}/api/papers/{r['id']}").json()["abstract_html"])  # fmt: skip
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


@pytest.mark.parametrize("path", ["/?q=speculative+decoding", "/browse", "/papers/{id}", "/?lang=zh&q=模型", "/map", "/stats",
                                  "/benchmarks/Sudoku"])
def test_no_serious_accessibility_violations(server, browser, vendor, path):
    context = browser.new_context(bypass_csp=True)  # to inject axe-core; the pages themselves keep their CSP
    page = context.new_page()
    page.goto(server + path.format(id=_some_id(server)))
    page.add_script_tag(path=str(vendor / "axe.min.js"))
    result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    serious = [f"{v['id']}: {v['help']} ({len(v['nodes'])})" for v in result["violations"]
               if v["impact"] in ("serious", "critical")]  # fmt: skip
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


def test_stats_and_benchmark_pages_draw_and_link(server, page: Page):
    page.goto(server + "/stats")
    assert page.locator("svg.chart").count() >= 4
    assert page.locator("svg.chart rect").count() > 10
    page.goto(server + "/benchmarks")
    page.get_by_role("link", name="Sudoku", exact=True).click()
    expect(page.locator("h1")).to_have_text("Sudoku")
    expect(page.locator("main")).to_contain_text("not a verified leaderboard")


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
