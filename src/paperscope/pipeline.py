"""ingest(paths, store): read → normalize → dedupe → extract → store, as one transaction."""

from __future__ import annotations

import gc
import hashlib
import time
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Executor, Future
from contextlib import ExitStack, contextmanager
from dataclasses import asdict, dataclass, field
from itertools import chain, islice
from pathlib import Path

from paperscope import citekeys, dedupe, workers
from paperscope.assemble import VERSION, Prepared, assemble, first_families, prepare
from paperscope.errors import InputError, PaperscopeError
from paperscope.model import Paper, RawRecord, Unread
from paperscope.progress import Progress
from paperscope.sources import format_of, parse_options
from paperscope.sources.format import InputFormat
from paperscope.store import LibraryPaper, Store

MAX_FILES = 10_000
BATCH = 10_000  # records prepared, grouped and written at a time: what bounds an ingest's memory
CHUNK = 250  # records a worker process prepares per job
AHEAD = 2  # batches the workers may prepare ahead of the one being written
_WRITE_BATCH = 2_000  # papers held before they are written
MADE_BY = "papers made by"  # the library fact naming the version of assemble that made its papers
REMAKE_BATCH = 500  # papers made again between two reports of progress
PARALLEL_ABOVE = 4_000  # records; below this, starting worker processes costs more than it saves
# Files a folder holds beside its lists: never read as lists (a README would pass as a listing page).
NOT_LIST_SUFFIXES = {
    ".md",
    ".markdown",
    ".rst",
    ".adoc",
    ".pdf",
    ".png",
    ".jpg",
    ".jpeg",
    ".gif",
    ".svg",
    ".webp",
    ".py",
    ".sh",
    ".toml",
    ".yml",
    ".yaml",
    ".ini",
    ".cfg",
    ".log",
    ".zip",
    ".tar",
    ".db",
    ".sqlite",
}
NOT_LIST_NAMES = {"readme", "license", "licence", "changelog", "notice", "copying", "authors", "makefile"}


@dataclass
class IngestReport:
    """What an ingest did and what was wrong with the lists: the CLI prints it, --json dumps it."""

    files_read: int = 0
    files_unchanged: int = 0
    records_read: int = 0
    papers_created: int = 0
    papers_updated: int = 0
    papers_unchanged: int = 0
    papers_removed: int = 0
    # papers an earlier version of paperscope made (assemble.VERSION), made again from their stored records,
    # and how many of them changed
    papers_remade: int = 0
    papers_remade_changed: int = 0
    duplicates_merged: list[list[str]] = field(default_factory=list)  # each: the sources of one paper
    near_duplicates: list[dict] = field(default_factory=list)
    held_apart: list[dict] = field(default_factory=list)
    without_abstract: list[str] = field(default_factory=list)
    urls_repaired: list[str] = field(default_factory=list)
    markup_problems: list[str] = field(default_factory=list)
    skipped_files: list[str] = field(default_factory=list)
    records_unread: list[str] = field(default_factory=list)  # "file:line: why" for entries that are not papers
    not_lists: list[str] = field(default_factory=list)  # files in a folder that are no paper list (a README)
    vectors_computed: int = 0  # sentence vectors embedded after the ingest
    vectors_missing: int = 0  # papers still without one (ingest --no-embed; `paperscope embed` fills them)
    seconds: dict[str, float] = field(default_factory=dict)  # per stage: read, prepare, store, embed

    @property
    def papers(self) -> int:
        return self.papers_created + self.papers_updated + self.papers_unchanged

    @property
    def records_merged(self) -> int:
        """Records that joined another record's paper, in this ingest or an earlier one."""
        return self.records_read - self.papers

    @property
    def errors(self) -> int:
        return len(self.skipped_files)

    def to_dict(self) -> dict:
        return {**asdict(self), "papers": self.papers, "records_merged": self.records_merged, "errors": self.errors}


