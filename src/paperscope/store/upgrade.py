"""Opening a library made by an older paperscope upgrades it: the migrations its schema lacks, then the
search index beside the store reading what they rewrote, reported to a Progress as stage "upgrade".
Some take a while (schema 13 indexes every paper again: 18 s at 92.5k papers, the tantivy index 7 s more),
so they are shown; a new library's migrations take no time and are not."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from paperscope.progress import Progress


@dataclass(frozen=True)
class Upgrade:
    version: int  # the library's schema when opened (0: a new library)
    latest: int
    progress: Progress | None

    def steps(self) -> Iterator[int]:
        """The numbers of the migrations to run, each reported before it runs."""
        for number in range(self.version, self.latest):
            self._report(number - self.version)
            yield number

    def finish(self, catch_up: Callable[[], object]) -> None:
        """After the migrations of a library made before: the index beside the store catches up now, in
        the upgrade's report, rather than in the first search."""
        if 0 < self.version < self.latest:
            self._report(self.latest - self.version)
            catch_up()
            self._report(self.latest - self.version + 1)

    def _report(self, done: int) -> None:
        if self.progress is not None and 0 < self.version < self.latest:
            self.progress("upgrade", done, self.latest - self.version + 1)
