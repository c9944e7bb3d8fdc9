"""The libraries one server process answers from, so that requests need not take turns.

A SQLite connection serves one thread at a time, so the pool holds one Library (its own connection)
per request running at once; in WAL mode their reads go side by side, and a write waits only for
another write. Their sentence vectors are one memory-mapped file (index/vector_file.py), not a copy
each. A PostgreSQL store keeps its own pool of connections: one Library is shared by the requests.
Either way no more than `size` requests run at once; one waiting for its turn waits in the event
loop (an async semaphore), holding no thread. More threads would not use the cores better (the GIL
shares them) and would make every request take longer: each one would hold the GIL in turns with
all the others.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import anyio

from paperscope.library import Library, SharedWeights

THREADS = 4  # requests at once in one process; more wait for a library (the GIL shares the cores anyway)


class LibraryPool:
    def __init__(self, db: str | Path, size: int = THREADS) -> None:
        weights = SharedWeights()
        first = Library(db, weights)
        first.warm()  # the model and the vectors load now, not in the first user's search
        self._shared = first if first.store.concurrent else None
        self._free = [first]
        for _ in range(size - 1 if self._shared is None else 0):
            library = Library(db, weights)
            library.warm()
            self._free.append(library)
        self._turns = anyio.Semaphore(size)

    @asynccontextmanager
    async def use(self) -> AsyncIterator[Library]:
        async with self._turns:
            if self._shared is not None:
                yield self._shared
                return
            library = self._free.pop()  # in the event loop's thread: no other coroutine runs meanwhile
            try:
                yield library
            finally:
                self._free.append(library)
