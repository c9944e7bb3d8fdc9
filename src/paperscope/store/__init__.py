"""Storage behind one protocol: a SQLite file (the embedded default) or a PostgreSQL server."""

from pathlib import Path

from paperscope.progress import Progress
from paperscope.store.base import DEFAULT_READER, FileRow, LibraryPaper, Store
from paperscope.store.location import is_server, safe_location


def open_store(location: str | Path, progress: Progress | None = None) -> Store:
    """A PostgreSQL URL opens that server's database; anything else is a SQLite file's path. A library
    made by an older paperscope is upgraded as it opens, reported to `progress` (store/upgrade.py)."""
    if is_server(location):
        from paperscope.store.postgres import PostgresStore  # psycopg loads only for a server

        return PostgresStore(str(location), progress)
    from paperscope.store.sqlite import SQLiteStore

    return SQLiteStore(location, progress)


__all__ = ["DEFAULT_READER", "FileRow", "LibraryPaper", "Store", "is_server", "open_store", "safe_location"]
