import re
from dataclasses import replace
from html.parser import HTMLParser

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paperscope.extract import extract
from paperscope.model import RawRecord, Source
from paperscope.normalize import clean_text, names
from paperscope.normalize.controls import scrub
from paperscope.normalize.math import to_unicode


def test_bold_markdown_and_latex_become_plain_text_and_emphasis_in_html():
    clean = clean_text(r"We present **NEMO**, which translates **N**atural-language and \textbf{P}erturbation")
    assert clean.text == "We present NEMO, which translates Natural-language and Perturbation"
    assert "<strong>NEMO</strong>" in clean.html
    assert "<strong>P</strong>erturbation" in clean.html


def test_emph_and_italics_keep_emphasis():
    clean = clean_text(r"We study \emph{dynamic budget allocation} in *continuous state spaces*.")
    assert clean.text == "We study dynamic budget allocation in continuous state spaces."
    assert clean.html.count("<em>") == 2


@pytest.mark.parametrize(
    ("raw", "text", "url"),
    [
        (
            r"found \href{https://github.com/fangru-lin/procedure_generalization_llm}{here}.",
            "found here.",
            "https://github.com/fangru-lin/procedure_generalization_llm",
        ),
        (
            r"budget. \href{https://github.com/akhauriyash/SOL}",
            "budget. https://github.com/akhauriyash/SOL",
            "https://github.com/akhauriyash/SOL",
        ),
        (
            r"available on \url{https://github.com/BoYuanVisionary/Pro-CAD}.",
            "available on https://github.com/BoYuanVisionary/Pro-CAD.",
            "https://github.com/BoYuanVisionary/Pro-CAD",
        ),
        (
            "see [this link](https://github.com/guohezuy/AutoRAS)",
            "see this link",
            "https://github.com/guohezuy/AutoRAS",
        ),
        (
            "[https://github.com/naver-ai/merit](https://github.com/naver-ai/merit)",
            "https://github.com/naver-ai/merit",
            "https://github.com/naver-ai/merit",
        ),
    ],
)
def test_links_become_their_text_and_the_url_is_captured(raw, text, url):
    clean = clean_text(raw)
    assert clean.text == text
    assert clean.urls == [url]
    assert f'href="{url}"' in clean.html
    assert 'rel="nofollow noopener"' in clean.html


def test_escaped_percent_and_bare_percent():
    assert (
        clean_text(r"improves Pass@1 by up to 16.7\% and 5% more").text == "improves Pass@1 by up to 16.7% and 5% more"
    )


def test_math_is_kept_as_written_in_text_and_rendered_as_mathml():
    clean = clean_text(r"a lower bound of $\Omega(\sqrt{\log L})$ on 9$\times$9 Sudoku")
    assert clean.text == r"a lower bound of $\Omega(\sqrt{\log L})$ on 9$\times$9 Sudoku"
    assert clean.html.count("<math") == 2
    assert "<msqrt>" in clean.html


def test_prices_are_not_math():
    assert "<math" not in clean_text("it costs $5 and $10 per run").html


def test_a_formula_opened_with_a_space_is_one_and_the_prose_after_it_is_kept():
    # COLT 2020: the closing dollar of "$ 1-\delta$" opened a formula that ran on into the prose, and
    # the words up to the next dollar were lost
    clean = clean_text(r"(with probability at least $ 1-\delta$) distinguishes whether it is “$\epsilon$-close” to I")
    assert to_unicode(clean.text) == "(with probability at least 1-δ) distinguishes whether it is “ϵ-close” to I"
    assert clean.problems == []
    assert "<math" not in clean_text("it costs $ 5 and $ 10 per run").html  # prices with a space stay prices


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        (r"An $\widetilde\mathcal{O}(m/\varepsilon^{3.5})$-Cost Algorithm", "An Õ(m/ε^(3.5))-Cost Algorithm"),
        (r"regret of $\widetilde{O}(\sqrt{T})$", "regret of Õ(√T)"),
        (r"a kernel-Gram matrix $\bm K$ and $\operatorname{set}(X=x)$", "a kernel-Gram matrix K and set(X=x)"),
        (r"by a factor of $\bm{108}\times$", "by a factor of 108×"),
    ],
)
def test_formulas_read_as_text_show_no_placeholder(raw, shown):
    assert to_unicode(clean_text(raw).text) == shown


