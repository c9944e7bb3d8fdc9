"""One raw field (title or abstract) to plain text, safe HTML and the URLs it links to.

Order matters: math and URLs are swapped for opaque tokens first, so that neither the LaTeX
parser nor the markdown parser can mangle them (`_` in a URL, `%` in a link, `*` in a formula);
then LaTeX macros become markdown, markdown is parsed once, and the tokens are put back: as
`$...$` and the URL in the plain text, as MathML and links in the HTML.
"""

from __future__ import annotations

import html
import re
import unicodedata
from dataclasses import dataclass, field

from markdown_it import MarkdownIt
from markdown_it.token import Token

from paperscope.normalize.html import math_to_html, sanitize
from paperscope.normalize.hyphens import join_split_words
from paperscope.normalize.latex import (
    LATEX_HINT,
    latex_quotes,
    latex_to_markdown,
    plain_typography,
    restore_escaped_macros,
)
from paperscope.normalize.math import MATH
from paperscope.normalize.pdf_glyphs import replace_glyphs
from paperscope.normalize.urls import URL_RE, clean_url, repair_broken_hosts, strip_trailing

_MARKDOWN = MarkdownIt("zero").enable(["emphasis", "link", "backticks", "escape", "entity"])
_MARKDOWN_HINT = "*_`[]&<>\\"  # a character markdown would read
_LATEX_HINT = "\\{}"  # what every match of LATEX_HINT holds
_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad"), None)
_LIGATURES = {chr(c): unicodedata.normalize("NFKC", chr(c)) for c in range(0xFB00, 0xFB07)}
# IEEE Xplore's button, copied with the abstract it cut short: "… estimation withi... Show More"
_SHOW_MORE = re.compile(r"(\s*(?:\.\.\.|…))?\s+Show More$")
_TOKEN = "QPSTOK"
_TOKEN_RE = re.compile(_TOKEN + r"(\d+)Q")


@dataclass
class CleanText:
    text: str
    html: str
    urls: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    repaired_urls: int = 0


@dataclass
class _Protected:
    """What was swapped out of the text: formulas (tex, display) and URLs."""

    math: list[tuple[str, str, bool]] = field(default_factory=list)  # (as written, tex, display)
    urls: list[str | None] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def token(self, kind: str, value: object) -> str:
        if kind == "math":
            self.math.append(value)  # type: ignore[arg-type]
            return f"{_TOKEN}{len(self.math) - 1}Q"
        self.urls.append(value)  # type: ignore[arg-type]
        return f"{_TOKEN}{100000 + len(self.urls) - 1}Q"


def _escape(text: str) -> str:
    """Text content needs only &, < and > escaped; leaving quotes alone keeps most HTML equal to the text."""
    return html.escape(text, quote=False)


def fold(text: str) -> str:
    """Whitespace collapsed, invisible characters removed, Unicode composed (NFC), ligatures split."""
    if text.isascii():  # most fields: nothing to remove, compose or split
        return _collapsed(text)
    text = unicodedata.normalize("NFC", text.translate(_INVISIBLE))
    if any(ch in text for ch in _LIGATURES):
        text = "".join(_LIGATURES.get(ch, ch) for ch in text)
    return " ".join(text.split())


_ASCII_SPACES = "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f"  # whitespace to str.split(), but the space


def _collapsed(text: str) -> str:
    """Each run of whitespace one space, none at the ends: `" ".join(text.split())`, without splitting the text
    into words when it is ASCII and already so (most fields)."""
    if (
        text.isascii()
        and "  " not in text
        and not _holds_any(text, _ASCII_SPACES)
        and not text.startswith(" ")
        and not text.endswith(" ")
    ):
        return text
    return " ".join(text.split())


def clean_text(raw: str | None) -> CleanText:
    """Clean one field. Never raises: what cannot be converted is kept as written and reported."""
    if not raw:
        return CleanText("", "")
    text, repaired = repair_broken_hosts(_unquoted(fold(restore_escaped_macros(replace_glyphs(raw)))))
    if text.endswith("Show More"):
        text = _SHOW_MORE.sub(lambda cut: "…" if cut.group(1) else "", text)
    kept = _Protected()
    text = join_split_words(latex_quotes(_protect(text, kept)))
    if _holds_any(text, _LATEX_HINT) and LATEX_HINT.search(text):
        try:
            text, problems = latex_to_markdown(text)
            kept.problems += problems
        except Exception as exc:  # the fallback is per fragment: keep the text as written
            kept.problems.append(f"LaTeX not converted ({exc.__class__.__name__})")
    else:
        text = plain_typography(text)
    if _holds_any(text, _MARKDOWN_HINT):
        plain, body, urls = _render(_MARKDOWN.parseInline(text), kept)
    else:  # nothing markdown would change: skip its parser, the slowest step left
        found: dict[str, None] = {}
        plain, body = _restore(text, kept, found, in_link=False)
        urls = list(found)
    # Every string in `body` was escaped as it was written; the sanitiser is the second line of defence.
    plain = _collapsed(plain)
    body = sanitize(body) if "<" in body else body
    # One string object where the three forms agree (most abstracts): a 100k-record ingest holds them all.
    return CleanText(plain, plain if body == plain else body, urls, kept.problems, repaired)


def _holds_any(text: str, characters: str) -> bool:
    """Whether one of the characters is in the text: a substring test each, far cheaper than a pattern's scan."""
    return any(map(text.__contains__, characters))


