"""A whole library from one store into another: SQLite to PostgreSQL and back, without loss (also
PostgreSQL's backup, into a SQLite file)."""

from __future__ import annotations

from paperscope.errors import PaperscopeError
from paperscope.progress import Progress
from paperscope.store.base import Store


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
