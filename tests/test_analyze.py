"""Topics, the map, statistics, benchmarks and related papers, through the library and the command line."""

from __future__ import annotations

import json
import math
import shutil
from collections import Counter
from dataclasses import replace
from itertools import combinations
from xml.etree import ElementTree

import numpy as np
import pytest
from PIL import Image

from paperscope import library as library_module
from paperscope.analyze import phrases
from paperscope.analyze import related as related_model
from paperscope.analyze import topics as topic_model
from paperscope.analyze.benchmarks import close_names, find
from paperscope.analyze.charts import topic_name
from paperscope.analyze.stats import compute
from paperscope.embed import embed_missing
from paperscope.index import semantic
from paperscope.library import Library, SharedWeights
from paperscope.model import Claim, Mentions

from .conftest import CORPUS, SEEDS, run_cli


def test_every_paper_gets_a_topic_and_a_place_on_the_map(seeded_db):
    with Library(seeded_db) as library:
        topics = library.topics()
        assert 2 <= len(topics) <= 10 and sum(t.size for t in topics) == 51
        assert all(t.label and len(t.keywords) >= 3 for t in topics)
        labels = {t.label for t in topics}
        papers = list(library.papers())
        assert all(len(p.topics) == 1 and p.topics[0] in labels for p in papers)
        points = library.map_points()
        assert len(points) == 51 and all(0 <= x <= 1 and 0 <= y <= 1 for *_, x, y in points)


def test_key_phrases_hold_no_function_words():
    found = phrases.phrases(
        "We propose speculative decoding (SD), yet it shows 2x speedups for large language "
        "models and state-of-the-art computer vision; DP and OOD are studied."
    )
    assert {"speculative decoding", "large language models", "computer vision", "speedups"} <= set(found)
    assert not {"yet", "propose", "shows", "models", "dp", "ood", "sd", "models computer"} & set(found)
    assert phrases.distinct(["graph neural networks", "neural networks", "graph", "point cloud"], 3) == [
        "graph neural networks",
        "point cloud",
    ]


def test_a_label_names_each_thing_once():
    """What a topic's label or a related paper's reason says again in other words is left out."""
    assert phrases.distinct(["convolutional neural networks", "cnns", "top-1 accuracy"], 2) == [
        "convolutional neural networks",
        "top-1 accuracy",
    ]
    assert phrases.distinct(["reinforcement learning", "rl", "offline rl"], 2) == [
        "reinforcement learning",
        "offline rl",
    ]
    assert phrases.distinct(["fairness", "fair", "bias"], 2) == ["fairness", "bias"]
    assert phrases.distinct(["policy", "policies", "reward"], 2) == ["policy", "reward"]
    assert phrases.distinct(["k-means clustering", "cluster", "data points"], 2) == [
        "k-means clustering",
        "data points",
    ]
    assert phrases.distinct(["matrix completion", "low rank", "low-rank", "matrices"], 3) == [
        "matrix completion",
        "low rank",
        "matrices",
    ]
    # what only looks alike stays
    assert phrases.distinct(["image", "imagenet", "speech", "speed", "plan", "planning"], 6) == [
        "image",
        "imagenet",
        "speech",
        "speed",
        "plan",
        "planning",
    ]


def test_links_are_not_key_phrases():
    found = phrases.phrases(
        "Graph transformers scale. Code is at https://github.com/lab/graph-transformers and www.lab.org/gt, "
        "data on huggingface.co/datasets/x or github.com/lab."
    )
    assert "graph transformers" in found
    assert not [p for p in found if {"github", "https", "com", "www", "huggingface"} & set(p.split())]


def test_topic_labels_are_phrases_their_papers_use(seeded_db):
    with Library(seeded_db) as library:
        topics = {t.label: t for t in library.topics()}
        texts = {label: [] for label in topics}
        for paper in library.papers():
            texts[paper.topics[0]].append(set(phrases.phrases(semantic.text_of(paper))))
    shown = [phrase for label in topics for phrase in label.split(", ")]
    assert any(" " in phrase for phrase in shown)  # two- and three-word phrases first
    assert not {word for phrase in shown for word in phrase.split()} & phrases.stop_words()
    for label, used in texts.items():
        for phrase in label.split(", "):
            users = sum(phrase in mine for mine in used)
            assert users >= 2 and users >= topic_model.MIN_SHARE * len(used), (label, phrase)


