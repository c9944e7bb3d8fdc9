"""Quantitative result claims: the value as written, and the metric, benchmark and baseline when the sentence says."""

from __future__ import annotations

import re

from paperscope.extract.entities import find_benchmarks
from paperscope.extract.text import sentences
from paperscope.model import Claim

_DIGIT = re.compile(r"\d")
_NUMBER = r"[+\-−]?\d+(?:,\d{3})*(?:\.\d+)?"
_UNIT = r"(?:\s?%|\s?×(?!\s?\d)|x(?![\w])|\s?(?:percentage points?|pp|points?|pts)\b|-fold\b|\s?times\b)"
_RANGE = r"\s?(?:–|—|-|to)\s?"
_VALUE = re.compile(rf"(?<![\w.$^{{-])(?:{_NUMBER}{_UNIT}?{_RANGE})?{_NUMBER}{_UNIT}(?:\+)?")
# A bare number reported as a result: "reaches 870", "a 29.44 win rate", "from 54.3 to 57.0".
_METRICS = (r"accuracy|win rate|F1|BLEU|ROUGE(?:-\w+)?|mAP|AP|AUC|AUROC|PSNR|SSIM|FID|EM|exact match|returns?|"
            r"score|success rate|Pass@\d+|pass@\d+|perplexity|WER|CER|mIoU|IoU|NDCG(?:@\d+)?|recall(?:@\d+)?|"
            r"precision(?:@\d+)?|speedup|solve rate|error rate|error|reward|top-1 accuracy|top-5 accuracy|Elo")  # fmt: skip
_METRIC = re.compile(rf"\b(?:{_METRICS})\b", re.IGNORECASE)
_BARE = re.compile(
    rf"(?:\b(?:reach(?:es|ing)?|achiev(?:es|ing)|obtain(?:s|ing)?|attain(?:s|ing)?|scor(?:es|ing)|exceeding|"
    rf"surpassing|by)\s+(?:an?\s+)?(?:average\s+)?(?:of\s+)?)(?P<value>{_NUMBER})(?![\w%×]|\s?(?:{_UNIT}|[BMK]\b|"
    rf"million|billion|thousand|bits?|GB|tasks|languages|datasets|benchmarks|models|layers|samples|examples|"
    rf"parameters|hours|days|steps|tokens|times))"
)
_BEFORE_METRIC = re.compile(rf"(?<![\w.$-])(?P<value>{_NUMBER})\s+(?:{_METRICS})\b")
_FROM_TO = re.compile(rf"\bfrom\s+(?P<old>{_NUMBER}%?)(?:\s*\([^)]*\))?\s+to\s+(?P<new>{_NUMBER}%?)")
_BASELINE = re.compile(
    r"\b(?:over|than|compared (?:to|with)|relative to|vs\.?|versus|outperform(?:s|ing)?)\s+(?P<b>[^,.;:()]{3,80})"
)
_SETUP_AFTER = re.compile(r"^\s?(?:of|in)?\s*(?:the\s+)?(?:parameters|data|training|tokens|samples|examples|"
                          r"tasks|languages|GPU|memory|layers|size)\b", re.IGNORECASE)  # fmt: skip


def find_claims(abstract: str, benchmarks: list[str] | None = None) -> list[Claim]:
    """Every quantitative result claim, in order; a number it is unsure of is left out.

    `benchmarks` are those the abstract names (found here when not given): a claim's benchmark is
    the one nearest its value in the same sentence.
    """
    named = find_benchmarks(abstract) if benchmarks is None else benchmarks
    claims: list[Claim] = []
    for sentence in sentences(abstract):
        if not _DIGIT.search(sentence):
            continue
        sentence = _plain_math(sentence)
        # (priority, start, end, value, baseline): "from A to B" first, then values with units, then bare numbers
        found: list[tuple[int, int, int, str, str | None]] = []
        for match in _FROM_TO.finditer(sentence):
            found.append((0, match.start("old"), match.end("new"), match.group("new"), match.group("old")))
        for match in _VALUE.finditer(sentence):
            if not _SETUP_AFTER.match(sentence[match.end() :]):
                found.append((1, match.start(), match.end(), match.group().strip(), None))
        for pattern in (_BARE, _BEFORE_METRIC):
            for match in pattern.finditer(sentence):
                found.append((2, match.start("value"), match.end("value"), match.group("value"), None))
        taken: list[tuple[int, int, str, str | None]] = []
        for _, start, end, value, baseline in sorted(found):
            if not any(start < e and s < end for s, e, _, _ in taken):
                taken.append((start, end, value, baseline))
        here = [name for name in named if name in sentence]
        claims += [_claim(sentence, start, end, value, baseline, here) for start, end, value, baseline in sorted(taken)]
    return claims


def _plain_math(text: str) -> str:
    """Multiplication signs as papers mean them: "1.5$\\times$" is 1.5×."""
    if "\\times" not in text:
        return text
    text = re.sub(r"\$\s*(\d+(?:\.\d+)?)\s*\\times\s*\$", r"\1×", text)
    return re.sub(r"\$?\\times\$?", "×", text)


def _claim(sentence: str, start: int, end: int, value: str, baseline: str | None, benchmarks: list[str]) -> Claim:
    window = sentence[max(0, start - 80) : end + 60]
    metrics = [(abs(m.start() - (start - max(0, start - 80))), m.group()) for m in _METRIC.finditer(window)]
    if baseline is None:
        match = _BASELINE.search(sentence, end) or _BASELINE.search(sentence[:start])
        baseline = match.group("b").strip() if match else None
    return Claim(
        value=value.replace("x", "×") if value.endswith("x") else value,
        metric=min(metrics)[1] if metrics else None,
        benchmark=_nearest(benchmarks, sentence, start),
        baseline=baseline,
        text=sentence.strip()[:300],
    )


def _nearest(names: list[str], sentence: str, at: int) -> str | None:
    if not names:
        return None
    return min(names, key=lambda n: abs(sentence.find(n) - at))
