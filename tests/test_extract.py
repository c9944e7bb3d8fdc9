"""Extraction on the real seed papers: each way a name, a model, a benchmark or a claim is written."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paperscope.extract import extract
from paperscope.extract.names import find_name, schwartz_hearst

from .conftest import ROOT


def seed(seed_papers, prefix, line):
    return next(p for p in seed_papers for s in p.sources if s.path.startswith(prefix) and s.line == line)


@pytest.mark.parametrize(
    ("prefix", "line", "name", "expansion"),
    [
        ("003_", 25, "NEMO", "Natural-language Executable Mathematical Optimization"),  # **N**atural ... bold initials
        ("001_", 37, "PADA", "Perturbation-Verified Attention Distillation and Dynamic Alignment"),  # \textbf{P}erturbation
        ("000_", 17, "PCRNet", "Phase-aware Complex Refinement Network"),  # long form (NAME)
        ("003_", 3, "VGR", "Visual-Guided Refinement"),  # NAME (long form)
        ("000_", 35, "GoRL", "Generative Online Reinforcement Learning"),  # NAME (long form), lower-case letters
        ("001_", 19, "AutoRAS", "Automated design of Robust Agentic Systems"),  # appositive whose capitals spell it
        ("003_", 9, "SteER", None),  # **SteER**, no expansion given
        ("003_", 13, "ProCAD", None),  # "named as \textbf{ProCAD}"
        ("003_", 29, "Info-Gain Sampler", None),  # several words
        ("000_", 7, "Lazy Graph-LinUCB", None),
        ("003_", 31, "LiftQuant", None),
        ("003_", 21, "SOL", "Self-Optimizing Language Models"),  # defined, then used as the subject
        ("000_", 5, "TiME", "test-time mixture-of-experts routing"),  # the first of two names introduced
        ("000_", 3, None, None),  # only uses acronyms (LLMs): no name of its own
        ("001_", 39, None, None),
    ],
)  # fmt: skip
def test_names_and_expansions_as_the_seeds_write_them(seed_papers, prefix, line, name, expansion):
    paper = seed(seed_papers, prefix, line)
    assert (paper.name, paper.name_expansion) == (name, expansion)


def test_a_title_that_starts_with_a_name_gives_it():
    found = find_name("We introduce a large dataset for NLI on scientific text.", title="SciNLI: A Corpus for NLI")
    assert found is not None and found.name == "SciNLI"
    assert find_name("We study when to stop.", title="Know When To Stop: A Study of Semantic Drift") is None


def test_schwartz_hearst():
    assert schwartz_hearst("HMM", "we use a hidden Markov model") == "hidden Markov model"
    assert schwartz_hearst("XYZ", "nothing that spells it") is None


def test_models_and_benchmarks_as_written(seed_papers):
    merit = seed(seed_papers, "000_", 33)
    assert merit.models == ["Qwen2.5-VL-3B"]
    aurora = seed(seed_papers, "003_", 15)
    assert aurora.models == ["MiniMax M2.1 229B", "Qwen3-Coder-Next 80B", "Qwen3", "Llama3"]
    cola = seed(seed_papers, "000_", 9)
    assert cola.models == ["DINO", "BERT"]
    assert cola.benchmarks == ["RefCOCO", "RefCOCO+", "RefCOCOg", "AVE", "AVS"]
    rewarding = seed(seed_papers, "001_", 3)
    assert rewarding.benchmarks == ["AlpacaEval 2.0", "GSM8K", "ARC", "TruthfulQA", "HumanEval"]


def test_claims_with_metric_benchmark_and_baseline(seed_papers):
    sol = seed(seed_papers, "003_", 21).claims
    assert [(c.value, c.metric, c.benchmark) for c in sol] == [("7.3%", "accuracy", "MMLU")]
    assert sol[0].baseline == "uniform budget allocation strategies"
    assert "improves MMLU accuracy by up to 7.3%" in sol[0].text
    assert [c.value for c in seed(seed_papers, "003_", 27).claims] == ["18.99–28.14 points", "53–115×"]
    procad = seed(seed_papers, "003_", 13).claims
    assert [(c.value, c.baseline) for c in procad][1] == ("0.9%", "4.8%")  # "from 4.8% to 0.9%"
    assert [c.value for c in seed(seed_papers, "000_", 35).claims] == ["870", "3×"]  # "$3\times$"


def test_setup_numbers_are_not_claims(seed_papers):
    se_rrm = seed(seed_papers, "003_", 11)  # 9×9 Sudoku, 2 million parameters
    assert se_rrm.claims == []


@pytest.mark.parametrize(("prefix", "line", "kind"), [
    ("003_", 15, "system"), ("003_", 25, "system"), ("000_", 3, "analysis"), ("000_", 27, "theory"),
    ("003_", 5, "theory"), ("003_", 19, "method"),
])  # fmt: skip
def test_contribution(seed_papers, prefix, line, kind):
    assert seed(seed_papers, prefix, line).contribution == kind


def test_display_titles_for_untitled_papers(seed_papers):
    assert seed(seed_papers, "003_", 25).display_title == "NEMO: Natural-language Executable Mathematical Optimization"
    assert seed(seed_papers, "003_", 9).display_title.startswith("SteER: a framework for steerable deep research")
    assert seed(seed_papers, "000_", 29).display_title.startswith("Gradient preconditioning method")
    assert all(len(p.display_title) <= 90 for p in seed_papers)


def test_every_label_file_is_well_formed():
    kinds = {"method", "benchmark", "dataset", "theory", "analysis", "system", "position"}
    files = sorted((ROOT / "tests" / "data" / "labels").rglob("*.json"))
    assert len(files) >= 201
    for path in files:
        label = json.loads(path.read_text(encoding="utf-8"))
        assert label["split"] in {"tune", "held_out"} and label["contribution"] in kinds, path
        assert all(set(c) == {"value", "metric", "benchmark", "baseline"} for c in label["claims"]), path


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=400), st.one_of(st.none(), st.text(max_size=60)))
def test_extraction_never_raises(abstract, title):
    facts = extract(title, abstract)
    assert facts.contribution in {"method", "benchmark", "dataset", "theory", "analysis", "system", "position"}
    assert facts.display_title