def test_the_number_of_topics_is_the_count_with_the_best_silhouette_less_its_lone_papers(seeded_db):
    with Library(seeded_db) as library:
        vectors = library.vectors()
        texts = [semantic.text_of(library.paper(pid)) for pid in vectors.ids]
    steps = []
    layout = topic_model.cluster(
        vectors.matrix, texts, progress=lambda stage, done, total: stage == "topics" and steps.append((done, total))
    )
    assert sorted(layout.silhouettes) == topic_model.candidate_counts(51) == [6, 8, 10]
    best = max(layout.silhouettes, key=layout.silhouettes.__getitem__)
    clusters = np.bincount(topic_model._kmeans(topic_model.with_words(vectors.matrix, texts), best))
    assert 1 in clusters  # the seeds have a lone paper at the best count, which joins another topic
    assert len(layout.topics) == sum(clusters >= topic_model.MIN_TOPIC_SIZE) >= topic_model.MIN_TOPICS
    assert all(topic.size >= topic_model.MIN_TOPIC_SIZE for topic in layout.topics)
    assert steps == [(done, len(layout.silhouettes) + 1) for done in range(len(layout.silhouettes) + 2)]


def test_the_same_papers_give_the_same_topics(seeded_db, tmp_path):
    with Library(seeded_db) as library:
        first = {p.id: p.topics for p in library.papers()}
    again = tmp_path / "again.db"
    shutil.copytree(SEEDS, tmp_path / "seeds")
    with Library(again) as library:
        library.ingest([tmp_path / "seeds"])
        assert {p.id: p.topics for p in library.papers()} == first


def test_topics_from_the_command_line_with_a_chosen_count(seeded_copy):
    run = run_cli("--db", seeded_copy, "topics", "--topics", "8", "--json")
    found = json.loads(run.out)["topics"]
    assert len(found) == 8 and sum(t["size"] for t in found) == 51
    assert all(1 <= len(t["papers"]) <= 3 for t in found)
    assert run_cli("--db", seeded_copy, "topics").out.startswith("8 topics")
    again = json.loads(run_cli("--db", seeded_copy, "topics", "--again", "--json").out)["topics"]
    with Library(seeded_copy) as library:
        assert len(again) == len(library.topics()) != 8  # the count chosen as at first


def test_the_map_is_drawn_as_svg_and_png(seeded_db, tmp_path):
    svg, png = tmp_path / "map.svg", tmp_path / "map.png"
    assert run_cli("--db", seeded_db, "map", "-o", svg).code == 0
    root = ElementTree.parse(svg).getroot()
    circles = root.findall(".//{http://www.w3.org/2000/svg}circle")
    topics = {c.get("data-topic") for c in circles}
    assert len(circles) == 51 and len({c.get("fill") for c in circles}) == len(topics) > 1  # a colour each
    labels = root.findall(".//{http://www.w3.org/2000/svg}text")
    assert {t.get("data-topic") for t in labels} == topics  # each topic named on the map
    with Library(seeded_db) as library:
        first = {str(t.id): topic_name(t.id, t.label) for t in library.topics()}
    assert {t.get("data-topic"): t.text for t in labels} == first
    assert run_cli("--db", seeded_db, "map", "-o", png).code == 0
    with Image.open(png) as image:
        assert image.width > 500 and len(image.getcolors(1_000_000) or []) > 10
    bad = run_cli("--db", seeded_db, "map", "-o", tmp_path / "map.gif")
    assert bad.code == 1 and "drawn as .svg or .png" in bad.err


