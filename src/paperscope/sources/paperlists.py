"""Paper-list JSON (the papercopilot/paperlists format): a JSON list of paper objects, maybe gzipped."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from paperscope.errors import InputError
from paperscope.model import RawRecord, Source
from paperscope.sources.files import read_json
from paperscope.sources.format import InputFormat

NAME = "paperlists"
MAX_FIELD_CHARS = 100_000
_PAPER_KEYS = {"title", "abstract", "author", "site", "pdf", "track", "status"}
_NAME_RE = re.compile(r"^(?P<venue>[a-z0-9]+?)(?P<year>(?:19|20)\d{2})$", re.IGNORECASE)
VENUE_NAMES = {
    "nips": "NeurIPS",
    "neurips": "NeurIPS",
    "siggraphasia": "SIGGRAPH Asia",
    "acmmm": "ACM MM",
    "colm": "COLM",
    "corl": "CoRL",
    "ai4x": "AI4X",
    "automl": "AutoML",
    "3dv": "3DV",
}
_JSON_TYPES = {int: "a number", float: "a number", bool: "true or false", list: "a list", dict: "an object"}
_URL_FIELDS = ("site", "pdf", "github", "project", "arxiv", "doi", "oa")


def sniff(name: str, head: bytes) -> bool:
    """A JSON array whose first object has paper-list keys."""
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if not text.startswith(b"["):
        return False
    window = text[:4096].decode("utf-8", errors="ignore")
    return any(f'"{key}"' in window for key in _PAPER_KEYS)


def venue_from_name(name: str) -> tuple[str | None, int | None]:
    """("ICML", 2018) from "icml2018.json.gz"."""
    match = _NAME_RE.match(name.split(".", 1)[0])
    if not match:
        return None, None
    venue = match.group("venue").lower()
    return VENUE_NAMES.get(venue, venue.upper()), int(match.group("year"))


def read(path: Path) -> Iterator[RawRecord]:
    data = read_json(path)
    if not isinstance(data, list) or not data:
        raise InputError(path.name, None, "not a paper list: expected a non-empty JSON array of papers")
    venue, year = venue_from_name(path.name)
    for number, item in enumerate(data, start=1):
        if not isinstance(item, dict) or not _PAPER_KEYS & item.keys():
            raise InputError(path.name, number, "not a paper list: record is not a paper object")
        yield _record(item, Source(path.name, number, path.name.split(".", 1)[0], NAME, _text(item, "id")), venue, year)


def _record(item: dict[str, Any], source: Source, venue: str | None, year: int | None) -> RawRecord:
    for key, value in item.items():
        if isinstance(value, str) and len(value) > MAX_FIELD_CHARS:
            raise InputError(source.path, source.line, f"field {key!r} is longer than {MAX_FIELD_CHARS:,} characters")
    for key in ("title", "abstract"):  # a number or a list there is a broken file, not a title "5"
        if item.get(key) is not None and not isinstance(item[key], str):
            raise InputError(source.path, source.line, f"field {key!r} is {_JSON_TYPES[type(item[key])]}, not text")
    return RawRecord(
        source=source,
        title=_text(item, "title"),
        abstract=_text(item, "abstract"),
        authors=_people(item.get("author")),
        venue=venue,
        year=year,
        status=_text(item, "status"),
        track=_text(item, "track"),
        keywords=_split(item.get("keywords")),
        urls={key: url for key in _URL_FIELDS if (url := _text(item, key))},
    )


def _text(item: dict[str, Any], key: str) -> str | None:
    value = item.get(key)
    if value is None or isinstance(value, (dict, list)):
        return None
    text = str(value).strip()
    return text or None


def _people(value: Any) -> list[str]:
    """The `author` field: "A; B; C", or "A, B, C" as some lists write it (SIGGRAPH's: 4,524 records of
    the corpus). A comma splits only a name list, two or more of whose parts are names of two words or
    more: "Ummenhofer, Thomas" stays one person, and "Seitz, Jr." keeps its suffix."""
    people = _split(value)
    if len(people) != 1 or "," not in people[0]:
        return people
    parts = [part.strip() for part in people[0].split(",") if part.strip()]
    if sum(len(part.split()) >= 2 for part in parts) < 2:
        return people
    people = []
    for part in parts:
        if people and part.rstrip(".").lower() in _SUFFIXES:
            people[-1] += f", {part}"
        else:
            people.append(part)
    return people


_SUFFIXES = {"jr", "sr", "ii", "iii", "iv"}


def _split(value: Any) -> list[str]:
    if isinstance(value, list):
        return [str(v).strip() for v in value if str(v).strip()]
    if isinstance(value, str):
        return [part.strip() for part in value.split(";") if part.strip()]
    return []


FORMAT = InputFormat(NAME, sniff, read)
