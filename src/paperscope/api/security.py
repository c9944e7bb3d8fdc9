"""Who may change data: a token when the server listens beyond loopback, and no cross-site requests.

Reading is open to whoever can reach the server. A request that changes data must
- come from a page of this server: a cross-site page cannot set the `X-Paperscope` header without a
  CORS preflight this server never grants, and an `Origin` header, when sent, must be this server's;
- carry the token (`Authorization: Bearer …`, or the cookie `/login?token=…` sets) when the server
  has one: always when it listens on anything but loopback.
"""

from __future__ import annotations

import hmac
from urllib.parse import urlsplit

from fastapi import Request
from starlette.exceptions import HTTPException

HEADER = "x-paperscope"
COOKIE = "paperscope_token"


def writer(request: Request) -> None:
    if request.headers.get(HEADER) != "1":
        raise HTTPException(403, "a request that changes data needs the X-Paperscope: 1 header")
    origin = request.headers.get("origin")
    if origin and urlsplit(origin).netloc != request.headers.get("host"):
        raise HTTPException(403, "cross-site requests may not change data")
    token = request.app.state.token
    if token is None:
        return
    given = request.headers.get("authorization", "").removeprefix("Bearer ").strip() or request.cookies.get(COOKIE, "")
    if not hmac.compare_digest(given.encode(), token.encode()):
        raise HTTPException(401, "this server needs its token to change data (Authorization: Bearer TOKEN)")
