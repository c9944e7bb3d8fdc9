"""Key phrases of a paper: the one-to-three-word runs of content words in its title and abstract.

A run stops at any function word, adverb ("theoretically") or word of the research genre
("propose", "results", "show"), so what is left is noun-phrase-like: "speculative decoding", "graph
neural networks", "point cloud". A single word is a phrase only when it has four letters or more
("dp", "ood" are not) and says something alone ("model", "data" do not); inside a longer phrase
both kinds are kept ("3d point cloud", "training data").
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from importlib.resources import files

LONGEST = 3
ENDS, STARTS = "$", "^"  # mark a phrase that ends or starts its run (phrases_and_edges): no word holds them
_ADVERB = re.compile(r"(?:al|iv|ou|en|an|ing|ed)ly$")  # "theoretically", "effectively" end a run
# Words, hyphenated words and "3d"; any other mark that is not a space ends a run, like a stop word.
_TOKEN = re.compile(r"\b[a-z][a-z0-9]*(?:-[a-z0-9]+)*|\b\d+d\b|[^\sa-z0-9-]")
# A link is where the paper lives, not what it is about: "github" and "com" would otherwise label topics.
_LINK = re.compile(r"(?:https?://|www\.)\S+|\b[\w.-]+\.(?:com|org|io|net|co|ai|dev|edu)\b(?:/\S*)?", re.IGNORECASE)
# Nor is a formula's source what a reader is told a paper is about: "$\tilde{O}(\sqrt{T})$" gave "tilde"
# and "sqrt" as what two papers share, and "log t" as a topic's label. As a feature of likeness it stays:
# bandit papers share their $\sqrt{T}$ (bench/recommend.py, held out: precision@5 0.875 with formulas,
# 0.863 without).
_FORMULA = re.compile(r"\$[^$]*\$|\\\(.*?\\\)")
# The genre's own function words: how papers talk, not what they are about.
GENRE_WORDS = frozenset(
    """
    ability able accurate achieve achieved achieves achieving across address addresses addressing
    advance advances allow allows aim aims also available apply applied applying approach approaches art based
    benefit better broad challenge challenges challenging common compared comparable competitive comprehensive
    consider considered considering conduct conducted consistently contribution contributions crucial current
    degrade degrades currently demonstrate demonstrated demonstrates demonstrating designed despite develop
    developed different difficult directly distinct diverse does effective effectively efficiently employ employed
    employing employs empirical
    empirically entire enable enables enabling especially establish exhibit exhibits evaluate evaluated
    evaluation evaluations even existing experiment experimental experiments extensive extensively fail fails
    far finally find findings first focus formulate formulated formulates formulating fundamental framework
    frameworks furthermore general generally given
    good great help highly however illustrate important incorporate incorporates improve improved improvement
    improvements improves improving include including increase increasingly introduce introduced introduces key
    known lack lacks lead leading leads leverage leverages learns leveraging like limited literature lot main motivated
    make makes making many may method methods might minimal moreover much naturally need needs new notably novel
    number numerous obtain offer often one outperform outperforming outperforms overall paper papers particular
    particularly perform performance performs play plays possible potential powerful practical present presents
    previous previously problem problems promising propose proposed proposes prove provably provide provided
    provides providing publicly range rather recent recently reduce reduces remain remains require requires
    respectively result results reveal reveals robust second several shed show showed showing shown shows
    significant significantly simple simultaneously since specific specifically state-of-the-art strong studied
    studies study substantial substantially successfully suggest superior task tasks technique techniques
    thereby third three thus two typically unlike us use used uses using usually various via way ways well
    whether widely work works yet
""".split()
)
# scikit-learn's list (Glasgow's) also holds words that name research topics: "computer vision".
_TOPICAL = {
    "bottom",
    "computer",
    "fire",
    "front",
    "full",
    "interest",
    "move",
    "name",
    "part",
    "side",
    "system",
    "thick",
    "thin",
    "top",
}


@functools.cache
def english_stop_words() -> frozenset[str]:
    """scikit-learn's English stop words, from the package's copy of them (data/english_stop_words.txt)."""
    text = files("paperscope.analyze").joinpath("data", "english_stop_words.txt").read_text(encoding="utf-8")
    return frozenset(line for line in text.splitlines() if line and not line.startswith("#"))


@functools.cache
def stop_words() -> frozenset[str]:
    """The words a phrase never holds: scikit-learn's English stop words (less the topical ones), the genre's
    and citation crumbs."""
    return (english_stop_words() - _TOPICAL) | GENRE_WORDS | {"et", "al", "e", "g", "i", "ie", "eg", "vs"}


# Words that belong in a phrase ("large language models", "training data") but say nothing alone.
GENERIC_WORDS = frozenset(
    """
    accuracy algorithm algorithms analysis baseline baselines benchmark benchmarks case cases conditions data
    dataset datasets efficiency efficient factor factors information intrinsic learning mechanism
    mechanisms metric metrics model models network networks process processes quality step steps system
    sqrt systems training
