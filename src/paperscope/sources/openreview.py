"""OpenReview notes: API v1 (plain `content` values) and API v2 (`{"value": …}` wrapped, an
`invitations` list, `venueid`), as a raw `/notes` response, a list of notes, or a crawler dump that
nests submissions under venue/year with their replies. Submissions become records; a decision
among a submission's replies (v1) or its `venue` (v2) becomes the status.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from paperscope.errors import InputError
from paperscope.model import RawRecord, Source
from paperscope.sources.files import read_json
from paperscope.sources.format import InputFormat

NAME = "openreview"
SITE = "https://openreview.net"


def sniff(name: str, head: bytes) -> bool:
    text = head[:8192].decode("utf-8", errors="ignore")
    return '"content"' in text and '"forum"' in text and ('"invitation"' in text or '"invitations"' in text)


def read(path: Path) -> Iterator[RawRecord]:
    data = read_json(path)
    number = 0
    for venue, year, note in _submissions(data, path.name):
        number += 1
        content = {key: _value(value) for key, value in (note.get("content") or {}).items()}
        if not content.get("title"):
            continue
        forum = str(note.get("forum") or note.get("id"))
        pdf = content.get("pdf")
        urls = {"site": f"{SITE}/forum?id={forum}"}
        if isinstance(pdf, str) and pdf:
            urls["pdf"] = SITE + pdf if pdf.startswith("/") else pdf
        created = note.get("cdate") or note.get("tcdate")
        yield RawRecord(
            source=Source(path.name, number, venue, NAME, forum),
            title=str(content["title"]),
            abstract=str(content["abstract"]) if content.get("abstract") else None,
            authors=[str(a) for a in content.get("authors") or [] if a],
            venue=_venue_name(venue or _invitation(note)),
            year=year
            or _year_of(str(content.get("venueid") or note.get("domain") or _invitation(note)))
            or (datetime.fromtimestamp(created / 1000, UTC).year if isinstance(created, int) else None),
            status=_status(note, content),
            keywords=[str(k) for k in content.get("keywords") or [] if k],
            urls=urls,
        )


def _submissions(data: Any, name: str) -> Iterator[tuple[str | None, int | None, dict]]:
    if isinstance(data, dict) and isinstance(data.get("notes"), list):  # a raw API response
        data = data["notes"]
    if not isinstance(data, list):
        raise InputError(name, 1, 'not OpenReview notes: expected a list of notes or {"notes": [...]}')
    for item in data:
        if isinstance(item, dict) and isinstance(item.get("submissions"), list):  # a crawler dump
            year = int(item["year"]) if str(item.get("year", "")).isdigit() else None
            for note in item["submissions"]:
                yield item.get("venue"), year, note
        elif isinstance(item, dict) and not item.get("replyto"):
            yield None, None, item


def _value(value: Any) -> Any:
    """v2 wraps every content value as {"value": …}."""
    return value["value"] if isinstance(value, dict) and "value" in value else value


def _invitation(note: dict) -> str:
    invitations = note.get("invitations") or [note.get("invitation") or ""]
    return str(invitations[0])


def _year_of(venue_path: str) -> int | None:
    """2025 from "ICLR.cc/2025/Conference"."""
    match = re.search(r"/((?:19|20)\d{2})(?:/|$)", venue_path)
    return int(match.group(1)) if match else None


def _venue_name(venue: str | None) -> str | None:
    """ "NIPS.cc/2018/Workshop/CDNNRIA" → "NIPS"."""
    if not venue:
        return None
    return re.sub(r"\.(cc|org|net|com)$", "", venue.split("/")[0]) or None


def _status(note: dict, content: dict) -> str | None:
    for reply in note.get("notes") or []:
        decision = _value((reply.get("content") or {}).get("decision"))
        if decision:
            return str(decision)
    venue = content.get("venue")
    return str(venue) if venue else None


FORMAT = InputFormat(NAME, sniff, read)
