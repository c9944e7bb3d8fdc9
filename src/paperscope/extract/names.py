"""The short name a paper introduces ("NEMO", "SteER", "Info-Gain Sampler") and its expansion.

Where a name is defined with its long form, "long form (NAME)" or "NAME (long form)", the long
form is found by the Schwartz–Hearst algorithm; bold initials (**N**atural ... **E**xecutable)
and an appositive with matching capitals ("AutoRAS, a framework for the Automated design of
Robust Agentic Systems") give it too. A paper that only uses an acronym (LLM, RL, MoE) has no name.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from paperscope.extract.lexicon import benchmarks, eponyms, fields, models
from paperscope.extract.text import BORROWING, NAMING_WORDS, after, find_cue, intro_sentences, sentences
from paperscope.normalize.sentences import SENTENCE_END

_TOKEN = r"[A-Za-z][A-Za-z0-9]*(?:[-.][A-Za-z0-9]+)*\+{0,2}"  # "multiPPI++"
# A name-like word: two capitals, or a capital and a digit (NEMO, SteER, LiftQuant, SE-RRMs), not a plain word.
_NAMEY = re.compile(r"^(?=(?:.*[A-Z]){2}|.*[A-Z].*\d|.*\d.*[A-Z])" + _TOKEN + "$")
_CAPITALISED = r"[A-Z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*"
_PHRASE_NAME = re.compile(rf"(?P<name>{_CAPITALISED}(?:\s+{_CAPITALISED}){{0,2}}),\s*(?:a|an|the|which)\b")
# a short form of a word and an acronym: "(Perceptual GAN)", "(Tiled CNNs)", "(Kernel DRO)"
_WORD_BEFORE_ACRONYM = r"[A-Z][a-z]+ (?=[A-Z]{2})"
_WORD_AND_ACRONYM = re.compile(_WORD_BEFORE_ACRONYM + _TOKEN)
_PARENTHESISED = re.compile(rf"\((?P<short>(?:{_WORD_BEFORE_ACRONYM})?{_TOKEN})\)")
_LONG_FORM_CHARS = 160
_DEFINED_BEFORE = re.compile(rf"(?<![\w-])(?P<short>{_TOKEN})\s*\((?P<long>[^()]{{3,120}})\)")
_NAMING_CUES = (*NAMING_WORDS, "call")  # "call" only as "we call" (_WE_CALL)
# A name given by a naming word: up to three capitalised words ("called Quantization Mimic")
_GIVEN_NAME = rf"(?P<name>{_TOKEN}(?:\s+{_CAPITALISED}){{0,2}})(?![\w-])"
_NAMING = re.compile(rf"\b(?:{'|'.join(NAMING_WORDS)})\s+(?:as\s+|it\s+|this \w+\s+)?{_GIVEN_NAME}")
# Where a name given after "namely" or "we call" must end: where the sentence goes on, not inside a longer name
# ("namely Wing loss", "we call Rademacher observations")
_ENDED = r"(?=\s*(?:[,.;:(]|$)|\s+(?:which|that|to|for|in|based|with|by|via|from|as|is|was|has|on)\b)"
# "which we call Procrustes Flow, starts …", "We call our proposed method ConvExtr (…)", "We call the resulting model
# a Sinkformer." (not "they call", nor "we call for")
_WE_CALL = re.compile(
    r"\b[Ww]e call\s+(?:it\s+|this \w+\s+|our (?:proposed |new )?\w+\s+|the resulting \w+\s+)?(?:an?\s+)?"
    rf"{_GIVEN_NAME}(?!,\s+or\s){_ENDED}"  # not the long form of "CAmera Pose Supervised, or CAPS, descriptors"
)
# "we propose a novel online algorithm, namely Maler, which …": the name after the introduced thing; not a list
# ("two tasks, namely A and B"), nor what "namely" alone introduces ("we employ standard algorithms, namely OGD")
_NAMELY = re.compile(rf",\s+namely,?\s+{_GIVEN_NAME}(?!,\s+[A-Z0-9]){_ENDED}")
# "We thus propose Channel Randomisation as a novel data augmentation method"
_PROPOSED_AS = re.compile(rf"\b(?:propos|present|introduc)e[sd]?\s+{_GIVEN_NAME}\s+as\s+an?\s+(?:novel|new)\b")
_BORROWED = re.compile(rf"\b{BORROWING}\s+(?:a|an|the)\s")  # "by utilizing a popular algorithm, namely Quadtrees"
_OPENING = re.compile(r"\s*\(")
_WORD = re.compile(rf"(?<![\w-])({_TOKEN})(?![\w/-])")  # not a link's user: "github.com/BenjaminCoupry/repo"
_ARGUMENT = re.compile(r"(?<!\w)[A-Za-zΩΘ]\($")  # a function's, or an order's: "O(N2)", "f(x)"
_PREPOSITIONS = {"for", "of", "in", "on", "to", "with", "from", "via", "using", "by", "into", "over", "across"}
_WORDS_OF = re.compile(r"[^\w+-]+")  # what separates the words of a long form
# What others made: "previous CAC methods", "a variant of Nesterov's accelerated gradient descent (AGD)",
# "building on the recently introduced SAGA method"
_KNOWN_BEFORE = re.compile(
    r"\b(?:previous|prior|existing|conventional|traditional|classic(?:al)?|standard|other|so-called|popular|"
    r"well-known|(?:recently|previously) (?:introduced|proposed)|(?:variant|modification|extension)s? of|"
    r"build(?:s|ing)? (?:on|upon)|inspired by|such as|e\.g\.,?|including|propos(?:e|es|ed) (?:to use|using)|"
    # what the authors use or study: "and implement incremental pre-training (IPT)", "we focus on the … (GSL)
    # protocol"; not what a method of theirs uses ("a method that uses cascade … trees (cGPRT)"), nor what they
    # "develop and analyze"
    r"(?:\bwe\s+(?:also\s+|then\s+|first\s+|further\s+)?|\band\s+)(?:implement|use|apply|employ|adopt|leverage|utili[sz]e)|"
    r"\bwe\s+(?:also\s+|then\s+|first\s+|further\s+)?(?:focus\s+on|analy[sz]e|investigate))"
    r"\s+(?:the\s+)?(?:[A-Z][\w-]*['’]s\s+)?$",
    re.IGNORECASE,
)
# A word between a preposition and what it governs: "of the same-sample …"; not "referred to as", nor a verb of
# making ("to develop Guided Cluster Aggregation (GCA)", "by introducing DNet")
_MODIFIER = r"(?!as\s)(?!(?:develop|introduc|propos|design|build|present|creat|construct)(?:e|es|ing)?\s)[a-z][\w-]*"
# What a preposition governs is what the work is for, of, or in, not the work: "a universal denoiser for the
# finite-input, general-output (FIGO) channel", "an analysis of the same-sample Stochastic ExtraGradient (SEG)
# method", "to model such connections in an Hidden Conditional Random Field (HCRF) framework"; but "the design
# of" a robot and "a model of" networks are the work
_MADE_OF = (
    *("design", "development", "implementation", "construction", "model", "family", "class", "concept", "notion"),
    *("mechanism", "dataset", "benchmark", "corpus", "kind", "type", "form"),
)
_GOVERNED = re.compile(
    "".join(rf"(?<!\b{noun} )" for noun in _MADE_OF)
    + rf"\b(?i:{'|'.join(sorted(_PREPOSITIONS))})\s+(?:(?:a|an|the)\s+)?(?:{_MODIFIER}\s+)?$"
)
_ALIAS = re.compile(r"\b(?:also|commonly|often|sometimes|usually|so)[\s-]+$")  # "(also called Polya urn scheme)"
_METHOD_BEFORE = re.compile(
    r"\b(?:method|framework|algorithm|approach|model|scheme|technique|system|architecture|network|strategy)s?\s+$"
)
_NEW_APPOSED = re.compile(r"\)?,\s+(?:a|an)\s+(?:novel|new)\b")
_PHRASE_ENDS = re.compile(rf"\)?(?:{_ENDED}|(?=\s+(?:and|without)\b))")
_ARTICLES = re.compile(r"\s*(?:(?:a|an|the|novel|new)\s+)*")
_BOLD_INITIAL = re.compile(r"(?:\*\*([A-Za-z])\*\*|\\textbf\{([A-Za-z])\})([\w-]*)")
_APPOSITION = re.compile(rf"(?<![\w-])({_TOKEN}),\s+(?:a|an)\s")
_USED = re.compile(rf"\b{BORROWING}\s+$")  # "using TS-CAN, a neural rPPG estimation method"
_QUOTATION_MARKS = re.compile(r'["“”«»]')
_DEFINED_IN_TITLE = re.compile(r"(?P<long>[^():]+?)\s*\((?P<short>[^()\s:]+)\)\s*:")
_DATASET_IN_TITLE = re.compile(r"(\S+)\s+(?:Dataset|Benchmark|Corpus)")  # after a leading "The" (_TITLE_LEADS)
_APPOSED = re.compile(r",\s+(?:a|an|the)\s+([^.;:()]{5,160})")
# "The resulting X …" up to the verb that says what X does
_RESULTING = re.compile(
    r"(?P<subject>The resulting\s.*?)(?:\s(?:is|are|was|were|has|have|had|can|could|will|may|uses?|employs?|"
    r"achieves?|leads?|yields?|shows?|outperforms?|improves?|provides?|allows?|derived|prevents?|combines?|"
    r"demonstrates?|contains?|incorporates?|predicts?|not)\b|$)"
)
_PAST_WORK = re.compile(r",?\s+(?:has|have|had)\s+(?:been\s+|recently\s+|already\s+)?[a-z]+ed\b")
_OURS = re.compile(r"\b(?:we|our|this (?:paper|work|article))\b", re.IGNORECASE)
_WINDOW_WORDS = 8
_DEFINITION_WORDS = 14  # a definition counts only this close after the introducing verb
COMMON_ACRONYMS = {
    "LLM",
    "LLMs",
    "RL",
    "MoE",
    "MoEs",
    "NLP",
    "CNN",
    "CNNs",
    "RNN",
    "RNNs",
    "GNN",
    "GNNs",
    "GAN",
    "GANs",
    "VAE",
    "VAEs",
    "SOTA",
    "AI",
    "ML",
    "DL",
    "DNN",
    "DNNs",
    "MLP",
    "MLPs",
    "LSTM",
    "GPU",
    "GPUs",
    "API",
    "APIs",
    "SGD",
    "PCA",
    "OT",
    "KL",
    "QA",
    "VQA",
    "VLM",
    "VLMs",
    "MLLM",
    "MLLMs",
    "LVLM",
    "LVLMs",
    "CoT",
    "RAG",
    "RLHF",
    "DPO",
    "PPO",
    "GRPO",
    "SFT",
    "LoRA",
    "PEFT",
    "ViT",
    "ViTs",
    "MDM",
    "MDMs",
    "IoT",
    "UAV",
    "UAVs",
    "EEG",
    "MRI",
    "CT",
    "FP",
    "INT",
    "NeRF",
    "NeRFs",
    "SLAM",
    "MPC",
    "PDE",
    "PDEs",
    "ODE",
    "ODEs",
    "SDE",
    "SDEs",
    "MDP",
    "MDPs",
    "POMDP",
    "POMDPs",
    "KG",
    "KGs",
    "NER",
    "MT",
    "ASR",
    "TTS",
    "OOD",
    "IID",
    "FL",
    "HPO",
    "NAS",
    "BO",
    "GP",
    "GPs",
    "SVM",
    "SVMs",
    "EM",
    "MCMC",
    "VI",
    "ELBO",
    "ReLU",
    "BN",
    "LN",
    "RGB",
    "RGB-D",
    "LiDAR",
    "3D",
    "2D",
    "6D",
    "SNN",
    "SNNs",
    "TD",
    "DQN",
    "SAC",
    "PINN",
    "PINNs",
    "ZSL",
    "FSL",
    "DA",
    "UDA",
    "ReID",
    "LM",
    "LMs",
    "FFT",
    "E2E",
    "MSE",
    "RMSE",
    "MAE",
    "UCI",
    "Sim2Real",
    "Real2Sim",
}
# Venues: a paper cites them ("accepted at NeurIPS"), and never names itself after one, unless it spells
# the letters out as its own ("Adaptive Cross-domain Learning (ACL)").
_VENUES = {
    "NeurIPS",
    "NIPS",
    "ICML",
    "ICLR",
    "CVPR",
    "ICCV",
    "ECCV",
    "ACL",
    "EMNLP",
    "NAACL",
    "AAAI",
    "IJCAI",
    "ICRA",
    "IROS",
    "KDD",
    "SIGGRAPH",
}


def _a_variant_named(short: str, expansion: str | None) -> bool:
    """A word and an acronym spelled out ("Perceptual Generative Adversarial Network (Perceptual GAN)"); not a
    field's acronym with a word before it ("visual question answering (Visual QA)", "(Video OCR)")."""
    if not expansion or not _WORD_AND_ACRONYM.fullmatch(short):
        return False
    field = fields().get(short.split()[-1])
    return field is None or field.search(expansion) is None


