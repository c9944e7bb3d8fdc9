"""Models and benchmarks named in an abstract, as written: curated lists plus patterns for new names."""

from __future__ import annotations

import re

from paperscope.extract.lexicon import benchmarks, models
from paperscope.extract.names import schwartz_hearst
from paperscope.extract.text import outermost

# New benchmark names: "SomethingBench", "X-Bench", "DevEval", "TruthfulQA", or a name-like word
# right before "benchmark"/"dataset" ("the HumanoidBench benchmark", "the Foo-2 dataset").
_BENCH_SHAPE = re.compile(r"(?<![\w-])[A-Z][A-Za-z0-9]*(?:-?Bench|Eval|QA)(?:[-\s]?\d+(?:\.\d+)?)?\+?(?![\w])")
_BEFORE_BENCH = re.compile(r"(?<![\w-])([A-Z][\w.+-]*[A-Z0-9][\w+-]*)\s+(?:benchmarks?|datasets?|suite)\b")
# A list of names before "datasets" ("on the DAVIS, SegTrack v2 and FBMS-59 datasets"): each is one ...
_NAME = r"[A-Z][\w.+-]*[A-Z0-9][\w+-]*(?:\s+v\d[\w.]*)?"
_LISTED = re.compile(
    rf"(?<![\w-])((?:{_NAME}\s*,\s*)+(?:{_NAME},?\s+)?(?:and|&)\s+{_NAME})\s+(?:benchmarks|datasets)\b"
)
_LIST_ITEM = re.compile(_NAME)
# ... or after it: "on three datasets: CIFAR100, ImageNet100, and ImageNet1000", "benchmarks such as X and Y".
_LISTED_AFTER = re.compile(
    rf"\b(?:benchmarks|datasets)(?:\s*:|,?\s+(?:such as|including|namely))\s+"
    rf"((?:{_NAME}\s*,\s*)*{_NAME},?\s+(?:and|&)\s+{_NAME})(?![\w-])"
)
# A benchmark's variant named by a suffix: "CelebA-logic", "ImageNet-LT", "Cityscapes-DVPS", "ImageNet VID".
# Not a word that makes the name an adjective: "MuJoCo-based", "ImageNet-pretrained".
_VARIANT = re.compile(
    r"-(?!(?:based|like|style|specific|level|scale|free|aware|only|sized|wide|derived|driven|guided|trained|"
    r"pretrained|pre-trained|tuned|fine-tuned|finetuned|generated|annotated|labell?ed|format|type|oriented|"
    r"related|inspired|compatible|centric)(?![\w]))[A-Za-z0-9]+(?:[.-][A-Za-z0-9]+)*(?![\w+-])| (?:VID|DET)\b"
)
_NOT_NAMES = {
    "QA",
    "VQA",
    "NLP",
    "RGB",
    "RGB-D",
    "LLM",
    "LLMs",
    "AI",
    "GPU",
    "GPUs",
    "SOTA",
    "ML",
    "RL",
    "NER",
    "NLI",
    "MRI",
    "CT",
    "UAV",
    "UAVs",
    "SLAM",
    "ID",
    "EHR",
    "COVID-19",
    "LiDAR",
    "OOD",
    "IID",
    "KG",
    "ODQA",
    "KBQA",
    "KGQA",
    "CQA",
    "MRC",
    "VideoQA",
    "LongQA",
    "MLLMs",
    "MLLM",
    "VLMs",
    "VLM",
    # settings and tasks written in title case before "benchmarks" ("on various Few-Shot benchmarks")
    "Few-Shot",
    "Zero-Shot",
    "Multi-Task",
    "Multi-Person",
    "Multi-Spectral",
    "Multi-Modal",
    "Cross-Domain",
    "Long-Context",
    "Real-World",
    "Open-Domain",
    "In-House",
    "Question-Answering",
    "Super-Resolution",
}