@dataclass
class _File:
    path: Path
    sha256: str
    format: str
    count: int  # records read from it


def discover(paths: Sequence[str | Path]) -> list[tuple[Path, bool]]:
    """The files to read, each with whether a folder held it: the paths given, folders expanded
    (sorted, hidden files left out)."""
    files: list[tuple[Path, bool]] = []
    for given in map(Path, paths):
        if not given.exists():
            raise InputError(str(given), None, "no such file or folder")
        if given.is_dir():
            found = sorted(p for p in given.rglob("*") if p.is_file() and not _hidden(p.relative_to(given)))
            if not found:
                raise InputError(str(given), None, "folder holds no files to read")
            files.extend((path, True) for path in found)
        else:
            files.append((given, False))
    if len(files) > MAX_FILES:
        raise PaperscopeError(f"{len(files):,} files in one ingest; the limit is {MAX_FILES:,}")
    first: dict[Path, bool] = {}
    for path, in_folder in files:
        first.setdefault(path, in_folder)
    return list(first.items())


def _hidden(relative: Path) -> bool:
    return any(part.startswith(".") for part in relative.parts)


def ingest(
    paths: Sequence[str | Path],
    store: Store,
    *,
    skip_bad: bool = False,
    progress: Progress | None = None,
    options: Mapping[str, Sequence[str]] | None = None,
) -> IngestReport:
    """Read every file, and store what is new in one transaction. Unchanged files are skipped.

    `options` are the input formats' options as given (`{"map": ["Paper Title=title"]}`), each
    passed to the format that declares it.
    """
    parsed = parse_options(options or {})
    report = IngestReport()
    with _collected_per_batch() as collect, store.bulk():
        _ingest(paths, store, report, skip_bad, progress, parsed, collect)
    return report


@contextmanager
def _collected_per_batch() -> Iterator[Callable[[], None]]:
    """The cycle collector off for the ingest, and a pass to run after each batch over that batch's
    objects alone.

    Left on, the collector's repeated full passes over 100k records took a third of the time. Left
    off for good, cycles were never freed, and a cycle can hold a whole batch: pylatexenc's parse
    errors keep their tracebacks, and a traceback keeps its callers' frames with their locals (5 KB a
    record, 1.4 GB of the writer's memory at 370k records). After each pass what survives is frozen,
    so the next pass looks only at what is new.
    """
    enabled = gc.isenabled()
    gc.disable()

    def collect() -> None:
        gc.collect()
        gc.freeze()

    try:
        yield collect
    finally:
        gc.unfreeze()
        if enabled:
            gc.enable()


def _ingest(
    paths: Sequence[str | Path],
    store: Store,
    report: IngestReport,
    skip_bad: bool,
    progress: Progress | None,
    options: Mapping[str, object],
    collect: Callable[[], None],
) -> None:
    """Files are read, prepared and written a batch at a time, so that memory stays bounded whatever
    the input's size; the one transaction opens with the first batch and commits after the last."""
    writer = _Writer(store, report, progress)
    records = _read(_changed_files(discover(paths), store, report), writer, report, skip_bad, progress, options)
    with ExitStack() as transaction:
        opened = False
        for batch in _prepared_batches(records, report, progress):
            if not opened:
                transaction.enter_context(store.transaction())
                opened = True
            with _timed(report, "store"):
                writer.write(batch)
            with _timed(report, "collect"):
                collect()
        if not opened:
            transaction.enter_context(store.transaction())
        with _timed(report, "finish"):
            writer.finish()
            transaction.close()  # the commit


@contextmanager
def _timed(report: IngestReport, stage: str) -> Iterator[None]:
    """Adds the time spent inside to the stage's total in the report, and the processor time to
    `{stage}_cpu` (on a busy machine, the wall time says more about the neighbours)."""
    started, cpu = time.perf_counter(), time.process_time()
    try:
        yield
    finally:
        report.seconds[stage] = report.seconds.get(stage, 0.0) + time.perf_counter() - started
        report.seconds[f"{stage}_cpu"] = report.seconds.get(f"{stage}_cpu", 0.0) + time.process_time() - cpu