def test_a_macro_written_without_its_arguments_in_prose_is_kept_as_written():
    clean = clean_text(r"converges at a rate of \frac1t^2. The page is \url https://example.org/p")
    assert clean.text == r"converges at a rate of \frac1t^2. The page is https://example.org/p"
    assert clean.problems == [r"LaTeX macro without its arguments: \frac"]


def test_broken_math_falls_back_for_that_formula_only():
    clean = clean_text(r"good $x^2$ and bad $\frac{1}{$ here")
    assert clean.html.count("<math") == 1
    assert '<code class="math">' in clean.html
    assert any("math not converted" in problem for problem in clean.problems)


def test_unknown_macros_are_reported_not_raised():
    clean = clean_text(r"we use \mymacro{arg} here")
    assert clean.problems == [r"unknown LaTeX macro \mymacro"]
    assert "arg" in clean.text


def test_whitespace_is_collapsed_and_typos_kept():
    assert clean_text("  the  modle\n\tworks ").text == "the modle works"


def test_accents_and_tilde():
    assert clean_text(r"Kjellstr{\"o}m and H\"ullermeier, Fig.~3, about ~3x faster").text == (
        "Kjellström and Hüllermeier, Fig. 3, about ~3x faster"
    )


def test_stray_braces_are_kept():
    assert clean_text("a } b { c").text == "a } b { c"


XSS = [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "[click](javascript:alert(1))",
    r"\href{javascript:alert(1)}{click}",
    '"><svg onload=alert(1)>',
    "<a href='javascript:alert(1)'>x</a>",
    r"$\href{javascript:alert(1)}{x}$",
]


class _Elements(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[str, list[tuple[str, str | None]]]] = []

    def handle_starttag(self, tag, attrs):
        self.found.append((tag, attrs))


def assert_safe(fragment: str) -> None:
    """Parsed as a browser would: only harmless elements, no handlers, links only to http(s)."""
    parser = _Elements()
    parser.feed(fragment)
    for tag, attrs in parser.found:
        assert tag not in {"script", "img", "svg", "iframe", "object", "embed", "style"}
        for name, value in attrs:
            assert not name.startswith("on"), (tag, name)
            if name in {"href", "src"}:
                assert re.match(r"https?://", value or ""), (tag, value)


@pytest.mark.parametrize("payload", XSS)
def test_html_is_safe_whatever_the_input(payload):
    assert_safe(clean_text(f"An abstract with {payload} inside.").html)


def test_a_non_http_href_keeps_only_its_text():
    clean = clean_text(r"\href{javascript:alert(1)}{click}")
    assert clean.text == "click"
    assert clean.urls == []


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [*"ab $\\{}[]()*_`<>&%~^'\"#:/.h\n", "http://", "\\href", "\\textbf", "**", "$$", "\\url", "javascript:"]
        ),
        max_size=60,
    ).map("".join)
)
def test_any_input_gives_text_and_safe_html(raw):
    clean = clean_text(raw)
    assert isinstance(clean.text, str)
    assert_safe(clean.html)


def test_an_author_whose_latex_cannot_be_read_is_kept_as_written():
    assert names.clean_authors(["\\href", "Olivier Capp\\'e"]) == ["\\href", "Olivier Cappé"]


