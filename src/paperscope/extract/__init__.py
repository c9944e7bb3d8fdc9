"""Facts about a paper drawn from its clean text: never raises, and leaves out what it is unsure of."""

from __future__ import annotations

from dataclasses import dataclass, field

from paperscope.extract.claims import find_claims
from paperscope.extract.contribution import classify
from paperscope.extract.entities import find_benchmarks, find_models
from paperscope.extract.links import split_links
from paperscope.extract.names import find_name
from paperscope.extract.titles import display_title
from paperscope.model import Claim
from paperscope.normalize.math import to_unicode

__all__ = ["Facts", "display_title", "extract", "split_links"]


@dataclass
class Facts:
    name: str | None = None
    name_expansion: str | None = None
    models: list[str] = field(default_factory=list)
    benchmarks: list[str] = field(default_factory=list)
    claims: list[Claim] = field(default_factory=list)
    contribution: str = "method"
    display_title: str = "(untitled)"


def extract(title: str | None, abstract: str, raw: str = "") -> Facts:
    """Name, expansion, models, benchmarks, claims, contribution and display title of one paper.

    The name, its expansion and the display title are text to be read, not typeset: their formulas
    are given in Unicode ("Top-$k$" → "Top-k", "T$^2$SQNet" → "T²SQNet"); the title field keeps them."""
    title = to_unicode(title) if title else None
    try:
        named = find_name(abstract, raw, title)
        name = named.name if named else None
        expansion = named.expansion if named else None
        models = find_models(abstract, exclude=name)
        benchmarks = find_benchmarks(abstract, exclude=name, known_models=models)
        claims = find_claims(abstract, benchmarks)
        return Facts(
            name=_readable(name),
            name_expansion=_readable(expansion),
            models=models,
            # and what a claim was measured on, a name the lists do not know ("870 on HopperStand")
            benchmarks=list(dict.fromkeys([*benchmarks, *(c.benchmark for c in claims if c.benchmark)])),
            claims=claims,
            contribution=classify(abstract, name, title),
            display_title=to_unicode(display_title(title, abstract, name, expansion)),
        )
    except RecursionError:  # pathological input: no facts rather than no paper
        return Facts(display_title=to_unicode(display_title(title, abstract)))


def _readable(text: str | None) -> str | None:
    return to_unicode(text) if text else text
