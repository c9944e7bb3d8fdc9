"""Files that appear whole or not at all: written under NAME.partial, renamed to NAME when complete."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def replacing(destination: Path) -> Iterator[Path]:
    """The path to write instead of `destination`; it becomes `destination` when the block ends
    without error, and is removed when it does not, so no half-written file keeps either name."""
    partial = destination.with_name(destination.name + ".partial")
    try:
        yield partial
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    partial.replace(destination)
