"""Fitting the reranker and the answer model, and measuring them honestly (k-fold CV).

    rulings calibrate [QUESTIONS.yaml ...] [--folds 5] [--out indexer/search/calibration.json]

Every question is run once through search's stages (one embedding each) to get its
candidates and their features. Cross-validation then fits on k-1 folds and measures on the
held-out fold, so the figures reported as held-out never come from a model that saw those
questions; the saved calibration is fitted on all of them (its in-sample figures are
reported apart). Folds are stratified by language and answerability, with a fixed seed.

The decline threshold is chosen on the training folds: the one that declines the most
unanswerable questions while declining at most MAX_WRONGLY_DECLINED (3%, the issue's target,
fixed before any measurement) of the answerable ones.
"""

from __future__ import annotations

import logging
import shutil
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from indexer.archive.schema import Archive
from indexer.search.calibration import ANSWER_FEATURES, RERANK_FEATURES, Calibration, LinearModel
from indexer.search.evaluate import LabelledQuestion, Tally
from indexer.search.index import build_index
from indexer.search.results import CARD_LOOKUP, CARD_LOOKUP_SHARE
from indexer.search.searcher import Searcher

log = logging.getLogger(__name__)

MAX_WRONGLY_DECLINED = 0.03
REGULARISATION = 1.0  # sklearn's C: fixed, not tuned on the folds it is measured on
SEED = 0
#: Every how many rulings of no linked edition one is withheld (`withheld_archive`).
WITHHELD_EVERY = 3


@dataclass(frozen=True)
class Row:
    """One question with its candidates: (rule id, edition group, rerank features)."""

    question: LabelledQuestion
    source: str
    candidates: tuple[tuple[str, tuple[str, ...], dict[str, float]], ...]
    declined_by_rule: bool  # e.g. it names a game the archive holds nothing for

    def correct(self, group: tuple[str, ...]) -> bool:
        return bool(set(group) & set(self.question.expect))


def fit_linear(x: list[dict[str, float]], y: list[int], features: tuple[str, ...]) -> LinearModel:
    """A logistic regression over standardised `features`."""
    from sklearn.linear_model import LogisticRegression

    a = np.array([[row.get(f, 0.0) for f in features] for row in x], dtype=np.float64)
    mean = a.mean(axis=0)
    scale = a.std(axis=0)
    scale[scale == 0] = 1.0
    clf = LogisticRegression(C=REGULARISATION, max_iter=2000)
    clf.fit((a - mean) / scale, np.array(y))
    return LinearModel(
        features,
        tuple(float(w) for w in clf.coef_[0]),
        float(clf.intercept_[0]),
        tuple(float(m) for m in mean),
        tuple(float(s) for s in scale),
    )


def fit_rerank(rows: list[Row], features: tuple[str, ...] = RERANK_FEATURES) -> LinearModel:
    x, y = [], []
    for row in rows:
        if not row.question.expect:
            continue  # ranking is learnt from questions that have a right answer
        for _, group, feats in row.candidates:
            x.append(feats)
            y.append(int(row.correct(group)))
    return fit_linear(x, y, features)


def ranked(row: Row, rerank: LinearModel) -> list[tuple[str, tuple[str, ...], float]]:
    """The row's candidates, best first, with the reranker's probability."""
    scored = [(rid, group, rerank.probability(feats)) for rid, group, feats in row.candidates]
    return sorted(scored, key=lambda c: (-c[2], c[0]))


def answer_features(row: Row, order: list[tuple[str, tuple[str, ...], float]]) -> dict[str, float]:
    """What the answer model weighs, for the best candidate of a ranked row."""
    if not order:
        return {}
    rid, _, p_top = order[0]
    feats = dict(next(f for r, _, f in row.candidates if r == rid))
    feats["p_top"] = p_top
    feats["p_gap"] = p_top - (order[1][2] if len(order) > 1 else 0.0)
    return feats


