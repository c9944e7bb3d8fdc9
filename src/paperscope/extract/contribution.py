"""What kind of paper it is: method, benchmark, dataset, theory, analysis, system, position or survey."""

from __future__ import annotations

import re
from collections import Counter

from paperscope.extract.text import after, besides, find_cue, intro_sentences

# What a paper calls the thing it introduces: "NEMO, a system that ...", "we release a new benchmark".
_NOUNS = {
    "system": "system",
    "platform": "system",
    "library": "system",
    "toolkit": "system",
    "engine": "system",
    "tool": "system",
    "demo": "system",
    "benchmark": "benchmark",
    "suite": "benchmark",
    "testbed": "benchmark",
    "leaderboard": "benchmark",
    "dataset": "dataset",
    "corpus": "dataset",
    "datasets": "dataset",
    "collection": "dataset",
    "framework": "method",
    "method": "method",
    "model": "method",
    "approach": "method",
    "algorithm": "method",
    "pipeline": "method",
    "technique": "method",
    "architecture": "method",
    "network": "method",
    "loss": "method",
    "objective": "method",
    "strategy": "method",
    "procedure": "method",
    "paradigm": "method",
    "module": "method",
    # what else a method is called after "we propose/present" (CVPR 2013: "we present a novel solution to compute
    # the relative pose", ECCV 2020: "a novel cross-domain mixup scheme"), so that a stray theory or study cue
    # elsewhere does not decide the kind alone
    "scheme": "method",
    "solution": "method",
    "estimator": "method",
    "controller": "method",
    "planner": "method",
    "detector": "method",
    "tracker": "method",
    "descriptor": "method",
    "solver": "method",
    "classifier": "method",
    "regularizer": "method",
}
_APPOSITIVE = re.compile(
    r",\s+(?:a|an|the)\s+(?:[^\s,.]+\s+){0,4}?(?P<noun>" + "|".join(_NOUNS) + r")\b", re.IGNORECASE
)
_LETTERS = re.compile(r"[a-z]+")
_WORDS = re.compile(r"[a-z][a-z-]*")
_BENCH_NAME = re.compile(r"[a-z]Bench\b")
_OBJECT_WORDS = 8  # the introduced thing is named within this many words of the verb
# Cues anywhere in the abstract, looked up word by word (a regular expression with this many
# alternatives, tried at every position, was the slowest part of extraction).
_WORD_CUES = {
    "theory": (
        {"theorem", "theorems", "provably", "provable", "regret", "minimax", "non-asymptotic"},
        {
            ("lower", "bound"),
            ("lower", "bounds"),
            ("upper", "bound"),
            ("upper", "bounds"),
            ("we", "prove"),
            ("we", "derive"),
            ("we", "establish"),
            ("sample", "complexity"),
            ("convergence", "rate"),
            ("theoretical", "analysis"),
            ("theoretical", "framework"),
            ("theoretical", "guarantees"),
            ("theoretical", "results"),
        },
    ),
    "analysis": (
        set(),
        {
            ("we", "study"),
            ("we", "investigate"),
            ("we", "analyze"),
            ("we", "analyse"),
            ("we", "examine"),
            ("we", "find"),
            ("we", "reveal"),
            ("we", "uncover"),
            ("we", "ask"),
            ("we", "characterize"),
            ("empirical", "study"),
            ("systematic", "study"),
            ("systematically", "investigate"),
            ("our", "analysis"),
            ("our", "findings"),
        },
    ),
    # not "the position": robotics papers speak of a robot's position (953 ICRA and IROS papers were
    # labelled position papers by it)
    "position": (set(), {("position", "paper"), ("paper", "argues")}),
    # not "we survey" nor "we review": method papers review the work before theirs; nor "literature
    # review", a task ("LLM agents for literature review")
    "survey": (
        set(),
        {
            ("this", "survey"),
            ("comprehensive", "survey"),
            ("systematic", "survey"),
            ("comprehensive", "review"),
            ("systematic", "review"),
            ("comprehensive", "overview"),
        },
    ),
}
_WEIGHTS = {"theory": 1.0, "analysis": 0.8, "position": 3.0, "survey": 2.0}
# Each pair as it reads among the abstract's words joined by spaces (" we prove "): a substring test.
_JOINED_PAIRS = {kind: [(a, b, f" {a} {b} ") for a, b in sorted(doubles)] for kind, (_, doubles) in _WORD_CUES.items()}
# A title says a lot when there is one: "An Empirical Analysis of ...", "Sample Complexity Bounds for ...". Each
# cue with the words one of which its title must hold (lower-cased), tested before the pattern.
_STUDYING = (  # not "Topological Data Analysis", "Categorical Data Analysis": a task (32 corpus titles)
    "(?<!data )analysis|analyzing|understanding|study|investigating|exploring|probing|revisiting|lessons|on the|"
    "when|why|how|what|are|is"
)
_TITLE_CUES = [
    # not what is done to datasets ("Dataset Distillation", "Cross-Dataset Pruning")
    (
        re.compile(
            r"(?<!cross-)(?<!cross )\b(?:dataset|corpus)\b(?![- ](?:distillation|condensation|augmentation|pruning|"
            r"shift|bias|complexity|selection|quality|diversity|bottleneck|based|wide|aware|mining|aggregation)\b)",
            re.IGNORECASE,
        ),
        "dataset",
        3.0,
        ("dataset", "corpus"),
    ),
    (re.compile(r"\bbenchmark|[a-z]Bench\b", re.IGNORECASE), "benchmark", 3.0, ("bench",)),
    (
        re.compile(
            # the words looked ahead for first: the lookbehinds, tried at every place, had made this the slowest cue
            rf"\b(?=(?:{_STUDYING})\b)"
            r"(?<!sentiment )(?<!component )(?<!components )(?<!discriminant )(?<!correlation )(?<!factor )"
            r"(?<!survival )(?<!cloud )(?<!image )(?<!video )(?<!scene )(?<!feature )(?<!cause )"  # tasks, methods
            rf"(?:{_STUDYING})\b|"
            # a question asks "Do …", "Can …"; not "Monkey See, Monkey Do", "DO-RRT", "a skin that can sense"
            r"(?:^|:\s*)(?:do|does|can)\b|\?",
            re.IGNORECASE,
        ),
        "analysis",
        1.5,
        (),
    ),
    # "Evaluating Bayesian deep learning …"; not "A Sensor for Assessing …" nor "TofuEval: Evaluating …" (a benchmark)
    (re.compile(r"^(?:towards?\s+)?(?:re-?)?(?:evaluating|assessing|comparing)\b", re.IGNORECASE), "analysis", 1.5, ()),
    (
        re.compile(
            r"\b(?:bounds?|convergence|theory|theoretical|complexity|identifiability|"
            # optimal rates, not optimal control, transport or design (robotics and ML method titles: a blind
            # reading of 40 of the ~520 changed kinds found 25 better, 10 worse)
            r"(?:near[- ]?|nearly\s+|minimax\s+)optimal|"
            r"optimal\s+(?:rates?|regret|bounds?|sample|algorithms?|convergence|error)|"
            r"guarantees?|minimax|regret|(?<!prove )(?<!proving )theorems?(?! prov))\b",
            re.IGNORECASE,
        ),
        "theory",
        1.5,
        (),
    ),
    # "…: A Survey", "A Survey of …", "Survey on …", "A Review of …"; not "Survey Sampling" nor "survey path
    # planning"
    (
        re.compile(
            r"\b(?:a|an|short|brief|comprehensive|systematic) survey\b|^survey\b|\bsurvey (?:of|on)\b|"
            r"^(?:an?\s+)?(?:(?:brief|short|critical|comprehensive|systematic)\s+)?review\s+(?:of|on)\b|:\s*an?\s+review\b",
            re.IGNORECASE,
        ),
        "survey",
        3.0,
        ("survey", "review"),
    ),
    # "Position: …", not "Position control of …"
    (re.compile(r"^position\s*:|\bposition paper\b", re.IGNORECASE), "position", 3.0, ("position",)),
]