@pytest.mark.slow
def test_stats_and_benchmarks(seeded_db):
    stats = json.loads(run_cli("--db", seeded_db, "stats", "--json").out)
    assert stats["papers"] == 51 and stats["venues"] == [{"name": "ICML 2026", "papers": 51}]
    assert stats["with_code"] == 17 and {"name": "Sudoku", "papers": 2} in stats["benchmarks"]
    assert "█" in run_cli("--db", seeded_db, "stats").out
    listed = json.loads(run_cli("--db", seeded_db, "benchmarks", "--json").out)["benchmarks"]
    assert listed[0]["name"] == "Sudoku" and listed[0]["papers"] == 2
    for asked in ("alpacaeval 2.0", "AlpacaEval", "alpaca-eval"):  # however written, the one benchmark
        one = json.loads(run_cli("--db", seeded_db, "benchmarks", asked, "--json").out)
        assert one["benchmark"] == "AlpacaEval 2.0" and one["claims"] and all(c["text"] for c in one["claims"])
    sudoku = json.loads(run_cli("--db", seeded_db, "benchmarks", "Sudoku", "--json").out)["claims"]
    assert [c["value"] for c in sudoku] == ["+69.7%"]  # AGRPO's "+59.4% and +69.7% on Countdown and Sudoku"
    missing = run_cli("--db", seeded_db, "benchmarks", "AlpcaEval")
    assert missing.code == 1 and missing.err.count("\n") == 1
    assert missing.err.startswith("error: no paper names the benchmark 'AlpcaEval'; close: AlpacaEval 2.0")
    table = run_cli("--db", seeded_db, "benchmarks", "Sudoku").out
    assert "+69.7%" in table and "Countdown and" in table  # the claim's sentence beside it


def test_versions_of_a_benchmark_are_one_entry_with_variants(seeded_db):
    with Library(seeded_db) as library:
        papers = list(library.papers())
    rewarding = next(p for p in papers if "AlpacaEval 2.0" in p.benchmarks)
    plain = replace(
        rewarding,
        id="plain",
        benchmarks=["AlpacaEval", "CIFAR-10", "MS-COCO", "ImageNet"],
        claims=[Claim("3%", benchmark="AlpacaEval", text="It gains 3% on AlpacaEval.")],
    )
    cifar = replace(
        rewarding, id="cifar", benchmarks=["CIFAR-100", "SQuAD v1.1", "COCO", "ImageNet-V2", "AlpacaEval2"], claims=[]
    )
    stats = compute([], [], map(Mentions.of, [*papers, plain, cifar]))
    entries = stats.by_benchmark
    alpaca = find(entries, "AlpacaEval 2.0")
    assert alpaca is not None and alpaca.name == "AlpacaEval" and alpaca.papers == 3
    assert {v for v, _ in alpaca.variants} == {"AlpacaEval", "AlpacaEval 2.0", "AlpacaEval2"}
    assert "It gains 3% on AlpacaEval." in [c.text for c in alpaca.claims] and len(alpaca.claims) > 1
    assert find(entries, "CIFAR-10").name == "CIFAR-10" and find(entries, "cifar-100").name == "CIFAR-100"
    assert find(entries, "SQuAD").name == "SQuAD v1.1"
    coco = find(entries, "MSCOCO")  # names of the same data, not only the same spelling
    assert coco.name == "COCO" and coco.papers == 2 and {v for v, _ in coco.variants} == {"COCO", "MS-COCO"}
    # another test set, not a version of ImageNet
    assert find(entries, "ImageNetV2").name == "ImageNet-V2" and find(entries, "ImageNet").name == "ImageNet"
    assert close_names(entries, "CIFAR") == ["CIFAR-10", "CIFAR-100"]
    counted = dict(stats.benchmarks)  # the charts: one bar per benchmark, the papers naming any variant
    assert counted["AlpacaEval"] == 3 and "AlpacaEval 2.0" not in counted


def test_the_stats_read_from_the_store_are_those_of_its_papers(seeded_library):
    """The store counts and passes over papers naming nothing without decoding them: what it gives is
    what reading every paper whole gives."""
    papers = list(seeded_library.papers())
    named = [Mentions.of(p) for p in papers if p.models or p.benchmarks or p.claims]
    assert 0 < len(named) < len(papers)
    assert sorted(seeded_library.store.mentions()) == sorted(named)
    groups = Counter((p.venue, p.year, p.contribution, int(bool(p.urls.code))) for p in papers)
    topics = Counter(t for p in papers for t in p.topics)
    whole = compute([(*group, n) for group, n in groups.items()], topics.items(), named)
    assert seeded_library.stats() == whole
    assert whole.papers == 51 and whole.with_code == 17 and whole.by_benchmark


def test_related_papers_on_the_same_problem_come_first_with_a_reason(seeded_library):
    vsd = seeded_library.search("VSD", limit=1)[0].paper
    found = seeded_library.related(vsd.id, 5)
    assert len(found) == 5 and vsd.id not in {r.paper.id for r in found}
    aurora = next(r for r in found if r.paper.name == "Aurora")  # the other speculative-decoding paper
    assert found.index(aurora) == 0 and "speculative decoding" in aurora.phrases
    reasons = " ".join(r.reason for r in found)
    assert not {"yet", "show", "paper", "propose", "the"} & set(reasons.replace(",", " ").split())


