"""Where a library lives: a SQLite file's path or a PostgreSQL URL."""

from pathlib import Path
from urllib.parse import urlsplit

URL_SCHEMES = ("postgresql://", "postgres://")


def is_server(location: str | Path) -> bool:
    return str(location).startswith(URL_SCHEMES)


def safe_location(location: str | Path) -> str:
    """The library's location for messages: a URL without its password."""
    parts = urlsplit(str(location))
    if not is_server(location) or parts.password is None:
        return str(location)
    return str(location).replace(f":{parts.password}@", ":***@", 1)
