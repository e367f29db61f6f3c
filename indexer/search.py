"""Hybrid search over the archive: dense vectors, BM25 and exact card lookup, fused by RRF.

Each signal covers what the others miss: the multilingual embedding matches meaning across
languages (every ruling is indexed in all seven), BM25 matches the exact game terms and names
players type, and the card lookup catches "item 225" or a misspelt card name outright. The
ranks are fused with reciprocal-rank fusion, filtered by game when the question names one,
and collapsed to one hit per ruling (language versions and linked editions), preferring the
version in the asker's language. A separate decision says whether the best hit answers at all.
"""
from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from indexer.archive import LANGUAGES, Archive, fold
from indexer.decline import DeclineModel, Features
from indexer.embedder import Embedder, encode_queries
from indexer.index import VectorIndex, passage_text
from indexer.language import detect_language

log = logging.getLogger(__name__)

RRF_K = 60
DENSE_CANDIDATES = 400
# Fusion weights: the card lookup is near-certain when it fires, so it dominates; BM25 over
# the asker-language text is slightly more precise than dense when the two disagree on the top
# two (dev: hit@1 0.94 with 1.2 vs 0.90 with 1.0), so it breaks their ties.
WEIGHTS = {"dense": 1.0, "bm25": 1.2, "card": 2.0}
STEMMERS = {"en": "english", "nl": "dutch", "da": "danish", "it": "italian", "de": "german",
            "es": "spanish", "fr": "french"}
WORD = re.compile(r"\w+", re.UNICODE)
# Card names too common as words to count as a lookup on their own.
GENERIC_CARD_NAMES = {"null"}


@dataclass(frozen=True)
class Hit:
    """One ruling in the results: the record shown (asker's edition preferred) and its score."""

    record_id: str
    score: float
    dense: float
    group: tuple[str, ...]


@dataclass(frozen=True)
class SearchResult:
    question: str
    lang: str
    game: str | None
    declined: bool
    hits: list[Hit]
    reason: str
    features: Features | None = None


@dataclass
class Signals:
    """Per-record ranks and raw scores from each signal, for fusion and for the decline model."""

    dense: dict[str, float] = field(default_factory=dict)
    bm25: dict[str, float] = field(default_factory=dict)
    card: dict[str, float] = field(default_factory=dict)


@lru_cache(maxsize=8)
def _stemmer(lang: str):
    import Stemmer

    return Stemmer.Stemmer(STEMMERS.get(lang, "english"))


@lru_cache(maxsize=8)
def _stopwords(lang: str) -> frozenset[str]:
    import bm25s.stopwords as sw

    table = {"en": sw.STOPWORDS_EN, "nl": sw.STOPWORDS_DUTCH, "da": sw.STOPWORDS_DANISH,
             "it": sw.STOPWORDS_ITALIAN, "de": sw.STOPWORDS_GERMAN, "es": sw.STOPWORDS_SPANISH,
             "fr": sw.STOPWORDS_FRENCH}
    return frozenset(fold(w) for w in table.get(lang, ()))


def tokenize(text: str, lang: str) -> list[str]:
    """Folded, stop-word-free, stemmed tokens; numbers kept without leading zeros."""
    stop = _stopwords(lang)
    words = [w for w in WORD.findall(fold(text)) if w not in stop]
    words = [w.lstrip("0") or "0" if w.isdigit() else w for w in words]
    return _stemmer(lang).stemWords(words)