def test_a_reason_names_what_two_papers_are_about_not_how_the_field_writes(seeded_library):
    """Among 51 papers any word two of them use is rare in the library: SE-RRMs' related papers read
    "both about outperform", "both about million, outperform, scalability", "both about solution"."""
    se_rrms = seeded_library.search("SE-RRMs", limit=1)[0].paper
    found = seeded_library.related(se_rrms.id, 10)
    said = {word for r in found for phrase in r.phrases for word in phrase.split()}
    assert not {"outperform", "million", "solution"} & said
    agrpo = next(r for r in found if r.paper.name == "AGRPO")  # the other paper on Sudoku
    assert agrpo.phrases[0] == "sudoku" and agrpo.shared == ["benchmark Sudoku"]
    assert "outperform" in related_model.common_words() and "sudoku" not in related_model.common_words()


def test_in_a_large_library_related_papers_sharing_nothing_named_come_last(tmp_path, monkeypatch):
    """Among 1,000 papers or more, a related paper that shares no benchmark, model or key phrase with the
    paper comes after those that do (at 11.5k papers 6% of them were judged related, 26% of the others)."""
    with Library(tmp_path / "acl.db") as library:
        library.ingest([CORPUS / "acl2022.json.gz"], embed_vectors=False)
        assert library.count() >= library_module.RELATED_REASONED_FROM
        ids = [p.id for p in library.papers()][:60]

        def named(pid: str) -> list[bool]:
            return [bool(r.shared or r.phrases) for r in library.related(pid, 10)]

        first = {pid: named(pid) for pid in ids}
        assert all(flags == sorted(flags, reverse=True) and len(flags) == 10 for flags in first.values())
        monkeypatch.setattr(library_module, "RELATED_REASONED_FROM", 10**9)  # as ranked, as in a small library
        library._weights.held = None
        as_ranked = {pid: named(pid) for pid in ids}
        assert any(flags != sorted(flags, reverse=True) for flags in as_ranked.values())


def test_a_texts_words_and_phrases_for_related_papers(monkeypatch):
    monkeypatch.setattr(related_model, "MAX_TERMS", 3)  # the word cache is emptied on the way, not wrong
    terms = related_model.Terms("Speculative decoders, tree drafts. Decoders verify the drafts: in parallel")
    assert related_model.words(terms.text) == [
        "speculative",
        "decoder",
        "tree",
        "draft",
        "decoder",
        "verify",
        "draft",
        "parallel",
    ]
    assert terms.counts["decoder"] == 2 and "the" not in terms.counts
    assert terms.key_phrases["speculative decoder"] == ["speculative decoders"]  # matched singular, shown as said
    assert terms.key_phrases["draft"] == ["drafts", "drafts"]
    linked = related_model.Terms("Code: https://sites.google.com/view/nav and www.github.com/a/b. Robots navigate")
    assert set(linked.counts) == {"code", "robot", "navigate"}
    idf = related_model.Idf({"speculative": 1, "decoder": 1, "draft": 1, "tree": 3, "parallel": 1}, 100)
    other = related_model.Terms("Faster speculative decoders without drafts, in parallel")
    # "parallel", said once in each, is how two sentences went; "drafts" is what the first one is about
    assert related_model.shared_phrases(terms, other, idf) == ["speculative decoders", "drafts"]
    formula = related_model.Terms("A regret of $\\tilde{O}(\\sqrt{T})$, and $\\tilde{O}(d)$ memory")
    assert "tilde" not in formula.key_phrases and "sqrt" not in formula.key_phrases
    assert "tilde" in phrases.phrases_and_formulas(formula.text)  # a feature of likeness all the same
    mine, theirs = related_model.weights(terms, idf), related_model.weights(other, idf)
    assert math.isclose(sum(v * v for v in mine.values()), 1.0)
    cosine = sum(weight * theirs.get(word, 0.0) for word, weight in mine.items())
    assert 0 < related_model.similarity(mine, other, idf) < 1
    assert math.isclose(related_model.similarity(mine, other, idf), cosine)
    assert math.isclose(related_model.similarity(theirs, terms, idf), cosine)


