"""Who may change data, for the JSON API and the web pages alike: a token when the server listens
beyond loopback, and no cross-site requests.

Reading is open to whoever can reach the server. A request that changes data must
- come from a page of this server: a cross-site page cannot set the `X-Paperscope` header without a
  CORS preflight this server never grants, and an `Origin` header, when sent, must be this server's;
- carry the token (`Authorization: Bearer …`, or the cookie `/login?token=…` sets) when the server
  has one: always when it listens on anything but loopback.

A shared server names its readers by their tokens (PAPERSCOPE_TOKENS="alice=TOKEN,bob=TOKEN"): a
request with a reader's token reads and writes that reader's tags, notes and saved searches; any
other request is the server's own reader's (`--user`).
"""

from __future__ import annotations

import hmac
from urllib.parse import urlsplit

from fastapi import Request
from starlette.exceptions import HTTPException

from paperscope.errors import PaperscopeError

HEADER = "x-paperscope"
COOKIE = "paperscope_token"


def parse_readers(text: str) -> dict[str, str]:
    """{token: reader} from "alice=TOKEN,bob=TOKEN"."""
    readers = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        name, _, token = item.partition("=")
        if not name.strip() or len(token.strip()) < 8:
            raise PaperscopeError(
                f"PAPERSCOPE_TOKENS takes name=token pairs (tokens of 8 characters or more), not {item!r}"
            )
        readers[token.strip()] = name.strip()
    return readers


def _given(request: Request) -> str:
    return request.headers.get("authorization", "").removeprefix("Bearer ").strip() or request.cookies.get(COOKIE, "")


def _reader_of(request: Request, given: str) -> str | None:
    for token, name in request.app.state.readers.items():
        if hmac.compare_digest(given.encode(), token.encode()):
            return name
    return None


def reader(request: Request) -> str:
    """Whose tags and notes a request reads and writes."""
    return _reader_of(request, _given(request)) or request.app.state.reader


def writer(request: Request) -> None:
    if request.headers.get(HEADER) != "1":
        raise HTTPException(403, "a request that changes data needs the X-Paperscope: 1 header")
    origin = request.headers.get("origin")
    if origin and urlsplit(origin).netloc != request.headers.get("host"):
        raise HTTPException(403, "cross-site requests may not change data")
    token = request.app.state.token
    if token is None and not request.app.state.readers:
        return
    given = _given(request)
    if _reader_of(request, given) is None and not (token and hmac.compare_digest(given.encode(), token.encode())):
        raise HTTPException(401, "this server needs its token to change data (Authorization: Bearer TOKEN)")
