"""The deciding sentence: which sentence of the text a player reads answers their question.

A ruling's text is split into sentences (pysbd, which knows each of the seven languages'
abbreviations: "s. 38", "z. B.", "p. ex.") and each sentence is matched against the question
with the model the search uses (question vector against passage vectors, as search matches
a ruling's text). A sentence's vector is kept in a per-process LRU cache: the rulings that
are shown are few and shown often, so after the first asks a pick embeds nothing.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from indexer.model.embedder import encode_passages, encode_queries

if TYPE_CHECKING:
    from indexer.model.embedder import Embedder

log = logging.getLogger(__name__)

SENTENCE_CACHE = 8192  # sentence vectors kept per process (~3 MB at 384 dimensions)
#: A sentence shorter than this ("Yes.", "Nein.") says little by itself: its next one joins it.
SHORT_SENTENCE = 25


@lru_cache(maxsize=8)
def _segmenter(lang: str) -> Any:
    import pysbd

    try:
        return pysbd.Segmenter(language=lang, clean=False, char_span=True)
    except ValueError:  # a language pysbd does not know: English rules are the closest
        return pysbd.Segmenter(language="en", clean=False, char_span=True)


@lru_cache(maxsize=4096)
def sentence_spans(text: str, lang: str) -> tuple[tuple[int, int], ...]:
    """(start, end) of each sentence of `text`, without the spaces between them."""
    spans = []
    for span in _segmenter(lang).segment(text):
        start, end = span.start, span.end
        while end > start and text[end - 1].isspace():
            end -= 1
        while start < end and text[start].isspace():
            start += 1
        if end > start:
            spans.append((start, end))
    return tuple(spans) or ((0, len(text)),)


class EvidencePicker:
    """Picks the deciding sentence of a shown text with the search's own embedder."""

    def __init__(self, embedder: Embedder, cache_size: int = SENTENCE_CACHE):
        self.embedder = embedder
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._size = cache_size
        self._lock = threading.Lock()

    def _vectors(self, sentences: list[str]) -> np.ndarray:
        with self._lock:
            found = {s: self._cache[s] for s in sentences if s in self._cache}
            for s in found:
                self._cache.move_to_end(s)
        todo = [s for s in dict.fromkeys(sentences) if s not in found]
        if todo:
            made = encode_passages(self.embedder, todo)
            with self._lock:
                for s, v in zip(todo, made, strict=True):
                    found[s] = v
                    self._cache[s] = v
                while len(self._cache) > self._size:
                    self._cache.popitem(last=False)
        return np.stack([found[s] for s in sentences])

    def pick(self, question: str, text: str, lang: str) -> dict[str, Any]:
        """The sentence(s) of `text` that best answer `question`: their text, their spans in
        `text` and the match's score (cosine of normalised vectors)."""
        spans = sentence_spans(text, lang)
        if len(spans) == 1:
            start, end = spans[0]
            return {"text": text[start:end], "spans": [{"start": start, "end": end}], "score": None}
        sentences = [text[a:b] for a, b in spans]
        scores = self._vectors(sentences) @ encode_queries(self.embedder, [question])[0]
        best = int(np.argmax(scores))
        chosen = [best]
        if len(sentences[best]) < SHORT_SENTENCE and best + 1 < len(spans):
            chosen.append(best + 1)
        start, end = spans[chosen[0]][0], spans[chosen[-1]][1]
        return {
            "text": text[start:end],
            "spans": [{"start": spans[i][0], "end": spans[i][1]} for i in chosen],
            "score": round(float(scores[best]), 6),
        }

    def for_view(self, question: str, view: dict[str, Any]) -> dict[str, Any]:
        """The evidence of one ruling as the API shows it: in the text the asker reads first
        (the translation into their language, else the original)."""
        shown = view.get("translation")
        field, lang, text = (
            ("translation", shown["lang"], shown["text"])
            if shown
            else ("text", view["lang"], view["text"])
        )
        return {"shown": field, "lang": lang, **self.pick(question, text, lang)}
