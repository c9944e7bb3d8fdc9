from paperscope.extract import split_links
from paperscope.normalize import clean_text
from paperscope.normalize.urls import URL_RE, clean_url, listed_urls, repair_broken_hosts


def find_urls(text: str) -> list[str]:
    """Every http(s) URL in the text, cleaned, in order, without repeats."""
    seen: dict[str, None] = {}
    for match in URL_RE.finditer(text):
        url = clean_url(match.group())
        if url:
            seen.setdefault(url)
    return list(seen)


def test_a_host_broken_by_a_space_is_joined():
    text, count = repair_broken_hosts("Code is available at https://github. com/pUmpKin-Co/SparsityAndCoD.")
    assert count == 1
    assert find_urls(text) == ["https://github.com/pUmpKin-Co/SparsityAndCoD"]


def test_a_sentence_after_a_url_is_not_joined_to_it():
    text, count = repair_broken_hosts("See https://example.org. Then we show")
    assert count == 0
    assert find_urls(text) == ["https://example.org"]


def test_a_code_host_run_into_a_links_path_starts_another_link():
    """NAACL 2024's Volcano: "code at https://github.com/kaistAI/Volcanogithub.com/kaistAI/Volcano"."""
    text = "Code at https://github.com/kaistAI/Volcanogithub.com/kaistAI/Volcano and https://x.org/repo/github.com/y"
    assert find_urls(text) == ["https://github.com/kaistAI/Volcano", "https://x.org/repo/github.com/y"]


def test_trailing_punctuation_and_unbalanced_brackets_are_dropped():
    assert clean_url("https://github.com/SongWZ3214/VGR.") == "https://github.com/SongWZ3214/VGR"
    assert clean_url("https://github.com/naver-ai/merit)") == "https://github.com/naver-ai/merit"
    assert (
        clean_url("https://en.wikipedia.org/wiki/Set_(mathematics)")
        == "https://en.wikipedia.org/wiki/Set_(mathematics)"
    )


def test_git_suffix_is_removed_from_code_hosts_only():
    assert clean_url("https://github.com/HengHugoZhao/ProbMoE.git") == "https://github.com/HengHugoZhao/ProbMoE"
    assert clean_url("https://example.org/file.git") == "https://example.org/file.git"


def test_only_http_urls_survive():
    assert clean_url("javascript:alert(1)") is None
    assert clean_url("ftp://example.org/x") is None
    assert clean_url("https://") is None


def test_code_links_are_split_from_other_links_without_repeats():
    code, other = split_links(
        [
            "https://github.com/a/b.git",
            "https://github.com/a/b",
            "https://arxiv.org/abs/1",
            "https://arxiv.org/abs/1",
        ]
    )
    assert code == ["https://github.com/a/b"]
    assert other == ["https://arxiv.org/abs/1"]
    # WWW 2025 gave 54 links to anonymised repositories, all of them as other links
    code, other = split_links(["https://anonymous.4open.science/r/G-Refer", "https://git.io/JvQ0k"])
    assert (code, other) == (["https://anonymous.4open.science/r/G-Refer", "https://git.io/JvQ0k"], [])


def test_a_link_the_abstract_says_holds_the_code_is_a_code_link_on_any_host():
    """WACV 2022's X-MIR: "The source code is publicly available at: https://gitlab.kitware.com/…" was an other
    link, as were 320 such links of the corpus on self-hosted GitLabs, project pages and university sites."""
    text = (
        "The source code is publicly available at: https://gitlab.kitware.com/brianhhu/x-mir. We extend the DRAGON "
        "(https://dragon-tutorial.readthedocs.io/en/latest/) package. Code and videos are at https://v-gps.github.io. "
        "We make all code available: https://github.com/a/kid-review as well as the system: http://nlpeer.reviews."
    )
    cleaned = clean_text(text)
    code, other = split_links(cleaned.urls, cleaned.text)
    assert code == ["https://gitlab.kitware.com/brianhhu/x-mir", "https://github.com/a/kid-review"]
    assert other == [
        "https://dragon-tutorial.readthedocs.io/en/latest/",
        "https://v-gps.github.io",
        "http://nlpeer.reviews",
    ]


def test_a_list_field_naming_several_links_gives_each():
    fields = {
        "https://github.com/a/b; https://github.com/a/c": ["https://github.com/a/b", "https://github.com/a/c"],
        "https://github.com/a/b and https://github.com/a/c": ["https://github.com/a/b", "https://github.com/a/c"],
        "https://github.com/a/b (implementation: https://github.com/a/c)": [
            "https://github.com/a/b",
            "https://github.com/a/c",
        ],
        "github.com/a/b; github.com/a/c": ["https://github.com/a/b", "https://github.com/a/c"],
        "https://github.com/a/b": ["https://github.com/a/b"],
    }
    for field, links in fields.items():
        assert [clean_url(url) for url in listed_urls(field)] == links


def test_spaces_in_a_link_were_underscores_except_a_kerning_or_a_broken_host():
    """As the corpus's lists give them; the abstracts of the first three give the link as expected."""
    assert clean_url("https://github.com/PPjmchen/Composition WSTG") == "https://github.com/PPjmchen/Composition_WSTG"
    assert clean_url("https://github.com/JianqiangH/Deconfounded VG") == "https://github.com/JianqiangH/Deconfounded_VG"
    assert clean_url("https://github.com/jialinwu17/MA VEX") == "https://github.com/jialinwu17/MAVEX"
    assert clean_url("https://github.com/DatenV orsprung/GoTube") == "https://github.com/DatenVorsprung/GoTube"
    assert clean_url("https://github. com/a/b") == "https://github.com/a/b"
    assert clean_url("https://github.com/a/deﬁne") == "https://github.com/a/define"  # a PDF's ligature


def test_a_platforms_home_page_or_a_placeholder_is_no_link():
    """Lists' "project" fields: "https://arxiv.org/", "https://github.com" (filed as code), "https://huggingface.co/"
    on 22 corpus papers, and "https://www.example-project.com" on five."""
    for url in (
        "https://arxiv.org/",
        "https://github.com",
        "https://huggingface.co/",
        "https://www.example-project.com",
    ):
        assert clean_url(url) is None
    assert clean_url("https://github.com/owner/repo") == "https://github.com/owner/repo"
    assert clean_url("https://arxiv.org/abs/2401.00001") == "https://arxiv.org/abs/2401.00001"
    assert clean_url("http://cv.snu.ac.kr") == "http://cv.snu.ac.kr"  # a lab's home page is the paper's link


def test_a_space_after_a_code_hosts_slash_is_joined_and_a_bare_home_page_keeps_its_words():
    """WACV 2025: "Code is available at https://github.com/ UARK-AICV/GazeSearch." gave no code link, and once
    a bare "https://github.com/" was no link, its words went missing from the abstract."""
    cleaned = clean_text("Code is available at https://github.com/ UARK-AICV/GazeSearch.")
    assert cleaned.text == "Code is available at https://github.com/UARK-AICV/GazeSearch."
    assert cleaned.urls == ["https://github.com/UARK-AICV/GazeSearch"]
    bare = clean_text("The preprint is on https://arxiv.org/ since May.")
    assert (bare.text, bare.urls) == ("The preprint is on https://arxiv.org/ since May.", [])
