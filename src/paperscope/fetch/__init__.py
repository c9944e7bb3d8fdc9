"""Fetching paper lists from the OpenReview and arXiv APIs into files that ingest like any other."""
