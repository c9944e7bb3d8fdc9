"""Files that appear whole or not at all: written under NAME.<writer>.partial, renamed to NAME when complete.

The writer (process and thread) is in the name because server processes may write the same file at
once; each renames a whole file over it.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def replacing(destination: Path) -> Iterator[Path]:
    """The path to write instead of `destination`; it becomes `destination` when the block ends
    without error, and is removed when it does not, so no half-written file keeps either name."""
    partial = destination.with_name(f"{destination.name}.{os.getpid()}-{threading.get_ident()}.partial")
    try:
        yield partial
    except BaseException as exc:
        partial.unlink(missing_ok=True)
        if isinstance(exc, OSError) and exc.filename == str(partial):  # the file as the user named it
            raise type(exc)(exc.errno, exc.strerror, str(destination)) from None
        raise
    partial.replace(destination)
