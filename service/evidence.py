"""The deciding sentence: which sentence of the text a player reads answers their question.

A ruling's text is split into sentences (pysbd, which knows each of the seven languages'
abbreviations: "s. 38", "z. B.", "p. ex.") and each sentence is matched against the question
with the model the search uses (question vector against passage vectors, as search matches
a ruling's text). The archive's sentences are embedded by `rulings build` into a file beside the index
(``sentence_cache_path``), which every serving process loads; a sentence it lacks (a record
changed since) is embedded on first use and kept in a per-process LRU cache. Embedding them
at ask time instead cost ~90 ms of an ask's p50 for a ruling shown the first time.
"""

from __future__ import annotations

import hashlib
import io
import logging
import threading
from collections import OrderedDict
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from indexer.files import write_atomic
from indexer.model.embedder import encode_passages, encode_queries

if TYPE_CHECKING:
    from indexer.archive.schema import Archive
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


def sentence_cache_path(index_dir: Path) -> Path:
    """Where `rulings build` keeps the archive's sentence vectors: beside the index folder."""
    return index_dir.with_name(index_dir.name + ".sentence-cache.npz")


def model_id(embedder: Embedder) -> str:
    """What the vectors depend on: the model, its backend and its export."""
    return f"{embedder.name}|{embedder.backend}|{getattr(embedder, 'export_id', None)}"


def archive_sentences(archive: Archive) -> list[str]:
    """Every sentence a reader may be shown of a ruling told in more than one sentence."""
    found: dict[str, None] = {}
    for rec in archive.records.values():
        for lang in rec.languages():
            text = rec.version(lang)[0]
            spans = sentence_spans(text, lang)
            if len(spans) > 1:
                found.update((text[a:b], None) for a, b in spans)
    return list(found)


def _key(sentence: str) -> str:
    return hashlib.sha1(sentence.encode("utf-8")).hexdigest()


def load_sentence_vectors(path: Path, embedder: Embedder) -> dict[str, np.ndarray]:
    """sha1(sentence) -> vector from the file, if it was made by this model; else nothing."""
    try:
        with np.load(path) as data:
            if str(data["model"]) != model_id(embedder):
                return {}
            return dict(zip(data["keys"].tolist(), data["vectors"], strict=True))
    except (OSError, KeyError, ValueError) as exc:
        if path.exists():
            log.warning("sentence cache %s unreadable (%s): sentences embedded on use", path, exc)
        return {}


def build_sentence_cache(archive: Archive, embedder: Embedder, path: Path) -> dict[str, int]:
    """Embed the archive's sentences into `path` (the ones already there reused)."""
    known = load_sentence_vectors(path, embedder)
    sentences = archive_sentences(archive)
    keys = [_key(s) for s in sentences]
    todo = [s for s, k in zip(sentences, keys, strict=True) if k not in known]
    if todo:
        # Shortest first: a batch is padded to its longest sentence.
        todo.sort(key=len)
        known.update(zip((_key(s) for s in todo), encode_passages(embedder, todo), strict=True))
    vectors = np.stack([known[k] for k in keys]) if keys else np.zeros((0, 0), np.float32)
    buffer = io.BytesIO()
    np.savez(buffer, model=np.array(model_id(embedder)), keys=np.array(keys), vectors=vectors)
    write_atomic(path, buffer.getvalue(), mode=0o644)
    return {"sentences": len(keys), "embedded": len(todo)}


class EvidencePicker:
    """Picks the deciding sentence of a shown text with the search's own embedder."""

    def __init__(
        self, embedder: Embedder, cache_file: Path | None = None, cache_size: int = SENTENCE_CACHE
    ):
        self.embedder = embedder
        self.cache_file = cache_file
        self._known = load_sentence_vectors(cache_file, embedder) if cache_file else {}
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._size = cache_size
        self._lock = threading.Lock()

    def _vectors(self, sentences: list[str]) -> np.ndarray:
        if not sentences:
            return np.zeros((0, 0), dtype=np.float32)
        with self._lock:
            found = {s: self._known[k] for s in sentences if (k := _key(s)) in self._known}
            for s in sentences:
                if s not in found and s in self._cache:
                    self._cache.move_to_end(s)  # the least recently used go first
                    found[s] = self._cache[s]
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

    def for_views(self, question: str, views: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The evidence of each ruling as the API shows it, in the text the asker reads first
        (the translation into their language, else the original). The sentences not seen yet
        are embedded in one batch: one model run per ask, not one per ruling."""
        shown = [_shown(view) for view in views]
        multi = [(text, lang) for _, lang, text in shown if len(sentence_spans(text, lang)) > 1]
        self._vectors([text[a:b] for text, lang in multi for a, b in sentence_spans(text, lang)])
        return [
            {"shown": field, "lang": lang, **self.pick(question, text, lang)}
            for field, lang, text in shown
        ]


def _shown(view: dict[str, Any]) -> tuple[str, str, str]:
    """(which text, its language, the text) a ruling view shows its reader first."""
    translation = view.get("translation")
    if translation:
        return "translation", translation["lang"], translation["text"]
    return "text", view["lang"], view["text"]
