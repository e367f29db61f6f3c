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

import math
from dataclasses import dataclass

from indexer.archive import LANGUAGES, Archive
from indexer.index import passage_text
from indexer.text import fold, tokenize, tokens_of_folded


@dataclass(frozen=True)
class Coverage:
    covered: float      # IDF-weighted share of the question's words the rule holds (0..1)
    distinct: float     # share it holds and its strongest rival does not
    unknown: float      # share of the question's weight on words no rule holds


class RuleVocabulary:
    """Stemmed word sets per rule and language, with IDF weights per language."""

    def __init__(self, archive: Archive, canonical: dict[str, str], *, with_keys: bool = True):
        self.words: dict[str, dict[str, frozenset[str]]] = {}
        groups: dict[str, list[str]] = {}
        for rid, canon in canonical.items():
            groups.setdefault(canon, []).append(rid)
        for canon, members in groups.items():
            per_lang: dict[str, frozenset[str]] = {}
            # A record without a translation into a language is matched by its original there:
            # the same text in several languages, folded once.
            folded: dict[str, str] = {}
            for lang in LANGUAGES:
                words: set[str] = set()
                for rid in members:
                    rec = archive.records[rid]
                    text = passage_text(rec, lang)
                    if text not in folded:
                        folded[text] = fold(text)
                    words.update(tokens_of_folded(folded[text], lang))
                    for key in rec.asks.get(lang, ()) if with_keys else ():
                        words.update(tokenize(key, lang))
                per_lang[lang] = frozenset(words)
            self.words[canon] = per_lang
        self.idf: dict[str, dict[str, float]] = {}
        n = len(self.words)
        for lang in LANGUAGES:
            df: dict[str, int] = {}
            for per_lang in self.words.values():
                for word in per_lang[lang]:
                    df[word] = df.get(word, 0) + 1
            self.idf[lang] = {w: math.log((n + 1) / (c + 0.5)) for w, c in df.items()}
        self._unknown_idf = math.log((n + 1) / 0.5)
        # Game names say which game, not what is asked: they are filtered, not evidence.
        self._game_words = {lang: frozenset(w for g in archive.games.values()
                                            for name in (g.id, g.name, *g.aliases)
                                            for w in tokenize(fold(name), lang))
                            for lang in LANGUAGES}

    def question_words(self, tokens: list[str], lang: str) -> dict[str, float]:
        """The question's distinct content words and their weights."""
        idf = self.idf.get(lang, {})
        games = self._game_words.get(lang, frozenset())
        return {t: idf.get(t, self._unknown_idf) for t in dict.fromkeys(tokens) if t not in games}

    def coverage(self, weights: dict[str, float], lang: str, rule: str,
                 rival: str | None = None) -> Coverage:
        """How much of the weighted question `rule` covers, and covers unlike `rival`."""
        total = sum(weights.values())
        if not total:
            return Coverage(0.0, 0.0, 0.0)
        mine = self.words[rule][lang]
        theirs = self.words[rival][lang] if rival else frozenset()
        idf = self.idf.get(lang, {})
        covered = sum(w for t, w in weights.items() if t in mine)
        distinct = sum(w for t, w in weights.items() if t in mine and t not in theirs)
        unknown = sum(w for t, w in weights.items() if t not in idf)
        return Coverage(covered / total, distinct / total, unknown / total)