@pytest.mark.parametrize(
    ("author", "family"),
    [
        ("Geoffrey Hinton", "hinton"),
        ("Jean-Pierre O'Neil Dupont", "dupont"),
        ("Zhang Wei", "wei"),
        ("Hal Daumé III", "daume"),
        ("Laurens van der Maaten", "maaten"),
        ("Jean De Lacroix", None),
        ("Martin Luther King Jr", None),
        ("Y. Bengio", "bengio"),
        ("C.K.K. Jui", "jui"),
        ("H.-J. Cha", "cha"),
        ("Philip H. S. Torr", "torr"),
        ("E. Steltz", "steltz"),
        ("Robert J. Marks II", "marks"),
        ("Guido C.H.E. de Croon", "croon"),
        ("van der Maaten, Laurens", "maaten"),
    ],
)
def test_a_citation_keys_family_name_is_the_one_nameparser_gives(author, family):
    """Plain "Given [Middle] Family" names, initials among them, skip nameparser; every name gets what
    nameparser says."""
    assert names.family_word(author) == names.ascii_word(names.parse_name(author).family)
    if family:
        assert names.family_word(author) == family


def test_latex_single_quotes_are_quotes_not_code():
    """IROS 2018: "we call `instance occlusion segmentation'. … a novel `relook' architecture" was shown as code
    from the first backtick to the second (63 corpus abstracts so; 121 lost their backticks)."""
    cleaned = clean_text("which we call `instance occlusion segmentation'. We add a novel `relook' architecture.")
    assert cleaned.text == "which we call ‘instance occlusion segmentation’. We add a novel ‘relook’ architecture."
    assert "<code>" not in cleaned.html
    assert clean_text("we call `torch.compile` on it").html == "we call <code>torch.compile</code> on it"


@pytest.mark.parametrize(
    ("raw", "text"),
    [
        # NIPS 2013: "vanishes at a 1/\sqrtT rate" read "vanishes at a 1/ rate" (about 100 corpus abstracts)
        (
            "vanishes at a 1/\\sqrtT rate, regret \\tildeO(\\sqrtNT) and O(\\logN)",
            "vanishes at a 1/√T rate, regret Õ(√NT) and O(log N)",
        ),
        # sources that lost the braces: "are non-convex" read "are -convex"
        ("are \\emphnon-convex in \\mathbfR^+", "are non-convex in R^+"),
        ("achieve O\\left(\\sqrtKT\\right) regret", "achieve O(√KT) regret"),
        # an author's own macro is kept as written, not dropped: "This paper introduces , an extension"
        ("This paper introduces \\Ours, an extension", "This paper introduces \\Ours, an extension"),
    ],
)
def test_a_macro_no_reader_knows_keeps_its_words(raw, text):
    assert clean_text(raw).text == text


@pytest.mark.parametrize(
    ("raw", "text"),
    [
        # NIPS 2004 and others copied from PDFs: 1,292 corpus abstracts kept a line break's hyphen
        (
            "We train neu- ral networks with a learn- ing algo- rithm. How- ever,",
            "We train neural networks with a learning algorithm. However,",
        ),
        ("a plan- ning frame- work, an adversar- ial loss", "a planning framework, an adversarial loss"),
        # two words, a suspended compound and a dash are kept as written
        ("learning- based and self- supervised methods", "learning- based and self- supervised methods"),
        ("first- and second-order, pre- or post-processing", "first- and second-order, pre- or post-processing"),
        ("see https://example.org/neu- ral", "see https://example.org/neu- ral"),
    ],
)
def test_a_word_split_at_a_line_break_is_joined(raw, text):
    assert clean_text(raw).text == text


def test_a_macro_whose_backslash_json_read_as_a_control_character_is_restored():
    """CVPR 2018's list wrote "\\textbf" unescaped: the abstract read "namely extbf{video re-localization}"."""
    raw = "namely \textbf{video re-localization}, at $1.5\times$ the speed.\tWe show Spearman's $\rho$"
    assert "\t" in raw and "\r" in raw
    assert clean_text(raw).text == "namely video re-localization, at $1.5\\times$ the speed. We show Spearman's $\\rho$"