# A title that says at its head that the paper is a study: "A Comparative Analysis of …", "An Empirical
# Study of …", "A Theoretical Analysis of …", "A Comparison of …". Only such words before the head noun: a noun
# there names a task or a method ("Off-Policy Evaluation of …", "Shape Analysis of …"), as do "Fast Evaluation
# of …" (computing it) and "Design and Evaluation of …" (a method paper's own). A bare "Analysis of …",
# "Evaluation of …", "Investigation of …" heads as many papers that design what they analyse (a blind reading
# of 30 changed kinds: 11 of 13 such titles were wrong), and says nothing.
_STUDY_WORDS = [
    "comparative", "empirical", "systematic", "quantitative", "qualitative", "comprehensive", "large[- ]scale",
    "critical", "careful", "detailed", "thorough", "rigorous", "in-depth", "extensive", "exploratory",
    "theoretical", "formal", "refined", "improved", "tighter", "sharper", "unified", "closer", "convergence",
    "complexity",
]  # fmt: skip


def _study_title(words: list[str]) -> re.Pattern[str]:
    study = rf"(?:{'|'.join(words)})\s+"
    return re.compile(
        rf"^(?:(?:an?|the)\s+(?:{study}){{0,2}}|(?:{study}){{1,2}})"
        r"(?:analysis|study|evaluation|investigation|examination)\s+(?:of|on|into)\b|"
        rf"^(?:an?\s+)?(?:{study}|experimental\s+|performance\s+)?comparison\s+(?:of|between)\b",
        re.IGNORECASE,
    )


