"""The sentence-vector matrix written once beside the database and memory-mapped from there.

Every server process, and every thread's connection within one, then reads the same pages of the
operating system's cache instead of holding its own copy (190 MB at 92k papers). The file's name
carries the state of the vectors it holds (`state()`), so a changed library writes a new one and
an unchanged one is never read from the database again; older files for the library are removed.
"""

from __future__ import annotations

import glob
import hashlib
import itertools
import os
import threading
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

import numpy as np

from paperscope.atomic import replacing
from paperscope.index.semantic import DIMENSIONS, STORED_DTYPE, Vectors

_writing = threading.Lock()


def state(database: str, numbers: Iterable[int | None]) -> str:
    """A name for the current vectors from numbers that change with them, and the database file's
    inode (a library made again at the same path is another file)."""
    return key_of((os.stat(database).st_ino, *numbers))


def key_of(numbers: Iterable[int | None]) -> str:
    """A name for vectors from numbers that change with them."""
    return hashlib.sha1(repr(tuple(numbers)).encode()).hexdigest()[:16]


Rows = tuple[int, Iterable[tuple[str, bytes]]]  # how many, then (paper id, stored vector) rows
CHUNK = 4_096  # rows converted and written at a time


def load(database: str, key: str, read: Callable[[], Rows]) -> Vectors:
    """The vectors named `key` memory-mapped from beside `database`, written there first from `read()`
    if no process has yet, a chunk of rows at a time (a million vectors are never all in memory);
    held in memory only where the folder cannot be written."""
    base = Path(f"{database}.vectors-{key}")
    with _writing:  # the threads of a server process that see new vectors together: one reads them
        mapped = _mapped(base)
        return mapped if mapped is not None else _written(base, read)


def _written(base: Path, read: Callable[[], Rows]) -> Vectors:
    try:  # the rows changed between counting and reading them: read again, up to three times
        written = any(_write(base, *read()) for _ in range(3))
    except OSError:  # a read-only folder, a full disk
        written = False
    if written:
        _remove_others(base)
        if (mapped := _mapped(base)) is not None:
            return mapped
    return Vectors.from_rows(*read())  # this process keeps its own copy


def _mapped(base: Path) -> Vectors | None:
    try:
        matrix = np.load(base.with_name(base.name + ".npy"), mmap_mode="r")
        text = base.with_name(base.name + ".ids").read_text(encoding="ascii")
    except (OSError, ValueError):
        return None
    ids = text.split("\n") if text else []
    return Vectors(ids, matrix) if len(ids) == len(matrix) else None


class _Changed(Exception):
    """The rows were not as many as counted: the vectors changed in between."""


def _write(base: Path, count: int, rows: Iterable[tuple[str, bytes]]) -> bool:
    """Each file whole or not at all (several processes may write the same one at once); the matrix
    last, since a reader takes its presence to mean the ids are there. False, and no file, when the
    rows were not `count`."""
    ids: list[str] = []
    header = {"descr": np.lib.format.dtype_to_descr(np.dtype(np.float32)), "fortran_order": False}
    try:
        with replacing(base.with_name(base.name + ".npy")) as matrix, matrix.open("wb") as out:
            np.lib.format.write_array_header_1_0(out, {**header, "shape": (count, DIMENSIONS)})
            for chunk in _chunks(itertools.islice(rows, count + 1)):
                ids += [paper_id for paper_id, _ in chunk]
                out.write(np.frombuffer(b"".join(blob for _, blob in chunk), STORED_DTYPE).astype(np.float32).data)
            if len(ids) != count:
                raise _Changed
            with replacing(base.with_name(base.name + ".ids")) as written:
                written.write_text("\n".join(ids), encoding="ascii")
    except _Changed:
        return False
    return True


def _chunks(rows: Iterable[tuple[str, bytes]]) -> Iterator[list[tuple[str, bytes]]]:
    iterator = iter(rows)
    while chunk := list(itertools.islice(iterator, CHUNK)):
        yield chunk


def _remove_others(base: Path) -> None:
    """Files of earlier states (a process still reading one keeps its pages until it lets go)."""
    prefix = base.name.rsplit("-", 1)[0] + "-"
    for old in base.parent.glob(glob.escape(prefix) + "*"):
        if not old.name.startswith(base.name + "."):
            old.unlink(missing_ok=True)