def _not_a_list(path: Path) -> str | None:
    """Why a file a folder holds is no paper list (None: it may be one)."""
    try:
        _format_of(path)
    except InputError as error:
        why = error.problem if error.problem.startswith("not a paper list") else f"not a paper list ({error.problem})"
        return f"{path}: {why}"
    return None


def _format_of(path: Path) -> InputFormat:
    """The input format of a file, unless its name says it is no list: a README would pass as a listing page."""
    if path.suffix.lower() in NOT_LIST_SUFFIXES or path.stem.lower() in NOT_LIST_NAMES:
        raise InputError(path.name, None, f"not a paper list ({path.suffix or path.name})")
    return format_of(path)


def _changed_files(paths: list[tuple[Path, bool]], store: Store, report: IngestReport) -> list[tuple[Path, str]]:
    """The lists to read, each with its SHA-256: files whose content the library does not hold yet.
    All are hashed before anything is written, so two copies of one new list are both read."""
    changed = []
    for path, in_folder in paths:
        why = _not_a_list(path) if in_folder else None
        if why:
            report.not_lists.append(why)
            continue
        sha256 = hashlib.sha256(path.read_bytes()).hexdigest()
        known = store.file_by_path(str(path.resolve()))
        if (known and known.sha256 == sha256) or (not known and store.has_file_hash(sha256)):
            report.files_unchanged += 1
        else:
            changed.append((path, sha256))
    return changed


def _read(
    files: list[tuple[Path, str]],
    writer: _Writer,
    report: IngestReport,
    skip_bad: bool,
    progress: Progress | None,
    options: Mapping[str, object],
) -> Iterator[tuple[RawRecord, str]]:
    """Each file's records with the file's hash, a whole file at a time: a bad file is skipped (or
    raises) before any of its records go on."""
    for done, (path, sha256) in enumerate(files, start=1):
        with _timed(report, "read"):
            try:
                source_format = _format_of(path)
                records = []
                for record in source_format.records(path, options):
                    if isinstance(record, Unread):
                        report.records_unread.append(f"{record.source.path}:{record.source.line}: {record.reason}")
                    else:
                        records.append(record)
            except InputError as error:
                if not skip_bad:
                    raise
                report.skipped_files.append(str(error))
                continue
        writer.add_file(_File(path, sha256, source_format.name, len(records)))
        report.files_read += 1
        report.records_read += len(records)
        if progress:
            progress("files", done, len(files))
        yield from ((record, sha256) for record in records)


def _prepared_batches(
    jobs: Iterator[tuple[RawRecord, str]], report: IngestReport, progress: Progress | None
) -> Iterator[list[Prepared]]:
    """The records prepared, in reading order, about BATCH at a time. Above PARALLEL_ABOVE records
    they are prepared in worker processes, up to AHEAD batches ahead of the one being written."""
    first = list(islice(jobs, PARALLEL_ABOVE))
    if not _in_workers(len(first)):
        with _timed(report, "prepare"):
            prepared = [prepare(*job) for job in first]
        if progress:
            progress("records", len(prepared), len(prepared))
        for start in range(0, len(prepared), BATCH):
            yield prepared[start : start + BATCH]
        return
    pool = workers.pool(workers.processes())
    try:
        batch: list[Prepared] = []
        for prepared in _prepared_in(pool, chain(first, jobs), report, progress):
            batch += prepared
            if len(batch) >= BATCH:
                yield batch
                batch = []
        if batch:
            yield batch
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _prepared_in(
    pool: Executor, jobs: Iterator[tuple[RawRecord, str]], report: IngestReport, progress: Progress | None
) -> Iterator[list[Prepared]]:
    """Chunks of prepared records, in order, with at most AHEAD batches of records in the workers."""
    pending: deque[Future] = deque()
    done = 0

    def collect() -> list[Prepared]:
        nonlocal done
        with _timed(report, "prepare"):
            prepared, seconds = pending.popleft().result()
        report.seconds["prepare_workers"] = report.seconds.get("prepare_workers", 0.0) + seconds
        done += len(prepared)
        if progress:
            progress("records", done, report.records_read)
        return prepared

    while chunk := list(islice(jobs, CHUNK)):
        pending.append(pool.submit(_prepare_chunk, chunk))
        if len(pending) * CHUNK > AHEAD * BATCH:
            yield collect()
    while pending:
        yield collect()


