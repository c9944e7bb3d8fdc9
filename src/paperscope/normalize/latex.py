"""LaTeX in running text to markdown, using pylatexenc's parser.

Math and URLs have already been swapped for opaque tokens by the caller, so what reaches the
parser is prose with text macros. Anything pylatexenc cannot convert is reported, not raised.
"""

from __future__ import annotations

import logging
import re
import unicodedata

from pylatexenc import macrospec
from pylatexenc.latex2text import LatexNodes2Text
from pylatexenc.latexwalker import (
    LatexCharsNode,
    LatexCommentNode,
    LatexGroupNode,
    LatexMacroNode,
    LatexNode,
    LatexWalker,
    get_default_latex_context_db,
)

_CONTEXT = get_default_latex_context_db()
_CONTEXT.add_context_category(
    "paperscope",
    prepend=True,
    macros=[macrospec.MacroSpec("href", "{{"), macrospec.MacroSpec("url", "{")],
)
_TO_TEXT = LatexNodes2Text(latex_context=None, math_mode="verbatim", strict_latex_spaces=False)

_EMPHASIS = {"textbf": "**", "textit": "*", "emph": "*", "textsl": "*", "underline": "*"}
_PLAIN = {"textrm", "textsf", "texttt", "textsc", "textnormal", "text", "mbox", "textup", "textmd", "textcolor"}
# A citation shows its keys, as a reader of the paper sees its numbers: dropped, it left "the algorithm of , and"
# (61 corpus abstracts); an optional note ("\\cite[Thm. 2]{key}") goes with the rest of the paper it points in
_CITATIONS = {"cite", "citep", "citet", "citealp", "citealt", "citeauthor", "citeyear", "citeyearpar"}
_DROPPED = {
    "ref",
    "eqref",
    "label",
    "em",
    "it",
    "bf",
    "rm",
    "sc",
    "tt",
    "sf",
    "sl",
    "itshape",
    "bfseries",
    "normalfont",
    "noindent",
    "small",
    "footnotesize",
    # sizes of brackets in a formula written without its $: "O\\left(√KT ln N\\right)"
    "left",
    "right",
    "big",
    "Big",
    "bigl",
    "bigr",
    "smash",
}
_ABBREVIATIONS = {"ie": "i.e.", "eg": "e.g.", "etal": "et al.", "etc": "etc.", "vs": "vs."}
# pylatexenc logs a warning for every formula it meets in prose; the report lists what matters.
logging.getLogger("pylatexenc").setLevel(logging.ERROR)
# What makes a stretch of text worth handing to the (slow, per-character) LaTeX parser.
LATEX_HINT = re.compile(r"\\[a-zA-Z@%&$#_{}\"'`^~.=]|[{}]")
_ABOUT = re.compile(r"(?:(?<=\s)|^)~(?=\d)")  # "~3x" means about 3x, not a non-breaking space
# A macro glued to its argument where a source lost the braces or the space: "\\sqrtT", "\\emphnon-convex",
# "\\mathbfR^+", "\\tildeO(d)"; a citation's key is no text; "\\nTo address …" is a newline written as "\\n".
_GLUED = [
    (re.compile(r"sqrt([A-Za-z]{1,3})"), "√\\1"),
    (re.compile(r"log([A-Za-z]{1,3})"), "log \\1"),
    (re.compile(r"(?:wide)?[tT]ilde([A-Za-z])"), "\\1\u0303"),
    (
        re.compile(r"(?:emph|text(?:it|bf|sc|rm|tt|sf)|math(?:bf|rm|it|sf|cal|bb)|boldsymbol|hyperlink)([A-Za-z]+)"),
        "\\1",
    ),
    (re.compile(r"cite[pt]?[A-Za-z]+"), ""),
    (re.compile(r"n([A-Z][A-Za-z]*)"), " \\1"),
]
_TYPOGRAPHY = [("---", "\u2014"), ("--", "\u2013"), ("``", "\u201c"), ("''", "\u201d")]
# LaTeX's single quotes, `relook': markdown would read the backtick as a code span's, up to the next one
_SINGLE_QUOTED = re.compile(r"(?<![`\w])`(?!`)([^`'\n]{1,200}?)'(?![\w'])")


# A source that wrote "\textbf" into JSON unescaped holds a tab and "extbf": JSON read "\t" as a tab.
# Some lists then turned the tab into a space ("namely extbf{video}", "cow$ ightarrow$sheep"). Only a tab
# and a carriage return reach here: an ingest removes the other control characters first (controls.scrub).
_ESCAPED_LETTERS = {"\t": "t", "\r": "r"}
_ESCAPED_MACRO = re.compile(r"([\t\r])([A-Za-z]+)")
_LOST_BEFORE_BRACE = {
    "oldsymbol": "b",
    **dict.fromkeys(["ext", "extbf", "extit", "extrm", "extsf", "exttt", "extcolor"], "t"),
}
_LOST_IN_MATH = {"imes": "t", "ightarrow": "r", "au": "t", "heta": "t", "ho": "r", "ilde": "t", "abla": "n", "rac": "f"}
# The space that took the control character's place goes too where it follows a brace or a dollar
_LOST_ESCAPE = re.compile(
    r"(?:(?<=[{($_^]) |(?<![\\\w]))"
    rf"(?P<fragment>(?:{'|'.join(_LOST_BEFORE_BRACE)})(?=\{{)"
    rf"|(?<=[$({{] )(?:{'|'.join(_LOST_IN_MATH)})(?=\s?[$)}}_^{{]))"
)