def _a_field(name: str, expansion: str | None) -> bool:
    """Letters of a field, task or tool (lexicon.fields), unless spelled out as something else."""
    pattern = fields().get(name)
    return pattern is not None and (expansion is None or pattern.match(expansion) is not None)


@dataclass(frozen=True)
class Name:
    name: str
    expansion: str | None


def find_name(abstract: str, raw: str = "", title: str | None = None) -> Name | None:
    """The name the paper introduces, or None when it introduces none (or it is unsure).

    A title that starts with a name ("SciNLI: A Corpus for ...") says it. Otherwise candidates from
    every sentence where the authors introduce their work are ranked by how they
    are written — defined with a long form, then "named X", then a capitalised phrase or a
    name-like word right after the verb — and then by where they stand. The expansion is given without
    the quotation marks some abstracts put around it ("“Confidence Weighted Mean Reversion” (CWMR)").
    """
    found = _introduced(abstract, raw, title)
    if found is None or found.expansion is None:
        return found
    return Name(found.name, " ".join(_QUOTATION_MARKS.sub(" ", found.expansion).split()).strip("'‘’`") or None)


def _introduced(abstract: str, raw: str, title: str | None) -> Name | None:
    titled = _title_name(title)
    if titled:
        return Name(titled, _expansion_elsewhere(titled, abstract, raw) or _subtitle_expansion(titled, title or ""))
    if defined := _title_definition(title) or _title_spelled_out(title, abstract):
        return defined
    found = (
        _named_in(intro_sentences(abstract), abstract, raw)
        or _appositive(abstract, raw)
        or _recurring_definition(abstract)
        or _named_in(_resulting_subjects(abstract), abstract, raw)
    )
    return None if found is None or _a_field(found.name, found.expansion) else found


