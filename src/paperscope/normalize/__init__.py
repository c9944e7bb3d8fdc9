"""Raw strings to clean ones: plain text, safe HTML, repaired URLs."""

from paperscope.normalize.text import CleanText, clean_text, fold

__all__ = ["CleanText", "clean_text", "fold"]
