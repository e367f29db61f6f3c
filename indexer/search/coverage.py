"""Lexical evidence that a ruling answers a question: which of the question's words it covers.

A ruling "near" a question in embedding space may only share its topic; a person checks
whether the words the question hinges on are in the ruling. Each rule (one canonical record
per edition group) gets, per language, the stemmed words of its text in that language (the
original, our translation or the other official edition) and of its search keys in that
language. A question's words are weighed by IDF over the rules of its language, so rare words
(the ones a question hinges on: "looting", "Ward", "push") count most, and words no ruling
holds at all weigh the most: a question about something the archive never mentions cannot
be covered.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from indexer.archive.schema import Archive
from indexer.language import LANGUAGES, Lang
from indexer.search.passages import passage_text
from indexer.text import fold, tokenize, tokens_of_folded


@dataclass(frozen=True)
class Coverage:
    covered: float  # IDF-weighted share of the question's words the rule holds (0..1)
    distinct: float  # share it holds and its strongest rival does not
    unknown: float  # share of the question's weight on words no rule holds


class RecordWords:
    """Each record's stemmed words per language, as word numbers: what `RuleVocabulary` is
    built from, saved with the index (tokenizing every text is most of a start at scale).

    Per language: the words (``words[lang][i]`` is word number i), and two CSR arrays over the
    records (in ``records`` order): the words of the record's text in that language and of its
    search keys in that language.
    """

    PARTS = ("text", "keys")

    def __init__(
        self, records: list[str], words: dict[str, list[str]], arrays: dict[str, np.ndarray]
    ):
        self.records = records
        self.words = words
        self.arrays = arrays  # f"{part}-{lang}-indptr" / f"{part}-{lang}-ids"

    @classmethod
    def from_archive(cls, archive: Archive) -> "RecordWords":
        """Tokenize every record's texts and keys in every language."""
        number: dict[str, dict[str, int]] = {lang: {} for lang in LANGUAGES}
        rows: dict[tuple[str, Lang], list[set[int]]] = {
            (part, lang): [] for part in cls.PARTS for lang in LANGUAGES
        }
        for rec in archive.records.values():
            # A record without a translation into a language is matched by its original there:
            # the same text in several languages, folded once.
            folded: dict[str, str] = {}
            for lang in LANGUAGES:
                text = passage_text(rec, lang)
                if text not in folded:
                    folded[text] = fold(text)
                ids = number[lang]
                rows["text", lang].append(
                    {ids.setdefault(w, len(ids)) for w in tokens_of_folded(folded[text], lang)}
                )
                rows["keys", lang].append(
                    {
                        ids.setdefault(w, len(ids))
                        for key in rec.asks.get(lang, ())
                        for w in tokenize(key, lang)
                    }
                )
        arrays = {}
        for (part, lang), sets in rows.items():
            arrays[f"{part}-{lang}-indptr"] = np.cumsum(
                [0] + [len(x) for x in sets], dtype=np.int64
            )
            arrays[f"{part}-{lang}-ids"] = np.fromiter(
                (i for x in sets for i in sorted(x)),
                dtype=np.int32,
                count=int(arrays[f"{part}-{lang}-indptr"][-1]),
            )
        return cls(list(archive.records), {lang: list(number[lang]) for lang in LANGUAGES}, arrays)

    def save(self, folder: Path, name: str) -> None:
        """Two files in `folder`: the record ids and words (`name`.json), the arrays (.npz)."""
        (folder / f"{name}.json").write_text(
            json.dumps({"records": self.records, "words": self.words}, ensure_ascii=False)
        )
        # Any: numpy's stubs would take a key of **arrays for savez's `allow_pickle` flag.
        arrays: dict[str, Any] = self.arrays
        np.savez(folder / f"{name}.npz", **arrays)

    @classmethod
    def load(cls, folder: Path, name: str) -> "RecordWords":
        """What `save` wrote."""
        data = json.loads((folder / f"{name}.json").read_text())
        with np.load(folder / f"{name}.npz") as arrays:
            return cls(data["records"], data["words"], {k: arrays[k] for k in arrays.files})


