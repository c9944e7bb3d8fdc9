"""The reader's own library: tags, reading list, notes, saved searches and news, changes, recommendations."""

from __future__ import annotations

import gzip
import json

import pytest

from paperscope.analyze import phrases
from paperscope.errors import PaperscopeError
from paperscope.library import Library
from paperscope.normalize.html import note_to_html
from paperscope.personal import Personal

from .conftest import CORPUS, ROOT, SEEDS, run_cli

VSD, AURORA, NEMO = "lb4pvidcied2", "etoxgtwakr3b", "drqlcr3nir3z"


def test_tags_states_and_notes_survive_a_reingest(seeded_any, tmp_path):
    with Library(seeded_any) as library:
        me = Personal(library)
        me.tag(VSD, "decoding")
        me.tag(AURORA.upper(), "decoding")
        me.set_state(VSD, "to read")
        me.set_note(NEMO, "Compare with **PMVB**.")
    moved = tmp_path / "moved"
    moved.mkdir()
    for page in SEEDS.iterdir():  # the same lists at another path, plus one changed line
        (moved / page.name).write_text(page.read_text(encoding="utf-8"), encoding="utf-8")
    with Library(seeded_any) as library:
        library.ingest([moved])
        me = Personal(library)
        assert {p.id for p in me.listed("decoding")} == {VSD, AURORA}
        assert [p.id for p in me.listed()] == [VSD] and me.state(VSD) == "to read"
        assert me.note(NEMO) == "Compare with **PMVB**."


def test_bad_personal_input_is_a_clear_error(seeded_any):
    with Library(seeded_any) as library:
        me = Personal(library)
        for call in (
            lambda: me.tag("nosuchpaper", "x"),
            lambda: me.tag(VSD, " , "),
            lambda: me.set_state(VSD, "skimmed"),
            lambda: me.recommend("nothing-tagged"),
        ):
            with pytest.raises(PaperscopeError):
                call()


def test_notes_render_safely():
    html = note_to_html("**bold** <script>alert(1)</script> [x](javascript:alert(1)) [ok](https://example.org)")
    assert "<strong>bold</strong>" in html and "<script" not in html and 'href="javascript' not in html
    assert 'href="https://example.org"' in html


@pytest.mark.slow
def test_the_command_line_round_trip(seeded_copy, tmp_path):
    db = ("--db", seeded_copy)
    assert run_cli(*db, "tag", VSD, "decoding", "fast").out.strip() == f"{VSD}: tags decoding, fast"
    assert run_cli(*db, "tag", VSD, "fast", "--remove").out.strip() == f"{VSD}: tags decoding"
    run_cli(*db, "tag", AURORA, "decoding")
    assert run_cli(*db, "queue", VSD).code == 0
    assert run_cli(*db, "read", AURORA, "--state", "reading").code == 0
    listed = json.loads(run_cli(*db, "list", "--json").out)["papers"]
    assert {(p["id"], p["state"]) for p in listed} == {(VSD, "to read"), (AURORA, "reading")}
    assert json.loads(run_cli(*db, "tags", "--json").out) == {"tags": [{"tag": "decoding", "papers": 2}]}
    run_cli(*db, "note", NEMO, "Read **after** PMVB.")
    assert run_cli(*db, "note", NEMO).out.strip() == "Read **after** PMVB."
    suggestions = json.loads(run_cli(*db, "recommend", "--tag", "decoding", "--limit", "5", "--json").out)[
        "suggestions"
    ]
    assert len(suggestions) == 5 and not {s["id"] for s in suggestions} & {VSD, AURORA}
    assert all(s["reason"].startswith("near ") for s in suggestions)
    out = tmp_path / "decoding.bib"
    assert run_cli(*db, "export", "-f", "bibtex", "--tag", "decoding", "-o", out).code == 0
    assert out.read_text(encoding="utf-8").count("@misc{") == 2  # the seeds name no authors: @misc
    bad = run_cli(*db, "read", VSD, "--state", "skimmed")
    assert bad.code == 1 and bad.err.startswith("error: unknown reading state")


@pytest.mark.slow
def test_saved_searches_show_what_a_later_ingest_added(seeded_any):
    db = ("--db", seeded_any)
    assert run_cli(*db, "save", "robots", "robot manipulation", "--mode", "lexical").code == 0
    assert json.loads(run_cli(*db, "news", "--json").out) == {"news": {"robots": []}}
    run_cli(*db, "ingest", CORPUS / "corl2024.json.gz", "--no-embed")
    fresh = json.loads(run_cli(*db, "news", "--json").out)["news"]["robots"]
    assert fresh and all(hit["venue"] == "CoRL" for hit in fresh)
    assert json.loads(run_cli(*db, "news", "--json").out) == {"news": {"robots": []}}  # seen now


