import gzip
import json
import shutil
from pathlib import Path

import pytest

from paperscope.errors import InputError
from paperscope.sources import format_of, listing, paperlists

from .conftest import CORPUS, SEEDS


def test_listing_pages_keep_file_line_and_header():
    path = SEEDS / "001_3a14d78222ee847b.txt"
    records = list(format_of(path).read(path))
    assert format_of(path) is listing.FORMAT
    assert len(records) == 19
    first = records[0]
    assert first.source.path == path.name
    assert first.source.listing == "ICML 2026 论文列表"
    assert (first.venue, first.year) == ("ICML", 2026)
    physical = path.read_text(encoding="utf-8").split("\n")
    for record in records:
        assert physical[record.source.line - 1] == record.abstract


@pytest.mark.parametrize(
    ("header", "venue", "year"),
    [
        ("ICML 2026 Papers", "ICML", 2026),
        ("ICML 2026 论文列表", "ICML", 2026),
        ("NeurIPS-2024 accepted", "NeurIPS", 2024),
        ("Accepted papers", None, None),
    ],
)
def test_listing_headers(header, venue, year):
    assert listing.parse_header(header) == (venue, year)


def test_paper_list_json_maps_its_fields():
    path = CORPUS / "icml2018.json.gz"
    records = list(format_of(path).read(path))
    assert format_of(path) is paperlists.FORMAT
    first = records[0]
    assert first.title == "$D^2$: Decentralized Training over Decentralized Data"
    assert first.authors == ["Hanlin Tang", "Xiangru Lian", "Ming Yan", "Ce Zhang", "Ji Liu"]
    assert (first.venue, first.year, first.status) == ("ICML", 2018, "Oral")
    assert first.source.external_id == "2485"
    assert first.urls["pdf"].endswith("tang18a.pdf")


def test_formats_are_chosen_by_content_not_extension(tmp_path):
    disguised = tmp_path / "list.dat"
    shutil.copy(CORPUS / "uai2019.json.gz", disguised)
    assert format_of(disguised) is paperlists.FORMAT
    page = tmp_path / "page.json"
    shutil.copy(SEEDS / "000_31443c0bfd02244b.txt", page)
    assert format_of(page) is listing.FORMAT
    plain = tmp_path / "plain.json"
    plain.write_bytes(gzip.decompress((CORPUS / "uai2019.json.gz").read_bytes()))
    assert format_of(plain) is paperlists.FORMAT


def test_venue_names_from_file_names():
    assert paperlists.venue_from_name("nips1994.json.gz") == ("NeurIPS", 1994)
    assert paperlists.venue_from_name("siggraphasia2020.json.gz") == ("SIGGRAPH Asia", 2020)
    assert paperlists.venue_from_name("3dv2025.json.gz") == ("3DV", 2025)
    assert paperlists.venue_from_name("papers.json") == (None, None)


def test_a_list_that_separates_authors_with_commas_gives_one_person_each(tmp_path):
    """SIGGRAPH's lists write "A, B, C" where the others write "A; B; C"; an inverted name stays one person."""
    siggraph = {r.title: r.authors for r in paperlists.read(CORPUS / "siggraph2025.json.gz")}
    assert siggraph["3D Stylization via Large Reconstruction Model"] == ["Ipek Oztas", "Duygu Ceylan", "Aysegul Dundar"]
    authors = [
        "Kerry A. Seitz, Jr., Tim Foley, Serban D. Porumbescu",
        "Ummenhofer, Thomas",
        "van der Maaten, Laurens",
        "Nils Thuerey,, Ben Jones",
        "Jake Snell;Kevin Swersky",
    ]
    path = tmp_path / "list.json"
    path.write_text(json.dumps([{"title": f"Paper {i}", "author": a} for i, a in enumerate(authors)]))
    assert [r.authors for r in paperlists.read(path)] == [
        ["Kerry A. Seitz, Jr.", "Tim Foley", "Serban D. Porumbescu"],
        ["Ummenhofer, Thomas"],
        ["van der Maaten, Laurens"],
        ["Nils Thuerey", "Ben Jones"],
        ["Jake Snell", "Kevin Swersky"],
    ]


def test_a_list_with_nan_is_read_as_python_reads_it(tmp_path):
    """NaN is JSON as Python writes and reads it (a faster parser, orjson, refuses it)."""
    path = tmp_path / "odd.json"
    path.write_text('[{"title": "Odd numbers", "abstract": "A.", "id": "a1", "x": NaN}]')
    (record,) = paperlists.read(path)
    assert record.title == "Odd numbers" and record.source.external_id == "a1"


@pytest.mark.parametrize("number", ["123456789012345678901234567890", "-9223372036854775809", "18446744073709551616"])
def test_an_id_beyond_64_bits_keeps_every_digit(tmp_path, number):
    """As Python reads it: orjson, tried for speed, read it as a float (1.2345678901234568e+29)."""
    path = tmp_path / "long.json"
    path.write_text(f'[{{"title": "Long ids", "abstract": "A.", "id": {number}}}]')
    (record,) = paperlists.read(path)
    assert record.source.external_id == number


def test_every_corpus_file_reads_without_an_error():
    total = 0
    for path in sorted(CORPUS.iterdir()):
        total += sum(1 for _ in format_of(path).read(path))
    assert total == 92_874


def test_a_record_that_is_not_a_paper_names_its_position(tmp_path):
    path = tmp_path / "list.json"
    path.write_text('[{"title": "A", "abstract": "x"}, 7]')
    with pytest.raises(InputError, match=r"list.json:2: not a paper list"):
        list(format_of(path).read(path))


def test_unknown_formats_are_refused(tmp_path: Path):
    path = tmp_path / "data.bin"
    path.write_bytes(b"\x00\x01\x02binary")
    with pytest.raises(InputError, match="unknown format"):
        format_of(path)
