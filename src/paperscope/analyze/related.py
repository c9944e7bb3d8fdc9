"""Related papers: those on the same specific problem first, each with a reason a person would give.

Generic similarity is what a sentence encoder gives best ("an LLM paper about efficiency"); the
specific problem ("speculative decoding", "GSM8K") is carried by the rare words two abstracts
share. So two lists are fused: the nearest papers by sentence vector, and a "more like this" BM25
query made of the paper's most distinctive words, weighted by inverse document frequency over the
whole library (not over the papers at hand: among 51 papers on language models, "language" looks
rare). The weight of the lexical list was chosen on the tune part of bench/data/related_judged.json
in a library of ~11.5k papers (bench/related.py).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from functools import cache, cached_property
from importlib.resources import files

from paperscope.analyze import phrases

LEXICAL_WEIGHT = 0.5
QUERY_WORDS = 20  # the distinctive words a "more like this" query is made of
MAX_SHARE = 0.05  # a word in more than this share of the library says nothing specific
REASON_SHARE = 0.01  # a reason names only words rarer than this ("scheme", "technique" are not reasons)
_WORD = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
# A link is no content: two papers whose code is on "sites.google.com" were "both about sites google".
_LINK = re.compile(r"\b(?:https?://|www\.)\S+", re.IGNORECASE)
# Words of the research genre: in every abstract, never what two papers have in common. And numbers
# spelled out ("2 million parameters" and "trained on a million images" share no subject).
_GENRE = frozenset(
    "thousand thousands million millions billion billions trillion trillions "
    "propose proposed proposes approach approaches method methods paper papers result results show shows "
    "shown demonstrate demonstrates novel existing new work works task tasks performance based using use used "
    "achieve achieves achieving state art significantly significant experiments experimental extensive "
    "effectiveness effective framework problem problems however yet also well first further different various "
    "improve improves improved improvement provide provides present presents introduce introduces study "
    "studies approach model models learning data many often recent recently key via make makes large".split()
)


@cache
def common_words() -> frozenset[str]:
    """The words the whole field writes: more than REASON_SHARE of the papers use them in three in four of
    the corpus's lists (data/common_words.txt, written by bench/common_words.py). In a small library a word
    two papers use looks rare: the seeds' reasons read "both about outperform", "both about solution"."""
    text = files("paperscope.analyze").joinpath("data", "common_words.txt").read_text(encoding="utf-8")
    return frozenset(line for line in text.splitlines() if line and not line.startswith("#"))


@cache
def stop_words() -> frozenset[str]:
    """scikit-learn's English stop words and the genre's."""
    return phrases.english_stop_words() | _GENRE


def words(text: str) -> list[str]:
    """The content words of a text, lower-cased, plurals folded ("decoders" → "decoder"), in order."""
    tokens = _WORD.findall(text.lower())
    try:
        return [term for term in map(_TERMS.__getitem__, tokens) if term]
    except KeyError:  # a token not seen yet (or the cache was emptied by another thread): learn as we go
        if len(_TERMS) > MAX_TERMS:
            _TERMS.clear()
        found = []
        for token in tokens:
            if (term := _TERMS.get(token)) is None:
                term = _TERMS[token] = _term(token)
            if term:
                found.append(term)
        return found


# Each token's content word ("" for none), kept between calls: a paper page reads ~120 abstracts, and
# a dictionary lookup per token costs a fraction of working the word out again.
_TERMS: dict[str, str] = {}
MAX_TERMS = 500_000


def _term(token: str) -> str:
    if token in stop_words() or len(token) < 3:
        return ""
    plural = len(token) > 4 and token.endswith("s") and not token.endswith(("ss", "us", "is", "es"))
    return token[:-1] if plural else token


class Terms:
    """A text's content words, read once: counted for its weights, and (when asked) its phrases."""

    def __init__(self, text: str) -> None:
        if "://" in text or "www." in text.lower():  # the search for links costs a third of reading a text
            text = _LINK.sub("\n", text)
        self.text = text
        self.counts = Counter(words(self.text))

    @cached_property
    def key_phrases(self) -> dict[str, list[str]]:
        """Its key phrases (analyze/phrases.py: runs of content words), keyed by their words made singular
        (how two texts are matched), each with every form it takes here, in order."""
        found: dict[str, list[str]] = {}
        for phrase in phrases.phrases(self.text):
            if all(len(w) > 1 and w[-1].isalnum() for w in phrase.split()):  # "dice- ø" of "Dice-Sørensen"
                found.setdefault(" ".join(map(phrases.singular, phrase.split())), []).append(phrase)
        return found


