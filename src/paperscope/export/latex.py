"""Text as LaTeX for BibTeX fields: specials escaped, accents as LaTeX, math kept as math, braces balanced.

BibTeX counts every brace in a field, escaped or not, so a literal brace that has no partner is
written as \\textbraceleft{} / \\textbraceright{}; a formula whose braces do not balance is not TeX,
and is written as text (in Unicode, then escaped like the rest).
"""

from __future__ import annotations

import re

from pylatexenc.latexencode import UnicodeToLatexEncoder

from paperscope.normalize.math import MATH, formula

# Characters pandoc, biber, BibTeX and citation-js all read back the same way, before pylatexenc's
# text-mode macros ({\textendash}, {\texttimes}), which pandoc drops.
_OVERRIDES = {
    "–": "--",
    "—": "---",
    "‘": "`",
    "’": "'",
    "“": "``",
    "”": "''",
    "…": "...",
    "\u00a0": "~",
    "×": r"$\times$",
    "±": r"$\pm$",
    "≤": r"$\leq$",
    "≥": r"$\geq$",
    "≈": r"$\approx$",
    "→": r"$\to$",
    "∞": r"$\infty$",
    "°": r"$^\circ$",
    "·": r"$\cdot$",
    "−": "-",
    "≠": r"$\neq$",
}
_SPECIALS = {
    "\\": r"\textbackslash{}",
    "{": r"\{",
    "}": r"\}",
    "$": r"\$",
    "%": r"\%",
    "&": r"\&",
    "#": r"\#",
    "_": r"\_",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}
_ENCODER = UnicodeToLatexEncoder(
    unknown_char_policy="keep", non_ascii_only=True, replacement_latex_protection="braces-all"
)
_SCRIPT = re.compile(r"([_^])([A-Za-z0-9])")  # x^2 → x^{2}: citation-js reads "^2)" as a superscript "2)"
_ACCENTS = {
    "\u0300": "\\`",
    "\u0301": "\\'",
    "\u0302": "\\^",
    "\u0303": "\\~",
    "\u0304": "\\=",
    "\u0306": "\\u",
    "\u0307": "\\.",
    "\u0308": '\\"',
    "\u030a": "\\r",
    "\u030b": "\\H",
    "\u030c": "\\v",
    "\u0323": "\\d",
    "\u0327": "\\c",
    "\u0328": "\\k",
    "\u0331": "\\b",
}
_CLUSTER = re.compile(r".[\u0300-\u036f]*", re.DOTALL)
_ENSUREMATH = re.compile(r"\\ensuremath\{([^{}]*)\}")


def latex(text: str) -> str:
    """`text` (plain, with $…$ formulas) as the value of a BibTeX field."""
    parts: list[str] = []
    position = 0
    for match in MATH.finditer(text):
        parts.append(_text(text[position : match.start()]))
        tex = next(g for g in match.groups() if g is not None)
        parts.append("$" + _math(tex) + "$" if _is_tex(tex) else _text(formula(tex)))
        position = match.end()
    parts.append(_text(text[position:]))
    return _balance("".join(parts))


def _text(text: str) -> str:
    out = []
    for char in _CLUSTER.findall(text):  # a letter with its combining accents ("P̄") is encoded as one
        if char in _SPECIALS:
            out.append(_SPECIALS[char])
        elif char in _OVERRIDES:
            out.append(_OVERRIDES[char])
        elif len(char) > 1 and all(mark in _ACCENTS for mark in char[1:]):
            out.append(_accented(char))
        elif not char.isascii():
            out.append(_ENSUREMATH.sub(r"$\1$", _ENCODER.unicode_to_latex(char)))
        else:
            out.append(char)
    return "".join(out)


def _accented(cluster: str) -> str:
    """A letter with combining accents that Unicode has no single character for: P̄ → {\\=P}."""
    body = _text(cluster[0])
    for mark in cluster[1:]:
        body = "{" + _ACCENTS[mark] + ("{" + body + "}" if _ACCENTS[mark][-1].isalpha() else body) + "}"
    return body


def _math(tex: str) -> str:
    """A formula for TeX: x^{2} for x^2, and Unicode symbols as their macros ($ω$ → $\\omega$)."""
    tex = _SCRIPT.sub(r"\1{\2}", tex)
    if tex.isascii():
        return tex
    return "".join(_ENSUREMATH.sub(r"\1", _ENCODER.unicode_to_latex(c)) if ord(c) > 127 else c for c in tex)


def _is_tex(tex: str) -> bool:
    """Whether a formula can go to TeX as it is: balanced braces, no bare $, %, # or &."""
    if re.search(r"(?<!\\)[$%#&]", tex):
        return False
    depth = 0
    for match in re.finditer(r"\\.|[{}]", tex):
        token = match.group()
        depth += 1 if token == "{" else -1 if token == "}" else 0
        if depth < 0:
            return False
    return depth == 0


def _balance(value: str) -> str:
    """Literal braces (`{`/`}` in the text, escaped by _text as \\{ \\}) kept when they pair up, named otherwise."""
    tokens = re.split(r"(\\[{}]|[{}])", value)
    stack: list[int] = []
    literal: list[int] = []
    for index, token in enumerate(tokens):
        if token in ("{", "\\{"):
            stack.append(index)
        elif token in ("}", "\\}"):
            if stack:
                stack.pop()
            else:
                literal.append(index)
    for index in literal + [i for i in stack if tokens[i].startswith("\\")]:
        tokens[index] = r"\textbraceleft{}" if "{" in tokens[index] else r"\textbraceright{}"
    return "".join(tokens)
