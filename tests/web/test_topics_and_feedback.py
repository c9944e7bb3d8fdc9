"""The map's topic colours and labels, and "not relevant" on the recommendations page, in a real
headless Chromium."""

from __future__ import annotations

import httpx
from playwright.sync_api import Page, expect

WRITE = {"X-Paperscope": "1"}
VSD, AURORA = "lb4pvidcied2", "etoxgtwakr3b"


def test_every_topic_on_the_map_has_its_own_colour_and_a_label(server, page: Page):
    page.goto(server + "/map")
    dots = page.locator("#map circle")
    pairs = set(
        zip(
            dots.evaluate_all("all => all.map(d => d.dataset.topic)"),
            dots.evaluate_all("all => all.map(d => d.getAttribute('fill'))"),
            strict=True,
        )
    )
    topics = {topic for topic, _ in pairs}
    assert len(topics) > 1 and len(pairs) == len(topics) == len({fill for _, fill in pairs})
    labels = page.locator("#map-labels text")
    assert sorted(labels.evaluate_all("all => all.map(t => t.dataset.topic)")) == sorted(topics)
    legend = page.locator("ol.legend li")
    assert legend.count() == len(topics)
    expect(legend.first.locator(".number")).to_have_text("1")


def test_a_suggestion_marked_not_relevant_leaves_and_stays_away(server, page: Page):
    for paper_id in (VSD, AURORA):
        assert httpx.post(f"{server}/api/papers/{paper_id}/tags", json={"tag": "feedback"}, headers=WRITE).is_success
    try:
        page.goto(server + "/recommend?tag=feedback")
        first = page.locator("ol.results li").first
        dismissed = first.locator("[data-not-relevant]").get_attribute("data-not-relevant")
        count = page.locator("ol.results li").count()
        first.locator("[data-not-relevant]").click()
        expect(page.locator("ol.results li")).to_have_count(count - 1)
        expect(page.locator(f"[data-not-relevant='{dismissed}']")).to_have_count(0)
        page.reload()
        expect(page.locator("ol.results li").first).to_be_visible()
        expect(page.locator(f"[data-not-relevant='{dismissed}']")).to_have_count(0)
        suggested = httpx.get(f"{server}/api/recommend", params={"tag": "feedback"}).json()["suggestions"]
        assert dismissed not in {s["id"] for s in suggested}
        undone = httpx.delete(f"{server}/api/papers/{dismissed}/not-relevant", headers=WRITE)
        assert undone.is_success and "not relevant" not in undone.json()["tags"]
        assert httpx.put(f"{server}/api/papers/{dismissed}/not-relevant").status_code == 403  # not same-site
    finally:
        for paper_id in (VSD, AURORA):
            httpx.delete(f"{server}/api/papers/{paper_id}/tags/feedback", headers=WRITE)
