"""The web pages: search (the home page), a paper, browse. Each renders what the Library returns."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any
from urllib.parse import urlencode

from fastapi import APIRouter, FastAPI, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

from paperscope.analyze.benchmarks import close_names
from paperscope.analyze.charts import bars, topic_colour, topic_map
from paperscope.analyze.stats import largest
from paperscope.errors import PaperscopeError
from paperscope.export import FORMATS
from paperscope.face.params import FiltersParam
from paperscope.face.security import COOKIE as TOKEN_COOKIE
from paperscope.face.shared import LibraryParam, PersonalParam
from paperscope.index.lexical import MAX_QUERY_CHARS, Filters
from paperscope.library import MAX_LIKE_CHARS, MAX_RESULTS, MODES, ORDERS, Library, NotFound
from paperscope.model import CONTRIBUTIONS
from paperscope.personal import NOT_RELEVANT, STATES
from paperscope.responses import mine_reply, related_paper, search_hit
from paperscope.web.i18n import COOKIE, LANGUAGES, WORDS, language
from paperscope.web.outbound import paper_searches

HERE = Path(__file__).resolve().parent
templates = Jinja2Templates(directory=HERE / "templates")
templates.env.filters["thousands"] = "{:,}".format  # 92,514 papers, as the command line writes counts
router = APIRouter(include_in_schema=False)
PAGE = 20
HOME_TOPICS = 8  # the largest topics the home page offers, each with its most central papers
HOME_SAMPLE = 8
EXPORTS = tuple(name for name, export in FORMATS.items() if export.on_paper_page)


def mount_static(app: FastAPI) -> None:
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")


def _render(request: Request, template: str, status: int = 200, **context: Any) -> HTMLResponse:
    lang = language(request)
    params = {k: v for k, v in request.query_params.items() if k not in ("lang", "fragment")}
    response = templates.TemplateResponse(
        request,
        template,
        {
            "t": WORDS[lang],
            "lang": lang,
            "languages": LANGUAGES,
            "params": params,
            "with_params": _with_params,
            **context,
        },
        status_code=status,
    )
    if request.query_params.get("lang") in LANGUAGES:
        response.set_cookie(COOKIE, lang, max_age=365 * 86400, samesite="lax")
    return response


def _with_params(params: dict[str, str], **changes: Any) -> str:
    """The query string of `params` with `changes` (None removes a key); the page number resets."""
    merged = {k: v for k, v in params.items() if k != "page"}
    for key, value in changes.items():
        if value is None:
            merged.pop(key, None)
        else:
            merged[key] = str(value)
    return "?" + urlencode(merged) if merged else "?"


@router.get("/", response_class=HTMLResponse)
def search_page(
    request: Request,
    personal: PersonalParam,
    chosen: FiltersParam,
    q: Annotated[str, Query(max_length=MAX_QUERY_CHARS)] = "",
    mode: Annotated[str, Query(pattern=f"^({'|'.join(MODES)})$")] = "hybrid",
    order: Annotated[str, Query(pattern=f"^({'|'.join(ORDERS)})$")] = "relevance",
    page: Annotated[int, Query(ge=1, le=MAX_RESULTS // PAGE)] = 1,
    fragment: bool = False,
) -> Response:
    """The home page: a search box over something to explore, or a search's results page by page; a
    filter alone goes to the browse page."""
    library = personal.library
    if not q.strip() and chosen.active and not fragment:
        # A filter chosen before any words (a venue on the home page) lists its papers, as browsing does:
        # the home page showed their count beside the whole library's topics and a sample of eight.
        kept = {k: v for k, v in request.query_params.items() if k not in ("q", "mode", "order", "page")}
        return RedirectResponse("/browse?" + urlencode(kept), status_code=303)
    topic_labels = {t.id: t.label for t in library.topics()}
    if not q.strip():
        return _render(
            request,
            "results.html" if fragment else "search.html",
            **_home(library, chosen),
            q=q,
            mode=mode,
            modes=MODES,
            order=order,
            orders=ORDERS,
            topic_labels=topic_labels,
        )
    found = library.search_page(q, PAGE, (page - 1) * PAGE, chosen, mode, order, facets=True)
    searched_as = library.searched_as(q, mode)
    context = {
        "q": q,
        "mode": mode,
        "modes": MODES,
        "order": order,
        "orders": ORDERS,
        "results": [search_hit(h, searched_as or q) for h in found.hits],
        "states": {h.paper.id: personal.state(h.paper.id) for h in found.hits},  # a listed paper shows its state
        "facets": found.facets,
        "total": found.total,
        "capped": found.capped,
        "page": page,
        "pages": max(1, -(-found.total // PAGE)),
        "first": (page - 1) * PAGE + 1,
        "chosen": chosen,
        "topic_labels": topic_labels,
        "searched_as": searched_as,
        "no_vectors": found.without_vectors,
        "exports": EXPORTS,
    }
    return _render(request, "results.html" if fragment else "search.html", **context)


def _home(library: Library, chosen: Filters) -> dict[str, Any]:
    """Something to explore before typing: the library's size and venues, its largest topics with
    their most central papers, and a sample of papers (the first by id: ids are hashes, so an even spread)."""
    topics = [(t, library.topic_papers(t.id, 2)) for t in library.topics()[:HOME_TOPICS]]
    return {
        "results": [],
        "facets": library.facets(chosen),
        "total": library.count(chosen),
        "chosen": chosen,
        "home_topics": topics,
        "sample": list(library.papers("id", HOME_SAMPLE, 0, chosen)),
    }


@router.get("/like", response_class=HTMLResponse)
def like_page(
    request: Request,
    library: LibraryParam,
    chosen: FiltersParam,
    text: Annotated[str, Query(max_length=MAX_LIKE_CHARS)] = "",
    page: Annotated[int, Query(ge=1, le=MAX_RESULTS // PAGE)] = 1,
) -> HTMLResponse:
    """Find papers like a pasted text (an abstract): its meaning, not its words."""
    hits = library.like(text, PAGE, chosen, offset=(page - 1) * PAGE) if text.strip() else []
    return _render(
        request,
        "like.html",
        text=text,
        results=[search_hit(h) for h in hits],
        page=page,
        first=(page - 1) * PAGE + 1,
        more=len(hits) == PAGE,
        no_vectors=bool(text.strip()) and not hits and not library.has_vectors(),
    )


@router.get("/browse", response_class=HTMLResponse)
def browse_page(
    request: Request,
    library: LibraryParam,
    chosen: FiltersParam,
    order: Annotated[str, Query(pattern="^(id|venue|year|title)$")] = "venue",
    page: Annotated[int, Query(ge=1, le=100_000)] = 1,
) -> HTMLResponse:
    total = library.count(chosen)
    pages = max(1, -(-total // PAGE))
    if page > pages:
        return error_page(request, f"no page {page}: these papers fill {pages}", 404)
    papers = list(library.papers(order, PAGE, (page - 1) * PAGE, chosen))
    facets = library.facets(chosen)
    topic_labels = {t.id: t.label for t in library.topics()}
    return _render(
        request,
        "browse.html",
        papers=papers,
        total=total,
        page=page,
        pages=pages,
        order=order,
        facets=facets,
        chosen=chosen,
        topic_labels=topic_labels,
    )


@router.get("/papers/{paper_id}", response_class=HTMLResponse)
def paper_page(request: Request, personal: PersonalParam, paper_id: str) -> HTMLResponse:
    paper = personal.library.paper(paper_id)
    related = [related_paper(r) for r in personal.library.related(paper.id, 10)]  # as the CLI and the API give
    yours = mine_reply(personal, paper.id)
    return _render(
        request,
        "paper.html",
        paper=paper,
        related=related,
        exports=EXPORTS,
        mine=yours,
        states=STATES,
        not_relevant=NOT_RELEVANT,  # a toggle of its own, not among the tags
        elsewhere=paper_searches(paper.title, paper.abstract),
    )


@router.get("/list", response_class=HTMLResponse)
def list_page(
    request: Request, personal: PersonalParam, tag: Annotated[str | None, Query(max_length=60)] = None
) -> HTMLResponse:
    papers = [(p, personal.state(p.id)) for p in personal.listed(tag)]
    tags = personal.tags()
    return _render(request, "list.html", papers=papers, tags=tags, tag=tag, exports=EXPORTS)


@router.get("/recommend", response_class=HTMLResponse)
def recommend_page(
    request: Request, personal: PersonalParam, tag: Annotated[str | None, Query(max_length=60)] = None
) -> HTMLResponse:
    try:
        found, problem = personal.recommend(tag, 20), None
    except PaperscopeError as error:
        found, problem = [], str(error)
    tags = [(name, n) for name, n in personal.tags() if name != NOT_RELEVANT]
    return _render(request, "recommend.html", found=found, problem=problem, tags=tags, tag=tag)


@router.get("/news", response_class=HTMLResponse)
def news_page(request: Request, personal: PersonalParam) -> HTMLResponse:
    found = {name: [search_hit(h) for h in hits] for name, hits in personal.news(mark_seen=False).items()}
    return _render(request, "news.html", found=found)


@router.get("/changes", response_class=HTMLResponse)
def changes_page(request: Request, personal: PersonalParam) -> HTMLResponse:
    found = personal.changes()
    return _render(request, "changes.html", found=found)


@router.get("/login")
def login(request: Request, token: Annotated[str, Query(max_length=200)]) -> RedirectResponse:
    """Keeps the server's token in a cookie, so this browser may change data."""
    response = RedirectResponse("/", status_code=303)
    response.set_cookie(TOKEN_COOKIE, token, httponly=True, samesite="strict", max_age=30 * 86400)
    return response