_DATASET_WORD = r"(?:datasets?|benchmarks?|corpus|corpora|challenges?|suite)\b"
_DATASET_AFTER = r"\)?\s+" + _DATASET_WORD
_CALLED_A_DATASET = re.compile(_DATASET_AFTER)
_A_METRICS_NAME = re.compile(r"\s+(?:scores?|distance)\b", re.IGNORECASE)  # "Inception Score", "… Inception Distance"


def _with_variant(text: str, end: int, name: str) -> str:
    """The name with the variant its suffix names; not models trained on it ("ImageNet-CNNs")."""
    variant = _VARIANT.match(text, end)
    if not variant or re.fullmatch(r"-[A-Z]{2,}s", variant.group()) or models().fullmatch(variant.group()[1:]):
        return name
    return name + variant.group()


def _a_task(text: str, name: str) -> bool:
    """Spelled out just before it, as what the paper works on ("end-to-end (E2E)", "Active Visual Exploration
    (AVE)", not "mathematical reasoning (GSM8K)"), and never called a dataset, nor evaluated on ("results on
    the Choice of Plausible Alternatives (COPA)", "a benchmark for knowledge-intensive language tasks (KILT)")."""
    at = text.find(f"({name})")
    if at < 0:  # spelled out in the plural: "Attentive Recurrent Comparators (ARCs)", then "ARC based models"
        at = text.find(f"({name}s)")
    if at <= 0 or re.search(re.escape(name) + _DATASET_AFTER, text):
        return False
    letters = [{"2": "t", "4": "f"}.get(c, c) for c in name.lower() if c.isalpha() or c in "24"]
    split = re.split(r"[\s-]+", text[:at].strip())
    words, lead = split[-len(letters) :], split[: -len(letters)]
    spelled = [w[:1].lower() for w in words] == letters
    return spelled and not any(re.match(_DATASET_WORD, w, re.IGNORECASE) for w in words) and not _evaluated_on(lead)


def _evaluated_on(lead: list[str]) -> bool:
    """Whether the words before a spelled-out name say it is what results are measured on: "on (the) (2018)"
    (not "based on"), or "benchmark", "dataset", "corpus" among the last three ("a benchmark for"; not "a
    key challenge in", which names a task)."""
    near = [w.lower() for w in lead[-4:] if not w.isdigit()]
    on = next((i for i in range(len(near) - 1, max(len(near) - 3, -1), -1) if near[i] == "on"), None)
    measured_on = on is not None and near[on + 1 :] in ([], ["the"]) and near[on - 1 : on] != ["based"]
    return measured_on or any(re.match(r"(?:datasets?|benchmarks?|corpus|corpora)\b", w) for w in near[-3:])


def _a_task_of_parts(text: str, name: str) -> bool:
    """A mixed-case acronym the text spells out just before it in words it takes parts of: "person
    re-identification (ReID)", whose "ReID datasets" (31 papers of the corpus) are the task's; not the
    name of a dataset so spelled ("a real-world super-resolution (RealSR) dataset", "a dataset of unusual
    relations (UnRel)", "a dataset named License Plate Blur (LPBlur)", "Math Evaluation Benchmark (CMMaTH)")."""
    at = text.find(f"({name})")
    if at <= 0 or name.isupper() or name.islower() or _CALLED_A_DATASET.match(text, at + len(name) + 1):
        return False
    before = text[:at].rstrip()
    expansion = schwartz_hearst(name, before)
    if not expansion or not before.endswith(expansion):
        return False
    named_so = re.search(_DATASET_WORD + r"[\s,]+(?:[\w-]+\s+){0,2}$", before[: -len(expansion)])
    return not named_so and not re.search(_DATASET_WORD, expansion, re.IGNORECASE)


_SLASHED_NUMBER = re.compile(r"/(\d+)(?![\w/])")


