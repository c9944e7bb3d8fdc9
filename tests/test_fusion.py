"""Fusing the lexical and semantic lists (index/fusion.py), on lists made by hand."""

from __future__ import annotations

from paperscope.index import fusion
from paperscope.index.lexical import LexicalHit

# the lexical list as a search gives it: the paper with every word first, though a paper with some words
# scores higher on BM25 (its one word is rare)
LEXICAL = [LexicalHit("every", 16.9, True), LexicalHit("some", 18.1, False), LexicalHit("less", 12.0, False)]
SEMANTIC = [("guess", 0.70), ("some", 0.61), ("every", 0.60), ("less", 0.40)]  # best first


def ranked(weight: float) -> list[str]:
    weights = fusion.Weights(dict.fromkeys(fusion.GATES, weight), cutoff=0.0)
    return [pid for pid, _, _ in fusion.combine("two words", LEXICAL, SEMANTIC, weights)]


def test_at_a_lexical_weight_of_one_hybrid_ranks_as_lexical_does():
    assert ranked(1.0) == ["every", "some", "less"]


def test_the_encoder_can_still_reorder_the_lexical_list_below_that():
    assert ranked(0.3)[:2] == ["some", "every"]  # nearer in meaning, and as good on words (capped)


def test_the_parts_keep_each_lists_own_scores():
    weights = fusion.Weights(dict.fromkeys(fusion.GATES, 0.5), cutoff=0.0)
    parts = {pid: p for pid, _, p in fusion.combine("two words", LEXICAL, SEMANTIC, weights)}
    assert parts["some"]["lexical"] == 18.1 and parts["some"]["lexical_rank"] == 2
