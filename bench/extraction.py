"""Extraction quality on the hand-labelled set, beside a regex-only baseline, and extraction speed.

    python bench/extraction.py [--speed-sample N]

Each labelled record is read by paperscope's own reader from ../shared, cleaned and assembled
exactly as an ingest does, then compared field by field with tests/data/labels (tune and
held-out parts apart). The baseline is what a few regular expressions give. Speed: the whole
extraction over the corpus abstracts, one process and two.
"""

from __future__ import annotations

import argparse
import json
import re
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from paperscope.assemble import assemble, prepare
from paperscope.extract import extract
from paperscope.model import Paper
from paperscope.sources import reader_for

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
LABELS = ROOT / "tests" / "data" / "labels"
TARGETS = {"name": 0.95, "name_expansion": 0.90, "code": 1.0, "models": 0.85, "benchmarks": 0.85,
           "claims": 0.85, "contribution": 0.85}  # fmt: skip


def load_cases() -> list[tuple[dict, Paper]]:
    """(label, paper as paperscope builds it) for every labelled record."""
    cases = []
    records: dict[str, dict[int, object]] = {}
    for path in sorted(LABELS.rglob("*.json")):
        label = json.loads(path.read_text(encoding="utf-8"))
        file, line = label["source"].rsplit(":", 1)
        if file not in records:
            source = SHARED / "seeds" / file if file.endswith(".txt") else SHARED / "corpus" / "paperlists" / file
            records[file] = {r.source.line: r for r in reader_for(source).read(source)}
        label["set"] = path.parent.name
        cases.append((label, assemble("x", [prepare(records[file][int(line)], "bench")])))  # type: ignore[arg-type]
    return cases


def fold(value: object) -> str:
    text = " ".join(str(value).split()).casefold()
    return text.replace("−", "-").replace("—", "–").replace(" ×", "×").replace("x", "×") if re.match(r"[+\-\d]", text) else text


# The baseline: what a handful of regular expressions find.
_BASE_NAME = re.compile(r"\b(?:propose|introduce|present)\w*\s+(?:a |an |the )?([A-Z][A-Za-z0-9-]*[A-Z][A-Za-z0-9-]*)")
_BASE_MODEL = re.compile(r"\b(?:GPT|Llama|LLaMA|BERT|RoBERTa|T5|Qwen|Mistral|CLIP|ViT|ResNet)[\w.-]*")
_BASE_BENCH = re.compile(r"\b[A-Z][A-Za-z]*(?:Bench|QA|Eval|-\d+|\d+K)\b")


def baseline(paper: Paper) -> dict:
    text = paper.abstract
    name = _BASE_NAME.search(text)
    expansion = re.search(rf"([^()]+)\s*\({re.escape(name.group(1))}\)", text) if name else None
    return {
        "name": name.group(1) if name else None,
        "name_expansion": " ".join(expansion.group(1).split()[-len(name.group(1)) :]) if expansion and name else None,
        "code": [u.rstrip(".,)") for u in re.findall(r"https?://github\.com/\S+", paper.abstract_raw)],
        "models": _BASE_MODEL.findall(text),
        "benchmarks": _BASE_BENCH.findall(text),
        "claims": re.findall(r"\d+(?:\.\d+)?%", text),
        "contribution": "method",
    }


def predicted(paper: Paper) -> dict:
    return {
        "name": paper.name, "name_expansion": paper.name_expansion, "code": paper.urls.code,
        "models": paper.models, "benchmarks": paper.benchmarks, "claims": [c.value for c in paper.claims],
        "contribution": paper.contribution,
    }  # fmt: skip


def gold(label: dict) -> dict:
    return {**label, "claims": [c["value"] for c in label["claims"]]}


def score(cases: list[tuple[dict, dict]]) -> dict[str, str]:
    """Per field: exact match (single values, code sets) or micro precision/recall/F1 (lists)."""
    out: dict[str, str] = {}
    for field in ("name", "name_expansion", "contribution"):
        right = sum(fold(p[field]) == fold(g[field]) for g, p in cases)
        out[field] = f"exact {right / len(cases):.2f}"
    code_right = sum(sorted(p["code"]) == sorted(g["code"]) for g, p in cases)
    out["code"] = f"exact {code_right / len(cases):.2f}"
    for field in ("models", "benchmarks", "claims"):
        tp = fp = fn = 0
        for g, p in cases:
            want, got = Counter(map(fold, g[field])), Counter(map(fold, p[field]))
            tp += sum((want & got).values())
            fp += sum((got - want).values())
            fn += sum((want - got).values())
        precision = tp / (tp + fp) if tp + fp else 1.0
        recall = tp / (tp + fn) if tp + fn else 1.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        out[field] = f"P {precision:.2f} R {recall:.2f} F1 {f1:.2f}"
    return out


def report(cases: list[tuple[dict, Paper]]) -> None:
    parts = {"tune": [c for c in cases if c[0]["split"] == "tune"],
             "held-out": [c for c in cases if c[0]["split"] == "held_out"], "all": cases}  # fmt: skip
    print(f"{len(cases)} labelled papers: " + ", ".join(f"{k} {len(v)}" for k, v in parts.items()))
    header = f"{'field':<16}{'target':>8}" + "".join(f"{name + ' ' + who:>34}" for name in parts for who in ("paperscope",))
    print(header + f"{'baseline (all)':>34}")
    ours = {name: score([(gold(lab), predicted(p)) for lab, p in part]) for name, part in parts.items()}
    base = score([(gold(lab), baseline(p)) for lab, p in cases])
    for field, target in TARGETS.items():
        row = f"{field:<16}{target:>8.2f}" + "".join(f"{ours[name][field]:>34}" for name in parts)
        print(row + f"{base[field]:>34}")
    seeds = [p for lab, p in cases if lab["set"] == "seeds"]
    named = [p for p in seeds if p.name]
    print(f"display titles (seeds): {sum(len(p.display_title) <= 91 for p in seeds)}/{len(seeds)} within 90 characters,"
          f" {sum(p.display_title.startswith(p.name) for p in named)}/{len(named)} of the named lead with the name")  # fmt: skip


def _extract_all(abstracts: list[str]) -> int:
    for abstract in abstracts:
        extract(None, abstract)
    return len(abstracts)


def speed(sample: int) -> None:
    abstracts = []
    for path in sorted((SHARED / "corpus" / "paperlists").iterdir()):
        abstracts += [prepare(r, "x").abstract.text for r in reader_for(path).read(path) if r.abstract]
        if len(abstracts) >= sample:
            break
    abstracts = abstracts[:sample]
    started = time.perf_counter()
    _extract_all(abstracts)
    one = len(abstracts) / (time.perf_counter() - started)
    started = time.perf_counter()
    with ProcessPoolExecutor(2) as pool:
        sum(pool.map(_extract_all, [abstracts[i::2] for i in range(2)]))
    two = len(abstracts) / (time.perf_counter() - started)
    print(f"speed over {len(abstracts):,} corpus abstracts: {one:,.0f} abstracts/s in one process, {two:,.0f} in two"
          f" (target ≥ 5,000 on 2 cores: {two / 5000:.2f}× target)")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--speed-sample", type=int, default=20_000, help="abstracts timed (0 skips the timing)")
    args = parser.parse_args()
    report(load_cases())
    if args.speed_sample:
        speed(args.speed_sample)


if __name__ == "__main__":
    main()
