"""People's names: cleaned at ingest (one person per entry), split into parts for the reference formats.

nameparser does the splitting ("Hal Daumé III" → given Hal, family Daumé, suffix III; "van der
Maaten, Laurens" as well as "Laurens van der Maaten"). Its list of titles is emptied: in author
lists, "Judge" or "Major" is a given name more often than a title.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import TYPE_CHECKING

from pylatexenc.latex2text import LatexNodes2Text

if TYPE_CHECKING:
    from nameparser.config import Constants

_TO_TEXT = LatexNodes2Text()
_CONJUNCTION = re.compile(r",?\s+and\s+", re.IGNORECASE)
_LEADING_AND = re.compile(r"^and\s+", re.IGNORECASE)
# "Given [Middle] Family": two to four capitalised words of letters or initials ("C.", "H.-J.",
# "C.K.K."), the last a word, none a word nameparser reads as more than a name (a particle, a
# conjunction, a suffix, a title). Its family name is its last word, as nameparser says for all
# 101,020 such authors of the corpus (the first three of each record).
_WORD = r"[^\W\d_]+(?:['-][^\W\d_]+)*"
_INITIALS = r"[^\W\d_]\.(?:-?[^\W\d_]\.)*"
_PLAIN_NAME = re.compile(rf"(?:{_INITIALS}|{_WORD})(?: (?:{_INITIALS}|{_WORD})){{0,2}} {_WORD}")


@cache
def _constants() -> Constants:
    """nameparser's word lists, its titles emptied; imported on first use, since every command would
    otherwise wait for nameparser's import (~60 ms) as it starts."""
    from nameparser.config import Constants

    constants = Constants()
    constants.titles.remove(*list(constants.titles))
    return constants


@cache
def _not_plain_words() -> frozenset[str]:
    constants = _constants()
    return frozenset(
        word.lower().strip(".")
        for words in (
            constants.prefixes,
            constants.conjunctions,
            constants.suffix_acronyms,
            constants.suffix_not_acronyms,
            constants.bound_first_names,
            constants.non_first_name_prefixes,
            constants.first_name_titles,
        )
        for word in words
    )


@dataclass(frozen=True)
class Name:
    family: str  # the whole name when literal
    given: str = ""
    particle: str = ""  # "van der", "de": lower-case words before the family name
    suffix: str = ""  # "Jr.", "III"
    literal: bool = False  # an organisation ("Court of Arbitration for Sport"): one name, not parts

    def full_family(self) -> str:
        return f"{self.particle} {self.family}".strip()


def clean_authors(authors: list[str]) -> list[str]:
    """One person per entry: "and Tim Klinger" loses its "and", "A and B" becomes two people, blanks go,
    and LaTeX becomes text ("Capp\\'e" → "Cappé": exports escape names themselves)."""
    people: list[str] = []
    for author in authors:
        if author.startswith("{") and author.endswith("}"):
            people.append(author)  # an organisation: "{Barnes and Noble}" is one name
            continue
        if "\\" in author:
            author = _latex_to_text(author)
        for part in _parts(" ".join(author.split())):
            part = part.strip(" ,;")
            if part:
                people.append(part)
    return people


def _parts(author: str) -> list[str]:
    """The people an entry names, split at "and"; an entry without the word (most) needs no pattern run."""
    if "and" not in author.lower():
        return [author]
    return _CONJUNCTION.split(_LEADING_AND.sub("", author))


def _latex_to_text(author: str) -> str:
    """pylatexenc's text of a name, or the name as written where it fails ("\\href" without its arguments
    raised IndexError, and stopped the whole ingest)."""
    try:
        return _TO_TEXT.latex_to_text(author)
    except Exception:
        return author


def literal(name: str) -> str:
    """An organisation's name as sources keep it among people: in braces, as BibTeX does."""
    return "{" + name.strip() + "}"


def parse_name(author: str) -> Name:
    """The parts of one name; a single word ("Prabhat") is a family name, a braced one an organisation."""
    if author.startswith("{") and author.endswith("}"):
        return Name(family=author[1:-1].strip(), literal=True)
    from nameparser import HumanName

    human = HumanName(author, constants=_constants())
    given = " ".join(p for p in (human.first, human.middle) if p)
    family = human.last
    if not family:
        return Name(family=given or author.strip())
    words = family.split()
    particle = []
    while len(words) > 1 and words[0].islower():
        particle.append(words.pop(0))
    return Name(" ".join(words), given, " ".join(particle), human.suffix)


def ascii_word(text: str) -> str:
    """Lower-case ASCII letters and digits only, accents dropped: "Daumé" → "daume" (citation keys)."""
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]", "", folded.lower())


@lru_cache(maxsize=8_192)  # a prolific first author's name is parsed once
def family_word(author: str) -> str:
    """An author's family name as a citation key takes it: "Hal Daumé III" → "daume"."""
    words = author.split(" ")
    if _PLAIN_NAME.fullmatch(author) and all(
        w[0].isupper() and w.lower().strip(".") not in _not_plain_words() for w in words
    ):
        return ascii_word(words[-1])  # nameparser took 37% of preparing a record
    return ascii_word(parse_name(author).family)
