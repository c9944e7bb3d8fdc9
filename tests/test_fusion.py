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


def test_a_query_of_ten_words_is_a_description_and_of_twenty_chinese_characters_too():
    every, some = [LexicalHit("a", 1.0, True)], [LexicalHit("a", 1.0, False)]
    nine = "speculative decoding with draft trees for language model serving"
    assert fusion.gate(nine, every) == "every_short"
    assert fusion.gate(nine + " systems", every) == "every_long"
    assert fusion.gate(nine, some) == "some"  # no paper has every word: keywords or not
    nineteen = "大语言模型推理中的推测解码与草稿树方法研究"[:19]
    assert fusion.gate(nineteen, every) == "chinese_short"
    assert fusion.gate(nineteen + "究", every) == "chinese_long"
