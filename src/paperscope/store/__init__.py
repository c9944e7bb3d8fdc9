"""Storage behind one protocol: a SQLite file (the embedded default) or a PostgreSQL server."""

from pathlib import Path
from urllib.parse import urlsplit

from paperscope.store.base import DEFAULT_READER, FileRow, LibraryPaper, Store

URL_SCHEMES = ("postgresql://", "postgres://")


def is_server(location: str | Path) -> bool:
    return str(location).startswith(URL_SCHEMES)


def safe_location(location: str | Path) -> str:
    """The library's location for messages: a URL without its password."""
    parts = urlsplit(str(location))
    if not is_server(location) or parts.password is None:
        return str(location)
    return str(location).replace(f":{parts.password}@", ":***@", 1)


def open_store(location: str | Path) -> Store:
    """A PostgreSQL URL opens that server's database; anything else is a SQLite file's path."""
    if is_server(location):
        from paperscope.store.postgres import PostgresStore  # psycopg loads only for a server

        return PostgresStore(str(location))
    from paperscope.store.sqlite import SQLiteStore

    return SQLiteStore(location)


__all__ = ["DEFAULT_READER", "FileRow", "LibraryPaper", "Store", "is_server", "open_store", "safe_location"]
