"""A small stand-in for the OpenReview and arXiv APIs, run as its own process on 127.0.0.1 by the
fetch tests: it serves pages made from the real samples in ../shared/formats and misbehaves on
purpose (429 with Retry-After, 500 and 503, a slow answer, a body cut short).

    python tests/fake_apis.py FAULTS   (prints the port it listens on; FAULTS: "some", "none", "page2")
"""

from __future__ import annotations

import json
import re
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

FORMATS = Path(__file__).resolve().parent.parent.parent / "shared" / "formats"
ATOM = (FORMATS / "arxiv_atom.xml").read_text(encoding="utf-8")
ENTRIES = re.findall(r"<entry>.*?</entry>", ATOM, flags=re.DOTALL)
HEAD, TAIL = ATOM[: ATOM.index("<entry>")], "</feed>\n"
PAGE = 10  # the fake OpenReview returns at most this many notes, whatever the limit asked (arXiv: twice that)
FAULTS = sys.argv[1] if len(sys.argv) > 1 else "some"
seen: dict[str, int] = {}


def v2_notes() -> list[dict]:
    """25 submissions in the API v2 shape, their text taken from the arXiv sample's entries."""
    notes = []
    for i, entry in enumerate(ENTRIES[:25]):
        title = re.search(r"<title>(.*?)</title>", entry, flags=re.DOTALL).group(1)  # type: ignore[union-attr]
        summary = re.search(r"<summary>(.*?)</summary>", entry, flags=re.DOTALL).group(1)  # type: ignore[union-attr]
        authors = re.findall(r"<name>(.*?)</name>", entry)
        notes.append(
            {
                "id": f"note{i:04d}",
                "forum": f"note{i:04d}",
                "invitations": ["Fake.cc/2025/Conference/-/Submission"],
                "domain": "Fake.cc/2025/Conference",
                "cdate": 1735689600000 + i,
                "content": {
                    "title": {"value": " ".join(title.split())},
                    "abstract": {"value": " ".join(summary.split())},
                    "authors": {"value": authors},
                    "venueid": {"value": "Fake.cc/2025/Conference"},
                    "venue": {"value": "Fake 2025 Poster" if i % 2 else "Fake 2025 Oral"},
                },
            }
        )
    return notes


NOTES = v2_notes()


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *_: object) -> None:
        pass

    def send(
        self, status: int, body: bytes, kind: str, headers: dict[str, str] | None = None, cut: bool = False
    ) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body) + (500 if cut else 0)))
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(body)
        if cut:
            self.wfile.flush()
            self.connection.close()

    def do_GET(self) -> None:
        url = urlsplit(self.path)
        query = {k: v[0] for k, v in parse_qs(url.query).items()}
        key = f"{url.path}?{query.get('offset', query.get('start', '0'))}"
        seen[key] = seen.get(key, 0) + 1
        first = seen[key] == 1
        if FAULTS == "page2" and query.get("offset", query.get("start")) not in (None, "0"):
            # down for good: told to retry at once, the client's five attempts take no back-off time
            return self.send(500, b"down", "text/plain", {"Retry-After": "0"})
        if url.path == "/notes":
            offset = int(query.get("offset", 0))
            if FAULTS == "some" and first and offset == 0:
                return self.send(429, b'{"message": "slow down"}', "application/json", {"Retry-After": "1"})
            if FAULTS == "some" and first and offset == PAGE:
                return self.send(200, json.dumps({"notes": NOTES}).encode()[:300], "application/json", cut=True)
            if FAULTS == "some" and first and offset == 2 * PAGE:
                return self.send(500, b"oops", "text/plain")
            body = {"notes": NOTES[offset : offset + min(PAGE, int(query.get("limit", PAGE)))], "count": len(NOTES)}
            return self.send(200, json.dumps(body).encode(), "application/json")
        if url.path == "/api/query":
            start, size = int(query.get("start", 0)), min(PAGE * 2, int(query.get("max_results", 10)))
            if FAULTS == "some" and first and start == 0:
                return self.send(503, b"busy", "text/plain", {"Retry-After": "1"})
            if FAULTS == "some" and first and start > 0:
                time.sleep(1.5)  # slow, but inside the client's timeout
            total = re.sub(r"(<opensearch:totalResults[^>]*>)\d+(<)", rf"\g<1>{len(ENTRIES)}\g<2>", HEAD)
            return self.send(
                200, (total + "".join(ENTRIES[start : start + size]) + TAIL).encode(), "application/atom+xml"
            )
        self.send(404, b"not found", "text/plain")


if __name__ == "__main__":
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    server.serve_forever()