def _in_workers(count: int) -> bool:
    """Whether `count` records (or papers) are prepared in worker processes."""
    return count >= PARALLEL_ABOVE and workers.processes() > 1


def _prepare_chunk(jobs: list[tuple[RawRecord, str]]) -> tuple[list[Prepared], float]:
    """Run in a worker: the records prepared, and the processor time it took."""
    started = time.process_time()
    return [prepare(*job) for job in jobs], time.process_time() - started


def _prepared_sources(store: Store, paper_ids: list[str]) -> Iterator[dict[str, list[Prepared]]]:
    """The stored records of `paper_ids` prepared again, REMAKE_BATCH papers at a time; above
    PARALLEL_ABOVE papers in worker processes, which prepare the next batch while this one is written."""
    batches = (paper_ids[start : start + REMAKE_BATCH] for start in range(0, len(paper_ids), REMAKE_BATCH))
    records = ({paper_id: store.source_records(paper_id) for paper_id in batch} for batch in batches)
    if not _in_workers(len(paper_ids)):
        for read in records:
            yield {paper_id: [prepare(record, "") for record in rows] for paper_id, rows in read.items()}
        return
    pool = workers.pool(workers.processes())
    try:
        pending: deque[tuple[dict[str, list[RawRecord]], list[Future]]] = deque()
        for read in records:
            jobs = [(record, "") for rows in read.values() for record in rows]
            pending.append(
                (read, [pool.submit(_prepare_chunk, jobs[at : at + CHUNK]) for at in range(0, len(jobs), CHUNK)])
            )
            if len(pending) > 1:
                yield _regrouped(*pending.popleft())
        while pending:
            yield _regrouped(*pending.popleft())
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _regrouped(read: dict[str, list[RawRecord]], chunks: list[Future]) -> dict[str, list[Prepared]]:
    """The prepared records of `chunks` given back to the papers whose records `read` holds, in order."""
    prepared = iter([item for chunk in chunks for item in chunk.result()[0]])
    return {paper_id: list(islice(prepared, len(rows))) for paper_id, rows in read.items()}