@pytest.mark.parametrize(
    ("raw", "text", "html"),
    [
        # ECCV 2018's list, where the tab became a space: "tasks, extite.g., YTF" (120 corpus fields so)
        ("tasks, extit{e.g.}, YTF", "tasks, e.g., YTF", "tasks, <em>e.g.</em>, YTF"),
        ("such as cow$ ightarrow$sheep", "such as cow$\\rightarrow$sheep", "<mo>→</mo>"),
        ("Kendall's $ au$ and the next{x}", "Kendall's $\\tau$ and the nextx", "<mi>τ</mi>"),
        ("GSNet ( extbf{G}eometric \\underline{ extbf{Net}}work)", "GSNet (Geometric Network)", "<strong>G</strong>"),
    ],
)
def test_a_macro_that_lost_its_backslash_and_first_letter_is_restored(raw, text, html):
    cleaned = clean_text(raw)
    assert cleaned.text == text
    assert html in cleaned.html


@pytest.mark.parametrize(
    ("raw", "text"),
    [
        ("time was spent in data processing withi... Show More", "time was spent in data processing withi…"),
        ("an active tail. Show More", "an active tail."),
        ("we show more results", "we show more results"),
    ],
)
def test_ieee_xplores_show_more_button_is_not_part_of_the_abstract(raw, text):
    """82 ICRA and IROS abstracts ended with the button's words."""
    assert clean_text(raw).text == text


def test_a_percentage_written_as_a_formula_is_a_percentage():
    """ECCV 2018's TextSnake "outperforms the baseline … by more than $40%$": the page showed "40" (52 corpus
    abstracts); then the math was drawn but the text kept the dollars, so no claim read "$45\\%$" or "$62%$" (119
    formulas); AAAI 2022 "improves the mIoU over 7$%$" (12)."""
    cleaned = clean_text("by more than $40%$ in F-measure and by $-2.5\\,\\%$ on $1,000$ images")
    assert cleaned.text.startswith("by more than 40% in F-measure and by -2.5% on ")
    assert "<math" not in cleaned.html.split(" on ")[0]
    cleaned = clean_text("improves the mIoU over 7$%$ and the recall by 80$\\,\\%$ on ADE20K")
    assert cleaned.text == cleaned.html == "improves the mIoU over 7% and the recall by 80% on ADE20K"
    assert clean_text("a rate of $x%$").text == "a rate of $x%$"
    raw = "It improves the accuracy over SMPLify by $45\\%$ on 3DPW."
    claim = extract(None, clean_text(raw).text, raw).claims[0]
    assert (claim.value, claim.direction) == ("45%", "improves")


def test_a_footnote_is_kept_in_brackets():
    """COLM 2024's MiniCPM: "models are available publicly~\\footnote{\\url{https://github.com/OpenBMB/MiniCPM}}"
    lost its code link with the footnote (17 corpus footnotes; ECCV 2020's lost the "\\f" too, a form feed)."""
    cleaned = clean_text("models are available publicly~\\footnote{\\url{https://github.com/OpenBMB/MiniCPM}}.")
    assert cleaned.text == "models are available publicly (https://github.com/OpenBMB/MiniCPM)."
    assert cleaned.urls == ["https://github.com/OpenBMB/MiniCPM"]
    glued = "codes are publicly availableootnote{\\url{https://mks0601.github.io/DeepHandMesh/}}."
    assert clean_text(glued).text == "codes are publicly available (https://mks0601.github.io/DeepHandMesh/)."
    page = (
        "problems.ootnote{project page: extcolor{magenta}{\\url{https://caizhongang.github.io/projects/MessyTable/}}}"
    )
    assert clean_text(page).text == "problems. (project page: https://caizhongang.github.io/projects/MessyTable/)"


