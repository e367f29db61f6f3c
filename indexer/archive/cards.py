"""Card, item, monster and class names: which rulings a text or a card query names.

Numbers match exactly ("item 225", "itme 225" and "225" find item 225); names match
fuzzily (rapidfuzz), whatever the case and accents. Used by search (a named card is strong
evidence) and by the catalogue (errata by card), both through this one matcher.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from indexer.archive.schema import Archive
from indexer.text import WORD, fold, numbers_in

# Card names too common as words to count as a lookup on their own.
GENERIC_CARD_NAMES = frozenset({"null"})
# Names this short match whole words only: fuzzily, "ice" would be found inside "nice".
MIN_FUZZY_LENGTH = 4
# The candidate filter below is proven for scores of at least this much (the ask path's 88).
NAME_INDEX_MIN_SCORE = 88.0


def _bigrams(text: str) -> set[str]:
    return {text[j : j + 2] for j in range(len(text) - 1)}


class NameIndex:
    """The names a text may match at a fuzzy score (``partial_ratio``) of 88 or more, found
    without comparing the text with every name; only these candidates are then scored, by the
    same rapidfuzz scorer as before (a test checks the results equal scoring every name).

    Why no match is lost. A name of length L matching a window of the text of length m at
    ``ratio`` >= 88 shares c >= 0.88 (L + m) / 2 characters with it (a common subsequence).
    Each of the name's L - c unmatched characters breaks at most two of its L - 1 bigrams, each
    unmatched character of the window at most one more, so at least 3c - L - m - 1 of the
    name's bigram positions occur in the window.

    * A window as long as the name (anywhere in the text): c >= ceil(0.88 L), so names of at
      most 8 characters occur exactly (a substring lookup) and longer ones have at least
      3c - 2L - 1 bigrams in the window. Names are bucketed by length (longest `lmax`); each
      such window lies inside one chunk ``text[k * lmax : k * lmax + 2 * lmax]``, and the
      bigrams are counted per chunk.
    * A shorter window exists only at the text's start or end (or the text is shorter than
      the name): then m >= 0.78 L and at least 0.57 L - 1.6 bigram positions occur in the
      first or last `lmax` characters, counted there.

    Counts are of distinct bigrams, less the name's repeated ones; each bound is rounded toward
    admitting more names. A chunk's bigrams are among the whole text's, so a name passing in
    some chunk passes on the whole text: that one count per bucket picks the few names whose
    chunks are then counted, each against its own bigrams (``_in_a_chunk``).
    """

    EXACT_UP_TO = 8
    BUCKETS = (4, 9, 13, 19, 28, 42)

    def __init__(self, names: list[str]):
        self._exact: dict[int, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
        self._buckets = []
        lengths = np.array([len(n) for n in names], dtype=np.int32)
        edges = list(self.BUCKETS) + [max(lengths.max(initial=0) + 1, self.BUCKETS[-1] + 1)]
        for i, name in enumerate(names):
            if len(name) <= self.EXACT_UP_TO:
                self._exact[len(name)][name].append(i)
        for lo, hi in zip(edges, edges[1:]):
            ids = np.nonzero((lengths >= lo) & (lengths < hi))[0]
            if not len(ids):
                continue
            postings: dict[str, list[int]] = defaultdict(list)
            strong = np.empty(len(ids), dtype=np.int32)
            weak = np.empty(len(ids), dtype=np.int32)
            # Each name's distinct bigrams as numbers (CSR: `starts`, `grams`), for the
            # per-chunk counts of the few names that pass on the whole text.
            numbers: dict[str, int] = {}
            flat: list[int] = []
            starts = np.zeros(len(ids) + 1, dtype=np.int64)
            for local, k in enumerate(ids):
                name = names[k]
                grams = _bigrams(name)
                for gram in grams:
                    postings[gram].append(local)
                    flat.append(numbers.setdefault(gram, len(numbers)))
                starts[local + 1] = len(flat)
                size = len(name)
                repeated = (size - 1) - len(grams)
                matched = math.ceil(0.88 * size - 0.01)
                # 3c - 2L - 1 bigram positions of a whole-length window, 0.5714 (L - 1) - 1 of
                # an edge window (rounded down: 0.5714 L - 1.58); less the repeated bigrams.
                strong[local] = 3 * matched - 2 * size - 1 - repeated
                weak[local] = math.ceil(0.5714 * size - 1.58) - repeated
            exact_only = hi - 1 <= self.EXACT_UP_TO
            self._buckets.append(
                (
                    int(lengths[ids].max()),
                    ids,
                    {g: np.asarray(v, dtype=np.int32) for g, v in postings.items()},
                    None if exact_only else strong,
                    weak,
                    (numbers, starts, np.asarray(flat, dtype=np.int64)),
                )
            )

    @staticmethod
    def _counts(postings: dict, chunk: str, size: int) -> np.ndarray:
        """Per name (local index), how many of its bigrams occur in `chunk`."""
        hits = [postings[g] for g in _bigrams(chunk) if g in postings]
        if not hits:
            return np.zeros(size, dtype=np.int64)
        return np.bincount(np.concatenate(hits), minlength=size)

    @classmethod
    def _passing(cls, postings: dict, chunk: str, needed: np.ndarray) -> np.ndarray:
        """Local indexes of the names with at least `needed` of their bigrams in `chunk`."""
        return np.flatnonzero(cls._counts(postings, chunk, len(needed)) >= needed)

    @staticmethod
    def _in_a_chunk(
        maybe: np.ndarray,
        chunks: list[str],
        text: str,
        needed: np.ndarray,
        grams: tuple[dict[str, int], np.ndarray, np.ndarray],
    ) -> np.ndarray:
        """Those of the names `maybe` (local indexes, passing on the whole `text`) with at
        least `needed` of their bigrams in one of the chunks of `text`."""
        if not len(maybe) or text in chunks:
            return maybe
        numbers, starts, flat = grams
        held = np.zeros((len(chunks), len(numbers)), dtype=bool)
        for row, chunk in enumerate(chunks):
            held[row, [numbers[g] for g in _bigrams(chunk) if g in numbers]] = True
        sizes = starts[maybe + 1] - starts[maybe]
        first = np.cumsum(sizes) - sizes
        own = flat[np.repeat(starts[maybe] - first, sizes) + np.arange(int(sizes.sum()))]
        counts = np.add.reduceat(held[:, own], first, axis=1, dtype=np.int64)
        return maybe[(counts >= needed[maybe]).any(axis=0)]

    def candidates(self, text: str) -> np.ndarray:
        """Indexes (ascending, distinct) of the names that may match `text` at 88 or more."""
        found: list = []
        for size, by_name in self._exact.items():
            for j in range(len(text) - size + 1):
                exact = by_name.get(text[j : j + size])
                if exact:
                    found.append(np.asarray(exact, dtype=np.int64))
        for lmax, ids, postings, strong, weak, grams in self._buckets:
            edges = list(dict.fromkeys((text[:lmax], text[-lmax:])))
            if strong is None:  # short names: their edge chunks are small, counted directly
                found += [ids[self._passing(postings, chunk, weak)] for chunk in edges]
                continue
            whole = self._counts(postings, text, len(weak))
            found.append(
                ids[self._in_a_chunk(np.flatnonzero(whole >= weak), edges, text, weak, grams)]
            )
            if text:
                chunks = [text[start : start + 2 * lmax] for start in range(0, len(text), lmax)]
                maybe = np.flatnonzero(whole >= strong)
                found.append(ids[self._in_a_chunk(maybe, chunks, text, strong, grams)])
        if not found:
            return np.zeros(0, dtype=np.int64)
        return np.unique(np.concatenate(found))


@dataclass(frozen=True)
class CardName:
    folded: str
    record: str
    label: str


class CardLookup:
    """Finds the cards, items, monsters and classes a text names, forgivingly."""

    def __init__(self, archive: Archive):
        """Every card of the archive, matched to the rulings about it."""
        names: list[CardName] = []
        for rec in archive.records.values():
            for card in rec.cards:
                names.append(CardName(fold(card.name), rec.id, card.label))
                if card.of:
                    names.append(CardName(fold(f"{card.of} {card.name}"), rec.id, card.label))
        self._index(names)

    @classmethod
    def of_labels(cls, archive: Archive) -> "CardLookup":
        """Every card of the archive matched to its own label ("Item 225", "Algox Archer
        “X”"), by its name, its monster or class and name, and its label: the matcher
        card-name suggestions rank with (its "records" are the labels)."""
        names: list[CardName] = []
        for rec in archive.records.values():
            for card in rec.cards:
                names.append(CardName(fold(card.name), card.label, card.label))
                if card.of:
                    names.append(CardName(fold(f"{card.of} {card.name}"), card.label, card.label))
                names.append(CardName(fold(card.label), card.label, card.label))
        lookup = cls.__new__(cls)
        lookup._index(names)
        return lookup

    def _index(self, names: list[CardName]) -> None:
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
        self._names = NameIndex(self._fuzzy_names)
        self._short_words = {n: e for n, e in self._short.items() if " " not in n}
        self._short_phrases = {n: e for n, e in self._short.items() if " " in n}

    def names(self) -> list[str]:
        """Every card label, sorted."""
        return sorted({e.label for e in self.entries})

    @staticmethod
    def _best(scores: dict[str, float], entry: CardName, score: float) -> None:
        if score > scores.get(entry.record, 0.0):
            scores[entry.record] = score

    def match_folded(self, folded: str, *, min_score: float = 88.0) -> dict[str, float]:
        """Record id -> score (0..100) of the best card an already folded text names."""
        scores: dict[str, float] = {}
        for number in numbers_in(folded):
            for entry in self._numbers.get(number, ()):
                self._best(scores, entry, 100.0)
        words = set(WORD.findall(folded))
        # A one-word short name matches only as a word of the text; a short name with a space
        # as a whole-word phrase.
        for name in words & self._short_words.keys():
            for entry in self._short_words[name]:
                self._best(scores, entry, 100.0)
        for name, entries in self._short_phrases.items():
            if re.search(rf"\b{re.escape(name)}\b", folded):
                for entry in entries:
                    self._best(scores, entry, 100.0)
        rows = (
            self._names.candidates(folded)
            if min_score >= NAME_INDEX_MIN_SCORE
            else range(len(self._fuzzy))
        )
        self._fuzzy_scores(folded, rows, min_score, scores)
        return scores

    def match_folded_exhaustive(self, folded: str, *, min_score: float = 88.0) -> dict[str, float]:
        """`match_folded` comparing the text with every name (no candidate filter): the
        reference the filtered lookup must equal, and what a low `min_score` uses."""
        scores: dict[str, float] = {}
        for number in numbers_in(folded):
            for entry in self._numbers.get(number, ()):
                self._best(scores, entry, 100.0)
        words = set(WORD.findall(folded))
        for name, entries in self._short.items():
            if name in words or (" " in name and re.search(rf"\b{re.escape(name)}\b", folded)):
                for entry in entries:
                    self._best(scores, entry, 100.0)
        self._fuzzy_scores(folded, range(len(self._fuzzy)), min_score, scores)
        return scores

    def _fuzzy_scores(self, folded: str, rows, min_score: float, scores: dict[str, float]) -> None:
        """Score the fuzzy names at `rows` against the text into `scores`."""
        from rapidfuzz import fuzz, process

        names = (
            self._fuzzy_names if isinstance(rows, range) else [self._fuzzy_names[i] for i in rows]
        )
        # A name longer than the text is compared whole; otherwise the best-matching part.
        for _, score, i in process.extract(
            folded, names, scorer=fuzz.partial_ratio, score_cutoff=min_score, limit=None
        ):
            entry = self._fuzzy[rows[i]]
            if len(folded) < len(entry.folded) - 1:
                score = fuzz.ratio(entry.folded, folded)
                if score < min_score:
                    continue
            self._best(scores, entry, score)

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
        if numbers and not re.search(
            r"[^\W\d_]{3,}", re.sub(r"\d+", "", folded).replace("item", "")
        ):
            return scores
        named = [e for e in self.entries if not e.folded.isdigit()]
        choices = [e.folded for e in named]
        best = process.cdist(
            [folded], choices, scorer=fuzz.WRatio, processor=utils.default_process
        )[0]
        plain = process.cdist([folded], choices, scorer=fuzz.ratio)[0]
        for entry, a, b in zip(named, best, plain):
            score = float(max(a, b))
            if score >= min_score:
                self._best(scores, entry, score)
        return scores


def rule_card_names(archive: Archive, canonical: dict[str, str]) -> dict[str, set[str]]:
    """Each rule's card names, folded (`canonical`: record id -> its rule): a card named in a
    question is evidence that the ruling answers it only when the question is about that card
    (see `name_share`)."""
    out: dict[str, set[str]] = {}
    for rid, rec in archive.records.items():
        names = out.setdefault(canonical[rid], set())
        for card in rec.cards:
            names.update(
                fold(n)
                for n in (card.name, card.label, f"{card.of} {card.name}" if card.of else "")
            )
        names.discard("")
    return out


def name_share(names: Iterable[str], folded: str) -> float:
    """How much of a folded question is one of `names` (folded card names), 0..1: "item 225" or
    "chiling breth" are all card name; "how many cards does a Blinkblade hold?" names a class but
    asks about something else."""
    from rapidfuzz import fuzz

    body = " ".join(folded.split()).strip(" ?!.:")
    if not body:
        return 0.0
    named = [n for n in names if fuzz.partial_ratio(n, body) >= 88]
    return min(1.0, max((len(n) for n in named), default=0) / len(body))
