"""Ways out of a paper page for every paper, even one without a link of its own: its title searched on
the sites where papers are found."""

from __future__ import annotations

from urllib.parse import quote_plus

SITES = (
    ("arXiv", "https://arxiv.org/search/?searchtype=title&query={}"),
    ("Semantic Scholar", "https://www.semanticscholar.org/search?q={}"),
    ("Google Scholar", "https://scholar.google.com/scholar?q={}"),
    ("OpenReview", "https://openreview.net/search?term={}"),
)


def title_searches(title: str) -> list[tuple[str, str]]:
    """(site, URL) of a search for the exact title on each site."""
    quoted = quote_plus(f'"{title}"')
    return [(site, pattern.format(quoted)) for site, pattern in SITES]
