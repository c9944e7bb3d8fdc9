"""The corpus records, control characters scrubbed (as prepare does again), each with its file hash."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path

from paperscope.model import RawRecord, Unread
from paperscope.normalize.controls import scrub
from paperscope.sources import format_of

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus" / "paperlists"


def corpus_records(corpus: Path = CORPUS, every: int = 1) -> Iterator[tuple[RawRecord, str]]:
    """(record, file hash) for every `every`-th record of the corpus, in file order."""
    number = 0
    for path in sorted(corpus.iterdir()):
        file_hash = hashlib.sha256(path.read_bytes()).hexdigest()
        for record in format_of(path).records(path, {}):
            if not isinstance(record, Unread):
                if number % every == 0:
                    yield scrub(record), file_hash
                number += 1
