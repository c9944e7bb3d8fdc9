"""What every input must satisfy, checked by the property tests (test_fuzz.py) and by bench/fuzz.py.

`read_any(path)` sniffs and reads a file as an ingest would; it may raise only the project's own
errors. `unsafe_html(html)` names anything in produced HTML that could run a script.
"""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

from paperscope.assemble import prepare
from paperscope.model import Unread
from paperscope.sources import format_of

_UNSAFE_TAGS = {"script", "iframe", "object", "embed", "style", "form", "base", "link", "meta", "svg", "img", "input"}
_URL_ATTRIBUTES = {"href", "src", "action", "formaction", "xlink:href"}
_SAFE_SCHEMES = ("http://", "https://", "mailto:", "#", "/")


def read_any(path: Path) -> int:
    """Records read from `path` and prepared as an ingest prepares them; PaperscopeError for bad input."""
    count = 0
    for record in format_of(path).read(path):
        if isinstance(record, Unread):
            continue
        prepared = prepare(record, "fuzz")
        problem = unsafe_html(prepared.abstract.html)
        if problem:
            raise AssertionError(f"unsafe HTML from {path.name}:{record.source.line}: {problem}")
        count += 1
    return count


class _Inspector(HTMLParser):
    """Collects what a browser would act on: tags that load or run things, event handlers, script URLs."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _UNSAFE_TAGS:
            self.found.append(f"<{tag}>")
        for name, value in attrs:
            if name.startswith("on"):
                self.found.append(f"{name}= on <{tag}>")
            if name in _URL_ATTRIBUTES and value and not value.strip().lower().startswith(_SAFE_SCHEMES):
                self.found.append(f"{name}={value[:30]!r} on <{tag}>")


def unsafe_html(html: str) -> str | None:
    inspector = _Inspector()
    inspector.feed(html)
    inspector.close()
    return inspector.found[0] if inspector.found else None
