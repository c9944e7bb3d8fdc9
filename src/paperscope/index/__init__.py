"""What search needs, built from the store: the FTS5 lexical index (and, later, vectors)."""
