"""The `paperscope` command: a thin layer over paperscope.library.Library."""

from __future__ import annotations

import os
import re
import secrets
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import orjson
import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Column, Table

from paperscope import responses
from paperscope.analyze.benchmarks import Benchmark
from paperscope.analyze.stats import largest
from paperscope.atomic import replacing
from paperscope.copying import copy_library
from paperscope.errors import PaperscopeError
from paperscope.export import FORMATS, export_format
from paperscope.index.lexical import Filters
from paperscope.library import MAX_RESULTS, Library, SearchPage
from paperscope.model import Paper
from paperscope.normalize.math import to_unicode
from paperscope.personal import NOT_RELEVANT, Personal
from paperscope.store import DEFAULT_READER, is_server, safe_location

if TYPE_CHECKING:
    from paperscope.fetch.apis import Fetched
    from paperscope.pipeline import IngestReport

app = typer.Typer(
    help="Explore a conference's paper list: ingest it, then list, show, search and export its papers.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
out = Console(soft_wrap=True)
err = Console(stderr=True)
DEFAULT_DB = "paperscope.db"
LOOPBACK = ("127.0.0.1", "localhost", "::1")
REPORT_EXAMPLES = 5
NO_VECTORS = "the library has no sentence vectors yet, so nothing is found by meaning (paperscope embed computes them)"

DbOption = Annotated[
    str | None,
    typer.Option(
        "--db",
        envvar="PAPERSCOPE_DB",
        show_default=False,
        help=f"The library: a SQLite file (default: ./{DEFAULT_DB}) or a PostgreSQL URL, "
        "postgresql://user@host:port/dbname.",
    ),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")]
VenueOption = Annotated[str | None, typer.Option(help="Only this venue.")]
YearOption = Annotated[str | None, typer.Option(help="A year or a range, 2024..2026.")]
ContributionOption = Annotated[
    str | None, typer.Option(help="method, benchmark, dataset, theory, analysis, system or position.")
]
HasCodeOption = Annotated[bool | None, typer.Option("--has-code/--no-code", help="Only papers with (without) code.")]
ModeOption = Annotated[
    str, typer.Option(help="hybrid (both, fused), lexical (BM25 on the words) or semantic (meaning, any language).")
]


@dataclass
class Chosen:
    """What the options before the command chose."""

    db: str | None
    reader: str


@app.callback()
def _options(
    ctx: typer.Context,
    db: DbOption = None,
    user: Annotated[
        str,
        typer.Option(
            "--user",
            envvar="PAPERSCOPE_USER",
            help="Whose tags, reading list, notes and saved searches (on a shared library).",
        ),
    ] = DEFAULT_READER,
) -> None:
    """Explore a conference's paper list: ingest it, then list, show, search and export its papers.

    The library is a SQLite file or a PostgreSQL database: --db PATH_OR_URL (before or after the
    command), or PAPERSCOPE_DB.
    """
    ctx.obj = Chosen(db, user.strip() or DEFAULT_READER)


def _location(ctx: typer.Context, db: str | None) -> str:
    return db or ctx.find_root().obj.db or DEFAULT_DB


def _library(ctx: typer.Context, db: str | None, create: bool = False) -> Library:
    """The library; only the commands that fill one (`create`) may start a new SQLite file. One made by an
    older paperscope is upgraded as it opens, with a progress bar."""
    location = _existing(_location(ctx, db)) if not create else _location(ctx, db)
    with _progress() as report:
        return Library(location, progress=report)


def _existing(location: str) -> str:
    if not is_server(location) and not Path(location).exists():
        raise PaperscopeError(f"{location}: no library there (a mistyped --db?); `paperscope ingest` makes one")
    return location


def _print_json(data: object) -> None:
    sys.stdout.write(orjson.dumps(data, option=orjson.OPT_INDENT_2).decode() + "\n")


@app.command()
def ingest(
    ctx: typer.Context,
    paths: Annotated[list[Path], typer.Argument(help="Files or folders of paper lists.", show_default=False)],
    db: DbOption = None,
    skip_bad: Annotated[bool, typer.Option("--skip-bad", help="Ingest the good files, list the bad ones.")] = False,
    no_embed: Annotated[
        bool, typer.Option("--no-embed", help="Leave the sentence vectors for `paperscope embed`.")
    ] = False,
    column_map: Annotated[
        list[str] | None, typer.Option("--map", help="COLUMN=FIELD for a CSV/TSV header not recognised (repeatable).")
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """Read paper lists into the library (one transaction; unchanged files are skipped), then embed new papers.

    Example: paperscope ingest ../shared/seeds
    """
    with _library(ctx, db, create=True) as library, _progress() as report:
        result = library.ingest(
            paths,
            skip_bad=skip_bad,
            embed_vectors=not no_embed,
            progress=None if as_json else report,
            options={"map": column_map or []},
        )
    if as_json:
        _print_json(result.to_dict())
    else:
        _print_report(result)


@app.command()
def embed(ctx: typer.Context, db: DbOption = None) -> None:
    """Compute the sentence vectors semantic search needs, for papers without one; resumable.

    Example: paperscope ingest ../shared/corpus --no-embed && paperscope embed
    """
    with _library(ctx, db) as library, _progress() as report:
        computed = library.embed(report)
    out.print(f"{computed} vectors computed; every paper has one")


@contextmanager
def _progress() -> Iterator[Callable[[str, int, int], None]]:
    """Rich progress bars on a terminal (none otherwise), fed by (stage, done, total) calls."""
    bars = Progress(
        TextColumn("  {task.description:>7}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=err,
        transient=False,
        disable=not err.is_terminal,
    )
    tasks: dict[str, TaskID] = {}

    def report(stage: str, done: int, total: int) -> None:
        if stage not in tasks:
            tasks[stage] = bars.add_task(stage, total=total)
        bars.update(tasks[stage], completed=done, total=total)

    with bars:
        yield report


def _print_report(report: IngestReport) -> None:
    unchanged = f" ({report.files_unchanged:,} unchanged)" if report.files_unchanged else ""
    out.print(
        f"{_count(report.records_read, 'record')} read from {_count(report.files_read, 'file')}{unchanged}"
        f" → {_count(report.papers, 'paper')} ({_count(report.records_merged, 'duplicate')} merged),"
        f" {_count(report.errors, 'error')}"
    )
    out.print(
        f"papers: {report.papers_created:,} created, {report.papers_updated:,} updated,"
        f" {report.papers_unchanged:,} unchanged, {report.papers_removed:,} removed"
    )
    if report.papers_remade:
        out.print(
            f"papers made by an earlier paperscope, made again from their records: {report.papers_remade:,}"
            f" ({report.papers_remade_changed:,} changed)"
        )
    missing = f", {report.vectors_missing:,} still missing (paperscope embed)" if report.vectors_missing else ""
    out.print(f"vectors: {report.vectors_computed:,} computed{missing}")
    sections = [
        ("duplicates merged", [", ".join(group) for group in report.duplicates_merged]),
        ("near duplicates merged", [f"{p['a']} ~ {p['b']} (jaccard {p['jaccard']})" for p in report.near_duplicates]),
        ("near duplicates held apart", [f"{p['a']} ~ {p['b']} (jaccard {p['jaccard']})" for p in report.held_apart]),
        ("records without an abstract", report.without_abstract),
        ("URLs repaired", report.urls_repaired),
        ("markup not converted", report.markup_problems),
        ("files skipped", report.skipped_files),
        ("entries not read as papers", report.records_unread),
        ("not paper lists, skipped", report.not_lists),
    ]
    for title, lines in sections:
        if lines:
            out.print(f"{title}: {len(lines):,}")
            for line in lines[:REPORT_EXAMPLES]:
                out.print(f"  {escape(line)}")
            if len(lines) > REPORT_EXAMPLES:
                out.print(f"  … and {len(lines) - REPORT_EXAMPLES:,} more (--json lists all)")


@app.command()
def papers(
    ctx: typer.Context,
    db: DbOption = None,
    order: Annotated[str, typer.Option(help="Sort by id, venue, year or title.")] = "id",
    limit: Annotated[int, typer.Option(min=1, help="How many papers to list.")] = 100,
    offset: Annotated[int, typer.Option(min=0, help="How many to skip first.")] = 0,
    as_json: JsonOption = False,
) -> None:
    """List the papers in the library.

    Example: paperscope papers --order venue --limit 20
    """
    with _library(ctx, db) as library:
        reply = responses.papers_reply(library.papers(order, limit, offset), library.count(), offset, limit)
    if as_json:
        _print_json(reply)
        return
    total, rows = reply["total"], reply["papers"]
    table = Table("id", "display title", "venue", "year", "sources", title=_count(total, "paper"), title_justify="left")
    for row in rows:
        table.add_row(
            row["id"], _shown(row["display_title"]), row["venue"] or "", str(row["year"] or ""), str(row["sources"])
        )
    out.print(table)
    if total > offset + len(rows):
        out.print(f"showing {offset + 1}–{offset + len(rows)} of {total:,}; use --offset {offset + len(rows)} for more")


@app.command()
def show(
    ctx: typer.Context,
    paper_id: Annotated[str, typer.Argument(metavar="ID", help="The paper's id.", show_default=False)],
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Show one paper: clean abstract, name, links and every source it was read from.

    Example: paperscope show 2mq7c4ux3a5b
    """
    with _library(ctx, db) as library:
        paper = library.paper(paper_id)
    if as_json:
        _print_json(responses.paper_reply(paper))
    else:
        _print_paper(paper)


def _count(number: int, noun: str) -> str:
    """ "1 file", "92,874 records": grouped by thousands, the noun in its number."""
    return f"{number:,} {noun}{'' if number == 1 else 's'}"


def _shown(text: str) -> str:
    """Text for the terminal: formulas as Unicode (× ≤ Ω √, as the web pages show them), markup escaped."""
    return escape(to_unicode(text))


def _print_paper(paper: Paper) -> None:
    out.print(f"[bold]{_shown(paper.display_title)}[/bold]")
    facts = [paper.id, " ".join(str(x) for x in (paper.venue, paper.year) if x), paper.status or ""]
    out.print(" · ".join(f for f in facts if f), style="dim")
    if paper.name:
        expansion = f" — {paper.name_expansion}" if paper.name_expansion else ""
        out.print(f"name: {escape(paper.name)}{_shown(expansion)}")
    if paper.authors:
        out.print(f"authors: {escape(', '.join(paper.authors))}")
    out.print(f"contribution: {paper.contribution}")
    for label, names in (("models", paper.models), ("benchmarks", paper.benchmarks)):
        if names:
            out.print(f"{label}: {escape(', '.join(names))}")
    out.print()
    out.print(_shown(paper.abstract or "(no abstract)"))
    out.print()
    for label, urls in (
        ("code", paper.urls.code),
        ("link", paper.urls.other),
        ("pdf", [paper.urls.pdf] if paper.urls.pdf else []),
        ("site", [paper.urls.site] if paper.urls.site else []),
    ):
        for url in urls:
            out.print(f"{label}: {escape(url)}")
    if paper.claims:
        table = Table("claim", "change", "metric", "benchmark", "baseline", title="claims", title_justify="left")
        for claim in paper.claims:
            shown = (claim.value, claim.direction, claim.metric, claim.benchmark, claim.baseline)
            table.add_row(*(_shown(x or "") for x in shown))
        out.print(table)
    for source in paper.sources:
        listing = f"  ({escape(source.listing)})" if source.listing else ""
        out.print(f"source: {escape(source.path)}:{source.line}{listing}  [{source.format}]", highlight=False)


@app.command()
def search(
    ctx: typer.Context,
    query: Annotated[
        str,
        typer.Argument(
            help='Words, "phrases", -excluded, title:/author:/name:/benchmark:, venue:ICML, year:2024..2026.',
            show_default=False,
        ),
    ],
    db: DbOption = None,
    limit: Annotated[int, typer.Option(min=1, max=1000, help="How many results.")] = 10,
    venue: VenueOption = None,
    year: YearOption = None,
    contribution: ContributionOption = None,
    has_code: HasCodeOption = None,
    mode: ModeOption = "hybrid",
    syntax: Annotated[str, typer.Option(help="words (any text is safe) or fts (raw FTS5 syntax, lexical).")] = "words",
    as_json: JsonOption = False,
) -> None:
    """Search titles, names, abstracts, models and benchmarks by words and by meaning, best first.

    Example: paperscope search "speculative decoding" --has-code
    """
    filters = Filters.parse(venue, year, contribution, has_code)
    with _library(ctx, db) as library:
        if syntax == "words":  # the page and its total as the web pages and the API give them
            found = library.search_page(query, limit, 0, filters, mode)
        else:  # raw FTS5 syntax ranks `limit` papers: one more says whether more match
            hits = library.search(query, limit + 1, filters, syntax, mode)
            shown = hits[:limit]
            found = SearchPage(shown, len(shown), {}, len(hits) > limit or len(hits) == MAX_RESULTS)
        searched_as = library.searched_as(query, mode, syntax)
    reply = responses.search_reply(query, mode, searched_as, found, limit=limit)
    if as_json:
        _print_json(reply)
        return
    total, rows = found.total, reply["results"]
    if searched_as:
        out.print(f"[dim]searched as: {escape(searched_as)}[/dim]", highlight=False)
    if not rows:
        out.print("no papers match" + (f": {NO_VECTORS}" if found.without_vectors else ""))
    else:
        # by meaning every paper is near in some degree: the count is of papers ranked, not of matches
        matched = "papers ranked by meaning" if mode == "semantic" else "papers match"
        matching = f"{total:,}{'+' if found.capped else ''} {matched}"
        more = total > len(rows) or found.capped
        out.print(f"[dim]{matching}; the first {len(rows)}:[/dim]" if more else f"[dim]{matching}[/dim]")
    for row, hit in zip(rows, found.hits, strict=True):
        out.print(
            f"[bold]{row['rank']}. {_shown(row['display_title'])}[/bold]  [dim]{row['id']} · "
            f"{row['venue'] or ''} {row['year'] or ''}{' · ' + _shown(row['status']) if row['status'] else ''}"
            f" · score {row['score']:.3g}[/dim]"
        )
        snippet = _shown(hit.snippet or row["snippet"]).replace("\x02", "[yellow]").replace("\x03", "[/yellow]")
        out.print(f"   {snippet}" if snippet else "   [dim](no abstract)[/dim]", highlight=False)


@app.command()
def export(
    ctx: typer.Context,
    db: DbOption = None,
    fmt: Annotated[str, typer.Option("--format", "-f", help=f"One of: {', '.join(FORMATS)}.")] = "jsonl",
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write to this file (- or none: standard output).")
    ] = None,
    ids: Annotated[list[str] | None, typer.Option("--id", help="Only these papers (repeatable).")] = None,
    query: Annotated[str | None, typer.Option("--query", "-q", help="Only the results of this search.")] = None,
    limit: Annotated[int, typer.Option(min=1, max=MAX_RESULTS, help="How many results of --query.")] = 100,
    venue: VenueOption = None,
    year: YearOption = None,
    contribution: ContributionOption = None,
    has_code: HasCodeOption = None,
    mode: ModeOption = "hybrid",
    tag_name: Annotated[str | None, typer.Option("--tag", help="Only the papers with this tag.")] = None,
    reading_list: Annotated[bool, typer.Option("--reading-list", help="Only the papers on the reading list.")] = False,
    bom: Annotated[bool, typer.Option("--bom", help="Start with a UTF-8 byte order mark (for spreadsheets).")] = False,
    accepted_only: Annotated[
        bool, typer.Option("--accepted-only", help="Leave out papers rejected, withdrawn or under review.")
    ] = False,
) -> None:
    """Export papers: the data contract (jsonl, json), bibtex, ris, csl-json, csv or markdown.

    Example: paperscope export --format bibtex --query "speculative decoding" -o decoding.bib
    """
    export_format(fmt)  # an unknown format is refused before the library is opened
    filters = Filters.parse(venue, year, contribution, has_code)
    with _library(ctx, db) as library:
        chosen = ids if ids or not query else [h.paper.id for h in library.search(query, limit, filters, mode=mode)]
        if tag_name or reading_list:
            chosen = [p.id for p in Personal(library).listed(tag_name)]
        if output is None or str(output) == "-":
            library.export(fmt, sys.stdout, chosen, filters, bom=bom, accepted_only=accepted_only)
            return
        with replacing(output) as partial, partial.open("w", encoding="utf-8", newline="") as handle:
            library.export(fmt, handle, chosen, filters, bom=bom, accepted_only=accepted_only)
    err.print(f"wrote {output}")


@app.command()
def related(
    ctx: typer.Context,
    paper_id: Annotated[str, typer.Argument(metavar="ID", help="The paper's id.", show_default=False)],
    db: DbOption = None,
    limit: Annotated[int, typer.Option(min=1, max=50, help="How many related papers.")] = 10,
    as_json: JsonOption = False,
) -> None:
    """The papers most like this one, each with the reason (similar abstract, shared benchmarks, models).

    Example: paperscope related drqlcr3nir3z
    """
    with _library(ctx, db) as library:
        reply = responses.related_reply(paper_id, library.related(paper_id, limit))
    if as_json:
        _print_json(reply)
        return
    found = reply["related"]
    if not found:
        out.print("no related papers found")
    for rank, row in enumerate(found, start=1):
        out.print(f"[bold]{rank}. {_shown(row['display_title'])}[/bold]  [dim]{row['id']}[/dim]")
        out.print(f"   {escape(row['reason'])}", highlight=False)


TOPICS_HELP = (
    "How many topics (default: the count near sqrt(papers / 2), 2–60, whose clusters are the most distinct);"
    " recomputes them."
)


@app.command()
def topics(
    ctx: typer.Context,
    db: DbOption = None,
    count: Annotated[int | None, typer.Option("--topics", min=2, max=200, help=TOPICS_HELP)] = None,
    again: Annotated[
        bool, typer.Option("--again", help="Make the topics again from every paper (new papers are placed among them).")
    ] = False,
    as_json: JsonOption = False,
) -> None:
    """The topics of the library: label, size and the papers nearest each topic's centre.

    Example: paperscope topics --topics 12
    """
    with _library(ctx, db) as library, _progress() as report:
        found = library.analyze(count, report) if count or again or not library.topics() else library.topics()
        reply = responses.topics_reply(library, found)
    if as_json:
        _print_json(reply)
        return
    rows = reply["topics"]
    table = Table("topic", "papers", "about", title=_count(len(rows), "topic"), title_justify="left")
    for row in sorted(rows, key=lambda r: -r["size"]):
        table.add_row(
            escape(row["label"]), f"{row['size']:,}", "\n".join(_shown(p["display_title"]) for p in row["papers"])
        )
    out.print(table)


@app.command("map")
def draw_map(
    ctx: typer.Context,
    output: Annotated[
        Path,
        typer.Option(
            "--output", "-o", help="An .svg or .png file; - writes the SVG to standard output.", show_default=False
        ),
    ],
    db: DbOption = None,
) -> None:
    """Draw the map of all papers, coloured by topic, to an SVG or PNG file.

    Example: paperscope map -o map.svg
    """
    from paperscope.analyze.charts import topic_map  # imported here: colorcet and matplotlib cost other commands 0.6 s
    from paperscope.analyze.plot import draw_topic_map

    to_stdout = str(output) == "-"
    if not to_stdout and output.suffix.lower() not in (".svg", ".png"):
        raise PaperscopeError(f"{output}: the map is drawn as .svg or .png")
    with _library(ctx, db) as library:
        points = library.map_points()
        labels = {t.id: t.label for t in library.topics()}
    if not points:
        raise PaperscopeError("no map yet: the papers need vectors first (paperscope embed)")
    if to_stdout:
        sys.stdout.write(topic_map(points, labels, link=None))
        return
    draw_topic_map(points, labels, output)
    err.print(f"wrote {output} ({len(points)} papers, {len(labels)} topics)")


@app.command()
def stats(ctx: typer.Context, db: DbOption = None, as_json: JsonOption = False) -> None:
    """Papers per venue and year, contribution and topic; top benchmarks and models; share with code.

    Example: paperscope stats
    """
    with _library(ctx, db) as library:
        found = library.stats()
    if as_json:
        _print_json(responses.stats_reply(found))
        return
    out.print(f"[bold]{found.papers:,}[/bold] papers, {found.with_code:,} with code ({found.code_share:.0%})")
    for title, rows in (
        ("venue and year", found.venues),
        ("contribution", found.contributions),
        ("topic", found.topics),
        ("benchmark", found.benchmarks),
        ("model", found.models),
    ):
        if rows:
            shown = largest(rows)
            more = len(shown) < len(rows)
            caption = f"{title}: the {len(shown)} largest of {len(rows):,} (--json lists all)" if more else None
            out.print(_bar_table(title, shown, caption))


def _bar_table(title: str, rows: list[tuple[str, int]], caption: str | None = None) -> Table:
    most = max(count for _, count in rows) or 1
    table = Table(title, Column("papers", justify="right"), "", title=caption, title_justify="left", box=None)
    for label, count in rows:
        table.add_row(escape(str(label)), f"{count:,}", "[blue]" + "█" * max(1, round(30 * count / most)) + "[/blue]")
    return table


@app.command()
def benchmarks(
    ctx: typer.Context,
    name: Annotated[str | None, typer.Argument(help="One benchmark (else: every benchmark and its count).")] = None,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Benchmarks named in the list and the results papers claim on them (as extracted, not verified).

    Example: paperscope benchmarks GSM8K
    """
    with _library(ctx, db) as library:
        if name is None:
            entries = library.stats().by_benchmark
            if as_json:
                _print_json(responses.benchmarks_reply(library.stats()))
            else:
                out.print(_bar_table("benchmark", [(_with_variants(b), b.papers) for b in entries]))
            return
        found = library.benchmark(name)
    if as_json:
        _print_json(responses.benchmark_reply(found))
        return
    table = Table(
        "paper",
        "claim",
        "metric",
        "baseline",
        "sentence",
        title=f"{_with_variants(found)}: claims as extracted, not verified",
        title_justify="left",
    )
    for claim in found.claims:
        value = claim.value if claim.benchmark == found.name else f"{claim.value} ({claim.benchmark})"
        table.add_row(
            _shown(claim.display_title),
            _shown(value),
            escape(claim.metric or ""),
            escape(claim.baseline or ""),
            _shown(claim.text),
        )
    out.print(table if found.claims else f"papers name {found.name}, but no claim on it was extracted")


def _with_variants(benchmark: Benchmark) -> str:
    others = [v for v, _ in benchmark.variants if v != benchmark.name]
    return f"{benchmark.name} ({', '.join(others)})" if others else benchmark.name


@contextmanager
def personal(ctx: typer.Context, db: str | None) -> Iterator[tuple[Library, Personal]]:
    library = _library(ctx, db)
    try:
        yield library, Personal(library, ctx.find_root().obj.reader)
    finally:
        library.close()


StateOption = Annotated[str, typer.Option("--state", help="to read, reading, read, or none (off the list).")]


@app.command()
def tag(
    ctx: typer.Context,
    paper_id: Annotated[str, typer.Argument(metavar="ID", help="The paper's id.", show_default=False)],
    tags: Annotated[list[str], typer.Argument(metavar="TAG...", help="One or more tags.", show_default=False)],
    db: DbOption = None,
    remove: Annotated[bool, typer.Option("--remove", help="Take the tags off instead.")] = False,
) -> None:
    """Tag a paper (any number of tags); tags survive re-ingesting the lists.

    Example: paperscope tag drqlcr3nir3z optimisation agents
    """
    with personal(ctx, db) as (_, mine):
        for name in tags:
            mine.tag(paper_id, name, on=not remove)
        now = ", ".join(t for t, _ in mine.tags(paper_id.lower())) or "none"
    out.print(f"{paper_id}: tags {escape(now)}")


@app.command("tags")
def list_tags(ctx: typer.Context, db: DbOption = None, as_json: JsonOption = False) -> None:
    """Every tag and how many papers carry it.

    Example: paperscope tags
    """
    with personal(ctx, db) as (_, mine):
        rows = mine.tags()
    if as_json:
        _print_json(responses.tags_reply(rows))
        return
    out.print(_bar_table("tag", rows) if rows else "no tags yet (paperscope tag ID TAG)")


@app.command()
def read(
    ctx: typer.Context,
    paper_id: Annotated[str, typer.Argument(metavar="ID", help="The paper's id.", show_default=False)],
    db: DbOption = None,
    state: StateOption = "read",
) -> None:
    """Mark a paper read, or set its reading-list state with --state ("to read", reading, read, none).

    Example: paperscope read drqlcr3nir3z --state reading
    """
    with personal(ctx, db) as (_, mine):
        mine.set_state(paper_id, None if state == "none" else state.replace("-", " "))
    out.print(f"{paper_id}: {state}")


@app.command()
def queue(
    ctx: typer.Context,
    paper_id: Annotated[str, typer.Argument(metavar="ID", help="The paper's id.", show_default=False)],
    db: DbOption = None,
) -> None:
    """Put a paper on the reading list, to read.

    Example: paperscope queue drqlcr3nir3z
    """
    with personal(ctx, db) as (_, mine):
        mine.set_state(paper_id, "to read")
    out.print(f"{paper_id}: to read")


@app.command()
def note(
    ctx: typer.Context,
    paper_id: Annotated[str, typer.Argument(metavar="ID", help="The paper's id.", show_default=False)],
    text: Annotated[str | None, typer.Argument(help="The note (markdown); none prints the note.")] = None,
    db: DbOption = None,
    file: Annotated[Path | None, typer.Option("--file", help="Read the note from this file.")] = None,
) -> None:
    """Write (or show) a note on a paper, in markdown; an empty note deletes it.

    Example: paperscope note drqlcr3nir3z "Compare with **PMVB**."
    """
    if file is not None:
        try:
            text = file.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise PaperscopeError(f"{file}: cannot read the note: {error.__class__.__name__}") from None
    with personal(ctx, db) as (_, mine):
        if text is None:
            out.print(escape(mine.note(paper_id.lower()) or "(no note)"))
            return
        mine.set_note(paper_id, text)
    out.print(f"{paper_id}: note saved")


@app.command("list")
def reading_list(
    ctx: typer.Context,
    db: DbOption = None,
    tag_name: Annotated[str | None, typer.Option("--tag", help="Only papers with this tag.")] = None,
    state: Annotated[str | None, typer.Option("--state", help="Only papers in this state.")] = None,
    as_json: JsonOption = False,
) -> None:
    """The reading list (every paper with a state), or the papers with a tag.

    Example: paperscope list --tag agents
    """
    with personal(ctx, db) as (_, mine):
        reply = responses.list_reply(mine, mine.listed(tag_name, state))
    if as_json:
        _print_json(reply)
        return
    rows = reply["papers"]
    table = Table("id", "display title", "state", "tags", title=_count(len(rows), "paper"), title_justify="left")
    for row in rows:
        table.add_row(row["id"], _shown(row["display_title"]), row["state"] or "", escape(", ".join(row["tags"])))
    out.print(table)


@app.command("not-relevant")
def not_relevant(
    ctx: typer.Context,
    paper_ids: Annotated[list[str], typer.Argument(metavar="ID...", help="The papers' ids.", show_default=False)],
    db: DbOption = None,
    undo: Annotated[bool, typer.Option("--undo", help="Take the mark off instead.")] = False,
) -> None:
    """Mark papers not relevant to you: never suggested again, and what recommendations steer away from.

    Example: paperscope not-relevant drqlcr3nir3z
    """
    with personal(ctx, db) as (_, mine):
        for paper_id in paper_ids:
            mine.mark_not_relevant(paper_id, on=not undo)
    out.print(f"{', '.join(paper_ids)}: {'relevant again' if undo else NOT_RELEVANT}")


@app.command()
def recommend(
    ctx: typer.Context,
    db: DbOption = None,
    tag_name: Annotated[
        str | None, typer.Option("--tag", help="Like the papers with this tag (default: the reading list).")
    ] = None,
    limit: Annotated[int, typer.Option(min=1, max=200, help="How many suggestions.")] = 10,
    as_json: JsonOption = False,
) -> None:
    """Papers like the ones you tagged (or queued) and unlike those marked not relevant, each with why:
    the nearest liked paper and the key phrases both use.

    Example: paperscope recommend --tag agents
    """
    with personal(ctx, db) as (_, mine):
        reply = responses.recommend_reply(tag_name, mine.recommend(tag_name, limit))
    if as_json:
        _print_json(reply)
        return
    for rank, row in enumerate(reply["suggestions"], start=1):
        out.print(f"[bold]{rank}. {_shown(row['display_title'])}[/bold]  [dim]{row['id']}[/dim]")
        out.print(f"   {escape(row['reason'])}", highlight=False)


@app.command()
def save(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="A name for the search.", show_default=False)],
    query: Annotated[str, typer.Argument(help="The query, as for search.", show_default=False)],
    db: DbOption = None,
    mode: ModeOption = "hybrid",
    venue: VenueOption = None,
    year: YearOption = None,
    contribution: ContributionOption = None,
    has_code: HasCodeOption = None,
) -> None:
    """Save a search; `paperscope news` then shows what later ingests added that it finds.

    Example: paperscope save decoding "speculative decoding"
    """
    with personal(ctx, db) as (_, mine):
        mine.save_search(name, query, mode, Filters.parse(venue, year, contribution, has_code))
    out.print(f"saved search {escape(name)!r}")


@app.command()
def news(
    ctx: typer.Context,
    db: DbOption = None,
    peek: Annotated[bool, typer.Option("--peek", help="Show without marking the news as seen.")] = False,
    as_json: JsonOption = False,
) -> None:
    """For each saved search, the papers added since you last looked that it finds.

    Example: paperscope news
    """
    with personal(ctx, db) as (_, mine):
        found = mine.news(mark_seen=not peek)
    if as_json:
        _print_json(responses.news_reply(found))
        return
    if not found:
        out.print("no saved searches (paperscope save NAME QUERY)")
    for name, hits in found.items():
        out.print(f"[bold]{escape(name)}[/bold]: {len(hits)} new")
        for hit in hits:
            out.print(f"  {_shown(hit.paper.display_title)}  [dim]{hit.paper.id}[/dim]")


@app.command()
def changes(
    ctx: typer.Context,
    db: DbOption = None,
    since: Annotated[
        str | None,
        typer.Option(help="Every change after this time (ISO 8601); default: the last ingest that changed anything."),
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """What an ingest changed: papers added, withdrawn (removed), or whose status, title or abstract changed.

    Example: paperscope changes
    """
    with personal(ctx, db) as (_, mine):
        found = mine.changes(since)
    if as_json:
        _print_json(responses.changes_reply(found))
        return
    if not found:
        out.print("no changes recorded")
    for kind in ("added", "changed", "removed"):
        rows = [c for c in found if c.kind == kind]
        if rows:
            out.print(f"[bold]{kind}[/bold]: {len(rows)}")
            for change in rows[:50]:
                out.print(f"  {change.paper_id}  {escape(change.detail)}", highlight=False)


fetch_app = typer.Typer(
    help="Fetch a paper list from an API and ingest it (resumable; --save keeps the pages).", no_args_is_help=True
)
app.add_typer(fetch_app, name="fetch")
SaveOption = Annotated[
    Path | None,
    typer.Option(
        "--save",
        help="Keep the fetched pages in this folder (and resume "
        "from it); default: .paperscope-fetch/ beside the library.",
    ),
]
NoEmbedOption = Annotated[bool, typer.Option("--no-embed", help="Leave the sentence vectors for `paperscope embed`.")]


def _fetch_folder(ctx: typer.Context, db: str | None, save: Path | None, name: str) -> Path:
    location = _location(ctx, db)
    beside = Path.cwd() if is_server(location) else Path(location).resolve().parent
    return save or beside / ".paperscope-fetch" / re.sub(r"[^\w.-]+", "_", name)[:100]


def _ingest_fetched(ctx: typer.Context, db: str | None, fetched: Fetched, no_embed: bool) -> None:
    err.print(
        f"{fetched.records} records in {len(fetched.pages)} pages ({fetched.fetched} fetched now, "
        f"{fetched.retries} retries)",
        highlight=False,
    )
    if not fetched.pages:
        raise PaperscopeError("the API returned no papers for that request")
    with _library(ctx, db, create=True) as library, _progress() as report:
        result = library.ingest(fetched.pages, embed_vectors=not no_embed, progress=report)
    _print_report(result)


@fetch_app.command("openreview")
def fetch_openreview(
    ctx: typer.Context,
    venue: Annotated[str, typer.Option(help="The venue id, e.g. ICLR.cc/2025/Conference.", show_default=False)],
    db: DbOption = None,
    accepted: Annotated[bool, typer.Option("--accepted", help="Only accepted papers.")] = False,
    since: Annotated[str | None, typer.Option(help="Only papers submitted after this date (YYYY-MM-DD).")] = None,
    save: SaveOption = None,
    no_embed: NoEmbedOption = False,
) -> None:
    """Fetch a venue's submissions from the OpenReview API (v2), page by page, and ingest them.

    Example: paperscope fetch openreview --venue ICLR.cc/2025/Conference --accepted
    """
    since_ms = None
    if since:
        try:
            since_ms = int(datetime.fromisoformat(since).replace(tzinfo=UTC).timestamp() * 1000)
        except ValueError:
            raise PaperscopeError(f"--since takes a date like 2025-01-31, not {since!r}") from None
    from paperscope.fetch import apis  # imported here: the HTTP client costs every other command its start-up

    folder = _fetch_folder(ctx, db, save, f"openreview-{venue}-{'accepted' if accepted else 'all'}-{since or ''}")
    with _progress() as report:
        fetched = apis.openreview(venue, folder, accepted, since_ms, report)
    _ingest_fetched(ctx, db, fetched, no_embed)


@fetch_app.command("arxiv")
def fetch_arxiv(
    ctx: typer.Context,
    query: Annotated[
        str, typer.Option(help="An arXiv API search, e.g. 'cat:cs.LG AND ti:diffusion'.", show_default=False)
    ],
    db: DbOption = None,
    most: Annotated[int, typer.Option("--max", min=1, max=30_000, help="At most this many papers.")] = 500,
    save: SaveOption = None,
    no_embed: NoEmbedOption = False,
) -> None:
    """Fetch the results of an arXiv search (3 s between requests, as arXiv asks) and ingest them.

    Example: paperscope fetch arxiv --query 'cat:cs.LG AND ti:diffusion' --max 200
    """
    from paperscope.fetch import apis

    folder = _fetch_folder(ctx, db, save, f"arxiv-{query}-{most}")
    with _progress() as report:
        fetched = apis.arxiv(query, folder, most, report)
    _ingest_fetched(ctx, db, fetched, no_embed)


@app.command()
def backup(
    ctx: typer.Context,
    destination: Annotated[Path, typer.Argument(metavar="FILE", help="The copy to write (must not exist).")],
    db: DbOption = None,
) -> None:
    """Copy the library to FILE with SQLite's online backup: consistent, safe while serving or ingesting.

    Example: paperscope backup backups/papers-2026-12-02.db
    """
    with _library(ctx, db) as library:
        library.backup(destination)
    err.print(f"wrote {destination}")


@app.command()
def check(ctx: typer.Context, db: DbOption = None, as_json: JsonOption = False) -> None:
    """Check the library: SQLite's integrity check, and how many files, papers, sources and vectors it holds.

    Example: paperscope check
    """
    with _library(ctx, db) as library:
        found = library.check()
    if as_json:
        _print_json(found)
    else:
        out.print(" · ".join(f"{key} {value}" for key, value in found.items()), highlight=False)
    if found["integrity"] != "ok":
        raise PaperscopeError("the integrity check failed: restore a backup (paperscope backup makes one)")


@app.command()
def copy(
    source: Annotated[
        str, typer.Option("--from", help="The library to copy: a SQLite file or a PostgreSQL URL.", show_default=False)
    ],
    target: Annotated[
        str, typer.Option("--to", help="An empty library to copy into (a new file, or a database).", show_default=False)
    ],
) -> None:
    """Copy a whole library — papers, sources, vectors, the map, every reader's tags, notes and saved
    searches — between SQLite and PostgreSQL (either way), in one transaction of the target.

    Example: paperscope copy --from paperscope.db --to postgresql://me@db.example.org:5432/papers
    """
    with _progress() as report:
        copied = copy_library(_existing(source), target, report)
    out.print(" · ".join(f"{table} {rows:,}" for table, rows in copied.items()), highlight=False)


@app.command()
def serve(
    ctx: typer.Context,
    db: DbOption = None,
    host: Annotated[str, typer.Option(help="The address to listen on (loopback: only this machine).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="The port to listen on.")] = 8000,
    workers: Annotated[
        int, typer.Option(min=1, max=64, help="Server processes answering on the port (one per core is plenty).")
    ] = 1,
) -> None:
    """Serve the web explorer at / and the JSON API under /api (OpenAPI at /docs).

    Example: paperscope serve --port 8000 --workers 2
    """
    from paperscope import serving
    from paperscope.face.security import parse_readers

    path = _existing(_location(ctx, db))
    _library(ctx, path).close()  # upgraded here, with a progress bar, before the server's processes open it
    token = os.environ.get("PAPERSCOPE_TOKEN") or None
    readers = parse_readers(os.environ.get("PAPERSCOPE_TOKENS", ""))
    if token is None and not readers and host not in LOOPBACK:
        token = secrets.token_urlsafe(24)
        err.print(
            f"paperscope: listening beyond this machine; changing data needs the token {token}"
            f" (open http://{host}:{port}/login?token={token} once, or set PAPERSCOPE_TOKEN)",
            highlight=False,
        )

    def ready() -> None:
        err.print(f"paperscope: serving {safe_location(path)} at http://{host}:{port}/ (Ctrl+C stops)", highlight=False)

    serving.run(path, token, readers, ctx.find_root().obj.reader, host, port, workers, ready)


def main() -> None:
    """Entry point: one line on stderr for every error a user can cause, never a traceback."""
    try:
        app()
    except PaperscopeError as error:
        err.print(f"error: {escape(str(error))}", highlight=False, soft_wrap=True)
        sys.exit(1)
    except KeyboardInterrupt:
        err.print("error: interrupted; nothing of the unfinished ingest was written", highlight=False)
        sys.exit(130)
    except OSError as error:  # a file the user named that cannot be written, a folder that is not there
        where = f"{error.filename}: " if error.filename else ""
        err.print(f"error: {escape(where + (error.strerror or str(error)))}", highlight=False, soft_wrap=True)
        sys.exit(1)
    except Exception as error:  # a bug: still one line, with what to report
        err.print(f"error: internal error: {error.__class__.__name__}: {escape(str(error))}", highlight=False)
        sys.exit(2)
