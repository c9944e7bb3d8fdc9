"""The ASGI app: a pool of libraries (library_pool.py), the JSON routes (api/), the web pages (web/),
security headers and error replies. It sits above api/ and web/, which never import each other."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi_offline import FastAPIOffline
from pydantic import BaseModel
from starlette.exceptions import HTTPException
from starlette.routing import Match

from paperscope.api import personal, routes
from paperscope.errors import PaperscopeError
from paperscope.face.params import YEARS
from paperscope.library import NotFound
from paperscope.library_pool import LibraryPool
from paperscope.store import DEFAULT_READER
from paperscope.web import pages

# Scripts only from this server (no inline script, no eval); styles likewise; MathML needs nothing more.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"
)


class Error(BaseModel):
    """Every error the API answers: what went wrong, and the HTTP status again."""

    error: str
    status: int


# Declared on every operation, so the schema tells clients (and schemathesis) what an error looks like.
ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": Error, "description": text}
    for code, text in (
        (400, "A value the library cannot use (an unknown year range, …)"),
        (401, "The server's token is needed"),
        (403, "A change without the X-Paperscope header, or from another site"),
        (404, "No such paper"),
        (413, "The request body is too large"),
        (422, "A parameter out of its range or of the wrong type"),
    )
}


# The largest request body: a note of 20,000 characters, each sent as a JSON escape (\ud83d\ude00) at worst.
MAX_BODY = 256 * 1024


def create_app(
    db: str | Path, token: str | None = None, readers: dict[str, str] | None = None, reader: str = DEFAULT_READER
) -> FastAPI:
    """The app over one library; with `token` or `readers` ({token: name}), changing data needs a
    token (see face/security.py); `reader` is whose tags and notes a request without one sees."""
    # /docs (Swagger UI) with its script and styles served by this app (a package ships them), not a CDN.
    # No /redoc: its bundle still fetches a logo from its maker's site.
    app = FastAPIOffline(
        title="paperscope", summary="Explore a conference's paper list.", version="0.1.0", redoc_url=None
    )
    app.state.shared = LibraryPool(db)
    app.state.token = token
    app.state.readers = readers or {}
    app.state.reader = reader
    app.include_router(routes.router, responses=ERRORS)
    app.include_router(personal.router, responses=ERRORS)
    app.include_router(pages.router)
    pages.mount_static(app)

    @app.middleware("http")
    async def security_headers(request: Request, call_next):  # type: ignore[no-untyped-def]
        if int(request.headers.get("content-length") or 0) > MAX_BODY:
            return JSONResponse({"error": f"request body over {MAX_BODY // 1024} KB", "status": 413}, status_code=413)
        response = await call_next(request)
        if request.url.path != "/docs":  # Swagger UI's page starts itself with an inline script
            response.headers["Content-Security-Policy"] = CSP
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "no-referrer"
        return response

    @app.exception_handler(NotFound)
    async def not_found(request: Request, exc: NotFound) -> JSONResponse:
        return await _error(request, exc, 404)

    @app.exception_handler(PaperscopeError)
    async def bad_request(request: Request, exc: PaperscopeError) -> JSONResponse:
        return await _error(request, exc, 400)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        problems = "; ".join(f"{'.'.join(str(x) for x in e['loc'][1:])}: {_said(e)}" for e in exc.errors())
        return await _error(request, PaperscopeError(problems), 422)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> JSONResponse:
        headers = {"Allow": _allowed(app, request)} if exc.status_code == 405 else exc.headers
        return await _error(request, PaperscopeError(str(exc.detail)), exc.status_code, headers)

    return app


_CHOICES = re.compile(r"\^\(([\w|-]+)\)\??\$")  # a pattern of alternatives: ^(hybrid|lexical|semantic)$


def _said(error: dict[str, Any]) -> str:
    """A validation error in a reader's words: what a value must be, not the pattern it missed (a user
    read "String should match pattern '^\\s*\\d{4}(\\.\\.\\d{4})?\\s*$'")."""
    if error["type"] != "string_pattern_mismatch":
        return error["msg"]
    pattern = error["ctx"]["pattern"]
    if pattern == YEARS:
        return f"{error['input']!r} is not a year or a range of years (2024, 2020..2024)"
    if choices := _CHOICES.fullmatch(pattern):
        return f"{error['input']!r} is not one of {', '.join(choices.group(1).split('|'))}"
    return f"{error['input']!r} is not valid here"


def _allowed(app: FastAPI, request: Request) -> str:
    """Every method some route takes at this path (Starlette's 405 names only the first route's)."""
    allowed = []
    for method in ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"):
        scope = {**request.scope, "method": method}
        if any(route.matches(scope)[0] == Match.FULL for route in app.router.routes):
            allowed.append(method)
    return ", ".join(allowed)


async def _error(request: Request, exc: Exception, status: int, headers: dict[str, str] | None = None):  # type: ignore[no-untyped-def]
    if not request.url.path.startswith("/api"):
        return pages.error_page(request, str(exc), status)
    return JSONResponse({"error": str(exc), "status": status}, status_code=status, headers=headers)  # 405: Allow