_CURLY_QUOTES = frozenset("\u201c\u201d")


def _unquoted(text: str) -> str:
    """A field written as a CSV cell, wrapped in double quotes with the quotes within doubled, as ECCV 2022's
    list writes every title and abstract; or a cell's closing quote left after the last sentence, as ECCV
    2020's list ends 1,321 of its 1,358 abstracts ("… computer vision pipelines.\"")."""
    if len(text) < 2 or text[-1] != '"':
        return text
    if text[0] == '"' and '"' not in text[1:-1].replace('""', ""):
        return text[1:-1].replace('""', '"').strip()
    after_a_sentence = text[:-1].rstrip()[-1:] in (".", "!", "?", ")", "}")
    if text.count('"') % 2 and after_a_sentence and not _CURLY_QUOTES.intersection(text):
        return text[:-1].rstrip()
    return text


# "over 7$%$", "by $45\\%$": a percent sign or a percentage, not a formula (131 corpus abstracts hold one)
_PERCENTAGE = re.compile(r"\s*(?P<number>[+-]?\d+(?:[.,]\d+)*)?\s*(?:\\[,;:! ]\s*)*\\?%\s*")


def _protect(text: str, kept: _Protected) -> str:
    def math(match: re.Match[str]) -> str:
        display = match.group("display") or match.group("display2")
        tex = display or match.group("inline") or match.group("inline2") or match.group("spaced")
        if percentage := _PERCENTAGE.fullmatch(tex):
            return (percentage.group("number") or "") + "%"
        return kept.token("math", (match.group(), tex, display is not None))

    def url(match: re.Match[str]) -> str:
        found = match.group()
        bare = strip_trailing(found)
        cleaned = clean_url(bare)
        if cleaned is None:  # no link ("https://arxiv.org/" alone), but its words stay as written
            return found
        return kept.token("url", cleaned) + found[len(bare) :]

    if "$" in text or "\\(" in text or "\\[" in text:
        text = MATH.sub(math, text)
    return URL_RE.sub(url, text) if "://" in text else text


def _render(tokens: list[Token], kept: _Protected) -> tuple[str, str, list[str]]:
    """Plain text, HTML and linked URLs from markdown-it's inline tokens."""
    plain: list[str] = []
    body: list[str] = []
    urls: dict[str, None] = {}
    for token in tokens:
        for child in token.children or [token]:
            kind = child.type
            if kind in ("text", "code_inline"):
                text_plain, text_html = _restore(child.content, kept, urls, in_link=bool(body and _open_link(body)))
                plain.append(text_plain)
                body.append(f"<code>{text_html}</code>" if kind == "code_inline" else text_html)
            elif kind in ("softbreak", "hardbreak"):
                plain.append(" ")
                body.append(" ")
            elif kind in ("em_open", "em_close", "strong_open", "strong_close"):
                tag = "em" if kind.startswith("em") else "strong"
                body.append(f"<{tag}>" if kind.endswith("open") else f"</{tag}>")
            elif kind == "link_open":
                href = _resolve_href(str(child.attrs.get("href", "")), kept)
                if href:
                    urls.setdefault(href)
                body.append(f'<a href="{html.escape(href)}">' if href else "<span>")
            elif kind == "link_close":
                body.append("</a>" if _open_link(body) == "a" else "</span>")
    return "".join(plain), "".join(body), list(urls)


def _open_link(body: list[str]) -> str | None:
    """The kind of the innermost link opened and not yet closed in the HTML so far."""
    depth = 0
    for part in reversed(body):
        if part in ("</a>", "</span>"):
            depth += 1
        elif part.startswith("<a ") or part == "<span>":
            if depth == 0:
                return "a" if part.startswith("<a ") else "span"
            depth -= 1
    return None


def _resolve_href(href: str, kept: _Protected) -> str | None:
    match = _TOKEN_RE.fullmatch(href)
    if match and int(match.group(1)) >= 100000:
        index = int(match.group(1)) - 100000
        return kept.urls[index] if index < len(kept.urls) else None
    return None  # only URLs seen in the text become links: no javascript:, no relative paths


def _restore(text: str, kept: _Protected, urls: dict[str, None], in_link: bool) -> tuple[str, str]:
    """Put formulas and URLs back into a run of text: as written in plain text, rendered in HTML."""
    if _TOKEN not in text:
        return text, _escape(text)
    plain: list[str] = []
    body: list[str] = []
    position = 0
    for match in _TOKEN_RE.finditer(text):
        plain.append(text[position : match.start()])
        body.append(_escape(text[position : match.start()]))
        position = match.end()
        number = int(match.group(1))
        if number >= 100000 and number - 100000 < len(kept.urls):
            url = kept.urls[number - 100000]
            shown = url or ""
            plain.append(shown)
            if url and not in_link:
                urls.setdefault(url)
                body.append(f'<a href="{html.escape(url)}">{_escape(url)}</a>')
            else:
                body.append(_escape(shown))
        elif number < len(kept.math):
            written, tex, display = kept.math[number]
            plain.append(written)
            mathml, problem = math_to_html(tex, display)
            if problem:
                kept.problems.append(f"{problem}: {written[:40]}")
            body.append(mathml)
        else:
            plain.append(match.group())
            body.append(_escape(match.group()))
    plain.append(text[position:])
    body.append(_escape(text[position:]))
    return "".join(plain), "".join(body)