def _named_in(naming: Iterable[str], abstract: str, raw: str) -> Name | None:
    """The strongest name the naming sentences give, first in the abstract among equals."""
    given = [
        (kind, number, position, name, expansion)
        for number, sentence in enumerate(naming)
        for kind, position, name, expansion in _candidates(sentence)
    ]
    if not given:  # most abstracts: no background to find
        return None
    background = _background(abstract)
    candidates = [
        (kind, number, position, name, expansion or _expansion_elsewhere(name, abstract, raw))
        for kind, number, position, name, expansion in given
        if not after(background, name)
    ]
    candidates = [c for c in candidates if not _a_field(c[3], c[4])]
    if not candidates:
        return None
    _, _, _, name, expansion = min(candidates, key=lambda c: (c[0], c[1], c[2], c[4] is None))
    return Name(name, expansion)


def _resulting_subjects(abstract: str) -> list[str]:
    """The subjects of the sentences that say what the work resulted in, without what the rest of the sentence
    says of it: "The resulting Superpixel Sampling Network (SSN)", "The resulting estimator, which we denote
    MIND"; not "The resulting restart algorithm is tested in a Q-learning network"."""
    return [match.group("subject") for sentence in sentences(abstract) if (match := _RESULTING.match(sentence))]


def _others_past_work(sentence: str, tail: str, named: re.Match[str]) -> bool:
    """ "A promising approach, called Parametric Task Learning, has paved the way": what others did, unless the
    authors say it is theirs ("In this paper, a … robot named Duke has been developed")."""
    return bool(_PAST_WORK.match(tail, named.end())) and not _OURS.search(sentence)