MAP_LIMIT = 20_000  # dots drawn on the map page; a larger library shows an even sample


@router.get("/map", response_class=HTMLResponse)
def map_page(request: Request, library: LibraryParam) -> HTMLResponse:
    points = library.map_points()
    topics = library.topics()
    shown = points if len(points) <= MAP_LIMIT else points[:: -(-len(points) // MAP_LIMIT)]
    labels = {t.id: t.label for t in topics}
    legend = [(t.id, t.label, t.size, topic_colour(t.id)) for t in topics]
    return _render(
        request, "map.html", svg=topic_map(shown, labels), legend=legend, total=len(points), shown=len(shown)
    )


@router.get("/stats", response_class=HTMLResponse)
def stats_page(request: Request, library: LibraryParam) -> HTMLResponse:
    stats = library.stats()
    t = WORDS[language(request)]
    worded = {"unknown", *CONTRIBUTIONS}  # labels of the page's own words, not names
    charts = [
        _chart([(t[label] if label in worded else label, n) for label, n in rows], t[key], t)
        for key, rows in (
            ("venue_year", stats.venues),
            ("contribution", stats.contributions),
            ("topic", stats.topics),
            ("benchmarks", stats.benchmarks),
            ("models", stats.models),
        )
        if rows
    ]
    return _render(request, "stats.html", stats=stats, charts=charts)


def _chart(rows: list[tuple[str, int]], title: str, t: dict[str, str]) -> str:
    """Bars of the rows stats.largest keeps, the title saying when those are not all."""
    shown = largest(rows)
    if len(shown) < len(rows):
        title = t["largest_of"].format(title=title, shown=len(shown), total=f"{len(rows):,}")
    return bars(shown, title)


@router.get("/benchmarks", response_class=HTMLResponse)
def benchmarks_page(request: Request, library: LibraryParam) -> HTMLResponse:
    stats = library.stats()
    return _render(request, "benchmarks.html", entries=stats.by_benchmark, benchmark=None)


@router.get("/benchmarks/{name}", response_class=HTMLResponse)
def benchmark_page(request: Request, library: LibraryParam, name: str) -> HTMLResponse:
    try:
        found = library.benchmark(name)
    except NotFound as missing:  # the close names as links, beside the one-line message
        close = close_names(library.stats().by_benchmark, name)
        return _render(request, "benchmarks.html", 404, entries=[], benchmark=None, missing=str(missing), close=close)
    return _render(request, "benchmarks.html", entries=[], benchmark=found)


def error_page(request: Request, message: str, status: int) -> HTMLResponse:
    return _render(request, "error.html", status=status, message=message, status_code=status)
