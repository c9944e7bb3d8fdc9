"""What SQLite and PostgreSQL spell differently in the statements both stores share (core.py).

Shared statements are written once, with `?` for each value; a PostgreSQL store turns them into
psycopg's `%s` (`prepare`). Everything else both servers read alike: upserts are
`INSERT … ON CONFLICT … DO UPDATE` (SQLite ≥ 3.24), sorting names NULLS FIRST/LAST (≥ 3.30).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

CHUNK = 500  # values per IN (...) list: SQLite takes a bounded number of parameters


@dataclass(frozen=True)
class Dialect:
    placeholder: str  # how the driver marks a value: "?" (sqlite3) or "%s" (psycopg)
    arrays: bool  # takes a list as one value (`= ANY(?)`) rather than an IN list of chunks
    insertion_order: str  # the papers' column that orders them as they were written
    no_limit: int | None  # what LIMIT takes for "all of them"
    nocase: str  # `{}` equal to a value, case aside
    json_text: str  # the text at `{key}` of the JSON in `{column}`

    def prepare(self, sql: str) -> str:
        """A shared statement as this driver takes it."""
        return sql if self.placeholder == "?" else _percent_style(sql)

    def members(self, values: list) -> Iterator[tuple[str, list]]:
        """`IN (…)`/`= ANY(…)` clauses with their parameters, which together take every value (none for none)."""
        if not values:
            return
        if self.arrays:
            yield "= ANY(?)", [values]
            return
        for start in range(0, len(values), CHUNK):
            chunk = values[start : start + CHUNK]
            yield f"IN ({', '.join('?' * len(chunk))})", chunk


@lru_cache(maxsize=512)
def _percent_style(sql: str) -> str:
    return sql.replace("%", "%%").replace("?", "%s")


SQLITE = Dialect(
    placeholder="?",
    arrays=False,
    insertion_order="rowid",
    no_limit=-1,
    nocase="{} = ? COLLATE NOCASE",
    json_text="json_extract({column}, '$.{key}')",
)
POSTGRES = Dialect(
    placeholder="%s",
    arrays=True,
    insertion_order="seq",
    no_limit=None,
    nocase="lower({}) = lower(?)",
    json_text="({column}::json ->> '{key}')",
)