def fit_answer(
    rows: list[Row], rerank: LinearModel, features: tuple[str, ...] = ANSWER_FEATURES
) -> tuple[LinearModel, float]:
    """The answer model (is the best candidate a right answer?) and its threshold."""
    x, y, kinds = [], [], []
    for row in rows:
        order = ranked(row, rerank)
        if not order or row.declined_by_rule:
            continue
        right = bool(row.question.expect) and row.correct(order[0][1])
        x.append(answer_features(row, order))
        y.append(int(right))
        kinds.append("right" if right else ("wrong" if row.question.expect else "outside"))
    model = fit_linear(x, y, features)
    probs = [model.probability(f) for f in x]
    return model, choose_threshold(probs, kinds, [bool(k != "outside") for k in kinds])


def choose_threshold(probs: list[float], kinds: list[str], answerable: list[bool]) -> float:
    """The threshold that declines the most unanswerable questions while declining at most
    MAX_WRONGLY_DECLINED of the answerable ones (the issue's own target, fixed in advance);
    among equals, the one showing the fewest wrong rulings."""
    n_answerable = max(sum(answerable), 1)
    best_t, best = 0.0, (-1.0, 0.0)
    for t in sorted({0.0, *probs}):
        declined = [p < t for p in probs]
        wrongly = sum(d for d, a in zip(declined, answerable) if a) / n_answerable
        if wrongly > MAX_WRONGLY_DECLINED:
            break
        outside = sum(d for d, k in zip(declined, kinds) if k == "outside")
        wrong_shown = sum(not d for d, k in zip(declined, kinds) if k == "wrong")
        score = (outside, -wrong_shown)
        if score > best:
            best_t, best = t, score
    return float(best_t)


def fit(
    rows: list[Row],
    rerank_features: tuple[str, ...] = RERANK_FEATURES,
    answer_features_: tuple[str, ...] = ANSWER_FEATURES,
) -> Calibration:
    rerank = fit_rerank(rows, rerank_features)
    answer, threshold = fit_answer(rows, rerank, answer_features_)
    return Calibration(rerank, answer, threshold)


# -- measuring ------------------------------------------------------------------------------
def decide(row: Row, calib: Calibration) -> tuple[list[tuple[str, tuple[str, ...], float]], bool]:
    """(ranked candidates, declined) for a row under a calibration."""
    order = ranked(row, calib.rerank)
    if row.declined_by_rule or not order:
        return order, True
    feats = answer_features(row, order)
    if feats.get("card", 0.0) >= CARD_LOOKUP and feats.get("card_about", 0.0) >= CARD_LOOKUP_SHARE:
        return order, False  # a card lookup answers (search.Searcher.decide)
    return order, calib.answer.probability(feats) < calib.threshold


def measure(rows: Iterable[tuple[Row, Calibration]]) -> dict:
    """Figures overall, per language and per question set."""
    total = Tally()
    by_lang: defaultdict[str, Tally] = defaultdict(Tally)
    by_source: defaultdict[str, Tally] = defaultdict(Tally)
    for row, calib in rows:
        order, declined = decide(row, calib)
        for tally in (total, by_lang[row.question.lang or "?"], by_source[row.source]):
            tally.add(row.question.expect, [g for _, g, _ in order], declined)
    return {
        "overall": total.figures(),
        "by_language": {k: v.figures() for k, v in sorted(by_lang.items())},
        "by_set": {k: v.figures() for k, v in sorted(by_source.items())},
    }


def folds(rows: list[Row], k: int, seed: int = SEED) -> list[int]:
    """A fold number per row, stratified by language and answerability."""
    rng = np.random.default_rng(seed)
    strata: dict[tuple[str, bool], list[int]] = defaultdict(list)
    for i, row in enumerate(rows):
        strata[(row.question.lang or "?", bool(row.question.expect))].append(i)
    out = [0] * len(rows)
    offset = 0
    for key in sorted(strata):
        members = strata[key]
        rng.shuffle(members)
        for j, i in enumerate(members):
            out[i] = (j + offset) % k
        offset += len(members)
    return out