# "\\f" of "\\footnote" is a form feed, which ingest removes (controls.scrub): "availableootnote{\\url{…}}"
_LOST_FOOTNOTE = re.compile(r"(?<![\\f])ootnote(?=\{)")


def restore_escaped_macros(text: str) -> str:
    """A tab before "extbf{", "imes", "au" (a carriage return before "ho", "ightarrow"): a macro whose
    backslash and first letter JSON read as one control character; and the same fragments
    where the control character became a space, before a brace or inside a formula. A tab before a
    word that makes no macro ("We show") is left alone."""

    def restore(match: re.Match[str]) -> str:
        name = _ESCAPED_LETTERS[match.group(1)] + match.group(2)
        return "\\" + name if _TO_TEXT.latex_context.get_macro_spec(name) is not None else match.group()

    def restore_lost(match: re.Match[str]) -> str:
        fragment = match.group("fragment")
        return "\\" + (_LOST_BEFORE_BRACE.get(fragment) or _LOST_IN_MATH[fragment]) + fragment

    if "\t" in text or "\r" in text:
        text = _ESCAPED_MACRO.sub(restore, text)
    # a lost fragment stands before a brace or after "$ ", "( ", "{ ": scanning every field for it was a third
    # of clean_text's time
    if "{" in text or "$ " in text or "( " in text:
        text = _LOST_ESCAPE.sub(restore_lost, text)
    if "ootnote{" in text:
        text = _LOST_FOOTNOTE.sub(r"\\footnote", text)
    return text


def latex_quotes(text: str) -> str:
    """`quoted' -> ‘quoted’ (markdown's code spans, `code`, are left to markdown)."""
    return _SINGLE_QUOTED.sub("\u2018\\1\u2019", text) if "`" in text else text


def prepare(text: str) -> str:
    """Escape what pylatexenc would misread in prose: bare %, lone $, stray braces, ~ as 'about'."""
    text = re.sub(r"(?<!\\)%", r"\\%", text)
    text = re.sub(r"(?<!\\)\$", r"\\$", text)
    text = _ABOUT.sub(r"\\textasciitilde{}", text)
    return _balance_braces(text)


def _balance_braces(text: str) -> str:
    out: list[str] = []
    open_at: list[int] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "\\" and i + 1 < len(text):
            out.append(text[i : i + 2])
            i += 2
            continue
        if ch == "{":
            open_at.append(len(out))
        elif ch == "}":
            if open_at:
                open_at.pop()
            else:
                ch = "\\}"
        out.append(ch)
        i += 1
    for index in open_at:
        out[index] = "\\{"
    return "".join(out)


def latex_to_markdown(text: str) -> tuple[str, list[str]]:
    """Markdown for prose with LaTeX in it, and what could not be converted.

    pylatexenc reads a character at a time, so it is given only the stretches that hold LaTeX
    (a macro with its arguments, a braced group); the prose between them only gets the
    typography LaTeX would apply to it (dashes, quotes, ~).
    """
    problems: list[str] = []
    parts: list[str] = []
    position = 0
    for start, end in _latex_spans(text):
        parts.append(plain_typography(text[position:start]))
        walker = LatexWalker(prepare(text[start:end]), tolerant_parsing=True, latex_context=_CONTEXT)
        nodes, _, _ = walker.get_latex_nodes()
        parts.append(_nodes(nodes, problems))
        position = end
    parts.append(plain_typography(text[position:]))
    return "".join(parts), problems


def plain_typography(text: str) -> str:
    if "~" in text:
        text = _ABOUT.sub("\x00", text).replace("~", " ").replace("\x00", "~")
    for ligature, char in _TYPOGRAPHY:
        text = text.replace(ligature, char)
    return text


def _latex_spans(text: str) -> list[tuple[int, int]]:
    """Stretches that hold LaTeX, each from the start of its word to the end of its arguments."""
    spans: list[tuple[int, int]] = []
    for match in LATEX_HINT.finditer(text):
        if spans and match.start() < spans[-1][1]:
            continue
        start = match.start()
        while start > 0 and not text[start - 1].isspace():
            start -= 1
        end = _construct_end(text, match.start())
        if spans and start <= spans[-1][1]:
            spans[-1] = (spans[-1][0], max(end, spans[-1][1]))
        else:
            spans.append((start, end))
    return spans


