"""The search filters as query parameters, read alike by the JSON API and the web pages."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Query

from paperscope.index.lexical import Filters
from paperscope.model import CONTRIBUTIONS

YEARS = r"^\s*\d{4}(\.\.\d{4})?\s*$"
MAX_TOPIC = 10_000


def filters(
    venue: Annotated[str | None, Query(max_length=200, description="Only this venue.")] = None,
    year: Annotated[
        str | None, Query(max_length=20, pattern=YEARS, description="A year or a range, 2024..2026.")
    ] = None,
    contribution: Annotated[
        str | None, Query(pattern=f"^({'|'.join(CONTRIBUTIONS)})?$", description="method, benchmark, …")
    ] = None,
    has_code: Annotated[bool | None, Query(description="Only papers with (true) or without (false) code.")] = None,
    topic: Annotated[
        int | None, Query(ge=0, le=MAX_TOPIC, description="Only this topic (an id from /api/topics).")
    ] = None,
) -> Filters:
    return Filters.parse(venue, year, contribution, has_code, topic)


FiltersParam = Annotated[Filters, Depends(filters)]
