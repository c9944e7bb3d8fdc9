"""Facts about a paper drawn from its clean text."""

from paperscope.extract.links import split_links
from paperscope.extract.titles import display_title

__all__ = ["display_title", "split_links"]