def cross_validate(
    rows: list[Row],
    k: int = 5,
    *,
    rerank_features: tuple[str, ...] = RERANK_FEATURES,
    answer_features_: tuple[str, ...] = ANSWER_FEATURES,
    seed: int = SEED,
    withheld: Withheld | None = None,
) -> dict:
    """Held-out figures: each fold measured with a calibration fitted on the others. With
    `withheld` (the same questions asked of the archive with some rulings made uncurated), its
    rows train in their question's fold too, and the questions those rulings answer are
    measured apart ("withheld")."""
    fold_of = folds(rows, k, seed)
    extra = withheld.rows if withheld else []
    measured: list[tuple[Row, Calibration]] = []
    measured_extra: list[tuple[Row, Calibration]] = []
    for f in range(k):
        train = [r for r, g in zip(rows, fold_of) if g != f]
        if withheld and withheld.learn:
            train += [r for r, g in zip(extra, fold_of) if g != f]
        calib = fit(train, rerank_features, answer_features_)
        measured += [(r, calib) for r, g in zip(rows, fold_of) if g == f]
        measured_extra += [(r, calib) for r, g in zip(extra, fold_of)
                           if g == f and withheld and withheld.touches(r)]  # fmt: skip
    out = measure(measured)
    if withheld:
        out["withheld"] = measure(measured_extra)["overall"]
    return out


@dataclass(frozen=True)
class Withheld:
    """The rows of the question sets asked of the archive with some rulings withheld (made as
    an import leaves them), in the order of the curated rows, and those rulings."""

    rows: list[Row]
    rulings: frozenset[str]
    learn: bool = False  # fitted on too (else only measured)

    def touches(self, row: Row) -> bool:
        """Whether a withheld ruling answers the row's question."""
        return not self.rulings.isdisjoint(row.question.expect)


def withheld_archive(
    archive: Archive, every: int = WITHHELD_EVERY
) -> tuple[Archive, frozenset[str]]:
    """The archive with every `every`-th ruling of no linked edition (by id) as an import of
    it would be: its original text alone, no search keys, translations or cards, uncurated.
    Fitted on it too, the models learn to neither bury nor over-trust such rulings."""
    chosen = [rid for rid in sorted(archive.records) if not archive.records[rid].related][::every]
    records = dict(archive.records)
    for rid in chosen:
        records[rid] = records[rid].model_copy(
            update={"asks": {}, "translations": {}, "cards": [], "curated": False}
        )
    return Archive(archive.root, records, archive.games, archive.other_games), frozenset(chosen)


def withheld_searcher(searcher: Searcher, folder: Path) -> tuple[Searcher, frozenset[str]]:
    """A searcher over `withheld_archive`, its index built in `folder` from a copy of the
    searcher's (only the withheld rulings are embedded again)."""
    archive, chosen = withheld_archive(searcher.archive)
    shutil.rmtree(folder, ignore_errors=True)
    shutil.copytree(searcher.index.path, folder)
    index, _ = build_index(archive, searcher.embedder, folder, show_progress=False)
    return Searcher(archive, index, searcher.embedder, searcher.calibration), chosen


# -- from questions to rows, and the whole calibration --------------------------------------
def collect(
    searcher, questions: list[LabelledQuestion], source: str, cited: Mapping[str, frozenset[str]]
) -> list[Row]:
    """Run each question through search's stages once: its candidates and their features.

    As in `rulings eval`, only the question's own words are used (no `game` parameter).
    `cited`: question -> the rulings a computation of it cites (read by the caller, as the
    engine reads it for an ask).
    """
    rows = []
    for item in questions:
        q = searcher.analyse(item.q)
        candidates = searcher.candidates(q, searcher.signals(q), cited.get(item.q, frozenset()))
        rows.append(
            Row(
                item,
                source,
                tuple(
                    (rid, searcher.archive.edition_group(rid), feats) for rid, feats in candidates
                ),
                q.other_game is not None,
            )
        )
    return rows


def _without(features: tuple[str, ...], *names: str) -> tuple[str, ...]:
    return tuple(f for f in features if f not in names)


