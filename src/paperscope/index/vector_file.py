"""The sentence-vector matrix written once beside the database and memory-mapped from there.

Every server process, and every thread's connection within one, then reads the same pages of the
operating system's cache instead of holding its own copy (190 MB at 92k papers). The file's name
carries the state of the vectors it holds (`state()`), so a changed library writes a new one and
an unchanged one is never read from the database again; older files for the library are removed.
"""

from __future__ import annotations

import glob
import hashlib
import os
import threading
from collections.abc import Callable, Iterable
from pathlib import Path

import numpy as np

from paperscope.atomic import replacing
from paperscope.index.semantic import Vectors

_writing = threading.Lock()


def state(database: str, numbers: Iterable[int | None]) -> str:
    """A name for the current vectors from numbers that change with them, and the database file's
    inode (a library made again at the same path is another file)."""
    return hashlib.sha1(repr((os.stat(database).st_ino, *numbers)).encode()).hexdigest()[:16]


def load(database: str, key: str, read: Callable[[], Vectors]) -> Vectors:
    """The vectors named `key` memory-mapped from beside `database`, written there first (from
    `read()`) if no process has yet; held in memory only where the folder cannot be written."""
    base = Path(f"{database}.vectors-{key}")
    with _writing:  # the threads of a server process that see new vectors together: one reads them
        mapped = _mapped(base)
        return mapped if mapped is not None else _written(base, read())


def _written(base: Path, vectors: Vectors) -> Vectors:
    try:
        _write(base, vectors)
    except OSError:  # a read-only folder: this process keeps its own copy
        return vectors
    _remove_others(base)
    mapped = _mapped(base)
    return vectors if mapped is None else mapped


def _mapped(base: Path) -> Vectors | None:
    try:
        matrix = np.load(base.with_name(base.name + ".npy"), mmap_mode="r")
        text = base.with_name(base.name + ".ids").read_text(encoding="ascii")
    except (OSError, ValueError):
        return None
    ids = text.split("\n") if text else []
    return Vectors(ids, matrix) if len(ids) == len(matrix) else None


def _write(base: Path, vectors: Vectors) -> None:
    """Each file whole or not at all (several processes may write the same one at once); the
    matrix last, since a reader takes its presence to mean the ids are there."""
    with replacing(base.with_name(base.name + ".ids")) as ids:
        ids.write_text("\n".join(vectors.ids), encoding="ascii")
    with replacing(base.with_name(base.name + ".npy")) as matrix, matrix.open("wb") as out:
        np.save(out, np.ascontiguousarray(vectors.matrix, dtype=np.float32))


def _remove_others(base: Path) -> None:
    """Files of earlier states (a process still reading one keeps its pages until it lets go)."""
    prefix = base.name.rsplit("-", 1)[0] + "-"
    for old in base.parent.glob(glob.escape(prefix) + "*"):
        if not old.name.startswith(base.name + "."):
            old.unlink(missing_ok=True)