def _background(abstract: str) -> str:
    """The sentences before the first in which the authors introduce their work: a name they already
    use there is the field's ("cross-lingual transfer (XLT) … we propose new XLT approaches", "user
    interfaces (UIs) … the task of visual UI grounding"), not what the paper introduces."""
    found = sentences(abstract)
    first = next(
        (number for number, sentence in enumerate(found) if find_cue(sentence) or _RESULTING.match(sentence)),
        len(found),
    )
    return " ".join(found[:first])


def _candidates(sentence: str) -> list[tuple[int, int, str, str | None]]:
    """(kind, position, name, expansion) in one sentence; a lower kind is stronger evidence."""
    cue = find_cue(sentence)
    tail = sentence[cue[0] :] if cue else sentence
    verb_end = cue[1] - cue[0] if cue else 0
    found: list[tuple[int, int, str, str | None]] = []
    defined = [(position, short, schwartz_hearst(short, long)) for position, short, long in definitions(tail)]
    others: set[str] = set()  # short forms of what others made ("a variant of Nesterov's … descent (AGD)")
    for position, short, expansion in defined:
        found_at = tail.rfind(expansion, 0, position) if expansion else -1
        start = found_at if found_at >= 0 else position
        if found_at >= 0 and _KNOWN_BEFORE.search(tail, 0, start):
            others.add(short)
        governed = _governed(tail, start if found_at >= 0 else tail.rfind("(", 0, position), position + len(short))
        if governed:
            others.add(short)
        lead = tail[verb_end:start]
        # the verb's object, not a side remark; or what a naming word names ("called Lift, Match, and Keep (LMK)")
        # (or "namely" just before the long form: "a model, namely Deep … Embedding (DCSPE)"; not "namely a sensor")
        near = (
            len(tail[verb_end:position].split()) <= _DEFINITION_WORDS
            or any(w in lead.split()[-2:] for w in _NAMING_CUES)
            or lead.rstrip().endswith("namely")
        )
        # a long form that spells the name makes it the paper's own, even when a known name is spelled alike
        if (
            near
            and _acceptable(short, known=expansion is not None)
            and (_NAMEY.match(short) or _a_variant_named(short, expansion))
            and not _known_thing(tail, start)
            and not governed
        ):
            found.append((0, position, short, expansion))
    for match in _DEFINED_BEFORE.finditer(tail) if "(" in tail else ():
        short, long = match.group("short"), match.group("long")
        # "NAME (long form)": a long form has words, not a word before an acronym ("Clustering (CAC)")
        if (
            _initials_match(short, long)
            and _acceptable(short, known=True)
            and _NAMEY.match(short)
            and any(mark in long.strip() for mark in " -")  # "Light-Exoskeleton", not "CAC"
            and not _governed(tail, match.start(), match.end())  # "dynamic behavior of TCP (Transmission …)"
        ):
            found.append((0, match.start(), short, long.strip()))
    naming = [*_NAMING.finditer(tail), *_WE_CALL.finditer(tail)] if any(map(tail.__contains__, _NAMING_CUES)) else []
    naming += _PROPOSED_AS.finditer(tail) if " as a" in tail else ()
    for match in naming:
        name = match.group("name")
        if (
            _acceptable(name)
            and name[0].isupper()
            and not _others_past_work(sentence, tail, match)
            and not _ALIAS.search(sentence, 0, len(sentence) - len(tail) + match.start())
        ):
            found.append(_spelled_out(defined, (1, match.start("name"), name, None)))
    for match in _NAMELY.finditer(tail, verb_end) if verb_end and "namely" in tail[verb_end:] else ():
        name = match.group("name")
        if (
            name[0].isupper()
            and _acceptable(name)
            and not tail[:verb_end].endswith("namely")
            and not _BORROWED.search(tail, verb_end, match.start())
            and not _known_thing(tail, match.start("name"))
        ):
            found.append(_spelled_out(defined, (1, match.start("name"), name, None)))
    object_at = _ARTICLES.match(tail, verb_end).end()  # type: ignore[union-attr]
    phrase = _PHRASE_NAME.match(tail, object_at)
    if phrase and _acceptable(phrase.group("name")):
        name = phrase.group("name")
        if " " in name or _NAMEY.match(name) or name[1:].islower():  # "Info-Gain Sampler", "Aurora"
            # the verb's own object ("We present NEMO, a system ...") is as strong as a definition
            found.append((0, phrase.start("name"), name, None))
    window_end = _window_end(tail, verb_end)
    for match in _WORD.finditer(tail, verb_end):
        if match.start() > window_end:
            break
        token = match.group(1)
        if not _NAMEY.match(token) or token in others:  # most words: the cheapest test first
            continue
        if _after_preposition(tail[: match.start(1)]):  # "a method for MMT": MMT is the task
            continue
        if _an_argument(tail, match.start(1)):  # "complexity O(L3)": L cubed
            continue
        if (
            _acceptable(token)
            and not _known_thing(tail, match.start(1))
            and not _governed(tail, match.start(1), match.end(1))
        ):
            # a word of a long form the sentence defines is that form's short name: "couples Multi-Aperture
            # representation with Transformers for 3D (MAT3D)"
            spelled = _spelled_out(defined, (2, match.start(1), token, None))
            if spelled[2] in others:  # a word of what others made: "the same-sample Stochastic ExtraGradient (SEG)"
                continue
            if spelled[2] != token or not _in_title_case(tail, match):
                found.append(spelled)
                break
    return found


