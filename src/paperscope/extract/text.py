"""Sentences, and the sentences where a paper introduces its own work."""

from __future__ import annotations

import re
from functools import lru_cache

from paperscope.normalize.sentences import SENTENCE_END

_CJK_SENTENCE_END = re.compile(r"(?<=[。！？])")
_STEMS = (
    "propos",
    "introduc",
    "present",
    "develop",
    "design",
    "devis",
    "coin",
    "call",
    "term",
    "nam",
    "dub",
    "build",
    "construct",
    "releas",
    "creat",
    "put forward",
    "offer",
    "refer",
    "our ",
    "the resulting ",
    "the new ",
)
# "We propose X", "this paper introduces X", "our proposed X", "named X". Matched on lower-cased text,
# verb first and then its subject: one lazy pattern for both was the slowest step of extraction.
# Verbs only (and "namely"), not the nouns and adjectives these stems begin: "propositional logic", "in terms of",
# "the two coincide", "dubious", "creatures", "constructive", "construction-dominant" (each once read as the authors
# introducing what follows).
_VERB = re.compile(
    r"\b(?:propos(?:e|es|ed|ing|als?)|introduc\w*|present\w*|develop\w*|design\w*|devis\w*|coin(?:s|ed|ing)?|"
    r"call\w*|term(?:ed|ing|s(?! of)|)|nam(?:e|es|ed|ing|ely)|dub(?:s|bed|bing)?|build\w*|"
    r"construct(?:s|ed|ing|ion(?!-))?|releas\w*|creat(?:e|es|ed|ing|ion)|put forward|offer\w*)\b"
)
# "proposed by Mikolov et al." names another's work; "proposed by using a spiral mechanism" their own.
_BY_SOMEONE = re.compile(r" by (?!\w+ing\b)")
# The verbs of using another's work, in any form: "we propose to use SVIn2", "using TS-CAN, a …".
BORROWING = (
    r"(?:us(?:e|es|ed|ing)|appl(?:y|ies|ied|ying)|adopt\w*|employ\w*|leverag\w*|utili[sz]\w*|exploit\w*|reus\w*)"
)
_TO_USE = re.compile(rf" to {BORROWING}\b")  # what they use, not what they introduce
# "A recently proposed method called DeepReach": another's work, named.
_OTHERS_NAMED = re.compile(r"\b(?:recently|previously|originally) (?:proposed|introduced|developed)\b[^,;]*$")
NAMING_WORDS = ("named", "called", "dubbed", "termed", "calling")  # what gives a thing its name: "a method called X"
_SUBJECTS = ("we", "this ", "our ", "here")  # what a subject holds, as substrings: tested before the pattern
# \bwe|\bthis (…), written with each word's first letter ahead of the check that no letter precedes it: a pattern
# that begins with letters lets `re` skip to where one of them stands, one that begins with \b tries every place
_SUBJECT = re.compile(r"(?:w(?<!\w.)e|t(?<!\w.)his (?:paper|work|study)|o(?<!\w.)ur (?:work|paper)|h(?<!\w.)ere)\b")
_MARKER = re.compile(
    r"\b(?:our (?:proposed|new)\b|our (?:method|approach|framework|model|system),|"
    # the work as a sentence's subject, named after a comma: "The proposed algorithm, bicycle reciprocal collision
    # avoidance (B-ORCA), has …", "We evaluate the resulting approach, Perceive with Confidence (PwC), …"
    r"(?=the )(?<!in )(?<!of )(?<!on )(?<!to )(?<!by )(?<!with )(?<!for )(?<!from )(?<!under )"
    r"the (?:proposed|resulting|new) (?:[\w-]+ ){0,3}?(?:method|algorithm|approach|framework|model|system|technique|"
    r"scheme|network|architecture|controller|planner|estimator|strategy|policy|robot|device),"
    r"(?= (?:called |named )?[^,;()]{3,100}\([\w-]+\)| [a-z]*[A-Z][\w-]*[A-Z][\w-]*,)|"
    rf"(?:{'|'.join(NAMING_WORDS)})\b|"
    # not what the field calls a thing ("commonly referred to as mobile manipulation (MoMa)"), nor what a definition
    # or a passive says ("A function is referred to as a Sparse Additive Model (SPAM) if", "this is referred to as
    # cooperative localization (CL)")
    r"(?=refer)(?<!commonly )(?<!generally )(?<!often )(?<!usually )(?<!typically )(?<!sometimes )(?<!widely )"
    r"(?<!also )(?<!traditionally )(?<!conventionally )(?<!frequently )(?<!hereafter )"
    r"(?<!is )(?<!are )(?<!was )(?<!were )(?<!be )(?<!been )refer(?:red)? to as\b)"
)