class Idf:
    """Inverse document frequencies over the whole library, worked out for every word at once (a
    library's vocabulary of 160k words takes ~70 ms; a paper page then looks up ~7k words)."""

    def __init__(self, frequencies: dict[str, int], total: int) -> None:
        self.frequencies, self.total = frequencies, max(total, 1)
        self.unseen = math.log(1 + self.total)
        self.values = {word: math.log((1 + self.total) / (1 + n)) for word, n in frequencies.items()}

    def __call__(self, word: str) -> float:
        return self.values.get(word, self.unseen)

    def rare(self, word: str, share: float = MAX_SHARE) -> bool:
        """In some papers, but in no more than `share` of them: few enough to say something specific."""
        return 0 < self.frequencies.get(word, 0) <= max(share * self.total, 2)


def distinctive(terms: Terms, idf: Idf, top: int = QUERY_WORDS) -> list[str]:
    """The words that best tell this text apart in the library: tf × idf, common words left out."""
    scores = {w: (1 + math.log(c)) * idf(w) for w, c in terms.counts.items() if idf.rare(w)}
    return sorted(scores, key=lambda w: -scores[w])[:top]


def shared_phrases(mine: Terms, theirs: Terms, idf: Idf, top: int = 3) -> list[str]:
    """The key phrases both texts use, the most telling first (by the sum of their words' IDF: "sudoku"
    before "large language models", "graph neural networks" before "neural networks"). A single word is
    a reason only when one of the texts says it again (what that paper is about, which the other names)
    and it is rare in the library and in the field: said once in each, it is how two sentences went
    ("clearly", "producing", "bird" of "bird's-eye view"). A phrase of two words needs no rare word:
    "domain adaptation" tells what two papers share though both its words are common. Read blind beside
    the word pairs given before (80 related pairs at 11.5k papers), these were the better reason in 56,
    the worse in 11, with 17 phrases a reader found wrong or empty against 45."""
    common = common_words()

    def telling(phrase: str) -> bool:
        if " " in phrase:
            return True
        said = max(len(mine.key_phrases[phrase]), len(theirs.key_phrases[phrase]))
        return said > 1 and idf.rare(phrase, REASON_SHARE) and phrase not in common

    shown = [mine.key_phrases[p][0] for p in mine.key_phrases.keys() & theirs.key_phrases.keys() if telling(p)]
    ranked = sorted(shown, key=lambda p: (-sum(idf(w) for w in p.split()), p))
    return phrases.distinct(ranked, top)


def _tf(count: int) -> float:
    """Sublinear term frequency."""
    return _TF[count] if count < len(_TF) else 1 + math.log(count)


_TF = [0.0] + [1 + math.log(count) for count in range(1, 64)]


def weights(terms: Terms, idf: Idf) -> dict[str, float]:
    """The text's TF-IDF vector (sublinear tf, IDF over the library), unit length."""
    values, unseen = idf.values, idf.unseen  # looked up here: ~7k words a paper page
    vector = {w: _tf(c) * values.get(w, unseen) for w, c in terms.counts.items()}
    norm = math.sqrt(sum(v * v for v in vector.values())) or 1.0
    return {w: v / norm for w, v in vector.items()}


def similarity(mine: dict[str, float], theirs: Terms, idf: Idf) -> float:
    """The cosine of `mine` (weights() of a text) and weights(theirs, idf), without building the
    other text's vector: a paper page compares ~120 texts (half the time of the comparison)."""
    values, unseen, counts = idf.values, idf.unseen, theirs.counts
    norm = math.sqrt(sum((_tf(c) * values.get(w, unseen)) ** 2 for w, c in counts.items())) or 1.0
    return sum(mine[w] * _tf(counts[w]) * values.get(w, unseen) for w in mine.keys() & counts.keys()) / norm


def rank(by_words: dict[str, float], by_meaning: dict[str, float | None]) -> list[tuple[str, float]]:
    """Candidates best first by LEXICAL_WEIGHT × their TF-IDF cosine + the rest × their sentence-vector
    cosine, each min-max scaled over the candidates (sentence cosines crowd between 0.5 and 0.8, TF-IDF
    cosines between 0 and 0.3: unscaled, the encoder would decide alone)."""
    words_scaled, meaning_scaled = _scaled(by_words), _scaled({k: v for k, v in by_meaning.items() if v is not None})
    scores = {
        pid: LEXICAL_WEIGHT * words_scaled.get(pid, 0.0) + (1 - LEXICAL_WEIGHT) * meaning_scaled.get(pid, 0.0)
        for pid in by_words
    }
    return sorted(scores.items(), key=lambda item: (-item[1], item[0]))


def _scaled(scores: dict[str, float]) -> dict[str, float]:
    if not scores:
        return {}
    low, high = min(scores.values()), max(scores.values())
    return {k: (v - low) / (high - low) if high > low else 1.0 for k, v in scores.items()}
