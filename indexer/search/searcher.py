"""Hybrid search over the archive: candidates from several signals, a fitted reranker, and a
fitted decision whether the best one answers at all.

Each signal covers what the others miss: the multilingual embedding matches meaning across
languages (every ruling is indexed in each language it reads in, and so are its search keys:
the questions it answers), BM25 the exact game terms players type, the card lookup "item 225"
or a misspelt card name. The best few rules of each signal become candidates, described by
named features; a logistic reranker orders them and a second model says whether the best one
answers (``indexer.search.calibration``, fitted by ``indexer.search.fit``). Candidates
are filtered by game; linked editions are one candidate, shown in the asker's edition.

``Searcher.search`` runs named stages, each a method the bench times on its own:
``analyse`` -> ``dense`` / ``lexical`` / ``card_signal`` / ``adapted`` -> ``candidates`` ->
``rerank`` -> ``collapse`` -> ``decide``.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

import numpy as np

from indexer.archive.cards import name_share, rule_card_names
from indexer.archive.schema import Archive
from indexer.model.embedder import Embedder, encode_queries
from indexer.search.adapter import UncuratedRows
from indexer.search.bm25 import build_bm25
from indexer.search.calibration import (
    Calibration,
    saved_or_neutral_calibration,
    with_uncurated_signals,
)
from indexer.search.coverage import RuleVocabulary
from indexer.search.index import VectorIndex
from indexer.search.passages import bm25_rows
from indexer.search.question import Question, QuestionAnalyser
from indexer.search.results import CASE_KINDS, Candidate, Hit, SearchResult, Signals
from indexer.search.rulescores import RowGroups, RowLanguages, RuleScores, per_rule, scores_of
from indexer.search.rulescores import best as _best
from indexer.search.rulescores import top as _top

log = logging.getLogger(__name__)

DENSE_CANDIDATES = 400
CANDIDATES_PER_SIGNAL = 8
KEY_NEIGHBOURS = 10


class Searcher:
    """Search over one archive with one index, one embedder and one calibration."""

    def __init__(
        self,
        archive: Archive,
        index: VectorIndex,
        embedder: Embedder,
        calibration: Calibration | None = None,
        analyser: QuestionAnalyser | None = None,
        *,
        use_keys: bool = True,
    ):
        """`use_keys=False` ignores the search keys (the bench's ablation)."""
        self.archive = archive
        self.index = index
        self.embedder = embedder
        self.calibration = calibration or saved_or_neutral_calibration()
        built = (index.manifest.get("model"), index.manifest.get("backend"))
        fitted = (self.calibration.model, self.calibration.backend)
        if fitted[0] and fitted != built:
            # Cosines shift a little between backends (int8 most): the fit still ranks, but its
            # threshold was chosen for the other vectors.
            log.warning(
                "the calibration was fitted for %s/%s, the index is %s/%s; run `rulings calibrate`",
                *fitted,
                *built,
            )
        self.analyser = analyser or QuestionAnalyser(archive)
        self.cards = self.analyser.cards
        self.use_keys = use_keys
        # Linked editions of one rule (fh-nl-N / fh-it-N) are one candidate for every signal.
        self._canonical = {rid: archive.edition_group(rid)[0] for rid in archive.records}
        self._index_rows(index)
        self._bm25 = self._bm25_models(archive, index)
        self.vocabulary = RuleVocabulary(
            archive, self._canonical, with_keys=use_keys, saved=index.record_words
        )
        self._card_names = rule_card_names(archive, self._canonical)
        self._of_game = {
            game: frozenset(
                self._canonical[r] for r, rec in archive.records.items() if rec.game == game
            )
            for game in archive.games
        }
        # A question naming no game is about the implied games (Frosthaven, Gloomhaven):
        # another game's ruling (a FAQ example about Catan) answers only questions naming it.
        self._implied = frozenset().union(
            *(self._of_game[g.id] for g in archive.games.values() if g.implied)
        )
        self._of_games: dict[frozenset[str], frozenset[str]] = {}

    def _index_rows(self, index: VectorIndex) -> None:
        """Each index row's rule (as a number), whether it is a search key, and the rows of a
        flat index grouped by rule."""
        self._row_rule = [self._canonical[p.record] for p in index.passages]
        self._row_is_key = np.array([p.kind == "ask" for p in index.passages], dtype=bool)
        # Rules as integers, so a signal groups its rows per rule with numpy, not a Python
        # loop over every row (a flat index returns every row).
        self._rules = sorted(set(self._row_rule))
        self._rule_number = {rule: i for i, rule in enumerate(self._rules)}
        self._row_rule_ix = np.array([self._rule_number[r] for r in self._row_rule], dtype=np.int64)
        self._allowed_masks: dict[frozenset[str], np.ndarray] = {}
        # Each row's language, for scores fair to rulings without a text in the asker's language.
        self._languages = RowLanguages(
            [p.lang for p in index.passages], self._row_is_key, self._row_rule_ix, len(self._rules)
        )
        # A flat index scores every row: its rows grouped by rule, text and key rows apart,
        # so each rule's best row is found by one pass over them (`_every_row`).
        self._row_groups = (
            {
                kind: RowGroups(
                    np.flatnonzero(self._row_is_key == (kind == "ask")),
                    self._row_rule_ix,
                    self._rules,
                    self._rule_number,
                )
                for kind in ("text", "ask")
            }
            if index.manifest.get("index_type", "flat") == "flat"
            else None
        )
        # Rules with no search keys (a newly imported ruling nobody has written keys for yet).
        self._keyless = frozenset(self._row_rule) - {
            rule for rule, is_key in zip(self._row_rule, self._row_is_key) if is_key
        }
        self._keyless_ix = np.array(
            sorted(self._rule_number[r] for r in self._keyless), dtype=np.int64
        )
        self._uncurated_rows = UncuratedRows(
            self.calibration.adapter, index.vectors,
            np.isin(self._row_rule_ix, self._keyless_ix) & ~self._row_is_key,
            self._row_rule_ix, self._rules, self._rule_number,
        )  # fmt: skip

    def _bm25_models(
        self, archive: Archive, index: VectorIndex
    ) -> dict[str, tuple[Any, np.ndarray]]:
        """Per passage kind: its BM25 model (None without passages) and each document's rule.
        The models are saved with the index (tokenizing every passage is most of a start at
        scale); one missing there (an index built in memory) is built here."""
        models = {}
        for kind in ("text", "ask"):
            rows = np.array(
                bm25_rows(index.passages, kind) if self.use_keys or kind == "text" else [],
                dtype=np.int64,
            )
            bm25 = index.bm25.get(kind) if len(rows) else None
            if bm25 is None:
                bm25 = build_bm25(archive, index.passages, kind) if len(rows) else None
            models[kind] = (bm25, self._row_rule_ix[rows])
        return models

    # -- the stages ------------------------------------------------------------------------
    def analyse(self, question: str, **given: str | None) -> Question:
        """Language (`hint`: the reader's, a prior), games named, leading label, cards: read
        once, used by every stage. `given`: the caller's `game`, `lang` and `hint`."""
        return self.analyser.analyse(question, **given)

    def allowed(self, q: Question) -> frozenset[str]:
        """The candidate rules: those of the question's game; of the games it names when it
        names several; of the implied games when it names none."""
        if q.game is not None:
            return self._of_game.get(q.game, frozenset())
        if q.games_named:
            # Kept: the same set object for the same games, so its mask is found, not rebuilt.
            key = frozenset(q.games_named)
            if key not in self._of_games:
                self._of_games[key] = frozenset().union(*(self._of_game[g] for g in key))
            return self._of_games[key]
        return self._implied

    def _allowed_mask(self, allowed: frozenset[str]) -> np.ndarray:
        """`allowed` as a boolean array over the rule numbers (cached: a few sets recur)."""
        mask = self._allowed_masks.get(allowed)
        if mask is None:
            mask = np.fromiter(
                (r in allowed for r in self._rules), dtype=bool, count=len(self._rules)
            )
            if len(self._allowed_masks) < 64:
                self._allowed_masks[allowed] = mask
        return mask

    def question_vector(self, q: Question) -> np.ndarray:
        """The question's embedding, shape (1, dim): computed once per ask and handed to the
        stages that need it (the embedder's cache may be off)."""
        return encode_queries(self.embedder, [q.body])

    def dense(
        self, q: Question, allowed: frozenset[str], qvec: np.ndarray | None = None
    ) -> tuple[Mapping[str, float], Mapping[str, float], dict[str, float]]:
        """Per rule, from one embedding of the question (`qvec`, else embedded here): the best
        cosine over its texts, the best over its search keys, and its share of the question's
        KEY_NEIGHBOURS nearest keys (a question like the ones a ruling answers finds several of
        that ruling's keys)."""
        if qvec is None:
            qvec = self.question_vector(q)
        if self._row_groups is not None:
            # A flat index is scanned whole anyway: every row is scored, in row order.
            scores = self.index.all_scores(qvec[0])
            text, keys, votes = self._every_row(scores, allowed)
            if isinstance(text, RuleScores):
                text = self._languages.fair(text, scores, q.lang, self._allowed_mask(allowed))
            gap = self._languages.key_gap(scores, q.lang) if len(self._keyless_ix) else 0.0
            return text, self._with_keyless(text, keys, gap), votes
        # An ANN index is asked for enough neighbours for every version and key of the top
        # rulings (all rows would turn it back into a full scan).
        scores, rows = self.index.search(qvec, DENSE_CANDIDATES)
        rows, scores = rows[0], scores[0]
        found = rows >= 0
        rows, scores = rows[found], scores[found]
        rule = self._row_rule_ix[rows]
        is_key = self._row_is_key[rows]
        keep = self._allowed_mask(allowed)[rule]
        if not self.use_keys:
            keep &= ~is_key
        text_rows = keep & ~is_key
        key_rows = np.flatnonzero(keep & is_key)
        text = per_rule(
            self._rules, self._rule_number, rule[text_rows], scores[text_rows], first=True
        )
        keys = per_rule(
            self._rules, self._rule_number, rule[key_rows], scores[key_rows], first=True
        )
        return text, self._with_keyless(text, keys), self._votes(rule[key_rows[:KEY_NEIGHBOURS]])

    def _votes(self, nearest_key_rules: np.ndarray) -> dict[str, float]:
        """Each rule's share of the question's nearest keys (their rule numbers, nearest first)."""
        votes: dict[str, float] = {}
        for ix in nearest_key_rules.tolist():
            rid = self._rules[ix]
            votes[rid] = votes.get(rid, 0.0) + 1.0 / KEY_NEIGHBOURS
        return votes

    def _with_keyless(
        self, text: Mapping[str, float], keys: Mapping[str, float], gap: float = 0.0
    ) -> Mapping[str, float]:
        """`keys`, each keyless rule given its text score raised by `gap` (RowLanguages.key_gap)."""
        if (
            self.use_keys
            and len(self._keyless_ix)
            and isinstance(text, RuleScores)
            and np.isin(self._keyless_ix, text.rule_numbers(), assume_unique=True).any()
        ):
            # A keyless rule is matched by its texts in both places: it is not outranked for
            # lacking keys no one has written yet (every record of the curated archive has some,
            # so this rare case is done as a loop over the rules, in their order).
            keys = dict(keys.items())
            for rid in self._keyless.intersection(text):
                keys.setdefault(rid, text[rid] + gap)
        return keys

    def _every_row(
        self, scores: np.ndarray, allowed: frozenset[str]
    ) -> tuple[Mapping[str, float], Mapping[str, float], dict[str, float]]:
        """`dense`'s three signals from a flat index's cosines of every row (row order), equal
        to those of its search sorted best first: FAISS lists equal cosines by descending row,
        so a rule's first row there is its best, the highest-numbered among equals."""
        assert self._row_groups is not None  # only called for a flat index, which has them
        allowed_mask = self._allowed_mask(allowed)
        text = self._row_groups["text"].best_per_rule(scores, allowed_mask)
        if not self.use_keys:
            return text, {}, {}
        key_groups = self._row_groups["ask"]
        keys = key_groups.best_per_rule(scores, allowed_mask)
        return (
            text,
            keys,
            self._votes(
                self._row_rule_ix[key_groups.nearest(scores, allowed_mask, KEY_NEIGHBOURS)]
            ),
        )

    def lexical(
        self, q: Question, allowed: frozenset[str]
    ) -> tuple[Mapping[str, float], Mapping[str, float]]:
        """Best BM25 score per rule over its texts and over its keys, in the asker's language."""
        found = []
        for kind in ("text", "ask"):
            bm25, rules = self._bm25[kind]
            out: Mapping[str, float] = {}
            if q.tokens and len(rules):
                assert bm25 is not None  # built (or loaded) for every kind that has rows
                scores = bm25.get_scores(q.tokens)
                rows = np.flatnonzero(scores > 0)
                rule = rules[rows]
                keep = self._allowed_mask(allowed)[rule]
                out = per_rule(
                    self._rules, self._rule_number, rule[keep], scores[rows[keep]], first=False
                )
            found.append(out)
        return found[0], found[1]

    def adapted(
        self, q: Question, allowed: frozenset[str], qvec: np.ndarray | None = None
    ) -> Mapping[str, float]:
        """Per uncurated (keyless) rule: its texts' best cosine with the adapted question
        (`qvec`, else embedded here)."""
        if not self._uncurated_rows:  # none, or no adapter for these vectors
            return {}
        if qvec is None:
            qvec = self.question_vector(q)
        return self._uncurated_rows.best(qvec[0], self._allowed_mask(allowed))

    def card_signal(self, q: Question, allowed: frozenset[str]) -> dict[str, float]:
        """The rules about the cards the question names."""
        out: dict[str, float] = {}
        for rid, score in q.cards.items():
            rid = self._canonical[rid]
            if rid in allowed:
                out[rid] = max(score, out.get(rid, 0.0))
        return out

    def signals(self, q: Question) -> Signals:
        """Raw per-rule scores of each signal, over the question's candidates only."""
        allowed = self.allowed(q)
        qvec = self.question_vector(q)
        text, keys, votes = self.dense(q, allowed, qvec)
        bm25, bm25_keys = self.lexical(q, allowed)
        adapted = self.adapted(q, allowed, qvec)
        return Signals(text, keys, bm25, bm25_keys, self.card_signal(q, allowed), votes, adapted)

    def candidates(
        self, q: Question, sig: Signals, cited: frozenset[str] = frozenset()
    ) -> list[Candidate]:
        """The best few rules of each signal, each with the features the reranker weighs;
        `cited`: the rulings a computation of the question cites (the caller reads it)."""
        pool: list[str] = []
        for scores in sig.all():
            pool += _best(scores, CANDIDATES_PER_SIGNAL)
        pool = list(dict.fromkeys(pool))
        if not pool:
            return []
        top_text = _top(sig.dense)
        top_keys = _top(sig.dense_keys)
        top_bm25 = _top(sig.bm25) or 1.0
        top_bm25_keys = _top(sig.bm25_keys) or 1.0
        weights = self.vocabulary.question_words(q.tokens, q.lang)
        # The rulings of particular cases the computation cites (FAQ answers: not the rulebook's
        # procedure, nor an erratum, which amends the procedure itself), one per edition group.
        cases = {
            self.archive.edition_group(r)
            for r in cited
            if r in self.archive.records and self.archive.records[r].kind in CASE_KINDS
        }
        # The pool's scores of each signal, looked up at once (one by one, a lookup in arrays
        # costs more than the feature it gives).
        dense, dense_keys, bm25, bm25_keys, adapted = (
            scores_of(scores, pool)
            for scores in (sig.dense, sig.dense_keys, sig.bm25, sig.bm25_keys, sig.adapted)
        )
        # The rival a candidate must be told apart from: the nearest other rule in meaning.
        nearest = sorted(pool, key=lambda r: (-(dense.get(r, 0.0) + dense_keys.get(r, 0.0)), r))
        out = []
        for rid in pool:
            group = self.archive.edition_group(rid)
            rival = next((r for r in nearest if r != rid), None)
            cov = self.vocabulary.coverage(weights, q.lang, rid, rival)
            out.append((
                    rid,
                    with_uncurated_signals({
                        "dense_text": dense.get(rid, 0.0),
                        "dense_keys": dense_keys.get(rid, 0.0),
                        "dense_text_gap": dense.get(rid, 0.0) - top_text,
                        "dense_keys_gap": dense_keys.get(rid, 0.0) - top_keys,
                        "bm25_text": bm25.get(rid, 0.0) / top_bm25,
                        "bm25_keys": bm25_keys.get(rid, 0.0) / top_bm25_keys,
                        "card": sig.card.get(rid, 0.0) / 100.0,
                        "key_votes": sig.key_votes.get(rid, 0.0),
                        "card_about": self.card_about(q, rid) if rid in sig.card else 0.0,
                        "covered": cov.covered,
                        "distinct": cov.distinct,
                        "unknown": cov.unknown,
                        "game_named": float(self.archive.records[rid].game in q.games_named),
                        "computed_cites": float(not cited.isdisjoint(group)),
                        "computed_case": 1.0 / len(cases) if group in cases else 0.0,
                        # Not curated yet: no search keys, no text in the asker's language.
                        "keyless": float(rid in self._keyless),
                        "foreign": float(self._languages.lacks(self._rule_number[rid], q.lang)),
                        "adapted": adapted.get(rid, 0.0),
                    }),
            ))  # fmt: skip
        return out

    def card_about(self, q: Question, rid: str) -> float:
        """How much of the question is the name of a card this rule is about (`name_share`)."""
        return name_share(self._card_names.get(rid, ()), q.folded_body)

    def rerank(self, candidates: list[Candidate]) -> list[tuple[str, float]]:
        """The candidates, best first, with the reranker's probability."""
        return self.calibration.rank(candidates)

    def collapse(
        self, ranked: list[tuple[str, float]], sig: Signals, lang: str, k: int
    ) -> list[Hit]:
        """One hit per rule, showing the asker's edition when there is one."""
        hits: list[Hit] = []
        for rid, score in ranked[: max(k, 2)]:
            group = self.archive.edition_group(rid)
            # The asker's edition, else one readable in the asker's language (an imported
            # ruling may have no translation yet while its linked editions do).
            shown = next((m for m in group if self.archive.records[m].lang == lang), None) or next(
                (m for m in group if lang in self.archive.records[m].translations), rid
            )
            hits.append(Hit(shown, score, sig.dense.get(rid, 0.0), group))
        return hits

    def decide(
        self, q: Question, candidates: list[Candidate], ranked: list[tuple[str, float]]
    ) -> tuple[bool, str, dict[str, float]]:
        """Whether the best candidate answers the question: (declined, reason, its evidence)."""
        return self.calibration.decide(candidates, ranked, other_game=q.other_game is not None)

    # -- the whole search ------------------------------------------------------------------
    def search(
        self,
        question: str,
        *,
        game: str | None = None,
        lang: str | None = None,
        k: int = 3,
        cited: frozenset[str] = frozenset(),
    ) -> SearchResult:
        """The k best rulings for a question, and whether to decline."""
        return self.search_question(self.analyse(question, game=game, lang=lang), k=k, cited=cited)

    def search_question(
        self, q: Question, *, k: int = 3, cited: frozenset[str] = frozenset()
    ) -> SearchResult:
        """Search for an analysed question; `cited`: the rulings a computation of it cites."""
        sig = self.signals(q)
        candidates = self.candidates(q, sig, cited)
        ranked = self.rerank(candidates)
        hits = self.collapse(ranked, sig, q.lang, k)
        game = q.game
        if game is None and hits and self.archive.records[hits[0].record_id].game in q.games_named:
            game = self.archive.records[hits[0].record_id].game  # several named: the one answered
        declined, reason, feats = self.decide(q, candidates, ranked)
        return SearchResult(q.text, q.lang, game, declined, hits, reason, feats)
