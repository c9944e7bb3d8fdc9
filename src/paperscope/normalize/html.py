"""Safe HTML: math as MathML, and one sanitiser (nh3) as the last word on every fragment."""

from __future__ import annotations

import functools
import html
import re

import nh3

_MATHML_TAGS = {
    "math",
    "mrow",
    "mi",
    "mn",
    "mo",
    "ms",
    "mtext",
    "mspace",
    "msup",
    "msub",
    "msubsup",
    "mfrac",
    "msqrt",
    "mroot",
    "mover",
    "munder",
    "munderover",
    "mtable",
    "mtr",
    "mtd",
    "mstyle",
    "mpadded",
    "mphantom",
    "menclose",
    "mfenced",
    "semantics",
    "annotation",
}
_MATHML_ATTRIBUTES = {
    "xmlns",
    "display",
    "mathvariant",
    "stretchy",
    "fence",
    "separator",
    "lspace",
    "rspace",
    "form",
    "displaystyle",
    "scriptlevel",
    "width",
    "height",
    "depth",
    "linethickness",
    "columnalign",
    "rowspacing",
    "columnspacing",
    "accent",
    "accentunder",
    "notation",
    "open",
    "close",
    "minsize",
    "maxsize",
    "movablelimits",
    "symmetric",
    "largeop",
    "encoding",
}
_TAGS = {"em", "strong", "a", "code", "sub", "sup", "br", "span"} | _MATHML_TAGS
_ATTRIBUTES = {"a": {"href"}, "code": {"class"}, "span": {"class"}} | dict.fromkeys(_MATHML_TAGS, _MATHML_ATTRIBUTES)


_BARE_PERCENT = re.compile(r"(?<!\\)%")


@functools.lru_cache(maxsize=8192)  # abstracts repeat the same small formulas ($k$, $\epsilon$) endlessly
def math_to_html(tex: str, display: bool) -> tuple[str, str | None]:
    """MathML for a TeX formula, or the formula as code with the reason it could not be converted.

    A formula in an abstract's one line holds no TeX comment: a bare % is a percent sign ("more than $40%$",
    where latex2mathml dropped it and what followed)."""
    import latex2mathml.converter  # here: its import (~80 ms) would hold up every command's start

    tex = _BARE_PERCENT.sub(r"\\%", tex) if "%" in tex else tex
    try:
        return latex2mathml.converter.convert(tex, display="block" if display else "inline"), None
    except Exception as exc:  # latex2mathml raises many kinds of errors on malformed TeX
        return f'<code class="math">{html.escape(tex)}</code>', f"math not converted: {exc.__class__.__name__}"


_CLEANER = nh3.Cleaner(
    tags=_TAGS,
    attributes=_ATTRIBUTES,
    url_schemes={"http", "https"},
    link_rel="nofollow noopener",
    strip_comments=True,
)


def sanitize(fragment: str) -> str:
    """Only the tags paperscope writes, links only to http(s), and rel="nofollow noopener" on them."""
    return _CLEANER.clean(fragment)


_NOTE_CLEANER = nh3.Cleaner(
    tags=_TAGS
    | {
        "p",
        "ul",
        "ol",
        "li",
        "blockquote",
        "pre",
        "h3",
        "h4",
        "h5",
        "h6",
        "hr",
        "table",
        "thead",
        "tbody",
        "tr",
        "th",
        "td",
        "del",
    },
    attributes={"a": {"href"}, "code": {"class"}},
    url_schemes={"http", "https", "mailto"},
    link_rel="nofollow noopener",
    strip_comments=True,
)


@functools.cache
def _note_parser():  # type: ignore[no-untyped-def]
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark", {"html": False, "linkify": False}).enable("table").enable("strikethrough")


def note_to_html(markdown: str) -> str:
    """A reader's note (markdown, raw HTML not allowed) as safe HTML."""
    return _NOTE_CLEANER.clean(_note_parser().render(markdown))