""".split()
)


def phrases(text: str) -> list[str]:
    """Every 1–3-word run of content words in `text`, formulas left out (repeats kept, in order): what a
    reader is told a paper is about (topic labels, the reasons of related papers)."""
    return [gram for run in _runs(_FORMULA.sub(" . ", text)) for gram in _grams(run)]


def phrases_and_formulas(text: str) -> list[str]:
    """phrases(text) with the words of its formulas' source: what a paper is like (recommendations)."""
    return [gram for run in _runs(text) for gram in _grams(run)]


def phrases_and_edges(text: str) -> list[str]:
    """phrases(text), then each of its phrases of two or three words that ends its run of content words
    again, marked with ENDS after it, and each that starts its run, marked with STARTS before it
    ("markov chain monte" is in "markov chain monte carlo" but never ends it). Read by
    bench/cut_phrases.py, which writes cut_phrases()."""
    found: list[str] = []
    edges: list[str] = []
    for run in _runs(text):
        found += _grams(run)
        for size in range(2, min(LONGEST, len(run)) + 1):
            edges += [STARTS + " ".join(run[:size]), " ".join(run[-size:]) + ENDS]
    return found + edges


@functools.cache
def cut_phrases() -> frozenset[str]:
    """The phrases the field writes only inside longer ones: "markov chain monte", "convolutional neural",
    "deep metric" (data/cut_phrases.txt, written by bench/cut_phrases.py from the corpus)."""
    text = files("paperscope.analyze").joinpath("data", "cut_phrases.txt").read_text(encoding="utf-8")
    return frozenset(line for line in text.splitlines() if line and not line.startswith("#"))


def _runs(text: str) -> Iterable[list[str]]:
    """The runs of content words in `text`, each a list of its words."""
    run: list[str] = []
    stop = stop_words()
    for word in [*_TOKEN.findall(_LINK.sub(" . ", text.lower())), "."]:  # "." ends the last run
        if word in stop or not word[0].isalnum() or _ADVERB.search(word):
            if run:
                yield run
            run = []
        else:
            run.append(word)


def _grams(run: list[str]) -> Iterable[str]:
    for size in range(1, LONGEST + 1):
        for start in range(len(run) - size + 1):
            gram = run[start : start + size]
            if size == 1 and (len(gram[0]) < 4 or gram[0] in GENERIC_WORDS):
                continue
            yield " ".join(gram)


def distinct(ranked: Iterable[str], limit: int) -> list[str]:
    """The first `limit` phrases, skipping one cut from a longer one (cut_phrases) and one that says again
    what a phrase already taken says: one that shares a telling word with it ("neural networks" or "graph
    neural" after "graph neural networks", "robots" after "robot"; "deep learning" and "reinforcement
    learning" share only a generic word, so both stay), is the same with a hyphen for a space ("low-rank"
    after "low rank"), or is a single word that is its initials ("cnns" after "convolutional neural
    networks"; "offline rl" after "reinforcement learning" says more) or one of its words with another
    ending ("fair" after "fairness", "cluster" after "k-means clustering", "policies" after "policy")."""
    taken: list[str] = []
    cut = cut_phrases()
    for phrase in ranked:
        if phrase in cut or not _telling(phrase) or any(_repeats(phrase, other) for other in taken):
            continue
        taken.append(phrase)
        if len(taken) == limit:
            break
    return taken


def _telling(phrase: str) -> set[str]:
    return {singular(w) for w in phrase.split() if w not in GENERIC_WORDS}


def _repeats(phrase: str, taken: str) -> bool:
    if _telling(phrase) & _telling(taken) or phrase.replace("-", " ") == taken.replace("-", " "):
        return True
    if " " in phrase:
        return False
    return singular(phrase) == "".join(w[0] for w in taken.split()) or _stem(phrase) in map(_stem, taken.split())


_ENDING = re.compile(r"(?:ness|ing|ity|ic|al|ed|er)$")


def _stem(word: str) -> str:
    """The word without its endings, while four letters are left: "clustering" and "cluster" are "clust",
    "statistical" and "statistics" "statist", "policies" "policy"."""
    word = word[:-3] + "y" if word.endswith("ies") else singular(word)
    while (ending := _ENDING.search(word)) and ending.start() >= 4:
        word = word[: ending.start()]
    return word


def singular(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word
