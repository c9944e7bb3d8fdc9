"""Worker processes that end with the process that started them, however it ends.

A killed ingest (SIGKILL, the kernel's out-of-memory killer) runs no clean-up, and the workers of a
`ProcessPoolExecutor` would wait for work for ever. On Linux the kernel sends each worker SIGKILL when
its parent dies (prctl PR_SET_PDEATHSIG); a thread in the worker that checks the parent every half
second covers the other systems and a parent that died before the worker had asked.
"""

from __future__ import annotations

import ctypes
import gc
import os
import signal
import sys
import threading
import time
from concurrent.futures import ProcessPoolExecutor

PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>
CHECK_EVERY = 0.5  # seconds


def processes() -> int:
    """How many worker processes a job gets: one per core, at most 4."""
    return min(4, os.cpu_count() or 1)


def pool(workers: int) -> ProcessPoolExecutor:
    """A process pool whose workers exit when this process does."""
    return ProcessPoolExecutor(max_workers=workers, initializer=_start, initargs=(os.getpid(),))


def _start(parent: int) -> None:
    """A pool worker's initializer: it ends with `parent`, and its cycle collector runs.

    A forked worker inherits an ingest's disabled collector; without it, every chunk of records that
    a cycle held stayed in memory (pylatexenc's parse errors leave one: 0.5 GB a worker by 370k
    records). What the worker inherited is frozen, so that collections leave those pages shared.
    """
    die_with(parent)
    gc.freeze()
    gc.enable()


def die_with(parent: int) -> None:
    """A worker's initializer: end this process when `parent` ends."""
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.name == "posix":  # on Windows, os.kill(pid, 0) would end the parent
        threading.Thread(target=_watch, args=(parent,), name="die-with-parent", daemon=True).start()


def _watch(parent: int) -> None:
    while _alive(parent):
        time.sleep(CHECK_EVERY)
    os._exit(1)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)  # signal 0: only asks whether the process exists
    except ProcessLookupError:
        return False
    except PermissionError:  # it exists, under another user (its number was reused)
        return True
    return True