_WORD_RUN = re.compile(r"\S+")


def _window_end(text: str, start: int) -> int:
    """Where the word after the first _WINDOW_WORDS words from `start` begins (the end of the text when there is
    none): a word found beyond it is out of the window, as `len(text[start:at].split()) > _WINDOW_WORDS` says."""
    for number, run in enumerate(_WORD_RUN.finditer(text, start)):
        if number == _WINDOW_WORDS:
            return run.start()
    return len(text)


def _an_argument(text: str, end: int) -> bool:
    """Whether the text before `end` ends with a function's or an order's opening bracket (_ARGUMENT): looked for
    in its last three characters, where a match must lie (the lookbehind sees before them), not in all of it."""
    return _ARGUMENT.search(text, max(0, end - 3), end) is not None


def _after_preposition(text: str) -> bool:
    words = text.rstrip("[").split()  # "introduced in [AnselmiLRMTP13]": a citation's key
    return bool(words) and words[-1].lower() in _PREPOSITIONS


def _known_thing(text: str, start: int) -> bool:
    """What the words before an acronym make a thing others made ("previous CAC methods"). The words after it do
    not: a check of them ("(HMM) based", "the PnP problem"), written with "^" and so never met, was removed; made
    to work, it dropped 206 corpus names, most of them the papers' own ("(MSTI) task", "(ScRN) based")."""
    return bool(_KNOWN_BEFORE.search(text, 0, start))


def _governed(text: str, start: int, end: int) -> bool:
    """What a preposition governs (_GOVERNED) at `start`, unless it is the work's own description: a method's
    preposition, the name closing the phrase ("a novel WSD method with Knowledge-Enhanced … (KELESC).", "a new
    selection method by non-surrounded-dominated sorting (NSS), which"); not "an approach for … nearest neighbor
    (ANN) search"."""
    governed = _GOVERNED.search(text, 0, start)
    if governed is None or _NEW_APPOSED.match(text, end):  # "… gap with Cross-Modal … (CoLA), a novel PEFT framework"
        return False
    return not (_METHOD_BEFORE.search(text, 0, governed.start()) and _PHRASE_ENDS.match(text, end))