class CardLookup:
    """Finds the cards, items, monsters and classes a text names, forgivingly."""

    def __init__(self, archive: Archive):
        self.entries: list[tuple[str, str, str]] = []  # (folded name, record id, label)
        for rec in archive.records.values():
            for card in rec.cards:
                self.entries.append((fold(card.name), rec.id, card.label))
                if card.of:
                    self.entries.append((fold(f"{card.of} {card.name}"), rec.id, card.label))

    def names(self) -> list[str]:
        return sorted({label for _, _, label in self.entries})

    def match(self, text: str, *, min_score: float = 88.0) -> dict[str, float]:
        """Record id -> match score (0..100) of the best card the text names."""
        from rapidfuzz import fuzz

        folded = fold(text)
        numbers = {n.lstrip("0") or "0" for n in re.findall(r"\d+", folded)}
        scores: dict[str, float] = {}
        for name, rid, _ in self.entries:
            if name.isdigit():
                score = 100.0 if name.lstrip("0") in numbers else 0.0
            elif name in GENERIC_CARD_NAMES:
                score = 0.0  # "null" in a question is a word, not a lookup
            elif len(name) < 4:  # too short to match fuzzily: whole words only
                score = 100.0 if re.search(rf"\b{re.escape(name)}\b", folded) else 0.0
            else:
                score = fuzz.partial_ratio(name, folded) if len(folded) >= len(name) - 1 else fuzz.ratio(name, folded)
            if score >= min_score:
                scores[rid] = max(scores.get(rid, 0.0), score)
        return scores

    def query(self, text: str, *, min_score: float = 75.0) -> dict[str, float]:
        """For a card-name query (not a question): record id -> score, forgiving typos.

        Numbers match exactly ("item 225", "itme 225" and "225" find item 225); names match
        fuzzily, whatever the case and accents.
        """
        from rapidfuzz import fuzz, utils

        folded = fold(text).strip()
        numbers = {n.lstrip("0") or "0" for n in re.findall(r"\d+", folded)}
        scores: dict[str, float] = {}
        for name, rid, _ in self.entries:
            if name.isdigit():
                score = 100.0 if name.lstrip("0") in numbers else 0.0
            elif numbers and not re.search(r"[^\W\d_]{3,}", re.sub(r"\d+", "", folded).replace("item", "")):
                score = 0.0  # a bare number names no card by name
            else:
                score = max(fuzz.WRatio(folded, name, processor=utils.default_process),
                            fuzz.ratio(folded, name))
            if score >= min_score:
                scores[rid] = max(scores.get(rid, 0.0), score)
        return scores


