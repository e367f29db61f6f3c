"""The fit's parts: a question's rows (its candidates and their features), the logistic
reranker and answer model fitted on them, the decline threshold, and honest measuring (k-fold
cross-validation).

Every question is run once through search's stages (one embedding each) to get its
candidates and their features (`collect`). Cross-validation then fits on k-1 folds and
measures on the held-out fold, so the figures reported as held-out never come from a model
that saw those questions. Folds are stratified by language and answerability, with a fixed
seed.

The decline threshold is chosen on the training folds: the one that declines the most
unanswerable questions while declining at most MAX_WRONGLY_DECLINED (3%, the issue's target,
fixed before any measurement) of the answerable ones.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import numpy as np

from indexer.search.calibration import ANSWER_FEATURES, RERANK_FEATURES, Calibration, LinearModel
from indexer.search.evaluate import LabelledQuestion, Tally
from indexer.search.results import CARD_LOOKUP, CARD_LOOKUP_SHARE

MAX_WRONGLY_DECLINED = 0.03
REGULARISATION = 1.0  # sklearn's C: fixed, not tuned on the folds it is measured on
SEED = 0


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
    rows: list[Row],
    rerank: LinearModel,
    features: tuple[str, ...] = ANSWER_FEATURES,
    extra: list[Row] | None = None,
) -> tuple[LinearModel, float]:
    """The answer model (is the best candidate a right answer?) and its threshold. `extra`
    rows (asked of an archive with imported rulings) are learnt from too, but the threshold is
    chosen on `rows` alone: the curated sets' rule of declining (MAX_WRONGLY_DECLINED)."""
    x, y, kinds, curated = [], [], [], []
    for i, row in enumerate([*rows, *(extra or [])]):
        order = ranked(row, rerank)
        if not order or row.declined_by_rule:
            continue
        right = bool(row.question.expect) and row.correct(order[0][1])
        x.append(answer_features(row, order))
        y.append(int(right))
        kinds.append("right" if right else ("wrong" if row.question.expect else "outside"))
        curated.append(i < len(rows))
    model = fit_linear(x, y, features)
    chosen = [(model.probability(f), k) for f, k, c in zip(x, kinds, curated) if c]
    probs, own_kinds = [p for p, _ in chosen], [k for _, k in chosen]
    return model, choose_threshold(probs, own_kinds, [k != "outside" for k in own_kinds])


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
    *,
    extra: list[Row] | None = None,
) -> Calibration:
    """Both models fitted on `rows` and `extra` (see `fit_answer`)."""
    rerank = fit_rerank([*rows, *(extra or [])], rerank_features)
    answer, threshold = fit_answer(rows, rerank, answer_features_, extra)
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
    `withheld` (the same questions asked of the archive with some rulings made uncurated), the
    questions those rulings answer are measured apart ("withheld")."""
    fold_of = folds(rows, k, seed)
    extra = withheld.rows if withheld else []
    measured: list[tuple[Row, Calibration]] = []
    measured_extra: list[tuple[Row, Calibration]] = []
    for f in range(k):
        train = [r for r, g in zip(rows, fold_of) if g != f]
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

    def touches(self, row: Row) -> bool:
        """Whether a withheld ruling answers the row's question."""
        return not self.rulings.isdisjoint(row.question.expect)


# -- from questions to rows -----------------------------------------------------------------
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