_STUDY_TITLE = _study_title([*_STUDY_WORDS, "case"])
# The same after a title's colon or question mark ("Trapped in Texture Bias? A Large Scale Comparison of …"),
# but not "…: A Case Study on X", which as often applies the method the title names to X (a blind reading: 5
# of 8 such titles were method papers), nor after a name alone ("CILex: An Investigation of …").
_STUDY_SUBTITLE = _study_title(_STUDY_WORDS)
_SUBTITLE = re.compile(r"[:?]\s+")


def _study(title: str) -> re.Match[str] | None:
    """Where the title says the paper is a study, if it does."""
    parts = _SUBTITLE.split(title, maxsplit=1)
    subtitle = parts[1] if len(parts) == 2 and " " in parts[0].strip() else ""
    return _STUDY_TITLE.search(title) or _STUDY_SUBTITLE.search(subtitle)


_EMPIRICAL = re.compile(r"\b(?:empirical|experimental)\b", re.IGNORECASE)
_STUDY_WEIGHT = 3.0


# "We establish a new state of the art", "we establish a spectrum of baselines": results, not theory's "we
# establish that …"
_SETS_A_MARK = re.compile(
    r"\bestablish(?=\s+(?:an?\s+|the\s+)?(?:new\s+|strong\s+|spectrum\s+of\s+|suite\s+of\s+)*"
    r"(?:state|baselines?|benchmarks?)\b)",
    re.IGNORECASE,
)


# "We show that the problem is NP-complete": a result of complexity theory; not "the problem is NP-hard, so we
# propose a heuristic", which a method paper says of its problem
_HARDNESS = re.compile(
    r"\b(?:prove|proves|proved|show|shows|showed|establish|establishes)\b[^.;]{0,100}?"
    r"\b(?:NP|#P|PSPACE|EXPTIME)-?(?:hard|hardness|complete|completeness)\b",
    re.IGNORECASE,
)


def _word_cues(abstract: str) -> dict[str, float]:
    """The weight of each kind's cue words: every cue word, and each cue pair of consecutive words once."""
    if "stablish" in abstract:
        abstract = _SETS_A_MARK.sub("set", abstract)
    words = _WORDS.findall(abstract.lower())
    present = set(words)
    joined = ""  # made only when both words of a pair are there
    scores = {}
    for kind, (singles, _) in _WORD_CUES.items():
        hits = 0 if present.isdisjoint(singles) else sum(map(singles.__contains__, words))
        for first, second, pair in _JOINED_PAIRS[kind]:
            if first in present and second in present:
                joined = joined or f" {' '.join(words)} "
                hits += pair in joined
        scores[kind] = _WEIGHTS[kind] * hits
    return scores


# "We present results on synthetic and real datasets": what the results are measured on, not what is presented
_RESULTS = frozenset(["results", "experiments", "evaluations", "comparisons"])


def _used_as_a_tool(words: list[str], at: int) -> bool:
    """ "an algorithm … is proposed as a tool to enhance stability": used as a tool, not one."""
    return words[at] == "tool" and "as" in words[at - 2 : at]


def classify(abstract: str, name: str | None = None, title: str | None = None) -> str:
    """What the named artefact is called, if anything; else the kind whose cues weigh most (method by default)."""
    for rest in after(abstract, name) if name else []:
        match = _APPOSITIVE.match(rest)
        if match:
            return _NOUNS[match.group("noun").lower()]
    scores: Counter[str] = Counter()
    for sentence in intro_sentences(abstract):
        cue = find_cue(sentence)
        words = _LETTERS.findall(sentence[cue[1] : cue[1] + 120].lower())[:_OBJECT_WORDS] if cue else []
        kinds = [
            _NOUNS[w]
            for i, w in enumerate(words)
            if w in _NOUNS and not _used_as_a_tool(words, i) and _RESULTS.isdisjoint(words[:i])
        ]
        if kinds:
            weight = 2.5 if kinds[0] != "dataset" else 3.0
            scores[kinds[0]] += weight / 2 if besides(sentence) else weight
    scores.update(_word_cues(abstract))
    lower = abstract.lower()
    scores["theory"] += len(_HARDNESS.findall(abstract)) if "hard" in lower or "complete" in lower else 0
    scores["benchmark"] += len(_BENCH_NAME.findall(abstract)) if "Bench" in abstract else 0
    lowered = title.lower() if title else ""
    for pattern, kind, weight, needles in _TITLE_CUES if title else ():
        if (not needles or any(map(lowered.__contains__, needles))) and pattern.search(title or ""):
            scores[kind] += weight
    study = _study(title) if title else None
    if study:  # of theory ("Analysis of Thompson Sampling", its abstract proving bounds) or of practice
        theory = 0 < scores["theory"] >= scores["analysis"] and not _EMPIRICAL.search(study.group())
        scores["theory" if theory else "analysis"] += _STUDY_WEIGHT
    if name:
        scores["method"] += 1.5  # a paper that names what it introduces is most often a method paper
    if not scores:
        return "method"
    best = max(scores, key=lambda kind: (scores[kind], kind == "method"))
    return best if scores[best] > 0 else "method"
