"""Benchmarks as one entry per benchmark: the ways papers write it ("AlpacaEval", "AlpacaEval 2.0") are variants.

Two names are one benchmark when they are the same but for case, spacing, hyphens and a version
("2.0", "v2", " 2"), or are names of the same data (ALIASES: "MS COCO" and "COCO"); "CIFAR-10" and
"CIFAR-100" stay apart (a hyphenated number is part of the name).
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from dataclasses import dataclass, field

_VERSION = re.compile(r"(?:\s+v?\d(?:\.\d+)*|[\s-]v\d+(?:\.\d+)*|v\d+\.\d+|\s*\d+\.\d+)$", re.IGNORECASE)


@dataclass
class ClaimRow:
    paper_id: str
    display_title: str
    value: str
    metric: str | None
    baseline: str | None
    text: str  # the sentence the claim comes from
    benchmark: str = ""  # the variant as the paper wrote it
    direction: str | None = None


@dataclass
class Benchmark:
    name: str
    papers: int
    variants: list[tuple[str, int]] = field(default_factory=list)  # as written, papers naming each
    claims: list[ClaimRow] = field(default_factory=list)


# Names of one dataset that differ by more than spelling, by their keys (canonical): the 92.5k corpus's
# papers wrote COCO 321 times and MS COCO, MS-COCO or MSCOCO 296 times. Only names of the very same data:
# CUB-200 (2010) is not CUB-200-2011, nor ImageNet (which may mean ImageNet-21K) ImageNet-1K.
ALIASES = {
    "alpacaeval2": "alpacaeval",  # "AlpacaEval2": the version glued on, as "CIFAR10" is no version
    "mscoco": "coco",
    "microsoftcoco": "coco",
    "cub2002011": "cub",
    "cub2011": "cub",
    "mpisintel": "sintel",
    "atari2600": "atari",
    "ptb": "penntreebank",
    "nyudv2": "nyuv2",
    "nyudepthv2": "nyuv2",
    "voc2007": "pascalvoc2007",
    "voc2012": "pascalvoc2012",
    "ilsvrc2012": "imagenet1k",
    "ilsvrc12": "imagenet1k",
    "imagenetilsvrc2012": "imagenet1k",
}


# Names whose version is other data, not a version of the same: ImageNetV2 is a new test set (Recht et
# al., 2019), Argoverse 2 a new dataset.
VERSIONED_NAMES = {"imagenetv2", "argoverse2"}


def spelled(name: str) -> str:
    """A name bare of case, spaces, hyphens and underscores: "MS-COCO" and "ms coco" alike."""
    return re.sub(r"[\s_-]+", "", name).casefold()


def canonical(name: str) -> str:
    """The key two ways of writing one benchmark share."""
    whole = spelled(name.strip())
    key = whole if whole in VERSIONED_NAMES else spelled(_VERSION.sub("", name.strip()) or name)
    return ALIASES.get(key, key)


def group(written: Counter[str], papers: Counter[str], claims: list[ClaimRow]) -> list[Benchmark]:
    """One entry per benchmark, most papers first. `written`: papers per name as written; `papers`: per
    canonical key (a paper naming two variants counts once)."""
    variants: dict[str, list[tuple[str, int]]] = {}
    for name, count in written.items():
        variants.setdefault(canonical(name), []).append((name, count))
    entries = {}
    for key, names in variants.items():
        names.sort(key=lambda item: (-item[1], item[0]))
        entries[key] = Benchmark(_entry_name([n for n, _ in names]), papers[key], names)
    for row in claims:
        entry = entries.get(canonical(row.benchmark))
        if entry is not None:
            entry.claims.append(row)
    return sorted(entries.values(), key=lambda b: (-b.papers, b.name.casefold()))


def _entry_name(names: list[str]) -> str:
    """The plain name when a paper writes it, else the most written variant, bare of its version."""
    plain = [n for n in names if not _VERSION.search(n)]
    if plain:
        return plain[0]
    return _VERSION.sub("", names[0]) if len(names) > 1 else names[0]


def find(entries: list[Benchmark], name: str) -> Benchmark | None:
    key = canonical(name)
    return next((b for b in entries if canonical(b.name) == key), None)


def close_names(entries: list[Benchmark], name: str, limit: int = 5) -> list[str]:
    """Benchmark names like the one asked for: the ones containing it, then those spelled alike."""
    wanted = spelled(name)
    by_key = {spelled(b.name): b.name for b in entries}
    containing = [b.name for b in entries if wanted and wanted in canonical(b.name)]
    alike = [by_key[k] for k in difflib.get_close_matches(wanted, list(by_key), n=limit, cutoff=0.6)]
    return list(dict.fromkeys(containing + alike))[:limit]