def _spelled_out(
    defined: list[tuple[int, str, str | None]], candidate: tuple[int, int, str, str | None]
) -> tuple[int, int, str, str | None]:
    """A candidate that is a word of a long form the sentence defines, as the short form it defines."""
    kind, _, word, _ = candidate
    for position, short, expansion in defined:
        if expansion and _NAMEY.match(short) and short not in COMMON_ACRONYMS and _has_words(expansion, word):
            return (kind, position, short, expansion)
    return candidate


def _has_words(text: str, words: str) -> bool:
    """Whether `words` stand in `text` as whole words (no pattern built per call: the engine's cache thrashed)."""
    return f" {words} " in f" {' '.join(_WORDS_OF.split(text))} "


# A title's head that aims ("Towards …:", "Beyond …:") names nothing; one that introduces names what follows.
_TITLE_AIMS = {"Towards", "Toward", "Beyond", "Rethinking", "Revisiting"}
_TITLE_LEADS = {"The", "Introducing", "Demonstrating"}
# "Name - what it is", one word before the dash ("DROAN - Disparity-Space Representation for Obstacle Avoidance")
_DASHED_TITLE = re.compile(r"(\S+)\s[-–—]\s(.+)")
_LEADING_NAME = re.compile(r"([A-Z][\w-]*[A-Z0-9][\w-]*)\s+(?:for|in|on|with)\s")


def _title_name(title: str | None) -> str | None:
    """ "ClusterFormer: Neural Clustering Attention ..." -> ClusterFormer; "Know When To Stop: A Study" -> None."""
    if not title:
        return None
    leading = _LEADING_NAME.match(title)  # "CLIFFNet for Monocular Depth Estimation …"
    if leading and _coined(leading.group(1)) and _acceptable(leading.group(1)) and _NAMEY.match(leading.group(1)):
        return leading.group(1)
    parts = _title_parts(title)
    if len(parts) == 1:
        return None
    head = parts[0].strip()
    words = head.split()
    if words and words[0] in _TITLE_AIMS:  # "Towards Human-Like RL: …", "Beyond GNNs: …" name no method
        return None
    if len(words) > 1 and words[0] in _TITLE_LEADS:  # "Introducing CAD: the Contextual Abuse Dataset"
        words = words[1:]
        head = " ".join(words)
    if title.isupper() or not 1 <= len(words) <= 3 or not all(w[0].isupper() or w[0].isdigit() for w in words):
        return None
    # a title that starts with a known name is the paper that made it ("LaSOT: A High-quality Benchmark …")
    if not (any(_coined(w) for w in words) and _acceptable(head, known=True)):
        return None
    # "The SYNTHIA Dataset: …", "RELLIS-3D Dataset: …": the dataset's name is SYNTHIA, RELLIS-3D
    called = _DATASET_IN_TITLE.fullmatch(head)
    return called.group(1) if called and _NAMEY.match(called.group(1)) else head


def _title_parts(title: str) -> list[str]:
    """ "Name: what it is" or "Name - what it is" as [name, what it is]; a title of one part as [title]. A dash
    after the first word comes first: "DROAN - Disparity-Space Representation …: Enabling Wire Mapping"."""
    dashed = _DASHED_TITLE.fullmatch(title)
    if dashed:
        return list(dashed.groups())
    return title.split(":", 1) if ":" in title else [title]


def _subtitle_expansion(name: str, title: str) -> str | None:
    """ "PSP: Pre-trained Soft Prompts for Few-Shot …" -> "Pre-trained Soft Prompts": the shortest run of the
    subtitle's first words, ending before a small word or at the end, whose initials the name's capitals are."""
    parts = _title_parts(title)
    words = parts[1].split() if len(parts) == 2 else []
    if words and words[0].lower() in ("a", "an", "the"):  # "KHAOS: a Kinematic Human Aware … System"
        words = words[1:]
    ends = [at for at in range(1, len(words)) if words[at].lower() in _LONG_FORM_ENDS] + [len(words)]
    for end in ends:
        long = " ".join(words[:end])
        # and starts as the name does: "360VO: Visual Odometry …" spells the VO alone
        if end > 1 and long[0].lower() == name[0].lower() and _initials_match(name, long):
            return long
    return None


def _title_definition(title: str | None) -> Name | None:
    """ "Surgical Robot Transformer (SRT): Imitation Learning …" -> SRT, Surgical Robot Transformer."""
    match = _DEFINED_IN_TITLE.match(title or "")
    if not match:
        return None
    short, long = match.group("short"), match.group("long").strip()
    if _initials_match(short, long) and _acceptable(short, known=True) and _NAMEY.match(short):
        return Name(short, long)
    return None


# A title's head (before its first preposition) that ends with one of these names a task, not a method
_TITLE_PREPOSITION = re.compile(r"\s+(?:of|for|with|under|on|via|in|from|by|using)\s+", re.IGNORECASE)
_TASK_HEADS = frozenset(
    "detection recognition assessment discovery prediction teamwork shift subitizing adaptation extraction "
    "identification segmentation classification tracking retrieval answering optimization maximization".split()
)