def test_libraries_sharing_word_weights_see_another_connections_ingest(seeded_copy, tmp_path):
    shared = SharedWeights()
    with Library(seeded_copy, shared) as one, Library(seeded_copy, shared) as two:
        vsd = one.search("VSD", limit=1)[0].paper
        assert one.related(vsd.id, 3) and one._library_idf() is two._library_idf()  # worked out once
        listing = tmp_path / "more.txt"
        listing.write_text("More Papers\n" + "".join(f"Paper {n} studies graph coarsening.\n" for n in range(3)))
        with Library(seeded_copy) as writer:
            writer.ingest([listing], embed_vectors=False)
        assert two._library_idf().total == one._library_idf().total == 54  # 51 seeds and 3 new papers
        assert two._library_idf()("coarsening") < math.log(55)  # now a word of the library


def test_related_on_the_command_line(seeded_db):
    with Library(seeded_db) as library:
        vsd = library.search("VSD", limit=1)[0].paper
    run = run_cli("--db", seeded_db, "related", vsd.id, "--limit", "3")
    assert run.code == 0 and "both about speculative decoding" in run.out


def test_embedding_topics_and_the_map_report_progress_from_the_start(tmp_path):
    """What the progress bars (and their ETA) are fed: vectors early, k-means and labels, t-SNE's iterations."""
    heard: list[tuple[str, int, int]] = []
    with Library(tmp_path / "lib.db") as library:
        library.ingest([SEEDS], progress=lambda stage, done, total: heard.append((stage, done, total)))
    vectors = [(done, total) for stage, done, total in heard if stage == "vectors"]
    assert vectors[:3] == [(0, 51), (16, 51), (32, 51)] and vectors[-1] == (51, 51)  # a rate after 32 papers
    topics = [(d, t) for s, d, t in heard if s == "topics"]  # each candidate count of k-means, then the labels
    assert topics[0] == (0, topics[0][1]) and topics[-1] == (topics[0][1], topics[0][1]) and len(topics) >= 3
    assert [d for d, _ in topics] == sorted(d for d, _ in topics)
    steps = [(done, total) for stage, done, total in heard if stage == "map"]
    assert steps[0] == (0, 1000) and steps[-1] == (1000, 1000)
    inner = [done for done, _ in steps[1:-1]]
    assert len(inner) >= 5 and inner == sorted(inner) and inner[0] == 50  # every 50 t-SNE iterations


def test_a_topic_label_at_the_maps_edge_is_written_inside_it_and_no_label_is_a_verb():
    from paperscope.analyze.charts import topic_map

    svg = topic_map([("a", "A", 4, 0.0, 1.0), ("b", "B", 4, 0.0, 1.0)], {4: "speculative decoding, acceptance"})
    label = ElementTree.fromstring(svg).find(".//{http://www.w3.org/2000/svg}g[@id='map-labels']")[0]
    assert label.text == "5 speculative decoding"
    assert float(label.get("x")) - 8.0 * len(label.text) / 2 >= 0 and float(label.get("y")) >= 13
    assert "formulates" not in phrases.phrases("VSD formulates draft training as variational inference.")


def test_topics_named_alike_are_led_by_what_sets_the_smaller_apart():
    # Three of the 60 topics of the 11.5k-paper evaluation library, largest first: the map named the
    # first and the third "large language models".
    keywords = [
        ["large language models", "llms", "in-context learning"],
        ["graph neural networks", "node", "convolutional networks"],
        ["large language models", "llms", "fine-tuning", "instruction tuning"],
        ["llms", "large language models"],  # every phrase is some larger topic's: left as it was
    ]
    led = topic_model.led_apart(keywords)
    assert led[:2] == keywords[:2] and led[3] == keywords[3]
    assert led[2] == ["fine-tuning", "large language models", "llms", "instruction tuning"]


def test_a_topic_label_is_no_phrase_cut_from_a_longer_one():
    # Labels of the 11.5k-paper evaluation library read "markov chain monte", "deep metric" and "3d
    # object": a key phrase of three words at most cut "markov chain monte carlo" short.
    things = ("posteriors", "mixtures", "hierarchical priors", "spatial fields", "phylogenies", "networks")
    sampling = [
        f"Markov chain Monte Carlo for {thing}. Markov chain Monte Carlo is slow on {thing}." for thing in things
    ]
    detection = [
        f"Deep metric learning for {thing}. We study 3D object detection with deep metric learning." for thing in things
    ]
    found = topic_model.label_phrases(sampling + detection, np.array([0] * 6 + [1] * 6), 2)
    assert "monte carlo" in found[0] and {"3d object detection", "deep metric learning"} <= set(found[1])
    assert not {"markov chain monte", "chain monte carlo", "deep metric", "3d object"} & {*found[0], *found[1]}
    # in recommendations' shared phrases as well
    assert phrases.distinct(["markov chain monte", "chain monte carlo", "monte carlo", "markov chain"], 3) == [
        "monte carlo",
        "markov chain",
    ]


