"""One HTTP GET with timeouts and retries: backoff on 429 and 5xx and broken connections,
honouring Retry-After, and a pause between requests where an API asks for one."""

from __future__ import annotations

import time
from collections.abc import Callable
from email.utils import parsedate_to_datetime

import httpx

from paperscope.errors import PaperscopeError

RETRIES = 5
TIMEOUT = httpx.Timeout(30.0, connect=10.0)
MAX_WAIT = 60.0
RETRY_STATUSES = {429, 500, 502, 503, 504}


class Client:
    def __init__(self, pause: float = 0.0, sleep: Callable[[float], None] = time.sleep) -> None:
        self.http = httpx.Client(timeout=TIMEOUT, follow_redirects=True, headers={"User-Agent": "paperscope/0.1"})
        self.pause = pause  # seconds between requests (arXiv asks for 3)
        self.sleep = sleep
        self._last = 0.0
        self.retries = 0  # how many requests were tried again, for the report

    def close(self) -> None:
        self.http.close()

    def get(self, url: str, params: dict[str, str | int]) -> bytes:
        problem = ""
        for attempt in range(RETRIES):
            wait = self.pause - (time.monotonic() - self._last)
            if wait > 0:
                self.sleep(wait)
            self._last = time.monotonic()
            try:
                response = self.http.get(url, params=params)
                body = response.read()
            except httpx.TransportError as error:  # refused, reset, timed out, or cut short
                problem = f"{error.__class__.__name__}"
                self._back_off(attempt, None)
                continue
            if response.status_code in RETRY_STATUSES:
                problem = f"HTTP {response.status_code}"
                self._back_off(attempt, response.headers.get("retry-after"))
                continue
            if response.status_code != 200:
                raise PaperscopeError(f"{url}: HTTP {response.status_code}: {body[:200].decode(errors='replace')}")
            return body
        raise PaperscopeError(f"{url}: gave up after {RETRIES} attempts ({problem})")

    def _back_off(self, attempt: int, retry_after: str | None) -> None:
        self.retries += 1
        self.sleep(min(MAX_WAIT, _seconds(retry_after) if retry_after else 0.5 * 2**attempt))


def _seconds(retry_after: str) -> float:
    """Retry-After is seconds or an HTTP date."""
    try:
        return max(0.0, float(retry_after))
    except ValueError:
        try:
            return max(0.0, parsedate_to_datetime(retry_after).timestamp() - time.time())
        except (TypeError, ValueError):
            return 1.0