def _title_spelled_out(title: str | None, abstract: str) -> Name | None:
    """A title the abstract spells out as a long form: "Attentive Recurrent Comparators", then "Attentive
    Recurrent Comparators (ARCs) are a novel class of neural networks" -> ARCs; not a title that names a task
    ("Zero-Shot Object Detection", "Best Arm Identification with Resource Constraints")."""
    if not title or "(" not in abstract:
        return None
    head = _TITLE_PREPOSITION.split(title, maxsplit=1)[0].split()
    if head and head[-1].lower() in _TASK_HEADS:
        return None
    for _, short, long in definitions(abstract):
        expansion = schwartz_hearst(short, long)
        if expansion and expansion.casefold() == title.casefold() and _acceptable(short, known=True):
            return Name(short, expansion)
    return None


def _coined(word: str) -> bool:
    """A made-up word, not a capitalised English one: a capital or digit inside a part (S4Net, M²IV, MARS),
    unlike "In-Context" or "Self-Supervised"."""
    return any(any(c.isupper() or c.isdigit() or c in "²³" for c in part[1:]) for part in word.split("-") if part)


# Where a long form in a subtitle ends: before its first word of these ("Pre-trained Soft Prompts | for …")
_LONG_FORM_ENDS = _PREPOSITIONS | set("and a an the at as under through towards toward without within based".split())


def _acceptable(name: str, known: bool = False) -> bool:
    """Not an acronym every paper uses, not a known model or benchmark (unless `known`), not "PCA-aligned"."""
    if name in COMMON_ACRONYMS or (name in _VENUES and not known) or re.fullmatch(r"[\d.]+|[A-Z]", name):
        return False
    if any(part.islower() for part in re.split(r"[-\s]", name)[1:]):
        return False
    if "-" in name and eponyms().issuperset(name.split("-")):  # "Metropolis-Hastings", "Poisson-Gaussian"
        return False
    return known or not (models().fullmatch(name) or benchmarks().fullmatch(name))


def _in_title_case(text: str, match: re.Match[str]) -> bool:
    """Part of a capitalised phrase ("Temporal Self-Rewarding Language Models"), not a name on its own."""
    before, after = text[: match.start(1)], text[match.end(1) :]
    return bool(re.search(r"(?:^|\s)[A-Z][\w-]*\s$", before) or re.match(r"\s\d*[A-Z][\w-]*", after))


def _appositive(abstract: str, raw: str) -> Name | None:
    """ "These results motivate MERIT, a decentralized pipeline": a name-like word defined by apposition."""
    if ", a " not in abstract and ", an " not in abstract:
        return None
    for match in _APPOSITION.finditer(abstract):
        name = match.group(1)
        if _NAMEY.match(name) and _acceptable(name) and not _USED.search(abstract, 0, match.start()):
            return Name(name, _expansion_elsewhere(name, abstract, raw))
    return None


def _recurring_definition(abstract: str) -> Name | None:
    """No sentence introduces anything: a defined acronym the abstract goes on using is the name."""
    for _, short, long in definitions(abstract):
        expansion = schwartz_hearst(short, long)
        named = expansion is not None and all(w[0].isupper() for w in expansion.split() if len(w) > 3)
        subject = any(s.startswith(short + " ") for s in sentences(abstract))
        if named and subject and _acceptable(short) and _NAMEY.match(short) and len(after(abstract, short)) >= 3:
            return Name(short, expansion)  # "Self-Optimizing Language Models (SOL) ... SOL improves ..."
    return None


@lru_cache(maxsize=32)  # an abstract's are asked for by several steps in turn
def definitions(text: str) -> tuple[tuple[int, str, str], ...]:
    """(position, short, text before it) for each "long form (SHORT)": the long form is cut at the
    nearest bracket or clause mark, as Schwartz and Hearst do."""
    found = []
    for match in _PARENTHESISED.finditer(text):
        if _an_argument(text, match.start() + 1):
            continue
        before = text[max(0, match.start() - _LONG_FORM_CHARS) : match.start()]
        ends = [end.start() for end in SENTENCE_END.finditer(before) if before[end.end() : end.end() + 1].isupper()]
        cut = max(*(before.rfind(c) for c in "();:"), *ends[-1:])  # a long form is in one sentence
        found.append((match.start("short"), match.group("short"), before[cut + 1 :].strip()))
    return tuple(found)


def _expansion_elsewhere(name: str, abstract: str, raw: str) -> str | None:
    for _, short, long in definitions(abstract):
        if short == name:
            found = schwartz_hearst(name, long)
            if found:
                return found
    for match in _DEFINED_BEFORE.finditer(abstract) if _before_bracket(name, abstract) else ():
        if match.group("short") == name and _initials_match(name, match.group("long")):
            return match.group("long").strip()
    return _bold_initials(name, raw) or _appositive_expansion(name, abstract)


