"""A whole library from one store into another: SQLite to PostgreSQL and back, without loss."""

from __future__ import annotations

from paperscope.errors import PaperscopeError
from paperscope.pipeline import Progress
from paperscope.store import Store, open_store


def copy_store(source: Store, target: Store, progress: Progress | None = None) -> dict[str, int]:
    """Every table of `source` into the empty `target`, in one transaction of the target; rows per table."""
    if target.count_papers() or target.check()["files"]:
        raise PaperscopeError("the library copied into must be empty")
    total = source.count_papers()
    copied: dict[str, int] = {}
    with target.transaction():
        for table, rows in source.dump():
            target.load(table, rows)
            copied[table] = copied.get(table, 0) + len(rows)
            if progress and table == "papers":
                progress("copy", copied[table], total)
    return copied


def copy_library(source: str, target: str, progress: Progress | None = None) -> dict[str, int]:
    """`paperscope copy --from SOURCE --to TARGET`: paths of SQLite files or PostgreSQL URLs."""
    if source == target:
        raise PaperscopeError("copy needs two different libraries")
    origin = open_store(source)
    try:
        destination = open_store(target)
        try:
            return copy_store(origin, destination, progress)
        finally:
            destination.close()
    finally:
        origin.close()