class RuleVocabulary:
    """Stemmed word sets per rule and language, with IDF weights per language."""

    def __init__(
        self,
        archive: Archive,
        canonical: dict[str, str],
        *,
        with_keys: bool = True,
        saved: RecordWords | None = None,
    ):
        """`saved`: the index's record words, if they are those of `archive`'s records."""
        if (
            saved is None
            or len(saved.records) != len(archive.records)
            or not archive.records.keys() >= set(saved.records)
        ):
            saved = RecordWords.from_archive(archive)
        self._rules = list(dict.fromkeys(canonical[rid] for rid in saved.records))
        self._rule_number = {rule: i for i, rule in enumerate(self._rules)}
        record_rule = np.array(
            [self._rule_number[canonical[rid]] for rid in saved.records], dtype=np.int64
        )
        n = len(self._rules)
        self._word_number: dict[str, dict[str, int]] = {}
        self._rule_words: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        self.idf: dict[str, dict[str, float]] = {}
        for lang in LANGUAGES:
            words = saved.words[lang]
            chunks: list[np.ndarray] = []
            for part in RecordWords.PARTS if with_keys else ("text",):
                indptr, ids = (
                    saved.arrays[f"{part}-{lang}-indptr"],
                    saved.arrays[f"{part}-{lang}-ids"],
                )
                chunks.append(np.repeat(record_rule, np.diff(indptr)) * len(words) + ids)
            # A rule's words: the union of its records' (linked editions are one rule).
            pairs = np.sort(np.concatenate(chunks))
            if len(pairs):  # a sort and a mask: np.unique's hashing is slower here
                pairs = pairs[np.concatenate(([True], pairs[1:] != pairs[:-1]))]
            rule_of, word_of = np.divmod(pairs, max(len(words), 1))
            indptr = np.searchsorted(rule_of, np.arange(n + 1))
            self._rule_words[lang] = (indptr, word_of)
            self._word_number[lang] = {w: i for i, w in enumerate(words)}
            df = np.bincount(word_of, minlength=len(words)).tolist()
            self.idf[lang] = {w: math.log((n + 1) / (c + 0.5)) for w, c in zip(words, df) if c}
        self._unknown_idf = math.log((n + 1) / 0.5)
        # Game names say which game, not what is asked: they are filtered, not evidence.
        self._game_words: dict[str, frozenset[str]]
        self._game_words = {
            lang: frozenset(
                w
                for g in archive.games.values()
                for name in (g.id, g.name, *g.aliases)
                for w in tokenize(fold(name), lang)
            )
            for lang in LANGUAGES
        }

    def words_of(self, rule: str, lang: str) -> frozenset[str]:
        """The stemmed words of one rule in one language."""
        names = list(self._word_number[lang])
        return frozenset(names[i] for i in self._numbers_of(rule, lang))

    def _numbers_of(self, rule: str, lang: str) -> set[int]:
        indptr, word_of = self._rule_words[lang]
        i = self._rule_number[rule]
        return set(word_of[indptr[i] : indptr[i + 1]].tolist())

    def question_words(self, tokens: list[str], lang: str) -> dict[str, float]:
        """The question's distinct content words and their weights."""
        idf = self.idf.get(lang, {})
        games = self._game_words.get(lang, frozenset())
        return {t: idf.get(t, self._unknown_idf) for t in dict.fromkeys(tokens) if t not in games}

    def coverage(
        self, weights: dict[str, float], lang: str, rule: str, rival: str | None = None
    ) -> Coverage:
        """How much of the weighted question `rule` covers, and covers unlike `rival`."""
        total = sum(weights.values())
        if not total:
            return Coverage(0.0, 0.0, 0.0)
        # Word numbers (None for a word no record holds) against the rules' number sets.
        number = self._word_number[lang]
        tokens = {t: number.get(t) for t in weights}
        mine = self._numbers_of(rule, lang)
        theirs = self._numbers_of(rival, lang) if rival else set()
        idf = self.idf.get(lang, {})
        covered = sum(w for t, w in weights.items() if tokens[t] in mine)
        distinct = sum(
            w for t, w in weights.items() if tokens[t] in mine and tokens[t] not in theirs
        )
        unknown = sum(w for t, w in weights.items() if t not in idf)
        return Coverage(covered / total, distinct / total, unknown / total)
