"""The one Library a server process uses, and each request's turn at it as a FastAPI dependency."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, nullcontext
from pathlib import Path
from typing import Annotated

import anyio
from fastapi import Depends, Request

from paperscope.face.security import reader
from paperscope.library import Library
from paperscope.personal import Personal


class Shared:
    """A SQLite connection is not for concurrent use from several threads, and its sentence vectors
    (200 MB at 100k papers) are loaded once, so requests take turns (a search takes milliseconds); a
    PostgreSQL store has a pool of connections, and requests run side by side. The turn is an async
    lock: a waiting request holds no worker thread, so the request being served always has one."""

    def __init__(self, db: str | Path) -> None:
        self.library = Library(db)
        self._lock = nullcontext() if self.library.store.concurrent else anyio.Lock()
        self.library.warm()  # the model and the vectors load now, not in the first user's search

    @asynccontextmanager
    async def use(self) -> AsyncIterator[Library]:
        async with self._lock:
            yield self.library


async def _library(request: Request) -> AsyncIterator[Library]:
    async with request.app.state.shared.use() as library:
        yield library


# The library for one request, its turn ending when the route returns (before a download is streamed).
LibraryParam = Annotated[Library, Depends(_library, scope="function")]


def _personal(request: Request, library: LibraryParam) -> Personal:
    return Personal(library, reader(request))


# The same, with the request's reader: whose tags, notes and saved searches.
PersonalParam = Annotated[Personal, Depends(_personal)]
