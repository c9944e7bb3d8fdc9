"""`paperscope serve`: one server process, or several (`--workers N`) answering on one port.

Each of uvicorn's worker processes is started afresh and makes its own app (its own libraries, see
library_pool.py) from what the command put in its environment; they end with the command.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

from fastapi import FastAPI

from paperscope import workers as processes

SETTINGS = "PAPERSCOPE_SERVE"  # the app's settings, as JSON, for the worker processes


def run(
    db: str | Path,
    token: str | None,
    readers: dict[str, str],
    reader: str,
    host: str,
    port: int,
    workers: int,
    ready: Callable[[], None],
) -> None:
    """Serve until interrupted; `ready()` once the app (or, with several workers, the command) is."""
    import uvicorn

    from paperscope.app import create_app

    if workers == 1:
        application = create_app(db, token, readers, reader)
        ready()
        uvicorn.run(application, host=host, port=port, log_level="warning")
        return
    os.environ[SETTINGS] = json.dumps({"db": str(db), "token": token, "readers": readers, "reader": reader})
    ready()
    uvicorn.run(
        f"{__name__}:app_from_environment", factory=True, workers=workers, host=host, port=port, log_level="warning"
    )


def app_from_environment() -> FastAPI:
    """A worker process's app (uvicorn calls this in each)."""
    from paperscope.app import create_app

    processes.die_with(os.getppid())  # the command that started it, which uvicorn's workers outlive if it is killed
    return create_app(**json.loads(os.environ[SETTINGS]))