def test_labels_of_topics_at_one_place_are_written_on_lines_of_their_own_near_it():
    from paperscope.analyze.charts import LABEL_HEIGHT, LABEL_SHIFTS, topic_map

    # Four topics whose papers lie at one place, as the crowded middle of a large library's map.
    points = [(f"p{t}{i}", "A paper", t, 0.5, 0.5) for t in range(4) for i in range(3)]
    svg = topic_map(points, {t: f"topic phrase {t}" for t in range(4)})
    texts = ElementTree.fromstring(svg).find(".//{http://www.w3.org/2000/svg}g[@id='map-labels']")
    lines = [float(text.get("y")) for text in texts]
    assert len(set(lines)) == 4  # none written over another
    centre = lines[0]  # the largest topic keeps its place
    assert all(abs(line - centre) <= LABEL_SHIFTS * LABEL_HEIGHT for line in lines)


def test_where_labels_would_cover_each_other_a_number_alone_or_nothing_is_written():
    from paperscope.analyze.charts import LABEL_CHAR_WIDTH, LABEL_HEIGHT, LABEL_SHIFTS, label_places

    # Twelve topics at one place: more than the lines near it hold (the command line's picture wrote all twelve
    # over each other; the web map, its last labels at the centre over the first)
    points = [(f"p{t}{i}", "A paper", t, 0.5, 0.5) for t in range(12) for i in range(3)]
    places = label_places(points, {t: f"a long topic phrase {t}" for t in range(12)})
    boxes = [
        (x - LABEL_CHAR_WIDTH * len(name) / 2, y - LABEL_HEIGHT + 3, x + LABEL_CHAR_WIDTH * len(name) / 2, y + 3)
        for _, name, x, y in places
    ]
    assert not any(a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3] for a, b in combinations(boxes, 2))
    written = {topic: name for topic, name, _, _ in places}
    assert written[0] == "1 a long topic phrase 0"  # the largest keeps its name
    assert len(written) == 2 * LABEL_SHIFTS + 1  # as many as the lines near the place hold; the legend names all
    apart = label_places([*points, ("q", "A paper", 12, 0.64, 0.5)], {t: f"a long topic phrase {t}" for t in range(13)})
    assert (12, "13") in [(topic, name) for topic, name, _, _ in apart]  # its number alone, where its name won't fit


def test_the_models_chart_counts_a_model_once_however_papers_spell_it():
    """At 92.5k papers GPT-4 had 140 papers and GPT4 others apart; U-Net 87 and UNet 22."""
    written = [["LLaMA-2", "GPT-4"], ["Llama 2"], ["llama-2", "GPT-4o"], ["LLaMA-2"]]
    mentions = [Mentions(f"p{i}", f"Paper {i}", models, [], []) for i, models in enumerate(written)]
    assert compute([], [], mentions).models == [("LLaMA-2", 4), ("GPT-4", 1), ("GPT-4o", 1)]


def _topic_of(library: Library, words: str) -> str:
    """The topic of the one paper whose abstract holds these words."""
    (paper,) = [p for p in library.papers() if words in p.abstract]
    return paper.topics[0]


NEW_PAPERS = (
    "Speculative decoding accelerates inference for LLMs: draft paths sampled from a small model are verified"
    " by the target model. We train the draft model to maximise the acceptance of its proposals.",
    "Quantization methods with integer bit-widths cannot fit Large Language Models to a memory budget. We"
    " introduce a framework with continuous bit-width control for Pareto-optimal deployment.",
)


def _places(library: Library) -> dict[str, tuple[int, float, float]]:
    return {pid: (topic, x, y) for pid, _, topic, x, y in library.map_points()}


