"""Every export read back by independent readers of its format, as a user would open it: zero errors,
zero warnings, every paper read. Over the seeds (with tricky text and every decision), a whole corpus
list with its rejects and workshop papers, and every readable sample in ../shared/formats.

Run as a script it prints the table of the closing note:
    PYTHONPATH=src python -m tests.test_export_readers
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from paperscope.export import FORMATS
from paperscope.export.citation import placeholder
from paperscope.library import Library

from .format_readers import READERS, export_text, organisations, read_all

LIBRARIES = ("seeds", "iclr2017", "formats")


def expected(library: Library, fmt: str) -> int:
    """Papers an export holds: all of them, but no withdrawn placeholder in a reference format."""
    return sum(1 for p in library.papers() if not FORMATS[fmt].cites or not placeholder(p))


@pytest.mark.parametrize("fmt", list(READERS))
@pytest.mark.parametrize("which", LIBRARIES)
def test_every_reader_reads_every_paper_without_a_complaint(export_libraries, tmp_path, which, fmt):
    with Library(export_libraries[which]) as library:
        text, count, bodies = export_text(library, fmt), expected(library, fmt), organisations(library)
    results = read_all(fmt, text, tmp_path, bodies)
    assert len(results) >= 3
    for reader, reading in results.items():
        assert (reader, reading.errors, reading.warnings) == (reader, [], [])
        assert (reader, reading.read) == (reader, count)


def table(folder: Path) -> list[str]:
    """format × reader × library: entries exported / read / warnings / errors, as Markdown rows."""
    from tests.conftest import export_libraries

    rows = [
        "| format | reader | library | exported | read | warnings | errors |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    paths = export_libraries.__wrapped__(_Factory(folder))  # type: ignore[attr-defined]
    for fmt in READERS:
        for which in LIBRARIES:
            with Library(paths[which]) as library:
                text, count, bodies = export_text(library, fmt), expected(library, fmt), organisations(library)
            for reader, r in read_all(fmt, text, folder / which / fmt, bodies).items():
                rows.append(
                    f"| {fmt} | {reader} | {which} | {count} | {r.read} | {len(r.warnings)} | {len(r.errors)} |"
                )
                print(rows[-1], file=sys.stderr)
    return rows


class _Factory:
    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def mktemp(self, name: str) -> Path:
        path = self.folder / name
        path.mkdir(parents=True, exist_ok=True)
        return path


if __name__ == "__main__":
    import tempfile

    with tempfile.TemporaryDirectory(prefix="paperscope-readers-") as scratch:
        print("\n".join(table(Path(scratch))))