def _slashed(text: str, found: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """The sibling a slash names after a numbered name: "CIFAR-10/100" is CIFAR-10 and CIFAR-100 (28 corpus papers
    gave only the first), "Kinetics-400/600"."""
    siblings = []
    for start, name in found:
        slashed = _SLASHED_NUMBER.match(text, start + len(name)) if name[-1].isdigit() else None
        if slashed:
            siblings.append((start, re.sub(r"\d+$", slashed.group(1), name)))
    return siblings


def _worded(name: str) -> bool:
    """Joined to words, so a phrase rather than a name: "a new NL-to-program benchmark"."""
    return any(part.islower() for part in name.split("-")[1:])


def _ordered(found: list[str]) -> list[str]:
    return list(dict.fromkeys(found))


def find_models(text: str, exclude: str | None = None) -> list[str]:
    """Models named in the text; not a model's name called a dataset there ("the Alpaca dataset")."""
    return _ordered(
        [
            text[s:e]
            for s, e in models().find(text)
            if text[s:e] != exclude and not _CALLED_A_DATASET.match(text, e) and not _A_METRICS_NAME.match(text, e)
        ]
    )


# A citation's keys as the cleaner shows them: "tasks [bordes2014semantic, RetrievalQA]."
_CITATION = re.compile(r"\[[\w:./-]+(?:, [\w:./-]+)*\](?!\()")


def _cited(text: str, at: int) -> bool:
    """Whether a name found at `at` is a key of a citation (which a benchmark's name may be, "RetrievalQA")."""
    opening = text.rfind("[", 0, at + 1)
    return opening >= 0 and bool((group := _CITATION.match(text, opening)) and group.end() > at)


def _in_a_model(text: str, start: int, name: str) -> bool:
    """Whether a benchmark's name is the start of a longer model name: FLAN of "FLAN-T5" (a stats page
    counted FLAN as a benchmark of 7 papers, 6 of which used the FLAN-T5 model)."""
    end = start + len(name)
    if not text.startswith("-", end):
        return False
    return any(at == 0 and stop > len(name) for at, stop in models().find(text[start : end + 40]))


def find_benchmarks(text: str, exclude: str | None = None, known_models: list[str] | None = None) -> list[str]:
    """Benchmarks named in the text, with the variant a suffix names ("ImageNet-LT"), and a model's name
    called a dataset ("the Alpaca dataset"); models (found already, or found here) are not benchmarks,
    nor is an acronym the text defines as a task ("end-to-end (E2E)", "Embodied Question Answering (EQA)")."""
    found = [(s, _with_variant(text, e, text[s:e])) for s, e in benchmarks().find(text)]
    found = [(s, name) for s, name in found if not _a_task(text, name) and not _in_a_model(text, s, name)]
    if "Bench" in text or "Eval" in text or "QA" in text:
        found += [(m.start(), m.group()) for m in _BENCH_SHAPE.finditer(text) if not _a_task(text, m.group())]
    if "benchmark" in text or "dataset" in text or "suite" in text:
        found += [(s, text[s:e]) for s, e in models().find(text) if _CALLED_A_DATASET.match(text, e)]
        # a bare acronym before "datasets" is usually the task ("MMT datasets"), a coined word a name
        found += [
            (m.start(1), m.group(1))
            for m in _BEFORE_BENCH.finditer(text)
            if not m.group(1).isupper() and not _worded(m.group(1)) and not _a_task_of_parts(text, m.group(1))
        ]
        if "benchmarks" in text or "datasets" in text:
            found += [
                (m.start(1) + item.start(), item.group())
                for listed in (_LISTED, _LISTED_AFTER)
                for m in listed.finditer(text)
                for item in _LIST_ITEM.finditer(m.group(1))
                if not _worded(item.group())
            ]
    found = outermost(found)  # one mention, once: "Oxford RobotCar datasets" is not also "RobotCar"
    found += [(s, sibling) for s, sibling in _slashed(text, found) if benchmarks().fullmatch(sibling)]
    names = [name for at, name in sorted(found) if name not in _NOT_NAMES and name != exclude and not _cited(text, at)]
    skip = set(find_models(text) if known_models is None else known_models)
    return _ordered([n for n in names if n not in skip])
