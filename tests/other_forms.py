"""What the tantivy index finds beyond a store's index of record (FTS5, PostgreSQL's posting table),
which looks for the words as typed: a query word in its other number ("models" for "model")."""

import re

from paperscope.index import lexical


def found_by_other_forms(library, query: lexical.Query, by_tantivy: list, by_record: list) -> int:
    """Checks that tantivy matched each paper the index of record matched, with every word where that
    one had them all, and that each paper it added, or found with every word where the other did not,
    holds a query word in its other number. Returns how many such papers there were."""
    tantivy_every = {h.paper_id: h.every for h in by_tantivy}
    assert {(h.paper_id, h.every) for h in by_record if h.every} <= tantivy_every.items()
    assert {h.paper_id for h in by_record} <= tantivy_every.keys()
    words = {word for term in query.content() for word in re.findall(r"\w+", term)}
    forms = {form for word in words for form in lexical.other_forms(word)}
    alike = {h.paper_id for h in by_record if h.every >= tantivy_every[h.paper_id]}
    for paper_id in tantivy_every.keys() - alike:
        written = set(re.findall(r"\w+", " ".join(lexical.document(library.paper(paper_id))).lower()))
        assert forms & written, (query.text, paper_id)
    return len(tantivy_every.keys() - alike)
