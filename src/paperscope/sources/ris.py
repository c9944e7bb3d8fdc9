"""RIS files (EndNote, Zotero, Scopus exports), parsed by rispy."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import rispy

from paperscope.errors import InputError
from paperscope.model import RawRecord, Source
from paperscope.sources.files import decode_utf8, read_bytes
from paperscope.sources.format import InputFormat

NAME = "ris"
# RIS reference types with the CSL type of the work they name (GEN and the rest: the record does not say).
KINDS = {
    "JOUR": "article-journal",
    "JFULL": "article-journal",
    "EJOUR": "article-journal",
    "CONF": "paper-conference",
    "CPAPER": "paper-conference",
    "BOOK": "book",
    "EBOOK": "book",
    "CHAP": "chapter",
    "ECHAP": "chapter",
    "THES": "thesis",
    "RPRT": "report",
    "UNPB": "manuscript",
    "MANSCPT": "manuscript",
}
_START = re.compile(r"^\s*(?:\d+\.\s*)?TY  - ", re.MULTILINE)


def sniff(name: str, head: bytes) -> bool:
    return bool(_START.search(head.decode("utf-8", errors="ignore")[:2048]))


def read(path: Path) -> Iterator[RawRecord]:
    text = decode_utf8(read_bytes(path), path.name)
    try:
        records = rispy.loads(text)
    except Exception as exc:
        raise InputError(path.name, None, f"not RIS: {exc}") from None
    starts = [text.count("\n", 0, m.start()) + 1 for m in _START.finditer(text)]
    for number, record in enumerate(records):
        year = re.search(
            r"\d{4}", str(record.get("year") or record.get("publication_year") or record.get("date") or "")
        )
        urls = {"site": record["urls"][0]} if record.get("urls") else {}
        if record.get("doi"):
            urls["doi"] = "https://doi.org/" + record["doi"]
        yield RawRecord(
            source=Source(
                path.name,
                starts[number] if number < len(starts) else number + 1,
                None,
                NAME,
                record.get("id") or record.get("doi"),
            ),
            title=record.get("title") or record.get("primary_title"),
            abstract=record.get("abstract"),
            authors=record.get("authors") or record.get("first_authors") or [],
            venue=record.get("secondary_title") or record.get("journal_name") or record.get("alternate_title3"),
            year=int(year.group()) if year else None,
            keywords=record.get("keywords") or [],
            urls=urls,
            kind=KINDS.get(str(record.get("type_of_reference", "")).upper()),
        )


FORMAT = InputFormat(NAME, sniff, read)
