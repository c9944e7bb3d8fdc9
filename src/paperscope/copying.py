"""`paperscope copy`: a whole library between two locations, SQLite files or PostgreSQL URLs."""

from __future__ import annotations

from paperscope.errors import PaperscopeError
from paperscope.progress import Progress
from paperscope.store import open_store
from paperscope.store.copy import copy_store


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