# What another might do, not what the authors do: "they could directly construct"; not "we could construct", "this
# paper would present"
_HYPOTHETICAL = re.compile(r"\b(?!we\b|paper\b|work\b|study\b)\w+\s+(?:could|might|would|may)\s+(?:\w+ly\s+)?$")
# What a marker holds, as substrings: tested before the pattern, which tries its lookbehinds at every place
_MARKERS = ("our ", "the proposed ", "the resulting ", "the new ", *NAMING_WORDS, "refer")


@lru_cache(maxsize=16)  # several extractors ask for the sentences of the same abstract in turn
def sentences(text: str) -> tuple[str, ...]:
    parts = SENTENCE_END.split(text)
    if any(mark in text for mark in "。！？"):
        parts = [piece for part in parts for piece in _CJK_SENTENCE_END.split(part)]
    return tuple(s.strip() for s in parts if s.strip())


@lru_cache(maxsize=256)
def find_cue(sentence: str) -> tuple[int, int] | None:
    """Where the authors' introducing words stand in a sentence: (start of the subject, end of the verb)."""
    lower = sentence.lower()
    if not any(map(lower.__contains__, _STEMS)):  # substring tests are far cheaper than the patterns below
        return None
    if len(lower) != len(sentence):  # a few Unicode letters change length when lower-cased
        lower = "".join(c.lower() if len(c.lower()) == 1 else c for c in sentence)
    found = []
    # A subject and a verb after it; the sentence's subjects are found once, in one pass. (A subject ends with a
    # word's letter, a verb begins one after a non-letter, so a subject before a verb is one of these.)
    subjects = [m.span() for m in _SUBJECT.finditer(lower)] if any(map(lower.__contains__, _SUBJECTS)) else []
    for verb in _VERB.finditer(lower) if subjects else ():
        if _BY_SOMEONE.match(lower, verb.end()) or _TO_USE.match(lower, verb.end()):
            continue  # "the contribution introduced by textual cues", "we propose to use SVIn2": not theirs
        if _HYPOTHETICAL.search(lower, max(0, verb.start() - 40), verb.start()):
            continue  # "We consider two hypotheses: models could …, or they could directly construct X"
        before = [subject for subject in subjects if subject[1] <= verb.start()]
        if before and ";" not in lower[before[-1][1] : verb.start()]:
            found.append((before[-1][0], verb.end()))
            break
    marker = _MARKER.search(lower) if any(map(lower.__contains__, _MARKERS)) else None
    if marker and not _OTHERS_NAMED.search(lower, 0, marker.start()):
        found.append((marker.start(), marker.end()))
    return min(found) if found else None


# What the work does besides its main contribution: "We also introduce …", "In addition, we release …".
_BESIDES = re.compile(r"\b(?:also|additionally|in addition)\b", re.IGNORECASE)


def besides(sentence: str) -> bool:
    """Whether an introducing sentence says what the work also does ("We also propose a simple method")."""
    cue = find_cue(sentence)
    return bool(cue and _BESIDES.search(sentence, 0, cue[1]))


@lru_cache(maxsize=16)
def intro_sentences(text: str) -> tuple[str, ...]:
    """Sentences in which the authors introduce something of their own."""
    return tuple(s for s in sentences(text) if find_cue(s))


def after(text: str, lead: str) -> list[str]:
    """What follows each whole-word occurrence of `lead` (a name) in the text."""
    found, start = [], text.find(lead)
    while start >= 0:
        end = start + len(lead)
        before = text[start - 1] if start else " "
        if not (before.isalnum() or before == "-") and not (end < len(text) and text[end].isalnum()):
            found.append(text[end:])
        start = text.find(lead, start + 1)
    return found


def outermost(found: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """(start, name) mentions, less those that lie inside another ("CIFAR-10" inside "CIFAR-100",
    "RobotCar" inside "Oxford RobotCar")."""
    spans = {(start, start + len(name)) for start, name in found}
    return [
        (start, name)
        for start, name in found
        if not any(s <= start and start + len(name) <= e and (s, e) != (start, start + len(name)) for s, e in spans)
    ]
