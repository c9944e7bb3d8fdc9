"""Writes lexical.NUMBER_FORMS: the English words whose singular or plurals lemminflect's dictionary gives
otherwise than inflection's rules, which lexical.singular and lexical.plurals read.

    pip install -e '.[test]' && python -m paperscope.index.number_forms

The rules alone made "bia" of "bias" and "biase" of "biases", "wafe" of "waves" and "curf" of "curves",
"criterium" of "criteria": a word's two numbers then never met in the index. lemminflect knows the English
words, but importing it and loading its tables added 0.5–0.8 s to each `paperscope search` on the command
line; its answers where they matter are this table, made once (tests/test_search.py checks that it is
what this module makes). A row is `singular<TAB>word<TAB>its singular` or `plural<TAB>singular<TAB>its
plurals`, space-separated.

Of a dictionary's several singulars, the one the rules give is taken when they give one of them ("axes" →
"axis", not "axe"), else the first. Where the dictionary has a word in -s as its own singular, the rules'
word is taken if it is a word at all: "semantics" then finds "semantic" and "means" "mean", as before the
dictionary (a Chinese query's "pragmatics" found the papers on "pragmatic" understanding it was written
for: bench/search_eval.py), while "bias" stays "bias", not "bia". A word in -s the dictionary knows only as
a verb takes the verb's base ("achieves" → "achieve").
"""

from __future__ import annotations

import inflection
import lemminflect

from paperscope.index import lexical


def table() -> str:
    """The rows of lexical.NUMBER_FORMS, sorted, one a line."""
    lemmatizer, inflections = lemminflect.Lemmatizer(), lemminflect.Inflections()
    known = {*lemmatizer._getLemmaDict(), *lemmatizer._getOverridesDict()}  # the words it has lemmas of
    rows = []
    for word in sorted(w for w in known if w.islower() and lexical.inflects(w)):
        if (one := _singular(word)) != lexical.rule_singular(word):
            rows.append(f"singular\t{word}\t{one}")
    nouns = inflections._getInflDict()  # the lemmas it has inflections of
    # a singular of two letters too: "goes" is "go", whose plurals are "goes", not the rules' "gos"
    for word in sorted(w for w in nouns if w.isascii() and w.isalpha() and w.islower()):
        if word in inflection.UNCOUNTABLES:
            continue
        many = _words(lemminflect.getAllInflections(word, upos="NOUN").get("NNS", ()), but=word)
        if many and many != (lexical.rule_plural(word),):
            rows.append(f"plural\t{word}\t{' '.join(many)}")
    return "".join(f"{row}\n" for row in rows)


def _singular(word: str) -> str:
    by_rule = lexical.rule_singular(word)
    found = lemminflect.getAllLemmas(word)
    lemmas = _words(found.get("NOUN") or (found.get("VERB") if word.endswith("s") else None) or ())
    if by_rule in lemmas or not lemmas:
        return by_rule
    if word in lemmas:
        return by_rule if lemminflect.getAllLemmas(by_rule) else word
    return lemmas[0]


def _words(forms: tuple[str, ...], but: str = "") -> tuple[str, ...]:
    """The forms lexical.singular can give (lower-case letters: not "jack-knife"), but `but`."""
    return tuple(form for form in forms if form.islower() and lexical.inflects(form) and form != but)


if __name__ == "__main__":
    lexical.NUMBER_FORMS.write_text(table(), encoding="utf-8")  # type: ignore[attr-defined]