def _construct_end(text: str, at: int) -> int:
    """Where the macro or group starting at `at` ends: its name, then any {...} or [...] arguments."""
    if text[at] == "}":
        return at + 1
    end = at
    if text[at] == "\\":
        end = at + 2
        if text[at + 1].isalpha():
            while end < len(text) and text[end].isalpha():
                end += 1
        elif text[at + 1] in "'\"^`~=.uvHc" and end < len(text) and text[end] != "{":
            end += 1  # an accent on the next letter: \'e
    while True:
        probe = end
        while probe < len(text) and text[probe] == " ":
            probe += 1
        if probe < len(text) and text[probe] in "{[":
            end = _group_end(text, probe)
        else:
            return end


def _group_end(text: str, at: int) -> int:
    """The index after the bracket that closes the one at `at` (or the end of the text)."""
    opening = text[at]
    closing = "}" if opening == "{" else "]"
    depth = 0
    index = at
    while index < len(text):
        char = text[index]
        if char == "\\":
            index += 2
            continue
        if char == opening:
            depth += 1
        elif char == closing:
            depth -= 1
            if depth == 0:
                return index + 1
        index += 1
    return len(text)


def _nodes(nodes: list[LatexNode | None], problems: list[str]) -> str:
    parts: list[str] = []
    index = 0
    while index < len(nodes):
        node = nodes[index]
        index += 1
        if node is None or isinstance(node, LatexCommentNode):
            continue
        if isinstance(node, LatexCharsNode):
            parts.append(node.chars)
        elif isinstance(node, LatexGroupNode):
            parts.append(_nodes(node.nodelist, problems))
        elif isinstance(node, LatexMacroNode):
            args = _macro_args(node)
            if node.macroname in ("href", "url") and not any(args):
                # pylatexenc gives up on "\href{url}" with its text missing: take the groups that follow.
                while index < len(nodes) and isinstance(nodes[index], LatexGroupNode) and len(args) < 2:
                    args.append(nodes[index].nodelist)  # type: ignore[union-attr]
                    index += 1
            parts.append(_macro(node, args, problems))
        else:
            parts.append(_fallback(node, problems))
    return "".join(parts)


def _is_url_token(text: str) -> bool:
    return bool(re.fullmatch(r"QPSTOK1\d{5}Q", text))


def _macro_args(node: LatexMacroNode) -> list[list[LatexNode]]:
    argd = node.nodeargd
    if argd is None or not argd.argnlist:
        return []
    return [(arg.nodelist if isinstance(arg, LatexGroupNode) else [arg]) for arg in argd.argnlist if arg is not None]


def _macro(node: LatexMacroNode, args: list[list[LatexNode]], problems: list[str]) -> str:
    name = node.macroname
    texts = [_nodes(arg, problems) for arg in args]
    if name == "href" and texts:
        url = texts[0].strip()
        label = texts[1] if len(texts) > 1 and texts[1].strip() else url
        # http(s) URLs arrive as tokens; anything else (javascript:, a relative path) is not linked
        return f"[{label}]({url})" if _is_url_token(url) else (label if label != url else "")
    if name == "url":  # "\url https://…": the link follows as text
        return texts[0].strip() if texts else ""
    if name in _EMPHASIS and texts:
        mark = _EMPHASIS[name]
        return f"{mark}{texts[-1]}{mark}"
    if name in _PLAIN and texts:
        return texts[-1]
    if name == "footnote":  # often the code's link: "available\\footnote{\\url{https://github.com/…}}"
        return f" ({texts[-1].strip()})" if texts and texts[-1].strip() else ""
    if name in _CITATIONS and texts:
        keys = [key.strip() for key in texts[-1].split(",") if key.strip()]
        return f"[{', '.join(keys)}]" if keys and not any(mark in texts[-1] for mark in "{}") else ""
    if name in _DROPPED:
        return ""
    if name in _ABBREVIATIONS:
        return _ABBREVIATIONS[name]
    return _fallback(node, problems)


def _fallback(node: LatexNode, problems: list[str]) -> str:
    """pylatexenc's own text conversion: accents, symbols, specials like ``, --, ~."""
    if isinstance(node, LatexMacroNode) and _TO_TEXT.latex_context.get_macro_spec(node.macroname) is None:
        for pattern, meant in _GLUED:
            if glued := pattern.fullmatch(node.macroname):
                return unicodedata.normalize("NFC", glued.expand(meant))  # Õ, as the folded text has it
        problems.append(f"unknown LaTeX macro \\{node.macroname}")
        return node.latex_verbatim()  # as written: "introduces \\Ours, an extension" lost the word to ""
    try:
        text = _TO_TEXT.nodelist_to_text([node])
    except Exception as exc:  # pylatexenc raises bare Exceptions on some real inputs
        problems.append(f"LaTeX not converted ({exc.__class__.__name__}): {node.latex_verbatim()[:40]}")
        return node.latex_verbatim()
    if "%s" in text:  # a macro written without the arguments its text needs ("\frac1t" in prose): as written
        problems.append(f"LaTeX macro without its arguments: {node.latex_verbatim()[:40]}")
        return node.latex_verbatim()
    return text