def test_a_few_new_papers_are_placed_among_the_topics_there_are_and_many_make_them_again(
    seeded_any, tmp_path, monkeypatch
):
    monkeypatch.setattr(topic_model, "PLACE_FROM", 0)  # the seeds alone are made again at any change
    monkeypatch.setattr(topic_model, "PLACE_SHARE", 0.1)  # up to 5.1 papers placed of the 51 made
    with Library(seeded_any) as library:
        before, topics = _places(library), {t.id: t.label for t in library.topics()}
        listing = tmp_path / "two.txt"
        listing.write_text("More Papers\n" + "\n".join(NEW_PAPERS) + "\n", encoding="utf-8")
        library.ingest([listing])
        after = _places(library)
        assert {t.id: t.label for t in library.topics()} == topics  # the topics stay as they were made
        assert {pid: after[pid] for pid in before} == before  # and so does every paper's place
        assert len(after) == 53 and sum(t.size for t in library.topics()) == 53
        assert all(0 <= x <= 1 and 0 <= y <= 1 for _, x, y in after.values())
        listing.write_text("More Papers\n" + NEW_PAPERS[0] + "\n", encoding="utf-8")
        assert library.ingest([listing]).papers_removed == 1  # a paper gone leaves the map, and its topic
        assert {t.id: t.label for t in library.topics()} == topics
        assert len(_places(library)) == 52 and sum(t.size for t in library.topics()) == 52
        more = tmp_path / "more.txt"  # 2 + 1 + 3 changes are more than 10% of the 51 the topics were made of
        more.write_text("Even More Papers\n" + "".join(f"Paper {n} studies graph coarsening.\n" for n in range(3)))
        library.ingest([more])
        made_again = _places(library)
        assert len(made_again) == 55 and sum(t.size for t in library.topics()) == 55
        assert {pid: made_again[pid] for pid in before} != before


def test_new_papers_join_the_topic_of_the_papers_they_are_like_without_clustering_again(tmp_path):
    with Library(tmp_path / "icml.db") as library:
        library.ingest([SEEDS, CORPUS / "icml2018.json.gz"], embed_vectors=False)
        embed_missing(library.store)  # the vectors, not yet the topics: they are made once, below
        # a count of topics of its own: the one the silhouette chooses among close candidates turns on a few
        # papers' words here (two abstracts whose formulas were read differently moved it from 9 to 28)
        library.analyze(count=9)
        assert len(library.map_points()) == 674
        before, topics = _places(library), library.topics()
        listing = tmp_path / "two.txt"
        listing.write_text("More Papers\n" + "\n".join(NEW_PAPERS) + "\n", encoding="utf-8")
        library.ingest([listing])
        joined = _topic_of(library, NEW_PAPERS[0][:50])
        # Both are about large language models: they join the topic of the library's LLM papers
        assert _topic_of(library, NEW_PAPERS[1][:50]) == joined
        (topic,) = [t for t in topics if t.label == joined]
        assert {"large language models", "llms"} & set(topic.keywords)
        grown = {t.id: replace(t, size=t.size + 2 * (t.label == joined)) for t in topics}
        assert {t.id: t for t in library.topics()} == grown  # not clustered again: the same topics, two more papers
        assert {pid: place for pid, place in _places(library).items() if pid in before} == before


def test_a_large_librarys_map_draws_each_topic_as_an_island(seeded_db, monkeypatch):
    monkeypatch.setattr(topic_model, "MAP_TSNE_LIMIT", 10)  # the seeds drawn as a library beyond t-SNE's reach
    with Library(seeded_db) as library:
        vectors = library.vectors()
        papers = library.store.get_papers(vectors.ids)
        layout = topic_model.cluster(vectors.matrix, [semantic.text_of(papers[pid]) for pid in vectors.ids])
    xy, topics = layout.xy, layout.assignment
    assert xy.min() >= 0 and xy.max() <= 1 and len(set(topics.tolist())) >= 5
    centres = {t: xy[topics == t].mean(axis=0) for t in set(topics.tolist())}
    nearest = [min(centres, key=lambda t: float(np.linalg.norm(place - centres[t]))) for place in xy]
    # most papers lie nearer their own topic's middle than any other's (all 51; a PCA of every paper: 14)
    assert sum(n == t for n, t in zip(nearest, topics, strict=True)) >= 0.9 * len(xy)


def test_the_english_stop_words_shipped_are_scikit_learns():
    """Related papers and topic phrases read the package's copy, so that no command imports scikit-learn for it."""
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    assert phrases.english_stop_words() == ENGLISH_STOP_WORDS
