"""A readable title for papers that come without one, built from the name and what the abstract says."""

from __future__ import annotations

import re

from paperscope.extract.text import after, besides, find_cue, intro_sentences, sentences

MAX_TITLE_CHARS = 90


def display_title(title: str | None, abstract: str, name: str | None = None, expansion: str | None = None) -> str:
    """The title if there is one; else "NAME: what it is"; else the sentence that introduces the work."""
    if title:
        return title
    if not abstract.strip():
        return "(untitled)"
    introducing = intro_sentences(abstract)
    if name:
        what = expansion or _description(name, abstract) or _introduced(introducing, name)
        return _shorten(f"{name}: {what}" if what else name)
    told = sentences(abstract)
    also = next((sentence for sentence in introducing if besides(sentence)), None)
    if introducing and introducing[0] is not also and (introduced := _shorten(_capitalise(_after_cue(introducing[0])))):
        return introduced  # not when nothing follows the cue: an abstract that is only "CALLED"
    # What the work is said to be before what it "also introduces" ("This paper fills that gap by systematically
    # investigating …. We also introduce a clipping method …")
    before = told[: told.index(also)] if also else []
    stated = [t for s in before if _says_what_it_is(s) and (t := _statement(s)) and not _ANAPHORIC.match(t)]
    if stated:
        return _shorten(stated[0])
    if also and (introduced := _shorten(_capitalise(_after_cue(also)))):
        return introduced
    stated = [found for sentence in told if (found := _statement(sentence))]
    # One that says what it is about before one about "this question" (said in a sentence before it).
    stated.sort(key=lambda title: bool(_ANAPHORIC.match(title)))
    return _shorten(stated[0] if stated else told[0].rstrip(".")) or "(untitled)"


# "In this paper, we show that X", "We study how X", "The work presents X": what the authors say they do,
# where no sentence introduces something of theirs. Without it, 6 of the 51 seed papers were titled by
# their abstract's first sentence, often about others' work ("Recent work has demonstrated …").
_STATEMENT = re.compile(
    r"^(?:in this (?:paper|work|study),?\s+|here,?\s+)?(?:we|(?:this|the) (?:paper|work|study))\s+"
    r"(?:also\s+|first\s+|further\s+|(?!(?:apply|rely|supply|reply|multiply|imply|comply)\b)\w+ly\s+)?"
    r"(?P<verb>[a-z]+)\s+(?P<rest>\S.*)",
    re.IGNORECASE,
)
# Verbs of reporting: the title is what they report ("We show that X fails" -> "X fails").
_REPORTING = frozenset(
    "show shows find finds demonstrate demonstrates prove proves argue argues observe observes establish "
    "establishes present presents propose proposes introduce introduces describe describes".split()
)
# What a study does, which says what the work is better than what it also introduces: "we systematically compare X"
_STUDYING = frozenset(
    "study studies investigate investigates analyze analyzes analyse analyses examine examines compare compares "
    "characterize characterizes evaluate evaluates".split()
)
# "This paper fills that gap by systematically investigating X", "we close this gap … by showing that X": the
# title is what they do to fill it ("Systematically investigating X"; "X").
_GAP_FILLED_BY = re.compile(
    r"^(?:this|that|these|those) (?:[\w-]+ ){0,2}?(?:gap|gaps|problem|problems|issue|issues|question|questions|"
    r"challenge|challenges|limitation|limitations|shortcoming|shortcomings|void)\b[^.;]*?\bby\s+"
    r"(?P<adverb>\w+ly\s+)?(?P<verb>\w+ing)\s+(?P<rest>\S.*)",
    re.IGNORECASE,
)
_REPORTING_GERUNDS = frozenset("showing finding demonstrating proving arguing observing establishing revealing".split())
_LEADING_ASIDE = re.compile(r"^,\s[^,]{1,80},\s+")  # "that, both at initialization and in training, X" -> X
_ANAPHORIC = re.compile(r"^\w+ing (?:this|these|that|those|it|them)\b|^(?:This|These|It)\b")
_NOT_VERBS = frozenset("is are was were has have had can will must need should may might could would do".split())


def _says_what_it_is(sentence: str) -> bool:
    """A statement of what the work finds or studies, or how it fills a gap; not "We consider the problem of …"."""
    match = _STATEMENT.match(sentence)
    verb = match["verb"].lower() if match else ""
    finds = verb in _REPORTING and verb not in ("observe", "observes")  # "We observe that …": often the motivation
    return finds or verb in _STUDYING or bool(match and _GAP_FILLED_BY.match(match["rest"]))


def _statement(sentence: str) -> str | None:
    match = _STATEMENT.match(sentence)
    if not match or match["verb"].lower() in _NOT_VERBS:
        return None
    verb, said = match["verb"].lower(), match["rest"].rstrip(".")
    if filled := _GAP_FILLED_BY.match(said):
        if filled["verb"].lower() in _REPORTING_GERUNDS:
            return _capitalise(_what_follows(filled["rest"]))
        return _capitalise(f"{filled['adverb'] or ''}{filled['verb']} {filled['rest']}")
    rest = re.sub(r"^that\s+", "", said)
    if verb in _REPORTING:
        return _capitalise(rest)
    if not match.group().lower().startswith(("we", "in this", "here")):  # "this paper studies": "study"
        verb = re.sub(r"ies$", "y", verb) if verb.endswith("ies") else re.sub(r"(ss|ch|sh|x)es$|s$", r"\1", verb)
    return _capitalise(f"{_gerund(verb)} {rest}")


def _what_follows(reported: str) -> str:
    """What a reporting verb reports: "that, in the lazy regime, X" -> "X"."""
    return _LEADING_ASIDE.sub("", re.sub(r"^that\b\s*", "", reported))


def _gerund(verb: str) -> str:
    """ "relax" -> "relaxing", "provide" -> "providing", "study" -> "studying" (consonants are not doubled)."""
    if verb.endswith("ie"):
        return verb[:-2] + "ying"
    if verb.endswith("e") and not verb.endswith("ee"):
        return verb[:-1] + "ing"
    return verb + "ing"


_APPOSITION = re.compile(r",\s+((?:a|an|the|which)\s[^.;:]+)")


def _description(name: str, abstract: str) -> str | None:
    """ "NEMO, a system that translates ..." -> "a system that translates ..."."""
    for rest in after(abstract, name):
        match = _APPOSITION.match(rest)
        if match:
            return re.sub(r"^which\s+", "", match.group(1))
    return None


def _introduced(introducing: list[str], name: str) -> str | None:
    """ "we propose a proactive framework for X, named as ProCAD" -> "a proactive framework for X"."""
    for sentence in introducing:
        if name in sentence:
            what = re.split(r",?\s+(?:named|called|dubbed|termed)\b|\s*,\s*" + re.escape(name), _after_cue(sentence))[0]
            if what and what != name and name not in what:
                return what
    return None


def _after_cue(sentence: str) -> str:
    cue = find_cue(sentence)
    rest = sentence[cue[1] :] if cue else sentence
    return re.sub(r"^\s*(?:to\s+|that\s+|a\s+|an\s+|the\s+)?", "", rest).rstrip(".")


def _capitalise(text: str) -> str:
    return text[:1].upper() + text[1:]


def _shorten(text: str) -> str:
    text = " ".join(text.split()).rstrip(".,;: ")
    if len(text) <= MAX_TITLE_CHARS:
        return text
    return text[: MAX_TITLE_CHARS - 1].rsplit(" ", 1)[0].rstrip(",;:") + "…"
