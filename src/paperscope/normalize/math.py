"""LaTeX math as plain Unicode text, for places that cannot show formulas: CSL-JSON, RIS, a terminal.

`$\\times$` → ×, `$\\Omega(\\sqrt{\\log L})$` → Ω(√log L), `$\\ell_1$` → ℓ₁. Only the math is
converted; the text around it is left as it is. pylatexenc knows the symbols; what it is told here
is how to keep the result short (√x, not √(x); plain letters for \\mathbf{x}; ₁ for _1).
"""

from __future__ import annotations

import logging
import re

from pylatexenc import latex2text

MATH = re.compile(
    r"\$\$(?P<display>.+?)\$\$|\\\[(?P<display2>.+?)\\\]|\\\((?P<inline2>.+?)\\\)"
    # no space just inside the dollars, so prices ("$5 and $10") are not formulas; "9$\times$9" is one
    r"|(?<![\\$])\$(?P<inline>[^\s$](?:[^$]*?[^\s\\$])?)\$"
    # but a space after the first dollar where a command follows before the next: "at least $ 1-\delta$"
    # (else that formula's closing dollar opened one that ran on into the prose)
    r"|(?<![\\$])\$\s+(?P<spaced>(?=[^$]*?\\[A-Za-z])[^\s$][^$]*?)\$",
    re.DOTALL,
)
_SUB = dict(zip("0123456789+-=()aehijklmnoprstuvx", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ", strict=True))
_SUP = dict(zip("0123456789+-=()inT*", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁱⁿᵀ*", strict=True))
_DEGREES = re.compile(r"\^\s*(?:\{\s*\\circ\s*\}|\\circ\b)")  # 360^{\circ}: a degree sign, not a composition
_ENDED_COMMAND = re.compile(r"(\\[A-Za-z]+)(?=[_^])")
# An accent over a command without braces ("\\widetilde\\mathcal{O}"): the accent takes the command alone
# as its argument, leaving pylatexenc's "%s" for the command's missing one; braced, it is "Õ".
_ACCENT_ON_COMMAND = re.compile(
    r"(\\(?:widetilde|tilde|widehat|hat|bar|overline|vec|dot|ddot|check|breve)\s*)(\\[A-Za-z]+\s*\{[^{}]*\})"
)
_SCRIPT = re.compile(r"(?P<mark>[_^])(?:\{(?P<group>[^{}\\]*)\}|(?P<one>[A-Za-z0-9*]))")
_FUNCTIONS = (
    "log",
    "ln",
    "exp",
    "max",
    "min",
    "sup",
    "inf",
    "lim",
    "sin",
    "cos",
    "tan",
    "det",
    "arg",
    "argmax",
    "argmin",
    "Pr",
    "deg",
    "dim",
    "ker",
    "gcd",
    "poly",
    "polylog",
)
_PLAIN_ARG = (
    "mathbf",
    "mathrm",
    "mathit",
    "mathsf",
    "mathtt",
    "boldsymbol",
    "bm",
    "text",
    "textrm",
    "textbf",
    "textit",
    "texttt",
    "textsf",
    "textsc",
    "textnormal",
    "mbox",
    "operatorname",
    "mathcal",
    "mathscr",
    "mathfrak",
    "emph",
)

_RELATIONS = {
    "leq": "≤",
    "le": "≤",
    "geq": "≥",
    "ge": "≥",
    "neq": "≠",
    "approx": "≈",
    "sim": "∼",
    "in": "∈",
    "to": "→",
    "rightarrow": "→",
    "leftarrow": "←",
    "mapsto": "↦",
    "propto": "∝",
    "ll": "≪",
    "gg": "≫",
}

logging.getLogger("pylatexenc").setLevel(logging.ERROR)


def _root(node, l2tobj: latex2text.LatexNodes2Text) -> str:  # type: ignore[no-untyped-def]  (pylatexenc passes it by name)
    """√x, and √(a+b) only when the radicand is more than one word."""
    radicand = l2tobj.nodelist_to_text([node.nodeargd.argnlist[-1]]).strip()
    return "√" + (f"({radicand})" if re.search(r"[+\-*/=,]", radicand) else radicand)


def _plain(node, l2tobj: latex2text.LatexNodes2Text) -> str:  # type: ignore[no-untyped-def]
    """The argument's text; nothing for a command the parser found no argument of ("\\bm K": K follows)."""
    argument = node.nodeargd.argnlist[-1] if node.nodeargd and node.nodeargd.argnlist else None
    return l2tobj.nodelist_to_text([argument]) if argument is not None else ""


def _context() -> latex2text.LatexContextDb:
    context = latex2text.get_default_latex_context_db()
    wide = [("widetilde", "tilde"), ("widehat", "hat")]  # pylatexenc drops the wide accents, and Õ with them
    context.add_context_category(
        "paperscope-math",
        prepend=True,
        macros=[
            latex2text.MacroTextSpec("sqrt", simplify_repl=_root),
            *(latex2text.MacroTextSpec(name, simplify_repl=f" {char} ") for name, char in _RELATIONS.items()),
            *(latex2text.MacroTextSpec(name, simplify_repl=_plain) for name in _PLAIN_ARG),
            *(latex2text.MacroTextSpec(name, simplify_repl=f" {name} ") for name in _FUNCTIONS),
            *(latex2text.MacroTextSpec(name, context.get_macro_spec(narrow).simplify_repl) for name, narrow in wide),
            latex2text.MacroTextSpec("!", simplify_repl=""),
            latex2text.MacroTextSpec(",", simplify_repl=" "),
            latex2text.MacroTextSpec(";", simplify_repl=" "),
            latex2text.MacroTextSpec("quad", simplify_repl=" "),
        ],
    )
    return context


_TO_TEXT = latex2text.LatexNodes2Text(latex_context=_context(), math_mode="text", strict_latex_spaces=False)


def _script(match: re.Match[str]) -> str:
    body = match.group("group") if match.group("group") is not None else match.group("one")
    table = _SUB if match.group("mark") == "_" else _SUP
    if body and all(ch in table for ch in body):
        return "".join(table[ch] for ch in body)
    return match.group("mark") + (body if len(body) == 1 else f"({body})")


def formula(tex: str) -> str:
    """One formula's TeX (without its dollars) as text."""
    # "\ell{}ₚ", not "\ellₚ": a script letter is a letter, and would lengthen the command's name
    tex = _ACCENT_ON_COMMAND.sub(r"\1{\2}", tex) if "\\" in tex else tex
    tex = _SCRIPT.sub(_script, _ENDED_COMMAND.sub(r"\1{}", _DEGREES.sub("°", tex)))
    try:
        text = _TO_TEXT.latex_to_text(tex)
    except Exception:
        return tex
    if "%s" in text and "%s" not in tex:  # a command without the arguments its text needs: as written
        return tex
    text = re.sub(r"\s+", " ", text).strip()
    return re.sub(r"[(\[⌊⌈]\s+|\s+[)\]⌋⌉]", lambda m: m.group().replace(" ", ""), text)


def to_unicode(text: str) -> str:
    """Every formula in `text` ($…$, $$…$$, \\(…\\), \\[…\\]) as plain Unicode; the rest unchanged."""
    if "$" not in text and "\\(" not in text and "\\[" not in text:
        return text
    converted = MATH.sub(lambda m: formula(next(g for g in m.groups() if g is not None)), text)
    return converted.replace("\\$", "$")