ABLATIONS: dict[str, dict[str, tuple[str, ...]]] = {
    "without the computation's citations": {
        "rerank": _without(RERANK_FEATURES, "computed_cites", "computed_case"),
        "answer": _without(ANSWER_FEATURES, "computed_case"),
    },
    "without the computation's particular case (computed_case)": {
        "rerank": _without(RERANK_FEATURES, "computed_case"),
        "answer": _without(ANSWER_FEATURES, "computed_case"),
    },
    "without the second look (the rival's distinct words)": {
        "rerank": _without(RERANK_FEATURES, "distinct"),
        "answer": ANSWER_FEATURES,
    },
    "+ word coverage (covered; and covered, distinct, unknown in the answer model)": {
        "rerank": RERANK_FEATURES + ("covered",),
        "answer": ANSWER_FEATURES + ("covered", "distinct", "unknown"),
    },
    "+ the uncurated marks (keyless, foreign), learnt from the withheld rulings too": {
        "rerank": RERANK_FEATURES + ("keyless", "foreign"),
        "answer": ANSWER_FEATURES + ("keyless", "foreign"),
    },
    "+ the reranker's margin (p_gap) in the answer model": {
        "rerank": RERANK_FEATURES,
        "answer": ANSWER_FEATURES + ("p_gap",),
    },
    "+ BM25, card match, key votes": {
        "rerank": RERANK_FEATURES + ("bm25_text", "bm25_keys", "card", "key_votes"),
        "answer": ANSWER_FEATURES + ("card", "key_votes"),
    },
    "+ the card's aboutness in both models": {
        "rerank": RERANK_FEATURES + ("card_about",),
        "answer": ANSWER_FEATURES + ("card_about",),
    },
    "+ everything (all features in both models)": {
        "rerank": RERANK_FEATURES
        + (
            "covered",
            "bm25_text",
            "bm25_keys",
            "card",
            "key_votes",
            "dense_text_gap",
            "dense_keys_gap",
            "game_named",
        ),
        "answer": ANSWER_FEATURES + ("covered", "distinct", "unknown", "card", "key_votes"),
    },
}


def calibrate(
    searcher,
    question_sets: dict[str, list[LabelledQuestion]],
    *,
    cited: Mapping[str, frozenset[str]],
    k: int = 5,
    keyless_searcher=None,
    withheld: tuple[Searcher, frozenset[str]] | None = None,
) -> tuple[Calibration, dict]:
    """Fit on every question (the saved calibration) and measure: held-out folds, in-sample,
    and the ablations (each its own cross-validation). `cited`: see `collect`; `withheld`: a
    searcher over `withheld_archive` and the rulings withheld, whose rows are fitted on too."""
    rows = [
        row
        for name, items in question_sets.items()
        for row in collect(searcher, items, name, cited)
    ]
    extra = None
    if withheld is not None:
        extra = Withheld(
            [row for name, items in question_sets.items()
             for row in collect(withheld[0], items, f"{name} (withheld)", cited)],
            withheld[1],
        )  # fmt: skip
    final = fit(rows)
    report: dict[str, Any]
    report = {
        "questions": len(rows),
        "folds": k,
        "seed": SEED,
        "max_wrongly_declined": MAX_WRONGLY_DECLINED,
        "sets": {n: len(v) for n, v in question_sets.items()},
        "held_out": cross_validate(rows, k, withheld=extra),
        "withheld_rulings": sorted(extra.rulings) if extra else [],
        "in_sample": measure((r, final) for r in rows),
        "threshold": final.threshold,
        "ablation": {},
        "ablation_withheld": {},
    }
    for name, feats in ABLATIONS.items():
        learn = extra is not None and "withheld" in name
        measured = cross_validate(
            rows,
            k,
            rerank_features=feats["rerank"],
            answer_features_=feats["answer"],
            withheld=Withheld(extra.rows, extra.rulings, learn) if extra else None,
        )
        report["ablation"][name] = measured["overall"]
        if extra is not None:
            report["ablation_withheld"][name] = measured["withheld"]
    if keyless_searcher is not None:
        keyless = [
            row
            for name, items in question_sets.items()
            for row in collect(keyless_searcher, items, name, cited)
        ]
        report["ablation"]["without search keys (asks)"] = cross_validate(keyless, k)["overall"]
    manifest = searcher.index.manifest
    final = Calibration(
        final.rerank,
        final.answer,
        final.threshold,
        manifest.get("model", ""),
        manifest.get("backend", ""),
        {
            "sets": report["sets"],
            "folds": k,
            "held_out": report["held_out"]["overall"],
            "held_out_withheld": report["held_out"].get("withheld"),
        },
    )
    return final, report
