"""BibTeX files, parsed by bibtexparser (v2): @string macros, crossref, @preamble, nested braces.

Entries without an abstract are still papers. Values keep their LaTeX; normalize cleans it later.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from pathlib import Path

import bibtexparser
from bibtexparser.middlewares import SeparateCoAuthors
from pylatexenc.latex2text import LatexNodes2Text

from paperscope.errors import InputError
from paperscope.model import RawRecord, Source, Unread
from paperscope.sources.files import decode_utf8, read_bytes
from paperscope.sources.format import InputFormat

NAME = "bibtex"
logging.getLogger("bibtexparser").setLevel(logging.CRITICAL)  # its warnings would reach the user's terminal
_ENTRY = re.compile(r"^\s*@\s*[a-zA-Z]+\s*[{(]", re.MULTILINE)
# Entry types that name a work, with the CSL type of that work (None: the entry does not say).
KINDS = {
    "article": "article-journal",
    "inproceedings": "paper-conference",
    "conference": "paper-conference",
    "book": "book",
    "proceedings": "book",
    "inbook": "chapter",
    "incollection": "chapter",
    "phdthesis": "thesis",
    "mastersthesis": "thesis",
    "techreport": "report",
    "manual": "report",
    "unpublished": "manuscript",
    "booklet": "pamphlet",
    "misc": None,
}


def sniff(name: str, head: bytes) -> bool:
    text = head.decode("utf-8", errors="ignore")
    return bool(_ENTRY.search(text)) and not text.lstrip().startswith(("[", "{", "<"))


def read(path: Path) -> Iterator[RawRecord | Unread]:
    text = decode_utf8(read_bytes(path), path.name)
    library = bibtexparser.parse_string(text, append_middleware=[SeparateCoAuthors(allow_inplace_modification=True)])
    if not library.entries and library.failed_blocks:
        block = library.failed_blocks[0]
        given = getattr(block.error, "abort_reason", None) or str(block.error).split("\n")[-1].strip()
        reason = "it is never closed" if "end of file" in given else given.rstrip(".") or "unreadable"
        raise InputError(path.name, block.start_line + 1, f"broken BibTeX entry: {reason}")
    by_key = {entry.key.lower(): entry for entry in library.entries}
    for entry in library.entries:
        source = Source(path.name, entry.start_line + 1, None, NAME, entry.key)
        entry_type = entry.entry_type.lower()
        fields = _with_crossref(entry, by_key)
        title = fields.get("title")
        if entry_type not in KINDS or not title:
            yield Unread(
                source,
                f"@{entry.entry_type}{{{entry.key}}}: "
                + ("not a kind of work" if entry_type not in KINDS else "no title"),
            )
            continue
        year = re.search(r"\d{4}", str(fields.get("year", "")))
        urls = {k: str(fields[k]) for k in ("url", "pdf", "doi") if fields.get(k)}
        if "doi" in urls and not urls["doi"].startswith("http"):
            urls["doi"] = "https://doi.org/" + urls["doi"]
        yield RawRecord(
            source=source,
            title=str(title),
            abstract=str(fields["abstract"]) if fields.get("abstract") else None,
            authors=[_plain(str(a)) for a in fields.get("author", []) if str(a).strip()]
            if isinstance(fields.get("author"), list)
            else [],
            venue=_plain(str(fields.get("booktitle") or fields.get("journal") or "")) or None,
            year=int(year.group()) if year else None,
            keywords=[k.strip() for k in str(fields.get("keywords", "")).split(",") if k.strip()],
            urls=urls,
            kind=KINDS[entry_type],
        )


def _plain(latex: str) -> str:
    """A venue or a name as text (`\\mbox{G-Animal's} Journal` → `G-Animal's Journal`, `Capp{\\'e}` → `Cappé`);
    titles and abstracts are cleaned later with the rest of the text, but venues and names are kept as text."""
    return LatexNodes2Text().latex_to_text(latex).strip() if "\\" in latex or "{" in latex else latex.strip()


def _with_crossref(entry, by_key):  # type: ignore[no-untyped-def]
    fields = {f.key.lower(): f.value for f in entry.fields}
    parent = by_key.get(str(fields.get("crossref", "")).lower())
    if parent is not None:
        for field in parent.fields:
            fields.setdefault(field.key.lower(), field.value)
    return fields


FORMAT = InputFormat(NAME, sniff, read)
