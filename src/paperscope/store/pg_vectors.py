"""A PostgreSQL library's sentence vectors kept on the reading machine, searched as SQLite's are.

pgvector's HNSW graph answers a query at once whatever was just written, but misses more of the
exact top k as the library grows (recall@10 0.979 at 92.5k real abstracts, ef_search 200; 0.28 on
the 1M bench's clustered vectors). So each reading process also keeps the current vectors in its
machine's cache folder, memory-mapped and shared by the processes there (index/vector_file.py),
with the 4-bit fast scan of index/ann.py from ann.QUANTIZED_FROM vectors: recall@10 0.994 at 1M.

Reading a million vectors from the server and indexing them takes a minute, so it is done in a
thread of its own, never in a search's way: until the copy of the current vectors is ready, the
HNSW index answers. Whether the vectors changed is asked of the server only when the library did
(its version): a tag or a note does not make the copy read again.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from paperscope.index import semantic, vector_file


@dataclass(frozen=True)
class _Copy:
    version: int  # the library's version it was last found current at
    state: tuple[int, int]  # the vectors' count and a sum of their ids' and texts' hashes
    vectors: semantic.Vectors


class VectorsBeside:
    """The current vectors in `folder`, refreshed in the background from the server's."""

    def __init__(
        self,
        folder: Callable[[], Path],
        version: Callable[[], int],
        state: Callable[[], tuple[int, int]],
        read: Callable[[], vector_file.Rows],
    ) -> None:
        self._folder, self._version, self._state, self._read = folder, version, state, read
        self._copy: _Copy | None = None
        self._refreshing: threading.Thread | None = None
        self._lock = threading.Lock()

    def current(self) -> semantic.Vectors | None:
        """The copy if it holds the library's vectors as they are now; else None, and a refresh starts."""
        version = self._version()
        copy = self._copy
        if copy is not None and copy.version == version:
            return copy.vectors
        with self._lock:
            if self._refreshing is None or not self._refreshing.is_alive():
                self._refreshing = threading.Thread(target=self._refresh, args=(version,), daemon=True)
                self._refreshing.start()
        return None

    def wait(self, timeout: float | None = None) -> semantic.Vectors | None:
        """The copy once the refresh under way (if any) has finished: for warming up, benches and tests."""
        self.current()
        refreshing = self._refreshing
        if refreshing is not None:
            refreshing.join(timeout)
        return self.current()

    def _refresh(self, version: int) -> None:
        try:
            self._read_if_changed(version)
        except Exception:  # the server went away, the store closed: HNSW answers, and the next version tries again
            return

    def _read_if_changed(self, version: int) -> None:
        state = self._state()
        copy = self._copy
        if copy is not None and copy.state == state:  # the library changed, its vectors did not
            self._copy = _Copy(version, state, copy.vectors)
            return
        base = self._folder() / "library"
        base.parent.mkdir(parents=True, exist_ok=True)
        key = vector_file.key_of(state)
        vectors = vector_file.load(str(base), key, self._read).indexed(base, key)
        self._copy = _Copy(version, state, vectors)