def test_changes_between_two_versions_of_a_list(tmp_path, library_location):
    items = json.loads(gzip.decompress((CORPUS / "uai2019.json.gz").read_bytes()))[:6]
    listing = tmp_path / "uai2019.json"
    listing.write_text(json.dumps(items), encoding="utf-8")
    db = ("--db", library_location)
    run_cli(*db, "ingest", listing, "--no-embed")
    later = [dict(item) for item in items]
    later[0]["status"] = "Oral" if later[0].get("status") != "Oral" else "Poster"
    later[1]["abstract"] = later[1]["abstract"] + " Code is available."
    withdrawn = later.pop(2)
    later.append({"title": "A paper added later", "abstract": "We add a paper to the list after the first download."})
    listing.write_text(json.dumps(later), encoding="utf-8")  # the same list, downloaded again
    run_cli(*db, "ingest", listing, "--no-embed")
    found = json.loads(run_cli(*db, "changes", "--json").out)["changes"]
    by_kind = {kind: [c for c in found if c["kind"] == kind] for kind in ("added", "changed", "removed")}
    assert [c["detail"] for c in by_kind["added"]] == ["A paper added later"]
    assert [c["detail"] for c in by_kind["removed"]] == [withdrawn["title"]]
    details = sorted(c["detail"].split(":")[0] for c in by_kind["changed"])
    assert details == ["abstract", "status"], found
    assert run_cli(*db, "changes").out.startswith("added: 1")


def test_each_reader_has_their_own_tags_notes_and_saved_searches(seeded_any):
    db = ("--db", seeded_any)
    assert run_cli(*db, "--user", "alice", "tag", VSD, "decoding").code == 0
    assert run_cli(*db, "--user", "alice", "note", NEMO, "alice's note").code == 0
    assert run_cli(*db, "--user", "bob", "tag", AURORA, "decoding").code == 0
    assert run_cli(*db, "--user", "bob", "save", "robots", "robot manipulation").code == 0
    with Library(seeded_any) as library:
        alice, bob, me = Personal(library, "alice"), Personal(library, "bob"), Personal(library)
        assert [p.id for p in alice.listed("decoding")] == [VSD]
        assert [p.id for p in bob.listed("decoding")] == [AURORA]
        assert me.tags() == [] and me.note(NEMO) is None
        assert alice.note(NEMO) == "alice's note" and bob.note(NEMO) is None
        assert [name for name, _, _ in bob.saved_searches()] == ["robots"] and alice.saved_searches() == []


RELIABILITY = json.loads((ROOT / "bench" / "data" / "seed_topics.json").read_text(encoding="utf-8"))["topics"][
    "LLM reasoning, reliability and interpretability"
]


def test_papers_tagged_on_hallucination_and_reliability_bring_more_of_their_topic(seeded_copy):
    """Three papers on reasoning hallucinations, reliable decisions and robustness once drew 0 of 5
    suggestions from their topic, with reasons like "yet" and "show"."""
    tagged = ["p4x5xyurmheh", "nklo4hluqeqj", "ftzw3tgjf6d2"]
    with Library(seeded_copy) as library:
        me = Personal(library)
        for paper_id in tagged:
            me.tag(paper_id, "reliability")
        found = me.recommend("reliability", 5)
    assert sum(s.paper.id in RELIABILITY for s in found) >= 2
    # A pair may share no key phrase worth saying (TRACED names "robustness" once, in passing)
    assert sum(bool(suggestion.shared_phrases) for suggestion in found) >= 4
    for suggestion in found:
        assert suggestion.because.id in tagged
        assert not {w for p in suggestion.shared_phrases for w in p.split()} & phrases.stop_words()


@pytest.mark.slow
def test_a_paper_marked_not_relevant_is_never_suggested_and_steers_the_rest(seeded_copy):
    db = ("--db", seeded_copy)
    run_cli(*db, "tag", VSD, "decoding")
    run_cli(*db, "tag", AURORA, "decoding")
    first = json.loads(run_cli(*db, "recommend", "--tag", "decoding", "--json").out)["suggestions"]
    dismissed = [s["id"] for s in first[:2]]
    assert run_cli(*db, "not-relevant", *dismissed).out.strip() == f"{', '.join(dismissed)}: not relevant"
    again = json.loads(run_cli(*db, "recommend", "--tag", "decoding", "--json").out)["suggestions"]
    assert len(again) == len(first) and not {s["id"] for s in again} & set(dismissed)
    assert [s["id"] for s in again] != [s["id"] for s in first if s["id"] not in dismissed][: len(again)]
    assert json.loads(run_cli(*db, "tags", "--json").out)["tags"] == [
        {"tag": "decoding", "papers": 2},
        {"tag": "not relevant", "papers": 2},
    ]
    refused = run_cli(*db, "recommend", "--tag", "not relevant")
    assert refused.code == 1 and "marks what not to suggest" in refused.err
    run_cli(*db, "not-relevant", dismissed[0], "--undo")
    back = json.loads(run_cli(*db, "recommend", "--tag", "decoding", "--json").out)["suggestions"]
    assert dismissed[0] in {s["id"] for s in back} and dismissed[1] not in {s["id"] for s in back}


def test_a_paper_the_reader_has_listed_or_tagged_is_never_suggested(seeded_copy):
    """A user tagged two papers on decoding and got, as suggestions, papers already on their reading list
    (one marked read) and others they had tagged."""
    with Library(seeded_copy) as library:
        me = Personal(library)
        for paper_id in (VSD, AURORA):
            me.tag(paper_id, "decoding")
        first = [s.paper.id for s in me.recommend("decoding", 5)]
        me.set_state(first[0], "read")
        me.set_state(first[1], "to read")
        me.tag(first[2], "serving")
        again = [s.paper.id for s in me.recommend("decoding", 5)]
        assert len(again) == 5 and not set(again) & set(first[:3]) and first[3] in again
        assert not {VSD, AURORA} & {s.paper.id for s in me.recommend(limit=10)}  # from the reading list: none tagged
