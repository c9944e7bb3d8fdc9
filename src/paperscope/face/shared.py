"""Each request's library (from the server's LibraryPool, library_pool.py) and reader as FastAPI dependencies."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import Depends, Request

from paperscope.face.security import reader
from paperscope.library import Library
from paperscope.personal import Personal


async def _library(request: Request) -> AsyncIterator[Library]:
    async with request.app.state.shared.use() as library:
        yield library


# The library for one request, its turn ending when the route returns (before a download is streamed).
LibraryParam = Annotated[Library, Depends(_library, scope="function")]


def _personal(request: Request, library: LibraryParam) -> Personal:
    return Personal(library, reader(request))


# The same, with the request's reader: whose tags, notes and saved searches.
PersonalParam = Annotated[Personal, Depends(_personal)]