def test_a_citation_shows_its_keys():
    """Dropped, a citation left "the synthetic control example of , and Brexit" (61 corpus abstracts)."""
    cited = "the legislation example of \\citet{Abadie2010}, and the work~\\citep{Li_2021, Hu17} showed"
    assert clean_text(cited).text == "the legislation example of [Abadie2010], and the work [Li_2021, Hu17] showed"
    assert clean_text("as in \\cite[Thm. 2]{smith}.").text == "as in [smith]."
    # unclosed (NIPS 2016): the key as written, not "[{]Proc:OneHash"
    assert clean_text("schemes \\cite{Proc:OneHash").text == "schemes Proc:OneHash"


def test_a_csv_cells_closing_quote_after_the_last_sentence_goes():
    """ECCV 2020's list ends 1,321 of its 1,358 abstracts with a lone quote."""
    assert clean_text('… of computer vision pipelines."').text == "… of computer vision pipelines."
    assert clean_text('It is "well known."').text == 'It is "well known."'
    assert clean_text('curves, including ones displaying ”phase transitions."').text.endswith('transitions."')


def test_the_end_of_a_title_glued_before_the_abstract_goes():
    """ECCV 2020's list split 22 titles at their first comma: the abstract began with the title's rest."""
    title = "3D Bird Reconstruction: a Dataset, Model, and Shape Recovery from a Single View"
    raw = RawRecord(
        title=title,
        abstract='Model, and Shape Recovery from a Single View","Automated capture of animal pose is transforming …',
        source=Source("eccv2020.json", 2, "ECCV 2020", "paperlist"),
    )
    assert scrub(raw).abstract == "Automated capture of animal pose is transforming …"
    quoted = 'e.g., "Corolla is a kind of Car","Wheel is a part of Car") and labels instances'
    assert scrub(replace(raw, title="NEIL: Extracting Visual Knowledge", abstract=quoted)).abstract == quoted


def test_a_field_written_as_a_csv_cell_loses_its_quotes():
    """ECCV 2022's list wraps every title and abstract in double quotes and doubles the quotes within:
    1,642 abstracts showed them, and a link ended in two quotes."""
    raw = '"Our code is at ""https://github.com/wucunlin/C3P"" for research use only."'
    cleaned = clean_text(raw)
    assert cleaned.text == 'Our code is at "https://github.com/wucunlin/C3P" for research use only.'
    assert cleaned.urls == ["https://github.com/wucunlin/C3P"]
    assert clean_text('"A Simple Approach and Benchmark for 21,000-Category Object Detection"').text == (
        "A Simple Approach and Benchmark for 21,000-Category Object Detection"
    )
    # quotes an author wrote are kept
    assert clean_text('"Quoted" words and "more"').text == '"Quoted" words and "more"'


def test_a_pdfs_unmapped_glyphs_are_the_characters_they_stand_for():
    """1,604 NIPS titles and abstracts (1987–2007) held 4,528 "(cid:173)" soft hyphens at line breaks, splitting
    words ("ex(cid:173) hibits") in the text, the search index and claims; and TeX's ligatures and math letters
    by their number."""
    assert clean_text("an algorithm that inte(cid:173) grates over a history(cid:173) dependent model").text == (
        "an algorithm that integrates over a history-dependent model"
    )
    assert clean_text("a large-margin classi(cid:12)er with stable (cid:12)xed points").text == (
        "a large-margin classifier with stable fixed points"
    )
    assert clean_text("a parameter (cid:11) sets the e(cid:11)ective rate of the coe(cid:14)cients").text == (
        "a parameter α sets the effective rate of the coefficients"
    )
    assert clean_text("block (cid:96)1/(cid:96)2 and soft (cid:15)-tubes, a (cid:147)picky(cid:148) one").text == (
        "block ℓ1/ℓ2 and soft ε-tubes, a “picky” one"
    )
    assert clean_text("a glyph (cid:246) no font tells").text == "a glyph (cid:246) no font tells"
