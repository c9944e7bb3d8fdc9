"""What an input format declares of itself, in its own module: its name, how to recognise it, how
to read it and the options its reading takes. The registry (paperscope.sources.FORMATS) lists the
formats in the order they are tried."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from paperscope.model import RawRecord, Unread


@dataclass(frozen=True)
class Option:
    """An option of one format's reading, given as `paperscope ingest --NAME VALUE` (repeatable)."""

    name: str  # as given on the command line
    keyword: str  # the keyword `read` takes the parsed values as
    parse: Callable[[list[str]], object]  # the values as given → what `read` takes; PaperscopeError when wrong


@dataclass(frozen=True)
class InputFormat:
    name: str  # stored with each file and source: "bibtex"
    sniff: Callable[[str, bytes], bool]  # (file name, first bytes of the decompressed content) → is it mine
    read: Callable[..., Iterator[RawRecord | Unread]]  # read(path, **options); raises InputError
    options: tuple[Option, ...] = ()

    def records(self, path: Path, options: Mapping[str, object]) -> Iterator[RawRecord | Unread]:
        """`read` with the options of this format among those given (parsed, by name)."""
        return self.read(path, **{o.keyword: options[o.name] for o in self.options if o.name in options})