class _Writer:
    """Writes batch after batch of prepared records into the open transaction. Each batch is grouped
    with the papers stored so far, this ingest's earlier batches included (the transaction sees its
    own writes); what the report counts is settled once, at the end."""

    def __init__(self, store: Store, report: IngestReport, progress: Progress | None = None) -> None:
        self.store, self.report, self.progress = store, report, progress
        self.unregistered: list[_File] = []  # read, not yet written to the files table
        self.file_ids: dict[str, int] = {}
        self.touched: set[str] = set()  # papers that lost sources because a new version of their list came in
        self.keys: dict[str, str] = {}  # the keys of touched papers, as candidates showed them
        self.rewritten: dict[str, str] = {}  # papers stored before this ingest that it rewrote: their outcome
        self.merged: dict[str, list[str]] = {}  # the sources of each paper with several that this ingest joined
        # Whether every stored paper has its citation key: then the keys of the papers this ingest
        # creates are made from the papers at hand, not read back (a library made before keys were
        # stored gets its missing keys from the stored papers).
        self.keyed = not store.papers_without_cite_key(limit=1)
        self.created: dict[str, str] = {}  # papers this ingest created → what their key is made from (keyed)

    def add_file(self, read: _File) -> None:
        self.unregistered.append(read)

    def _register_files(self) -> None:
        for f in self.unregistered:
            self.file_ids[f.sha256], affected = self.store.put_file(
                str(f.path.resolve()), f.path.name, f.sha256, f.format, f.count
            )
            self.touched |= affected
        self.unregistered.clear()

    def write(self, prepared: list[Prepared]) -> None:
        self._register_files()
        library = self.store.candidates(
            (p.key for p in prepared),
            (band for p in prepared for band in p.unit.bands),
            (p.unit.title for p in prepared if p.unit.title),
            (identity for p in prepared for identity in p.unit.ids),
        )
        units = [_library_unit(paper) for paper in library] + [p.unit for p in prepared]
        grouping = dedupe.group(units)
        joined, keys = _papers_of(grouping, library, prepared)
        self.keys.update((paper.id, paper.key) for paper in library if paper.id in self.touched)
        self.store.add_sources(
            (paper_id, self.file_ids[p.file_hash], p.raw.source.line, p.key, p.raw)
            for paper_id, new in joined.items()
            for p in new
        )
        self._write_papers(joined, {paper.id for paper in library if paper.id in joined}, keys)
        _describe(self.report, prepared, units, grouping, len(library))

    def finish(self) -> None:
        """Files without records, the papers whose list changed, orphans, citation keys; the counts."""
        self._register_files()
        self._write_papers({}, self.touched, self.keys)
        self.report.papers_removed = self.store.remove_orphans(self.touched)
        self._remake_older()
        if self.keyed:
            citekeys.ensure_wanted(self.store, [self.created[paper_id] for paper_id in sorted(self.created)])
        else:
            citekeys.ensure(self.store)
        for outcome in self.rewritten.values():
            setattr(self.report, f"papers_{outcome}", getattr(self.report, f"papers_{outcome}") + 1)
        self.report.duplicates_merged = [self.merged[paper_id] for paper_id in sorted(self.merged)]

    def _remake_older(self) -> None:
        """The papers an earlier version made (assemble.VERSION) that this ingest has not written, made again
        from their stored records: what a better extractor finds reaches a library made before it."""
        if self.store.fact(MADE_BY) == str(VERSION):
            return
        keys = self.store.paper_keys()
        older = sorted(keys.keys() - self.created.keys() - self.rewritten.keys())
        done = 0
        for sources in _prepared_sources(self.store, older):
            self._write_papers({}, set(sources), keys, self._remade, sources)
            done += len(sources)
            if self.progress:
                self.progress("remake", done, len(older))
        self.store.set_fact(MADE_BY, str(VERSION))

    def _remade(self, paper_id: str, outcome: str) -> None:
        self.report.papers_remade += 1
        self.report.papers_remade_changed += outcome == "updated"

    def _write_papers(
        self,
        joined: dict[str, list[Prepared]],
        existing: set[str],
        keys: dict[str, str],
        rewritten: Callable[[str, str], None] | None = None,
        sources: Mapping[str, list[Prepared]] | None = None,
    ) -> None:
        """Papers stored already (before this ingest or in an earlier batch) are rebuilt from all their
        sources (read and prepared here, or given prepared in `sources`), each outcome told to
        `rewritten` (by default, counted as this ingest's); new ones from the batch."""
        created: list = []
        wanted: dict[str, str] = {}

        def flush() -> None:
            self.store.add_papers(created)
            self.created.update((paper.id, wanted[paper.id]) for paper, _, _, _ in created)
            self.report.papers_created += len(created)
            created.clear()

        for paper_id in sorted(joined.keys() | existing):
            if paper_id in existing:
                items = (
                    sources[paper_id]
                    if sources is not None
                    else [prepare(record, "") for record in self.store.source_records(paper_id)]
                )
            else:
                items = joined[paper_id]
            if not items:
                continue  # every source went away: removed with the orphans
            paper = assemble(paper_id, items)
            row = (paper, keys.get(paper_id, ""), dedupe.title_key(paper.title), _bands(items, paper))
            if paper_id in self.created:  # in an earlier batch
                self.store.put_paper(*row, added=True)
                self.created[paper_id] = self._wanted(paper, items)
            elif paper_id in existing:
                (rewritten or self._rewritten)(paper_id, self.store.put_paper(*row))
            else:
                created.append(row)
                wanted[paper_id] = self._wanted(paper, items)
                if len(created) >= _WRITE_BATCH:
                    flush()
            if len(paper.sources) > 1 and paper_id in joined:
                self.merged[paper_id] = [f"{s.path}:{s.line}" for s in paper.sources]
        flush()

    def _rewritten(self, paper_id: str, outcome: str) -> None:
        """A paper stored before this ingest, written again: updated if any of its rewrites changed it."""
        if self.rewritten.get(paper_id) != "updated":
            self.rewritten[paper_id] = outcome

    def _wanted(self, paper: Paper, items: list[Prepared]) -> str:
        return citekeys.wanted(paper, first_families(items)) if self.keyed else ""


