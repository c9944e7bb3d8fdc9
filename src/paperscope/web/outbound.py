"""Ways out of a paper page for every paper, even one without a link of its own: its title searched on
the sites where papers are found, or, for a paper its list gave no title, its abstract's first words (the
heading paperscope made for it would find nothing)."""

from __future__ import annotations

from urllib.parse import quote_plus

SITES = (
    ("arXiv", "https://arxiv.org/search/?searchtype={field}&query={query}"),
    ("Semantic Scholar", "https://www.semanticscholar.org/search?q={query}"),
    ("Google Scholar", "https://scholar.google.com/scholar?q={query}"),
    ("OpenReview", "https://openreview.net/search?term={query}"),
)
ABSTRACT_WORDS = 12


def paper_searches(title: str | None, abstract: str) -> list[tuple[str, str]]:
    """(site, URL) of a search for the exact title on each site, or for the abstract's first words."""
    if title:
        field, query = "title", f'"{title}"'
    else:
        field, query = "abstract", " ".join(abstract.split()[:ABSTRACT_WORDS])
    return [(site, pattern.format(field=field, query=quote_plus(query))) for site, pattern in SITES]