class Searcher:
    """Search over one archive with one index and one embedder."""

    def __init__(self, archive: Archive, index: VectorIndex, embedder: Embedder,
                 decline: DeclineModel | None = None):
        import bm25s

        self.archive = archive
        self.index = index
        self.embedder = embedder
        self.decline = decline or DeclineModel.default()
        self.cards = CardLookup(archive)
        self._row_record = [p.record for p in index.passages]
        corpus = [tokenize(passage_text(archive.records[p.record], p.lang), p.lang)
                  for p in index.passages]
        logging.getLogger("bm25s").setLevel(logging.WARNING)  # it logs each build at DEBUG
        self._bm25 = bm25s.BM25()
        self._bm25.index(corpus, show_progress=False)
        self._game_names = archive.game_names()
        self._game_hints = self._unique_card_games()
        self._other_games = [fold(g) for g in archive.other_games]
        # Linked editions of one rule (fh-nl-N / fh-it-N) are one candidate for every signal,
        # so a rule is not ranked twice and does not push others down a place.
        self._canonical = {rid: archive.edition_group(rid)[0] for rid in archive.records}
        # The candidates per game filter (None: every game), computed once.
        self._allowed: dict[str | None, frozenset[str]] = {None: frozenset(self._canonical.values())}
        for game in archive.games:
            self._allowed[game] = frozenset(self._canonical[r] for r, rec in archive.records.items()
                                            if rec.game == game)

    # -- question analysis -------------------------------------------------------------
    def _unique_card_games(self) -> dict[str, str]:
        """Folded class / monster names that exist in only one game -> that game."""
        owners: dict[str, set[str]] = {}
        for rec in self.archive.records.values():
            for card in rec.cards:
                if card.type in ("class", "monster"):
                    owners.setdefault(fold(card.name), set()).add(rec.game)
        return {name: games.pop() for name, games in owners.items() if len(games) == 1}

    def games_named(self, question: str) -> list[tuple[int, int, str]]:
        """(start, end, game) of every game the question names, by name, alias or a class or
        monster only that game has, in order of appearance."""
        folded = fold(question)
        found: list[tuple[int, int, str]] = []
        for name, game in {**self._game_hints, **self._game_names}.items():
            for m in re.finditer(rf"(?<!\w){re.escape(name)}(?!\w)", folded):
                found.append((m.start(), m.end(), game))
        return sorted(found)

    def detect_game(self, question: str) -> str | None:
        """The one game the question names; None when it names none or several."""
        games = {g for _, _, g in self.games_named(question)}
        return games.pop() if len(games) == 1 else None

    def strip_game_label(self, question: str) -> str:
        """Drop a leading "Frosthaven:" / "FH -" label: the game is a filter, not text to match."""
        folded = fold(question)
        for name in sorted(self._game_names, key=len, reverse=True):
            m = re.match(rf"\s*{re.escape(name)}\s*[:;,.\-–—]+\s*", folded)
            if m and len(folded) > m.end():
                # Folding keeps the length of these texts' characters, so the offset carries over.
                return question[m.end():] if len(folded) == len(question) else question
        return question

    def names_other_game(self, question: str) -> str | None:
        folded = fold(question)
        for name in self._other_games:
            if re.search(rf"(?<!\w){re.escape(name)}(?!\w)", folded):
                return name
        return None

    # -- the search itself ---------------------------------------------------------------
    def signals(self, question: str, lang: str, allowed: set[str]) -> Signals:
        """Raw per-record scores of each signal, over the allowed records only."""
        sig = Signals()
        canon = self._canonical
        qvec = encode_queries(self.embedder, [question])
        # Enough neighbours for every language version of the top rulings; asking an ANN index
        # for all rows would turn it back into a full scan.
        scores, rows = self.index.search(qvec, min(len(self._row_record), DENSE_CANDIDATES))
        for score, row in zip(scores[0], rows[0]):
            if row < 0:
                continue
            rid = canon[self._row_record[row]]
            if rid not in allowed:
                continue
            if score > sig.dense.get(rid, -1.0):
                sig.dense[rid] = float(score)
        tokens = tokenize(question, lang)
        if tokens:
            bm = self._bm25.get_scores(tokens)
            for row in np.nonzero(bm > 0)[0]:
                rid = canon[self._row_record[row]]
                if rid in allowed and bm[row] > sig.bm25.get(rid, 0.0):
                    sig.bm25[rid] = float(bm[row])
        for rid, score in self.cards.match(question).items():
            rid = canon[rid]
            if rid in allowed:
                sig.card[rid] = max(score, sig.card.get(rid, 0.0))
        return sig

    def search(self, question: str, *, game: str | None = None, lang: str | None = None,
               k: int = 3) -> SearchResult:
        """The k best rulings for a question, and whether to decline."""
        lang = lang if lang in LANGUAGES else detect_language(question)
        named = self.games_named(question)
        named_games = {g for _, _, g in named}
        if game is None and len(named_games) == 1:
            game = named_games.pop()
        allowed = self._allowed.get(game, frozenset())
        sig = self.signals(self.strip_game_label(question), lang, allowed)
        fused = fuse(sig)
        hits = self._collapse(fused, sig, lang, k)
        if game is None and hits and self.archive.records[hits[0].record_id].game in named_games:
            game = self.archive.records[hits[0].record_id].game  # several named: the one answered
        features = Features.from_signals(sig, fused, [h.group for h in hits],
                                         other_game=self.names_other_game(question) is not None)
        declined, reason = self.decline.decide(features)
        return SearchResult(question, lang, game, declined, hits, reason, features)

    def _collapse(self, fused: dict[str, float], sig: Signals, lang: str, k: int) -> list[Hit]:
        """One hit per rule, showing the asker's edition when there is one."""
        hits: list[Hit] = []
        for rid in sorted(fused, key=lambda r: (-fused[r], r))[:max(k, 2)]:
            group = self.archive.edition_group(rid)
            shown = next((m for m in group if self.archive.records[m].lang == lang), rid)
            hits.append(Hit(shown, fused[rid], sig.dense.get(rid, 0.0), group))
        return hits


def fuse(sig: Signals) -> dict[str, float]:
    """Reciprocal-rank fusion of the three signals (higher is better)."""
    fused: dict[str, float] = {}
    for name, scores in (("dense", sig.dense), ("bm25", sig.bm25), ("card", sig.card)):
        ranked = sorted(scores, key=lambda r: (-scores[r], r))
        for rank, rid in enumerate(ranked):
            fused[rid] = fused.get(rid, 0.0) + WEIGHTS[name] / (RRF_K + rank + 1)
    return fused