def _before_bracket(name: str, text: str) -> bool:
    """Whether the name stands right before a "(" somewhere: only there can a long form follow it."""
    at = text.find(name)
    while at >= 0:
        if _OPENING.match(text, at + len(name)):
            return True
        at = text.find(name, at + 1)
    return False


# Words that start no long form: "called connectivity-contrastive learning (CCL)"
_NO_FIRST_WORD = {*"a an the our of for and with to in on introduce propose".split(), *_NAMING_CUES}


@lru_cache(maxsize=256)  # the abstract's definitions are spelled out by several steps in turn
def schwartz_hearst(short: str, long: str) -> str | None:
    """The shortest end of `long` whose letters spell `short` in order, from a word start (Schwartz & Hearst 2003);
    but words whose initials spell it first ("Recursive Recurrent Transformer Network (RRTN)", where the letters
    alone give "Recurrent Transformer Network"); a digit repeats the letter before it there ("Penalized Proximal
    Policy Optimization (P3O)"). Letter by letter, not for a name with a digit, whose letters are not all there."""
    words = long.split()
    singular = short[:-1] if len(short) > 2 and short[-1] == "s" and short[-2].isupper() else short  # "SSCNs"
    letters = [c.lower() for c in singular if c.isalpha()]
    if any(c.isdigit() for c in short):  # a digit multiplies the letter before it: R2G, Recursive Reasoning Graph
        letters = _multiplied(singular)
    initialled = words[-len(letters) :] if len(letters) > 1 else []
    if (
        initialled
        and len(initialled) == len(letters)
        and [w[0].lower() for w in initialled] == letters
        and initialled[0].lower() not in _NO_FIRST_WORD
    ):
        return " ".join(initialled).strip(" ,;:-") or None
    long = " ".join(words[-min(len(short) + 5, len(short) * 2) :])
    s, index = len(short) - 1, len(long) - 1
    while s >= 0:
        char = short[s].lower()
        if not char.isalnum():
            s -= 1
            continue
        while index >= 0 and (long[index].lower() != char or (s == 0 and index > 0 and long[index - 1].isalnum())):
            index -= 1
        if index < 0:
            return None
        index -= 1
        s -= 1
    found = long[long.rfind(" ", 0, index + 1) + 1 :].strip(" ,;:-")
    if not found or len(found) <= len(short) or found.lower() == short.lower():
        return None
    return re.sub(r"^(?:a|an|the|our|novel|new)\s+", "", found, flags=re.IGNORECASE)


def _multiplied(short: str) -> list[str]:
    """The initials a name with a digit spells, each digit of 2 to 4 repeating the letter before it ("R2G": r, r,
    g; "P3O": p, p, p, o); none for any other digit ("GPT4", "3D")."""
    letters: list[str] = []
    for char in short:
        if char.isalpha():
            letters.append(char.lower())
        elif char in "234" and letters:
            letters += letters[-1:] * (int(char) - 1)
        elif char.isdigit():
            return []
    return letters


def _initials_match(short: str, long: str) -> bool:
    """The capitals of `short` are the capitalised initials of `long` (VGR: Visual-Guided Refinement),
    or all its letters are the initials of all its words (GoRL: Generative Online Reinforcement Learning)."""
    words = [w for w in re.split(r"[\s-]+", long) if w]
    capitals = [c for c in short if c.isupper()]
    if capitals and capitals == [w[0] for w in words if w[0].isupper()]:
        return True
    return [c.lower() for c in short if c.isalpha()] == [w[0].lower() for w in words]


def _bold_initials(name: str, raw: str) -> str | None:
    """An expansion spelled with bold initials: **N**atural-language ... **E**xecutable ... -> NEMO."""
    marks = list(_BOLD_INITIAL.finditer(raw))
    letters = "".join((m.group(1) or m.group(2)) for m in marks).lower()
    if not marks or letters != "".join(c for c in name if c.isalpha()).lower():
        return None
    words = re.sub(r"\*\*|\\textbf\{|\}", "", raw[marks[0].start() : marks[-1].end()]).split()
    if len(words) <= len(marks) + 2:
        return " ".join(words)
    return " ".join((m.group(1) or m.group(2)) + m.group(3) for m in marks)


def _appositive_expansion(name: str, abstract: str) -> str | None:
    """ "AutoRAS, a framework for the Automated design of Robust Agentic Systems": capitals spell the name."""
    capitals = [c for c in name if c.isupper()]
    match = next(filter(None, (_APPOSED.match(rest) for rest in after(abstract, name))), None)
    if len(capitals) < 2 or not match:
        return None
    words = match.group(1).split()
    for start, word in enumerate(words):
        if not word[0].isupper():
            continue
        for end in range(start + 1, min(len(words), start + 3 * len(capitals)) + 1):
            span = " ".join(words[start:end]).rstrip(",")
            if words[end - 1][0].isupper() and _initials_match(name, span):
                return span
    return None