def _papers_of(
    grouping: dedupe.Grouping, library: list[LibraryPaper], prepared: list[Prepared]
) -> tuple[dict[str, list[Prepared]], dict[str, str]]:
    """The new records of each paper (an existing one, or a new one whose id comes from its key), and the keys."""
    offset = len(library)
    keys = {paper.id: paper.key for paper in library}
    joined: dict[str, list[Prepared]] = {}
    for paper_id, members in grouping.groups:
        new = [prepared[m - offset] for m in members if m >= offset]
        if not new:
            continue
        if paper_id is None:
            key = min(p.key for p in new)
            paper_id = dedupe.paper_id(key)
            if paper_id in keys:  # one text, yet another work (another DOI, a book beside an article)
                key += "|" + ("|".join(sorted({i for p in new for i in p.unit.ids})) or min(p.where for p in new))
                paper_id = dedupe.paper_id(key)
            keys[paper_id] = key
        joined[paper_id] = new
    return joined, keys


def _bands(items: list[Prepared], paper: Paper) -> tuple[int, ...]:
    """The LSH bands of the abstract the paper shows, which is what later records are compared with."""
    shown = next((item for item in items if item.abstract.text == paper.abstract), items[0])
    return shown.unit.bands


def _library_unit(paper: LibraryPaper) -> dedupe.Unit:
    """A stored paper as dedupe sees it, with the bands stored beside it (_bands): working them out
    again from its abstract took 2.3 s of an ingest whose every record met its near-copy."""
    venue = (paper.venue.casefold(), paper.year) if paper.venue and paper.year else None
    return dedupe.Unit(paper.key, paper.title_key, venue, paper.abstract, paper.id, paper.bands, paper.ids)


def _describe(
    report: IngestReport, prepared: list[Prepared], units: list[dedupe.Unit], grouping: dedupe.Grouping, offset: int
) -> None:
    def where(index: int) -> str:
        return prepared[index - offset].where if index >= offset else f"paper {units[index].paper_id}"

    report.near_duplicates += [
        {"a": where(a), "b": where(b), "jaccard": round(j, 3)} for a, b, j in grouping.near_merges
    ]
    report.held_apart += [{"a": where(a), "b": where(b), "jaccard": round(j, 3)} for a, b, j in grouping.held_apart]
    for item in prepared:
        if not item.abstract.text:
            report.without_abstract.append(item.where)
        if item.abstract.repaired_urls or item.title.repaired_urls:
            report.urls_repaired.append(item.where)
        report.markup_problems += [
            f"{item.where}: {problem}" for problem in item.title.problems + item.abstract.problems
        ]
