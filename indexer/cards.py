"""Card, item, monster and class names: which rulings a text or a card query names.

Numbers match exactly ("item 225", "itme 225" and "225" find item 225); names match
fuzzily (rapidfuzz), whatever the case and accents. Used by search (a named card is strong
evidence) and by the catalogue (errata by card), both through this one matcher.
"""
from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass

from indexer.archive import Archive
from indexer.text import WORD, fold, numbers_in

# Card names too common as words to count as a lookup on their own.
GENERIC_CARD_NAMES = frozenset({"null"})
# Names this short match whole words only: fuzzily, "ice" would be found inside "nice".
MIN_FUZZY_LENGTH = 4


@dataclass(frozen=True)
class CardName:
    folded: str
    record: str
    label: str


class CardLookup:
    """Finds the cards, items, monsters and classes a text names, forgivingly."""

    def __init__(self, archive: Archive):
        names: list[CardName] = []
        for rec in archive.records.values():
            for card in rec.cards:
                names.append(CardName(fold(card.name), rec.id, card.label))
                if card.of:
                    names.append(CardName(fold(f"{card.of} {card.name}"), rec.id, card.label))
        self.entries = names
        self._numbers: dict[str, list[CardName]] = defaultdict(list)
        self._short: dict[str, list[CardName]] = defaultdict(list)
        self._fuzzy: list[CardName] = []
        for entry in names:
            if entry.folded.isdigit():
                self._numbers[entry.folded.lstrip("0") or "0"].append(entry)
            elif entry.folded in GENERIC_CARD_NAMES:
                continue
            elif len(entry.folded) < MIN_FUZZY_LENGTH:
                self._short[entry.folded].append(entry)
            else:
                self._fuzzy.append(entry)
        self._fuzzy_names = [e.folded for e in self._fuzzy]

    def names(self) -> list[str]:
        """Every card label, sorted."""
        return sorted({e.label for e in self.entries})

    @staticmethod
    def _best(scores: dict[str, float], entry: CardName, score: float) -> None:
        if score > scores.get(entry.record, 0.0):
            scores[entry.record] = score

    def match_folded(self, folded: str, *, min_score: float = 88.0) -> dict[str, float]:
        """Record id -> score (0..100) of the best card an already folded text names."""
        from rapidfuzz import fuzz, process

        scores: dict[str, float] = {}
        for number in numbers_in(folded):
            for entry in self._numbers.get(number, ()):
                self._best(scores, entry, 100.0)
        words = set(WORD.findall(folded))
        for name, entries in self._short.items():
            if name in words or (" " in name and re.search(rf"\b{re.escape(name)}\b", folded)):
                for entry in entries:
                    self._best(scores, entry, 100.0)
        # A name longer than the text is compared whole; otherwise the best-matching part.
        for _, score, i in process.extract(folded, self._fuzzy_names, scorer=fuzz.partial_ratio,
                                           score_cutoff=min_score, limit=None):
            entry = self._fuzzy[i]
            if len(folded) < len(entry.folded) - 1:
                score = fuzz.ratio(entry.folded, folded)
                if score < min_score:
                    continue
            self._best(scores, entry, score)
        return scores

    def match(self, text: str, *, min_score: float = 88.0) -> dict[str, float]:
        """Record id -> match score (0..100) of the best card the text names."""
        return self.match_folded(fold(text), min_score=min_score)

    def query(self, text: str, *, min_score: float = 75.0) -> dict[str, float]:
        """For a card-name query (not a question): record id -> score, forgiving typos."""
        from rapidfuzz import fuzz, process, utils

        folded = fold(text).strip()
        numbers = numbers_in(folded)
        scores: dict[str, float] = {}
        for number in numbers:
            for entry in self._numbers.get(number, ()):
                self._best(scores, entry, 100.0)
        # A bare number ("225", "item 225") names no card by its name.
        if numbers and not re.search(r"[^\W\d_]{3,}", re.sub(r"\d+", "", folded).replace("item", "")):
            return scores
        named = [e for e in self.entries if not e.folded.isdigit()]
        choices = [e.folded for e in named]
        best = process.cdist([folded], choices, scorer=fuzz.WRatio,
                             processor=utils.default_process)[0]
        plain = process.cdist([folded], choices, scorer=fuzz.ratio)[0]
        for entry, a, b in zip(named, best, plain):
            score = float(max(a, b))
            if score >= min_score:
                self._best(scores, entry, score)
        return scores
