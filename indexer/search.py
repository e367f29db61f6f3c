"""Hybrid search over the archive: dense vectors, BM25 and exact card lookup, fused by RRF.

Each signal covers what the others miss: the multilingual embedding matches meaning across
languages (every ruling is indexed in all seven), BM25 matches the exact game terms and names
players type, and the card lookup catches "item 225" or a misspelt card name outright. The
ranks are fused with reciprocal-rank fusion, filtered by game when the question names one,
and collapsed to one hit per ruling (language versions and linked editions), preferring the
version in the asker's language. A separate decision says whether the best hit answers at all.

``Searcher.search`` runs named stages, each a method the bench times on its own:
``analyse`` -> ``dense`` / ``lexical`` / ``card_signal`` -> ``fuse`` -> ``collapse`` -> ``decide``.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass, field

import numpy as np

from indexer.archive import Archive
from indexer.decline import DeclineModel, Features
from indexer.embedder import Embedder, encode_queries
from indexer.index import VectorIndex, passage_text
from indexer.question import Question, QuestionReader
from indexer.text import tokenize

log = logging.getLogger(__name__)

RRF_K = 60
DENSE_CANDIDATES = 400
# Fusion weights: the card lookup is near-certain when it fires, so it dominates; BM25 over
# the asker-language text is slightly more precise than dense when the two disagree on the top
# two (dev: hit@1 0.94 with 1.2 vs 0.90 with 1.0), so it breaks their ties.
WEIGHTS = {"dense": 1.0, "bm25": 1.2, "card": 2.0}


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
    """Per-record raw scores from each signal, for fusion and for the decline model."""

    dense: dict[str, float] = field(default_factory=dict)
    bm25: dict[str, float] = field(default_factory=dict)
    card: dict[str, float] = field(default_factory=dict)


class Searcher:
    """Search over one archive with one index and one embedder."""

    def __init__(self, archive: Archive, index: VectorIndex, embedder: Embedder,
                 decline: DeclineModel | None = None, reader: QuestionReader | None = None):
        import bm25s

        self.archive = archive
        self.index = index
        self.embedder = embedder
        self.decline = decline or DeclineModel.default()
        self.reader = reader or QuestionReader(archive)
        self.cards = self.reader.cards
        self._row_record = [p.record for p in index.passages]
        corpus = [tokenize(passage_text(archive.records[p.record], p.lang), p.lang)
                  for p in index.passages]
        logging.getLogger("bm25s").setLevel(logging.WARNING)  # it logs each build at DEBUG
        self.bm25 = bm25s.BM25()
        self.bm25.index(corpus, show_progress=False)
        # Linked editions of one rule (fh-nl-N / fh-it-N) are one candidate for every signal,
        # so a rule is not ranked twice and does not push others down a place.
        self._canonical = {rid: archive.edition_group(rid)[0] for rid in archive.records}
        # The candidates of each game, computed once. A question naming no game is about the
        # implied games (Frosthaven, Gloomhaven): another game's ruling (a FAQ example about
        # Catan) answers only a question that names that game.
        self._of_game = {game: frozenset(self._canonical[r] for r, rec in archive.records.items()
                                         if rec.game == game) for game in archive.games}
        self._implied = frozenset().union(*(self._of_game[g.id] for g in archive.games.values()
                                            if g.implied))

    # -- the stages ------------------------------------------------------------------------
    def analyse(self, question: str, *, game: str | None = None,
                lang: str | None = None) -> Question:
        """Language, games named, leading label, cards: read once, used by every stage."""
        return self.reader.read(question, game=game, lang=lang)

    def allowed(self, q: Question) -> frozenset[str]:
        """The candidate rulings: those of the question's game; of the games it names when it
        names several; of the implied games when it names none."""
        if q.game is not None:
            return self._of_game.get(q.game, frozenset())
        if q.games_named:
            return frozenset().union(*(self._of_game[g] for g in q.games_named))
        return self._implied

    def dense(self, q: Question, allowed: frozenset[str]) -> dict[str, float]:
        """Best cosine per rule over every language version (one question embedding)."""
        qvec = encode_queries(self.embedder, [q.body])
        # Enough neighbours for every language version of the top rulings; asking an ANN index
        # for all rows would turn it back into a full scan.
        scores, rows = self.index.search(qvec, min(len(self._row_record), DENSE_CANDIDATES))
        out: dict[str, float] = {}
        for score, row in zip(scores[0], rows[0]):
            if row < 0:
                continue
            rid = self._canonical[self._row_record[row]]
            if rid in allowed and score > out.get(rid, -1.0):
                out[rid] = float(score)
        return out

    def lexical(self, q: Question, allowed: frozenset[str]) -> dict[str, float]:
        """Best BM25 score per rule, the question tokenised in its own language."""
        out: dict[str, float] = {}
        if not q.tokens:
            return out
        bm = self.bm25.get_scores(q.tokens)
        for row in np.nonzero(bm > 0)[0]:
            rid = self._canonical[self._row_record[row]]
            if rid in allowed and bm[row] > out.get(rid, 0.0):
                out[rid] = float(bm[row])
        return out

    def card_signal(self, q: Question, allowed: frozenset[str]) -> dict[str, float]:
        """The rulings about the cards the question names."""
        out: dict[str, float] = {}
        for rid, score in q.cards.items():
            rid = self._canonical[rid]
            if rid in allowed:
                out[rid] = max(score, out.get(rid, 0.0))
        return out

    def signals(self, q: Question) -> Signals:
        """Raw per-record scores of each signal, over the question's candidates only."""
        allowed = self.allowed(q)
        return Signals(dense=self.dense(q, allowed), bm25=self.lexical(q, allowed),
                       card=self.card_signal(q, allowed))

    def collapse(self, fused: dict[str, float], sig: Signals, lang: str, k: int) -> list[Hit]:
        """One hit per rule, showing the asker's edition when there is one."""
        hits: list[Hit] = []
        for rid in sorted(fused, key=lambda r: (-fused[r], r))[:max(k, 2)]:
            group = self.archive.edition_group(rid)
            shown = next((m for m in group if self.archive.records[m].lang == lang), rid)
            hits.append(Hit(shown, fused[rid], sig.dense.get(rid, 0.0), group))
        return hits

    def decide(self, q: Question, sig: Signals, fused: dict[str, float],
               hits: list[Hit]) -> tuple[bool, str, Features]:
        """Whether the best hit answers the question: (declined, reason, the evidence)."""
        features = Features.from_signals(sig, fused, [h.group for h in hits],
                                         other_game=q.other_game is not None)
        declined, reason = self.decline.decide(features)
        return declined, reason, features

    # -- the whole search ------------------------------------------------------------------
    def search(self, question: str, *, game: str | None = None, lang: str | None = None,
               k: int = 3) -> SearchResult:
        """The k best rulings for a question, and whether to decline."""
        q = self.analyse(question, game=game, lang=lang)
        return self.search_question(q, k=k)

    def search_question(self, q: Question, *, k: int = 3) -> SearchResult:
        """Search for an analysed question."""
        sig = self.signals(q)
        fused = fuse(sig)
        hits = self.collapse(fused, sig, q.lang, k)
        game = q.game
        if game is None and hits and self.archive.records[hits[0].record_id].game in q.games_named:
            game = self.archive.records[hits[0].record_id].game  # several named: the one answered
        declined, reason, features = self.decide(q, sig, fused, hits)
        return SearchResult(q.text, q.lang, game, declined, hits, reason, features)


def fuse(sig: Signals) -> dict[str, float]:
    """Reciprocal-rank fusion of the three signals (higher is better)."""
    fused: dict[str, float] = {}
    for name, scores in (("dense", sig.dense), ("bm25", sig.bm25), ("card", sig.card)):
        ranked = sorted(scores, key=lambda r: (-scores[r], r))
        for rank, rid in enumerate(ranked):
            fused[rid] = fused.get(rid, 0.0) + WEIGHTS[name] / (RRF_K + rank + 1)
    return fused
