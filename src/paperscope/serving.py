"""`paperscope serve`: one server process, or several (`--workers N`) answering on one port.

Each worker process is started afresh and makes its own app (its own libraries, see
library_pool.py) from what the command put in its environment; they end with the command.

On Linux each worker listens on a socket of its own, all bound to the port with SO_REUSEPORT, and
the kernel spreads new connections over them. uvicorn's own workers share one socket, and a burst of
new connections goes to whichever worker wakes first: with 8 kept-alive clients one of two workers
answered 90% of the searches (its CPU time 55 s, the other's 6 s), as one process would. Elsewhere
uvicorn's workers serve.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import socket
import sys
import time
from collections.abc import Callable
from multiprocessing.process import BaseProcess
from pathlib import Path

from fastapi import FastAPI

from paperscope import workers as processes
from paperscope.errors import PaperscopeError

SETTINGS = "PAPERSCOPE_SERVE"  # the app's settings, as JSON, for the worker processes
SPREAD = sys.platform.startswith("linux") and hasattr(socket, "SO_REUSEPORT")
BACKLOG = 2048  # connections waiting to be accepted, per worker (uvicorn's default)
STARTUP = 60.0  # seconds: a worker ending sooner failed to start, and the command stops rather than restart it


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

    sockets = _listening(host, port, workers) if SPREAD else None  # a port in use is said before the model loads
    if workers == 1:
        application = create_app(db, token, readers, reader)
        ready()
        uvicorn.Server(uvicorn.Config(application, host=host, port=port, log_level="warning")).run(sockets)
        return
    os.environ[SETTINGS] = json.dumps({"db": str(db), "token": token, "readers": readers, "reader": reader})
    ready()
    if sockets is None:
        factory = f"{__name__}:app_from_environment"
        uvicorn.run(factory, factory=True, workers=workers, host=host, port=port, log_level="warning")
    else:
        _supervise(sockets)


def _listening(host: str, port: int, count: int) -> list[socket.socket]:
    """`count` sockets listening on host:port, one for each worker; an error when something else listens there."""
    family, kind, protocol, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    sockets: list[socket.socket] = []
    try:
        # SO_REUSEPORT would share the port with a server already on it (another `serve --workers`): ask first.
        with socket.socket(family, kind, protocol) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(address)
        for _ in range(count):
            sock = socket.socket(family, kind, protocol)
            sockets.append(sock)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
            sock.bind(address)
            sock.listen(BACKLOG)
    except OSError as error:
        for sock in sockets:
            sock.close()
        raise PaperscopeError(f"{host}:{port}: {error.strerror or error}") from None
    return sockets


def _supervise(sockets: list[socket.socket]) -> None:
    """A worker process on each socket until interrupted (Ctrl+C, SIGTERM); one that ends after its
    start is started again, one that ends in its start stops the command."""
    context = multiprocessing.get_context("spawn")

    def start(sock: socket.socket) -> tuple[BaseProcess, float]:
        process = context.Process(target=_worker, args=(sock,), name="paperscope-serve")
        process.start()
        return process, time.monotonic()

    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    running = [start(sock) for sock in sockets]
    try:
        while True:
            multiprocessing.connection.wait([process.sentinel for process, _ in running])
            for index, (process, began) in enumerate(running):
                if process.exitcode is None:
                    continue
                if time.monotonic() - began < STARTUP:
                    raise PaperscopeError(f"a server process stopped as it started (exit code {process.exitcode})")
                ended = f"paperscope: a server process ended (exit code {process.exitcode}); starting another"
                print(ended, file=sys.stderr)
                running[index] = start(sockets[index])
    except KeyboardInterrupt:
        pass
    finally:
        for process, _ in running:
            process.terminate()  # uvicorn finishes the requests it is answering
        for process, _ in running:
            process.join(10)
            if process.exitcode is None:
                process.kill()


def _worker(sock: socket.socket) -> None:
    import uvicorn

    config = uvicorn.Config(f"{__name__}:app_from_environment", factory=True, log_level="warning")
    uvicorn.Server(config).run(sockets=[sock])


def app_from_environment() -> FastAPI:
    """A worker process's app (uvicorn calls this in each)."""
    from paperscope.app import create_app

    processes.die_with(os.getppid())  # the command that started it, which workers would outlive if it is killed
    return create_app(**json.loads(os.environ[SETTINGS]))
